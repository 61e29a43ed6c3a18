"""Exact odds of random play (SPEC 6): an absorbing Markov chain, never a simulation.

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

``analyze`` itself only combines table columns, so the game can call it after every move.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np

from .board import Board, Jump, JumpKind
from .engine import MAX_PLAYERS, move, next_position, roll_table
from .errors import MoveError, SnlError
from .solver import distances_to_goal

MAX_ANALYSIS_SQUARES = 2500
"""Largest board analysed exactly (50 x 50): the linear solves are dense."""
TAIL_TOLERANCE = 1e-12
"""The turn table stops once no position has more unresolved probability than this."""
MAX_TABLE_CELLS = 1 << 23
"""Memory cap of the turn table (turns x positions float64 cells, 64 MiB)."""
REPORT_TURNS = (10, 20, 30, 50, 100)
REPORT_PERCENTILES = (0.1, 0.25, 0.5, 0.75, 0.9)

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
        rules = board.rules
        self.goal = goal = board.goal
        self.faces = rules.faces
        self.six_again = rules.six_again
        self.size = goal + 1
        # dest[p, d - 1]: where a roll of d from p ends, straight from the engine: its
        # count_to and the board's landing table are what next_position is made of. The
        # goal row loops onto itself so that the goal absorbs.
        rows = _roll_table(board)
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
        return expected

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
        return self.cdf.shape[0] - 1


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


def _roll_table(board: Board) -> list[list[int]]:
    """rows[p][d - 1]: where a roll of d from p ends, straight from the engine. The goal
    row loops onto itself so that the goal absorbs."""
    rows = roll_table(board)
    rows.append([board.goal] * board.rules.faces)
    return rows


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


def _chain(board: Board) -> _Chain:
    chain = _CHAINS.get(board)
    if chain is None:
        chain = _Chain(board)
        _CHAINS[board] = chain
    return chain


def clear_cache() -> None:
    """Forget every board's cached chain (benchmarks time a cold start with it)."""
    _CHAINS.clear()


