# Wrong: every row read left to right (no boustrophedon).
from collections import deque


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        flat = [0]
        for row in reversed(board):
            flat.extend(row)  # the mistake: alternate rows are not reversed
        dist = [-1] * (n * n + 1)
        dist[1] = 0
        q = deque([1])
        while q:
            s = q.popleft()
            for d in range(1, 7):
                t = s + d
                if t > n * n:
                    break
                if flat[t] != -1:
                    t = flat[t]
                if dist[t] == -1:
                    dist[t] = dist[s] + 1
                    q.append(t)
        return dist[n * n]
