"""Each seat's chance of winning from the seats' finishing-turn columns (seats
independent, in turn order), the mass still undecided, and the geometric sums past the
last turn read (``TailBounds``): what ``analysis.analyze`` combines."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .stretch import Column, TailBounds


def undecided(columns: Sequence[Column]) -> float:
    """P(the game is still undecided after the columns' last turn H): no seat has
    finished and not every seat is doomed (seats independent), prod S_i - prod D_i with
    S_i = P(not finished within H) and D_i = S_i - (unresolved mass) its doomed part. The
    win sums up to H leave out at most that much."""
    unfinished = [max(1.0 - float(column.cdf[-1]), 0.0) for column in columns]
    doomed = [max(u - c.unresolved, 0.0) for u, c in zip(unfinished, columns, strict=True)]
    return max(math.prod(unfinished) - math.prod(doomed), 0.0)


def padded(columns: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Columns of one length: a shorter one (resolved earlier) keeps its last value."""
    length = max(len(column) for column in columns)
    return [
        column
        if len(column) == length
        else np.concatenate((column, np.full(length - len(column), column[-1])))
        for column in columns
    ]


def geometric_tail(survival: np.ndarray) -> float:
    """sum_{t > H} survival(t) when it decays geometrically past the table's end H."""
    last = float(survival[-1])
    if last <= 0.0:
        return 0.0
    lag = min(32, len(survival) - 1)
    earlier = float(survival[-1 - lag]) if lag else 0.0
    rate = (last / earlier) ** (1.0 / lag) if earlier > 0 else 0.0
    rate = min(max(rate, 0.0), 1.0 - 1e-9)
    return last * rate / (1.0 - rate)


def geometric_wins(bounds: TailBounds, to_move: int) -> tuple[tuple[float, ...], float]:
    """Each seat's chance of winning after the last turn H read, and a bound on the error.

    The seat r-th in order from ``to_move`` wins at turn H + k (k >= 1) when it finishes
    exactly then (F_r(H + k)), the r seats before it are not finished within H + k turns
    and the rest not within H + k - 1. With F_r(H + k) = f_r s^(k-1) and U_j(H + k) =
    u_j p^k for rates between their bounds (``TailBounds``), the sum over k is
    f_r prod_(j != r) u_j p^r / (1 - s p^(P-1)), increasing in both rates: the
    lower rates give a lower bound and the upper ones an upper bound. The midpoints are
    returned, and the sum of the seats' half-spreads as the error.
    """
    count = len(bounds.unresolved)
    order = [(to_move + r) % count for r in range(count)]
    tails = [0.0] * count
    spread = 0.0
    for r, seat in enumerate(order):
        others = [j for j in range(count) if j != seat]
        low = float(bounds.finishing_low[seat]) * math.prod(
            float(bounds.unresolved_low[j]) for j in others
        )
        low *= bounds.rho_lo**r / (1.0 - bounds.sigma_lo * bounds.rho_lo ** (count - 1))
        high = float(bounds.finishing_high[seat]) * math.prod(
            float(bounds.unresolved[j]) for j in others
        )
        high *= bounds.rho_hi**r / (1.0 - bounds.sigma_hi * bounds.rho_hi ** (count - 1))
        tails[seat] = (low + high) / 2
        spread += (high - low) / 2
    return tuple(tails), spread


def seat_wins(columns: Sequence[np.ndarray], to_move: int) -> tuple[float, ...]:
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
