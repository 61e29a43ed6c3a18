"""The Markov chain of one board (SPEC 6): exact odds of random play, never a simulation.

The chain's states are the positions 0..goal (0 = off the board); the goal absorbs. What
one turn does comes from the turn model (``model.TurnTable``, read off the engine's
tables: no rule is restated here); everything else is linear algebra on that table.

* A **roll** moves the token once (the engine's unit).
* A **turn** is the whole run of rolls while a face that rolls again shows (the engine's
  ``TurnShape``; a roll that wins ends the game at once); where a turn's end depends on
  where it began (``three_sixes``) each entry of the table is a whole turn. All the
  figures here count turns.

What is computed, once per board and cached (boards are immutable and hashable):

* which positions can reach the goal, and which can reach a *doomed* position (one from
  which the goal is unreachable): the turn model's graph search (``model.reaching``), so
  an infinite expectation is detected exactly and never by iterating until something
  gives up;
* one solver of I - R over the positions that finish surely, reused for every
  right-hand side: the expected turns, their variance and the expected visits (the
  transposed system): ``system.System``. Two paths, chosen by the system's size and
  shape only (never by what is imported):

  - the plain walk plus corrections (``walk``, ``band``): every system is the walk of the die
    plus a rank-one correction per jump and per row that is not the walk's (the
    overshoot rows, every whole turn under ``three_sixes``, each position left out of
    the system), taken while that rank stays small against the size (``walk.pays``):
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
  position ``p`` (``distribution.Distribution``, with ``stretch`` and ``turn_step``), by
  iterating the turn operator backwards from the goal until every
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
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import numpy as np

from .. import engine
from ..board import MAX_SIDE, Board
from . import tuning
from .distribution import Distribution
from .model import AnalysisError as AnalysisError
from .model import TurnModel, TurnTable, reachability, reaching
from .ready import SETTLED
from .stretch import Column, Done, Stretch, TailBounds, Wait, stretch_length
from .system import MAX_RELATIVE_ERROR, System
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
MAX_TURN_TABLE_CELLS = 4_000_000
"""Turn outcomes held for ``three_sixes`` (faces**3 per square): 80 MB of Python ints."""


Progress = Callable[[str], None]
"""``progress(text)``: what a long analysis is doing now."""


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
        self.can_finish, self.safe = reachability(self.dest, goal)
        self.doomed = ~self.can_finish
        # safe: finishes with probability 1 (cannot even reach a doomed position).
        self.risky = self.can_finish & ~self.safe
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
    def _safe_system(self) -> System:
        """I - R over every safe position but the goal (a turn may begin anywhere)."""
        if self.size > tuning.PROGRESS_SQUARES:
            self._say(f"solving for the expected turns over {self.size - 1:,} squares")
        return System(self.dest, self._safe_states, self.faces, self.turns.die)

    @cached_property
    def _safe_states(self) -> np.ndarray:
        safe = self.safe.copy()
        safe[self.goal] = False
        return np.flatnonzero(safe)

    @cached_property
    def factorised_system(self) -> System:
        """``_safe_system`` for many solves of a few right-hand sides each (a jump's
        effect, one per jump). The plain walk pays its k x k solve and residual checks
        on every call: while k is at most ``tuning.REPEATED_SOLVES_RANK`` that is a
        fraction of a millisecond (and no scipy import); past it, one SuperLU
        factorisation, whose solves then cost far less."""
        system = self._safe_system
        plain = system._plain
        if plain is None or plain.structure.rank <= tuning.REPEATED_SOLVES_RANK:
            return system
        return System(self.dest, self._safe_states, self.faces, plain=False)

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
            System(self.dest, states, self.faces, self.turns.die).solve(to_safe), 0, 1
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

    # -- the finishing turn's distribution (``distribution.Distribution``) -------------

    @cached_property
    def distribution(self) -> Distribution:
        return Distribution(self.turns, self.doomed, self.distribution_left_out, self._say)

    @property
    def table(self) -> Stretch:
        """The turn table over every kept position (``Distribution.table``)."""
        return self.distribution.table

    def column(self, position: int, done: Done | None = None, extend: bool = False) -> Column:
        """``Distribution.column``."""
        return self.distribution.column(position, done, extend)

    def columns(
        self,
        positions: Sequence[int],
        done: Done | None = None,
        extend: bool = False,
        wait: Wait | None = None,
    ) -> list[Column]:
        """``Distribution.columns``."""
        return self.distribution.columns(positions, done, extend, wait)

    def tail_bounds(self, positions: Sequence[int], horizon: int) -> TailBounds | None:
        """``Distribution.tail_bounds``."""
        return self.distribution.tail_bounds(positions, horizon)


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
    return model.table(engine.landing_array(board))


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
    if "distribution" not in built or "expected" not in built:
        return False
    return "table" in vars(chain.distribution) and chain.table.complete


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
        table.advance(stretch_length(table.t))
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
    which the goal is unreachable (``model.reachability``'s safe positions; every position a
    game from there reaches is safe too), so the expectation is solved over the safe
    positions, the system the chain itself solves: ``math.inf`` when ``start`` is not
    one of them."""
    dest, goal = table.dest, table.goal
    if start == goal:
        return 0.0
    _, safe = reachability(dest, goal)
    if not safe[start]:
        return math.inf
    safe[goal] = False
    system = System(dest, np.flatnonzero(safe), table.width, table.die)
    extra = system.solve(table.turn_cost(system.states))
    value = 1.0 + float(extra[system.index[start]])
    return value if math.isfinite(value) else math.nan
