"""The board studio's live numbers panel (SPEC 7): the exact figures beside the editor.

``show_board(board, cursor)`` is called after every edit: the figures are computed in a
thread worker (``core.studio``), the panel says "computing…" meanwhile and never blocks a
key, and every figure shows its change since the previous board ("expected 39.2 ->
35.1"). The jump effects (expected turns without each jump) follow in the same worker,
so ``show_cursor(square)`` is a lookup: it rewrites the cursor lines (the jump's effect
and the square's expected visits, the heat map's figure) and recomputes nothing.

After the figures arrive the panel posts ``NumbersPanel.Computed(board, figures)``;
``figures.visits`` gives the heat map's values (index 0 = off the board).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from textual import work
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from ..core.board import Board
from ..core.studio.figures import (
    HISTOGRAM_WIDTH,
    LABEL_WIDTH,
    StudioFigures,
    compute_figures,
    effect_line,
    figure_lines,
    jump_effects,
    visits_line,
)
from ..core.text import plural

COMPUTING = "computing…"
TERMS = "edge Np: seat 1's win chance minus 1/N in points; 90th pct: 9 games in 10 end by then"
"""What the figures' short labels mean, under them (the one-player game's turns: the
rest say it)."""


EIGHTHS = " ▏▎▍▌▋▊▉█"
"""A bar's cells by how many eighths of the cell they fill."""


def fit_histogram(lines: Sequence[str], width: int) -> list[str]:
    """The game-length histogram's lines (``core.odds.report.histogram``'s layout:
    label, a bar ``HISTOGRAM_WIDTH`` cells wide, two spaces, a six-cell share) within
    ``width`` cells where it can: the leading spaces go, then the bars shrink in
    proportion, so that a narrow side still shows each range's share on its line."""
    longest = max((len(line) for line in lines), default=0)
    if longest <= width:
        return list(lines)
    lines = [line[2:] if line.startswith("  ") else line for line in lines]
    over = max(len(line) for line in lines) - width
    bar_width = max(1, HISTOGRAM_WIDTH - over)
    tail = 2 + 6  # the two spaces and the share after the bar
    fitted = []
    for line in lines:
        if len(line) < HISTOGRAM_WIDTH + tail:
            fitted.append(line)
            continue
        start = len(line) - tail - HISTOGRAM_WIDTH
        bar = line[start : start + HISTOGRAM_WIDTH]
        eighths = sum(EIGHTHS.find(cell) for cell in bar if cell in EIGHTHS)
        scaled = round(eighths * bar_width / HISTOGRAM_WIDTH)
        whole, part = divmod(scaled, 8)
        drawn = "█" * whole + (EIGHTHS[part] if part else "")
        fitted.append(line[:start] + drawn.ljust(bar_width) + line[start + HISTOGRAM_WIDTH :])
    return fitted


def fit_figures(lines: Sequence[str], width: int) -> list[str]:
    """The figure lines (``label`` padded to ``LABEL_WIDTH``, then the value) within
    ``width`` cells: a line too long for it has its value on the next line, indented,
    rather than cut in the middle of a number by the wrap."""
    fitted: list[str] = []
    for line in lines:
        label, value = line[:LABEL_WIDTH].rstrip(), line[LABEL_WIDTH:]
        if len(line) <= width or not label or line[LABEL_WIDTH - 1] != " ":
            fitted.append(line)
        else:
            fitted += [label, f"  {value}" if len(value) + 2 <= width else value]
    return fitted


