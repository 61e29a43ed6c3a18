"""The hint panel: what the solver and the analysis say about the player to move.

From the current square: the least rolls left, every die value that stays optimal, one
optimal route (die values and squares) or "goal unreachable"; then the odds of random
play (expected turns left, chance to finish within 5 and 10 turns, each seat's chance of
winning) and a chart of the finishing-turn distribution (``OddsChart``: the bars of a
sparkline). A player on the goal has no odds left to show, and a square random play never
finishes from has no chart. Everything comes from ``core.solver`` and ``core.odds``, and
the wording of shares and places from ``core.text``; this widget only lays it out, in two
widgets: the text (one ``Static``) and the chart with its label.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from ..core.board import Board
from ..core.engine import Player, move
from ..core.odds.standing import CERTAIN, Odds, compute_odds, odds_at_hand
from ..core.session import GameSession
from ..core.solver import least_rolls_from, optimal_dice, optimal_route
from ..core.text import percent as format_percent
from ..core.text import place
from .dice import COMPUTING


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


def reach_text(board: Board, square: int) -> str:
    """What the next roll can do from ``square`` in a game of chance (classic mode):
    the jumps within one roll, as 'ladder 1 (to 38), snake 6 (to 11)'; the player does
    not choose the die, so "optimal dice" would mean nothing there."""
    parts = []
    for die in range(1, board.rules.faces + 1):
        step = move(board, square, die)
        if step.forfeited or not step.jumps:
            continue
        kind = "ladder" if step.end > step.landed else "snake"
        parts.append(f"{kind} {die} (to {step.end})")
    if not parts:
        return "no snake or ladder within one roll"
    return ", ".join(parts)


def hint_lines(board: Board, player: Player, square: int, mode: str = "puzzle") -> Text:
    """The solver part of the hint (no analysis). In ``classic`` mode the dice are
    random: the next roll's snakes and ladders instead of the optimal dice."""
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
    if mode == "classic":
        text.append("\nNext roll: ")
        text.append(reach_text(board, square), style="bold")
        text.append("\nBest route (roll→square): ")
    else:
        text.append("\nOptimal dice: ")
        text.append(", ".join(map(str, optimal_dice(board, square))), style="bold")
        text.append("\nRoute (roll→square): ")
    text.append(route_text(board, square))
    return text


BARS = "▁▂▃▄▅▆▇█"
BAR_LINES = 2
"""Lines of bars in the odds chart (its label wraps below them)."""


