"""The distribution of the finishing turn, turn by turn: ``Stretch`` runs the turn
operator over the unresolved (and doomed) mass and keeps the rows asked for; ``Column`` is
what one position's distribution reads; ``TailBounds`` bounds every later turn
geometrically; ``forecast`` and ``paced`` set the pace of the work. (``distribution``
decides which positions and how far; ``turn_step`` applies one turn.)"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .turn_step import TurnOperator

TAIL_TOLERANCE = 1e-12
"""The turn table stops once no position has more unresolved probability than this."""


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


class EverySlot:
    """``slot`` of a stretch that records every kept position (the identity)."""

    @staticmethod
    def slot(kept: int) -> int:
        return kept


EVERY_SLOT = EverySlot()

EXTENSION_ERROR = 1e-11
"""Largest error allowed on any entry of a tail written in closed form (``_extended``):
a hundredth of what "exact" means for the figures read from it (1e-9)."""

Done = Callable[[list[Column]], bool]
"""When a computation of columns may stop (see ``Chain.columns``)."""


def all_resolved(columns: list[Column]) -> bool:
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


def paced(turns: int, wait: Wait | None, sooner: int = 0) -> int:
    """The next stretch: ``wait``'s forecast where it has one (at least 16 turns, at
    most half the turns run so far more: a forecast from few checks may be far off),
    else ``stretch_length``; no further than ``sooner`` turns (a forecast of the tail
    extension, which ends the work too) when that is positive."""
    predicted = wait(turns) if wait is not None else 0
    length = min(predicted, max(turns // 2, 64)) if predicted > 0 else stretch_length(turns)
    if sooner > 0:
        length = min(length, sooner)
    return max(16, length)


def stretch_length(turns: int) -> int:
    """Turns to run before the next check: an eighth more each time. A check costs a
    pass over the columns read so far; between checks the turns run past the one that
    would have done (a quarter more each time ran ~800 turns past it on a 50 x 50 board,
    about 20% of the work; an eighth costs a few more checks and saves most of that)."""
    return max(64, turns // 8)


class Stretch:
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
        operator: TurnOperator,
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
