"""The board editor (``snl edit``, or ``e`` in the game): SPEC 7's board studio screen.

The screen shows the game's board drawing with a cursor, a side form for the name,
description, size and rules, the board's warnings and the live-numbers panel. Every
change is an edit from ``core.studio.edit`` applied through one ``History`` (a list of boards),
so undo and redo cover everything and a refused edit carries the core's own words. The
screen holds no rule: the core decides what a valid board is, the panel computes the
figures in its worker, and ``board_files`` reads and writes files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, Static

from ..commands import GAME_COMMANDS, GameCommand, GameCommands, command
from ..core.board import Board
from ..core.errors import BoardError
from ..core.rules import RULE_OPTIONS
from ..core.studio.board_file import BoardSource, changed_on_disk, format_for, save_board
from ..core.studio.checks import board_warnings
from ..core.studio.edit import (
    AddJump,
    Edit,
    History,
    MoveJump,
    RemoveJump,
    Resize,
    SetDescription,
    SetName,
    SetRules,
)
from ..core.text import parse_whole, plural
from ..messages import CursorMoveRequested, JumpKeyPressed, RemoveKeyPressed, SquareClicked
from ..widgets.board import min_cell_width
from ..widgets.board_picture import as_picture
from ..widgets.edit_board import EditBoard
from ..widgets.editor_form import EditorForm
from ..widgets.heat_map import CursorLine, heat_scale, heat_shades
from ..widgets.studio_panel import NumbersPanel
from ..widgets.title_bar import TitleBar
from .dialog import DismissOnce
from .help import key_cell, sentence, table
from .studio_dialogs import ChoiceScreen, EditorHelpScreen, SaveAsScreen

EDITOR_COMMANDS: tuple[GameCommand, ...] = (
    GameCommand("save", "ctrl+s", "Save", "Save the board", "Save to its file, in its format."),
    GameCommand(
        "save_as",
        "f2",
        "Save as",
        "Save the board as...",
        "Save to a new path: .toml, .json or .txt picks the format.",
    ),
    GameCommand(
        "export", "ctrl+e", "Export", "Export...", "Write a printable page: .pdf, .png or .svg."
    ),
    GameCommand("undo_edit", "ctrl+z", "Undo", "Undo the last edit", "Jumps, size, rules, name."),
    GameCommand("redo_edit", "ctrl+y", "Redo", "Redo the edit undone", "Step forward again."),
    GameCommand("play", "p", "Play", "Play this board", "Play it as it is now, then come back."),
    GameCommand(
        "generate",
        "g",
        "Generate",
        "Generate a board",
        "Let the generator find a board that meets targets (undo brings this one back).",
    ),
    GameCommand(
        "toggle_lock",
        "l",
        "Lock",
        "Lock the jump for the generator",
        "Generate keeps the locked jumps as they are and fills in the rest.",
    ),
    GameCommand(
        "toggle_heat",
        "v",
        "Heat map",
        "Toggle the heat map",
        "Shade every square by its expected visits.",
    ),
    command("toggle_jumps"),
    command("toggle_fit"),
    GameCommand(
        "editor_help", "question_mark", "Help", "Editor help", "The editor's keys.", key_display="?"
    ),
    GameCommand(
        "leave", "q", "Quit", "Leave the editor", "Asks first about unsaved changes.", palette=False
    ),
)
BOARD_KEYS: tuple[tuple[str, str, str], ...] = (
    ("arrows", "Move the cursor", "Up is the row above; a mouse click moves it too."),
    (
        "enter",
        "Start, end or pick up a jump",
        "On a square without a jump: start one; move and press enter again to end it (up: a "
        "ladder, down: a snake). On a jump's start: pick it up to move its end.",
    ),
    (
        "x,delete",
        "Remove a jump",
        "The jump starting under the cursor; on a jump's end, the one jump ending there.",
    ),
    ("escape", "Cancel", "Drop the jump being made, or go back from the form to the board."),
    ("tab", "Form", "Move between the board and the side form (enter applies a field)."),
)
EDITOR_ACTIONS = {command.action for command in EDITOR_COMMANDS}
GAME_ONLY_ACTIONS = {command.action for command in GAME_COMMANDS} - EDITOR_ACTIONS
SIDE_WIDTH = 46
"""The side's width (editor.tcss): the form's labels and choices written out."""
NARROW_SIDE_WIDTH = 27
"""The side's width on a narrow terminal while the board has the keys: the numbers."""


