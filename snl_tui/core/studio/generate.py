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
from dataclasses import dataclass, field, replace

from ..board import Board, check_dimensions
from ..engine import MAX_PLAYERS
from ..errors import SnlError
from ..geometry import ANCHOR_X, ANCHOR_Y
from ..limits import check_size
from ..odds.analysis import analyze
from ..odds.model import TurnModel
from ..odds.update import Candidates
from ..rules import Rules
from ..solver import count_optimal_routes, solve
from ..text import plural
from .checks import (
    DRAWN_NEAR,
    board_findings,
    design_findings,
    drawing_findings,
    odds_warnings,
)
from .edit import check_text
from .looks import dull_findings, is_sideways, look_findings, twin_kind

DEFAULT_TOLERANCE = 0.5
DEFAULT_TIME_LIMIT = 10.0
REJECTED_COST = 0.5
"""Cost given to a candidate that meets the figures but fails the exact checks."""
MAX_GENERATE_SQUARES = 2500
"""Largest board generated (the exact analysis's own limit, 50 x 50)."""


class GenerateError(SnlError, ValueError):
    """Targets that make no sense on their own (a negative tolerance, 9 players...)."""


@dataclass(frozen=True)
class Targets:
    """What the designer asks for. ``None`` means "any"."""

    rows: int = 10
    cols: int = 10
    ladders: int | None = None
    snakes: int | None = None
    expected_turns: float | None = None
    tolerance: float = DEFAULT_TOLERANCE
    least_rolls: int | None = None
    players: int = 2
    max_first_seat_edge: float | None = None
    within: int | None = None
    """A tail target: ``share`` of one-player games end within this many turns."""
    share: float | None = None
    rules: Rules = field(default_factory=Rules)
    name: str = ""
    keep: tuple[tuple[int, int], ...] = ()
    """Jumps the designer placed, (start, end): kept as they are; the generator fills the
    rest (the ladder and snake counts include them)."""
    jumps: int | None = None
    """How many jumps in all, ladders and snakes (the kept ones included)."""
    longest_jump: int | None = None
    """No jump the generator places spans more squares than this."""
    safe_start: int = 0
    """No snake head on squares 1 to ``safe_start``."""
    no_snakes_in_last_row: bool = False
    """No snake head in the last row (the row of the goal)."""
    unique_route: bool = False
    """Exactly one optimal route (a puzzle with one answer: ``count_optimal_routes``)."""

    def __post_init__(self) -> None:
        check_dimensions(self.rows, self.cols)
        # Its odds are computed exactly, after every step: the refusal has play's words.
        check_size(self.rows, self.cols, MAX_GENERATE_SQUARES, "to generate")
        for label, count in (("ladders", self.ladders), ("snakes", self.snakes)):
            if count is not None and (type(count) is not int or count < 0):
                raise GenerateError(f"{label} must be a whole number from 0, not {count!r}")
        if (self.ladders or 0) + (self.snakes or 0) > self.max_jumps:
            raise GenerateError(
                f"a {self.rows}x{self.cols} board has room for at most {self.max_jumps} "
                f"jumps, not {(self.ladders or 0) + (self.snakes or 0)}"
            )
        if self.expected_turns is not None and not (
            math.isfinite(self.expected_turns) and self.expected_turns >= 1
        ):
            raise GenerateError(f"expected turns must be at least 1, not {self.expected_turns}")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise GenerateError(f"the tolerance must be 0 or more, not {self.tolerance}")
        if self.least_rolls is not None and (
            type(self.least_rolls) is not int or self.least_rolls < 1
        ):
            raise GenerateError(
                f"least rolls must be a whole number from 1, not {self.least_rolls!r}"
            )
        if type(self.players) is not int or not 1 <= self.players <= MAX_PLAYERS:
            raise GenerateError(f"a game has 1 to {MAX_PLAYERS} players, not {self.players!r}")
        edge = self.max_first_seat_edge
        if edge is not None and not (math.isfinite(edge) and 0 <= edge <= 1):
            raise GenerateError(f"the first seat's edge must be from 0 to 1, not {edge}")
        check_text(self.name, "the name")
        if (self.within is None) != (self.share is None):
            raise GenerateError("a tail target needs both: within (turns) and share (0 to 1)")
        if self.within is not None and (type(self.within) is not int or self.within < 1):
            raise GenerateError(
                f"within must be a whole number of turns from 1, not {self.within!r}"
            )
        share = self.share
        if share is not None and not (math.isfinite(share) and 0 < share < 1):
            raise GenerateError(f"the share must be above 0 and below 1, not {share}")
        self._check_shapes()
        reason = self.impossible()
        if reason is not None:
            raise GenerateError(f"no board can meet these targets: {reason}")

    def _check_shapes(self) -> None:
        """The kept jumps, the counts and the zones, each on its own terms."""
        if self.jumps is not None and (type(self.jumps) is not int or self.jumps < 0):
            raise GenerateError(f"jumps must be a whole number from 0, not {self.jumps!r}")
        if self.jumps is not None and self.jumps > self.max_jumps:
            raise GenerateError(
                f"a {self.rows}x{self.cols} board has room for at most {self.max_jumps} "
                f"jumps, not {self.jumps}"
            )
        longest = self.longest_jump
        if longest is not None and (type(longest) is not int or longest < 1):
            raise GenerateError(f"the longest jump must be a whole number from 1, not {longest!r}")
        if type(self.safe_start) is not int or not 0 <= self.safe_start < self.goal:
            raise GenerateError(
                f"the safe start must be a whole number from 0 to {self.goal - 1}, "
                f"not {self.safe_start!r}"
            )
        if self.keep:
            try:
                Board.from_jumps(
                    self.rows,
                    self.cols,
                    ladders=[(s, e) for s, e in self.keep if e > s],
                    snakes=[(s, e) for s, e in self.keep if e <= s],
                    rules=self.rules,
                )
            except SnlError as error:
                raise GenerateError(f"the jumps to keep: {error}") from None

    def snake_head_allowed(self, head: int) -> bool:
        """A snake may start on ``head`` under the zones."""
        if head <= self.safe_start:
            return False
        return not (self.no_snakes_in_last_row and head > self.goal - self.cols)

    def impossible(self) -> str | None:
        """Why no board can meet the targets, where that can be proved at once (None:
        not provably impossible, the search decides)."""
        reason = self._impossible_shapes()
        if reason is not None:
            return reason
        rules = self.rules
        walk = self.goal - rules.start_position  # squares to cover from the start
        # Without ladders nothing shortens the walk: at least ceil(walk / faces) rolls.
        fewest = -(-walk // rules.faces)
        if self.ladders == 0 and self.least_rolls is not None and self.least_rolls < fewest:
            return (
                f"without ladders a {self.rows}x{self.cols} board takes at least "
                f"{fewest} rolls with a {rules.faces}-sided die, not {self.least_rolls}"
            )
        no_ladders = self.ladders == 0 and not rules.six_again
        if self.within is not None and no_ladders and self.within < fewest:
            return (
                f"without ladders no game ends within {self.within} turns: it takes at "
                f"least {fewest}"
            )
        if self.expected_turns is not None and not rules.six_again:
            # One roll per turn: a game lasts at least as many turns as its least rolls.
            floor = fewest if self.ladders == 0 else 1
            if self.least_rolls is not None:
                floor = max(floor, self.least_rolls)
            if self.expected_turns + self.tolerance < floor:
                return (
                    f"expected turns {self.expected_turns:g} (± {self.tolerance:g}) is below "
                    f"the least rolls ({floor}): every game takes at least that many turns"
                )
            least = least_expected_turns(self)
            if least is not None and self.expected_turns + self.tolerance < least:
                return (
                    f"expected turns {self.expected_turns:g} is below {least:.2f}, the "
                    f"least a generated {self.rows}x{self.cols} board with a {rules.faces}-sided "
                    f"die can have (one jump a square: at most {_finishing_faces(self)} of "
                    f"{rules.faces} rolls end a game)"
                )
        return None

    def _impossible_shapes(self) -> str | None:
        kept_ladders = sum(1 for s, e in self.keep if e > s)
        kept_snakes = len(self.keep) - kept_ladders
        for label, count, kept in (
            ("ladders", self.ladders, kept_ladders),
            ("snakes", self.snakes, kept_snakes),
            ("jumps", self.jumps, len(self.keep)),
        ):
            if count is not None and count < kept:
                return f"{kept} {label} are kept, more than the {count} asked for"
        total, ladders, snakes = self.jumps, self.ladders, self.snakes
        fixed = total is not None and ladders is not None and snakes is not None
        if fixed and (ladders or 0) + (snakes or 0) != total:
            return (
                f"{plural(ladders or 0, 'ladder')} and {plural(snakes or 0, 'snake')} "
                f"are not {plural(total or 0, 'jump')}"
            )
        for start, end in self.keep:
            if end < start and not self.snake_head_allowed(start):
                where = (
                    "in the last row"
                    if start > self.safe_start
                    else f"in the first {self.safe_start} squares"
                )
                return f"the kept snake {start} -> {end} has its head {where}"
        if self.snakes and self.safe_start:
            room = [head for head in range(2, self.goal) if self.snake_head_allowed(head)]
            if not room:
                return "the zones leave no square for a snake's head"
        return None

    @property
    def goal(self) -> int:
        return self.rows * self.cols

    @property
    def max_jumps(self) -> int:
        # Every jump uses two squares of its own (no jump may end where another starts).
        return max(0, (self.goal - 2) // 2)


def _finishing_faces(targets: Targets) -> int:
    """The most die faces that can end a game from any one square, on a board where each
    square is in at most one jump (no chaining then): the face landing on the goal, and
    the face landing on the start of the ladder to the goal (with bounce, also the face
    bouncing back onto it). Kept ladders may share the goal: each adds its face."""
    rules = targets.rules
    to_goal = max(1, sum(1 for s, e in targets.keep if e == targets.goal and e > s))
    per_ladder = 2 if rules.overshoot == "bounce" else 1
    return min(rules.faces, 1 + to_goal * per_ladder)


def least_expected_turns(targets: Targets) -> float | None:
    """A lower bound on the expected turns of any board the generator may return (each
    square in at most one jump), or None where none is proved (``finish`` overshoot or
    six-again, where many faces can end a game, or a die with as many faces as squares).

    From any square at most ``q`` of the faces end the game (``_finishing_faces``); from
    the start, at most the faces reaching a ladder to the goal, or the goal itself when a
    first roll can. So P(a game lasts past turn t) >= (1 - p1)(1 - q)^(t - 1) and the
    expectation, the sum of those, is at least 1 + (1 - p1) / q."""
    rules = targets.rules
    faces, goal, start = rules.faces, targets.goal, rules.start_position
    if rules.overshoot == "finish" or rules.six_again or faces >= goal:
        return None  # (a die as large as the board bounces a roll back more than once)
    q = _finishing_faces(targets) / faces
    reaches_goal = goal - start <= faces
    first = max(1, sum(1 for s, e in targets.keep if e == goal and e > s))
    if rules.overshoot == "bounce" and start + faces > goal:
        first *= 2
    p1 = min(q, (first + (1 if reaches_goal else 0)) / faces)
    return 1.0 + (1.0 - p1) / q


@dataclass(frozen=True)
class Figures:
    """A board's figures as the generator sees them."""

    expected_turns: float
    least_rolls: int
    ladders: int
    snakes: int
    first_seat_edge: float | None = None
    """First seat's win chance minus 1/players (None when not asked for)."""
    within_share: float | None = None
    """P(a one-player game ends within ``targets.within`` turns) (None when not asked for)."""
    routes: int | None = None
    """The number of optimal routes (None when not asked for)."""

    def describe(self, targets: Targets | None = None) -> str:
        expected = f"{self.expected_turns:.2f}" if math.isfinite(self.expected_turns) else "inf"
        parts = [f"expected turns {expected}"]
        if targets is not None and targets.expected_turns is not None:
            parts[0] += f" (target {targets.expected_turns:g} ± {targets.tolerance:g})"
        least = f"least rolls {self.least_rolls}"
        if targets is not None and targets.least_rolls is not None:
            least += f" (target {targets.least_rolls})"
        parts.append(least)
        if self.first_seat_edge is not None:
            edge = f"first seat's edge {self.first_seat_edge:+.4f}"
            if targets is not None and targets.max_first_seat_edge is not None:
                edge += f" (at most ±{targets.max_first_seat_edge:g})"
            parts.append(edge)
        if self.within_share is not None and targets is not None and targets.within is not None:
            tail = f"{self.within_share:.1%} of games within {plural(targets.within, 'turn')}"
            if targets.share is not None:
                tail += f" (target at least {targets.share:.0%})"
            parts.append(tail)
        if self.routes is not None:
            parts.append(f"{plural(self.routes, 'optimal route')}")
        parts.append(f"{plural(self.ladders, 'ladder')}, {plural(self.snakes, 'snake')}")
        return ", ".join(parts)


@dataclass(frozen=True)
class GenerateResult:
    """``board`` meets every target (checked exactly), or is None with the closest figures."""

    board: Board | None
    figures: Figures | None
    targets: Targets
    steps: int
    seconds: float
    timed_out: bool
    closest: Board | None = None
    """When no board met the targets: the board of the closest figures (a valid board;
    it may miss a target or have warnings)."""

    @property
    def ok(self) -> bool:
        return self.board is not None

    def describe(self) -> str:
        if self.board is not None:
            assert self.figures is not None
            return self.figures.describe(self.targets)
        closest = self.figures.describe(self.targets) if self.figures else "nothing"
        why = f"in {self.seconds:.1f} s" if self.timed_out else f"in {self.steps} steps"
        return f"no board meets the targets {why}; closest reached: {closest}"


# -- the look of a real board ---------------------------------------------------------------

SHAPED_SQUARES = 30
"""Boards of at least this many squares get ``Shape``'s rules (smaller ones have no room)."""
LONGEST_SHARE = 0.65
"""No placed jump spans more than this share of the board (classic's longest: 63 of 100)."""
LONG_SHARE = 1 / 3
"""A jump spanning more than this share of the board is long; at most a third of each
kind are (classic: 2 of 9 ladders, 3 of 10 snakes)."""
GOAL_AREA_SNAKES = 2
"""Snake heads allowed on the squares of the last roll before the goal."""
QUARTER_SHARE = 0.4
"""No quarter of the board holds more than this share of the jump starts."""
LENGTH_SKEW = 1.6
"""Lengths are drawn as longest * u ** skew: many short jumps, a few long ones."""


@dataclass(frozen=True)
class Shape:
    """What makes a generated board look like Snakes & Ladders, as rules a candidate
    either meets or not (kept jumps are the designer's and exempt)."""

    goal: int
    faces: int
    start: int
    ladders: tuple[int, int] | None
    """The band the ladder count stays in (None: fixed by the designer)."""
    snakes: tuple[int, int] | None
    difference: int | None
    """The most the counts may differ (None: a count is fixed)."""
    longest: int
    long_length: int
    usual: int = 0
    """How many of each kind a board this size usually has."""
    long_ladders: int = 3
    """At most one in this many ladders is long (2 for a target of very short games)."""
    long_snakes: int = 3
    """The same for snakes (2 for very long games)."""

    def miss(self, ladders: int, snakes: int) -> int:
        """How far the counts are outside the bands (0: inside)."""
        miss = 0
        for band, count in ((self.ladders, ladders), (self.snakes, snakes)):
            if band is not None:
                miss += max(0, band[0] - count, count - band[1])
        if self.difference is not None:
            miss += max(0, abs(ladders - snakes) - self.difference)
        return miss

    @property
    def first_roll(self) -> range:
        return range(self.start + 1, min(self.goal, self.start + self.faces + 1))

    @property
    def goal_area(self) -> range:
        return range(max(1, self.goal - self.faces), self.goal)

    def describe(self, ladders: int, snakes: int, size: str) -> str:
        """What was chosen and why, in a sentence for the designer."""
        parts = [f"{plural(ladders, 'ladder')} and {plural(snakes, 'snake')}"]
        if self.ladders is not None and self.snakes is not None:
            low, high = self.ladders
            within = f"{low}-{high}"
            if self.snakes != self.ladders:
                within = f"{low}-{high} ladders and {self.snakes[0]}-{self.snakes[1]} snakes"
            parts[0] += (
                f" (a {size} board has about {self.usual} of each, kept within {within}; "
                "classic has 9 and 10)"
            )
        share = {2: "half", 3: "a third"}
        if self.long_ladders == self.long_snakes:
            most = f"at most {share[self.long_ladders]} of each kind"
        else:
            most = (
                f"at most {share[self.long_ladders]} of the ladders and "
                f"{share[self.long_snakes]} of the snakes"
            )
        parts.append(
            f"lengths drawn from 3 to {self.longest} squares, mostly short, {most} "
            f"over {self.long_length}"
        )
        parts.append(
            f"no snake on the first roll's squares ({self.first_roll.start}-"
            f"{self.first_roll.stop - 1}) and at most {GOAL_AREA_SNAKES} on the last roll's"
        )
        parts.append(
            "spread over the board, no square shared, none drawn over another's head or "
            "foot, every jump across a row, no two side by side or crossed as an X"
        )
        return "; ".join(parts)


def _shape(targets: Targets, longest: int) -> Shape | None:
    goal = targets.goal
    if goal < SHAPED_SQUARES:
        return None
    base = max(1, round(goal / 11))
    band = (max(1, round(base * 0.6)), base + 2)
    difference: int | None = max(2, base // 3)
    if targets.longest_jump is not None:
        # Short jumps by the designer's wish: more of them may be needed.
        band, difference = (band[0], 2 * base), None
    free = targets.jumps is None
    ladder_band = snake_band = band
    # A target far from the bare board's length needs more long jumps of one kind (and,
    # for very short games, more ladders than snakes).
    long_ladders = long_snakes = 3
    if targets.expected_turns is not None:
        from ..odds.markov import expected_turns

        bare = expected_turns(Board(targets.rows, targets.cols, rules=targets.rules))
        if targets.expected_turns < bare / 2:
            long_ladders = 2
        if targets.expected_turns < bare / 2.5:
            ladder_band, difference = (band[0], max(band[1], 2 * base)), None
        if math.isfinite(bare) and targets.expected_turns > bare * 2:
            long_snakes = 2
    ladders = ladder_band if free and targets.ladders is None else None
    snakes = snake_band if free and targets.snakes is None else None
    if ladders is None or snakes is None:
        difference = None
    return Shape(
        goal,
        targets.rules.faces,
        targets.rules.start_position,
        ladders,
        snakes,
        difference,
        longest,
        max(targets.rules.faces, round(goal * LONG_SHARE)),
        base,
        long_ladders,
        long_snakes,
    )


def _hides(points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether jump ``a`` (start, end) is drawn over an end of ``b``, or ``b`` over ``a``'s."""
    for (s1, e1), (s2, e2) in ((a, b), (b, a)):
        (ax, ay), (bx, by) = points[s1], points[e1]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy or 1.0
        for square in (s2, e2):
            px, py = points[square]
            t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
            cx, cy = ax + t * dx - px, ay + t * dy - py
            if cx * cx + cy * cy < DRAWN_NEAR * DRAWN_NEAR:
                return True
    return False


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
        self.shape = _shape(targets, self.longest)
        blank = Board(targets.rows, targets.cols)
        self.points = [(0.0, 0.0)] + [
            (col + ANCHOR_X, row + ANCHOR_Y)
            for row, col in (blank.position_of(square) for square in range(1, self.goal + 1))
        ]
        self.blank = blank
        self.clashes: dict[tuple[int, int, int, int], bool] = {}
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
        for index, a in enumerate(items):
            for b in items[index + 1 :]:
                if a[0] in self.kept and b[0] in self.kept:
                    continue
                key = (*a, *b)
                found = clashes.get(key)
                if found is None:
                    twin = (abs(a[0] - b[0]) <= near or abs(a[0] - b[1]) <= near) and (
                        twin_kind(board, a, b) is not None
                    )
                    found = clashes[key] = twin or (shaped and _hides(points, a, b))
                if found:
                    return False
        if len(clashes) > 200_000:
            clashes.clear()
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
        if steps % 8 == 0:
            now = clock()
            if max_steps is None and now - began > time_limit:
                timed_out = True
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
