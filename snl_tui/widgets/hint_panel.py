"""The hint panel: what the solver and the analysis say about the player to move.

From the current square: the least rolls left, every die value that stays optimal, one
optimal route (die values and squares) or "goal unreachable"; then the odds of random
play (expected turns left, chance to finish within 5 and 10 turns, each seat's chance of
winning) and a sparkline of the finishing-turn distribution. Everything comes from
``core.solver`` and ``core.analysis``; this widget only formats it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Sparkline, Static

from ..core.board import Board
from ..core.engine import Player
from ..core.errors import SnlError
from ..core.solver import least_rolls_from, optimal_dice, optimal_route

CHART_MIN_TURNS, CHART_MAX_TURNS = 30, 1000
"""The sparkline covers turns 1..(99th percentile), clamped to this range."""


@dataclass
class Odds:
    """The analysis figures the panel shows (None when the analysis is unavailable)."""

    expected_turns: float | None = None
    within_5: float | None = None
    within_10: float | None = None
    win_chances: list[float] = field(default_factory=list)
    distribution: list[float] = field(default_factory=list)


def compute_odds(
    board: Board, positions: Sequence[int], to_move: int, *, players: int | None = None
) -> Odds:
    """Ask ``core.analysis`` for the odds from the current position (cached per board)."""
    try:
        from ..core.analysis import analyze
    except ImportError:  # the analysis module is optional for the game to run
        return Odds()
    seats = players if players is not None else len(positions)
    try:
        analysis = analyze(board, players=seats, positions=list(positions), to_move=to_move)
    except SnlError:  # e.g. a board too large for the exact analysis
        return Odds()
    square = positions[to_move]
    tail = analysis.percentile_turns(0.99)
    horizon = CHART_MAX_TURNS if math.isinf(tail) else int(tail)
    horizon = min(max(horizon, CHART_MIN_TURNS), CHART_MAX_TURNS)
    return Odds(
        expected_turns=analysis.expected_turns_from(square),
        within_5=analysis.finish_within_from(square, 5),
        within_10=analysis.finish_within_from(square, 10),
        win_chances=list(analysis.win_chances),
        # pmf is indexed by turn from the player's square; turn 0 is always 0 here.
        distribution=[float(p) for p in analysis.pmf(horizon)[1:]],
    )


def percent(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 0.9995 or value <= 0.0005:
        return f"{value:.0%}"
    if value < 0.01 or value > 0.99:
        return f"{value:.1%}"
    return f"{value:.0%}"


def turns(value: float | None) -> str:
    if value is None:
        return "n/a"
    if math.isinf(value):
        return "never (the goal may be out of reach)"
    return f"{value:.1f}"


ROUTE_SHOWN = 12
"""Moves of the route the hint spells out; a longer route ends with '... N more'."""


def route_text(board: Board, square: int) -> str:
    """'4 → 14, 6 → 20, ...' for one optimal route from ``square``."""
    solution = optimal_route(board, square, limit=ROUTE_SHOWN)
    text = ", ".join(
        f"{die}→{end}" for die, end in zip(solution.rolls, solution.squares, strict=True)
    )
    hidden = solution.moves - len(solution.rolls)
    if hidden > 0:
        text += f", … {hidden} more"
    return text


def hint_lines(board: Board, player: Player, square: int) -> Text:
    """The solver part of the hint (no analysis)."""
    text = Text(no_wrap=False)
    where = "off the board" if square <= 0 else f"on {square}"
    text.append(f"{player.name} {where}\n", style="bold")
    if square >= board.goal:
        text.append("At the goal.")
        return text
    least = least_rolls_from(board, square)
    if least < 0:
        text.append("Goal unreachable from here.", style="bold")
        return text
    text.append("Least rolls left: ")
    text.append(str(least), style="bold")
    text.append("\nOptimal dice: ")
    text.append(", ".join(map(str, optimal_dice(board, square))), style="bold")
    text.append("\nRoute: ")
    text.append(route_text(board, square))
    return text


class HintPanel(Vertical):
    """Solver hints and the odds for the player to move; ``h`` shows or hides it."""

    def compose(self) -> ComposeResult:
        yield Static(id="hint-text", markup=False)
        yield Static(id="hint-odds", markup=False)
        yield Sparkline([], id="hint-chart")
        yield Static(id="hint-chart-label", markup=False)

    def show_hint(
        self,
        board: Board,
        players: Sequence[Player],
        positions: Sequence[int],
        to_move: int,
        *,
        odds: Odds | None,
    ) -> None:
        """Refresh every line for the player to move (``to_move``)."""
        square = positions[to_move]
        self.query_one("#hint-text", Static).update(hint_lines(board, players[to_move], square))
        odds_text = Text()
        chart = self.query_one("#hint-chart", Sparkline)
        label = self.query_one("#hint-chart-label", Static)
        if odds is None or odds.expected_turns is None:
            odds_text.append("Odds: unavailable")
            chart.data = []
            label.update("")
        else:
            odds_text.append("Expected turns left: ")
            odds_text.append(turns(odds.expected_turns), style="bold")
            # One short line: the panel is narrow (42 columns inside its border).
            odds_text.append("\nFinish in 5 / 10 turns: ")
            odds_text.append(percent(odds.within_5), style="bold")
            odds_text.append(" / ")
            odds_text.append(percent(odds.within_10), style="bold")
            if len(odds.win_chances) > 1:
                odds_text.append("\nWin chances: ")
                for seat, chance in enumerate(odds.win_chances):
                    if seat:
                        odds_text.append(", ")
                    name = players[seat].name if seat < len(players) else f"seat {seat + 1}"
                    odds_text.append(f"{name} ")
                    odds_text.append(percent(chance), style="bold")
            chart.data = odds.distribution
            peak = (
                max(range(len(odds.distribution)), key=odds.distribution.__getitem__) + 1
                if odds.distribution and max(odds.distribution) > 0
                else None
            )
            peak_text = f", most likely turn {peak}" if peak else ""
            label.update(f"Finishing turn, 1-{len(odds.distribution)}{peak_text}")
        self.query_one("#hint-odds", Static).update(odds_text)
