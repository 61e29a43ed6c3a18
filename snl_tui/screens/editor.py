"""The board editor (``snl edit``, or ``e`` in the game): SPEC 7's board studio screen.

The screen shows the game's board drawing with a cursor, a side form for the name,
description, size and rules, the board's warnings and the live-numbers panel. Every
change is an edit from ``core.studio.edit`` applied through one ``History`` (a list of boards),
so undo and redo cover everything and a refused edit carries the core's own words. The
screen holds no rule: the core decides what a valid board is, the panel computes the
figures in its worker, and ``board_files`` reads and writes files.

The screen composes its parts: the form (``widgets/editor_form.py``), the warnings
(``widgets/warnings_panel.py``) and the numbers panel show the board themselves; the file
flow and ways out are a helper it holds (``editor_files.BoardFiles``); its commands are a
table (``editor_commands.py``). Here: the state, the layout, the cursor and jumps, the
form's input and the heat map.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, Select, Static

from ..core.board import Board
from ..core.errors import BoardError
from ..core.studio.board_file import BoardSource
from ..core.studio.edit import (
    AddJump,
    Edit,
    MoveJump,
    RemoveJump,
    SetRules,
)
from ..core.studio.editing import EditingSession
from ..messages import CursorMoveRequested, JumpKeyPressed, RemoveKeyPressed, SquareClicked
from ..widgets.board import min_cell_width
from ..widgets.board_choice import as_picture
from ..widgets.edit_board import EditBoard
from ..widgets.editor_form import EditorForm, form_fields
from ..widgets.heat_map import CursorLine, heat_scale, heat_shades
from ..widgets.studio_panel import NumbersPanel
from ..widgets.title_bar import TitleBar
from ..widgets.warnings_panel import WarningsPanel
from .dialog import DismissOnce
from .editor_commands import EDITOR_COMMANDS, GAME_ONLY_ACTIONS, EditorCommands, editor_help_text
from .editor_files import BoardFiles

__all__ = ["EditorScreen", "editor_help_text"]

SIDE_WIDTH = 46
"""The side's width (editor.tcss): the form's labels and choices written out."""
NARROW_SIDE_WIDTH = 27
"""The side's width on a narrow terminal while the board has the keys: the numbers."""


