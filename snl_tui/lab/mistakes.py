"""The typical wrong solutions of LeetCode 909, as small models: which of them gives the
answer a judged solution gave tells the person what their solution probably does.

Each model is the textbook search with one mistake in it (the tutorials in the seeds show
them all). They are deliberately wrong, and kept here, apart from the engine, which holds
the one right version of every rule: nothing but the judge's diagnosis runs them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

Matrix = list[list[int]]
FACES = 6
CHAIN_LIMIT = 10_000
"""A chain of jumps longer than this loops (a cycle of jumps)."""


@dataclass(frozen=True)
class Mistake:
    """One typical mistake: its name, what it does wrong, and its model."""

    key: str
    title: str
    why: str
    model: Callable[[Matrix], tuple[int | None, list[int]]]
    """(its answer or None when it would never end, the squares of its route)."""


def _cell(n: int, square: int, from_top: bool = False) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    row = n - 1 - level
    backwards = (row % 2 == 1) if from_top else (level % 2 == 1)
    return row, n - 1 - offset if backwards else offset


def _true_square(n: int, row: int, col: int) -> int:
    level = n - 1 - row
    return level * n + (col if level % 2 == 0 else n - 1 - col) + 1


def search(
    matrix: Matrix,
    *,
    faces: int = FACES,
    chain: bool = False,
    from_top: bool = False,
    stack: bool = False,
    goal_before_jump: bool = False,
    climb_costs: bool = False,
    snakes: bool = True,
    unreachable: int = -1,
) -> tuple[int | None, list[int]]:
    """The textbook search with the mistakes switched on: (answer, route squares)."""
    n = len(matrix)
    goal = n * n

    def jump(square: int) -> int | None:
        row, col = _cell(n, square, from_top)
        end = matrix[row][col]
        if end == -1 or end == square or (not snakes and end < square):
            return None
        return end

    def route(parent: dict[int, int], square: int) -> list[int]:
        squares = [square]
        while squares[-1] in parent:
            squares.append(parent[squares[-1]])
        return [_true_square(n, *_cell(n, s, from_top)) for s in reversed(squares)]

    dist = {1: 0}
    parent: dict[int, int] = {}
    queue = deque([1])
    while queue:
        here = queue.pop() if stack else queue.popleft()
        for landed in range(here + 1, min(here + faces, goal) + 1):
            if goal_before_jump and landed == goal:
                parent[goal] = here
                return dist[here] + 1, route(parent, goal)
            there, cost = landed, 1
            end = jump(there)
            if end is not None:
                there, cost = end, 2 if climb_costs else 1
                seen = {landed}
                while chain and (end := jump(there)) is not None:
                    if there in seen or len(seen) > CHAIN_LIMIT:
                        return None, []
                    seen.add(there)
                    there = end
            if there not in dist:
                dist[there] = dist[here] + cost
                parent[there] = here
                if there == goal and not goal_before_jump:
                    return dist[there], route(parent, goal)
                queue.append(there)
    return unreachable, []


def greedy(matrix: Matrix) -> tuple[int | None, list[int]]:
    """Always the farthest square one move can reach (None: it goes round in circles)."""
    n = len(matrix)
    goal = n * n
    here, squares, seen = 1, [1], {1}
    while here != goal:
        best = here
        for landed in range(here + 1, min(here + FACES, goal) + 1):
            row, col = _cell(n, landed)
            end = matrix[row][col]
            best = max(best, landed if end == -1 else end)
        if best in seen:
            return None, []
        here = best
        seen.add(here)
        squares.append(here)
    return len(squares) - 1, squares


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "chain",
        "follows a jump that ends on another jump",
        "a move takes at most one snake or ladder, even when it ends on another's start",
        lambda m: search(m, chain=True),
    ),
    Mistake(
        "rows-from-top",
        "numbers the rows from the top",
        "square 1 is bottom left and the bottom row runs left to right, whatever the size; "
        "on even sizes the top row then runs right to left",
        lambda m: search(m, from_top=True),
    ),
    Mistake(
        "stack",
        "pops the queue from the wrong end",
        "list.pop() takes the newest square: a depth-first order, whose first distance to a "
        "square is not always the least",
        lambda m: search(m, stack=True),
    ),
    Mistake(
        "goal-before-jump",
        "checks for the goal before the jump",
        "a ladder onto the goal reaches it too: check the square the move ends on",
        lambda m: search(m, goal_before_jump=True),
    ),
    Mistake(
        "climb-costs",
        "counts a climb as a move",
        "taking a snake or ladder is part of the move that landed on it",
        lambda m: search(m, climb_costs=True),
    ),
    Mistake(
        "five-faces",
        "rolls 1 to 5",
        "the die has six faces: range(1, 7), or range(s + 1, s + 7)",
        lambda m: search(m, faces=5),
    ),
    Mistake(
        "no-snakes",
        "ignores the snakes",
        "a snake must be taken too: a square with a snake's head is never where a move ends",
        lambda m: search(m, snakes=False),
    ),
    Mistake(
        "zero",
        "returns 0 when the goal cannot be reached",
        "LeetCode asks for -1 when no sequence of rolls reaches the goal",
        lambda m: search(m, unreachable=0),
    ),
    Mistake(
        "greedy",
        "always moves as far as it can",
        "the farthest square is not always on a shortest route: search them all",
        greedy,
    ),
)


@dataclass(frozen=True)
class Diagnosis:
    """A mistake whose model gives the judged answer, with that model's route."""

    mistake: Mistake
    squares: list[int]


def diagnose(matrix: Matrix, expected: int, got: int) -> list[Diagnosis]:
    """The typical mistakes that answer ``got`` on ``matrix`` (where the right answer is
    ``expected``), in the order of ``MISTAKES``."""
    if got == expected:
        return []
    found = []
    for mistake in MISTAKES:
        answer, squares = mistake.model(matrix)
        if answer == got:
            found.append(Diagnosis(mistake, squares))
    return found
