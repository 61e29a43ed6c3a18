"""The odds of random play (SPEC 6): the library's ``analyze`` and its ``Analysis``.

The Markov chain behind every figure lives in ``chain``; this module combines its
columns into what one seat (or a game of several seats) cares about, so the game can call
it after every move. Jump impacts are in ``impacts``, ``snl check``'s findings in
``checks`` and the text and JSON reports in ``report``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..board import Board
from ..engine import MAX_PLAYERS
from ..errors import MoveError, SnlError
from ..solver import distances_to_goal
from .markov import (
    MAX_ANALYSIS_SQUARES,
    MAX_DISTRIBUTION_SQUARES,
    AnalysisError,
    Chain,
    Progress,
    chain_of,
    clear_cache,
)
from .stretch import TAIL_TOLERANCE, Column, forecast
from .wins import geometric_tail, geometric_wins, padded, seat_wins, undecided

__all__ = [
    "MAX_ANALYSIS_SQUARES",
    "MAX_DISTRIBUTION_SQUARES",
    "Analysis",
    "AnalysisError",
    "FigureAccuracy",
    "analyze",
    "clear_cache",
    "winner_finished_within",
]

# When a percentile lands exactly on a table value (0.5 after one turn on a coin-flip
# board), rounding must not push it one turn later.
_PERCENTILE_SLACK = 1e-12

EXACT = 1e-9
"""A figure whose error bound is at most this is exact (SPEC 12: exact to 1e-9)."""
CLOSED_TAIL = 1e-11
"""The win chances stop once the rest of the game, summed between two geometric series
(``geometric_wins``), is known to within this (a long game's tail, summed turn by turn
to 1e-12, took tens of thousands of turns at 50 x 50)."""
SHOWN_TURNS, SHOWN_SHARE = 100, 0.99
"""The distribution's figures that ``accuracy`` vouches for: P(finished within k) for
k up to 100 (and to the 99th percentile), every percentile up to the 99th, the median.
Any later P(finished within k) is computed on demand (``finish_within``)."""


@dataclass(frozen=True)
class FigureAccuracy:
    """How exact one of the analysis's figures is.

    ``status`` is "exact" (to ``EXACT`` or better), "bounded" (``error`` bounds how far
    the figure may be off: the probability mass the computation did not resolve) or
    "left out" (not computed; ``why`` says why).
    """

    figure: str
    status: str
    error: float = 0.0
    why: str = ""

    @property
    def exact(self) -> bool:
        return self.status == "exact"


@dataclass(frozen=True)
class Bars:
    """The finishing turn's histogram as numbers: one (first turn, last turn, share of
    games) per bar, equal ranges up to the 99th percentile of the games that finish (or
    the distribution's end), then the shares finished later and never."""

    bins: tuple[tuple[int, int, float], ...]
    later: float
    never: float


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
    _chain: Chain = field(repr=False)
    _wins: tuple[float, ...] = field(repr=False)
    _wins_error: float = field(default=0.0, repr=False)
    _modes: dict[int, tuple[Column, bool]] = field(default_factory=dict, repr=False, compare=False)
    """``_mode``'s answer per start square (worked out once: the figure and its accuracy)."""

    # -- single seat -------------------------------------------------------------------

    @property
    def start(self) -> int:
        """The square the figures are for (0 = off the board)."""
        return self.positions[self.to_move]

    @property
    def expected_turns(self) -> float:
        """Expected turns to finish from ``start``: ``math.inf`` if it may never finish,
        ``nan`` if every game finishes but the figure is too large to compute."""
        return self.expected_turns_from(self.start)

    def expected_turns_from(self, square: int) -> float:
        return float(self._chain.expected[self._square(square)])

    @property
    def finite(self) -> bool:
        """Every game from ``start`` finishes (decided on the move graph, exactly).

        True even when ``expected_turns`` is too large to compute (``nan``).
        """
        return bool(self._chain.safe[self.start])

    @property
    def too_large(self) -> bool:
        """The expectation is finite but too large to compute in floating point."""
        return self.finite and math.isnan(self.expected_turns)

    @property
    def std_turns(self) -> float:
        """Standard deviation of the finishing turn from ``start`` (``inf`` unless
        ``finite``; ``nan`` when too large to compute)."""
        variance = float(self._chain.variance[self.start])
        return math.sqrt(variance) if math.isfinite(variance) else variance

    @property
    def mode_turns(self) -> int:
        """The most likely finishing turn from ``start`` (the earliest when tied);
        -1 when no game ever finishes. The distribution is followed until no later turn
        can beat it (``accuracy`` says when the work ran out first)."""
        column, _ = self._mode()
        dist = np.diff(column.cdf, prepend=0.0)
        best = int(dist.argmax()) if len(dist) else -1
        return best if best >= 0 and dist[best] > 0 else -1

    def _mode(self) -> tuple[Column, bool]:
        """The column from ``start`` followed until no later turn can be likelier than
        its likeliest, and whether that was shown (not cut short by the work budget).

        No later turn's chance exceeds the mass still unresolved; and past the turn H
        the chain's tail bounds read, none exceeds F(H + 1)'s upper bound (the finishing
        chance decays geometrically from there): on a long game that settles the mode
        thousands of turns sooner."""
        chain, start = self._chain, self._start_checked()
        known = self._modes.get(start)
        if known is not None:
            return known

        def settled(columns: list[Column]) -> bool:
            column = columns[0]
            peak = float(np.diff(column.cdf, prepend=0.0).max(initial=0.0))
            if column.resolved or peak > column.unresolved:
                return True
            bounds = chain.tail_bounds([start], column.horizon)
            return bounds is not None and peak > float(bounds.finishing_high[0])

        column = chain.column(start, settled)
        result = (column, settled([column]) or column.unresolved <= EXACT)
        self._modes[start] = result
        return result

    @property
    def game_rounds(self) -> float:
        """Expected rounds of the game until the first seat finishes (a round is one
        turn of every seat, starting with ``to_move``; the game ends in the round in
        which the first seat finishes). ``inf`` when no seat finishes surely; with one
        player it is ``expected_turns``.
        """
        return self._game_rounds()[0]

    def _game_rounds(self) -> tuple[float, float]:
        """(game rounds, error bound)."""
        if not any(self._chain.safe[p] for p in self.positions):
            return math.inf, 0.0
        if self.players == 1:
            return self.expected_turns, 0.0

        def settled(columns: list[Column]) -> bool:
            value, bound = self._rounds_from(columns)
            return bound <= EXACT * max(1.0, value) or all(c.resolved for c in columns)

        self._distribution_available()
        return self._rounds_from(self._chain.columns(self.positions, settled))

    def _rounds_from(self, columns: list[Column]) -> tuple[float, float]:
        # E[min T_i] = sum_t prod_i P(T_i > t), seats independent.
        survivals = [1.0 - cdf for cdf in padded([column.cdf for column in columns])]
        survival = np.prod(survivals, axis=0)
        partial = float(survival.sum())
        # Past the last turn H, prod_i S_i(t) <= S_j(t) prod_{i != j} S_i(H) for every
        # seat j, and sum_{t > H} S_j(t) = E_j - sum_{t <= H} S_j(t) exactly (from the
        # expectation's own solve): a bound on the rest of the sum, rigorous.
        bound = math.inf
        for j, square in enumerate(self.positions):
            expected = float(self._chain.expected[square])
            if not math.isfinite(expected):
                continue
            rest = max(expected - float(survivals[j].sum()), 0.0)
            others = math.prod(float(s[-1]) for i, s in enumerate(survivals) if i != j)
            bound = min(bound, rest * others)
        tail = min(geometric_tail(survival), bound)
        # The chain's tail bounds, when read at this turn: U_i(H + k) lies between
        # u_low_i rho_lo^k and u_i rho_hi^k, so the rest of the sum lies between two
        # geometric series; the midpoint, with half their gap as the bound.
        closed = self._chain.tail_bounds(self.positions, len(survival) - 1)
        if closed is not None and all(c.horizon == closed.turns for c in columns):
            seats = len(self.positions)
            low_rate, high_rate = closed.rho_lo**seats, closed.rho_hi**seats
            low = math.prod(map(float, closed.unresolved_low)) * low_rate / (1.0 - low_rate)
            high = math.prod(map(float, closed.unresolved)) * high_rate / (1.0 - high_rate)
            if (high - low) / 2 < bound:
                return partial + (low + high) / 2, (high - low) / 2
        return partial + tail, bound

    def visits(self) -> list[float] | None:
        """Expected turns that BEGIN on each square in a one-player game from
        ``start`` (index = square, 0 = off the board; the goal is 0). They sum to
        ``expected_turns``. None when some games never finish."""
        visits = self._chain.visits_from(self.start)
        return None if visits is None else visits.tolist()

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

        Beyond the distribution's last turn the value is its last (exact to within
        ``TAIL_TOLERANCE`` when the tail is resolved; otherwise a lower bound, off by at
        most the column's unresolved mass: ``accuracy``).
        """
        square = self._square(square)
        if turns < 0:
            return 0.0
        self._distribution_available()
        column = self._chain.column(
            square, lambda columns: columns[0].horizon >= turns or columns[0].resolved, True
        ).cdf
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
        self._distribution_available()
        level = q - _PERCENTILE_SLACK
        for extend in (True, False):
            read = chain.column(
                self.start,
                lambda columns: columns[0].resolved or columns[0].cdf[-1] >= level,
                extend,
            )
            column = read.cdf
            hits = np.flatnonzero(column >= level)
            if not len(hits):
                return math.inf
            turn = int(hits[0])
            # A tail written in closed form is off by at most ``read.error``: the turn
            # stands only if no such error can move the crossing (else every turn).
            before = float(column[turn - 1]) if turn else -math.inf
            if float(column[turn]) - read.error >= level and before + read.error < level:
                break
        return turn

    @property
    def median_turns(self) -> int:
        """The median finishing turn from ``start``; -1 when half the games never end."""
        median = self.percentile_turns(0.5)
        return median if isinstance(median, int) else -1

    @property
    def distribution(self) -> tuple[float, ...]:
        """P(finishing at exactly turn t) from ``start``, t = 0..horizon (index = turn)."""
        self._distribution_available()
        column = self._chain.column(self.start, extend=True).cdf
        return tuple(np.diff(column, prepend=0.0).clip(0.0).tolist())

    def pmf(self, max_turns: int) -> list[float]:
        """P(finishing at exactly turn t) for t = 0..max_turns (index = turn); the
        distribution is followed that far only."""
        self._distribution_available()
        column = self._chain.column(
            self.start,
            lambda columns: columns[0].horizon >= max_turns or columns[0].resolved,
            True,
        ).cdf[: max_turns + 1]
        dist = np.diff(column, prepend=0.0).clip(0.0).tolist()
        return [dist[t] if t < len(dist) else 0.0 for t in range(max_turns + 1)]

    @property
    def horizon(self) -> int:
        """The last turn of the distribution from ``start`` computed for the figures
        shown (``SHOWN_TURNS``, ``SHOWN_SHARE``); later ones are computed on demand."""
        return self._start_column.horizon

    @property
    def truncated(self) -> bool:
        """True when the work ran out before the figures shown were all reached, or
        before a P(finished within k) asked for: some percentile is then "after
        ``horizon``" and a later P(finished within k) a lower bound (``accuracy``)."""
        column = self._start_column
        return column.unresolved > EXACT and not (
            column.horizon >= SHOWN_TURNS
            and float(column.cdf[-1])
            >= SHOWN_SHARE * float(self._chain.finish_probability[self.start]) - _PERCENTILE_SLACK
        )

    @property
    def _start_column(self) -> Column:
        """The column from ``start`` as far as the figures shown need it: past
        ``SHOWN_TURNS`` turns and ``SHOWN_SHARE`` of the games that finish (the 99th
        percentile), or resolved, or until the work runs out."""
        start = self._start_checked()
        finishing = float(self._chain.finish_probability[start])

        def shown(columns: list[Column]) -> bool:
            column = columns[0]
            reached = float(column.cdf[-1]) >= SHOWN_SHARE * finishing - _PERCENTILE_SLACK
            return column.resolved or (column.horizon >= SHOWN_TURNS and reached)

        return self._chain.column(start, shown, True)

    def _start_checked(self) -> int:
        self._distribution_available()
        return self.start

    def _distribution_available(self) -> None:
        why = self._chain.distribution_left_out
        if why is not None:
            raise AnalysisError(why)

    # -- how exact the figures are ----------------------------------------------------

    @property
    def left_out(self) -> str | None:
        """Why the distribution's figures (median, percentiles, P(within k), most likely
        turn, win chances, game rounds) are not computed, or None when they are."""
        return self._chain.distribution_left_out

    @property
    def accuracy(self) -> tuple[FigureAccuracy, ...]:
        """Every figure's exactness: "exact", "bounded" (with its error bound) or "left
        out" (with the reason). Figures: expected_turns, std_turns, visits, distribution
        (median, percentiles, P(finished within k)), mode_turns and, for several seats,
        win_chances and game_rounds."""
        figures = []
        relative = self._chain.relative_error
        expected, std = self.expected_turns, self.std_turns
        for name, error, scale in (
            ("expected_turns", relative * expected, expected),
            ("std_turns", relative * std, std),
            ("visits", relative * expected, expected),
        ):
            if self.too_large:
                figures.append(FigureAccuracy(name, "left out", why="too large for floating point"))
            elif not math.isfinite(expected) or error <= EXACT * max(1.0, scale):
                figures.append(FigureAccuracy(name, "exact", error if math.isfinite(error) else 0))
            else:
                figures.append(
                    FigureAccuracy(name, "bounded", error, "rounding in an ill-conditioned solve")
                )
        names = ["distribution", "mode_turns"]
        if self.players > 1:
            names += ["win_chances", "game_rounds"]
        why = self.left_out
        if why is not None:
            figures.extend(FigureAccuracy(name, "left out", why=why) for name in names)
            return tuple(figures)
        # The figures shown: the column followed that far (or until the work runs out,
        # and then the bound says how far off the tail may be).
        column = self._start_column
        horizon = column.horizon
        unresolved = (column.unresolved if self.truncated else 0.0) + column.error
        cut = (
            f"the distribution stops at turn {horizon:,} (work budget) with "
            f"{column.unresolved:.2g} of the games unresolved"
        )
        figures.append(_accuracy("distribution", unresolved, cut))
        if self._mode()[1]:
            figures.append(FigureAccuracy("mode_turns", "exact"))
        else:
            figures.append(
                FigureAccuracy("mode_turns", "left out", why=f"{cut}: a later turn may be likelier")
            )
        if self.players > 1:
            figures.append(_accuracy("win_chances", self._wins_error, cut))
            figures.append(_accuracy("game_rounds", self._game_rounds()[1], cut))
        return tuple(figures)

    def accuracy_of(self, figure: str) -> FigureAccuracy:
        """``accuracy``'s entry for one figure (``KeyError`` for an unknown name)."""
        for entry in self.accuracy:
            if entry.figure == figure:
                return entry
        raise KeyError(figure)

    # -- seats -------------------------------------------------------------------------

    @property
    def win_chances(self) -> list[float]:
        """Each seat's chance of winning (index = seat), from the current situation
        (off by at most ``accuracy_of("win_chances").error``)."""
        self._distribution_available()
        return list(self._wins)

    @property
    def no_winner(self) -> float:
        """P(nobody ever wins): every seat's token never finishes. Zero on sane boards."""
        finish = self._chain.finish_probability
        return float(np.prod([1.0 - finish[p] for p in self.positions]))

    def finish_bars(self, rows: int) -> Bars:
        """The finishing turn's histogram from ``start`` in at most ``rows`` bars."""
        never = self.never_finishes
        last = self.percentile_turns(0.99 * (1.0 - never))
        if not isinstance(last, int):
            last = self.horizon
        dist = self.pmf(last)  # the distribution as far as the bars go, no further
        first = next((t for t, p in enumerate(dist) if p > 0), None)
        if first is None:
            return Bars((), 0.0, never)
        step = max(1, math.ceil((last - first + 1) / rows))
        last = first + step * math.ceil((last - first + 1) / step) - 1  # whole bins only
        dist = self.pmf(last)
        bins = range(first, last + 1, step)
        shares = tuple((low, low + step - 1, sum(dist[low : low + step])) for low in bins)
        return Bars(shares, 1.0 - self.finish_within(last) - never, never)

    def _square(self, square: int) -> int:
        if type(square) is not int or not 0 <= square <= self.board.goal:
            raise MoveError(f"square {square!r} is not on the board (0..{self.board.goal})")
        return square


def analyze(
    board: Board,
    players: int = 1,
    positions: Sequence[int] | None = None,
    to_move: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """The exact odds of random play on ``board`` for ``players`` seats in turn order.

    ``positions`` are the seats' squares (default: everyone on the rules' start) and
    ``to_move`` the seat that rolls next. ``progress(text)``, when given, hears what a
    long analysis is doing (then and for the figures read from the result). Raises
    ``AnalysisError`` for a board too large, ``SnlError``/``MoveError`` for bad
    arguments.
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
    chain = chain_of(board)
    chain.listen(progress)
    if chain.distribution_left_out is not None:
        return Analysis(board, players, squares, to_move, chain, ())
    if players == 1:
        # One seat wins whenever it finishes: no distribution needed.
        return Analysis(
            board, players, squares, to_move, chain, (float(chain.finish_probability[squares[0]]),)
        )

    def wins_of(columns: list[Column]) -> tuple[tuple[float, ...], float, bool]:
        cdfs = padded([column.cdf for column in columns])
        error = undecided(columns)
        wins = seat_wins(cdfs, to_move)
        if error > TAIL_TOLERANCE:
            # The rest of the game summed between two geometric series (see TailBounds),
            # when the chain's rates at turn H are known tightly enough.
            bounds = chain.tail_bounds(squares, len(cdfs[0]) - 1)
            if bounds is not None and all(c.horizon == bounds.turns for c in columns):
                tail, spread = geometric_wins(bounds, to_move)
                if spread < error:
                    wins = tuple(w + t for w, t in zip(wins, tail, strict=True))
                    return wins, spread, True
        return wins, error, False

    closing: list[tuple[int, float]] = []  # (turn, spread) of the checks so far

    def settled(columns: list[Column]) -> bool:
        # wins_of's verdict without its sums over every turn (asked after each stretch
        # of turns: the sums are made once, at the end).
        error = undecided(columns)
        if error <= TAIL_TOLERANCE:
            return True
        horizon = max(column.horizon for column in columns)
        bounds = chain.tail_bounds(squares, horizon)
        if bounds is None or not all(c.horizon == bounds.turns for c in columns):
            return False
        _, spread = geometric_wins(bounds, to_move)
        closing.append((horizon, spread))
        return spread < error and spread <= CLOSED_TAIL

    def wait(turn: int) -> int:
        # The spread shrinks geometrically once the tail is in view (it halves every 64
        # turns on a 50 x 50 board): the turns until it reaches CLOSED_TAIL.
        return forecast(closing, turn, CLOSED_TAIL)

    columns = chain.columns(squares, settled, wait=wait)
    wins, error, _ = wins_of(columns)
    if error <= TAIL_TOLERANCE:
        # Less than TAIL_TOLERANCE is undecided; hand that crumb back in proportion so
        # the chances add up to exactly 1 - P(no winner).
        finish = chain.finish_probability
        someone = 1.0 - float(np.prod([1.0 - finish[p] for p in squares]))
        total = sum(wins)
        if total > 0:
            wins = tuple(w * someone / total for w in wins)
    return Analysis(board, players, squares, to_move, chain, wins, error)


def _accuracy(figure: str, error: float, cut: str) -> FigureAccuracy:
    if error <= EXACT:
        return FigureAccuracy(figure, "exact", error)
    return FigureAccuracy(figure, "bounded", error, cut)


def luck(one: Analysis, players: int, turns: int) -> float:
    """How lucky a game was: the share of ``players``-seat games (same board and rules)
    whose winner needed at most ``turns`` turns. 0.08 means only 8% of such games are
    that short (a lucky one); 0.9, that 90% are over sooner (a long one). ``one`` is the
    board's one-player analysis. The one definition: the winner dialog and ``snl stats``
    both use it.

    The seats are independent copies of the one-player chain, and the game ends in the
    round the first seat finishes, so the winner's turn count is the least of the seats'
    (seat order only decides who wins a tied round, not after how many turns):
    P(min > t) = P(one seat > t) ** players.
    """
    longer = 1.0 - one.finish_within(turns)
    return 1.0 - longer**players


def winner_finished_within(board: Board, players: int, turns: int) -> float:
    """``luck`` of a ``players``-seat game on ``board`` won in ``turns`` turns. Raises
    like ``analyze``."""
    return luck(analyze(board, players=1), players, turns)
