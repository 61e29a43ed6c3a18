"""The statistics screen: your history from the saved-games store beside the exact odds.

The same figures as ``snl stats`` (per board and player: games, wins, average length
against the exact expected length, luck; puzzle bests against the optimum; the table is
written by ``core.store.history``), the current board first, and a histogram of your game lengths
on the current board drawn over the exact distribution of ``core.odds.analysis``. Reading the
store and the analysis (seconds on big boards) run in a thread worker; the screen says
"Computing…" meanwhile. The histogram is text: ``░`` the exact share, ``█`` yours.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from ..core.board import Board
from ..core.odds.report import LUCK_LEGEND
from ..core.store.games import Store, StoreError, board_key
from ..core.text import percent
from .dialog import Dialog

if TYPE_CHECKING:
    from ..core.odds.analysis import Analysis

EXACT, YOURS, EXACT_END = "░", "█", "┃"
HISTOGRAM_ROWS, HISTOGRAM_WIDTH = 12, 36


def length_histogram(
    analysis: Analysis,
    lengths: Sequence[int],
    rows: int = HISTOGRAM_ROWS,
    width: int = HISTOGRAM_WIDTH,
) -> list[str]:
    """Your game lengths (turns) over the exact distribution, as text rows.

    Equal turn ranges from the first possible finish to the 99th percentile (or your
    longest game, if later), at most ``rows`` of them. Each row: the range, a bar of
    ``width`` cells where ``░`` is the exact share of games ending in that range and ``█``
    (drawn over it) your share, then both figures. Both bars use one scale, so a ``█``
    longer than its ``░`` means you finished in that range more often than chance says
    (``┃`` marks where the exact bar ends under yours).
    """
    dist = analysis.distribution
    first = next((t for t, p in enumerate(dist) if p > 0), None)
    if first is None:
        return ["  (no game ever finishes on this board)"]
    last = analysis.percentile_turns(0.99 * (1.0 - analysis.never_finishes))
    if not isinstance(last, int):
        last = len(dist) - 1
    last = max([last, *lengths])
    first = min([first, *lengths])
    step = max(1, math.ceil((last - first + 1) / rows))
    bins = []
    for low in range(first, last + 1, step):
        high = low + step - 1
        exact = sum(dist[low : high + 1])
        mine = sum(1 for length in lengths if low <= length <= high)
        bins.append((low, high, exact, mine))
    total = len(lengths)
    tallest = max(max(exact for *_, exact, _ in bins), max(m / total for *_, m in bins))
    label_width = 2 * len(str(last)) + 1
    lines = [f"  {'turns':<{label_width}}  {'':<{width}}  {'exact':>6}  {'yours':>9}"]
    for low, high, exact, mine in bins:
        label = str(low) if low == high else f"{low}-{high}"
        share = mine / total
        bar = _overlay(_cells(exact, tallest, width), _cells(share, tallest, width), width)
        yours = f"{mine} ({percent(share, 0)})" if mine else "-"
        lines.append(f"  {label:<{label_width}}  {bar}  {percent(exact):>6}  {yours:>9}".rstrip())
    return lines


def _cells(share: float, full: float, width: int) -> int:
    """Whole cells for ``share`` at ``full`` = ``width``; a non-zero share gets one."""
    if share <= 0 or full <= 0:
        return 0
    return max(1, round(share / full * width))


def _overlay(exact: int, yours: int, width: int) -> str:
    """Your bar over the exact one; where yours covers the exact bar's end, ``┃`` marks it."""
    cells = [YOURS if cell < yours else EXACT if cell < exact else " " for cell in range(width)]
    if 0 < exact < yours:
        cells[exact - 1] = EXACT_END
    return "".join(cells)


def statistics_text(store: Store | None, board: Board, you: str) -> str:
    """Everything the screen shows, as plain text (the worker's job: analysis inside)."""
    from ..core.store.history import PUZZLE_LEGEND, board_summary, exact_odds, print_board

    if store is None:
        return "Saving is off (--no-save): no history is read or written."
    if not store.enabled:
        return f"No history: {store.disabled_reason}."
    try:
        stats = store.stats()
    except StoreError as error:
        return f"No history: {error}."
    key = board_key(board)
    out = io.StringIO()
    for line in stats.skipped:
        print(f"warning: {line}", file=out)
    current = next((record for record in stats.boards if record.key == key), None)
    others = [record for record in stats.boards if record.key != key]
    odds = exact_odds(board)
    name = board.name or "this board"
    # The current board's table first, or a line saying it has none: never another
    # board's table where this one's is expected.
    if current is not None:
        print_board(board_summary(current, odds), out)
    else:
        print(f"{name}: no finished games on this board yet.", file=out)
    if others:
        print("\nOther boards", file=out)
    for record in others:
        print(file=out)
        print_board(board_summary(record), out)
    if stats.boards:
        print(
            f"\navg length: turns to reach the goal in the games won; {LUCK_LEGEND}",
            file=out,
        )
        print(PUZZLE_LEGEND, file=out)
    mine = next((p.lengths for p in (current.players if current else ()) if p.player == you), ())
    whose = "Your" if you.casefold() == "you" else f"{you}'s"
    print(f"\n{whose} game lengths on {name} over the exact distribution", file=out)
    if odds is None:
        print("  (the exact odds are not available for this board)", file=out)
    elif not mine:
        print(f"  (no classic game won by {you} on {name} yet)", file=out)
    else:
        print(
            f"  {EXACT} exact share of games   {YOURS} your {len(mine)} won games   "
            f"{EXACT_END} where the exact bar ends under yours",
            file=out,
        )
        for line in length_histogram(odds, mine):
            print(line, file=out)
    return out.getvalue().rstrip("\n")


class StatsScreen(Dialog[None]):
    """Statistics for every board played, the current one first; Escape or s closes."""

    CSS_PATH = ["dialogs.tcss", "saves.tcss"]
    BINDINGS = [Binding("escape,s,q", "close", "Close")]

    def __init__(self, store: Store | None, board: Board, you: str) -> None:
        super().__init__()
        self.store = store
        self.board = board
        self.you = you
        self.text: str | None = None
        """What the screen shows, once the worker has computed it."""

    def compose(self) -> ComposeResult:
        with Vertical(id="stats"):
            yield Label("Statistics", classes="dialog-title")
            with VerticalScroll(id="stats-body"):
                yield Static("Computing…", id="stats-text", markup=False)
            yield Static("Escape closes.", classes="dialog-hint")

    def on_mount(self) -> None:
        self._compute()

    @work(thread=True, exclusive=True)
    def _compute(self) -> None:
        text = statistics_text(self.store, self.board, self.you)
        self.app.call_from_thread(self._show, text)

    def _show(self, text: str) -> None:
        self.text = text
        self.query_one("#stats-text", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)
