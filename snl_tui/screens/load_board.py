"""The load-board dialog: built-in boards, board files nearby, or any path.

Returns the loaded ``Board`` via ``dismiss``. Board files are listed at once and checked
in a thread worker (loading and solving many files takes a while): each line gains its
size and least rolls, or its error, as its result arrives. The chosen board is loaded
in a thread worker too, so a big file never freezes the screen. A bad file shows the core's one-line
``BoardError`` message inside the dialog and nothing else changes: the current game goes
on untouched until a board actually loads.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ..core.board import Board
from ..core.cells import cell_width, cut_cells, pad_cells
from ..core.errors import SnlError
from ..core.files.formats import builtin_boards, is_board_file, load_board, looks_like_board
from ..core.limits import check_playable
from ..core.solver import least_rolls_from
from ..core.text import safe_line
from .dialog import Dialog


@dataclass(frozen=True)
class BoardChoice:
    """One line of the list: what to pass to ``load_board`` and how to show it."""

    source: str
    label: str


def least_rolls_label(board: Board) -> str:
    least = least_rolls_from(board, board.rules.start_position)
    return "unreachable" if least < 0 else f"least rolls {least}"


NAME_WIDTH = 16
"""The name column's least width; longer names (file paths) widen it for every line."""
MAX_NAME_WIDTH = 34
"""The widest the name column gets (a longer path is cut in the middle)."""