# -- the public result -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Analysis:
    """The odds of random play on ``board`` seen by the seat about to roll.

    Single-seat figures (expected turns, median, percentiles, ``finish_within``) are for
    ``start``, the square of seat ``to_move``; ``..._from(square)`` asks about any square.
    Turns are counted from now: a turn starting on ``start`` is turn 1. Under
    ``six_again`` an extra roll still pending is, in distribution, a fresh turn from the
    square the token is on, so it is analysed as one.
    """

    board: Board
    players: int
    positions: tuple[int, ...]
    to_move: int
    _chain: _Chain = field(repr=False)
    _wins: tuple[float, ...] = field(repr=False)

    # -- single seat -------------------------------------------------------------------

    @property
    def start(self) -> int:
        """The square the figures are for (0 = off the board)."""
        return self.positions[self.to_move]

    @property
    def expected_turns(self) -> float:
        """Expected turns to finish from ``start``; ``math.inf`` if it may never finish."""
        return self.expected_turns_from(self.start)

    def expected_turns_from(self, square: int) -> float:
        return float(self._chain.expected[self._square(square)])

    @property
    def least_rolls(self) -> int:
        """The solver's least rolls from ``start`` (-1 when the goal is unreachable)."""
        return distances_to_goal(self.board)[self.start]

    @property
    def never_finishes(self) -> float:
        """P(the token on ``start`` never reaches the goal)."""
        return 1.0 - float(self._chain.finish_probability[self.start])

    def finish_within(self, turns: int) -> float:
        """P(finished within ``turns`` turns) from ``start``."""
        return self.finish_within_from(self.start, turns)

    def finish_within_from(self, square: int, turns: int) -> float:
        """P(finished within ``turns`` turns) for a token whose turn starts on ``square``.

        Beyond the table's horizon the value is the table's last (exact to within
        ``TAIL_TOLERANCE`` when the table converged, a lower bound otherwise).
        """
        square = self._square(square)
        if turns < 0:
            return 0.0
        column = self._chain.column(square)
        return float(column[min(turns, len(column) - 1)])

    def percentile(self, turns: int) -> float:
        """The share of games (from ``start``) finished within ``turns`` turns.

        For "how lucky was this game": 0.08 means only 8% of games are that short. The
        winner dialog wants a whole game, so it should ask ``analyze(board)``.
        """
        return self.finish_within(turns)

    def percentile_turns(self, q: float) -> float:
        """The least number of turns t with P(finished within t) >= q (an int), or
        ``math.inf`` when that share of games never finishes (or lies past a truncated
        table)."""
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"a percentile is a share from 0 to 1, not {q!r}")
        chain = self._chain
        # Asking for (nearly) all the mass that ever finishes (q = 1, or the median when
        # exactly half the games never end): within the tail tolerance the table cannot
        # tell "reached" from "approached", the move graph can.
        nearly_all = q > chain.finish_probability[self.start] - 10 * TAIL_TOLERANCE
        if nearly_all and chain.endless[self.start]:
            return math.inf
        column = chain.column(self.start)
        hits = np.flatnonzero(column >= q - _PERCENTILE_SLACK)
        return int(hits[0]) if len(hits) else math.inf

    @property
    def median_turns(self) -> int:
        """The median finishing turn from ``start``; -1 when half the games never end."""
        median = self.percentile_turns(0.5)
        return median if isinstance(median, int) else -1

    @property
    def distribution(self) -> tuple[float, ...]:
        """P(finishing at exactly turn t) from ``start``, t = 0..horizon (index = turn)."""
        column = self._chain.column(self.start)
        return tuple(np.diff(column, prepend=0.0).clip(0.0).tolist())

    def pmf(self, max_turns: int) -> list[float]:
        """P(finishing at exactly turn t) for t = 0..max_turns (index = turn)."""
        dist = self.distribution
        return [dist[t] if t < len(dist) else 0.0 for t in range(max_turns + 1)]

    @property
    def horizon(self) -> int:
        """The last turn the distribution table covers."""
        return self._chain.table.horizon

    @property
    def truncated(self) -> bool:
        """True when the memory cap cut the table before the tail was resolved."""
        return not self._chain.table.converged

    # -- seats -------------------------------------------------------------------------

    @property
    def win_chances(self) -> list[float]:
        """Each seat's chance of winning (index = seat), from the current situation."""
        return list(self._wins)

    @property
    def no_winner(self) -> float:
        """P(nobody ever wins): every seat's token never finishes. Zero on sane boards."""
        finish = self._chain.finish_probability
        return float(np.prod([1.0 - finish[p] for p in self.positions]))

    def _square(self, square: int) -> int:
        if type(square) is not int or not 0 <= square <= self.board.goal:
            raise MoveError(f"square {square!r} is not on the board (0..{self.board.goal})")
        return square


def analyze(
    board: Board,
    players: int = 1,
    positions: Sequence[int] | None = None,
    to_move: int = 0,
) -> Analysis:
    """The exact odds of random play on ``board`` for ``players`` seats in turn order.

    ``positions`` are the seats' squares (default: everyone on the rules' start) and
    ``to_move`` the seat that rolls next. Raises ``AnalysisError`` for a board too large,
    ``SnlError``/``MoveError`` for bad arguments.
    """
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise SnlError(f"a game has 1 to {MAX_PLAYERS} players, not {players!r}")
    if positions is None:
        squares = (board.rules.start_position,) * players
    else:
        squares = tuple(positions)
        if len(squares) != players:
            raise SnlError(f"{players} players need {players} positions, not {len(squares)}")
        for square in squares:
            if type(square) is not int or not 0 <= square <= board.goal:
                raise MoveError(f"square {square!r} is not on the board (0..{board.goal})")
    if type(to_move) is not int or not 0 <= to_move < players:
        raise SnlError(f"seat {to_move!r} does not exist (0..{players - 1})")
    chain = _chain(board)
    wins = _win_chances([chain.column(square) for square in squares], to_move)
    if chain.table.converged:
        # The table ends where less than TAIL_TOLERANCE is unresolved; hand that crumb
        # back in proportion so the chances add up to exactly 1 - P(no winner).
        finish = chain.finish_probability
        someone = 1.0 - float(np.prod([1.0 - finish[p] for p in squares]))
        total = sum(wins)
        if total > 0:
            wins = tuple(w * someone / total for w in wins)
    return Analysis(board, players, squares, to_move, chain, wins)


