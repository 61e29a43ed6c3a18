"""How far two drawn jumps run close (issue 45): a snake along or inside a ladder's rails,
or two jumps side by side, cannot be followed by eye.

The measure, for two drawn jumps: the longest stretch of one's centre line (``JumpPath.
centre``, in squares along it) that stays within ``NEAR`` of the other's, leaving out
what lies within ``END_CLEAR`` of either jump's ends (jumps meeting on a square touch
there by design), taken both ways round, the longer. ``NEAR`` is a ladder's half width
and a snake's wave added, and a little: closer than that, a snake's body touches the
rails. Two jumps crossing at a right angle run close for 2 x ``NEAR`` (0.7 squares);
at 45 degrees, 1.0; running along each other, as long as they do. ``CLOSE_LIMIT``
(about a square) is the most a drawing should have. The routing keeps to it where it
can without hiding anything (``scoring``: a cost for running close to the jumps laid,
half that for the straight ways of those not laid yet).

Numbers side by side (``numbers_too_close``): two squares' numbers in one row closer
than ``NUMBER_GAP``, read as one pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..board import Board, Jump
from .shapes import (
    LADDER_HALF_WIDTH,
    NUMBER_GAP,
    SNAKE_AMPLITUDE,
    Box,
    JumpPath,
    Point,
    Polyline,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

NEAR = LADDER_HALF_WIDTH + SNAKE_AMPLITUDE + 0.04
"""Centre lines closer than this (0.35 squares) run close."""
END_CLEAR = 0.5
"""What lies within this of a jump's ends (its anchors) does not count."""
CLOSE_LIMIT = 1.0
"""The longest two drawn jumps should run close (in squares)."""
STEP = 0.05
"""How far apart the measured points are (in squares)."""


@dataclass(frozen=True)
class CloseRun:
    """Two drawn jumps that run close for ``length`` squares."""

    first: Jump
    second: Jump
    length: float

    def describe(self) -> str:
        return (
            f"the {self.first.kind} {self.first.start} -> {self.first.end} and the "
            f"{self.second.kind} {self.second.start} -> {self.second.end} run close for "
            f"{self.length:.1f} squares"
        )


def close_runs(paths: Sequence[JumpPath]) -> list[CloseRun]:
    """Every pair of ``paths`` that runs close at all, the longest first."""
    import numpy as np

    dense = [_dense(np, path.centre) for path in paths]
    ends = [(path.start, path.end) for path in paths]
    boxes = [
        (xs.min() - NEAR, xs.max() + NEAR, ys.min() - NEAR, ys.max() + NEAR) if len(xs) else None
        for xs, ys in dense
    ]
    found = []
    for i, j in combinations(range(len(paths)), 2):
        a, b = boxes[i], boxes[j]
        if a is None or b is None or a[0] > b[1] or b[0] > a[1] or a[2] > b[3] or b[2] > a[3]:
            continue
        clear = [*ends[i], *ends[j]]
        length = max(
            _longest_near(np, dense[i], paths[j].centre, clear),
            _longest_near(np, dense[j], paths[i].centre, clear),
        )
        if length > 0:
            found.append(CloseRun(paths[i].jump, paths[j].jump, round(length, 3)))
    found.sort(key=lambda run: -run.length)
    return found


def longest_close_run(paths: Sequence[JumpPath]) -> float:
    """The most any two of ``paths`` run close (0 when none does)."""
    runs = close_runs(paths)
    return runs[0].length if runs else 0.0


def _dense(np: Any, line: Polyline) -> tuple[Any, Any]:
    """Points along ``line`` about ``STEP`` apart (xs, ys)."""
    if len(line) < 2:
        return np.zeros(0), np.zeros(0)
    points = np.array(line, dtype=float)
    seg = np.hypot(*np.diff(points, axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(seg)])
    count = max(2, math.ceil(along[-1] / STEP) + 1)
    at = np.linspace(0.0, along[-1], count)
    return np.interp(at, along, points[:, 0]), np.interp(at, along, points[:, 1])


def _longest_near(np: Any, dense: tuple[Any, Any], other: Polyline, clear: list[Point]) -> float:
    """The longest stretch of the points ``dense`` (``STEP`` apart) within ``NEAR`` of the
    polyline ``other``, the points within ``END_CLEAR`` of ``clear`` left out."""
    xs, ys = dense
    if len(xs) < 2 or len(other) < 2:
        return 0.0
    segs = np.array(other, dtype=float)
    ax, ay = segs[:-1, 0], segs[:-1, 1]
    dx, dy = segs[1:, 0] - ax, segs[1:, 1] - ay
    length = dx * dx + dy * dy
    length[length == 0] = 1.0
    px, py = xs[:, None], ys[:, None]
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / length, 0.0, 1.0)
    gap = np.hypot(ax + t * dx - px, ay + t * dy - py).min(axis=1)
    near = gap < NEAR
    for cx, cy in clear:
        near &= np.hypot(xs - cx, ys - cy) >= END_CLEAR
    return _longest_true_run(np, near) * _step(xs, ys)


def _step(xs: Any, ys: Any) -> float:
    return float(math.hypot(xs[1] - xs[0], ys[1] - ys[0]))


def _longest_true_run(np: Any, mask: Any) -> float:
    """The most steps between consecutive points both in ``mask`` in one run."""
    both = mask[1:] & mask[:-1]
    if not both.any():
        return 0.0
    counts = np.cumsum(both)
    base = np.maximum.accumulate(np.where(~both, counts, 0))
    return float((counts - base).max())


def numbers_too_close(board: Board, boxes: dict[int, Box]) -> list[tuple[int, int]]:
    """(square, square) of the numbers side by side in one row whose boxes (``boxes``:
    ``number_boxes``) are less than ``NUMBER_GAP`` apart: "23 24" read as one pair."""
    found = []
    for square in range(1, board.goal + 1):
        row, col = board.position_of(square)
        if col + 1 >= board.cols:
            continue
        other = board.square_at(row, col + 1)
        left, right = boxes[square], boxes[other]
        beside = min(left[3], right[3]) > max(left[1], right[1])
        if beside and right[0] - left[2] < NUMBER_GAP - 1e-9:
            found.append((min(square, other), max(square, other)))
    return found
