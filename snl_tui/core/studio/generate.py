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
only read to give up. Candidates are kept warning-free by construction (no jump on the
start square under ``start = 1``, no jump ending where another starts, no wall of snake
heads), and a candidate that meets every target is then checked with the real thing:
``Board`` validation, every warning of ``snl check`` (``core.studio.checks``), ``analyze`` and
``solve``. Only a board that passes all of that is returned.

Limits: the search is a heuristic. A target it cannot reach in time (expected turns 3 on
a 10x10 board with two ladders, say) ends with the closest figures it saw, not with a
proof of infeasibility.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..board import Board, check_dimensions
from ..engine import MAX_PLAYERS
from ..errors import SnlError
from ..odds.analysis import analyze
from ..odds.model import TurnModel, TurnTable, reachable_positions, turn_matrix
from ..odds.update import Candidates
from ..rules import Rules
from ..solver import count_optimal_routes, solve
from ..text import plural
from .checks import board_findings, odds_warnings
from .edit import check_text

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
        if self.rows * self.cols > MAX_GENERATE_SQUARES:
            raise GenerateError(
                f"boards of at most {MAX_GENERATE_SQUARES} squares can be generated "
                f"(their odds are computed exactly), not {self.rows}x{self.cols}"
            )
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


# -- the fast evaluator ----------------------------------------------------------------


def _turn_matrix(table: TurnTable, start: int) -> np.ndarray:
    """The one-turn transition matrix over the positions reachable from ``start`` (index
    0 is ``start``, the last is the goal): the turn model's own (``model.turn_matrix``)."""
    goal = table.goal
    states = np.array([*reachable_positions(table.dest, goal, [start]), goal], dtype=np.intp)
    return turn_matrix(table, states)


def _finish_within(table: TurnTable, start: int, turns: int) -> float:
    """P(a one-player game from ``start`` ends within ``turns`` turns)."""
    turn = _turn_matrix(table, start)
    u = np.zeros(turn.shape[0])
    u[0] = 1.0
    for _ in range(turns):
        u = u @ turn
    return float(u[-1])


