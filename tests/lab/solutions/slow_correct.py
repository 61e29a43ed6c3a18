# Right but slow: Bellman-Ford over the squares (n * n passes of every square and every
# die), finding each square's cell by counting the squares up to it: about n^6 for an
# n x n board.
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        goal = n * n

        def cell(s):
            label = 1
            for level in range(n):
                cols = range(n) if level % 2 == 0 else range(n - 1, -1, -1)
                for col in cols:
                    if label == s:
                        return n - 1 - level, col
                    label += 1
            raise ValueError(s)

        inf = float("inf")
        dist = [inf] * (goal + 1)
        dist[1] = 0
        for _ in range(goal):
            for s in range(1, goal):
                if dist[s] == inf:
                    continue
                for d in range(1, 7):
                    t = s + d
                    if t > goal:
                        break
                    r, c = cell(t)
                    if board[r][c] != -1:
                        t = board[r][c]
                    if dist[s] + 1 < dist[t]:
                        dist[t] = dist[s] + 1
        return -1 if dist[goal] == inf else dist[goal]
