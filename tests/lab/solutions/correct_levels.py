# Correct: level by level, the board flattened first, a visited list, no deque.
from typing import List


class Solution:
    def snakesAndLadders(self, board: List[List[int]]) -> int:
        n = len(board)
        flat = [0]
        for i, row in enumerate(reversed(board)):
            flat.extend(row if i % 2 == 0 else row[::-1])
        goal = n * n
        seen = [False] * (goal + 1)
        seen[1] = True
        level, moves = [1], 0
        while level:
            moves += 1
            following = []
            for s in level:
                for die in range(1, 7):
                    t = s + die
                    if t > goal:
                        break
                    if flat[t] != -1:
                        t = flat[t]
                    if t == goal:
                        return moves
                    if not seen[t]:
                        seen[t] = True
                        following.append(t)
            level = following
        return -1
