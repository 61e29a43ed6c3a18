# Right but slow: Bellman-Ford over the squares (n * n passes of every square and every
# die), finding each square's cell by walking the rows: about n^5 for an n x n board.
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        goal = n * n

        def cell(s):
            for level in range(n):
                if s <= (level + 1) * n:
                    offset = s - 1 - level * n
                    col = offset if level % 2 == 0 else n - 1 - offset
                    return n - 1 - level, col
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
