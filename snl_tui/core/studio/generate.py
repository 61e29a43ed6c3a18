"""The board generator (SPEC 7): find a board that meets a designer's targets.

Method: simulated annealing over jump placements. A candidate is a set of ladders and
snakes; a step moves one end of a jump, moves a whole jump, or (when the counts are not
fixed) adds or removes one. The objective is the distance from the candidate's exact
figures to the targets:

* expected turns: the turn model's (``odds.update.Candidates``), a low-rank update of
  the last accepted candidate per step: the analysis's own figure under every rule;
* least rolls: the solver's own answer (``solve``) for the candidate board, only when
  targeted;
* the first seat's edge: the finishing-turn distribution, only when targeted.

Every step is drawn from a ``random.Random(seed)`` and the schedule counts steps, never
seconds, so the same seed and targets give the same board on any machine; the clock is
only read to give up, and not even that under ``max_steps``. Candidates are kept
warning-free by construction (no jump on the start square under ``start = 1``, no jump
ending where another starts, no wall of snake heads, no jump within a row, no twins:
``looks``), and a candidate that meets every target is then checked with the real thing:
``Board`` validation, every warning of ``snl check`` (``core.studio.checks``), ``analyze`` and
``solve``. Only a board that passes all of that is returned.

Boards that look like Snakes & Ladders (issue 33): with the counts left free, about as
many snakes as ladders for the board's size (classic has 9 and 10), each count kept
within a band around that; jump lengths drawn like real boards' (many short, a few
long, none over about two thirds of the board, at most a third of each kind longer
than a third of it); no two jumps sharing a square; no jump drawn over another's head
or foot; jumps spread over the board (no quarter holds much more than its share); no
snake head on the squares of the first roll, no first-roll ladder past the middle and
at most two snake heads on the last roll's squares. ``Shape`` holds these rules and
says them in words (``snl generate`` prints them).

Limits: the search is a heuristic. A target it cannot reach in time (expected turns 3 on
a 10x10 board with two ladders, say) ends with the closest figures it saw and the
closest board; a target below ``least_expected_turns`` (what no board with one jump per
square can beat) is refused at once, with that bound.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import replace

from ..board import Board
from ..errors import SnlError
from ..geometry import ANCHOR_X, ANCHOR_Y
from ..odds.analysis import analyze
from ..odds.model import TurnModel
from ..odds.update import Candidates
from ..solver import count_optimal_routes, solve
from .checks import board_findings, design_findings, drawing_findings, odds_warnings
from .looks import drawn_look_findings, dull_findings, is_sideways, look_findings, twin_kind
from .shape import (
    GOAL_AREA_SNAKES,
    LENGTH_SKEW,
    LONGEST_SHARE,
    QUARTER_SHARE,
    SHAPED_SQUARES,
    hides,
    runs_close,
    shape_for,
)
from .targets import (
    DEFAULT_TIME_LIMIT,
    DEFAULT_TOLERANCE,
    MAX_GENERATE_SQUARES,
    Figures,
    GenerateError,
    GenerateResult,
    Targets,
    least_expected_turns,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_TOLERANCE",
    "MAX_GENERATE_SQUARES",
    "Figures",
    "GenerateError",
    "GenerateResult",
    "Targets",
    "describe_shape",
    "generate",
    "least_expected_turns",
]

REJECTED_COST = 0.5
"""Cost given to a candidate that meets the figures but fails the exact checks."""


# -- the search --------------------------------------------------------------------------


def _default_counts(targets: Targets) -> tuple[int, int]:
    """Jump counts to start from (classic 10x10 has 9 and 10), the kept jumps included;
    with a number of jumps in all, split between the kinds."""
    goal = targets.goal
    base = max(1, round(goal / 11)) if goal >= 20 else max(0, goal // 8)
    base = min(base, targets.max_jumps // 2)
    kept_ladders = sum(1 for s, e in targets.keep if e > s)
    kept_snakes = len(targets.keep) - kept_ladders
    total = targets.jumps
    if total is not None:
        if targets.ladders is not None:
            return targets.ladders, total - targets.ladders
        if targets.snakes is not None:
            return total - targets.snakes, targets.snakes
        snakes = max(kept_snakes, min(total - kept_ladders, total // 2))
        return total - snakes, snakes
    ladders = targets.ladders if targets.ladders is not None else max(base, kept_ladders)
    snakes = targets.snakes if targets.snakes is not None else max(base, kept_snakes)
    return ladders, snakes


class _Search:
    def __init__(self, targets: Targets, seed: int | None) -> None:
        self.targets = targets
        self.rng = random.Random(seed)
        self.rules = targets.rules
        self.model = TurnModel.blank(targets.rows, targets.cols, targets.rules)
        self.goal = targets.goal
        self.start = targets.rules.start_position
        self.longest = targets.longest_jump if targets.longest_jump is not None else self.goal
        if targets.longest_jump is None and self.goal >= SHAPED_SQUARES:
            self.longest = max(targets.rules.faces + 1, round(self.goal * LONGEST_SHARE))
        self.min_length = min(3 if self.goal >= 30 else 1, self.longest)
        self.shape = shape_for(targets, self.longest)
        blank = Board(targets.rows, targets.cols)
        self.points = [(0.0, 0.0)] + [
            (col + ANCHOR_X, row + ANCHOR_Y)
            for row, col in (blank.position_of(square) for square in range(1, self.goal + 1))
        ]
        self.blank = blank
        self.clashes: dict[tuple[int, int, int, int], bool] = {}
        self.apart_before: frozenset[tuple[int, int]] = frozenset()
        """The jumps of the last board ``apart`` passed."""
        """(jump, jump) -> whether they clash (``apart``), for the pairs seen so far."""
        self.kept = dict(targets.keep)
        """The designer's jumps: never moved or removed."""
        # Squares a jump may start on: not the goal, not square 1 under start = 1 (it
        # could never fire: a warning).
        self.first_start = 1 if self.start == 0 else 2
        self.rejected: set[tuple[tuple[int, int], ...]] = set()
        self.expectation = Candidates(self.model, self.start)

    # -- candidate validity (keeps every candidate free of SPEC 2's warnings) -----------

    def fits(self, jumps: dict[int, int]) -> bool:
        ends = set(jumps.values())
        if ends & jumps.keys():
            return False
        placed = [(s, e) for s, e in jumps.items() if s not in self.kept]
        placed_ends = {e for _, e in placed}
        if len(placed_ends) != len(placed) or placed_ends & set(self.kept.values()):
            return False  # no two jumps end on one square (the kept ones may)
        faces = self.rules.faces
        heads = sorted(s for s, e in jumps.items() if e < s)
        run = 1
        for before, after in itertools.pairwise(heads):
            run = run + 1 if after == before + 1 else 1
            if run >= faces:
                return False
        return (self.shape is None or self.looks_real(jumps, placed)) and self.apart(jumps)

    def apart(self, jumps: dict[int, int]) -> bool:
        """No two jumps clash (both kept ones excepted: the designer's): none is twin to
        another (``looks.twin_kind``: side by side or crossed as an X) and, on a board
        with ``Shape``'s rules, none is drawn over another's head or foot."""
        items = sorted(jumps.items())
        clashes, points, board = self.clashes, self.points, self.blank
        shaped, near = self.shape is not None, 2 * board.cols
        # The jumps of the last board found apart clash with none of each other: only
        # the pairs with a jump new since then are looked at (a step changes one or two).
        fresh = [item for item in items if item not in self.apart_before]
        for a in fresh:
            for b in items:
                if a == b or (b in fresh and b < a):
                    continue  # itself, or a pair of fresh ones seen the other way round
                if a[0] in self.kept and b[0] in self.kept:
                    continue
                key = (*a, *b) if a < b else (*b, *a)
                found = clashes.get(key)
                if found is None:
                    twin = (abs(a[0] - b[0]) <= near or abs(a[0] - b[1]) <= near) and (
                        twin_kind(board, a, b) is not None
                    )
                    found = clashes[key] = twin or (
                        shaped and (hides(points, a, b) or runs_close(points, a, b))
                    )
                if found:
                    return False
        if len(clashes) > 200_000:
            clashes.clear()
        self.apart_before = frozenset(items)
        return True

    def looks_real(self, jumps: dict[int, int], placed: list[tuple[int, int]]) -> bool:
        """``Shape``'s rules: lengths, the first and last roll's squares, the spread over
        the board (nothing drawn over another jump's ends: ``apart``)."""
        shape = self.shape
        assert shape is not None
        long_ladders = long_snakes = ladders = 0
        first_roll, goal_area = shape.first_roll, shape.goal_area
        goal_snakes = 0
        for start, end in placed:
            long = abs(end - start) > shape.long_length
            if end > start:
                long_ladders += long
                if start in first_roll and end > self.goal // 2 and shape.long_ladders > 2:
                    return False
            else:
                long_snakes += long
                if start in first_roll:
                    return False
                goal_snakes += start in goal_area
        if goal_snakes > GOAL_AREA_SNAKES:
            return False
        for start, end in jumps.items():
            ladders += end > start
        snakes = len(jumps) - ladders
        if long_ladders > max(1, -(-ladders // shape.long_ladders)):
            return False
        if long_snakes > max(1, -(-snakes // shape.long_snakes)):
            return False
        if len(jumps) >= 6:
            most = max(3, math.ceil(len(jumps) * QUARTER_SHARE))
            quarters = [0, 0, 0, 0]
            for start in jumps:
                quarters[min(3, (start - 1) * 4 // self.goal)] += 1
            if max(quarters) > most:
                return False
        return True

    def band(self, kind: str) -> tuple[int, int] | None:
        if self.shape is None:
            return None
        return self.shape.ladders if kind == "ladder" else self.shape.snakes

    def counts_allowed(self, new: tuple[int, int], old: tuple[int, int]) -> bool:
        """New counts within ``Shape``'s bands (and close to each other), or at least no
        further outside them than the old ones."""
        if self.shape is None:
            return True
        miss = self.shape.miss(*new)
        return miss == 0 or miss < self.shape.miss(*old)

    def allowed(self, start: int, end: int) -> bool:
        """A jump the generator may place: within the longest jump, across a row at
        least (``looks.is_sideways``), no snake head in a zone kept free of them."""
        if abs(end - start) > self.longest or is_sideways(self.blank, start, end):
            return False
        return end > start or self.targets.snake_head_allowed(start)

    def random_jump(self, jumps: dict[int, int], kind: str) -> tuple[int, int] | None:
        """A fresh jump of ``kind`` on free squares, or None after a few tries."""
        rng, goal = self.rng, self.goal
        used = set(jumps) | set(jumps.values())
        shortest = self.min_length
        for _ in range(40):
            # Lengths like real boards': many short jumps, a few long ones.
            span = max(0, self.longest - shortest)
            length = shortest + round(span * rng.random() ** LENGTH_SKEW)
            if kind == "ladder":
                if goal - 1 - length < self.first_start:
                    continue
                start = rng.randint(self.first_start, goal - 1 - length)
                end = start + length
            else:
                low = max(self.first_start, 1 + length, 2)
                if low > goal - 1:
                    continue
                start = rng.randint(low, goal - 1)
                end = start - length
            if start in used or end in used or start == end or not self.allowed(start, end):
                continue
            return start, end
        return None

    def initial(self, ladders: int, snakes: int) -> dict[int, int]:
        jumps: dict[int, int] = dict(self.kept)
        wanted = {"ladder": ladders, "snake": snakes}
        placed = {
            kind: sum(1 for s, e in self.kept.items() if (e > s) == (kind == "ladder"))
            for kind in wanted
        }
        # The kinds in turn, so that a crowded board does not starve the second one.
        for _ in range((ladders + snakes) * 20 + 40):
            short = [kind for kind in wanted if placed[kind] < wanted[kind]]
            if not short:
                break
            kind = min(short, key=lambda kind: placed[kind])
            jump = self.random_jump(jumps, kind)
            if jump is None:
                continue
            trial = {**jumps, jump[0]: jump[1]}
            if self.fits(trial):
                jumps = trial
                placed[kind] += 1
        return jumps

    def neighbour(self, jumps: dict[int, int]) -> dict[int, int] | None:
        """One random step from ``jumps`` (None when the step drew something invalid)."""
        rng, t = self.rng, self.targets
        ladders = sum(1 for s, e in jumps.items() if e > s)
        snakes = len(jumps) - ladders
        choice = rng.random()
        new = dict(jumps)
        movable = sorted(start for start in jumps if start not in self.kept)
        if t.jumps is not None and choice < 0.24:
            # A number of jumps in all: trade one jump for one of the other kind.
            if t.ladders is not None or t.snakes is not None or not movable:
                return None
            start = rng.choice(movable)
            up = jumps[start] > start
            if (ladders if up else snakes) <= 1 and self.keep_one:
                return None
            del new[start]
            jump = self.random_jump(new, "snake" if up else "ladder")
            if jump is None:
                return None
            new[jump[0]] = jump[1]
        elif choice < 0.12 and len(jumps) < t.max_jumps:
            kind = rng.choice(("ladder", "snake"))
            if (kind == "ladder" and t.ladders is not None) or (
                kind == "snake" and t.snakes is not None
            ):
                return None
            jump = self.random_jump(jumps, kind)
            if jump is None:
                return None
            new[jump[0]] = jump[1]
        elif choice < 0.24 and movable:
            start = rng.choice(movable)
            kind_is_ladder = jumps[start] > start
            fixed = t.ladders if kind_is_ladder else t.snakes
            if fixed is not None:
                return None
            if (ladders if kind_is_ladder else snakes) <= 1 and self.keep_one:
                return None
            del new[start]
        elif movable:
            start = rng.choice(movable)
            end = new.pop(start)
            up = end > start
            what = rng.random()
            goal, span = self.goal, max(2, self.goal // 10)
            if what < 0.4:  # move the destination a little (keeps the kind)
                end = end + rng.choice((-1, 1)) * rng.randint(1, span)
            elif what < 0.8:  # move the start a little
                start = start + rng.choice((-1, 1)) * rng.randint(1, span)
            else:  # a fresh jump of the same kind elsewhere
                jump = self.random_jump(new, "ladder" if up else "snake")
                if jump is None:
                    return None
                start, end = jump
            if not (self.first_start <= start < goal and 1 <= end <= goal):
                return None
            if (end > start) != up or abs(end - start) < self.min_length:
                return None
            if not self.allowed(start, end):
                return None
            if start in new or end in new or start in new.values() or end in new.values():
                return None
            new[start] = end
        else:
            return None
        if len(new) != len(jumps) or choice < 0.24:
            new_ladders = sum(1 for s, e in new.items() if e > s)
            counts = (new_ladders, len(new) - new_ladders)
            if counts != (ladders, snakes) and not self.counts_allowed(counts, (ladders, snakes)):
                return None
        return new if self.fits(new) else None

    keep_one = True
    """Free counts never drop a kind entirely (a board with no snakes is no game)."""

    # -- objective ---------------------------------------------------------------------

    def figures(self, jumps: dict[int, int], expected: float) -> Figures:
        t = self.targets
        # The solver's answer for the candidate board (a board is cheap: ~0.1 ms).
        least = solve(self.board(jumps)).moves if t.least_rolls is not None else -2
        edge = None
        asked = t.max_first_seat_edge is not None or t.within is not None
        board = self.board(jumps) if asked and math.isfinite(expected) else None
        if board is not None and t.max_first_seat_edge is not None:
            # The analysis's own win chances (its chain is kept while ``board`` lives).
            edge = analyze(board, players=t.players).win_chances[0] - (1.0 / t.players)
        tail = None
        if board is not None and t.within is not None:
            tail = analyze(board).finish_within(t.within)
        routes = count_optimal_routes(self.board(jumps)) if t.unique_route else None
        ladders = sum(1 for s, e in jumps.items() if e > s)
        return Figures(expected, least, ladders, len(jumps) - ladders, edge, tail, routes)

    def cost(self, fig: Figures) -> float:
        t = self.targets
        if not math.isfinite(fig.expected_turns):
            return 1e6
        cost = 0.0
        if t.expected_turns is not None:
            # Aim a hair inside the tolerance: the proxy and the exact check are the same
            # equations, but rounding must not decide a borderline board.
            room = t.tolerance * 0.98
            miss = abs(fig.expected_turns - t.expected_turns) - room
            cost += max(0.0, miss) / max(1.0, t.tolerance)
        if t.least_rolls is not None:
            if fig.least_rolls < 0:
                return 1e6
            cost += abs(fig.least_rolls - t.least_rolls)
        if t.share is not None and fig.within_share is not None:
            # Aim a hair above the share: the exact check must not fail on rounding.
            cost += max(0.0, t.share + 0.002 - fig.within_share) * 20
        if t.max_first_seat_edge is not None and fig.first_seat_edge is not None:
            miss = abs(fig.first_seat_edge) - t.max_first_seat_edge * 0.98
            cost += max(0.0, miss) / max(t.max_first_seat_edge, 0.002)
        if t.jumps is not None:
            cost += abs(fig.ladders + fig.snakes - t.jumps)
        if fig.routes is not None:
            # Fewer routes is nearer one: a slope for the search, zero only at one.
            cost += 1e6 if fig.routes == 0 else 0.25 * math.log2(fig.routes)
        return cost

    # -- the exact check ---------------------------------------------------------------

    def board(self, jumps: dict[int, int]) -> Board:
        t = self.targets
        return Board.from_jumps(
            t.rows,
            t.cols,
            ladders=[(s, e) for s, e in jumps.items() if e > s],
            snakes=[(s, e) for s, e in jumps.items() if e < s],
            rules=t.rules,
            name=t.name,
        )

    def verified(self, jumps: dict[int, int]) -> tuple[Board, Figures] | None:
        """The board and its exact figures if it passes every check, else None."""
        t = self.targets
        board = self.board(jumps)
        if board_findings(board) or odds_warnings(board) or design_findings(board):
            return None
        if dull_findings(board) or any(
            not set(finding.squares) <= self.kept.keys() | set(self.kept.values())
            for finding in look_findings(board)
        ):
            return None  # (the designer's kept jumps may look as they were placed)
        analysis = analyze(board, players=t.players)
        expected = analysis.expected_turns
        least = solve(board).moves
        ladders, snakes = len(board.ladders), len(board.snakes)
        edge = None
        if t.max_first_seat_edge is not None:
            edge = analysis.win_chances[0] - 1.0 / t.players
        tail = None
        if t.within is not None:
            tail = analysis.finish_within(t.within)  # one seat: the same as analyze(board)
        routes = count_optimal_routes(board) if t.unique_route else None
        figures = Figures(expected, least, ladders, snakes, edge, tail, routes)
        if routes is not None and routes != 1:
            return None
        if any(jumps.get(start) != end for start, end in self.kept.items()):
            return None
        if t.jumps is not None and len(jumps) != t.jumps:
            return None
        placed = (item for item in jumps.items() if item[0] not in self.kept)
        if not all(self.allowed(start, end) for start, end in placed):
            return None
        if tail is not None and t.share is not None and tail < t.share:
            return None
        if t.expected_turns is not None and not (abs(expected - t.expected_turns) <= t.tolerance):
            return None
        if t.least_rolls is not None and least != t.least_rolls:
            return None
        if edge is not None and not abs(edge) <= t.max_first_seat_edge:  # type: ignore[operator]
            return None
        if t.ladders is not None and ladders != t.ladders:
            return None
        if t.snakes is not None and snakes != t.snakes:
            return None
        if least < 0 or not math.isfinite(expected):
            return None
        if drawing_findings(board):
            # Last, as the dearest: a board whose drawn jumps hide a number or another
            # jump's end would be a warning in 'snl check'.
            return None
        kept = self.kept.keys() | set(self.kept.values())
        if any(not set(f.squares) <= kept for f in drawn_look_findings(board)):
            return None  # drawn jumps running close (the same routing, cached)
        return board, figures


Progress = Callable[[float, Figures], None]
"""``progress(seconds so far, best figures so far)``, about twice a second."""
PROGRESS_EVERY = 0.5


def generate(
    targets: Targets,
    *,
    seed: int | None = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_steps: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    progress: Progress | None = None,
) -> GenerateResult:
    """A board meeting every target, or a failure result with the closest figures and
    board.

    Deterministic for a seed: the clock only decides when to give up (``time_limit``
    seconds) and when ``progress`` is told how the search goes. With ``max_steps`` the
    steps alone bound the work and ``time_limit`` is not read: the same seed gives the
    same result however loaded the machine is.
    """
    began = clock()
    shown = began
    search = _Search(targets, seed)
    ladders, snakes = _default_counts(targets)
    rng = search.rng
    expectation = search.expectation
    current = search.initial(ladders, snakes)
    current_fig = search.figures(current, expectation.reset(current))
    current_cost = search.cost(current_fig)
    best, best_fig, best_cost = current, current_fig, current_cost
    # A schedule in steps: each round cools from hot to cold over ``round_steps`` steps,
    # then starts again from the best board seen (a reheat).
    round_steps = 400
    hot, cold = 1.0, 0.005
    steps = 0
    timed_out = False
    while True:
        # The clock every step (a step is a solve, the clock nanoseconds): a search
        # told to stop (its clock made to read infinity) ends within one step.
        now = clock()
        if max_steps is None and now - began > time_limit:
            timed_out = True
            break
        if current_cost == 0.0:
            found = search.verified(current)
            if found is not None:
                board, figures = found
                return GenerateResult(board, figures, targets, steps, clock() - began, False)
            # Meets the figures but not the exact checks (a jump that never fires, say):
            # never again, and climb away from it.
            search.rejected.add(tuple(sorted(current.items())))
            current_cost = REJECTED_COST
            if best is current:
                best_cost = REJECTED_COST
        if max_steps is not None and steps >= max_steps:
            break
        if progress is not None and now - shown >= PROGRESS_EVERY:
            shown = now
            progress(now - began, _filled(search, best, best_fig))
        steps += 1
        phase = (steps % round_steps) / round_steps
        if phase == 0.0 and current is not best:
            current, current_fig, current_cost = best, best_fig, best_cost
            expectation.reset(current)
        temperature = hot * (cold / hot) ** phase
        candidate = search.neighbour(current)
        if candidate is None or tuple(sorted(candidate.items())) in search.rejected:
            continue
        expected, token = expectation.trial(candidate)
        fig = search.figures(candidate, expected)
        cost = search.cost(fig)
        if cost <= current_cost or rng.random() < math.exp(-(cost - current_cost) / temperature):
            expectation.accept(token, candidate)
            current, current_fig, current_cost = candidate, fig, cost
            if cost < best_cost:
                best, best_fig, best_cost = candidate, fig, cost
    best_fig = _filled(search, best, best_fig)
    try:
        closest: Board | None = search.board(best)
    except SnlError:
        closest = None
    return GenerateResult(None, best_fig, targets, steps, clock() - began, timed_out, closest)


def _filled(search: _Search, jumps: dict[int, int], figures: Figures) -> Figures:
    """``figures`` with the least rolls filled in when the search did not track them."""
    if figures.least_rolls != -2:
        return figures
    return replace(figures, least_rolls=solve(search.board(jumps)).moves)


def describe_shape(targets: Targets, board: Board | None) -> str | None:
    """What the generator chose for a board's look and why (None for a board too small
    for those rules)."""
    shape = _Search(targets, 0).shape
    if shape is None:
        return None
    ladders = len(board.ladders) if board is not None else 0
    snakes = len(board.snakes) if board is not None else 0
    return shape.describe(ladders, snakes, f"{targets.rows}x{targets.cols}")