def _first_seat_win(table: TurnTable, start: int, players: int) -> float:
    """The first seat's chance of winning, seats independent, from the turn distribution."""
    turn = _turn_matrix(table, start)
    n = turn.shape[0]
    u = np.zeros(n)
    u[0] = 1.0
    finished_before = 0.0
    win = 0.0
    for _ in range(200_000):
        u = u @ turn
        finished = float(u[-1])
        win += (finished - finished_before) * (1.0 - finished_before) ** (players - 1)
        finished_before = finished
        if 1.0 - finished < 1e-12:
            break
    return win / finished_before if finished_before > 0 else 0.0


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
        self.min_length = min(3 if self.goal >= 30 else 1, self.longest)
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
        faces = self.rules.faces
        heads = sorted(s for s, e in jumps.items() if e < s)
        run = 1
        for before, after in itertools.pairwise(heads):
            run = run + 1 if after == before + 1 else 1
            if run >= faces:
                return False
        return True

    def allowed(self, start: int, end: int) -> bool:
        """A jump the generator may place: within the longest jump, no snake head in
        a zone kept free of them."""
        if abs(end - start) > self.longest:
            return False
        return end > start or self.targets.snake_head_allowed(start)

    def random_jump(self, jumps: dict[int, int], kind: str) -> tuple[int, int] | None:
        """A fresh jump of ``kind`` on free squares, or None after a few tries."""
        rng, goal = self.rng, self.goal
        used = set(jumps) | set(jumps.values())
        for _ in range(40):
            if kind == "ladder":
                if goal - 1 - self.min_length < self.first_start:
                    return None
                start = rng.randint(self.first_start, goal - 1 - self.min_length)
                end = rng.randint(start + self.min_length, min(goal, start + self.longest))
            else:
                low = max(self.first_start, 1 + self.min_length, 2)
                if low > goal - 1:
                    return None
                start = rng.randint(low, goal - 1)
                end = rng.randint(max(1, start - self.longest), start - self.min_length)
            if start in used or end in used or start == end or not self.allowed(start, end):
                continue
            return start, end
        return None

    def initial(self, ladders: int, snakes: int) -> dict[int, int]:
        jumps: dict[int, int] = dict(self.kept)
        for kind, count in (("ladder", ladders), ("snake", snakes)):
            placed = sum(1 for s, e in self.kept.items() if (e > s) == (kind == "ladder"))
            for _ in range(count * 20 + 20):
                if placed == count:
                    break
                jump = self.random_jump(jumps, kind)
                if jump is None:
                    continue
                trial = {**jumps, jump[0]: jump[1]}
                if self.fits(trial):
                    jumps = trial
                    placed += 1
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
        return new if self.fits(new) else None

    keep_one = True
    """Free counts never drop a kind entirely (a board with no snakes is no game)."""

    # -- objective ---------------------------------------------------------------------

    def figures(self, jumps: dict[int, int], expected: float) -> Figures:
        t = self.targets
        # The solver's answer for the candidate board (a board is cheap: ~0.1 ms).
        least = solve(self.board(jumps)).moves if t.least_rolls is not None else -2
        edge = None
        if t.max_first_seat_edge is not None and math.isfinite(expected):
            table = self.expectation.table(jumps)
            edge = _first_seat_win(table, self.start, t.players) - (1.0 / t.players)
        tail = None
        if t.within is not None and math.isfinite(expected):
            tail = _finish_within(self.expectation.table(jumps), self.start, t.within)
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

    @property
    def sparse(self) -> bool:
        """Few jumps wanted: a length target, with every count left free."""
        t = self.targets
        free = t.ladders is None and t.snakes is None and t.jumps is None
        return free and (t.expected_turns is not None or t.within is not None)

    @property
    def sparse_floor(self) -> int:
        """Fewest jumps of each kind a sparse board keeps: half the usual density (4 of
        each on a 10x10, 3 on an 8x8), so that it still plays like Snakes & Ladders."""
        ladders, snakes = _default_counts(replace(self.targets, keep=()))
        return max(1, min(ladders, snakes) // 2)

    def kept_count(self, kind: str) -> int:
        return sum(1 for s, e in self.kept.items() if (e > s) == (kind == "ladder"))

    def sparsest(
        self, jumps: dict[int, int], found: tuple[Board, Figures]
    ) -> tuple[Board, Figures]:
        """With a length target and the counts left free, the board with jumps taken away
        one by one while it still meets every target: designers asked for short games,
        not crowded boards (an 8x8 for 8 turns had come out with 29 jumps). One of each
        kind stays; the kept jumps stay."""
        if not self.sparse:
            return found
        order = [start for start in sorted(jumps) if start not in self.kept]
        self.rng.shuffle(order)
        current = dict(jumps)
        for start in order:
            up = current[start] > start
            if sum(1 for s, e in current.items() if (e > s) == up) <= self.sparse_floor:
                continue
            trial = {s: e for s, e in current.items() if s != start}
            if not self.fits(trial):
                continue
            better = self.verified(trial)
            if better is not None:
                current, found = trial, better
        return found

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
        if board_findings(board) or odds_warnings(board):
            return None
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
        return board, figures


POLISH_STEPS = 3000
"""Steps spent, once a board meets a length target with free counts, on one with fewer
jumps that still meets it (deterministic: counted in steps, like the search)."""


def _fewer_jumps(
    search: _Search, jumps: dict[int, int], found: tuple[Board, Figures], budget: int
) -> tuple[dict[int, int], tuple[Board, Figures]]:
    """An annealing walk that scores a board by its number of jumps while it meets the
    targets (and by how far it misses them, heavily, when it does not); the board with
    the fewest jumps that passed the exact check is kept."""
    rng, expectation = search.rng, search.expectation
    best_jumps, best_found = jumps, found
    current = dict(jumps)
    expectation.reset(current)

    floor = search.sparse_floor

    def score(candidate: dict[int, int], expected: float) -> tuple[float, float]:
        figures = search.figures(candidate, expected)
        miss = search.cost(figures)
        # Jumps count only above the floor of each kind: no gain in stripping a board.
        count = max(figures.ladders, floor) + max(figures.snakes, floor)
        return count + 20.0 * miss, miss

    current_score, _ = score(current, expectation.reset(current))
    best_score = current_score
    for step in range(budget):
        candidate = search.neighbour(current)
        if candidate is None or tuple(sorted(candidate.items())) in search.rejected:
            continue
        expected, token = expectation.trial(candidate)
        new_score, miss = score(candidate, expected)
        temperature = 1.0 * (0.02 / 1.0) ** (step / budget)
        if new_score <= current_score or rng.random() < math.exp(
            -(new_score - current_score) / temperature
        ):
            expectation.accept(token, candidate)
            current, current_score = candidate, new_score
            if miss == 0.0 and new_score < best_score:
                verified = search.verified(candidate)
                if verified is not None:
                    best_jumps, best_found, best_score = candidate, verified, new_score
    return best_jumps, best_found


def generate(
    targets: Targets,
    *,
    seed: int | None = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_steps: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> GenerateResult:
    """A board meeting every target, or a failure result with the closest figures.

    Deterministic for a seed: the clock only decides when to give up (``time_limit``
    seconds; ``max_steps`` bounds the work instead, for tests).
    """
    began = clock()
    search = _Search(targets, seed)
    ladders, snakes = _default_counts(targets)
    if search.sparse:  # a length target, counts free: grow from few jumps (``sparsest``)
        floor = search.sparse_floor
        ladders = max(floor, search.kept_count("ladder"))
        snakes = max(floor, search.kept_count("snake"))
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
                if search.sparse:
                    current, found = _fewer_jumps(search, current, found, POLISH_STEPS)
                    steps += POLISH_STEPS
                board, figures = search.sparsest(current, found)
                return GenerateResult(board, figures, targets, steps, clock() - began, False)
            # Meets the figures but not the exact checks (a jump that never fires, say):
            # never again, and climb away from it.
            search.rejected.add(tuple(sorted(current.items())))
            current_cost = REJECTED_COST
            if best is current:
                best_cost = REJECTED_COST
        if max_steps is not None and steps >= max_steps:
            break
        if steps % 8 == 0 and clock() - began > time_limit:
            timed_out = True
            break
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
    if best_fig.least_rolls == -2:  # not tracked: fill it in for the report
        best_fig = replace(best_fig, least_rolls=solve(search.board(best)).moves)
    return GenerateResult(None, best_fig, targets, steps, clock() - began, timed_out)