def name_cell(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` in a column of ``width`` cells: padded, or cut in the middle with '…'."""
    if cell_width(name) > width:
        keep = width - 1
        name = cut_cells(name, keep - keep // 2) + "…" + name[len(name) - keep // 2 :]
    return pad_cells(name, width)


def choice_label(name: str, board: Board, width: int = NAME_WIDTH) -> str:
    """'classic             10x10  least rolls 7': one line of the list."""
    size = f"{board.rows}x{board.cols}"
    return f"{name_cell(name, width)} {size:>7}  {least_rolls_label(board)}"


LIST_WIDTH = 62
"""The board list's width in cells inside the dialog (72 wide, less border and padding)."""


def file_label(choice: BoardChoice, width: int = NAME_WIDTH) -> str:
    """A board file's line once checked: its size and least rolls, or its error."""
    try:
        board = load_board(choice.source)
    except (SnlError, OSError) as error:
        # Wrapped here, under the reason, so the next lines of a long reason hang
        # indented past the name instead of starting at the list's left edge.
        return textwrap.fill(
            f"{name_cell(choice.label, width)} broken: {error}",
            width=max(LIST_WIDTH, width + 30),
            subsequent_indent=" " * (width + 1),
            break_on_hyphens=False,
        )
    return choice_label(choice.label, board, width)


def builtin_choices(width: int = NAME_WIDTH) -> list[BoardChoice]:
    return [
        BoardChoice(
            entry.name,
            f"{name_cell(entry.name, width)} {entry.size_label:>7}  "
            f"{least_rolls_label(entry.board)}",
        )
        for entry in builtin_boards()
    ]


def is_builtin_copy(path: Path) -> bool:
    """Whether ``path`` holds a built-in board as shipped (``boards/classic.toml`` in a
    checkout is the built-in ``classic`` itself): listed once, under its name."""
    entry = next((entry for entry in builtin_boards() if entry.name == path.stem), None)
    if entry is None:
        return False
    try:
        board = load_board(path)
    except (SnlError, OSError):
        return False
    # The squares, jumps and rules (a matrix file's description is the package's own).
    return (board, board.rules) == (entry.board, entry.board.rules)


def file_choices(folder: Path | None = None) -> list[BoardChoice]:
    """Board files in ``./boards`` and the working directory (.json, .toml, .txt).

    Every such file in ``./boards`` is listed (a broken one too, to see its error); in the
    working directory only those that ``looks_like_board``, so ``pyproject.toml`` is not.
    """
    here = folder or Path.cwd()
    paths: list[Path] = []
    if (here / "boards").is_dir():
        paths += sorted(p for p in (here / "boards").iterdir() if is_board_file(p))
    paths += sorted(p for p in here.iterdir() if is_board_file(p) and looks_like_board(p))
    choices = []
    for path in paths:
        if is_builtin_copy(path):
            continue
        shown = path.relative_to(here) if path.is_relative_to(here) else path
        # From the working directory, the relative path keeps error messages short.
        source = str(shown) if folder is None else str(path)
        choices.append(BoardChoice(source, str(shown)))
    return choices


HINT = "Enter loads, Escape cancels."


class LoadBoardScreen(Dialog[Board | None]):
    """Pick a board; Escape cancels."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.choices: dict[str, BoardChoice] = {}
        self.name_width = NAME_WIDTH
        """The name column's width: the longest name listed (within ``MAX_NAME_WIDTH``)."""
        self.pending_source: str | None = None
        """The board being loaded (its name or path), until its result is in."""

    def compose(self) -> ComposeResult:
        options: list[Option | None] = []
        files = file_choices(self.folder)
        names = [entry.name for entry in builtin_boards()] + [file.label for file in files]
        self.name_width = min(MAX_NAME_WIDTH, max(NAME_WIDTH, *map(cell_width, names)))
        for index, choice in enumerate(builtin_choices(self.name_width)):
            key = f"builtin-{index}"
            self.choices[key] = choice
            options.append(Option(choice.label, id=key))
        if files:
            options.append(None)
            for index, choice in enumerate(files):
                key = f"file-{index}"
                self.choices[key] = choice
                label = f"{name_cell(choice.label, self.name_width)} checking…"
                options.append(Option(label, id=key))
        with Vertical(id="load-board", classes="dialog"):
            yield Label("Load a board", classes="dialog-title")
            yield OptionList(*options, id="board-list", markup=False)
            # The input, the error and the hint are docked at the bottom: the list gets
            # the room they leave and scrolls, so an error shows even at 80x24.
            with Vertical(id="load-bottom"):
                yield Input(placeholder="or type a path and press Enter", id="board-path")
                yield Static("", id="load-error", markup=False)
                yield Static(HINT, id="load-hint", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._check_files()

    @work(thread=True, exclusive=True, group="check-files")
    def _check_files(self) -> None:
        """Load and solve each listed file off the UI thread, showing each result."""
        worker = get_current_worker()
        for key, choice in list(self.choices.items()):
            if not key.startswith("file-"):
                continue
            label = file_label(choice, self.name_width)
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self._file_checked, key, label)

    def _file_checked(self, key: str, label: str) -> None:
        if self.is_attached:
            self.query_one(OptionList).replace_option_prompt(key, label)

    def try_load(self, source: str) -> None:
        """Load ``source`` in a thread worker (a 1000x1000 file takes a second or two to
        read): the dialog says so and still answers keys (Escape cancels; another choice
        replaces this one). An error is said here, and the dialog and game stay as is."""
        self.pending_source = source
        self.query_one("#load-error", Static).remove_class("-shown")
        self.query_one("#load-hint", Static).update(
            f"Loading {safe_line(source, 60)}… (Escape cancels)"
        )
        self._load(source)

    @work(thread=True, exclusive=True, group="load")
    def _load(self, source: str) -> None:
        worker = get_current_worker()
        try:
            loaded = load_board(source)
            check_playable(loaded)
            board: Board | str = loaded
        except (SnlError, OSError) as error:
            board = str(error)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._loaded, source, board)

    def _loaded(self, source: str, board: Board | str) -> None:
        """A load's result, on the UI thread: the board closes the dialog with it; a
        message is shown. A result for a choice that was replaced is dropped."""
        if source != self.pending_source or self.dismissed:
            return
        self.pending_source = None
        self.query_one("#load-hint", Static).update(HINT)
        if isinstance(board, str):
            self.show_error(board)
        else:
            self.close(board)

    def close(self, board: Board | None) -> None:
        """Dismiss (once: ``Dialog`` ignores a second Enter or Escape)."""
        self.dismiss(board)

    def show_error(self, message: str) -> None:
        error = self.query_one("#load-error", Static)
        error.update(message)
        error.add_class("-shown")

    @on(OptionList.OptionSelected, "#board-list")
    def board_selected(self, event: OptionList.OptionSelected) -> None:
        choice = self.choices.get(event.option.id or "")
        if choice is not None:
            self.try_load(choice.source)

    @on(Input.Submitted, "#board-path")
    def _typed(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if path:
            self.try_load(path)
        else:
            self.show_error("Type a board name or a file path first.")

    def action_cancel(self) -> None:
        self.close(None)