def editor_help_text() -> str:
    """The help dialog's Markdown: the board keys and every command, from their tables."""
    rows = [(key_cell(keys), sentence(title, text)) for keys, title, text in BOARD_KEYS]
    rows += [
        (key_cell(command.key_display or command.keys), sentence(command.title, command.help))
        for command in EDITOR_COMMANDS
    ]
    rows.append(("`ctrl+p`", sentence("Command palette", "Save, save as, generate, play...")))
    return (
        "# Board editor\n\n"
        + table(rows)
        + (
            "\n\nAn edit that would make an invalid board is refused, with the reason on the "
            "status line. Warnings (legal but probably unintended) show beside the board."
        )
    )


def content(board: Board) -> tuple[object, ...]:
    """What saving writes (``Board ==`` leaves out the name and the description)."""
    return (board, board.name, board.description)


@dataclass(frozen=True)
class UseBoard:
    """Take a generated board's squares, jumps and rules, keeping the edited board's name
    and description: one edit, so undo brings the old board back."""

    board: Board
    seed: int | None = None

    def apply(self, board: Board) -> Board:
        new = self.board
        return Board(
            new.rows,
            new.cols,
            new.jumps.items(),
            rules=new.rules,
            name=board.name,
            description=board.description,
        )

    def describe(self) -> str:
        new = self.board
        size = f"{new.rows}x{new.cols}"
        counts = f"{plural(len(new.ladders), 'ladder')}, {plural(len(new.snakes), 'snake')}"
        seed = "" if self.seed is None else f" (seed {self.seed}: type it to get it again)"
        return f"generated {size}: {counts}{seed}"


ON_OFF: dict[object, str] = {True: "on", False: "off"}