def _win_chances(columns: Sequence[np.ndarray], to_move: int) -> tuple[float, ...]:
    """Each seat's chance of winning, seats independent, in turn order from ``to_move``.

    The seat r-th in order wins at its turn t when it finishes exactly then, the seats
    before it have not finished within t turns and the seats after it not within t - 1.
    Turn 0 stands for "already on the goal".
    """
    count = len(columns)
    order = [(to_move + r) % count for r in range(count)]
    within = np.column_stack([columns[seat] for seat in order])  # (turns, order)
    exact = np.diff(within, axis=0, prepend=0.0)
    left = 1.0 - within
    left_before = np.vstack([np.ones((1, count)), left[:-1]])
    wins = [0.0] * count
    for r, seat in enumerate(order):
        term = exact[:, r] * left[:, :r].prod(axis=1) * left_before[:, r + 1 :].prod(axis=1)
        wins[seat] = float(term.sum())
    return tuple(wins)


# -- jumps and traps (for ``snl check``) -------------------------------------------------


@dataclass(frozen=True)
class JumpImpact:
    """How one snake or ladder changes the expected game length from the start.

    ``delta`` = expected turns with the jump minus without it: negative means the jump
    shortens the game. A ladder can lengthen it (it may skip past a better ladder or
    land next to a snake); ``lengthens`` says so. ``nan`` when the game may never end
    with or without the jump.
    """

    start: int
    end: int
    kind: JumpKind
    expected_turns_without: float
    delta: float

    @property
    def lengthens(self) -> bool:
        return self.delta > 0

    def describe(self) -> str:
        """'ladder 80->100 shortens the game by 3.21 turns' and the like."""
        name = f"{self.kind} {self.start}->{self.end}"
        delta = self.delta
        if math.isnan(delta):
            return f"{name}: the game may never end, with or without it"
        if delta == math.inf:
            return f"{name} can make the game endless (without it every game ends)"
        if delta == -math.inf:
            return f"{name} rescues the game: without it some games never end"
        if abs(delta) < 0.005:
            return f"{name} barely changes the game length ({delta:+.4f} turns)"
        # Capitals mark the surprise: a ladder that lengthens, a snake that shortens.
        if delta < 0:
            verb = "SHORTENS" if self.kind == "snake" else "shortens"
            return f"{name} {verb} the game by {-delta:.2f} turns"
        verb = "LENGTHENS" if self.kind == "ladder" else "lengthens"
        return f"{name} {verb} the game by {delta:.2f} turns"


def jump_impacts(board: Board) -> list[JumpImpact]:
    """For each jump in square order, the expected game length without it.

    Each board minus one jump is rebuilt through the engine (so chains and overshoot
    behave as in play). Removing a jump changes the per-roll matrix in at most two
    columns (rolls that landed on its start now stay there instead of reaching its
    end), so once the base system is inverted each jump costs a rank-2 Woodbury update
    rather than a fresh solve. A jump whose removal changes which squares finish surely
    gets a direct solve.
    """
    chain = _chain(board)
    start = board.rules.start_position
    with_all = float(chain.expected[start])
    update = _WoodburyBase(chain, start) if math.isfinite(with_all) else None
    jumps = board.jumps
    impacts = []
    for origin, end in jumps.items():
        others = [(a, b) for a, b in jumps.items() if a != origin]
        reduced = Board(board.rows, board.cols, others, rules=board.rules)
        rows = _roll_table(reduced)
        without = update.expected_turns(rows) if update is not None else None
        if without is None:
            # Only the expectation is needed: a solve, never the turn table.
            without = float(_Chain(reduced).solve_expected(use_table=False)[start])
        delta = math.nan if math.isinf(with_all) and math.isinf(without) else with_all - without
        kind: JumpKind = "ladder" if end > origin else "snake"
        impacts.append(JumpImpact(origin, end, kind, without, delta))
    return impacts


