# Wrong: the distances live in a class attribute, kept from one board to the next.
from collections import deque


class Solution:
    dist = {}

    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            q, r = divmod(s - 1, n)
            return n - 1 - q, (r if q % 2 == 0 else n - 1 - r)

        dist = self.dist  # the mistake: one dict for every board
        dist[1] = 0
        queue = deque([1])
        while queue:
            s = queue.popleft()
            if s == n * n:
                return dist[s]
            for t in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(t)
                if board[r][c] != -1:
                    t = board[r][c]
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
        return -1