class EditorScreen(DismissOnce[Board | None], Screen[Board | None]):
    """Edit a board; dismisses with the board as it is when left (None: not pushed)."""

    def on_cursor_move_requested(self, event: CursorMoveRequested) -> None:
        self.move_cursor(event.dx, event.dy)

    def on_jump_key_pressed(self, event: JumpKeyPressed) -> None:
        self.jump_key()

    def on_remove_key_pressed(self, event: RemoveKeyPressed) -> None:
        self.remove_key()

    def on_square_clicked(self, event: SquareClicked) -> None:
        self.set_cursor(event.square)

    CSS_PATH = "editor.tcss"
    AUTO_FOCUS = "#board"
    COMMANDS = {EditorCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(
                command.keys,
                command.action,
                command.footer,
                show=command.show,
                key_display=command.key_display,
                tooltip=command.help,
            )
            for command in EDITOR_COMMANDS
        ),
        Binding("escape", "escape", "Cancel", show=False),
    ]

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
        self.files = BoardFiles(self, self)
        """Saving, leaving, playing, generating, export and help (``editor_files``)."""

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
        self.query_one(WarningsPanel).update_from(board)
        self.query_one(NumbersPanel).show_board(board, self.cursor)
        self.show_titles()
        self._show_cursor_line()

    def show_titles(self) -> None:
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

    def show_status(self, message: str, *, error: bool = False) -> None:
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
            self.show_status(f"Refused: {error}.{refused_hint}", error=True)
            self._sync_form()
            return False
        self._show_board()
        said = edit.describe()  # not str.capitalize: it would lower-case a name in it
        self.show_status(f"{said[:1].upper()}{said[1:]}.")
        return True

    # -- files and ways out (``editor_files``) ---------------------------------------------

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        self.files.save(then)

    def action_save_as(self, then: Callable[[], None] | None = None) -> None:
        self.files.save_as(then)

    def action_leave(self) -> None:
        self.files.leave()

    def action_play(self) -> None:
        self.files.play()

    def action_generate(self) -> None:
        self.files.generate()

    def action_export(self) -> None:
        self.files.export()

    def action_editor_help(self) -> None:
        self.files.editor_help()

    def action_toggle_jumps(self) -> None:
        self.show_status(self.query_one(EditBoard).toggle_jumps())

    def action_toggle_fit(self) -> None:
        self.show_status(self.query_one(EditBoard).toggle_fit())

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="editor-main"):
            pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's protocol
            yield as_picture(EditBoard(self.board, letters=(), id="board"), pixels)
            with Vertical(id="editor-side"):
                with EditorForm(id="editor-form"):
                    yield from form_fields(self.board)
                yield WarningsPanel("", id="editor-warnings", markup=False)
                numbers = NumbersPanel(id="numbers")
                numbers.border_title = "Numbers"
                yield numbers
        yield CursorLine("", id="editor-cursor", markup=False)
        yield Static("", id="editor-status", markup=False)
        yield Footer()

    def on_resize(self) -> None:
        self._fit_side()

    def on_mount(self) -> None:
        self._fit_side()
        self.query_one("#editor-form").border_title = "Board"
        self._show_board()
        view = self.query_one(EditBoard)
        view.follow(self.cursor)
        self.show_status(self.note or self._welcome())

    def _welcome(self) -> str:
        return (
            "Arrows move the cursor; enter starts a jump, enter again ends it "
            "(up: ladder, down: snake). ? lists every key."
        )

    # -- locks, undo and redo --------------------------------------------------------------

    def action_toggle_lock(self) -> None:
        """Lock the jump under the cursor for the generator, or unlock it."""
        jump = self.board.jump_at(self.cursor)
        if jump is None:
            self.show_status("No jump starts here: put the cursor on a jump's start to lock it.")
            return
        kind = "ladder" if jump.end > jump.start else "snake"
        key = (jump.start, jump.end)
        if key in self.locked:
            self.locked.discard(key)
            self.show_status(f"Unlocked the {kind} {jump.start} -> {jump.end}.")
        else:
            self.locked.add(key)
            self.show_status(
                f"Locked the {kind} {jump.start} -> {jump.end}: generating keeps it "
                f"({len(self.kept_jumps())} locked, underlined)."
            )
        self._show_marks()

    def action_undo_edit(self) -> None:
        edit = self.editing.history.undo()
        if edit is None:
            self.show_status("Nothing to undo.")
            return
        self.pending = None
        self._show_board()
        self.show_status(f"Undid: {edit.describe()}.")

    def action_redo_edit(self) -> None:
        edit = self.editing.history.redo()
        if edit is None:
            self.show_status("Nothing to redo.")
            return
        self.pending = None
        self._show_board()
        self.show_status(f"Redid: {edit.describe()}.")

    # -- the cursor and jumps -------------------------------------------------------------

    def set_cursor(self, square: int) -> None:
        self.cursor = max(1, min(square, self.board.goal))
        self._show_marks()
        view = self.query_one(EditBoard)
        view.follow(self.cursor)
        self.query_one(NumbersPanel).show_cursor(self.cursor)
        self._show_cursor_line()

    def move_cursor(self, dx: int, dy: int) -> None:
        """Move on screen: up is the row above, whatever way the squares run."""
        board = self.board
        row, col = board.position_of(self.cursor)
        row = max(0, min(board.rows - 1, row + dy))
        col = max(0, min(board.cols - 1, col + dx))
        self.set_cursor(board.square_at(row, col))

    def jump_key(self) -> None:
        """``enter``: start a jump, end it, or pick one up to move its end."""
        board, square = self.board, self.cursor
        if self.pending is None:
            jump = board.jump_at(square)
            if jump is not None:
                self.pending = ("move", square)
                self.show_status(
                    f"Moving the end of the {jump.kind} {jump.start} -> {jump.end}: put the "
                    "cursor on its new end and press enter (escape cancels)."
                )
            elif square == board.goal:
                self.show_status(
                    f"Refused: a jump cannot start on the goal (square {square})", error=True
                )
                return
            else:
                self.pending = ("new", square)
                self.show_status(
                    f"New jump from square {square}: put the cursor on its end and press "
                    "enter (up: a ladder, down: a snake; escape cancels)."
                )
            self._show_marks()
            return
        kind, start = self.pending
        if kind == "move" and square == start:
            self.pending = None
            self._show_marks()
            self.show_status("The jump stays as it was.")
            return
        edit: Edit = AddJump(start, square) if kind == "new" else MoveJump(start, square)
        if self.apply_edit(edit, " Choose another end, or escape."):
            self.pending = None
            self._show_marks()

    def remove_key(self) -> None:
        """``x``: remove the jump starting here; on a jump's end, the one jump ending here."""
        board, square = self.board, self.cursor
        here = board.jump_at(square)
        if here is not None:
            self.apply_edit(RemoveJump(square, here.end))
            return
        ends = [j for j in (*board.ladders, *board.snakes) if j.end == square]
        if len(ends) == 1:
            self.apply_edit(RemoveJump(ends[0].start, ends[0].end))
        elif ends:
            names = ", ".join(f"the {j.kind} {j.start} -> {j.end}" for j in ends)
            self.show_status(
                f"{len(ends)} jumps end here ({names}): put the cursor on the start "
                "of the one to remove.",
                error=True,
            )
        else:
            self.show_status(f"No jump starts or ends on square {square}.")

    def action_escape(self) -> None:
        if self.pending is not None:
            self.pending = None
            self._show_marks()
            self.show_status("Cancelled.")
        elif not isinstance(self.focused, EditBoard):
            self.query_one(EditBoard).focus()
        else:  # escape clears, it never leaves: q does that (and asks first)
            leave = next(c for c in EDITOR_COMMANDS if c.action == "leave").keys.split(",")[0]
            self.show_status(f"Nothing to cancel: {leave} leaves the editor.")

    # -- the form ------------------------------------------------------------------------

    @on(Input.Submitted, ".field Input")
    def _input_submitted(self, event: Input.Submitted) -> None:
        self._apply_input(event.input)

    @on(Input.Blurred, ".field Input")
    def _input_blurred(self, event: Input.Blurred) -> None:
        self._apply_input(event.input)

    def _apply_input(self, field: Input) -> None:
        asked = self.query_one(EditorForm).edit_asked(field, self.board)
        if isinstance(asked, str):
            self.show_status(asked, error=True)
            self._sync_form()
        elif asked is not None:
            self.apply_edit(asked)

    @on(Select.Changed, ".field Select")
    def _select_changed(self, event: Select.Changed) -> None:
        name = (event.select.id or "").removeprefix("f-")
        if event.value is Select.NULL or getattr(self.board.rules, name) == event.value:
            return  # the form showing the board (undo, refusal), not a change
        self.apply_edit(SetRules({name: event.value}))

    # -- numbers and the heat map --------------------------------------------------------

    @on(NumbersPanel.Computed)
    def _numbers_computed(self, event: NumbersPanel.Computed) -> None:
        if event.board is not self.board:
            return  # figures of a board edited away meanwhile
        self.visits = list(event.figures.visits)
        if self.heat_on:
            self._show_marks()
        self._show_cursor_line()

    def action_toggle_heat(self) -> None:
        self.heat_on = not self.heat_on
        self._show_marks()
        self._show_cursor_line()
        if not self.heat_on:
            self.show_status("Heat map off.")
        elif self.visits is None:
            self.show_status("Heat map on: the stronger the shade, the more turns begin there.")
        else:
            self.show_status(
                "Heat map on: turns begun on a square, shades by quarter, palest first: "
                f"{heat_scale(self.visits, self.board.goal)}"
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The game's palette provider asks every screen: none of its commands are here.
        return action not in GAME_ONLY_ACTIONS
