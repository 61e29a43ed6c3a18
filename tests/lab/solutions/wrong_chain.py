# Wrong: follows a jump that ends on another jump's start (LeetCode: one jump per move).
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
                hops = 0
                while board[r][c] != -1 and hops < n * n:  # the mistake: while, not if
                    s2 = board[r][c]
                    r, c = cell(s2)
                    hops += 1
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    queue.append(s2)
        return -1
