"""The move log: one entry per move, as the core describes it (``Move.describe``).

A Line-API widget (``render_line``). Each move is one logical line; a line wider than
the log wraps at word boundaries, its continuation rows indented under the text after
the move number, so nothing is cut at the edge and there is no horizontal scrolling.
When the log's width changes every move is wrapped again (a game has a few hundred moves
at most). The newest move is always in view: after every new move, and after every
resize (the hint panel appearing above the log shrinks it, for one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rich.cells import cell_len, chop_cells
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip

from ..core.engine import Player, Turn
from ..core.session import GameSession
from ..core.text import is_unsafe_char

NUMBER_PREFIX = re.compile(r"^\s*\d+\. ")
"""The move number ('  3. ') a continuation row is indented past."""


def describe_turn(turn: Turn, players: tuple[Player, ...], chosen: bool = False) -> str:
    """'3. Ann rolled 4: 12 -> 16, snake to 6' plus a note for an extra roll ('chose 4'
    when the value was chosen: puzzle mode)."""
    text = f"{turn.turn:>3}. {turn.move.describe(players[turn.player].name, chosen)}"
    if turn.cancelled:  # the roll's own effect did not happen: say what did instead
        text = f"{text.split(':')[0]}: a third top face in a row cancels the turn"
    if turn.again:
        text += " (rolls again)"
    return text


def clean_line(text: str) -> str:
    """One printable line: tabs expanded, control characters (newlines too) replaced."""
    # The core's one test of what a terminal would act on (C0, DEL, C1, bidi overrides).
    return "".join(
        "\N{REPLACEMENT CHARACTER}" if is_unsafe_char(char) else char for char in text.expandtabs()
    )


def wrap_move(text: str, width: int) -> list[str]:
    """The rows, at most ``width`` cells each, that show one move line.

    Words wrap at spaces, so a number is never split between rows. Continuation rows
    hang under the text after the move number ('  6. '); when that indent would leave
    less than half the width, they start at the left edge instead. A single word wider
    than a row (a very long name) is folded. ``width <= 0`` (not laid out yet) means
    no wrapping.
    """
    text = clean_line(text)
    if width <= 0 or cell_len(text) <= width:
        return [text]
    head_match = NUMBER_PREFIX.match(text)
    head = head_match.group() if head_match else ""
    indent = cell_len(head)
    if indent > width // 2:
        head, indent = "", 0
    words = text[len(head) :].split() if head else text.split()
    pad = " " * indent
    room = width - indent  # cells for the words of a continuation row

    rows: list[str] = []
    line = head
    line_has_words = False
    for word in words:
        size = cell_len(word)
        separator = " " if line_has_words else ""
        if cell_len(line) + len(separator) + size <= width:
            line += separator + word
            line_has_words = True
        elif size <= room:  # it starts the next row
            rows.append(line)
            line = pad + word
        else:  # wider than any row: fold it, from where the row has room
            free = width - cell_len(line) - len(separator)
            rest = word
            if free > 0:
                first = chop_cells(word, free)[0]
                rows.append(line + separator + first)
                rest = word[len(first) :]
            elif line.strip():
                rows.append(line)
            pieces = chop_cells(rest, room) if rest else [""]
            rows.extend(pad + piece for piece in pieces[:-1])
            line = pad + pieces[-1]
            line_has_words = bool(pieces[-1])
    rows.append(line)
    return rows


class MoveLog(ScrollView, can_focus=True):
    """Every move of the game, newest at the bottom, long lines wrapped to the width.

    ``lines`` holds one text per move and ``line_count`` counts the moves; ``rows`` are
    the wrapped rows on screen. The attributes are public names of its own: Textual's
    widgets use many ``_`` names, and a private one here could silently shadow theirs.
    """

    ALLOW_SELECT = True
    COMPONENT_CLASSES = {f"board--token-{seat}" for seat in range(1, 5)}
    """Each move's player's name in their seat's colour (the app's seat styles)."""
    DEFAULT_CSS = """
    MoveLog {
        background: $surface;
        color: $text;
        /* Rows are wrapped to the width, so nothing scrolls sideways; the vertical
           scrollbar always keeps its column, so showing it never changes the width. */
        overflow-x: hidden;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.move_texts: list[str] = []
        """One text per move (and per note between them), unwrapped."""
        self.moves_shown = 0
        """How many of the game's moves ``move_texts`` holds (notes are not moves)."""
        self.chosen = False
        """The die values were chosen (puzzle mode): moves read 'chose', not 'rolled'."""
        self.movers: dict[int, tuple[int, str]] = {}
        """Move text index -> (seat, name) of who moved (notes have none)."""
        self.row_marks: list[tuple[int, int, int] | None] = []
        """Per wrapped row: (seat, first cell, end cell) of the mover's name on it."""
        self.wrapped_rows: list[str] = []
        """The rows on screen: every move wrapped to ``wrap_width``."""
        self.wrap_width = 0
        self.strip_cache: LRUCache[int, Strip] = LRUCache(1024)
        """Rendered rows by row number (none while text is selected)."""
        self.base_style: Style | None = None
        """The log's own style, looked up once per restyle: ``rich_style`` walks every
        ancestor, and a scrolled log repaints all its rows after every move."""

    # -- what is shown -----------------------------------------------------------------

    @property
    def lines(self) -> Sequence[str]:
        """One text per move, unwrapped (read only)."""
        return tuple(self.move_texts)

    @property
    def line_count(self) -> int:
        """The number of moves shown (one logical line each), not of wrapped rows."""
        return self.moves_shown

    @property
    def rows(self) -> Sequence[str]:
        """The rows as wrapped to the current width (read only)."""
        return tuple(self.wrapped_rows)

    @property
    def allow_select(self) -> bool:
        return True

    # -- the game's interface ----------------------------------------------------------

    def update_from(self, session: GameSession) -> None:
        """Show ``session``'s whole game afresh (a new game, an undo), a puzzle's moves
        as chosen values."""
        self.chosen = session.puzzle
        self.show_history(session.game.history, session.game.players)

    def show_history(self, history: list[Turn], players: tuple[Player, ...]) -> None:
        """Replace the log with a whole history (new game, undo)."""
        self.move_texts = [describe_turn(turn, players, self.chosen) for turn in history]
        self.movers = {
            index: (turn.player, players[turn.player].name) for index, turn in enumerate(history)
        }
        self.moves_shown = len(history)
        self.rewrap(self.content_width())

    def catch_up(self, history: list[Turn], players: tuple[Player, ...]) -> None:
        """Add the moves of ``history`` the log does not show yet (a history shorter
        than the log, after an undo, is shown afresh)."""
        if len(history) < self.moves_shown:
            self.show_history(history, players)
            return
        new = history[self.moves_shown :]
        self.moves_shown = len(history)
        first = len(self.move_texts)
        for index, turn in enumerate(new, start=first):
            self.movers[index] = (turn.player, players[turn.player].name)
        self.write_moves(describe_turn(turn, players, self.chosen) for turn in new)

    def write_note(self, text: str) -> None:
        """A line between the moves that is not a move (a room's chat, what the host
        did): cleaned of control characters like every line of the log."""
        self.write_moves([clean_line(text)])

    def write_moves(self, texts: Iterable[str]) -> None:
        """Append moves (one text each) and bring the newest into view."""
        new = list(texts)
        if not new:
            return
        width = self.content_width()
        if width != self.wrap_width:
            self.move_texts.extend(new)
            self.rewrap(width)
            return
        first_row = len(self.wrapped_rows)
        first = len(self.move_texts)
        self.move_texts.extend(new)
        for index, text in enumerate(new, start=first):
            self._add_rows(index, wrap_move(text, width))
        self.grow(Size(width, len(self.wrapped_rows)))
        self.refresh_lines(first_row, len(self.wrapped_rows) - first_row)
        self.follow_newest()

    def grow(self, size: Size) -> None:
        """The log's new (taller) virtual size, without a layout pass of the screen.

        Assigning ``virtual_size`` asks for a layout of the whole screen, and then every
        scroll view repaints its scrollbars (on everest, the board's: most of the lines
        a move repainted). Only the rows and the log's own scrollbar change, so the size
        is set without the layout and the scrollbar is told the new length.
        """
        self.set_reactive(MoveLog.virtual_size, size)
        if self.is_mounted:
            self.vertical_scrollbar.window_virtual_size = size.height

    # -- wrapping and following --------------------------------------------------------

    def content_width(self) -> int:
        """The cells a row may use: the content width less the vertical scrollbar."""
        return max(self.scrollable_content_region.width, 0)

    def rewrap(self, width: int) -> None:
        """Wrap every move to ``width`` and show the newest."""
        self.wrap_width = width
        self.wrapped_rows, self.row_marks = [], []
        for index, text in enumerate(self.move_texts):
            self._add_rows(index, wrap_move(text, width))
        self.strip_cache.clear()
        self.virtual_size = Size(width, len(self.wrapped_rows))
        self.refresh()
        self.follow_newest()

    def _add_rows(self, index: int, rows: list[str]) -> None:
        """Show move ``index``'s ``rows``, its mover's name marked on the first."""
        mark = None
        mover = self.movers.get(index)
        if mover is not None and rows:
            seat, name = mover
            prefix = NUMBER_PREFIX.match(rows[0])
            start = len(prefix.group(0)) if prefix else 0
            if name and rows[0][start : start + len(name)] == name:
                mark = (seat, start, start + len(name))
        self.wrapped_rows.extend(rows)
        self.row_marks.extend([mark] + [None] * (len(rows) - 1))

    def follow_newest(self) -> None:
        """Scroll to the newest row (not while the user drags the scrollbar)."""
        if not self.is_vertical_scrollbar_grabbed:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        width = self.content_width()
        if width != self.wrap_width:
            self.rewrap(width)
        else:
            # Same width, new height (e.g. the hint panel came or went): the rows stay,
            # the view moves so the newest is still at the bottom.
            self.follow_newest()

    def notify_style_update(self) -> None:
        """Styles changed (theme, CSS): repaint, and re-wrap if the room changed (a new
        scrollbar size or padding changes it without a resize)."""
        super().notify_style_update()
        self.strip_cache.clear()
        self.base_style = None
        width = self.content_width()
        if width and width != self.wrap_width:
            self.rewrap(width)

    # -- drawing -----------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self.size.width
        rich_style = self.base_style
        if rich_style is None:
            rich_style = self.base_style = self.rich_style
        if row >= len(self.wrapped_rows):
            return Strip.blank(width, rich_style)
        strip = self.row_strip(row, rich_style)
        return strip.crop_extend(0, width, rich_style).apply_offsets(0, row)

    def row_strip(self, row: int, rich_style: Style) -> Strip:
        selection = self.text_selection
        if selection is None and row in self.strip_cache:
            return self.strip_cache[row]
        text = self.wrapped_rows[row]
        line = Text(text, no_wrap=True)
        line.stylize(rich_style)
        mark = self.row_marks[row] if row < len(self.row_marks) else None
        if mark is not None:
            seat, start, end = mark
            line.stylize(self.get_component_rich_style(f"board--token-{seat % 4 + 1}"), start, end)
        if selection is not None and (span := selection.get_span(row)) is not None:
            start, end = span
            if end == -1:
                end = len(line)
            line.stylize(self.screen.get_component_rich_style("screen--selection"), start, end)
        strip = Strip(line.render(self.app.console), cell_len(text))
        if selection is None:
            self.strip_cache[row] = strip
        return strip

    def refresh_lines(self, y_start: int, line_count: int = 1) -> None:
        for row in range(y_start, y_start + line_count):
            self.strip_cache.discard(row)
        super().refresh_lines(y_start, line_count=line_count)

    # -- text selection ----------------------------------------------------------------

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The selected text, as the rows show it."""
        return selection.extract("\n".join(self.wrapped_rows)), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.strip_cache.clear()
        self.refresh()
