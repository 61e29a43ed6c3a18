# Wrong twice (deliberately ambiguous): a five-faced die and every row read left to right.
# No single known mistake gives its answers, so the judge must name none.
from collections import deque


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        flat = [0]
        for row in reversed(board):
            flat.extend(row)
        dist = [-1] * (n * n + 1)
        dist[1] = 0
        q = deque([1])
        while q:
            s = q.popleft()
            for d in range(1, 6):
                t = s + d
                if t > n * n:
                    break
                if flat[t] != -1:
                    t = flat[t]
                if dist[t] == -1:
                    dist[t] = dist[s] + 1
                    q.append(t)
        return dist[n * n]
