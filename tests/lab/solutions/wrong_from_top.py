# Wrong: square 1 taken as the top-left corner (rows counted from the top).
from collections import deque


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        flat = [0]
        for i, row in enumerate(board):  # the mistake: board, not reversed(board)
            flat.extend(row if i % 2 == 0 else row[::-1])
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