class _WoodburyBase:
    """The inverted per-roll system of a board, for expectations after small changes.

    Over the safe positions S (all of them, not only the kept ones, since a removed
    jump's start becomes a landing square), X = M^-1 b with M = I - R_SS (see
    ``_Chain.solve_expected``). A changed roll table gives M' = M - U E_C^T, with C the
    columns that changed, and Woodbury's identity gives X'(start) from M^-1 alone.
    """

    def __init__(self, chain: _Chain, start: int) -> None:
        self.chain, self.start = chain, start
        safe = chain.safe.copy()
        safe[chain.goal] = False
        self.states = np.flatnonzero(safe)
        self.index = np.full(chain.size, -1, dtype=np.intp)
        self.index[self.states] = np.arange(len(self.states))
        system = np.eye(len(self.states)) - chain._roll_matrix(self.states)
        self.inverse = np.linalg.inv(system)

    def expected_turns(self, rows: list[list[int]]) -> float | None:
        """E(start) under a new roll table, or None when the update does not apply."""
        chain, start, index = self.chain, self.start, self.index
        if index[start] < 0:
            return None
        _, safe = _reachability(rows, chain.goal)
        if not np.array_equal(safe, chain.safe):
            return None
        dest = np.array(rows, dtype=np.intp)
        changed = np.flatnonzero((dest != chain.dest).any(axis=1) & (index >= 0))
        columns = sorted(
            {int(q) for q in np.concatenate([dest[changed], chain.dest[changed]]).ravel()}
            - {chain.goal}
        )
        # U[p, j] = change of R[p, columns[j]] (rows outside ``changed`` stay zero).
        update = np.zeros((len(self.states), len(columns)))
        for j, column in enumerate(columns):
            counts = (dest[changed] == column).sum(axis=1) - (chain.dest[changed] == column).sum(
                axis=1
            )
            update[index[changed], j] = counts / chain.faces
        ends_turn = dest[self.states] != chain.goal
        if chain.six_again:
            ends_turn[:, -1] = False
        b = ends_turn.sum(axis=1) / chain.faces
        picked = [index[start], *index[columns]]
        inverse_rows = self.inverse[picked]
        y = inverse_rows @ b
        z = inverse_rows @ update
        k = len(columns)
        correction = 0.0
        if k:
            inner = np.eye(k) - z[1:]
            correction = float(z[0] @ np.linalg.solve(inner, y[1:]))
        return 1.0 + float(y[0]) + correction


def reachable_positions(board: Board) -> set[int]:
    """Every position a token can rest on during a game from the rules' start."""
    start = board.rules.start_position
    seen = {start}
    queue = deque([start])
    faces = board.rules.faces
    while queue:
        here = queue.popleft()
        if here == board.goal:
            continue
        for die in range(1, faces + 1):
            there = next_position(board, here, die)
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def idle_jumps(board: Board) -> list[Jump]:
    """Jumps that can never fire in a game from the start (the engine says which fire)."""
    fired: set[int] = set()
    for here in reachable_positions(board):
        if here == board.goal:
            continue
        for die in range(1, board.rules.faces + 1):
            fired.update(jump.start for jump in move(board, here, die).jumps)
    return [Jump(a, b) for a, b in board.jumps.items() if a not in fired]


@dataclass(frozen=True)
class Traps:
    """Where a game from the start can get stuck.

    ``doomed``: reachable squares from which the goal can never be reached. ``risky``:
    reachable squares from which it is reached with a probability strictly below 1.
    ``never_finishes``: the chance a token starting the game never finishes.
    """

    doomed: tuple[int, ...]
    risky: tuple[int, ...]
    never_finishes: float

    def __bool__(self) -> bool:
        return bool(self.doomed or self.risky)


