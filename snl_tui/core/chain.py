"""The Markov chain of one board (SPEC 6): exact odds of random play, never a simulation.

The chain's states are the positions 0..goal (0 = off the board); the goal absorbs. The
engine decides what every roll does: ``count_to`` and the board's landing table (what
``next_position`` is made of) are asked once for every position and face, and everything
else is linear algebra on that table. The heavy work runs on the positions a roll can
end on (never the bottom of a jump, nor the off-board start); the others follow from them
in one roll.

Two time scales matter:

* A **roll** moves the token once (the engine's unit).
* A **turn** is the whole run of rolls while the die shows its top face under
  ``six_again`` (a top roll that wins ends the game at once). Without ``six_again`` a turn
  is one roll. All the figures here count turns, because that is what a player waits for.

What is computed, once per board and cached (boards are immutable and hashable):

* which positions can reach the goal, and which can reach a *doomed* position (one from
  which the goal is unreachable): plain graph searches, so an infinite expectation is
  detected exactly and never by iterating until something gives up;
* the expected number of turns from every position, by one linear solve over the
  positions that finish with probability 1 (``math.inf`` elsewhere). From 100 unknowns
  on, the same quantity (the fundamental matrix applied to 1) is read off the turn table
  below as sum_t P(not finished within t) plus its geometric tail, and accepted only if
  it satisfies the one-turn equations to 1e-10: a solve that large would run on
  LAPACK's thread pool, which stalls whenever another process holds a core;
* the probability of ever finishing from every position (a second solve, only when some
  position finishes with a probability strictly between 0 and 1);
* the table ``P(finished within t turns | start on p)`` for every turn ``t`` and position
  ``p``, by iterating the turn operator backwards from the goal until every position's
  unresolved mass is below ``TAIL_TOLERANCE`` (or a memory cap is hit: then the table is
  marked as truncated). Every percentile, histogram and win chance reads this table.
  Only single-threaded matrix-vector products and gathers are used per turn.

``analysis.analyze`` only combines table columns, so the game can call it after every
move. ``expected_turns(board)`` is the fast path for a generator's inner loop: one small
linear solve, no table.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np

from .board import Board
from .engine import turn_table
from .errors import SnlError

MAX_ANALYSIS_SQUARES = 2500
"""Largest board analysed exactly (50 x 50): the linear solves are dense."""
TAIL_TOLERANCE = 1e-12
"""The turn table stops once no position has more unresolved probability than this."""
MAX_TURN_TABLE_CELLS = 4_000_000
"""Turn outcomes held for ``three_sixes`` (faces**3 per square): 80 MB of Python ints."""
MAX_TABLE_CELLS = 1 << 23
"""Memory cap of the turn table (turns x positions float64 cells, 64 MiB)."""

# When a percentile lands exactly on a table value (0.5 after one turn on a coin-flip
# board), rounding must not push it one turn later.
_PERCENTILE_SLACK = 1e-12


class AnalysisError(SnlError, ValueError):
    """A board that cannot be analysed exactly (too large)."""


# -- the chain of one board ------------------------------------------------------------


class _Chain:
    """The Markov-chain work for one board: built on first use, then cached.

    Holds no reference to the board, so the cache entry (a WeakKeyDictionary value) does
    not keep its own key alive.
    """

    def __init__(self, board: Board) -> None:
        if board.goal > MAX_ANALYSIS_SQUARES:
            raise AnalysisError(
                f"the board has {board.goal} squares: exact odds are computed for boards "
                f"of at most {MAX_ANALYSIS_SQUARES} squares"
            )
        self.goal = goal = board.goal
        # What one turn does, from the engine: its rolls (or, under three_sixes, the
        # equally likely ends of a whole turn, each one turn).
        rows, self.faces, self.six_again = _turn_rows(board)
        self.size = goal + 1
        # dest[p, d - 1]: where a roll of d from p ends, straight from the engine: its
        # count_to and the board's landing table are what next_position is made of. The
        # goal row loops onto itself so that the goal absorbs.
        self.dest = np.array(rows, dtype=np.intp)
        self.can_finish, self.safe = _reachability(rows, goal)
        self.doomed = ~self.can_finish
        # safe: finishes with probability 1 (cannot even reach a doomed position).
        self.risky = self.can_finish & ~self.safe
        # The turn table only needs the positions a roll can end on (the bottom of a
        # jump never is one, nor the off-board start): every other column follows from
        # them in one more step (``column``). On classic that is 82 of 101 positions.
        self.kept = np.unique(self.dest)
        self.kept_index = np.full(self.size, -1, dtype=np.intp)
        self.kept_index[self.kept] = np.arange(len(self.kept))
        self._derived: dict[int, np.ndarray] = {}

    # -- expectation and absorption (linear solves) ------------------------------------

    def _roll_matrix(self, states: np.ndarray) -> np.ndarray:
        """Dense per-roll transition probabilities among ``states`` (sorted indices)."""
        index = np.full(self.size, -1, dtype=np.intp)
        index[states] = np.arange(len(states))
        sub = index[self.dest[states]]  # (k, faces): column in the sub-matrix or -1
        matrix = np.zeros((len(states), len(states)))
        rows = np.repeat(np.arange(len(states)), self.faces)
        cols = sub.ravel()
        keep = cols >= 0
        np.add.at(matrix, (rows[keep], cols[keep]), 1.0 / self.faces)
        return matrix

    @cached_property
    def expected(self) -> np.ndarray:
        """Expected turns to finish from each position (``inf`` unless it finishes surely)."""
        return self.solve_expected(use_table=True)

    def solve_expected(self, use_table: bool) -> np.ndarray:
        """Expected turns from each position; ``use_table`` allows reading large systems
        off the turn table (computing it if needed) instead of a threaded solve.

        With X(p) = the expected number of turns still to *start* after the roll about to
        be made from p, X = R X + b over the safe positions, where R is the per-roll
        matrix and b(p) the chance that this roll ends the turn without winning. A top
        roll under ``six_again`` continues the same turn, so it carries X and not 1 + X.
        Then a turn starting on p lasts 1 + X(p) turns in expectation. Using the per-roll
        matrix keeps the system sparse-shaped; the per-turn matrix never has to exist.
        """
        result = np.full(self.size, math.inf)
        result[self.goal] = 0.0
        safe = self.safe.copy()
        safe[self.goal] = False
        ends_turn = self.dest != self.goal
        if self.six_again:
            ends_turn[:, -1] = False  # a top roll that does not win rolls again
        b = ends_turn.sum(axis=1) / self.faces
        extra = np.zeros(self.size)  # X, 0 on the goal
        kept = self.kept_index >= 0
        # Solved on the positions a roll can end on; the other rows follow in one roll.
        states = np.flatnonzero(safe & kept)
        from_table = None
        if use_table and len(states) >= SINGLE_THREAD_SOLVE:
            from_table = self._expected_from_table(states)
        if from_table is not None:
            extra[states] = from_table - 1.0
        elif len(states):
            system = np.eye(len(states)) - self._roll_matrix(states)
            extra[states] = np.linalg.solve(system, b[states])
        others = np.flatnonzero(safe & ~kept)
        extra[others] = b[others] + extra[self.dest[others]].sum(axis=1) / self.faces
        result[safe] = 1.0 + extra[safe]
        # Every safe position finishes surely, so its expectation is finite; a value that
        # is not (an overflow inside the solve: ~2^667 turns on a 2 x 1000 board with a
        # coin for a die) is "finite but too large to compute", never "infinite".
        result[safe & ~np.isfinite(result)] = math.nan
        return result

    def _expected_from_table(self, states: np.ndarray) -> np.ndarray | None:
        """Expected turns on ``states`` (kept, safe) as sum_t P(not finished within t).

        The same fundamental-matrix sum as the linear solve, read off the turn table
        (already there, and resolved to below 1e-12 per position) plus its geometric
        tail. It is only accepted when it satisfies the one-turn equations
        E = 1 + T E to 1e-10 relative; otherwise (or when the table was cut short) the
        caller solves. Large solves would go to LAPACK's thread pool, which stalls for
        tens of milliseconds whenever another process holds a core.
        """
        table = self.table
        if not table.converged or table.horizon < 2:
            return None
        columns = self.kept_index[states]
        cdf = table.cdf[:, columns]
        survival_sum = (table.horizon + 1) - cdf.sum(axis=0)
        # Far out every survival decays by the chain's slowest rate r per turn. Measure
        # it over a long lag on the slowest position: near 1e-13, 1 - cdf keeps only a
        # few digits, so turn-by-turn ratios are noise.
        last = 1.0 - cdf[-1]
        slowest = int(last.argmax())
        lag = min(32, table.horizon)
        earlier = 1.0 - cdf[-1 - lag, slowest]
        rate = (last[slowest] / earlier) ** (1.0 / lag) if earlier > 0 else 0.0
        rate = min(max(rate, 0.0), 1.0 - 1e-9)
        expected = survival_sum + last * rate / (1.0 - rate)
        values = np.zeros(len(self.kept))
        values[columns] = expected
        one_turn = np.empty(len(self.kept))
        self._turn_operator.apply(values, one_turn)
        residual = np.abs(expected - 1.0 - one_turn[columns]).max()
        if residual > 1e-10 * max(1.0, float(expected.max())):
            return None
        result: np.ndarray = expected
        return result

    @cached_property
    def finish_probability(self) -> np.ndarray:
        """P(the goal is ever reached) from each position (per roll = per turn)."""
        result = self.safe.astype(float)
        if not self.risky.any():
            return result
        kept = self.kept_index >= 0
        # Absorption into the goal, over the risky positions: the safe ones contribute
        # their certainty, doomed ones nothing.
        states = np.flatnonzero(self.risky & kept)
        if len(states):
            to_safe = self.safe[self.dest[states]].sum(axis=1) / self.faces
            system = np.eye(len(states)) - self._roll_matrix(states)
            result[states] = np.clip(np.linalg.solve(system, to_safe), 0.0, 1.0)
        others = np.flatnonzero(self.risky & ~kept)
        result[others] = result[self.dest[others]].sum(axis=1) / self.faces
        return result

    @cached_property
    def endless(self) -> np.ndarray:
        """Per position: can the game stay undecided for any number of turns?

        True when the token can reach a loop of undecided positions (neither the goal
        nor doomed) that costs at least one turn per round; then P(finished within t) stays
        below P(ever finished) for every t. False means the finishing turn is bounded.
        Only the tail tolerance would blur the two, so percentiles ask this instead.
        """
        undecided = self.can_finish.copy()
        undecided[self.goal] = False
        edges: list[list[int]] = [[] for _ in range(self.size)]
        ends_turn: list[list[bool]] = [[] for _ in range(self.size)]
        for here in np.flatnonzero(undecided).tolist():
            for face, there in enumerate(self.dest[here].tolist(), start=1):
                if undecided[there]:
                    edges[here].append(there)
                    ends_turn[here].append(not (self.six_again and face == self.faces))
        component = _components(edges)
        looping = np.zeros(self.size, dtype=bool)
        for here, targets in enumerate(edges):
            for there, ends in zip(targets, ends_turn[here], strict=True):
                if ends and component[here] == component[there]:
                    looping[here] = True
        # Everything that can reach a looping position (through undecided ones) is endless.
        preds: list[list[int]] = [[] for _ in range(self.size)]
        for here, targets in enumerate(edges):
            for there in targets:
                preds[there].append(here)
        return _reaching(preds, np.flatnonzero(looping).tolist())

    # -- more figures (SPEC 6): spread of the finishing turn, visits per square ---------

    @cached_property
    def _safe_system(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(states, index, I - R over them, per-roll "ends the turn without winning")
        over every safe position but the goal (all of them: a turn may begin anywhere)."""
        safe = self.safe.copy()
        safe[self.goal] = False
        states = np.flatnonzero(safe)
        index = np.full(self.size, -1, dtype=np.intp)
        index[states] = np.arange(len(states))
        ends = self.dest[states] != self.goal
        if self.six_again:
            ends[:, -1] = False  # a top roll that does not win rolls again, same turn
        system = np.eye(len(states)) - self._roll_matrix(states)
        return states, index, system, ends

    @cached_property
    def second_moment(self) -> np.ndarray:
        """E[T^2] of the finishing turn T from each position (``inf`` unless safe).

        T = 1 + C with C the number of rolls that end a turn without winning. With
        X = E[C] (``expected`` - 1) and Y = E[C^2], one roll from p gives
        Y(p) = sum_d (c + 2 c X(next) + Y(next)) / f for c = 1 when roll d ends the
        turn: the same matrix as X, another right-hand side.
        """
        states, _, system, ends = self._safe_system
        result = np.full(self.size, math.inf)
        result[self.goal] = 0.0
        if not len(states):
            return result
        x = self.solve_expected(use_table=False) - 1.0
        x[self.goal] = 0.0
        with np.errstate(all="ignore"):
            nxt = x[self.dest[states]]
            g = (ends * (1.0 + 2.0 * np.where(np.isfinite(nxt), nxt, 0.0))).sum(axis=1) / self.faces
            y = np.linalg.solve(system, g)
            result[states] = 1.0 + 2.0 * x[states] + y
        result[states[~np.isfinite(result[states])]] = math.nan  # finite, too large
        return result

    def visits_from(self, start: int) -> np.ndarray | None:
        """Expected number of turns that begin on each position (0..goal) in a game
        from ``start``; they sum to the expected turns. None unless ``start`` is safe.

        W(q), the expected rolls made from q, solves W (I - R) = e_start; a turn begins
        on q at the start and after every roll that lands on q and ends a turn.
        """
        states, index, system, ends = self._safe_system
        if start == self.goal:
            return np.zeros(self.size)
        if index[start] < 0:
            return None
        e = np.zeros(len(states))
        e[index[start]] = 1.0
        with np.errstate(all="ignore"):
            rolls = np.linalg.solve(system.T, e)
            visits = np.zeros(self.size)
            visits[start] = 1.0
            dest = self.dest[states]
            weights = np.broadcast_to((rolls / self.faces)[:, None], dest.shape)
            np.add.at(visits, dest[ends], weights[ends])
        visits[self.goal] = 0.0
        return visits

    # -- the turn table ----------------------------------------------------------------

    @cached_property
    def _turn_operator(self) -> _TurnOperator:
        kept = self.kept_index
        return _TurnOperator(
            kept[self.dest[self.kept]], kept[self.goal], self.faces, self.six_again
        )

    @cached_property
    def table(self) -> _TurnTable:
        """The turn table over the kept positions (see ``column`` for any position)."""
        return _iterate_table(self)

    def column(self, position: int) -> np.ndarray:
        """P(finished within t turns | a turn starts on ``position``), t = 0..horizon."""
        index = self.kept_index[position]
        cdf = self.table.cdf
        if index >= 0:
            return cdf[:, index]
        derived = self._derived.get(position)
        if derived is not None:
            return derived
        # One roll from here lands on kept positions. A roll that ends the turn leaves
        # t - 1 turns for the rest; a top roll under six_again continues the same turn,
        # which from there on is distributed like a fresh turn: it leaves t.
        derived = np.zeros(cdf.shape[0])
        for face, there in enumerate(self.dest[position].tolist(), start=1):
            if there == self.goal:
                derived += 1.0
            elif self.six_again and face == self.faces:
                derived += cdf[:, self.kept_index[there]]
            else:
                derived[1:] += cdf[:-1, self.kept_index[there]]
        derived /= self.faces
        derived[0] = 0.0  # not on the goal (the goal is always kept)
        self._derived[position] = derived
        return derived


