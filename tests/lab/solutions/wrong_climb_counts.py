# Wrong: a climb (or a slide) counted as a move of its own.
import collections


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            quot, rem = divmod(s - 1, n)
            return n - 1 - quot, rem if quot % 2 == 0 else n - 1 - rem

        dist = {1: 0}
        queue = collections.deque([1])
        while queue:
            s = queue.popleft()
            if s == n * n:
                return dist[s]
            for s2 in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(s2)
                cost = 1
                if board[r][c] != -1:
                    s2 = board[r][c]
                    cost = 2  # the mistake: the jump is part of the same move
                if s2 not in dist:
                    dist[s2] = dist[s] + cost
                    queue.append(s2)
        return -1
