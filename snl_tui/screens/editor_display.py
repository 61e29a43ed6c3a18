"""What the board editor shows: its board, marks, warnings, titles, status and form.

The base of ``EditorScreen`` (``screens/editor.py``): the edit history and the cursor, and
every ``_show_*`` that puts the edited board into the widgets; ``apply_edit`` is the one
way an edit reaches the board. The file flow (``editor_files.py``) builds on it.
"""

from __future__ import annotations

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ..core.board import Board
from ..core.errors import BoardError
from ..core.studio.board_file import BoardSource
from ..core.studio.checks import board_warnings
from ..core.studio.edit import Edit
from ..core.studio.editing import EditingSession
from ..widgets.board import min_cell_width
from ..widgets.edit_board import EditBoard
from ..widgets.editor_form import EditorForm
from ..widgets.heat_map import CursorLine, heat_shades
from ..widgets.studio_panel import NumbersPanel
from .dialog import DismissOnce

__all__ = ["EditorDisplay"]

SIDE_WIDTH = 46
"""The side's width (editor.tcss): the form's labels and choices written out."""
NARROW_SIDE_WIDTH = 27
"""The side's width on a narrow terminal while the board has the keys: the numbers."""


class EditorDisplay(DismissOnce[Board | None], Screen[Board | None]):
    """The editor's state and how it is shown (``EditorScreen`` is the screen)."""

    def __init__(
        self,
        board: Board,
        source: BoardSource | None = None,
        *,
        exit_on_leave: bool = False,
        note: str | None = None,
    ) -> None:
        super().__init__()
        self.editing = EditingSession(board, source)
        """The board, its edits and its file (``core.studio.editing``)."""
        self.exit_on_leave = exit_on_leave
        """The editor is the app's base screen (``snl edit``): leaving quits."""
        self.note = note
        self.cursor = 1
        self.locked: set[tuple[int, int]] = set()
        """Jumps locked for the generator, (start, end): kept when generating (``l``)."""
        self.pending: tuple[str, int] | None = None
        """("new", start) while a jump is being made; ("move", start) while one is moved."""
        self.heat_on = False
        self.visits: list[float] | None = None
        """Expected visits per square of the current board (from the numbers panel)."""

    @property
    def board(self) -> Board:
        return self.editing.board

    def _fit_side(self) -> None:
        """On a narrow terminal (80 columns) the side leaves the board the room to show
        every column while the board has the keys; the form takes its full width back
        while it is being edited (``-narrow`` in editor.tcss)."""
        board = self.query_one(EditBoard)
        # The squares, the border and a scrollbar (the rows may still scroll).
        whole = min_cell_width(self.board) * self.board.cols + board.styles.gutter.width + 1
        room = self.size.width
        self.set_class(room - SIDE_WIDTH < whole <= room - NARROW_SIDE_WIDTH, "-narrow")

    # -- showing -----------------------------------------------------------------------

    def _show_board(self) -> None:
        """Everything that depends on the board: drawing, form, warnings, numbers, titles."""
        board = self.board
        view = self.query_one(EditBoard)
        if view.board is not board:
            self._fit_side()
            scroll = view.scroll_offset
            view.set_board(board, ())
            view.scroll_to(scroll.x, scroll.y, animate=False, immediate=True)
        self.cursor = min(self.cursor, board.goal)
        self.visits = None
        self._show_marks()
        self._sync_form()
        self._show_warnings(_warnings_and_looks(board))
        # Whether the drawn jumps hide a number or another jump's end takes the routing
        # (a while on a big board): in a thread, added when it is known.
        self.run_worker(
            lambda: self._drawing_checked(board), thread=True, group="drawing", exclusive=True
        )
        self.query_one(NumbersPanel).show_board(board, self.cursor)
        self._show_titles()
        self._show_cursor_line()

    def _show_warnings(self, warnings: list[str]) -> None:
        """``warnings``: each a line ("look: ..." for a note on the board's looks, the
        others get "warning: ")."""
        lines = [w if w.startswith("look: ") else f"warning: {w}" for w in warnings]
        self.query_one("#editor-warnings", Static).update(
            "\n".join(lines) if lines else "No warnings."
        )
        self.query_one("#editor-warnings").set_class(bool(warnings), "-warn")

    def _drawing_checked(self, board: Board) -> None:
        from ..core.studio.checks import drawing_findings
        from ..core.studio.looks import drawn_look_findings

        found = [finding.message for finding in drawing_findings(board)]
        found += [f"look: {finding.message}" for finding in drawn_look_findings(board)]
        if found:
            self.app.call_from_thread(self._add_drawing_warnings, board, found)

    def _add_drawing_warnings(self, board: Board, found: list[str]) -> None:
        if board is self.board:  # not edited since
            self._show_warnings([*_warnings_and_looks(board), *found])

    def _show_titles(self) -> None:
        board = self.board
        view = self.query_one(EditBoard)
        modified = " · modified" if self.editing.dirty else ""
        # The name comes from a file: a title like "[/]" is text, not markup.
        view.border_title = Content(
            f"{board.name or 'untitled'} {board.rows}x{board.cols}{modified}"
        )
        view.border_subtitle = Content(board.rules.describe())
        self.title = "snl edit"
        self.sub_title = self.editing.source.label

    def _show_marks(self) -> None:
        heat = heat_shades(self.visits, self.board.goal) if self.heat_on and self.visits else {}
        mark = self.pending[1] if self.pending else None
        locked = frozenset(start for start, _ in self.kept_jumps())
        self.query_one(EditBoard).show_editing(self.cursor, mark, heat, locked)

    def kept_jumps(self) -> tuple[tuple[int, int], ...]:
        """The locked jumps still on the board as they were locked (a locked jump moved or
        removed since is no longer kept)."""
        jumps = self.board.jumps
        return tuple(sorted(jump for jump in self.locked if jumps.get(jump[0]) == jump[1]))

    def _show_cursor_line(self) -> None:
        self.query_one(CursorLine).show(self.board, self.cursor, self.visits, self.heat_on)

    def _status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one("#editor-status", Static)
        status.set_class(error, "-error")
        status.update(message)

    def _sync_form(self) -> None:
        """Put the current board's values in the form (after an undo or a refusal)."""
        self.query_one(EditorForm).show(self.board)

    def apply_edit(self, edit: Edit, refused_hint: str = "") -> bool:
        """Apply one edit through the history; a refusal shows the core's reason."""
        try:
            self.editing.apply(edit)
        except BoardError as error:
            self._status(f"Refused: {error}.{refused_hint}", error=True)
            self._sync_form()
            return False
        self._show_board()
        said = edit.describe()  # not str.capitalize: it would lower-case a name in it
        self._status(f"{said[:1].upper()}{said[1:]}.")
        return True


def _warnings_and_looks(board: Board) -> list[str]:
    """The editor's live warnings: ``board_warnings`` and the notes on the board's looks
    (jumps within a row, twin jumps: ``core.studio.looks``), as ``snl check`` gives them."""
    from ..core.studio.looks import look_findings

    return [*board_warnings(board), *(f"look: {f.message}" for f in look_findings(board))]
