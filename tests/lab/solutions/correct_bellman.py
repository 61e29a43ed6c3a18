# Correct, and no search at all: relax every square's six moves until nothing changes
# (Bellman-Ford with unit weights).
class Solution(object):
    def snakesAndLadders(self, board):
        n = len(board)
        goal = n * n
        where = {}
        for r in range(n):
            for c in range(n):
                level = n - 1 - r
                square = level * n + (c if level % 2 == 0 else n - 1 - c) + 1
                where[square] = board[r][c]
        infinity = float("inf")
        best = [infinity] * (goal + 1)
        best[1] = 0
        changed = True
        while changed:
            changed = False
            for s in range(1, goal):
                if best[s] == infinity:
                    continue
                for t in range(s + 1, min(s + 6, goal) + 1):
                    end = where[t] if where[t] != -1 else t
                    if best[s] + 1 < best[end]:
                        best[end] = best[s] + 1
                        changed = True
        return -1 if best[goal] == infinity else int(best[goal])