@dataclass(frozen=True)
class _TurnTable:
    cdf: np.ndarray
    """cdf[t, k] = P(finished within t turns | a turn starts on the k-th kept
    position), t = 0..horizon."""
    converged: bool
    """False when the memory cap stopped the table with mass still unresolved."""
    unresolved: np.ndarray
    """Per kept position: mass neither finished nor doomed by the table's last turn."""

    @property
    def horizon(self) -> int:
        return int(self.cdf.shape[0]) - 1


SINGLE_THREAD_SOLVE = 100
"""From this many unknowns on (100 x 100 = 10000 cells) OpenBLAS's LAPACK solves on
several threads; then the expectation is read off the turn table instead (see
``_Chain._expected_from_table``)."""

DENSE_TURN_LIMIT = 96
"""Up to this many positions a turn is one dense matrix-vector product; above it the
operator gathers along the roll table. Beyond 96 x 96 (9216 cells) OpenBLAS runs a
matrix-vector product on several threads, which is slower at these sizes and stalls
whenever another process holds a core."""


class _TurnOperator:
    """Applies one turn to a vector of values on positions: ``out = T @ values``.

    T = (I - A)^-1 B, where A holds the top-face rolls that continue the turn
    (``six_again``, not winning) and B every roll that ends it (without ``six_again``,
    A = 0 and T is the per-roll matrix).

    Small boards use T as a dense matrix. Larger ones never form it: B is a gather along
    the roll table, and since A has at most one entry per row (each position has one
    top-face successor), (I - A)^-1 y = sum_k (1/f)^k y(succ^k) is summed by pointer
    doubling, a handful of gathers per turn, exact far below double precision.
    """

    def __init__(
        self, dest: np.ndarray, goal: int, faces: int, six_again: bool, dense: bool | None = None
    ) -> None:
        size = dest.shape[0]
        self.size = size
        self.scale = 1.0 / faces
        sink = size  # an extra entry that always holds 0: "this roll does not end here"
        ending = dest.copy()
        succ = np.full(size + 1, sink, dtype=np.intp)
        if six_again:
            top = dest[:, -1]
            continues = top != goal
            continues[goal] = False
            ending[continues, -1] = sink
            succ[:size][continues] = top[continues]
        self.dense: np.ndarray | None = None
        if dense if dense is not None else size <= DENSE_TURN_LIMIT:
            rows = np.repeat(np.arange(size), faces)
            b = np.zeros((size, size + 1))
            np.add.at(b, (rows, ending.ravel()), self.scale)
            if six_again:
                a = np.zeros((size, size + 1))
                np.add.at(a, (np.arange(size), succ[:size]), self.scale)
                b = np.linalg.solve(np.eye(size) - a[:, :size], b[:, :size])
            self.dense = np.ascontiguousarray(b[:, :size])
            return
        # Transposed (faces x size) so each gathered row is contiguous: summing over the
        # faces is then a few fast vector additions.
        self.ending = np.ascontiguousarray(ending.T)
        self.gathered = np.empty(self.ending.shape)
        self.weights = np.full(faces, self.scale)
        self.extended = np.zeros(size + 1)  # values plus the sink
        self.levels: list[tuple[np.ndarray, float]] = []
        if six_again:
            weight = self.scale
            while True:  # until the next block of terms weighs below 1e-18
                self.levels.append((succ, weight))
                if weight * weight < 1e-18:
                    break
                succ = succ[succ]
                weight *= weight

    def apply(self, values: np.ndarray, out: np.ndarray) -> None:
        if self.dense is not None:
            np.dot(self.dense, values, out=out)
            return
        if self.levels:  # some rolls point at the sink
            extended = self.extended
            extended[: self.size] = values
            values = extended
        np.take(values, self.ending, out=self.gathered)
        # The mean over the faces as one (1 x faces) @ (faces x size) product.
        np.dot(self.weights, self.gathered, out=out)
        if self.levels:
            partial = np.append(out, 0.0)
            for succ, weight in self.levels:
                partial += weight * partial[succ]
            out[:] = partial[: self.size]


