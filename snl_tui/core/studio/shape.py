"""The look of a real board (issue 33): ``Shape``, the rules a generated board follows
to look like Snakes & Ladders (counts, lengths, the first and last roll's squares),
said in words for the designer; ``hides``, the straight-line test of a jump drawn over
another's end."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..board import Board
from ..geometry.closeness import END_CLEAR, NEAR
from ..text import plural
from .checks import DRAWN_NEAR
from .targets import Targets

SHAPED_SQUARES = 30
"""Boards of at least this many squares get ``Shape``'s rules (smaller ones have no room)."""
LONGEST_SHARE = 0.65
"""No placed jump spans more than this share of the board (classic's longest: 63 of 100)."""
LONG_SHARE = 1 / 3
"""A jump spanning more than this share of the board is long; at most a third of each
kind are (classic: 2 of 9 ladders, 3 of 10 snakes)."""
GOAL_AREA_SNAKES = 2
"""Snake heads allowed on the squares of the last roll before the goal."""
QUARTER_SHARE = 0.4
"""No quarter of the board holds more than this share of the jump starts."""
LENGTH_SKEW = 1.6
"""Lengths are drawn as longest * u ** skew: many short jumps, a few long ones."""


@dataclass(frozen=True)
class Shape:
    """What makes a generated board look like Snakes & Ladders, as rules a candidate
    either meets or not (kept jumps are the designer's and exempt)."""

    goal: int
    faces: int
    start: int
    ladders: tuple[int, int] | None
    """The band the ladder count stays in (None: fixed by the designer)."""
    snakes: tuple[int, int] | None
    difference: int | None
    """The most the counts may differ (None: a count is fixed)."""
    longest: int
    long_length: int
    usual: int = 0
    """How many of each kind a board this size usually has."""
    long_ladders: int = 3
    """At most one in this many ladders is long (2 for a target of very short games)."""
    long_snakes: int = 3
    """The same for snakes (2 for very long games)."""

    def miss(self, ladders: int, snakes: int) -> int:
        """How far the counts are outside the bands (0: inside)."""
        miss = 0
        for band, count in ((self.ladders, ladders), (self.snakes, snakes)):
            if band is not None:
                miss += max(0, band[0] - count, count - band[1])
        if self.difference is not None:
            miss += max(0, abs(ladders - snakes) - self.difference)
        return miss

    @property
    def first_roll(self) -> range:
        return range(self.start + 1, min(self.goal, self.start + self.faces + 1))

    @property
    def goal_area(self) -> range:
        return range(max(1, self.goal - self.faces), self.goal)

    def describe(self, ladders: int, snakes: int, size: str) -> str:
        """What was chosen and why, in a sentence for the designer."""
        parts = [f"{plural(ladders, 'ladder')} and {plural(snakes, 'snake')}"]
        if self.ladders is not None and self.snakes is not None:
            low, high = self.ladders
            within = f"{low}-{high}"
            if self.snakes != self.ladders:
                within = f"{low}-{high} ladders and {self.snakes[0]}-{self.snakes[1]} snakes"
            parts[0] += (
                f" (a {size} board has about {self.usual} of each, kept within {within}; "
                "classic has 9 and 10)"
            )
        share = {2: "half", 3: "a third"}
        if self.long_ladders == self.long_snakes:
            most = f"at most {share[self.long_ladders]} of each kind"
        else:
            most = (
                f"at most {share[self.long_ladders]} of the ladders and "
                f"{share[self.long_snakes]} of the snakes"
            )
        parts.append(
            f"lengths drawn from 3 to {self.longest} squares, mostly short, {most} "
            f"over {self.long_length}"
        )
        parts.append(
            f"no snake on the first roll's squares ({self.first_roll.start}-"
            f"{self.first_roll.stop - 1}) and at most {GOAL_AREA_SNAKES} on the last roll's"
        )
        parts.append(
            "spread over the board, no square shared, none drawn over another's head or "
            "foot, every jump across a row, no two side by side, crossed as an X or running "
            "along each other"
        )
        return "; ".join(parts)


