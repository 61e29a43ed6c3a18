# Wrong: only ladders are taken; a snake's head is treated as a plain square.
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
                if board[r][c] > s2:  # the mistake: snakes (board[r][c] < s2) ignored
                    s2 = board[r][c]
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    queue.append(s2)
        return -1