def _iterate_table(chain: _Chain) -> _TurnTable:
    """P(finished within t turns) for every position, one turn (T @ v) at a time.

    Only matrix-vector products and gathers: they stay on one thread, whereas blocking
    turns into matrix-matrix products (tried) hands the work to a BLAS thread pool that
    stalls badly whenever another process holds a core.
    """
    size, goal = len(chain.kept), chain.kept_index[chain.goal]
    operator = chain._turn_operator
    step = operator.dense.dot if operator.dense is not None else operator.apply
    cap = max(64, MAX_TABLE_CELLS // size)
    cdf = np.empty((min(cap, 1024), size))
    cdf[0] = 0.0
    cdf[0, goal] = 1.0
    views = list(cdf)  # row views made once: indexing per turn costs more than the dot
    # doomed[p] = P(on a doomed position after t turns). Like "finished" it is the mass
    # of a closed set and evolves by the same operator; tracked only when one exists.
    track_doomed = bool(chain.doomed.any())
    doomed = chain.doomed[chain.kept].astype(float)
    spare = np.empty(size)
    t = 0
    while True:
        left = 1.0 - views[t]
        if track_doomed:
            left -= doomed
        converged = bool(left.max() < TAIL_TOLERANCE)
        if converged or t + 1 >= cap:
            break
        # A stretch of turns between convergence checks, in a loop kept tight (the
        # per-turn Python overhead is most of the cost on small boards).
        end = min(t + 32, cap - 1)
        if end >= len(views):
            cdf, views = _grown(cdf, t, min(cap, max(2 * len(views), end + 1)))
        for before, after in zip(views[t:end], views[t + 1 : end + 1], strict=True):
            step(before, after)
        if track_doomed:
            for _ in range(end - t):
                step(doomed, spare)
                doomed, spare = spare, doomed
        t = end
    if converged and t + 1 < cap:
        # Columns derived for positions outside the table lag one turn behind it.
        if t + 1 >= len(views):
            cdf, views = _grown(cdf, t, t + 2)
        step(views[t], views[t + 1])
        t += 1
    # A view, not a copy: at most the unused half of the last growth is wasted.
    return _TurnTable(cdf[: t + 1], converged, np.clip(left, 0.0, None))


def _grown(cdf: np.ndarray, last: int, rows: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """A table with room for ``rows`` turns holding rows 0..last of ``cdf``."""
    grown = np.empty((rows, cdf.shape[1]))
    grown[: last + 1] = cdf[: last + 1]
    return grown, list(grown)


def _turn_rows(board: Board) -> tuple[list[list[int]], int, bool]:
    """The engine's ``turn_table`` with a goal row that loops onto itself (the goal
    absorbs): rows[p][d - 1] is where face d of p ends."""
    rows, faces, again = turn_table(board)
    if len(rows) * faces > MAX_TURN_TABLE_CELLS:
        raise AnalysisError(
            f"three tops in a row on a {faces ** (1 / 3):.0f}-sided die: the exact odds of "
            f"{board.goal} squares need {len(rows) * faces:,} turn outcomes (at most "
            f"{MAX_TURN_TABLE_CELLS:,})"
        )
    return [*rows, [board.goal] * faces], faces, again


def _components(edges: list[list[int]]) -> list[int]:
    """Strongly connected component id of every node (iterative Tarjan)."""
    size = len(edges)
    index = [-1] * size
    low = [0] * size
    component = [-1] * size
    stack: list[int] = []
    on_stack = [False] * size
    counter = 0
    components = 0
    for root in range(size):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            if child < len(edges[node]):
                work.append((node, child + 1))
                nxt = edges[node][child]
                if index[nxt] < 0:
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = components
                    if member == node:
                        break
                components += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def _reachability(dest: list[list[int]], goal: int) -> tuple[np.ndarray, np.ndarray]:
    """(can reach the goal, finishes surely) per position, from the move graph alone.

    A position finishes with probability 1 exactly when no position it can reach is
    doomed (a finite chain then ends in its only closed class, the goal). Deciding this
    on the graph makes infinite expectations exact and instant.
    """
    size = goal + 1
    preds: list[list[int]] = [[] for _ in range(size)]
    for here in range(goal):
        for there in set(dest[here]):
            preds[there].append(here)

    can_finish = _reaching(preds, [goal])
    doomed = np.flatnonzero(~can_finish).tolist()
    safe = ~_reaching(preds, doomed) if doomed else np.ones(size, dtype=bool)
    return can_finish, safe


def _reaching(preds: list[list[int]], seeds: Iterable[int]) -> np.ndarray:
    """Per position: can it reach one of ``seeds`` (``preds`` lists each one's sources)?"""
    seen = np.zeros(len(preds), dtype=bool)
    queue = deque(seeds)
    for seed in queue:
        seen[seed] = True
    while queue:
        there = queue.popleft()
        for here in preds[there]:
            if not seen[here]:
                seen[here] = True
                queue.append(here)
    return seen


_CHAINS: WeakKeyDictionary[Board, _Chain] = WeakKeyDictionary()


def chain_of(board: Board) -> _Chain:
    """The board's chain, built on first use and cached while the board lives."""
    chain = _CHAINS.get(board)
    if chain is None:
        chain = _Chain(board)
        _CHAINS[board] = chain
    return chain


def clear_cache() -> None:
    """Forget every board's cached chain (benchmarks time a cold start with it)."""
    _CHAINS.clear()


# -- one expectation, fast (for a generator's inner loop and per-jump impacts) -----------


def expected_turns(board: Board, start: int | None = None) -> float:
    """Expected turns to finish from ``start`` (default: the rules' start), fast.

    One small linear solve over the positions a game from ``start`` can reach; no turn
    table, no cache. ``math.inf`` when some game from ``start`` may never finish. The
    same figure as ``analyze(board).expected_turns`` (to rounding); made for a board
    generator that scores thousands of candidate boards. Raises ``AnalysisError`` for a
    board too large.
    """
    if board.goal > MAX_ANALYSIS_SQUARES:
        raise AnalysisError(
            f"the board has {board.goal} squares: exact odds are computed for boards "
            f"of at most {MAX_ANALYSIS_SQUARES} squares"
        )
    position = board.rules.start_position if start is None else start
    rows, faces, again = turn_table(board)
    return expected_from_rows(rows, board.goal, faces, again, position)


def expected_from_rows(
    rows: list[list[int]], goal: int, faces: int, six_again: bool, start: int
) -> float:
    """``expected_turns`` on a roll table (``rows[p][d - 1]`` for p below the goal)."""
    if start == goal:
        return 0.0
    # The positions a game from ``start`` can reach (the goal absorbs).
    seen = {start}
    order = [start]
    for here in order:
        for there in rows[here]:
            if there not in seen:
                seen.add(there)
                if there != goal:
                    order.append(there)
    if goal not in seen:
        return math.inf
    # Every one of them must still be able to reach the goal, or some games never end.
    preds: dict[int, list[int]] = {}
    for here in order:
        for there in set(rows[here]):
            preds.setdefault(there, []).append(here)
    finishing = {goal}
    queue = [goal]
    for there in queue:
        for here in preds.get(there, ()):
            if here not in finishing:
                finishing.add(here)
                queue.append(here)
    if len(finishing) < len(order) + 1:
        return math.inf
    # X = R X + b over the reached positions (see ``_Chain.solve_expected``).
    index = {p: i for i, p in enumerate(order)}
    count = len(order)
    system = np.eye(count)
    b = np.zeros(count)
    step = 1.0 / faces
    for i, here in enumerate(order):
        for face, there in enumerate(rows[here], start=1):
            if there == goal:
                continue
            system[i, index[there]] -= step
            if not (six_again and face == faces):
                b[i] += step
    return 1.0 + float(np.linalg.solve(system, b)[0])
