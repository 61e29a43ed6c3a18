"""The judge: a solution's answers against snl's solver, board after board; the first
failure checked in a fresh process (an answer that depends on earlier boards is said so),
shrunk to the smallest board on which the solution still fails the same way, and its
mistake named only when one is proven (``mistakes``).

Shrinking (``shrink``) tries fewer jumps first (all of them, then halves, quarters... one
at a time), then smaller boards (the jumps that still fit; a jump onto the old goal goes
to the new one), then small random boards of every size below, and starts again from
every smaller failing board it finds, until no candidate fails or its time is up
(``SHRINK_SECONDS``). A solution too slow on a large board is not shrunk (smaller boards
are fast): its report is the board and the CPU time by size. Every candidate is a board
LeetCode could give, judged against the solver like the others.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
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
from .mistakes import BY_KEY, Mistake, Seen, answer_of, consistent, pool, telling_boards
from .runner import Outcome, Runner

VerdictKind = Literal["accepted", "wrong", "error", "timeout"]
SHRINK_TRIES = 2_000
"""Candidates tried at most while simplifying one failure."""
SHRINK_SECONDS = 40.0
"""Seconds shrinking may take at most: a verdict comes in about a minute, whatever the
solution does (the smallest board found by then is the one shown)."""
SLOW_SHRINK_TRIES = 12
"""Candidates tried at most when each may run to the time limit (an endless search)."""
ENDLESS_SIDE = 6
"""A time-out on a board this small is an endless search: any right search, even a slow
one, answers there in a moment."""
SMALL_TRIES = 200
"""Random boards of each side tried below a failing board."""
EVIDENCE_LIMIT = 400
"""Boards at most a diagnosis is checked against (the failing ones and the smallest)."""
TELLING = 6
"""Boards run at most to tell the surviving mistakes apart."""
MODEL_TRIES = 12
"""Smaller boards tried on which a proven mistake goes wrong."""
MODEL_POOL = 3_000
"""Random boards of each side run through a proven mistake's model to find a smaller one
where it goes wrong."""
MODEL_SECONDS = 30.0
"""A bound on that search (under a second on an idle machine: the count decides, this
only keeps a verdict within about a minute on a very loaded one)."""
MEASURE_TIMES = 5
"""A board too slow for the limit is run again with this many times the limit, to say
how slow it is."""
MEASURABLE = 0.01
"""CPU seconds below which a time says nothing of growth."""
RUN_CPU_LIMIT = 60.0
"""CPU seconds all the boards together may take: a solution just under the per-board
limit on every board is too slow overall (a right search takes a few seconds for 1,000
boards), and the judge's verdict comes in about a minute."""
Progress = Callable[[str, int], None]
"""``progress(stage, count)``: stage 'judging', 'fresh', 'shrinking' or 'proving'."""


@dataclass(frozen=True)
class Proof:
    """What the judge can say of a wrong answer: the one mistake whose model gives the
    solution's answers on every board tried (None: no mistake, or more than one)."""

    mistake: Mistake | None
    variant: str
    boards: int
    """Boards its model was checked against."""
    wrong_boards: int
    """Of them, those where it (and the solution) answered wrongly."""
    fitting: tuple[str, ...] = ()
    """The mistakes still fitting when more than one does (none is named)."""


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
    fresh: Outcome | None = None
    """The failing board run alone in a fresh process, when the answer there differs:
    the solution keeps state between boards."""
    proof: Proof | None = None
    cpu_by_side: dict[int, float] = field(default_factory=dict)
    """The most CPU seconds the solution took on a board of each side."""
    scaled: dict[int, float | None] = field(default_factory=dict)
    """A slow solution's CPU seconds on the failing board scaled to smaller sides, and
    on the board itself given ``MEASURE_TIMES`` its time (None: it ran past that)."""
    overall: float | None = None
    """Too slow overall: the CPU seconds all the boards took together (``matrix`` is the
    slowest of them, answered right)."""
    overall_boards: int = 0
    """The boards those CPU seconds were spent on."""
    overall_limit: float = 0.0
    """The CPU seconds they may take together."""

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

    @property
    def slow(self) -> bool:
        """A time-out from CPU time on a board large enough for a slow search."""
        return (
            self.verdict == "timeout"
            and not self.outcome.stalled
            and self.overall is None
            and self.side > ENDLESS_SIDE
        )

    def growth(self) -> float | None:
        """The exponent k of a CPU time growing like n^k: the least-squares slope of
        log(time) on log(side) over the scaled boards (else the random boards), the
        times under 10 ms left out; None when fewer than two remain."""
        source = self.scaled or self.cpu_by_side
        points = [
            (math.log(side), math.log(cpu))
            for side, cpu in sorted(source.items())
            if cpu is not None and cpu >= MEASURABLE
        ]
        if len(points) < 2:
            return None
        mean_x = sum(x for x, _ in points) / len(points)
        mean_y = sum(y for _, y in points) / len(points)
        spread = sum((x - mean_x) ** 2 for x, _ in points)
        if spread == 0:
            return None
        return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


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
                cpu_seconds=failure.outcome.cpu,
                depends_on_earlier_boards=failure.fresh is not None,
                cpu_seconds_overall=failure.overall,
                fresh_answer=None if failure.fresh is None else failure.fresh.shown(),
            )
        return data


