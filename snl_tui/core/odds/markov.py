"""The Markov chain of one board (SPEC 6): exact odds of random play, never a simulation.

The chain's states are the positions 0..goal (0 = off the board); the goal absorbs. What
one turn does comes from the turn model (``model.TurnTable``, read off the engine's
tables: no rule is restated here); everything else is linear algebra on that table.

* A **roll** moves the token once (the engine's unit).
* A **turn** is the whole run of rolls while the die shows its top face under
  ``six_again`` (a top roll that wins ends the game at once); under ``three_sixes`` each
  entry of the table is a whole turn. All the figures here count turns.

What is computed, once per board and cached (boards are immutable and hashable):

* which positions can reach the goal, and which can reach a *doomed* position (one from
  which the goal is unreachable): the turn model's graph search (``model.reaching``), so
  an infinite expectation is detected exactly and never by iterating until something
  gives up;
* one solver of I - R over the positions that finish surely, reused for every
  right-hand side: the expected turns, their variance and the expected visits (the
  transposed system). Two paths, chosen by the system's size and shape only (never by
  what is imported):

  - the plain walk plus corrections (``band``): every system is the walk of the die
    plus a rank-one correction per jump and per row that is not the walk's (the
    overshoot rows, every whole turn under ``three_sixes``, each position left out of
    the system), taken while that rank stays small against the size (``band.pays``):
    most boards under every rule, with no scipy, which a short ``snl analyze`` would
    otherwise spend most of its time importing; the 1000 x 1000 boards of
    ``benchmarks/analysis.py`` need it too, where a sparse factorisation fills in;
  - one sparse LU factorisation (SuperLU) past that: more jumps than ``tuning.PLAIN_RANK``
    on a board too small for them to pay, ``three_sixes`` tables of more than a few
    hundred squares, systems over a small part of a large board, and the jump effects'
    many solves past ``tuning.REPEATED_SOLVES_RANK`` corrections (``factorised_system``);
* the probability of ever finishing (a second factorisation, only when some position
  finishes with a probability strictly between 0 and 1);
* the turn table ``P(finished within t turns | start on p)`` for every turn ``t`` and
  position ``p``, by iterating the turn operator backwards from the goal until every
  position's unresolved mass is below ``TAIL_TOLERANCE``. It is kept for every position
  while it fits in ``tuning.TABLE_CELLS``; past that the iteration goes on from the table's last
  turn for the positions asked about only (``columns``), within ``tuning.COLUMN_WORK``. A
  column that stops before its tail is resolved says so (``Column.unresolved``: the mass
  neither finished nor doomed at its last turn bounds every figure read from it), never
  silently. Boards over ``MAX_DISTRIBUTION_SQUARES`` get no table at all
  (``distribution_left_out`` says why); boards too large or too dense to solve in bounded
  time and memory are refused at once (``refusal``).

``analysis.analyze`` only combines columns, so the game can call it after every move.
``expected_turns(board)`` solves one expectation (over the positions that finish surely),
no table; ``Chain.expectation_update`` serves small changes (``update``).

scipy is imported on first use (inside the functions), never when this module loads, so
the game's first frame does not wait for it; the numpy paths (``band``, the turn step,
the graph search below ``tuning.SEARCH_IN_NUMPY`` positions) spare most boards the import.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np

from ..board import MAX_SIDE, Board
from ..errors import SnlError
from . import tuning
from .band import PlainSolver, pays, plain_structure
from .model import TurnModel, TurnTable, moves_of, reaching
from .ready import SETTLED
from .update import RowUpdate

if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_ANALYSIS_SQUARES = MAX_SIDE * MAX_SIDE
"""Largest board analysed (the solver's own limit, 1000 x 1000): expected turns, their
standard deviation and the visits come from one sparse factorisation at every size."""
MAX_DISTRIBUTION_SQUARES = 200 * 200
"""Largest board whose finishing-turn distribution (median, percentiles, P(within k),
most likely turn, win chances, game rounds) is computed; past it those figures are left
out, and say so."""
MAX_RELATIVE_ERROR = 1e-6
"""A solve whose error bound (``_System.relative_error``) exceeds this is not shown: the
figure is "finite, but too large to compute"."""
TAIL_TOLERANCE = 1e-12
"""The turn table stops once no position has more unresolved probability than this."""
MAX_TURN_TABLE_CELLS = 4_000_000
"""Turn outcomes held for ``three_sixes`` (faces**3 per square): 80 MB of Python ints."""


Progress = Callable[[str], None]
"""``progress(text)``: what a long analysis is doing now."""


class AnalysisError(SnlError, ValueError):
    """A board that cannot be analysed exactly (too large)."""


SMALL_BOARD_SQUARES = 2500
"""Boards up to this many squares (50 x 50) are analysed with any number of jumps."""
MAX_LARGE_BOARD_JUMPS = 3000
"""Most snakes and ladders on a board of more than ``SMALL_BOARD_SQUARES``: the exact
solve's time and memory grow with the jumps that the plain walk cannot take (a sparse
factorisation fills in), so a board past this is refused at once rather than left to
run for minutes and gigabytes (``docs/odds.md`` gives the measured bounds)."""


def too_large_message(goal: int) -> str:
    return (
        f"the board has {goal:,} squares: exact odds are computed for boards of at most "
        f"{MAX_ANALYSIS_SQUARES:,} squares"
    )


def refusal(board: Board) -> str | None:
    """Why ``board`` is too large to analyse exactly in bounded time and memory, or None."""
    if board.goal > MAX_ANALYSIS_SQUARES:
        return too_large_message(board.goal)
    jumps = len(board.jumps)
    if board.goal > SMALL_BOARD_SQUARES and jumps > MAX_LARGE_BOARD_JUMPS:
        return (
            f"the board has {board.goal:,} squares and {jumps:,} snakes and ladders: exact "
            f"odds above {SMALL_BOARD_SQUARES:,} squares take at most "
            f"{MAX_LARGE_BOARD_JUMPS:,}"
        )
    return None


# -- the chain of one board ------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """P(finished within t turns | a turn starts on a position), t = 0..horizon."""

    cdf: np.ndarray
    unresolved: float
    """Mass neither finished nor doomed at the last turn: below ``TAIL_TOLERANCE`` when
    the tail is resolved; otherwise every later P(finished within t) lies between the
    last value and the last value plus this."""
    error: float = 0.0
    """A bound on how far any entry may be off: 0 where every turn was computed, the
    half-width of the geometric bounds where the tail was written in closed form
    (``Chain.columns`` with ``extend``)."""

    @property
    def resolved(self) -> bool:
        return self.unresolved < TAIL_TOLERANCE

    @property
    def horizon(self) -> int:
        return int(self.cdf.shape[0]) - 1


@dataclass(frozen=True)
class TailBounds:
    """Bounds on every turn past the last one read (H), for some positions: for k >= 0,

        unresolved_low[i] * rho_lo**k <= U_i(H + k) <= unresolved[i] * rho_hi**k
        finishing_low[i] * sigma_lo**k <= F_i(H + 1 + k) <= finishing_high[i] * sigma_hi**k

    where U_i(t) is P(not finished within t turns) and F_i(t) P(finishing at turn t
    exactly) from position i (no doomed positions: both run by the same non-negative
    turn operator). The rates close in on the chain's slowest decay as H grows, so the
    rest of a sum over turns (the win chances) is two geometric series apart."""

    turns: int
    unresolved: np.ndarray
    unresolved_low: np.ndarray
    finishing_low: np.ndarray
    finishing_high: np.ndarray
    rho_lo: float
    rho_hi: float
    sigma_lo: float
    sigma_hi: float

    def restricted(self, indices: Sequence[int], turns: int) -> TailBounds:
        """The bounds of the positions at ``indices`` only, read at turn ``turns``."""
        return replace(
            self,
            turns=turns,
            unresolved=self.unresolved[indices],
            unresolved_low=self.unresolved_low[indices],
            finishing_low=self.finishing_low[indices],
            finishing_high=self.finishing_high[indices],
        )


class Chain:
    """The Markov-chain work for one board: built on first use, then cached.

    Holds no reference to the board, so the cache entry (a WeakKeyDictionary value) does
    not keep its own key alive.
    """

    def __init__(self, board: Board) -> None:
        refused = refusal(board)
        if refused is not None:
            raise AnalysisError(refused)
        self.goal = goal = board.goal
        # dest[p, d - 1]: where face d from p ends (the engine's rules), or the equally
        # likely ends of a whole turn, each one turn (``TurnTable.whole_turns``). The
        # goal row loops onto itself so that the goal absorbs.
        self.turns = turns = turn_table_of(board)
        self.dest, self.faces = turns.dest, turns.width
        self.rolls_again = turns.rolls_again  # some outcome continues the turn
        self.size = goal + 1
        self.can_finish, self.safe = _reachability(self.dest, goal)
        self.doomed = ~self.can_finish
        # safe: finishes with probability 1 (cannot even reach a doomed position).
        self.risky = self.can_finish & ~self.safe
        self._follows: list[_Stretch] = []
        self._trends: dict[tuple[int, ...], list[tuple[int, float]]] = {}
        self._final: dict[int, Column] = {}
        self._reads: dict[int, tuple[tuple[int, int, int], Column]] = {}
        self.progress: Progress | None = None
        """Told what a long analysis is doing (``snl analyze`` prints it on stderr)."""
        self._said = 0.0

    def listen(self, progress: Progress | None) -> None:
        """Tell ``progress`` from now on what a long analysis does (None: nobody); the
        first periodic note comes ``tuning.PROGRESS_EVERY`` from now, so a short one is quiet."""
        self.progress = progress
        self._said = time.monotonic()

    def _say(self, text: str, every: float = 0.0) -> None:
        """Tell ``progress`` (if any) ``text``; with ``every``, at most once a period."""
        if self.progress is None:
            return
        now = time.monotonic()
        if every and now - self._said < every:
            return
        self._said = now
        self.progress(text)
        """Columns that are complete (resolved to ``TAIL_TOLERANCE``): never recomputed."""

    @property
    def distribution_left_out(self) -> str | None:
        """Why the finishing-turn distribution is not computed, or None when it is."""
        if self.goal > MAX_DISTRIBUTION_SQUARES:
            return (
                f"the distribution of the finishing turn is computed for boards of at most "
                f"{MAX_DISTRIBUTION_SQUARES:,} squares (this one has {self.goal:,})"
            )
        return None

    # -- expectation, spread, visits: one sparse factorisation ---------------------------

    def _ends_turn(self, states: np.ndarray) -> np.ndarray:
        """Per state and face: the roll ends the turn without winning."""
        return self.turns.ends_turn(states)

    @cached_property
    def _safe_system(self) -> _System:
        """I - R over every safe position but the goal (a turn may begin anywhere)."""
        if self.size > tuning.PROGRESS_SQUARES:
            self._say(f"solving for the expected turns over {self.size - 1:,} squares")
        return _System(self.dest, self._safe_states, self.faces, self.turns.die)

    @cached_property
    def _safe_states(self) -> np.ndarray:
        safe = self.safe.copy()
        safe[self.goal] = False
        return np.flatnonzero(safe)

    @cached_property
    def factorised_system(self) -> _System:
        """``_safe_system`` for many solves of a few right-hand sides each (a jump's
        effect, one per jump). The plain walk pays its k x k solve and residual checks
        on every call: while k is at most ``tuning.REPEATED_SOLVES_RANK`` that is a
        fraction of a millisecond (and no scipy import); past it, one SuperLU
        factorisation, whose solves then cost far less."""
        system = self._safe_system
        plain = system._plain
        if plain is None or plain.structure.rank <= tuning.REPEATED_SOLVES_RANK:
            return system
        return _System(self.dest, self._safe_states, self.faces, plain=False)

    def expectation_update(self) -> RowUpdate:
        """Expected turns after a small change of the turn table (a jump removed), by
        low-rank updates of this board's factorised system (``update.RowUpdate``)."""
        system = self.factorised_system

        def rows_of(picked: np.ndarray) -> np.ndarray:
            unit = np.zeros((len(system.states), len(picked)))
            unit[picked, np.arange(len(picked))] = 1.0
            rows: np.ndarray = system.solve(unit, transposed=True).T
            return rows

        return RowUpdate(self.turns, system.index, self._extra_rolls[system.states], rows_of)

    @cached_property
    def _extra_rolls(self) -> np.ndarray:
        """X(p): expected turns still to *start* after the roll about to be made from p,
        on the safe positions (0 on the goal, nan where the factorisation failed)."""
        system = self._safe_system
        extra = np.zeros(self.size)
        states = system.states
        if len(states):
            b = self._ends_turn(states).sum(axis=1) / self.faces
            extra[states] = system.solve(b)
            if system.relative_error > MAX_RELATIVE_ERROR:
                extra[states] = math.nan  # finite, but beyond floating point
        return extra

    @property
    def relative_error(self) -> float:
        """A bound on the relative error of the expectations, spreads and visits (the
        factorisation's rounding times the system's condition number)."""
        return self._safe_system.relative_error

    @cached_property
    def expected(self) -> np.ndarray:
        """Expected turns to finish from each position (``inf`` unless it finishes surely).

        With X(p) = the expected number of turns still to *start* after the roll about to
        be made from p, X = R X + b over the safe positions, where R is the per-roll
        matrix and b(p) the chance that this roll ends the turn without winning. A top
        roll under ``six_again`` continues the same turn, so it carries X and not 1 + X.
        Then a turn starting on p lasts 1 + X(p) turns in expectation.
        """
        result = np.full(self.size, math.inf)
        result[self.goal] = 0.0
        states = self._safe_system.states
        result[states] = 1.0 + self._extra_rolls[states]
        # Every safe position finishes surely, so its expectation is finite; a value that
        # is not (an overflow: ~2^667 turns on a 2 x 1000 board with a coin for a die) is
        # "finite but too large to compute", never "infinite".
        result[states[~np.isfinite(result[states])]] = math.nan
        return result

    @cached_property
    def variance(self) -> np.ndarray:
        """Var(T) of the finishing turn T from each position (``inf`` unless safe).

        T = 1 + C with C the number of rolls that end a turn without winning, X = E[C].
        By the law of total variance over one roll from p, V = R V + h with
        h(p) = sum_d (c_d + X(next_d) - X(p))^2 / f (c_d = 1 when roll d ends the turn):
        the same factorisation as X, another right-hand side, and no cancellation of
        E[T^2] - E[T]^2 (which loses every digit on a long, narrow game).
        """
        system = self._safe_system
        states = system.states
        result = np.full(self.size, math.inf)
        result[self.goal] = 0.0
        if not len(states):
            return result
        x = self._extra_rolls
        with np.errstate(all="ignore"):
            step = self._ends_turn(states) + x[self.dest[states]] - x[states][:, None]
            h = (step * step).sum(axis=1) / self.faces
            solved = system.solve(h)
            # The rounding in X leaves a game with no spread at all (every roll finishes
            # it in the same turn) a variance of a few ulps of E^2, whose square root
            # (1e-8) would pass for a real spread; below that floor the variance is 0.
            floor = 16 * np.finfo(float).eps * (1.0 + self.expected[states]) ** 2
            result[states] = np.where(solved <= floor, 0.0, solved)
        result[states[~np.isfinite(result[states])]] = math.nan  # finite, too large
        return result

    def visits_from(self, start: int) -> np.ndarray | None:
        """Expected number of turns that begin on each position (0..goal) in a game
        from ``start``; they sum to the expected turns. None unless ``start`` is safe.

        W(q), the expected rolls made from q, solves W (I - R) = e_start (the transposed
        system, same factorisation); a turn begins on q at the start and after every
        roll that lands on q and ends a turn.
        """
        system = self._safe_system
        if start == self.goal:
            return np.zeros(self.size)
        if system.index[start] < 0:
            return None
        e = np.zeros(len(system.states))
        e[system.index[start]] = 1.0
        with np.errstate(all="ignore"):
            rolls = system.solve(e, transposed=True)
            # No roll is ever made from a position that no roll from elsewhere ends on
            # (a jump's start) but the start: exactly 0, whatever the solver's rounding.
            never = ~self._entered[system.states]
            never[system.index[start]] = False
            rolls[never] = 0.0
            visits = np.zeros(self.size)
            ends = self._ends_turn(system.states)
            dest = self.dest[system.states]
            weights = np.broadcast_to((rolls / self.faces)[:, None], dest.shape)
            visits += np.bincount(dest[ends], weights[ends], minlength=self.size)
            visits[start] += 1.0
        visits[self.goal] = 0.0
        return visits

    @cached_property
    def _entered(self) -> np.ndarray:
        """Per position: does some roll from another position end on it?"""
        entered = np.zeros(self.size, dtype=bool)
        moves = self.dest != np.arange(self.size)[:, None]
        entered[self.dest[moves]] = True
        return entered

    @cached_property
    def finish_probability(self) -> np.ndarray:
        """P(the goal is ever reached) from each position (per roll = per turn)."""
        result = self.safe.astype(float)
        if not self.risky.any():
            return result
        # Absorption into the goal, over the risky positions: the safe ones contribute
        # their certainty, doomed ones nothing.
        states = np.flatnonzero(self.risky)
        to_safe = self.safe[self.dest[states]].sum(axis=1) / self.faces
        result[states] = np.clip(
            _System(self.dest, states, self.faces, self.turns.die).solve(to_safe), 0, 1
        )
        return result

    @cached_property
    def endless(self) -> np.ndarray:
        """Per position: can the game stay undecided for any number of turns?

        True when the token can reach a loop of undecided positions (neither the goal
        nor doomed) that costs at least one turn per round; then P(finished within t) stays
        below P(ever finished) for every t. False means the finishing turn is bounded.
        Only the tail tolerance would blur the two, so percentiles ask this instead.
        """
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        undecided = self.can_finish.copy()
        undecided[self.goal] = False
        here = np.repeat(np.arange(self.size), self.faces)
        there = self.dest.ravel()
        keep = undecided[here] & undecided[there]
        ends = self.turns.ends_turn()  # (where it is kept, ``there`` is not the goal)
        here, there, ends_turn = here[keep], there[keep], ends.ravel()[keep]
        graph = csr_matrix((np.ones(len(here)), (here, there)), shape=(self.size, self.size))
        _, component = connected_components(graph, directed=True, connection="strong")
        looping = np.zeros(self.size, dtype=bool)
        looping[here[ends_turn & (component[here] == component[there])]] = True
        # Everything that can reach a looping position (through undecided ones) is endless.
        return reaching(here, there, self.size, looping)

    # -- the turn table ----------------------------------------------------------------

    @cached_property
    def kept(self) -> np.ndarray:
        """The positions the turn table holds; every other position follows from them in
        one more roll (``column``). Usually the positions a roll can end on (the bottom
        of a jump never is one, nor the off-board start; on classic that is 82 of 101
        positions); on a board whose turn is a ``_Window`` every position, since the
        window's sums run over the squares in order (a few more rows, no gathers)."""
        if self._window is not None:
            return np.arange(self.size)
        return self._landings

    @cached_property
    def _landings(self) -> np.ndarray:
        return np.flatnonzero(np.bincount(self.dest.ravel(), minlength=self.size))

    @cached_property
    def _window(self) -> _Window | None:
        """The turn as sliding sums over the squares (``_Window``), where the roll table
        has that shape and the table is too large for a dense matrix; else None."""
        landings = len(self._landings)
        if self.turns.whole_turns or self.rolls_again or landings <= tuning.DENSE_TURN_LIMIT:
            return None
        if landings < tuning.WINDOW_SHARE * self.size:
            return None  # many jumps: the gathers over the landing squares cost less
        return _Window.of(self.dest, self.faces)

    @cached_property
    def kept_index(self) -> np.ndarray:
        index = np.full(self.size, -1, dtype=np.intp)
        index[self.kept] = np.arange(len(self.kept))
        return index

    @cached_property
    def _turn_operator(self) -> _TurnOperator:
        kept = self.kept_index
        return _TurnOperator(
            kept[self.dest[self.kept]],
            kept[self.goal],
            self.faces,
            self.turns.continues_turn(self.kept),
            window=self._window,
        )

    @cached_property
    def table(self) -> _Stretch:
        """The turn table over every kept position (see ``columns`` for any position),
        extended on demand while it fits in ``tuning.TABLE_CELLS``."""
        left_out = self.distribution_left_out
        if left_out is not None:
            raise AnalysisError(left_out)
        size = len(self.kept)
        doomed = self.doomed[self.kept].astype(float)
        unresolved = 1.0 - doomed
        unresolved[self.kept_index[self.goal]] = 0.0
        cap = max(64, tuning.TABLE_CELLS // size)
        return _Stretch(self._turn_operator, unresolved, doomed, None, cap - 1)

    def column(self, position: int, done: Done | None = None, extend: bool = False) -> Column:
        """P(finished within t turns | a turn starts on ``position``), t = 0..horizon,
        with the mass its last turn leaves unresolved (see ``columns``)."""
        return self.columns([position], done, extend)[0]

    def columns(
        self,
        positions: Sequence[int],
        done: Done | None = None,
        extend: bool = False,
        wait: Wait | None = None,
    ) -> list[Column]:
        """``column`` of each position, computed as far as ``done(columns)`` asks
        (default: until every one is resolved) or until the work runs out
        (``tuning.COLUMN_WORK`` past the table): then the columns carry their unresolved mass.

        The table of every kept position grows first; past its memory cap the positions
        asked about are followed on from its last turn, recording only what they need
        (one pass for all of them, kept for the next question).

        With ``extend`` (figures read entry by entry: percentiles, P(within k), the
        distribution), once the geometric tail bounds pin every later turn to within
        ``EXTENSION_ERROR`` the rest of each column is written in closed form to its
        resolution (``_extended``) instead of iterated turn by turn; such a column
        carries that bound as its ``error``. Sums over many turns (win chances, rounds)
        do not ask for it: they use the bounds themselves.

        ``wait(turn)``, when given, forecasts how many turns from ``turn`` ``done`` needs
        (say from how fast its criterion has been closing in; 0: no forecast), and the
        next stretch runs that far instead of the usual eighth (``_paced``).
        """
        final = self._final
        if all(p in final for p in positions):  # complete columns: a lookup
            return [final[p] for p in positions]
        finished = done if done is not None else _all_resolved
        table = self.table
        if table.complete:
            for position, column in zip(positions, self._read(table, None, positions), strict=True):
                final[position] = column
            return [final[p] for p in positions]
        columns = self._read(table, None, positions)
        trend = self._extension_trend(positions)
        while not finished(columns) and not table.finished:
            extended = self._extended(positions, columns, None) if extend else None
            if extended is not None and finished(extended):
                return extended
            sooner = forecast(trend, table.t, EXTENSION_ERROR) if extend else 0
            table.advance(_paced(table.t, wait, sooner))
            self._say(
                f"finishing-turn distribution: {table.t:,} turns so far", tuning.PROGRESS_EVERY
            )
            columns = self._read(table, None, positions)
        if finished(columns) or table.complete:
            return columns
        follow = self._follow(positions)
        columns = self._read(table, follow, positions)
        while not finished(columns) and not follow.finished:
            extended = self._extended(positions, columns, follow) if extend else None
            if extended is not None and finished(extended):
                return extended
            turn = table.t + follow.t
            sooner = forecast(trend, turn, EXTENSION_ERROR) if extend else 0
            follow.advance(_paced(turn, wait, sooner))
            self._say(f"finishing-turn distribution: {turn:,} turns so far", tuning.PROGRESS_EVERY)
            columns = self._read(table, follow, positions)
        return columns

    def _extended(
        self, positions: Sequence[int], columns: list[Column], follow: _Stretch | None
    ) -> list[Column] | None:
        """``columns`` (all read to the same turn H) with every later turn written in
        closed form, down to ``TAIL_TOLERANCE``: U_i(H + k) lies between
        low_i rho_lo^k and high_i rho_hi^k (``tail_bounds``) and is taken as the middle;
        None unless half the gap is within ``EXTENSION_ERROR`` at every turn (and the
        tail ends within ``tuning.MAX_EXTENSION`` turns)."""
        horizon = columns[0].horizon
        if any(column.horizon != horizon for column in columns):
            return None
        needed = sorted({k for p in positions for k in self._needed(p)})
        bounds = self.tail_bounds([int(self.kept[k]) for k in needed], horizon)
        if bounds is None or not 0.0 < bounds.rho_lo <= bounds.rho_hi < 1.0:
            return None
        high = float(bounds.unresolved.max(initial=0.0))
        if high <= TAIL_TOLERANCE:
            return None  # resolved already: nothing to write
        turns = math.ceil(math.log(TAIL_TOLERANCE / (4 * high)) / math.log(bounds.rho_hi))
        if turns > tuning.MAX_EXTENSION:
            return None
        if turns < max(tuning.NEAR_RESOLUTION, horizon // 4):
            return None  # resolved within a few more stretches: iterate, exactly
        peak = tail_gap_peak(bounds, turns)
        self._extension_trend(positions).append((horizon, peak))
        if not peak <= EXTENSION_ERROR:
            return None  # (what the arrays below would find, without building them)
        steps = np.arange(1, turns + 1, dtype=float)
        upper = bounds.unresolved[:, None] * np.exp(steps * math.log(bounds.rho_hi))
        lower = bounds.unresolved_low[:, None] * np.exp(steps * math.log(bounds.rho_lo))
        error = float((upper - lower).max()) / 2
        if not error <= EXTENSION_ERROR:
            return None
        middle = (upper + lower) / 2
        table = self.table
        cdfs: dict[int, np.ndarray] = {}
        for row, k in enumerate(needed):
            cdf = table.cdf(k)
            if follow is not None:
                cdf = np.concatenate((cdf, follow.cdf(follow.slot(k), 1)))
            cdfs[k] = np.concatenate((cdf[: horizon + 1], 1.0 - middle[row]))
        left = np.zeros(len(self.kept))
        before = np.zeros(len(self.kept))
        left[needed] = upper[:, -1]
        before[needed] = upper[:, -2] if turns > 1 else bounds.unresolved
        extended = []
        for position in positions:
            column = self._derive(position, cdfs, _EVERY_SLOT, left, before)
            extended.append(replace(column, error=error))
        return extended

    def _extension_trend(self, positions: Sequence[int]) -> list[tuple[int, float]]:
        """The tail gaps ``_extended`` found for ``positions`` so far, (turn, gap): the
        pace at which the extension comes within reach (``forecast``)."""
        return self._trends.setdefault(tuple(positions), [])

    def _needed(self, position: int) -> list[int]:
        """The kept indices whose columns give ``position``'s."""
        if self.kept_index[position] >= 0:
            return [int(self.kept_index[position])]
        return sorted({int(self.kept_index[p]) for p in self.dest[position]})

    def _follow(self, positions: Sequence[int]) -> _Stretch:
        """A stretch past the table recording the kept positions ``positions`` need: an
        existing one if it records them all, else a new one from the table's last turn
        (the last ``tuning.FOLLOWS_KEPT`` are kept)."""
        needed = sorted({k for p in positions for k in self._needed(p)})
        for follow in reversed(self._follows):
            if follow.where is not None and (follow.where[needed] >= 0).all():
                return follow
        table = self.table
        budget = max(64, tuning.COLUMN_WORK // len(self.kept))
        follow = _Stretch(
            self._turn_operator,
            table.current,
            table.doomed,
            np.array(needed, dtype=np.intp),
            budget,
            table.total(),
        )
        self._follows = [*self._follows[-(tuning.FOLLOWS_KEPT - 1) :], follow]
        return follow

    def tail_bounds(self, positions: Sequence[int], horizon: int) -> TailBounds | None:
        """Geometric bounds on every turn after ``horizon`` of ``positions``' columns
        (see ``TailBounds``), or None where they do not apply: the columns not read to
        exactly that turn, the table complete (no tail), a doomed position on the board
        (the unresolved mass is not the finishing mass), a position outside the kept
        ones, or no bound tight enough to be of use."""
        if not tuning.CLOSED_TAILS or self.distribution_left_out is not None:
            return None
        if any(self.kept_index[p] < 0 for p in positions):
            return None
        table = self.table
        if table.complete or table.track_doomed:
            return None
        needed = [int(self.kept_index[p]) for p in positions]
        stretch, turns = table, table.t
        if table.finished:
            for follow in reversed(self._follows):
                if follow.where is not None and (follow.where[needed] >= 0).all():
                    stretch, turns = follow, table.t + follow.t
                    break
            else:
                return None
        if turns != horizon:
            return None
        rates = stretch.rates(stretch.total())
        if rates is None:
            return None
        if (rates.unresolved_low[needed] <= 0).any() or (rates.finishing_low[needed] <= 0).any():
            return None  # a position outside the slowest class: no lower bound
        return rates.restricted(needed, turns)

    def _read(
        self, table: _Stretch, follow: _Stretch | None, positions: Sequence[int]
    ) -> list[Column]:
        """The positions' columns from the table and (past it) ``follow`` (each read
        kept until the stretches grow: a game's luck asks once per stored game)."""
        last = follow if follow is not None else table
        stamp = (table.t, id(follow), 0 if follow is None else follow.t)
        reads = self._reads
        if all(reads.get(p, (None,))[0] == stamp for p in positions):
            return [reads[p][1] for p in positions]
        left, before = last.left(), last.left(lag=1)
        columns: list[Column] = []
        for position in positions:
            cdfs: dict[int, np.ndarray] = {}
            for k in self._needed(position):
                cdf = table.cdf(k)
                if follow is not None:
                    cdf = np.concatenate((cdf, follow.cdf(follow.slot(k), 1)))
                cdfs[k] = cdf
            column = self._derive(position, cdfs, last, left, before)
            reads[position] = (stamp, column)
            columns.append(column)
        return columns

    def _derive(
        self,
        position: int,
        cdfs: dict[int, np.ndarray],
        last: _Stretch | _EverySlot,
        left: np.ndarray,
        before: np.ndarray,
    ) -> Column:
        """``position``'s column from the kept columns ``cdfs`` (by kept index) and the
        unresolved mass at the last turn (``left``) and the one before (``before``),
        as ``last`` records them."""
        index = self.kept_index[position]
        if index >= 0:
            return Column(cdfs[index], float(left[last.slot(index)]))
        # One roll from here lands on kept positions. A roll that ends the turn leaves
        # t - 1 turns for the rest; a roll that continues the turn (``continues_turn``)
        # is from there on distributed like a fresh turn: it leaves t.
        length = len(next(iter(cdfs.values())))
        derived = np.zeros(length)
        unresolved = 0.0
        goes_on = self.turns.continues_turn(position).tolist()
        for there, again in zip(self.dest[position].tolist(), goes_on, strict=True):
            k = int(self.kept_index[there])
            if there == self.goal:
                derived += 1.0
            elif again:
                derived += cdfs[k]
                unresolved += float(left[last.slot(k)])
            else:
                derived[1:] += cdfs[k][:-1]
                unresolved += float(before[last.slot(k)])  # one turn behind
        derived /= self.faces
        derived[0] = 0.0  # not on the goal (the goal is always kept)
        if length == 1:  # turn 0: nothing is resolved yet
            return Column(derived, 1.0)
        return Column(derived, unresolved / self.faces)


class _EverySlot:
    """``slot`` of a stretch that records every kept position (the identity)."""

    @staticmethod
    def slot(kept: int) -> int:
        return kept


_EVERY_SLOT = _EverySlot()

EXTENSION_ERROR = 1e-11
"""Largest error allowed on any entry of a tail written in closed form (``_extended``):
a hundredth of what "exact" means for the figures read from it (1e-9)."""

Done = Callable[[list[Column]], bool]
"""When a computation of columns may stop (see ``Chain.columns``)."""


def _all_resolved(columns: list[Column]) -> bool:
    return all(column.resolved for column in columns)


def tail_gap_peak(bounds: TailBounds, turns: int) -> float:
    """Half the largest gap between a column's upper and lower tail,
    (high rho_hi^k - low rho_lo^k) / 2, over k = 1..turns, read at a few turns.

    Each row's gap is a difference of two decaying exponentials, largest near
    k* = ln(low ln rho_lo / (high ln rho_hi)) / ln(rho_hi / rho_lo); it is evaluated at the
    whole turns around k* (and at both ends) by the very expression ``_extended`` uses
    for every turn, so it never exceeds what the full arrays would find, and a check
    that fails costs no arrays of tens of thousands of turns."""
    log_hi, log_lo = math.log(bounds.rho_hi), math.log(bounds.rho_lo)
    picks = {1, turns}
    with np.errstate(all="ignore"):
        for high, low in zip(
            bounds.unresolved.tolist(), bounds.unresolved_low.tolist(), strict=True
        ):
            if high > 0 and low > 0 and log_lo < log_hi < 0:
                peak = math.log(low * log_lo / (high * log_hi)) / (log_hi - log_lo)
                if math.isfinite(peak):
                    centre = min(max(int(peak), 1), turns)
                    picks.update((centre, min(centre + 1, turns)))
        steps = np.array(sorted(picks), dtype=float)
        upper = bounds.unresolved[:, None] * np.exp(steps * log_hi)
        lower = bounds.unresolved_low[:, None] * np.exp(steps * log_lo)
        return float((upper - lower).max()) / 2


def forecast(history: Sequence[tuple[int, float]], turn: int, target: float) -> int:
    """Turns from ``turn`` until a quantity that shrinks geometrically reaches ``target``,
    at the pace of its last two readings ``(turn, value)`` (the last one at ``turn``), and
    a few more (a check that just misses costs more than a few turns); 0 without two
    such readings."""
    if len(history) < 2 or history[-1][0] != turn:
        return 0
    (t0, s0), (t1, s1) = history[-2:]
    if not (0 < s1 < s0 and t1 > t0) or s1 <= target:
        return 0
    pace = math.log(s1 / s0) / (t1 - t0)
    return int(math.log(target / s1) / pace) + 8


Wait = Callable[[int], int]
"""``wait(turn)``: turns worth running from ``turn`` before the next check (``columns``)."""


def _paced(turns: int, wait: Wait | None, sooner: int = 0) -> int:
    """The next stretch: ``wait``'s forecast where it has one (at least 16 turns, at
    most half the turns run so far more: a forecast from few checks may be far off),
    else ``_stretch_length``; no further than ``sooner`` turns (a forecast of the tail
    extension, which ends the work too) when that is positive."""
    predicted = wait(turns) if wait is not None else 0
    length = min(predicted, max(turns // 2, 64)) if predicted > 0 else _stretch_length(turns)
    if sooner > 0:
        length = min(length, sooner)
    return max(16, length)


def _stretch_length(turns: int) -> int:
    """Turns to run before the next check: an eighth more each time. A check costs a
    pass over the columns read so far; between checks the turns run past the one that
    would have done (a quarter more each time ran ~800 turns past it on a 50 x 50 board,
    about 20% of the work; an eighth costs a few more checks and saves most of that)."""
    return max(64, turns // 8)


class _System:
    """I - R over ``states`` (per-roll matrix R restricted to them), solved as the plain
    walk of a ``die``-sided die plus corrections (``band``) while their rank pays, else
    factorised once (SuperLU); either for any number of right-hand sides."""

    def __init__(
        self,
        dest: np.ndarray,
        states: np.ndarray,
        faces: int,
        die: int | None = None,
        plain: bool = True,
    ) -> None:
        size = dest.shape[0]
        self.states = states
        self.index = np.full(size, -1, dtype=np.intp)
        self.index[states] = np.arange(len(states))
        self.faces = faces
        self._lu: Any = None
        self._plain: PlainSolver | None = None
        self._failed = False
        count = len(states)
        if not count:
            return
        every = count == size - 1 and bool((states == np.arange(count)).all())
        ascending = every or bool((states[1:] > states[:-1]).all())
        if plain and ascending and pays(size - 1 - count, size - 1):
            # The positions left out are row corrections too (``band``).
            structure = plain_structure(dest, faces, die, None if every else states)
            if structure is not None:
                self._plain = PlainSolver(dest, structure)
                return
        # faces * (I - R), one row per state: the diagonal, then one entry per face (a
        # face leaving the states, for the goal or outside, adds 0 to the diagonal), so
        # every row has faces + 1 slots and the CSR arrays are built without sorting.
        if every:
            sub = dest[:count].astype(np.int32)  # every position but the goal: itself
            sub[sub == count] = -1
        else:
            sub = self.index[dest[states]].astype(np.int32)  # column in the system, or -1
        indices = np.empty((count, faces + 1), dtype=np.int32)
        indices[:, 0] = np.arange(count, dtype=np.int32)
        indices[:, 1:] = sub
        values = np.empty((count, faces + 1))
        values[:, 0] = float(faces)
        values[:, 1:] = -1.0
        rows, slots = np.nonzero(sub < 0)
        indices[rows, slots + 1] = rows
        values[rows, slots + 1] = 0.0
        from scipy.sparse import csr_matrix
        from scipy.sparse.linalg import splu

        indptr = np.arange(0, count * (faces + 1) + 1, faces + 1, dtype=np.int32)
        matrix = csr_matrix((values.ravel(), indices.ravel(), indptr), shape=(count, count))
        matrix.sum_duplicates()  # faces sharing a destination, self-loops
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                # Minimum degree on A^T + A keeps the fill low on boards whose snakes
                # reach far back (COLAMD took four times as long on 1000 x 1000).
                self._lu = splu(matrix.tocsc(), permc_spec="MMD_AT_PLUS_A")
            except RuntimeError:  # exactly singular in floating point: too large
                self._failed = True

    @cached_property
    def relative_error(self) -> float:
        """A bound on the relative error of a solve: 8 eps cond(I - R) (a factor 4 over
        the backward-stable bound). For I - R with R sub-stochastic, ||I - R|| <= 2 and
        ||(I - R)^-1|| (max row sum) is the largest expected number of rolls, one more
        solve away; on a board whose games last ~2^667 turns that solve comes out far
        too large or not finite, and the figures are "too large to compute"."""
        if not len(self.states):
            return 0.0
        if self._plain is not None:
            return self._plain.relative_error
        rolls = self.solve(np.ones(len(self.states)))
        largest = float(np.max(np.abs(rolls)))
        if not math.isfinite(largest):
            return math.inf
        return 8.0 * float(np.finfo(float).eps) * max(largest, 1.0)

    def solve(self, rhs: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R)^-1 rhs (or its transpose); nan everywhere when the factorisation
        failed (a figure finite in theory but too large for floating point)."""
        if self._plain is not None:
            return self._plain.solve(rhs, transposed)
        if self._lu is None:
            return np.full(len(self.states), math.nan)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            # The matrix is faces * (I - R): scale the right-hand side to match.
            solution: np.ndarray = self._lu.solve(
                np.ascontiguousarray(rhs, dtype=float) * self.faces,
                trans="T" if transposed else "N",
            )
        return solution


class _Stretch:
    """The distribution of the finishing turn for some kept positions (``record``;
    None: all of them, the table), turn by turn from a starting state, with the
    operator's state at the last turn so that it can run on.

    What runs is the *unresolved* mass U_t (neither finished nor doomed within t turns),
    U_{t+1} = T U_t: it stays exactly 0 on the goal and the doomed positions and decays
    with full relative precision, so "below 1e-12" is never lost in the rounding of
    1 - P(finished) (which stalls near 4e-12 on a long 50 x 50 game). The doomed mass
    D_t (a closed set: the same operator) runs alongside when a doomed position exists;
    P(finished within t) = 1 - U_t - D_t. ``rows`` hold U (and ``doomed_rows`` D) of the
    recorded positions. Once every recorded U is below ``TAIL_TOLERANCE`` the stretch
    runs one turn more (columns derived for positions outside the table lag one behind)
    and is ``complete``; after ``max_turns`` it is ``exhausted``.
    """

    def __init__(
        self,
        operator: _TurnOperator,
        unresolved: np.ndarray,
        doomed: np.ndarray,
        record: np.ndarray | None,
        max_turns: int,
        total: np.ndarray | None = None,
    ) -> None:
        self.step = operator.step
        self.record = record
        self.where: np.ndarray | None = None
        if record is not None:
            self.where = np.full(len(unresolved), -1, dtype=np.intp)
            self.where[record] = np.arange(len(record))
        width = len(unresolved) if record is None else len(record)
        # The table takes its whole memory cap at once: the pages are only committed as
        # turns are written, and growing it copied the whole table each time (~20 ms at 16 MiB).
        rows = max_turns + 1 if record is None else min(max_turns + 1, 256)
        self.rows = np.empty((rows, width))
        self.rows[0] = unresolved if record is None else unresolved[record]
        self.current = unresolved.copy()
        self._total = unresolved.copy() if total is None else total.copy()
        """Sum of the unresolved mass over turns 0..t per kept position (the expected
        turns truncated at t: the shape of the tail bounds), kept up to ``_summed``."""
        self._summed = 0
        self.track_doomed = bool(doomed.any())
        self.doomed = doomed.copy()
        self.doomed_rows = np.empty((rows if self.track_doomed else 1, width))
        self.doomed_rows[0] = doomed if record is None else doomed[record]
        self.max_turns = max_turns
        self.t = 0
        self.complete = False
        self._rates: tuple[int, TailBounds | None] | None = None

    @property
    def exhausted(self) -> bool:
        return self.t >= self.max_turns

    @property
    def finished(self) -> bool:
        return self.complete or self.exhausted

    def slot(self, kept: int) -> int:
        """The column of kept index ``kept`` in ``rows``."""
        return kept if self.where is None else int(self.where[kept])

    def left(self, lag: int = 0) -> np.ndarray:
        """Unresolved mass per recorded position at the last turn (``lag`` 1: the turn
        before)."""
        clipped: np.ndarray = np.clip(self.rows[max(self.t - lag, 0)], 0.0, None)
        return clipped

    def cdf(self, slot: int, first_row: int = 0) -> np.ndarray:
        """P(finished within t turns) of the recorded position in column ``slot``, for
        the rows from ``first_row`` on."""
        column: np.ndarray = 1.0 - self.rows[first_row : self.t + 1, slot]
        if self.track_doomed:
            column -= self.doomed_rows[first_row : self.t + 1, slot]
        return column

    def total(self) -> np.ndarray:
        """Sum of the unresolved mass over turns 0..t per kept position (the table sums
        its recorded rows when asked; a follow adds each turn as it goes)."""
        if self.record is None and self._summed < self.t:
            self._total += self.rows[self._summed + 1 : self.t + 1].sum(axis=0)
            self._summed = self.t
        return self._total

    def rates(self, shape: np.ndarray) -> TailBounds | None:
        """Collatz-Wielandt bounds at the last turn H for every kept position (a
        ``TailBounds`` over them all, its turn this stretch's own), or None when no upper
        rate below 1 is found. Kept per turn.

        T is non-negative, so for v >= 0: T v <= r v (componentwise) gives T^k v <= r^k v;
        and for any 0 <= w <= v with T w >= r' w, T^k v >= r'^k w. The upper rate is the
        largest ratio T v' / v' over v' = v + e ``shape`` >= v, with e tiny and ``shape``
        the expected turns so far, E_H = U_0 + ... + U_H (T E_H = E_H - 1 + U_(H+1), so
        where e E_H outweighs v, as on squares that drain far faster down near
        underflow, the ratio is about 1 - 1/E(p) instead of noise or the 1 of a closed
        set of tiny values); the lower one is the least ratio T w / w with w = v on the
        positions whose ratio is near the top (the last squares, which drain faster,
        would pull it far down) and 0 elsewhere: a seat outside those gets no lower
        bound.
        """
        cached = self._rates
        if cached is not None and cached[0] == self.t:
            return cached[1]
        result = self._compute_rates(shape)
        self._rates = (self.t, result)
        return result

    def _compute_rates(self, shape: np.ndarray) -> TailBounds | None:
        step = self.step
        eps = float(np.finfo(float).eps)
        u = np.array(self.current, dtype=float)
        tu = np.empty_like(u)
        step(u, tu)
        # The finishing mass at turn H + 1, f = u - T u, loses digits to cancellation
        # (about 1 / (1 - rate) of them): the true f lies between these two.
        f_high = np.clip(u - tu, 0.0, None) + 4 * eps * u
        f_low = np.clip(u - tu - 4 * eps * u, 0.0, None)
        found: list[tuple[np.ndarray, float, float]] = []
        for high_v, low_v in ((u, u), (f_high, f_low)):
            top = float(high_v.max(initial=0.0))
            if top <= 0.0:
                return None
            padded = high_v + (top * 1e-150) * shape
            live = padded > 0  # 0 only on the goal, which stays so
            image = np.empty_like(padded)
            step(padded, image)
            if (image[~live] > 0).any():  # only through underflow: no bound
                return None
            ratio = np.zeros_like(padded)
            np.divide(image, padded, out=ratio, where=live)
            high = float(ratio.max()) * (1 + 16 * eps)
            if not high < 1.0:
                return None
            near = (low_v > 0) & (ratio >= high - (1.0 - high))
            if not near.any():
                return None
            w = np.where(near, low_v, 0.0)
            tw = np.empty_like(w)
            step(w, tw)
            low = float((tw[near] / w[near]).min()) * (1 - 16 * eps)
            found.append((w, max(low, 0.0), high))
        (u_low, rho_lo, rho_hi), (f_lower, sigma_lo, sigma_hi) = found
        return TailBounds(self.t, u, u_low, f_lower, f_high, rho_lo, rho_hi, sigma_lo, sigma_hi)

    def advance(self, turns: int) -> None:
        """Run up to ``turns`` more turns (fewer when resolved or exhausted first)."""
        end = min(self.t + turns, self.max_turns)
        while self.t < end and not self.complete:
            resolved = bool(self.left().max(initial=0.0) < TAIL_TOLERANCE)
            stop = self.t + 1 if resolved else min(self.t + 32, end)
            self._steps(stop)
            self.complete = resolved

    def _steps(self, end: int) -> None:
        """Turns t+1..end into ``rows``, in a loop kept tight (the per-turn Python
        overhead is most of the cost on small boards)."""
        if end >= self.rows.shape[0]:
            count = max(2 * self.rows.shape[0], end + 1)
            self.rows = _grown(self.rows, self.t, count)
            if self.track_doomed:
                self.doomed_rows = _grown(self.doomed_rows, self.t, count)
        step, t, record = self.step, self.t, self.record
        if record is None:
            views = list(self.rows[t : end + 1])  # row views: indexing per turn costs more
            for before, after in pairwise(views):
                step(before, after)
            self.current = self.rows[end]
        else:
            current, spare, rows = self.current, np.empty(len(self.current)), self.rows
            total = self._total
            for row in range(t + 1, end + 1):
                step(current, spare)
                current, spare = spare, current
                rows[row] = current[record]
                total += current
            self.current = current
            self._summed = end
        if self.track_doomed:
            doomed, spare, doomed_rows = self.doomed, np.empty(len(self.doomed)), self.doomed_rows
            for row in range(t + 1, end + 1):
                step(doomed, spare)
                doomed, spare = spare, doomed
                doomed_rows[row] = doomed if record is None else doomed[record]
            self.doomed = doomed
        self.t = end


def _grown(rows: np.ndarray, last: int, count: int) -> np.ndarray:
    """Room for ``count`` rows, holding rows 0..last of ``rows``."""
    grown = np.empty((count, rows.shape[1]))
    grown[: last + 1] = rows[: last + 1]
    return grown


class _TurnOperator:
    """Applies one turn to a vector of values on positions: ``out = T @ values``.

    T = (I - A)^-1 B, where A holds the rolls that continue the turn (``continues``,
    from ``TurnTable.continues_turn``) and B every roll that ends it (when none
    continues, A = 0 and T is the per-roll matrix).

    Small boards use T as a dense matrix. Larger ones never form it: B is a sparse
    matrix (``faces`` entries a row), and since A has at most one entry per row (the
    engine's die has one face that rolls again), (I - A)^-1 y = sum_k (1/f)^k y(succ^k) is
    summed by pointer doubling, a handful of gathers per turn, exact far below double
    precision.
    """

    def __init__(
        self,
        dest: np.ndarray,
        goal: int,
        faces: int,
        continues: np.ndarray,
        dense: bool | None = None,
        window: _Window | None = None,
    ) -> None:
        size = dest.shape[0]
        self.size = size
        self.scale = 1.0 / faces
        self.window = window
        self.dense: np.ndarray | None = None
        self.gather: _Gather | None = None
        self.levels: list[tuple[np.ndarray, float]] = []
        if window is not None:  # every position, in square order: sliding sums
            return
        sink = size  # an extra entry that always holds 0: "this roll does not end here"
        ending = dest.copy()
        succ = np.full(size + 1, sink, dtype=np.intp)
        again = bool(continues.any())
        if again:
            going_on = continues.any(axis=1)
            if (continues.sum(axis=1) > 1).any():  # pragma: no cover - one face rolls again
                raise AssertionError("more than one outcome of a roll continues the turn")
            ending[continues] = sink
            succ[:size][going_on] = dest[continues]
        if dense if dense is not None else size <= tuning.DENSE_TURN_LIMIT:
            rows = np.repeat(np.arange(size), faces)
            b = np.zeros((size, size + 1))
            np.add.at(b, (rows, ending.ravel()), self.scale)
            if again:
                a = np.zeros((size, size + 1))
                np.add.at(a, (np.arange(size), succ[:size]), self.scale)
                b = np.linalg.solve(np.eye(size) - a[:, :size], b[:, :size])
            self.dense = np.ascontiguousarray(b[:, :size])
            return
        self.gather = _Gather(ending, self.scale, goal)
        if again:
            weight = self.scale
            while True:  # until the next block of terms weighs below 1e-18
                self.levels.append((succ, weight))
                if weight * weight < 1e-18:
                    break
                succ = succ[succ]
                weight *= weight

    def _product(self, values: np.ndarray) -> np.ndarray:
        """B @ values."""
        assert self.gather is not None
        out = np.empty(self.size)
        self.gather(values, out)
        return out

    @property
    def step(self) -> Callable[[np.ndarray, np.ndarray], object]:
        """``step(values, out)``: one turn, ``out = T @ values``."""
        if self.dense is not None:
            return self.dense.dot
        if self.window is not None:
            return self.window
        if self.levels or self.gather is None:
            return self.apply
        return self.gather

    def apply(self, values: np.ndarray, out: np.ndarray) -> None:
        if self.dense is not None:
            np.dot(self.dense, values, out=out)
            return
        if not self.levels:
            out[:] = self._product(values)
            return
        partial = np.append(self._product(values), 0.0)  # plus the sink, always 0
        for succ, weight in self.levels:
            partial += weight * partial[succ]
        out[:] = partial[: self.size]


class _Window:
    """``window(values, out)``: one turn, out = R @ values, over every position in square
    order (the goal last), for a roll table that is the plain walk with jumps: every roll
    reaching square q on the board ends where every other roll reaching q ends (q itself,
    or the end of q's jump), and a roll past the goal either ends where the others reaching
    that square do (``bounce``, ``finish``) or stays put (``stay``). Then
    (R v)(p) = (w(p + 1) + ... + w(p + f)) / f + stay(p) v(p), with w(q) the value where a
    roll reaching q ends: a copy of v with the jump squares redirected, summed by sliding
    windows (sums of 2, 4, ... squares: about log2(f) additions of the whole vector),
    against ``f`` gathers of it. The shape is read off the roll table (``of``), so no
    rule is restated here; where the table has another shape, None."""

    def __init__(
        self,
        size: int,
        faces: int,
        redirected: np.ndarray,
        redirect_to: np.ndarray,
        beyond: np.ndarray,
        staying: np.ndarray,
        stay: np.ndarray,
    ) -> None:
        self.goal = size - 1  # positions 0..goal
        self.scale = 1.0 / faces
        # w holds each value already divided by f (w[q - 1] for square q), so the slots a
        # redirected square or one past the goal reads are w slots too: position p >= 1
        # is slot p - 1 (a roll never ends on the off-board position 0).
        self.redirected = redirected - 1  # w slots of squares whose rolls end elsewhere
        self.redirect_from = redirect_to - 1
        rows = np.flatnonzero(stay)  # stay: per position, the share of its rolls that stay put
        # The rows with rolls that stay put: the last few before the goal, as one slice.
        self.stay_rows = slice(int(rows[0]), int(rows[-1]) + 1) if len(rows) else slice(0, 0)
        self.stay_weights = stay[self.stay_rows]
        # Past the goal: where each square's rolls end (a w slot), or 0 where they stay
        # put; the squares that read a slot are one run (the rest stay zero) or not.
        moving = np.flatnonzero(~staying)
        self.beyond_from = beyond[moving] - 1
        run = len(moving) and moving[-1] - moving[0] + 1 == len(moving)
        start = self.goal + (int(moving[0]) if len(moving) else 0)
        self.beyond_run = slice(start, start + len(moving)) if run else None
        self.beyond_to = self.goal + moving
        # w(q) for q = 1 .. goal + f - 1 (as far as a roll from goal - 1 reaches), and
        # the window sums of 2, 4, 8, ... squares of it.
        length = self.goal + faces - 1
        self.w = np.zeros(length)
        self.sums = [self.w]
        width = 1
        while 2 * width <= faces:
            self.sums.append(np.empty(length - 2 * width + 1))
            width *= 2
        # The window of f squares: the doubled sums for f's binary digits, in a row.
        self.parts: list[tuple[int, int]] = []  # (level, offset)
        offset, level = 0, len(self.sums) - 1
        remaining = faces
        while remaining:
            width = 1 << level
            if remaining >= width:
                self.parts.append((level, offset))
                offset += width
                remaining -= width
            level -= 1
        self.stay_spare = np.empty(len(self.stay_weights))

    @classmethod
    def of(cls, dest: np.ndarray, faces: int) -> _Window | None:
        """The window of the roll table ``dest`` (``dest[p, d - 1]``, the goal row last
        and looping onto itself), or None when the table is not of that shape."""
        size = dest.shape[0]
        goal = size - 1
        if dest.ndim != 2 or dest.shape[1] != faces or goal < 1:
            return None
        if (dest[goal] != goal).any() or (dest < 0).any() or (dest > goal).any():
            return None
        rows = np.arange(goal)[:, None]
        reach = rows + np.arange(1, faces + 1)  # the square each roll reaches
        target = dest[:goal]
        length = goal + faces  # squares 0 .. goal + f - 1
        landing = np.full(length, -1, dtype=np.int64)
        landing[reach.ravel()] = target.ravel()  # any one roll's end per square
        odd = landing[reach] != target
        # A square whose rolls disagree: past the goal, where each stays put, only.
        mixed = np.zeros(length, dtype=bool)
        mixed[reach[odd]] = True
        at_mixed = mixed[reach]
        if (at_mixed & ((reach <= goal) | (target != rows))).any():
            return None
        squares = np.arange(size)
        inside = landing[:size]
        redirected = np.flatnonzero(inside[1:] != squares[1:]) + 1  # square 0: no roll
        beyond = landing[size:].copy()
        staying = mixed[size:]
        beyond[staying] = goal
        stay = np.zeros(size)
        stay[:goal] = at_mixed.sum(axis=1) / faces
        if (beyond < 0).any():  # pragma: no cover - every square past the goal is reached
            return None
        # w's slots start at square 1: a square whose rolls end off the board (none do
        # under the engine's rules; position 0 only ever stays put) would need another.
        if (inside[redirected] < 1).any() or (beyond[~staying] < 1).any():
            return None  # pragma: no cover
        return cls(
            size,
            faces,
            redirected.astype(np.intp),
            inside[redirected].astype(np.intp),
            beyond.astype(np.intp),
            staying,
            stay,
        )

    def __call__(self, values: np.ndarray, out: np.ndarray) -> None:
        w, goal = self.w, self.goal
        # w[q - 1] holds the value where a roll reaching square q ends, divided by f.
        np.multiply(values[1:], self.scale, out=w[:goal])
        # (Both reads below take the slots before any of them is overwritten: a jump or
        # a bounce may end on another jump's start, which stops there.)
        if self.beyond_run is not None:
            w.take(self.beyond_from, out=w[self.beyond_run])
        elif len(self.beyond_from):
            w[self.beyond_to] = w.take(self.beyond_from)
        if len(self.redirected):
            w[self.redirected] = w.take(self.redirect_from)
        sums = self.sums
        for level in range(1, len(sums)):
            half, below, above = 1 << (level - 1), sums[level - 1], sums[level]
            np.add(below[: len(above)], below[half : half + len(above)], out=above)
        parts = self.parts
        level, offset = parts[0]
        rows = out[:goal]  # the goal's own row is set below
        if len(parts) == 1:
            rows[...] = sums[level][offset : offset + goal]
        else:
            second, start = parts[1]
            np.add(
                sums[level][offset : offset + goal], sums[second][start : start + goal], out=rows
            )
            for level, offset in parts[2:]:
                rows += sums[level][offset : offset + goal]
        if len(self.stay_weights):
            spare = self.stay_spare
            np.multiply(values[self.stay_rows], self.stay_weights, out=spare)
            out[self.stay_rows] += spare
        out[goal] = values[goal]


class _Gather:
    """``gather(values, out)``: out = B @ values for B given by its roll table (``ending``:
    per position and face where the roll ends the turn, or the sink ``size``), by numpy
    gathers along the table, one face at a time (rows contiguous).

    The sink reads position ``zero`` instead (the goal), whose value is 0 in every
    vector the chain steps: the unresolved and the doomed mass, and the tail bounds'
    vectors built from them. So no padded copy of ``values`` is made per turn."""

    def __init__(self, ending: np.ndarray, scale: float, zero: int) -> None:
        size = ending.shape[0]
        sinkless = np.where(ending >= size, zero, ending)
        self.columns = np.ascontiguousarray(sinkless.T, dtype=np.intp)
        self.scale = scale
        self.gathered = np.empty(self.columns.shape)

    def __call__(self, values: np.ndarray, out: np.ndarray) -> None:
        np.take(values, self.columns, out=self.gathered, mode="clip")  # no bounds buffer
        np.add.reduce(self.gathered, axis=0, out=out)
        out *= self.scale


# -- the roll table and the move graph -------------------------------------------------


def turn_table_of(board: Board) -> TurnTable:
    """What one turn does on ``board`` (``model.TurnModel``), refusing a ``three_sixes``
    table too large to hold."""
    rules = board.rules
    model = TurnModel.of(board)
    if model.shape.whole_turns and board.goal * model.width > MAX_TURN_TABLE_CELLS:
        raise AnalysisError(
            f"three tops in a row on a {rules.faces}-sided die: the exact odds "
            f"of {board.goal} squares need {board.goal * model.width:,} turn outcomes (at "
            f"most {MAX_TURN_TABLE_CELLS:,})"
        )
    return model.table(model.landing_of(board))


def _reachability(dest: np.ndarray, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """(can reach the goal, finishes surely) per position, from the move graph alone.

    A position finishes with probability 1 exactly when no position it can reach is
    doomed (a finite chain then ends in its only closed class, the goal). Deciding this
    on the graph makes infinite expectations exact and instant.
    """
    size = goal + 1
    squares = np.arange(goal)
    if (dest[:goal] > squares[:, None]).any(axis=1).all():
        # Every position has a move forward, so by induction from the top every one
        # can reach the goal, and none is doomed: no search needed (most boards).
        every = np.ones(size, dtype=bool)
        return every, every.copy()
    here, there = moves_of(dest)
    seeds = np.zeros(size, dtype=bool)
    seeds[goal] = True
    can_finish = reaching(here, there, size, seeds)
    if can_finish.all():
        return can_finish, np.ones(size, dtype=bool)
    safe = ~reaching(here, there, size, ~can_finish)
    return can_finish, safe


_CHAINS: WeakKeyDictionary[Board, Chain] = WeakKeyDictionary()


def chain_of(board: Board) -> Chain:
    """The board's chain, built on first use and cached while the board lives."""
    chain = _CHAINS.get(board)
    if chain is None:
        chain = Chain(board)
        _CHAINS[board] = chain
    return chain


def is_settled(board: Board) -> bool:
    """Is every figure of ``board``'s analysis a lookup now? Its chain is built, its turn
    table complete (every position resolved) and its expectations solved: reading the
    odds from any square is then a fraction of a millisecond."""
    chain = _CHAINS.get(board)
    if chain is None:
        return False
    built = vars(chain)  # the cached properties worked out so far
    return "table" in built and "expected" in built and chain.table.complete


def settle(board: Board) -> None:
    """Finish ``board``'s turn table when it fits in its memory cap (and solve its
    expectations), so that ``is_settled`` holds and the odds from any square are lookups
    from then on (a worker's first job; a board too large for the table stays as is)."""
    chain = chain_of(board)
    if chain.distribution_left_out is not None:
        return
    _ = chain.expected
    table = chain.table
    while not table.finished:
        table.advance(_stretch_length(table.t))
    if is_settled(board):
        SETTLED.add(board)


def clear_cache() -> None:
    """Forget every board's cached chain (benchmarks time a cold start with it)."""
    _CHAINS.clear()
    SETTLED.clear()


# -- one expectation, fast (for a generator's inner loop and per-jump impacts) -----------


def expected_turns(board: Board, start: int | None = None) -> float:
    """Expected turns to finish from ``start`` (default: the rules' start), fast.

    One sparse solve over the positions a game from ``start`` can reach; no turn
    table, no cache. ``math.inf`` when some game from ``start`` may never finish. The
    same figure as ``analyze(board).expected_turns`` (to rounding); made for a board
    generator that scores thousands of candidate boards. Raises ``AnalysisError`` for a
    board too large.
    """
    refused = refusal(board)
    if refused is not None:
        raise AnalysisError(refused)
    position = board.rules.start_position if start is None else start
    return expected_from_table(turn_table_of(board), position)


def expected_from_table(table: TurnTable, start: int) -> float:
    """``expected_turns`` on a turn table (``model.TurnTable``).

    A game from ``start`` ends surely exactly when ``start`` cannot reach a position from
    which the goal is unreachable (``_reachability``'s safe positions; every position a
    game from there reaches is safe too), so the expectation is solved over the safe
    positions, the system the chain itself solves: ``math.inf`` when ``start`` is not
    one of them."""
    dest, goal = table.dest, table.goal
    if start == goal:
        return 0.0
    _, safe = _reachability(dest, goal)
    if not safe[start]:
        return math.inf
    safe[goal] = False
    system = _System(dest, np.flatnonzero(safe), table.width, table.die)
    extra = system.solve(table.turn_cost(system.states))
    value = 1.0 + float(extra[system.index[start]])
    return value if math.isfinite(value) else math.nan
