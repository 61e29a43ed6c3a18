"""The distribution of the finishing turn of one board's chain: the turn table over the
kept positions (``table``), each position's column read off it or followed on past its
memory cap (``columns``), tails written in closed form where the geometric bounds pin
them (``_extended``). ``markov.Chain.distribution`` builds one per board."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property

import numpy as np

from . import tuning
from .model import AnalysisError, TurnTable
from .stretch import (
    EVERY_SLOT,
    EXTENSION_ERROR,
    TAIL_TOLERANCE,
    Column,
    Done,
    EverySlot,
    Stretch,
    TailBounds,
    Wait,
    all_resolved,
    forecast,
    paced,
    tail_gap_peak,
)
from .turn_step import TurnOperator, Window


class Distribution:
    """P(finished within t turns) from the positions of one chain, computed as far as
    asked and kept (the chain's ``table``, ``column``, ``columns``, ``tail_bounds``)."""

    def __init__(
        self,
        turns: TurnTable,
        doomed: np.ndarray,
        left_out: str | None,
        say: Callable[[str, float], None],
    ) -> None:
        self.turns, self.doomed = turns, doomed
        self.dest, self.goal, self.faces = turns.dest, turns.goal, turns.width
        self.size = self.goal + 1
        self.rolls_again = turns.rolls_again
        self.distribution_left_out = left_out
        """Why there is no distribution (``Chain.distribution_left_out``), or None."""
        self._say_to = say
        self._follows: list[Stretch] = []
        self._trends: dict[tuple[int, ...], list[tuple[int, float]]] = {}
        self._final: dict[int, Column] = {}
        """Columns that are complete (resolved to ``TAIL_TOLERANCE``): never recomputed."""
        self._reads: dict[int, tuple[tuple[int, int, int], Column]] = {}

    def _say(self, text: str, every: float = 0.0) -> None:
        self._say_to(text, every)

    @cached_property
    def kept(self) -> np.ndarray:
        """The positions the turn table holds; every other position follows from them in
        one more roll (``column``). Usually the positions a roll can end on (the bottom
        of a jump never is one, nor the off-board start; on classic that is 82 of 101
        positions); on a board whose turn is a ``Window`` every position, since the
        window's sums run over the squares in order (a few more rows, no gathers)."""
        if self._window is not None:
            return np.arange(self.size)
        return self._landings

    @cached_property
    def _landings(self) -> np.ndarray:
        return np.flatnonzero(np.bincount(self.dest.ravel(), minlength=self.size))

    @cached_property
    def _window(self) -> Window | None:
        """The turn as sliding sums over the squares (``Window``), where the roll table
        has that shape and the table is too large for a dense matrix; else None."""
        landings = len(self._landings)
        if self.turns.whole_turns or self.rolls_again or landings <= tuning.DENSE_TURN_LIMIT:
            return None
        if landings < tuning.WINDOW_SHARE * self.size:
            return None  # many jumps: the gathers over the landing squares cost less
        return Window.of(self.dest, self.faces)

    @cached_property
    def kept_index(self) -> np.ndarray:
        index = np.full(self.size, -1, dtype=np.intp)
        index[self.kept] = np.arange(len(self.kept))
        return index

    @cached_property
    def _turn_operator(self) -> TurnOperator:
        kept = self.kept_index
        return TurnOperator(
            kept[self.dest[self.kept]],
            kept[self.goal],
            self.faces,
            self.turns.continues_turn(self.kept),
            window=self._window,
        )

    @cached_property
    def table(self) -> Stretch:
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
        return Stretch(self._turn_operator, unresolved, doomed, None, cap - 1)

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
        next stretch runs that far instead of the usual eighth (``paced``).
        """
        final = self._final
        if all(p in final for p in positions):  # complete columns: a lookup
            return [final[p] for p in positions]
        finished = done if done is not None else all_resolved
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
            table.advance(paced(table.t, wait, sooner))
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
            follow.advance(paced(turn, wait, sooner))
            self._say(f"finishing-turn distribution: {turn:,} turns so far", tuning.PROGRESS_EVERY)
            columns = self._read(table, follow, positions)
        return columns

    def _extended(
        self, positions: Sequence[int], columns: list[Column], follow: Stretch | None
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
            column = self._derive(position, cdfs, EVERY_SLOT, left, before)
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

    def _follow(self, positions: Sequence[int]) -> Stretch:
        """A stretch past the table recording the kept positions ``positions`` need: an
        existing one if it records them all, else a new one from the table's last turn
        (the last ``tuning.FOLLOWS_KEPT`` are kept)."""
        needed = sorted({k for p in positions for k in self._needed(p)})
        for follow in reversed(self._follows):
            if follow.where is not None and (follow.where[needed] >= 0).all():
                return follow
        table = self.table
        budget = max(64, tuning.COLUMN_WORK // len(self.kept))
        follow = Stretch(
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
        self, table: Stretch, follow: Stretch | None, positions: Sequence[int]
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
        last: Stretch | EverySlot,
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