class NumbersPanel(Widget):
    """The live numbers of the board being edited."""

    DEFAULT_CSS = """
    NumbersPanel {
        width: 40;
        height: auto;
        border: round $primary;
        border-title-color: $text-primary;
        padding: 0 1;
    }
    NumbersPanel > #numbers-status {
        color: $text-muted;
    }
    NumbersPanel > #numbers-cursor {
        margin-top: 1;
    }
    NumbersPanel > #numbers-terms {
        color: $text-muted;
    }
    NumbersPanel > #numbers-histogram {
        margin-top: 1;
    }
    """

    class Computed(Message):
        """The figures of ``board`` are on screen (``figures.visits``: the heat map)."""

        def __init__(self, board: Board, figures: StudioFigures) -> None:
            super().__init__()
            self.board = board
            self.figures = figures

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board: Board | None = None
        """The board the panel was last asked about (its figures may still be coming)."""
        self.shown_board: Board | None = None
        """The board whose figures are on screen."""
        self.figures: StudioFigures | None = None
        self.previous: StudioFigures | None = None
        self.effects: dict[int, float] | None = None
        """Jump start -> expected turns without it, for ``shown_board`` (None: coming)."""
        self.cursor = 1
        self.figure_texts: list[str] = []
        """The figure lines shown, before they are fitted to the panel's width."""

    def compose(self) -> ComposeResult:
        yield Static(COMPUTING, id="numbers-status", markup=False)
        yield Static("", id="numbers-figures", markup=False)
        yield Static(TERMS, id="numbers-terms", markup=False)
        yield Static("", id="numbers-cursor", markup=False)
        yield Static("", id="numbers-histogram", markup=False)

    def on_mount(self) -> None:
        self.border_title = "Live numbers"

    # -- the editor's interface -----------------------------------------------------------

    @property
    def computing(self) -> bool:
        """True while the figures of the latest board are not on screen yet."""
        return self.board is not None and self.shown_board is not self.board

    def show_board(self, board: Board, cursor: int) -> None:
        """Recompute every figure for ``board`` in a worker (the screen keeps going)."""
        self.board = board
        self.cursor = cursor
        self.query_one("#numbers-status", Static).update(COMPUTING)
        self._compute(board)

    def show_cursor(self, square: int) -> None:
        """The cursor moved: rewrite its lines from what is already computed."""
        self.cursor = square
        self._update_cursor()

    # -- the worker -----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="numbers", exit_on_error=False)
    def _compute(self, board: Board) -> None:
        worker = get_current_worker()
        figures = compute_figures(board)
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self._show_figures, board, figures)
        # The jump effects come second: the figures are on screen meanwhile.
        effects = jump_effects(board) if figures.ok and board.jumps else {}
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self._show_effects, board, effects)

    def _show_figures(self, board: Board, figures: StudioFigures) -> None:
        if board is not self.board:  # an older edit's figures: a newer one is coming
            return
        if self.figures is not None and self.figures.ok:
            self.previous = self.figures
        self.figures = figures
        self.effects = None
        self.shown_board = board
        self.query_one("#numbers-status", Static).update(self._status())
        self.figure_texts = figure_lines(figures, self.previous)
        self.query_one("#numbers-terms", Static).display = figures.ok  # terms of figures
        self._fit_to_width()
        self._update_cursor()
        self.post_message(self.Computed(board, figures))

    def _fit_to_width(self) -> None:
        """The figures and the histogram, laid out for the panel's width now."""
        figures = self.figures
        bars = figures.histogram if figures is not None else ()
        # Room left for a scrollbar that a long panel shows (it comes without a resize).
        scrollbar = self.styles.scrollbar_size_vertical if self.styles.overflow_y == "auto" else 0
        width = self.content_region.width - scrollbar
        text = "\n".join(fit_figures(self.figure_texts, width))
        self.query_one("#numbers-figures", Static).update(text)
        chart = ["game lengths (turns)", *fit_histogram(bars, width)] if bars else []
        self.query_one("#numbers-histogram", Static).update("\n".join(chart))

    def on_resize(self) -> None:
        self._fit_to_width()

    def _show_effects(self, board: Board, effects: dict[int, float]) -> None:
        if board is not self.shown_board or board is not self.board:
            return
        self.effects = effects
        self._update_cursor()

    # -- text -----------------------------------------------------------------------------

    def _status(self) -> str:
        board = self.shown_board
        if board is None:
            return COMPUTING
        jumps = board.jumps.values()
        ladders = sum(1 for a, b in board.jumps.items() if b > a)
        snakes = len(jumps) - ladders
        return f"{board.rows}x{board.cols}, {plural(ladders, 'ladder')}, {plural(snakes, 'snake')}"

    def _update_cursor(self) -> None:
        board, figures = self.shown_board, self.figures
        if board is None or figures is None or not figures.ok:
            text = ""
        else:
            expected = figures.expected_turns
            lines = [
                effect_line(board, self.cursor, self.effects, expected),
                visits_line(figures, self.cursor, board),
            ]
            text = "\n".join(lines)
        self.query_one("#numbers-cursor", Static).update(text)

    @property
    def expected_turns(self) -> float:
        """The expected turns on screen (nan before the first figures)."""
        return self.figures.expected_turns if self.figures is not None else math.nan