def shape_for(targets: Targets, longest: int) -> Shape | None:
    goal = targets.goal
    if goal < SHAPED_SQUARES:
        return None
    base = max(1, round(goal / 11))
    band = (max(1, round(base * 0.6)), base + 2)
    difference: int | None = max(2, base // 3)
    if targets.longest_jump is not None:
        # Short jumps by the designer's wish: more of them may be needed.
        band, difference = (band[0], 2 * base), None
    free = targets.jumps is None
    ladder_band = snake_band = band
    # A target far from the bare board's length needs more long jumps of one kind (and,
    # for very short games, more ladders than snakes).
    long_ladders = long_snakes = 3
    if targets.expected_turns is not None:
        from ..odds.markov import expected_turns

        bare = expected_turns(Board(targets.rows, targets.cols, rules=targets.rules))
        if targets.expected_turns < bare / 2:
            long_ladders = 2
        if targets.expected_turns < bare / 2.5:
            ladder_band, difference = (band[0], max(band[1], 2 * base)), None
        if math.isfinite(bare) and targets.expected_turns > bare * 2:
            long_snakes = 2
    ladders = ladder_band if free and targets.ladders is None else None
    snakes = snake_band if free and targets.snakes is None else None
    if ladders is None or snakes is None:
        difference = None
    return Shape(
        goal,
        targets.rules.faces,
        targets.rules.start_position,
        ladders,
        snakes,
        difference,
        longest,
        max(targets.rules.faces, round(goal * LONG_SHARE)),
        base,
        long_ladders,
        long_snakes,
    )


QUICK_MARGIN = 1e-6
"""How far past a bound the quick answers below keep (in squares): far more than the
rounding of the figures they stand for, so they answer as the full tests would."""


def hides(points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether jump ``a`` (start, end) is drawn over an end of ``b``, or ``b`` over ``a``'s."""
    if _apart(points, a, b, DRAWN_NEAR):
        return False  # no end within reach of the other jump's line
    return ends_near(points, a, b)


def ends_near(points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """``hides`` without its quick answer: each end against the other jump's line."""
    for (s1, e1), (s2, e2) in ((a, b), (b, a)):
        (ax, ay), (bx, by) = points[s1], points[e1]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy or 1.0
        for square in (s2, e2):
            px, py = points[square]
            t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
            cx, cy = ax + t * dx - px, ay + t * dy - py
            if cx * cx + cy * cy < DRAWN_NEAR * DRAWN_NEAR:
                return True
    return False


STRAIGHT_CLOSE = 1.5
"""Two jumps whose straight ways (between the usual anchors) run close for more than this
(in squares, ``straight_close``) are not placed together: the drawing would have to bend
one far round the other, and mostly cannot (``geometry.closeness``)."""


def runs_close(points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether ``straight_close(points, a, b)`` is more than ``STRAIGHT_CLOSE``: at once
    no when neither way, half a square off each end, is that long (neither can run
    close for longer than itself) or when the ways are further apart than ``NEAR``."""
    p0, p1, q0, q1 = points[a[0]], points[a[1]], points[b[0]], points[b[1]]
    longest = STRAIGHT_CLOSE + 2 * END_CLEAR - QUICK_MARGIN
    if math.dist(p0, p1) < longest and math.dist(q0, q1) < longest:
        return False
    if _apart(points, a, b, NEAR):
        return False
    return straight_close(points, a, b) > STRAIGHT_CLOSE


def _apart(
    points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int], reach: float
) -> bool:
    """Whether the boxes round the straight ways of ``a`` and ``b`` are more than
    ``reach`` apart (no point of one is within ``reach`` of the other)."""
    (ax0, ay0), (ax1, ay1) = points[a[0]], points[a[1]]
    (bx0, by0), (bx1, by1) = points[b[0]], points[b[1]]
    gap = reach + QUICK_MARGIN
    return (
        min(ax0, ax1) > max(bx0, bx1) + gap
        or min(bx0, bx1) > max(ax0, ax1) + gap
        or min(ay0, ay1) > max(by0, by1) + gap
        or min(by0, by1) > max(ay0, ay1) + gap
    )


def straight_close(
    points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]
) -> float:
    """How far the straight ways of jumps ``a`` and ``b`` ((start, end) each; ``points``:
    each square's usual anchor) run within ``closeness.NEAR`` of each other, half a square
    round each end left out (as ``closeness`` measures a drawing), the longer way round."""
    p0, p1, q0, q1 = points[a[0]], points[a[1]], points[b[0]], points[b[1]]
    return max(_near_length(p0, p1, q0, q1), _near_length(q0, q1, p0, p1))


def _trim(
    p0: tuple[float, float], p1: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    length = math.dist(p0, p1)
    if length <= 2 * END_CLEAR:
        return None
    k = END_CLEAR / length
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    return (p0[0] + dx * k, p0[1] + dy * k), (p1[0] - dx * k, p1[1] - dy * k)


def _near_length(
    p0: tuple[float, float],
    p1: tuple[float, float],
    q0: tuple[float, float],
    q1: tuple[float, float],
) -> float:
    """The length of segment p0-p1 (its ends trimmed) within ``NEAR`` of q0-q1 (trimmed):
    the segment's part inside the capsule round the other, one interval (it is convex)."""
    p, q = _trim(p0, p1), _trim(q0, q1)
    if p is None or q is None:
        return 0.0
    (x0, y0), (x1, y1) = p
    (a0, b0), (a1, b1) = q
    length = math.dist(q[0], q[1])
    if length < 1e-9:
        return 0.0
    ux, uy = (a1 - a0) / length, (b1 - b0) / length
    # p in q's frame: along (u) and across (v), as functions of t in [0, 1].
    u0 = (x0 - a0) * ux + (y0 - b0) * uy
    v0 = -(x0 - a0) * uy + (y0 - b0) * ux
    du = (x1 - x0) * ux + (y1 - y0) * uy
    dv = -(x1 - x0) * uy + (y1 - y0) * ux
    pieces = [_slab(u0, du, 0.0, length, _slab(v0, dv, -NEAR, NEAR, (0.0, 1.0)))]
    for cu in (0.0, length):  # the discs round q's ends
        pieces.append(_disc(u0 - cu, du, v0, dv))
    found = [piece for piece in pieces if piece is not None]
    if not found:
        return 0.0
    low = max(0.0, min(piece[0] for piece in found))
    high = min(1.0, max(piece[1] for piece in found))
    return max(0.0, high - low) * math.dist(p[0], p[1])


def _slab(
    start: float, step: float, low: float, high: float, within: tuple[float, float] | None
) -> tuple[float, float] | None:
    """The t in ``within`` where low < start + t * step < high."""
    if within is None:
        return None
    t0, t1 = within
    if abs(step) < 1e-12:
        return within if low < start < high else None
    a, b = (low - start) / step, (high - start) / step
    a, b = min(a, b), max(a, b)
    t0, t1 = max(t0, a), min(t1, b)
    return (t0, t1) if t0 < t1 else None


def _disc(u: float, du: float, v: float, dv: float) -> tuple[float, float] | None:
    """The t where (u + t du)^2 + (v + t dv)^2 < NEAR^2."""
    a = du * du + dv * dv
    b = 2 * (u * du + v * dv)
    c = u * u + v * v - NEAR * NEAR
    if a < 1e-12:
        return (0.0, 1.0) if c < 0 else None
    disc = b * b - 4 * a * c
    if disc <= 0:
        return None
    root = math.sqrt(disc)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)
