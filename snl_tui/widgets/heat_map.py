"""The heat map's figures (the editor's ``v``: the expected visits of each square in
four shades) and the line under the editor's board that says what the cursor square
holds, its visits and shade included."""

from __future__ import annotations

import math

from textual.widgets import Static

from ..core.board import Board
from .edit_board import HEAT_SHADES


def heat_shades(visits: list[float], goal: int) -> dict[int, int]:
    """Square -> shade 1..HEAT_SHADES by the rank of its expected visits among the
    squares a turn can begin on (quarters, when there are four shades).

    By rank, not by the share of the most visited square: one square before an exact
    finish is often visited far more than any other, and would leave every other square
    in the palest shade. Squares no turn begins on (jump starts, unreachable ones) stay
    unshaded; equal figures get equal shades.
    """
    values = visits[1 : goal + 1]
    visited = sorted({v for v in values if v > 0 and math.isfinite(v)})
    if not visited:
        return {}
    rank = {value: index for index, value in enumerate(visited)}
    return {
        square: 1 + HEAT_SHADES * rank[value] // len(visited)
        for square, value in enumerate(values, start=1)
        if value in rank
    }


def heat_ranges(visits: list[float], goal: int) -> dict[int, tuple[float, float]]:
    """Shade -> (least, most) expected visits of the squares in it: the heat map's scale."""
    shades = heat_shades(visits, goal)
    ranges: dict[int, tuple[float, float]] = {}
    for square, shade in shades.items():
        value = visits[square]
        low, high = ranges.get(shade, (value, value))
        ranges[shade] = (min(low, value), max(high, value))
    return dict(sorted(ranges.items()))


def heat_scale(visits: list[float], goal: int) -> str:
    """'0.05-0.31 · 0.31-0.48 · ...': each shade's expected visits, palest first."""
    return " · ".join(f"{low:.2f}-{high:.2f}" for low, high in heat_ranges(visits, goal).values())


class CursorLine(Static):
    """What the cursor square holds: the jumps that start and end there, the goal, and
    with the heat map on its expected visits and shade."""

    def show(self, board: Board, square: int, visits: list[float] | None, heat_on: bool) -> None:
        parts = [f"Square {square}"]
        jump = board.jump_at(square)
        if jump is not None:
            parts.append(f"start of the {jump.kind} {jump.start} -> {jump.end}")
        ends = [j for j in (*board.ladders, *board.snakes) if j.end == square]
        parts += [f"end of the {j.kind} {j.start} -> {j.end}" for j in ends]
        if square == board.goal:
            parts.append("the goal")
        if heat_on:
            if visits is None:
                parts.append("expected visits: computing...")
            else:
                value = visits[square]
                shade = heat_shades(visits, board.goal).get(square)
                ranges = heat_ranges(visits, board.goal)
                where = (
                    f", shade {shade} of {len(ranges)} ({ranges[shade][0]:.2f}-"
                    f"{ranges[shade][1]:.2f})"
                    if shade is not None
                    else ", unshaded (no turn begins here)"
                )
                parts.append(f"{value:.2f} expected visits{where}")
        self.update(" · ".join(parts))


__all__ = ["CursorLine", "heat_ranges", "heat_scale", "heat_shades"]