def find_traps(board: Board) -> Traps:
    chain = _chain(board)
    reachable = reachable_positions(board)
    doomed = tuple(p for p in sorted(reachable) if chain.doomed[p])
    risky = tuple(p for p in sorted(reachable) if chain.risky[p])
    start = board.rules.start_position
    return Traps(doomed, risky, 1.0 - float(chain.finish_probability[start]))


def check_findings(board: Board) -> tuple[list[str], list[str]]:
    """``snl check``'s share: (warnings, notes) from the odds of random play.

    Warnings: jumps that never fire in a game (except one on square 1 under start = 1,
    which SPEC 2's own warnings already name) and traps, with the share of games that
    never finish. Notes: how each jump changes the expected game length. A board too
    large to analyse gets a note instead.
    """
    try:
        _chain(board)  # raises for a board too large; warms the cache otherwise
    except AnalysisError as error:
        return [], [f"odds not computed: {error}"]
    warnings = []
    for jump in idle_jumps(board):
        if jump.start == 1 and board.rules.start == 1:
            continue
        warnings.append(f"the {jump.kind} {jump.start} -> {jump.end} never fires in a game")
    traps = find_traps(board)
    if traps.doomed:
        where = f" (a token on {_ranges(traps.risky)} may fall into it)" if traps.risky else ""
        warnings.append(
            f"trap: {_percent(traps.never_finishes, 2)} of games never finish; the goal "
            f"cannot be reached from {_ranges(traps.doomed)}{where}"
        )
    start = board.rules.start_position
    expected = float(_chain(board).expected[start])
    label = f"{expected:.2f} turns" if math.isfinite(expected) else "infinite"
    notes = [f"expected game length: {label}; what each jump does to it:"]
    notes.extend(f"  {impact.describe()}" for impact in jump_impacts(board))
    return warnings, notes


# -- reports ---------------------------------------------------------------------------


def analysis_json(analysis: Analysis) -> dict[str, object]:
    """SPEC 4's ``snl analyze --json`` object.

    JSON has no infinity: when the goal may never be reached ``expected_turns`` is
    ``null`` and ``finite`` is false; a median or percentile that is never reached is
    ``null`` as well. Extra keys: ``finite``, ``players``, ``percentiles`` (turns by
    percent), ``never_finishes``, ``no_winner``.
    """
    expected = analysis.expected_turns
    finite = math.isfinite(expected)
    percentiles = {}
    for q in REPORT_PERCENTILES:
        turns = analysis.percentile_turns(q)
        percentiles[str(round(q * 100))] = turns if isinstance(turns, int) else None
    median = analysis.median_turns
    return {
        "expected_turns": expected if finite else None,
        "finite": finite,
        "median_turns": median if median >= 0 else None,
        "least_rolls": analysis.least_rolls,
        "finish_within": {str(k): analysis.finish_within(k) for k in REPORT_TURNS},
        "win_chances": analysis.win_chances,
        "players": analysis.players,
        "percentiles": percentiles,
        "never_finishes": analysis.never_finishes,
        "no_winner": analysis.no_winner,
    }


_EIGHTHS = " ▏▎▍▌▋▊▉"