def verdict_of(outcome: Outcome, expected: int) -> VerdictKind:
    """accepted (the right whole number), wrong (another answer), error or timeout."""
    if outcome.kind == "answer":
        return "accepted" if outcome.value == expected else "wrong"
    if outcome.kind == "other":
        return "wrong"
    return outcome.kind


def _seen(matrix: Matrix, expected: int, outcome: Outcome) -> Seen:
    return Seen(matrix, expected, outcome.value if outcome.kind == "answer" else None)


def judge(
    runner: Runner,
    cases: Iterable[Case],
    *,
    shrinking: bool = True,
    progress: Progress | None = None,
    run_cpu_limit: float = RUN_CPU_LIMIT,
) -> Verdict:
    """Run ``runner`` on every case until one fails, or until the boards together take
    more than ``run_cpu_limit`` CPU seconds (0: no such limit); that failure, checked,
    shrunk and diagnosed."""
    began = time.perf_counter()
    checked = 0
    evidence: list[Seen] = []
    cpu_by_side: dict[int, float] = {}
    total = 0.0
    slowest: tuple[float, Case, Outcome] | None = None
    for case in cases:
        checked += 1
        if progress is not None:
            progress("judging", checked)
        outcome = runner.run(case.rows())
        kind = verdict_of(outcome, case.expected)
        if kind == "accepted":
            evidence.append(_seen(case.rows(), case.expected, outcome))
            if outcome.cpu is not None:
                cpu_by_side[case.side] = max(cpu_by_side.get(case.side, 0.0), outcome.cpu)
                total += outcome.cpu
                if slowest is None or outcome.cpu > slowest[0]:
                    slowest = (outcome.cpu, case, outcome)
            if run_cpu_limit > 0 and total > run_cpu_limit and slowest is not None:
                failure = too_slow_overall(slowest[1], slowest[2], total, run_cpu_limit)
                failure = replace(failure, cpu_by_side=cpu_by_side, overall_boards=checked)
                return Verdict("timeout", checked, time.perf_counter() - began, failure)
            continue
        failure = Failure(
            kind,
            case.rows(),
            case.expected,
            outcome,
            case.name,
            case.side,
            cpu_by_side=cpu_by_side,
        )
        if outcome.fatal:
            return Verdict(kind, checked, time.perf_counter() - began, failure)
        if checked > 1 and kind != "timeout":
            fresh = fresh_run(runner, failure, progress)
            if fresh is not None:
                return Verdict(kind, checked, time.perf_counter() - began, fresh)
        evidence.append(_seen(case.rows(), case.expected, outcome))
        if failure.slow:
            failure = measure(runner, failure, progress)
        elif shrinking and not outcome.stalled:
            failure = shrink(runner, failure, evidence, progress)
        if failure.verdict == "wrong":
            failure = diagnose(runner, failure, evidence, progress)
        return Verdict(kind, checked, time.perf_counter() - began, failure)
    return Verdict("accepted", checked, time.perf_counter() - began)


def too_slow_overall(case: Case, outcome: Outcome, total: float, limit: float) -> Failure:
    """The failure of a solution right on every board but slow over them all: its
    slowest board, answered right, and the CPU time of the whole run."""
    text = f"more than {limit:g} s of CPU over all the boards ({total:.1f} s)"
    slow = replace(outcome, kind="timeout", value=None, text=text)
    return Failure(
        "timeout",
        case.rows(),
        case.expected,
        slow,
        case.name,
        case.side,
        overall=total,
        overall_limit=limit,
    )


