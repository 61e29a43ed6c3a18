"""Independent reference implementations the core is checked against.

Nothing here imports the engine or the solver: these are written from the rules' text
(SPEC 1 and the LeetCode 909 statement), deliberately in a different, plainer style, so a
shared misunderstanding is unlikely to hide in both.
"""

from __future__ import annotations

from collections import deque

# The boards of the seeds: LeetCode 909 example 1 and the low-level design's resolved matrix.
LEETCODE_1 = [
    [-1, -1, -1, -1, -1, -1],
    [-1, -1, -1, -1, -1, -1],
    [-1, -1, -1, -1, -1, -1],
    [-1, 35, -1, -1, 13, -1],
    [-1, -1, -1, -1, -1, -1],
    [-1, 15, -1, -1, -1, -1],
]
LLD_RESOLVED = [
    [36, 35, 22, 33, 32, 20],
    [12, 26, 27, 28, 29, 30],
    [24, 35, 22, 28, 5, 19],
    [13, 14, 22, 2, 17, 18],
    [12, 14, 10, 9, 8, 7],
    [1, 2, 3, 4, 5, 18],
]


def leetcode_909(board: list[list[int]]) -> int:
    """The textbook BFS of LeetCode 909 on a square matrix (coordinates per step)."""
    n = len(board)

    def cell(square: int) -> tuple[int, int]:
        quot, rem = divmod(square - 1, n)
        row = n - 1 - quot
        col = rem if quot % 2 == 0 else n - 1 - rem
        return row, col

    dist = {1: 0}
    queue = deque([1])
    while queue:
        s = queue.popleft()
        if s == n * n:
            return dist[s]
        for nxt in range(s + 1, min(s + 6, n * n) + 1):
            r, c = cell(nxt)
            if board[r][c] != -1:
                nxt = board[r][c]
            if nxt not in dist:
                dist[nxt] = dist[s] + 1
                queue.append(nxt)
    return -1


def matrix_cell(rows: int, cols: int, square: int) -> tuple[int, int]:
    """(row, col) of a square on a rows x cols matrix whose row 0 is on top."""
    level = (square - 1) // cols
    offset = (square - 1) % cols
    row = rows - 1 - level
    col = offset if level % 2 == 0 else cols - 1 - offset
    return row, col


def reference_step(
    matrix: list[list[int]],
    position: int,
    die: int,
    overshoot: str = "stay",
    chain: bool = False,
) -> int | None:
    """Where one roll ends, written straight from SPEC 1; None when the roll is forfeited."""
    rows, cols = len(matrix), len(matrix[0])
    goal = rows * cols

    def jump(square: int) -> int | None:
        r, c = matrix_cell(rows, cols, square)
        value = matrix[r][c]
        return None if value in (-1, square) else value

    square = position
    direction = 1
    for _ in range(die):
        if overshoot == "stay" and position + die > goal:
            return None
        if overshoot == "finish" and square == goal:
            break
        if square == goal:
            direction = -1
        elif square == 1 and direction == -1:
            direction = 1
        square += direction
    destination = jump(square)
    while destination is not None:
        square = destination
        destination = jump(square) if chain else None
    return square


def brute_force_least_rolls(
    matrix: list[list[int]],
    start: int = 1,
    faces: int = 6,
    overshoot: str = "stay",
    chain: bool = False,
) -> int:
    """Least rolls by repeated relaxation (Bellman-Ford style) over every position."""
    rows, cols = len(matrix), len(matrix[0])
    goal = rows * cols
    infinity = goal + 10
    best = {p: infinity for p in range(0, goal + 1)}
    best[goal] = 0
    changed = True
    while changed:
        changed = False
        for p in range(goal - 1, -1, -1):
            for die in range(1, faces + 1):
                q = reference_step(matrix, p, die, overshoot, chain)
                if q is not None and best[q] + 1 < best[p]:
                    best[p] = best[q] + 1
                    changed = True
    return -1 if best[start] >= infinity else best[start]
