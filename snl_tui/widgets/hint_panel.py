"""The hint panel: what the solver and the analysis say about the player to move.

From the current square: the least rolls left, every die value that stays optimal, one
optimal route (die values and squares) or "goal unreachable"; then the odds of random
play (expected turns left, chance to finish within 5 and 10 turns, each seat's chance of
winning) and a sparkline of the finishing-turn distribution. A player on the goal has no
odds left to show, and a square random play never finishes from has no chart. Everything
comes from ``core.solver`` and ``core.odds``, and the wording of shares and places from
``core.text``; this widget only lays it out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ..core.board import Board
from ..core.engine import Player
from ..core.odds import CERTAIN, Odds
from ..core.solver import least_rolls_from, optimal_dice, optimal_route
from ..core.text import percent as format_percent
from ..core.text import place


def percent(value: float | None) -> str:
    """Every percentage in the panel: whole percents, '<1%' and '>99%' for the values
    that would round to 0% or 100% without being (within ``CERTAIN``) exactly that."""
    return format_percent(value, digits=0, certain=CERTAIN)


def turns(value: float | None) -> str:
    """Expected turns: one decimal; "infinite" when some games never finish."""
    if value is None:
        return "n/a"
    if math.isnan(value):
        return "too many to compute"
    if math.isinf(value):
        return "infinite"
    return f"{value:.1f}"


ROUTE_SHOWN = 12
"""Moves of the route the hint spells out; a longer route ends with '... N more'."""


def route_text(board: Board, square: int) -> str:
    """'4→14, 6→20, ...' (roll 4, end on 14; the panel's label says so) for one optimal
    route from ``square``."""
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
    where = place(square).replace("square ", "on ")
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
    text.append("\nRoute (roll→square): ")
    text.append(route_text(board, square))
    return text


class HintPanel(Vertical):
    """Solver hints and the odds for the player to move; ``h`` shows or hides it."""

    compact = False
    """No chart: the screen sets this when the terminal is short, so the text fits."""

    def compose(self) -> ComposeResult:
        # Textual's Sparkline (and the statistics module it uses) loads with the panel,
        # after the game's first frame, not with the game screen.
        from textual.widgets import Sparkline

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
        from textual.widgets import Sparkline

        square = positions[to_move]
        text = hint_lines(board, players[to_move], square)
        _show_text(self.query_one("#hint-text", Static), text)
        odds_view = self.query_one("#hint-odds", Static)
        chart = self.query_one("#hint-chart", Sparkline)
        label = self.query_one("#hint-chart-label", Static)
        odds_text = Text()
        chart_shown = False
        if square >= board.goal or (odds is not None and odds.finished):
            pass  # "At the goal." (the solver part) says it all
        elif odds is None or odds.expected_turns is None:
            odds_text.append("Odds: unavailable")
            if odds is not None and odds.why_unavailable:
                odds_text.append(f" ({odds.why_unavailable})")
        else:
            self._odds_lines(odds_text, odds, players)
            distribution = odds.distribution
            chart_shown = not odds.never and any(p > 0 for p in distribution)
            if chart_shown:
                chart.data = distribution
                peak = max(range(len(distribution)), key=distribution.__getitem__) + 1
                label_text = f"Finishing turn, 1-{len(distribution)}, most likely turn {peak}"
                _show_text(label, label_text)
        if not chart_shown:
            chart.data = []
            _show_text(label, "")
        chart.display = label.display = chart_shown and not self.compact
        _show_text(odds_view, odds_text)
        odds_view.display = bool(odds_text)

    @staticmethod
    def _odds_lines(text: Text, odds: Odds, players: Sequence[Player]) -> None:
        """Expected turns, the chance to finish soon and the seats' chances (short lines:
        the panel is 42 columns inside its border, 28 in a narrow terminal)."""
        text.append("Expected turns left: ")
        if odds.never:
            text.append("never", style="bold")
            text.append("\nRandom play never reaches the goal.")
        else:
            text.append(turns(odds.expected_turns), style="bold")
            if odds.never_finishes is not None and odds.never_finishes > CERTAIN:
                text.append("\nNever finishes: ")
                text.append(percent(odds.never_finishes), style="bold")
            if odds.within_5 is None or odds.within_10 is None:
                # The board is past the distribution's limit: only the expectation.
                text.append(f"\n({odds.why_unavailable or 'no chances'})")
            else:
                text.append("\nFinish in 5 / 10 turns: ")
                text.append(percent(odds.within_5), style="bold")
                text.append(" / ")
                text.append(percent(odds.within_10), style="bold")
        if len(odds.win_chances) > 1:
            text.append("\nWin chances: ")
            for seat, chance in enumerate(odds.win_chances):
                if seat:
                    text.append(", ")
                name = players[seat].name if seat < len(players) else f"seat {seat + 1}"
                text.append(f"{name} ")
                text.append(percent(chance), style="bold")


def _show_text(view: Static, content: str | Text) -> None:
    """Show ``content`` in ``view`` unless it shows it already: what did not change after
    a move is neither laid out nor painted again, and new text as tall as the old (the
    usual case after a move) is painted without a layout of the screen (a layout makes
    every scroll view repaint its scrollbars: on everest, the board's whole height)."""
    old = view.content
    same = (
        old.plain == content.plain and old.spans == content.spans
        if isinstance(old, Text) and isinstance(content, Text)
        else old == content
    )
    if same:
        return
    width, height = view.content_region.size
    view.update(content, layout=False)
    if not width or view.get_content_height(view.size, view.size, width) != height:
        view.refresh(layout=True)
