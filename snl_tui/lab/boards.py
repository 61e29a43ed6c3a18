"""The boards the judge tries, in order: LeetCode's two examples, the edge cases where the
typical wrong solutions fail, then seeded random boards of growing size.

Every board keeps LeetCode 909's constraints (a square ``n x n`` matrix, ``2 <= n <= 20``,
no jump on square 1 or on the goal), so a solution written for the site can be judged
as it is. The expected answers are snl's solver's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..core.board import Board
from ..core.files.formats import load_board
from ..core.solver import solve

Matrix = list[list[int]]
MIN_SIDE, MAX_SIDE = 2, 20
"""LeetCode 909's board sizes."""
FACES = 6

EXAMPLES = (("LeetCode example 1", "leetcode-1"), ("LeetCode example 2", "leetcode-2"))
"""LeetCode's two examples, as the built-in boards hold them (their one source)."""


@dataclass(frozen=True)
class Case:
    """One board to judge on, with the answer snl's solver gives."""

    name: str
    """Where it comes from: 'LeetCode example 1', 'edge: ladder onto the goal'."""
    matrix: tuple[tuple[int, ...], ...]
    expected: int

    @property
    def side(self) -> int:
        return len(self.matrix)

    def rows(self) -> Matrix:
        """A fresh list of lists (a solution may change the one it is given)."""
        return [list(row) for row in self.matrix]


def jumps_of(matrix: Matrix | tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """start -> end of every jump in a LeetCode matrix (a cell holding its own number, or
    -1, is no jump)."""
    board = Board.from_matrix(matrix)
    return board.jumps


def matrix_of(side: int, jumps: Mapping[int, int]) -> Matrix:
    """The LeetCode matrix of a ``side x side`` board with ``jumps`` (validated)."""
    return Board(side, side, jumps.items()).to_matrix()


def expected_answer(matrix: Matrix | tuple[tuple[int, ...], ...]) -> int:
    """LeetCode 909's answer for ``matrix``: snl's solver, with LeetCode's rules."""
    return solve(Board.from_matrix(matrix)).moves


def leetcode_problem(matrix: Matrix) -> str | None:
    """Why ``matrix`` is not a board LeetCode could give (None: it is one)."""
    side = len(matrix)
    if not MIN_SIDE <= side <= MAX_SIDE or any(len(row) != side for row in matrix):
        return f"LeetCode's boards are square, {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}"
    jumps = jumps_of(matrix)
    if 1 in jumps:
        return "LeetCode's square 1 has no snake or ladder"
    return None


def case(name: str, side: int, jumps: Mapping[int, int]) -> Case:
    matrix = matrix_of(side, jumps)
    return Case(name, tuple(map(tuple, matrix)), expected_answer(matrix))


def examples() -> list[Case]:
    """LeetCode's two examples (every solution worth judging passes them)."""
    cases = []
    for name, builtin in EXAMPLES:
        matrix = load_board(builtin).to_matrix()
        cases.append(Case(name, tuple(map(tuple, matrix)), expected_answer(matrix)))
    return cases


def edge_cases() -> list[Case]:
    """Small boards, each built to catch one typical mistake (docs/lab.md lists them)."""
    return [
        case("edge: 2x2 without jumps", 2, {}),
        case("edge: 3x3 without jumps", 3, {}),
        case("edge: a ladder onto the goal", 3, {2: 9}),
        case("edge: a ladder onto the goal", 4, {3: 16, 7: 2}),
        case("edge: a jump onto another jump", 3, {2: 5, 5: 9}),
        case("edge: a jump onto another jump", 4, {2: 12, 12: 16, 8: 3}),
        case("edge: a snake onto a ladder", 4, {9: 3, 3: 14, 10: 2}),
        case("edge: rows numbered from the bottom", 4, {5: 15, 3: 1}),
        case("edge: rows numbered from the bottom", 4, {6: 14, 11: 2, 12: 2}),
        case("edge: a wall of five snakes", 3, {2: 1, 3: 1, 4: 1, 5: 1, 6: 1}),
        case("edge: a ladder to climb, or not", 3, {2: 8, 7: 1}),
        case("edge: snakes into a wall", 3, {s: 1 for s in range(3, 9)}),
        case("edge: the goal cannot be reached", 4, {s: 2 for s in range(8, 14)}),
        case("edge: a snake that must be taken", 4, {10: 4, 4: 15, 11: 1, 12: 1, 13: 1, 14: 1}),
        case("edge: the farthest square is a trap", 4, {2: 9, 8: 16}),
        case("edge: 5x5 with a long ladder", 5, {2: 23, 24: 3}),
        case("edge: 5x5 snakes and ladders", 5, {4: 17, 9: 2, 13: 21, 20: 6, 22: 5}),
    ]


def random_case(rng: random.Random, side: int, index: int) -> Case:
    """A random ``side x side`` board: jumps of every kind, some ending on another jump's
    start, sometimes a ladder onto the goal or a wall of snakes."""
    goal = side * side
    density = rng.choice((0.05, 0.12, 0.25, 0.4))
    count = rng.randint(0, max(1, int(goal * density)))
    starts = list(range(2, goal))
    rng.shuffle(starts)
    jumps: dict[int, int] = {}
    for start in starts[:count]:
        end = rng.randint(1, goal)
        if end != start:
            jumps[start] = end
    if jumps and rng.random() < 0.3:
        # Land some jumps on another jump's start: one jump per move.
        for start in list(jumps)[: rng.randint(1, 3)]:
            others = [s for s in jumps if s != start]
            if others:
                jumps[start] = rng.choice(others)
    if rng.random() < 0.15:
        jumps[rng.randint(2, goal - 1)] = goal  # a ladder onto the goal
    if side >= 3 and rng.random() < 0.1:
        # A run of up to six snake heads: a wall, or nearly one.
        first = rng.randint(2, max(2, goal - 7))
        for s in range(first, min(goal, first + rng.choice((5, 6)))):
            jumps[s] = rng.randint(1, s - 1) if s > 1 else 1
    jumps = {s: e for s, e in jumps.items() if e != s}
    return case(f"random {side}x{side} #{index}", side, jumps)


def random_cases(count: int, seed: int) -> Iterator[Case]:
    """``count`` random boards from 3x3 up to 20x20, smaller ones first (a failure on a
    small board is cheap to shrink). The same seed gives the same boards."""
    rng = random.Random(seed)
    for index in range(count):
        side = 3 + (MAX_SIDE - 2) * index // max(1, count)
        yield random_case(rng, min(side, MAX_SIDE), index + 1)


def size_probe() -> Case:
    """The largest board LeetCode gives, without jumps (the most squares to search):
    tried before the random boards, so a solution too slow for it is told at once rather
    than after hundreds of boards that each take most of the limit."""
    return case(f"size: {MAX_SIDE}x{MAX_SIDE} without jumps", MAX_SIDE, {})


def judge_cases(count: int, seed: int) -> Iterator[Case]:
    """The boards ``snl judge`` tries: the examples, the edge cases, the size probe, then
    random boards, ``count`` in all (the fixed ones first, whatever ``count`` is)."""
    fixed = examples() + edge_cases() + [size_probe()]
    yield from fixed[:count]
    yield from random_cases(max(0, count - len(fixed)), seed)
