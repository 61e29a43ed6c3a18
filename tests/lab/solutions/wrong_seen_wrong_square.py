# Wrong: tests where the move ends, but marks the square the die landed on as visited.
# ruff: noqa: F821 - List comes from what LeetCode (and the judge's harness) puts in scope
from collections import deque


class Solution:
    def snakesAndLadders(self, board: List[List[int]]) -> int:
        n = len(board)
        cells = [None] * (n * n + 1)
        label = 1
        columns = list(range(n))
        for row in range(n - 1, -1, -1):
            for col in columns:
                cells[label] = (row, col)
                label += 1
            columns.reverse()
        visited = {1}
        queue = deque([(1, 0)])
        while queue:
            curr, moves = queue.popleft()
            for i in range(1, 7):
                nxt = curr + i
                if nxt > n * n:
                    break
                r, c = cells[nxt]
                dest = board[r][c] if board[r][c] != -1 else nxt
                if dest == n * n:
                    return moves + 1
                if dest not in visited:
                    visited.add(nxt)  # the mistake: marks nxt, not dest
                    queue.append((dest, moves + 1))
        return -1
