# Wrong: the die taken as 1..5 (range's end is exclusive).
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
            for die in range(1, 6):  # the mistake: range(1, 7) rolls 1..6
                s2 = s + die
                if s2 > n * n:
                    break
                r, c = cell(s2)
                if board[r][c] != -1:
                    s2 = board[r][c]
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    queue.append(s2)
        return -1
