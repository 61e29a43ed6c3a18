"""The board editor (``snl edit``, or ``e`` in the game): SPEC 7's board studio screen.

The screen shows the game's board drawing with a cursor, a side form for the name,
description, size and rules, the board's warnings and the live-numbers panel. Every
change is an edit from ``core.studio.edit`` applied through one ``History`` (a list of boards),
so undo and redo cover everything and a refused edit carries the core's own words. The
screen holds no rule: the core decides what a valid board is, the panel computes the
figures in its worker, and ``board_files`` reads and writes files.

The screen is one class in three modules: its state and how it is shown
(``editor_display.py``), its file flow and ways out (``editor_files.py``), and here the
layout, the cursor and jumps, the form and the heat map; its commands are a table
(``editor_commands.py``), its form a widget (``widgets/editor_form.py``).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Select, Static

from ..core.studio.edit import (
    AddJump,
    Edit,
    MoveJump,
    RemoveJump,
    Resize,
    SetDescription,
    SetName,
    SetRules,
)
from ..core.text import parse_whole
from ..messages import CursorMoveRequested, JumpKeyPressed, RemoveKeyPressed, SquareClicked
from ..widgets.board_picture import as_picture
from ..widgets.edit_board import EditBoard
from ..widgets.editor_form import EditorForm, form_fields
from ..widgets.heat_map import CursorLine, heat_scale
from ..widgets.studio_panel import NumbersPanel
from ..widgets.title_bar import TitleBar
from .editor_commands import EDITOR_COMMANDS, GAME_ONLY_ACTIONS, EditorCommands, editor_help_text
from .editor_files import EditorFiles

__all__ = ["EditorScreen", "editor_help_text"]


class EditorScreen(EditorFiles):
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

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="editor-main"):
            pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's protocol
            yield as_picture(EditBoard(self.board, letters=(), id="board"), pixels)
            with Vertical(id="editor-side"):
                with EditorForm(id="editor-form"):
                    yield from form_fields(self.board)
                yield Static("", id="editor-warnings", markup=False)
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
        self._status(self.note or self._welcome())

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
            self._status("No jump starts here: put the cursor on a jump's start to lock it.")
            return
        kind = "ladder" if jump.end > jump.start else "snake"
        key = (jump.start, jump.end)
        if key in self.locked:
            self.locked.discard(key)
            self._status(f"Unlocked the {kind} {jump.start} -> {jump.end}.")
        else:
            self.locked.add(key)
            self._status(
                f"Locked the {kind} {jump.start} -> {jump.end}: generating keeps it "
                f"({len(self.kept_jumps())} locked, underlined)."
            )
        self._show_marks()

    def action_undo_edit(self) -> None:
        edit = self.editing.history.undo()
        if edit is None:
            self._status("Nothing to undo.")
            return
        self.pending = None
        self._show_board()
        self._status(f"Undid: {edit.describe()}.")

    def action_redo_edit(self) -> None:
        edit = self.editing.history.redo()
        if edit is None:
            self._status("Nothing to redo.")
            return
        self.pending = None
        self._show_board()
        self._status(f"Redid: {edit.describe()}.")

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
                self._status(
                    f"Moving the end of the {jump.kind} {jump.start} -> {jump.end}: put the "
                    "cursor on its new end and press enter (escape cancels)."
                )
            elif square == board.goal:
                self._status(
                    f"Refused: a jump cannot start on the goal (square {square})", error=True
                )
                return
            else:
                self.pending = ("new", square)
                self._status(
                    f"New jump from square {square}: put the cursor on its end and press "
                    "enter (up: a ladder, down: a snake; escape cancels)."
                )
            self._show_marks()
            return
        kind, start = self.pending
        if kind == "move" and square == start:
            self.pending = None
            self._show_marks()
            self._status("The jump stays as it was.")
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
            self._status(
                f"{len(ends)} jumps end here ({names}): put the cursor on the start "
                "of the one to remove.",
                error=True,
            )
        else:
            self._status(f"No jump starts or ends on square {square}.")

    def action_escape(self) -> None:
        if self.pending is not None:
            self.pending = None
            self._show_marks()
            self._status("Cancelled.")
        elif not isinstance(self.focused, EditBoard):
            self.query_one(EditBoard).focus()
        else:  # escape clears, it never leaves: q does that (and asks first)
            leave = next(c for c in EDITOR_COMMANDS if c.action == "leave").keys.split(",")[0]
            self._status(f"Nothing to cancel: {leave} leaves the editor.")

    # -- the form ------------------------------------------------------------------------

    @on(Input.Submitted, ".field Input")
    def _input_submitted(self, event: Input.Submitted) -> None:
        self._apply_input(event.input)

    @on(Input.Blurred, ".field Input")
    def _input_blurred(self, event: Input.Blurred) -> None:
        self._apply_input(event.input)

    def _apply_input(self, field: Input) -> None:
        board, value = self.board, field.value
        if field.id == "f-name" and value != board.name:
            self.apply_edit(SetName(value))
        elif field.id == "f-description" and value != board.description:
            self.apply_edit(SetDescription(value))
        elif field.id in ("f-rows", "f-cols"):
            rows_text = self.query_one("#f-rows", Input).value.strip()
            cols_text = self.query_one("#f-cols", Input).value.strip()
            rows_value, cols_value = parse_whole(rows_text), parse_whole(cols_text)
            if rows_value is None or cols_value is None:
                self._status("Refused: rows and columns must be whole numbers", error=True)
                self._sync_form()
                return
            rows, cols = rows_value, cols_value
            if (rows, cols) != (board.rows, board.cols):
                self.apply_edit(Resize(rows, cols))

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
            self._status("Heat map off.")
        elif self.visits is None:
            self._status("Heat map on: the stronger the shade, the more turns begin there.")
        else:
            self._status(
                "Heat map on: turns begun on a square, shades by quarter, palest first: "
                f"{heat_scale(self.visits, self.board.goal)}"
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The game's palette provider asks every screen: none of its commands are here.
        return action not in GAME_ONLY_ACTIONS
