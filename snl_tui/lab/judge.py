"""The judge: a solution's answers against snl's solver, board after board, and the first
failure shrunk to the smallest board on which the solution still fails the same way.

Shrinking (``shrink``) tries fewer jumps first (all of them, then halves, quarters... one
at a time), then smaller boards (the jumps that still fit; a jump onto the old goal goes
to the new one), and starts again from every smaller failing board it finds, until no
candidate fails. Every candidate is a board LeetCode could give, judged against the
solver like the others.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from .boards import (
    MIN_SIDE,
    Case,
    Matrix,
    edge_cases,
    expected_answer,
    jumps_of,
    matrix_of,
    random_case,
)
from .runner import Outcome, Runner

VerdictKind = Literal["accepted", "wrong", "error", "timeout"]
SHRINK_TRIES = 2_000
"""Candidates tried at most while simplifying one failure."""
SMALL_SIDE = 3
SMALL_TRIES = 300
"""Random boards of each side from ``SMALL_SIDE`` up tried when simplifying leaves a
board larger than ``SMALL_SIDE``."""


@dataclass(frozen=True)
class Failure:
    """A board the solution gets wrong, and what it did there."""

    verdict: VerdictKind
    matrix: Matrix
    expected: int
    outcome: Outcome
    found_on: str
    """The board where the judge first saw it fail ('random 7x7 #31')."""
    found_side: int
    shrink_tries: int = 0
    shrink_seconds: float = 0.0
    first: tuple[Matrix, int, Outcome] | None = None
    """The board where it was first seen, its expected answer and the outcome there."""

    @property
    def side(self) -> int:
        return len(self.matrix)

    @property
    def got(self) -> int | str | None:
        """The answer as JSON gives it: a number, the text of anything else, or None."""
        if self.outcome.kind == "answer":
            return self.outcome.value
        if self.outcome.kind == "other":
            return self.outcome.text
        return None


@dataclass(frozen=True)
class Verdict:
    """The judge's word on a solution."""

    verdict: VerdictKind
    boards: int
    """Boards checked (up to and including the first failing one)."""
    seconds: float
    failure: Failure | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def accepted(self) -> bool:
        return self.verdict == "accepted"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"verdict": self.verdict, "boards": self.boards}
        failure = self.failure
        if failure is not None:
            data.update(
                board=failure.matrix,
                expected=failure.expected,
                got=failure.got,
                message=failure.outcome.text or None,
                found_on=failure.found_on,
            )
        return data


def verdict_of(outcome: Outcome, expected: int) -> VerdictKind:
    """accepted (the right whole number), wrong (another answer), error or timeout."""
    if outcome.kind == "answer":
        return "accepted" if outcome.value == expected else "wrong"
    if outcome.kind == "other":
        return "wrong"
    return outcome.kind


def judge(
    runner: Runner,
    cases: Iterable[Case],
    *,
    shrinking: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Verdict:
    """Run ``runner`` on every case until one fails; that failure, shrunk."""
    began = time.perf_counter()
    checked = 0
    for case in cases:
        checked += 1
        outcome = runner.run(case.rows())
        kind = verdict_of(outcome, case.expected)
        if progress is not None:
            progress(checked)
        if kind == "accepted":
            continue
        failure = Failure(kind, case.rows(), case.expected, outcome, case.name, case.side)
        if shrinking and not outcome.fatal:
            failure = shrink(runner, failure)
        return Verdict(kind, checked, time.perf_counter() - began, failure)
    return Verdict("accepted", checked, time.perf_counter() - began)


def shrink(runner: Runner, failure: Failure, tries: int = SHRINK_TRIES) -> Failure:
    """The smallest board found on which ``runner`` fails as in ``failure``: simpler
    boards made from it, then (when that leaves a board over 3x3) small random boards,
    each failing one simplified again."""
    began = time.perf_counter()
    best, tried = simplify(runner, failure, tries)
    if best.side > SMALL_SIDE:
        for case in small_cases(best.side):
            tried += 1
            outcome = runner.run(case.rows())
            if verdict_of(outcome, case.expected) == failure.verdict:
                small = Failure(failure.verdict, case.rows(), case.expected, outcome, "", 0)
                best, more = simplify(runner, small, tries)
                tried += more
                break
    return Failure(
        best.verdict,
        best.matrix,
        best.expected,
        best.outcome,
        failure.found_on,
        failure.found_side,
        tried,
        time.perf_counter() - began,
        (failure.matrix, failure.expected, failure.outcome),
    )


def small_cases(side: int) -> Iterator[Case]:
    """Boards smaller than ``side``: the edge cases, then random ones, smallest first."""
    yield from (case for case in edge_cases() if case.side < side)
    rng = random.Random(side)
    for less in range(SMALL_SIDE, side):
        for index in range(SMALL_TRIES):
            yield random_case(rng, less, index + 1)


def simplify(runner: Runner, failure: Failure, tries: int) -> tuple[Failure, int]:
    """``failure`` made simpler by ``smaller`` while the solution still fails the same
    way; with the number of boards tried."""
    best = failure
    tried = 0
    improved = True
    while improved and tried < tries:
        improved = False
        for candidate in smaller(best.matrix):
            if tried >= tries:
                break
            tried += 1
            expected = expected_answer(candidate)
            outcome = runner.run(candidate)
            if verdict_of(outcome, expected) == failure.verdict:
                best = Failure(
                    failure.verdict,
                    candidate,
                    expected,
                    outcome,
                    failure.found_on,
                    failure.found_side,
                )
                improved = True
                break
    return best, tried


def smaller(matrix: Matrix) -> Iterator[Matrix]:
    """Boards simpler than ``matrix``: fewer jumps first, then a smaller side."""
    side = len(matrix)
    jumps = jumps_of(matrix)
    starts = list(jumps)
    chunk = len(starts)
    while chunk >= 1:
        for first in range(0, len(starts), chunk):
            dropped = set(starts[first : first + chunk])
            yield matrix_of(side, {s: e for s, e in jumps.items() if s not in dropped})
        chunk //= 2
    goal = side * side
    for less in range(MIN_SIDE, side):
        new_goal = less * less
        shift = goal - new_goal
        for how in ("fit", "shift", "scale"):
            kept: dict[int, int] = {}
            for start, end in jumps.items():
                a = moved(start, how, shift, new_goal / goal)
                b = new_goal if end == goal else moved(end, how, shift, new_goal / goal)
                if 2 <= a < new_goal and 1 <= b <= new_goal and a != b and a not in kept:
                    kept[a] = b
            yield matrix_of(less, kept)


def moved(square: int, how: str, shift: int, scale: float) -> int:
    """Where ``square`` goes on a smaller board: the same number (``fit``), as far from
    the goal (``shift``), or scaled down (``scale``)."""
    if how == "shift":
        return square - shift
    if how == "scale":
        return round(square * scale)
    return square