def _bar(value: float, full: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at ``full``, in eighths of a cell."""
    if full <= 0:
        return ""
    eighths = round(value / full * width * 8)
    whole, part = divmod(eighths, 8)
    return "█" * whole + (_EIGHTHS[part] if part else "")


def histogram(analysis: Analysis, rows: int = 12, width: int = 30) -> list[str]:
    """Text histogram of the finishing turn from ``start``: turn ranges and bars.

    Covers the turns up to the 99th percentile of the games that finish (or the table's
    end) in at most ``rows`` equal ranges, then "later" and "never" rows when they are
    not negligible; single-width block elements only.
    """
    dist = analysis.distribution
    first = next((t for t, p in enumerate(dist) if p > 0), None)
    if first is None:
        return ["  (no game ever finishes)"]
    never = analysis.never_finishes
    last = analysis.percentile_turns(0.99 * (1.0 - never))
    if not isinstance(last, int):
        last = len(dist) - 1
    step = max(1, math.ceil((last - first + 1) / rows))
    last = first + step * math.ceil((last - first + 1) / step) - 1  # whole bins only
    bins = []
    for low in range(first, last + 1, step):
        high = low + step - 1
        bins.append((low, high, sum(dist[low : high + 1])))
    tallest = max(share for _, _, share in bins)
    label_width = len(str(last))
    lines = []
    for low, high, share in bins:
        label = (
            f"{low:>{label_width}}"
            if low == high
            else f"{low:>{label_width}}-{high:<{label_width}}"
        )
        label = label.ljust(2 * label_width + 1)
        lines.append(f"  {label}  {_bar(share, tallest, width):<{width}}  {_percent(share):>6}")
    later = 1.0 - analysis.finish_within(last) - never
    for label, share in (("later", later), ("never", never)):
        if share > 5e-5:
            lines.append(
                f"  {label.ljust(2 * label_width + 1)}  {'':<{width}}  {_percent(share):>6}"
            )
    return lines


def format_report(analysis: Analysis, board: Board | None = None) -> str:
    """The text of ``snl analyze`` (without ``--json``); ``board`` defaults to the
    analysed one (pass the loaded board to show its name)."""
    board = board if board is not None else analysis.board
    name = board.name or "board"
    start = "off the board" if analysis.start == 0 else f"square {analysis.start}"
    lines = [f"{name} ({board.rows}x{board.cols}): random play from {start}, exact odds"]
    expected = analysis.expected_turns
    if math.isfinite(expected):
        lines.append(f"  expected turns    {expected:.4f}")
    else:
        lines.append(
            f"  expected turns    infinite ({_percent(analysis.never_finishes)} of games "
            "never finish)"
        )
    median = analysis.median_turns
    lines.append(f"  median turns      {median if median >= 0 else 'never'}")
    least = analysis.least_rolls
    lines.append(f"  least rolls       {least if least >= 0 else 'unreachable'}")
    parts = []
    for q in REPORT_PERCENTILES:
        turns = analysis.percentile_turns(q)
        parts.append(f"{round(q * 100)}%: {turns if isinstance(turns, int) else 'never'}")
    lines.append("  percentiles       " + "  ".join(parts) + "  (turns)")
    within = [f"{k}: {_percent(analysis.finish_within(k))}" for k in REPORT_TURNS]
    lines.append("  finished within   " + "  ".join(within) + "  (turns)")
    if analysis.players > 1:
        seats = [f"seat {i + 1}: {_percent(p, 2)}" for i, p in enumerate(analysis.win_chances)]
        lines.append("  win chances       " + "  ".join(seats))
        if analysis.no_winner > 0:
            lines.append(f"  no winner ever    {_percent(analysis.no_winner)}")
    if analysis.truncated:
        lines.append(
            f"  note: the distribution is cut at turn {analysis.horizon}; "
            "figures past it are lower bounds"
        )
    lines.append("")
    lines.append("  finishing turn    share of games")
    lines.extend(histogram(analysis))
    return "\n".join(lines)


def _percent(p: float, digits: int = 1) -> str:
    """A share as a percentage that never rounds a possibility to 0% or a doubt to 100%."""
    smallest = 0.5 * 10**-digits / 100
    if 0 < p < smallest:
        return f"<{10**-digits:.{digits}f}%"
    if 1 - smallest < p < 1:
        return f">{100 - 10**-digits:.{digits}f}%"
    return f"{p * 100:.{digits}f}%"


def _ranges(squares: Sequence[int]) -> str:
    """'squares 5-9, 14' from sorted squares (0 reads 'off the board')."""
    parts = []
    run: list[int] = []
    for square in [*squares, -2]:
        if run and square == run[-1] + 1:
            run.append(square)
            continue
        if run:
            label = "start" if run[0] == 0 else str(run[0])
            parts.append(label if len(run) == 1 else f"{label}-{run[-1]}")
        run = [square]
    word = "square" if len(squares) == 1 else "squares"
    return f"{word} {', '.join(parts)}"
