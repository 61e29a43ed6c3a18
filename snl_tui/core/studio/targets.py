"""What a board designer asks the generator for (``Targets``), checked on their own terms,
and what can be proved at once: a target no board can meet is refused with the reason
(``Targets.impossible``, ``least_expected_turns``); and what the generator answers (a
board's ``Figures``, the ``GenerateResult``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..board import Board
from ..engine import MAX_PLAYERS
from ..errors import SnlError
from ..limits import check_size
from ..matrix import check_dimensions
from ..rules import Rules
from ..text import plural
from .edit import check_text

DEFAULT_TOLERANCE = 0.5
DEFAULT_TIME_LIMIT = 10.0
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


# -- what the generator answers ----------------------------------------------------------


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