class EditorCommands(GameCommands):
    """Command palette entries for the editor (the same actions as its keys)."""

    def available_commands(self) -> list[GameCommand]:
        return [command for command in EDITOR_COMMANDS if command.palette]


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
        self.history = History(board)
        self.source = source or BoardSource()
        self.saved = content(board)
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
        return self.history.current

    @property
    def dirty(self) -> bool:
        return content(self.board) != self.saved

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="editor-main"):
            pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's protocol
            yield as_picture(EditBoard(self.board, letters=(), id="board"), pixels)
            with Vertical(id="editor-side"):
                with EditorForm(id="editor-form"):
                    yield from self._form()
                yield Static("", id="editor-warnings", markup=False)
                numbers = NumbersPanel(id="numbers")
                numbers.border_title = "Numbers"
                yield numbers
        yield CursorLine("", id="editor-cursor", markup=False)
        yield Static("", id="editor-status", markup=False)
        yield Footer()

    def _form(self) -> ComposeResult:
        board, rules = self.board, self.board.rules

        def field(label: str, widget: Input | Select[object]) -> Horizontal:
            return Horizontal(Label(label, classes="field-label"), widget, classes="field")

        yield field("Name", Input(board.name, id="f-name", compact=True))
        yield field("Description", Input(board.description, id="f-description", compact=True))
        yield field("Rows", Input(str(board.rows), id="f-rows", type="integer", compact=True))
        yield field("Columns", Input(str(board.cols), id="f-cols", type="integer", compact=True))
        for option in RULE_OPTIONS:  # one field per rule, from the rules' one source
            widget_id = f"f-{option.name}"
            value = getattr(rules, option.name)
            # Every option is a choice written out ("on"/"off" for the switches): its state
            # reads as text, in a screen capture and without colours.
            labels = ON_OFF if option.kind is bool else option.value_labels
            choices = [(labels.get(v, str(v)), v) for v in option.values]
            select: Select[object] = Select(
                choices, value=value, allow_blank=False, id=widget_id, compact=True
            )
            select.tooltip = option.help
            yield field(option.label, select)

    def on_resize(self) -> None:
        self._fit_side()

    def _fit_side(self) -> None:
        """On a narrow terminal (80 columns) the side leaves the board the room to show
        every column while the board has the keys; the form takes its full width back
        while it is being edited (``-narrow`` in editor.tcss)."""
        board = self.query_one(EditBoard)
        # The squares, the border and a scrollbar (the rows may still scroll).
        whole = min_cell_width(self.board) * self.board.cols + board.styles.gutter.width + 1
        room = self.size.width
        self.set_class(room - SIDE_WIDTH < whole <= room - NARROW_SIDE_WIDTH, "-narrow")

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
        modified = " · modified" if self.dirty else ""
        # The name comes from a file: a title like "[/]" is text, not markup.
        view.border_title = Content(
            f"{board.name or 'untitled'} {board.rows}x{board.cols}{modified}"
        )
        view.border_subtitle = Content(board.rules.describe())
        self.title = "snl edit"
        self.sub_title = self.source.label

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

    def _show_cursor_line(self) -> None:
        self.query_one(CursorLine).show(self.board, self.cursor, self.visits, self.heat_on)

    def _status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one("#editor-status", Static)
        status.set_class(error, "-error")
        status.update(message)

    def _sync_form(self) -> None:
        """Put the current board's values in the form (after an undo or a refusal)."""
        board, rules = self.board, self.board.rules
        values: dict[str, object] = {
            "f-name": board.name,
            "f-description": board.description,
            "f-rows": str(board.rows),
            "f-cols": str(board.cols),
        }
        for widget_id, value in values.items():
            field = self.query_one(f"#{widget_id}", Input)
            if field.value != value:
                field.value = str(value)
        for option in RULE_OPTIONS:
            value = getattr(rules, option.name)
            select = self.query_one(f"#f-{option.name}", Select)
            if select.value != value:
                select.value = value

    # -- edits ---------------------------------------------------------------------------

    def apply_edit(self, edit: Edit, refused_hint: str = "") -> bool:
        """Apply one edit through the history; a refusal shows the core's reason."""
        try:
            self.history.apply(edit)
        except BoardError as error:
            self._status(f"Refused: {error}.{refused_hint}", error=True)
            self._sync_form()
            return False
        self._show_board()
        said = edit.describe()  # not str.capitalize: it would lower-case a name in it
        self._status(f"{said[:1].upper()}{said[1:]}.")
        return True

    def action_undo_edit(self) -> None:
        edit = self.history.undo()
        if edit is None:
            self._status("Nothing to undo.")
            return
        self.pending = None
        self._show_board()
        self._status(f"Undid: {edit.describe()}.")

    def action_redo_edit(self) -> None:
        edit = self.history.redo()
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

    # -- saving ----------------------------------------------------------------------------

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        source = self.source
        if source.path is None or source.fmt is None:
            self.action_save_as(then)
            return
        path, fmt = source.path, source.fmt
        if changed_on_disk(source):
            self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            return
        self._write(path, fmt, then)

    def action_save_as(self, then: Callable[[], None] | None = None) -> None:
        source = self.source
        suggestion = str(source.path) if source.path else f"{self.board.name or 'board'}.toml"

        def chosen(path: Path | None) -> None:
            if path is None:
                self._status("Not saved.")
                return
            same = source.path is not None and path.resolve() == source.path.resolve()
            fmt = source.fmt if same and source.fmt else format_for(path)
            if same and changed_on_disk(source):
                self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            elif not same and path.exists():
                self._ask_overwrite(f"{path} already exists.", path, fmt, then)
            else:
                self._write(path, fmt, then)

        self.app.push_screen(SaveAsScreen(suggestion), chosen)

    def _ask_overwrite(
        self, reason: str, path: Path, fmt: str, then: Callable[[], None] | None
    ) -> None:
        def answered(choice: str | None) -> None:
            if choice == "o":
                self._write(path, fmt, then)
            else:
                self._status("Not saved.")

        question = f"{reason} Overwrite it?"
        self.app.push_screen(
            ChoiceScreen(question, [("o", "Overwrite"), ("c", "Cancel")]), answered
        )

    def _write(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        left_out = self.source.left_out
        if not left_out:
            self._write_now(path, fmt, then)
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self._write_now(path, fmt, then)
            else:
                self._status("Not saved: the file keeps the jumps that were left out.")

        count = plural(len(left_out), "jump")
        self.app.push_screen(
            ChoiceScreen(
                f"The file had {count} that broke the board rules: {'; '.join(left_out)}. "
                f"Save {path} without them?",
                [("s", "Save without them"), ("c", "Cancel")],
            ),
            answered,
        )

    def _write_now(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        board = self.board
        try:
            stamp = save_board(board, path, fmt)
        except BoardError as error:
            self._status(f"Not saved: {error}", error=True)
            return
        except OSError as error:
            self._status(f"Not saved: {path}: {error.strerror or error}", error=True)
            return
        self.source = BoardSource(path, fmt, stamp=stamp)
        self.saved = content(board)
        self._show_titles()
        self._status(f"Saved {path} ({fmt}).")
        if then is not None:
            then()

    # -- leaving, playing, generating, help --------------------------------------------------

    def action_leave(self) -> None:
        if not self.dirty:
            self._leave_now()
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self.action_save(then=self._leave_now)
            elif choice == "d":
                self._leave_now(discard=True)

        where = self.source.path or "a file"
        self.app.push_screen(
            ChoiceScreen(
                f"Save your changes to {where} before leaving?",
                [("s", "Save"), ("d", "Discard"), ("c", "Cancel")],
            ),
            answered,
        )

    def _leave_now(self, discard: bool = False) -> None:
        if self.exit_on_leave:
            self.app.exit(return_code=0)
        else:  # back to the game, which plays the edited board unless it was discarded
            self.dismiss(None if discard else self.board)

    def action_play(self) -> None:
        from ..core.engine import Player
        from ..core.session import GameSettings
        from .game import GameScreen

        settings = getattr(self.app, "settings", None)
        players = tuple(settings.players) if settings is not None else (Player("You"),)
        seed = settings.seed if settings is not None else None
        animate = bool(getattr(self.app, "animation_on", True))
        game = GameScreen(GameSettings(self.board, players, seed), animate=animate, pushed=True)
        self.app.push_screen(game, lambda _: self._status("Back from the game."))

    def action_generate(self) -> None:
        from .generate_dialog import GenerateScreen

        board = self.board
        dialog = GenerateScreen(
            rows=board.rows, cols=board.cols, rules=board.rules, keep=self.kept_jumps()
        )

        def generated(new: Board | None) -> None:
            if new is not None:
                self.apply_edit(UseBoard(new, dialog.last_seed))

        self.app.push_screen(dialog, generated)

    def action_toggle_jumps(self) -> None:
        self._status(self.query_one(EditBoard).toggle_jumps())

    def action_toggle_fit(self) -> None:
        self._status(self.query_one(EditBoard).toggle_fit())

    def action_export(self) -> None:
        from .export_dialog import ExportScreen

        stem = "-".join("".join(c if c.isalnum() else " " for c in self.board.name).split())
        suggestion = f"{stem.lower() or 'board'}.pdf"
        dialog = ExportScreen(self.board, suggestion)
        self.app.push_screen(dialog, lambda said: self._status(said or "Not exported."))

    def action_editor_help(self) -> None:
        self.app.push_screen(EditorHelpScreen(editor_help_text()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The game's palette provider asks every screen: none of its commands are here.
        return action not in GAME_ONLY_ACTIONS


def _warnings_and_looks(board: Board) -> list[str]:
    """The editor's live warnings: ``board_warnings`` and the notes on the board's looks
    (jumps within a row, twin jumps: ``core.studio.looks``), as ``snl check`` gives them."""
    from ..core.studio.looks import look_findings

    return [*board_warnings(board), *(f"look: {f.message}" for f in look_findings(board))]