def measure(runner: Runner, failure: Failure, progress: Progress | None) -> Failure:
    """A too-slow failure with its CPU time measured: the board run again with
    ``MEASURE_TIMES`` the limit, and the same board scaled down to a quarter, a third, a
    half and two thirds of its side (its growth), until one is too slow as well."""
    scaled: dict[int, float | None] = {}
    side = failure.side
    sides = sorted({max(MIN_SIDE + 1, side * k // 12) for k in (3, 4, 6, 8)} - {side})
    for count, less in enumerate(sides, 1):
        if progress is not None:
            progress("measuring", count)
        outcome = runner.run(scaled_board(failure.matrix, less))
        scaled[less] = outcome.cpu if outcome.kind != "timeout" else None
        if outcome.kind == "timeout":
            break
    if progress is not None:
        progress("measuring", len(sides) + 1)
    with runner.longer(runner.time_limit * MEASURE_TIMES) as longer:
        outcome = longer.run(failure.matrix)
    scaled[side] = outcome.cpu if outcome.kind != "timeout" else None
    return replace(failure, scaled=scaled)


def scaled_board(matrix: Matrix, side: int) -> Matrix:
    """``matrix``'s jumps scaled to a ``side x side`` board (those that still fit)."""
    goal, new_goal = len(matrix) ** 2, side * side
    kept: dict[int, int] = {}
    for start, end in jumps_of(matrix).items():
        a = moved(start, "scale", 0, new_goal / goal)
        b = new_goal if end == goal else moved(end, "scale", 0, new_goal / goal)
        if 2 <= a < new_goal and 1 <= b <= new_goal and a != b and a not in kept:
            kept[a] = b
    return matrix_of(side, kept)


def fresh_run(runner: Runner, failure: Failure, progress: Progress | None) -> Failure | None:
    """``failure`` with the answer a fresh process gives on its board, when that answer
    differs (the solution keeps state between boards); None when it is the same."""
    other = runner.fresh()
    if other is runner:
        return None  # every board already runs in a fresh process
    if progress is not None:
        progress("fresh", 1)
    with other:
        outcome = other.run(failure.matrix)
    same = outcome.kind == failure.outcome.kind and outcome.shown() == failure.outcome.shown()
    if same or outcome.kind == "timeout" or failure.verdict == "timeout":
        return None
    return replace(failure, fresh=outcome)


def shrink(
    runner: Runner,
    failure: Failure,
    evidence: list[Seen] | None = None,
    progress: Progress | None = None,
    tries: int = SHRINK_TRIES,
) -> Failure:
    """The smallest board found on which ``runner`` fails as in ``failure``: simpler
    boards made from it, then small random boards of every side below, each failing one
    simplified again; within ``SHRINK_SECONDS``."""
    began = time.perf_counter()
    deadline = time.monotonic() + SHRINK_SECONDS
    if failure.verdict == "timeout":
        tries = SLOW_SHRINK_TRIES
    log = evidence if evidence is not None else []
    counter = [0]

    def attempt(matrix: Matrix, expected: int) -> Outcome | None:
        if counter[0] >= tries or time.monotonic() > deadline:
            return None
        counter[0] += 1
        if progress is not None:
            progress("shrinking", counter[0])
        outcome = runner.run(matrix)
        log.append(_seen(matrix, expected, outcome))
        return outcome

    best = simplify(attempt, failure)
    for case in small_cases(best.side):
        if counter[0] >= tries or time.monotonic() > deadline:
            break
        outcome = attempt(case.rows(), case.expected)
        if outcome is None:
            break
        if verdict_of(outcome, case.expected) == failure.verdict:
            small = replace(best, matrix=case.rows(), expected=case.expected, outcome=outcome)
            best = simplify(attempt, small)
    return replace(
        best,
        found_on=failure.found_on,
        found_side=failure.found_side,
        shrink_tries=counter[0],
        shrink_seconds=time.perf_counter() - began,
        first=(failure.matrix, failure.expected, failure.outcome),
    )


def small_cases(side: int) -> Iterator[Case]:
    """Boards smaller than ``side``: the edge cases, then random ones, smallest first;
    random ones of a side stop once a smaller failing board is needed (the caller
    shrinks again from the one it finds, so the rest of that side is skipped)."""
    yield from (case for case in edge_cases() if case.side < side)
    rng = random.Random(side)
    for less in range(MIN_SIDE + 1, side):
        for index in range(SMALL_TRIES):
            yield random_case(rng, less, index + 1)


Attempt = Callable[[Matrix, int], Outcome | None]


def simplify(attempt: Attempt, failure: Failure) -> Failure:
    """``failure`` made simpler by ``smaller`` while the solution still fails the same
    way, until ``attempt`` says no more (None)."""
    best = failure
    improved = True
    while improved:
        improved = False
        for candidate in smaller(best.matrix):
            expected = expected_answer(candidate)
            outcome = attempt(candidate, expected)
            if outcome is None:
                return best
            if verdict_of(outcome, expected) == failure.verdict:
                best = replace(best, matrix=candidate, expected=expected, outcome=outcome)
                improved = True
                break
    return best


def diagnose(
    runner: Runner, failure: Failure, evidence: list[Seen], progress: Progress | None
) -> Failure:
    """``failure`` with its proof: the one mistake whose model gives the solution's
    answers on every board tried and on a few more chosen to tell the mistakes apart,
    then (when one is proven) a smaller board where that mistake goes wrong."""
    if failure.outcome.kind != "answer":
        return replace(failure, proof=Proof(None, "", 0, 0))
    here = _seen(failure.matrix, failure.expected, failure.outcome)
    wrong = [seen for seen in evidence if seen.got != seen.expected]
    right = [seen for seen in evidence if seen.got == seen.expected]
    right.sort(key=lambda seen: len(seen.matrix))
    ordered = [here, *wrong, *right][:EVIDENCE_LIMIT]
    alive = consistent(ordered)
    runs = [0]

    def ask(matrix: Matrix, expected: int) -> Seen:
        runs[0] += 1
        if progress is not None:
            progress("proving", runs[0])
        seen = _seen(matrix, expected, runner.run(matrix))
        ordered.append(seen)
        return seen

    if alive:
        for matrix, expected in telling_boards(alive, pool(len(failure.matrix)), TELLING):
            alive = consistent([ask(matrix, expected)], alive)
            if not alive:
                break
    order = list(BY_KEY)
    keys = sorted({key for key, _ in alive}, key=order.index)
    if len(keys) != 1:
        return replace(failure, proof=Proof(None, "", len(ordered), 0, tuple(keys)))
    failure = smaller_by_model(failure, alive[0], ask)
    alive = consistent(ordered, alive)  # the boards just asked included
    if len({key for key, _ in alive}) != 1:
        return replace(failure, proof=Proof(None, "", len(ordered), 0, tuple(keys)))
    pair = alive[0]
    wrong_boards = sum(
        1 for seen in ordered if answer_of(pair, seen.matrix, seen.expected)[0] != seen.expected
    )
    if wrong_boards < 2:
        return replace(failure, proof=Proof(None, "", len(ordered), 0, tuple(keys)))
    proof = Proof(BY_KEY[pair[0]], pair[1], len(ordered), wrong_boards)
    return replace(failure, proof=proof)


def smaller_by_model(
    failure: Failure, pair: tuple[str, str], ask: Callable[[Matrix, int], Seen]
) -> Failure:
    """A smaller board where ``pair``'s model goes wrong and the solution gives the same
    wrong answer. The model alone (microseconds a board) shrinks the failing board across
    sizes, then looks through random boards of each smaller side, smallest first; each
    board it finds is asked of the solution, within ``MODEL_SECONDS`` and ``MODEL_TRIES``
    runs."""
    deadline = time.monotonic() + MODEL_SECONDS
    answer = failure.outcome.value
    assert answer is not None
    found = [simpler_by_model(pair, failure.matrix, failure.expected, answer, deadline)]
    for side in range(MIN_SIDE, len(found[0][0])):
        rng = random.Random(side * 7919)
        for index in range(MODEL_POOL):
            if time.monotonic() > deadline:
                break
            case = random_case(rng, side, index + 1)
            got = answer_of(pair, case.rows(), case.expected)[0]
            if got is not None and got != case.expected:
                found.append(simpler_by_model(pair, case.rows(), case.expected, got, deadline))
                break
        if len(found) > 1:
            break
    found.sort(key=lambda item: (len(item[0]), len(jumps_of(item[0]))))
    for matrix, expected, wrong in found[:MODEL_TRIES]:
        if len(matrix) > len(failure.matrix) or matrix == failure.matrix:
            continue
        seen = ask(matrix, expected)
        if seen.got == wrong:
            outcome = Outcome("answer", wrong)
            return replace(failure, matrix=matrix, expected=expected, outcome=outcome)
    return failure


def simpler_by_model(
    pair: tuple[str, str], matrix: Matrix, expected: int, answer: int, deadline: float
) -> tuple[Matrix, int, int]:
    """``matrix`` made simpler (``smaller``: fewer jumps, smaller sides) while ``pair``'s
    model still goes wrong on it."""
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in smaller(matrix):
            right = expected_answer(candidate)
            got = answer_of(pair, candidate, right)[0]
            if got is not None and got != right:
                matrix, expected, answer = candidate, right, got
                improved = True
                break
    return matrix, expected, answer


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
