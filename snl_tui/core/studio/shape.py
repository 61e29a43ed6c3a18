"""The look of a real board (issue 33): ``Shape``, the rules a generated board follows
to look like Snakes & Ladders (counts, lengths, the first and last roll's squares),
said in words for the designer; ``hides``, the straight-line test of a jump drawn over
another's end."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..board import Board
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
            "foot, every jump across a row, no two side by side or crossed as an X"
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


def hides(points: list[tuple[float, float]], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether jump ``a`` (start, end) is drawn over an end of ``b``, or ``b`` over ``a``'s."""
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