def bar_heights(data: Sequence[float], width: int) -> list[float]:
    """Each bar's height, 0 to 1, for ``data`` in ``width`` bars: exactly as Textual's
    ``Sparkline`` makes them (the data in ``width`` slices, the largest value of each,
    scaled between the data's least and largest value), so the chart looks the same."""
    count = len(data)
    buckets = [data[count * n // width : count * (n + 1) // width] for n in range(width)]
    buckets = [bucket for bucket in buckets if bucket]
    low, high = min(data), max(data)
    extent = high - low or 1
    heights = []
    index, step = 0.0, len(buckets) / width
    for _ in range(width):  # the same float steps as the Sparkline's, for the same bars
        heights.append((max(buckets[int(index)]) - low) / extent)
        index += step
    return heights


def blend(low: RichColor, high: RichColor, ratio: float) -> tuple[int, int, int] | None:
    """The colour ``ratio`` of the way from ``low`` to ``high``, as the Sparkline blends
    it (each channel truncated); None when either is not an RGB colour (then ``high``)."""
    if low.triplet is None or high.triplet is None:
        return None
    (r1, g1, b1), (r2, g2, b2) = low.triplet, high.triplet
    return (
        int(r1 + (r2 - r1) * ratio),
        int(g1 + (g2 - g1) * ratio),
        int(b1 + (b2 - b1) * ratio),
    )


class OddsChart(Widget):
    """The finishing-turn distribution as bars, with its label below them.

    It draws exactly what Textual's ``Sparkline`` and a ``Static`` for the label drew
    (the same bars, colours and wrapping), line by line from strips made once per
    distribution: the Sparkline took more than a millisecond to render after every move,
    and one widget repaints where two did."""

    COMPONENT_CLASSES = {"chart--min-color", "chart--max-color", "chart--label"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.distribution: tuple[float, ...] = ()
        self.label = ""
        self.chart_strips: list[Strip] | None = None
        """The lines drawn for the distribution, label and ``chart_width`` (None: to do)."""
        self.chart_width = 0

    def show(self, distribution: Sequence[float], label: str) -> None:
        """Chart ``distribution`` (one value per turn) with ``label`` below; a new layout
        only when the label takes another number of lines."""
        distribution = tuple(distribution)
        if distribution == self.distribution and label == self.label:
            return
        width = self.content_region.width
        lines = len(self.label_lines(width))
        self.distribution, self.label = distribution, label
        self.chart_strips = None
        self.refresh(layout=not width or len(self.label_lines(width)) != lines)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.chart_strips = None  # a theme or a class changed: the colours may have

    def label_lines(self, width: int) -> list[Content]:
        """The label as a ``Static`` wraps it (one line before the widget has a width)."""
        if not self.label:
            return []
        return Content(self.label).wrap(width) if width > 0 else [Content(self.label)]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return BAR_LINES + len(self.label_lines(width))

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        if self.chart_strips is None or width != self.chart_width:
            self.chart_strips = self.chart_lines(width)
            self.chart_width = width
        if y < len(self.chart_strips):
            return self.chart_strips[y]
        return Strip.blank(width, self.rich_style)

    def chart_lines(self, width: int) -> list[Strip]:
        """The bars (``BAR_LINES`` lines, ``width`` bars) and the label's lines."""
        base = self.rich_style
        data = self.distribution
        # Each line as runs of one style: (text, style) pairs, neighbours of one style joined.
        rows: list[list[tuple[str, Style]]] = [[] for _ in range(BAR_LINES)]
        if width and data:
            background = self.background_colors[1]
            low = (background + self.get_component_styles("chart--min-color").color).rich_color
            high = (background + self.get_component_styles("chart--max-color").color).rich_color
            steps = len(BARS) * BAR_LINES - 1
            # One value: every bar full, in the top colour (as the Sparkline draws it).
            heights = bar_heights(data, width) if len(data) > 1 else [1.0] * width
            styles: dict[tuple[int, int, int] | None, Style] = {}  # bars share colours
            for height in heights:
                bar = int(height * steps)
                rgb = blend(low, high, height)
                style = styles.get(rgb)
                if style is None:
                    color = high if rgb is None else RichColor.from_rgb(*rgb)
                    style = styles[rgb] = base + Style.from_color(color)
                for line, row in enumerate(rows):
                    bottom = (BAR_LINES - 1 - line) * len(BARS)
                    if bar < bottom:
                        cell, cell_style = " ", base
                    elif bar >= bottom + len(BARS):
                        cell, cell_style = "█", style
                    else:
                        cell, cell_style = BARS[bar % len(BARS)], style
                    if row and row[-1][1] is cell_style:
                        row[-1] = (row[-1][0] + cell, cell_style)
                    else:
                        row.append((cell, cell_style))
        # As the Static drew it: the label's own cells, the rest is the background.
        strips = [Strip([Segment(text, style) for text, style in row]) for row in rows]
        label_style = base + self.get_component_rich_style("chart--label")
        for text in self.label_lines(width):
            strips.append(Strip([Segment(text.plain, label_style)]))
        return strips


class HintPanel(Vertical):
    """Solver hints and the odds for the player to move; ``h`` shows or hides it."""

    compact = False
    """No chart: the screen sets this when the terminal is short, so the text fits."""
    asked = 0
    """How many hints were asked (``show_odds_of``): only the last one is shown."""

    def compose(self) -> ComposeResult:
        yield Static(id="hint-text", markup=False)
        yield OddsChart(id="hint-chart")

    def show_message(self, message: str) -> None:
        """Only ``message`` (the figures are being computed), no chart."""
        _show_text(self.query_one("#hint-text", Static), message)
        self.query_one(OddsChart).display = False

    def update_from(self, session: GameSession, seat: int, *, ready: bool) -> None:
        """The hint and the odds for ``seat`` in ``session``'s game; ``ready``: the
        solver has answered for its board (until then the panel says it is computing)."""
        if not ready:
            self.show_message(COMPUTING)
            return
        game = session.game
        self.show_odds_of(game.board, game.players, game.positions, seat, mode=session.mode)

    def show_odds_of(
        self,
        board: Board,
        players: Sequence[Player],
        positions: Sequence[int],
        seat: int,
        *,
        mode: str = "puzzle",
    ) -> None:
        """The hint for ``seat`` with the odds from the analysis: at once when the
        board's analysis is complete (lookups, in the same frame as the move), else in a
        thread worker (0.4 s on classic the first time, seconds on big boards), shown
        only if no other hint was asked meanwhile."""
        self.asked += 1
        asked, positions = self.asked, tuple(positions)
        if odds_at_hand(board):
            odds = compute_odds(board, positions, seat)
            self.show_hint(board, players, positions, seat, odds=odds, mode=mode)
            return

        def deliver(odds: Odds) -> None:
            if self.is_attached and self.asked == asked:
                self.show_hint(board, players, positions, seat, odds=odds, mode=mode)

        def work() -> None:
            odds = compute_odds(board, positions, seat)
            self.app.call_from_thread(deliver, odds)

        self.run_worker(work, thread=True, exclusive=True, group="hint")

    def show_hint(
        self,
        board: Board,
        players: Sequence[Player],
        positions: Sequence[int],
        to_move: int,
        *,
        odds: Odds | None,
        mode: str = "puzzle",
    ) -> None:
        """Refresh every line for the player to move (``to_move``): the solver's part and
        the odds in one text, then the chart. ``mode``: see ``hint_lines``."""
        square = positions[to_move]
        text = hint_lines(board, players[to_move], square, mode)
        chart = self.query_one(OddsChart)
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
                peak = max(range(len(distribution)), key=distribution.__getitem__) + 1
                label = f"Finishing turn, 1-{len(distribution)}, most likely turn {peak}"
                chart.show(distribution, label)
        if odds_text:
            text.append("\n")
            text.append_text(odds_text)
        _show_text(self.query_one("#hint-text", Static), text)
        chart.display = chart_shown and not self.compact

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
