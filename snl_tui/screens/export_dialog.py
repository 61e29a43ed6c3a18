"""The editor's "Export...": write the board as a printable page (.svg, .pdf or .png).

A path, the paper and the theme; Enter writes the page (``export.export_board``, in a
thread: a PDF takes a few tenths of a second) and the dialog closes with what it did to
say on the status line. A problem (an unknown extension, no such folder) shows in the
dialog, which stays open.
"""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Select, Static

from ..core.board import Board
from ..export import PAPERS, THEMES, ExportError, PageOptions, export_board
from .dialog import Dialog
from .studio_dialogs import DIALOG_CSS


class ExportScreen(Dialog[str | None]):
    """Ask where to write the page; dismisses with the status line's words (None: cancelled)."""

    CSS_PATH = DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, board: Board, suggestion: str) -> None:
        super().__init__()
        self.board = board
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="export"):
            yield Static("Export a printable page", classes="dialog-title")
            yield Input(self.suggestion, placeholder="board.pdf", id="export-path")
            with Horizontal(classes="field"):
                paper = [(name.upper() if name == "a4" else name, name) for name in PAPERS]
                yield Select(paper, value="a4", allow_blank=False, id="export-paper")
                theme = [(name, name) for name in THEMES]
                yield Select(theme, value="print", allow_blank=False, id="export-theme")
            yield Static("", id="save-error", markup=False)
            yield Static(
                "Enter writes the page, Escape cancels. The extension picks the format: "
                ".pdf, .png or .svg.",
                classes="dialog-hint",
            )

    @on(Input.Submitted, "#export-path")
    def _submitted(self, event: Input.Submitted) -> None:
        paper = self.query_one("#export-paper", Select).value
        theme = self.query_one("#export-theme", Select).value
        options = PageOptions(paper=str(paper), theme=str(theme))
        self._export(Path(event.value.strip()).expanduser(), options)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, path: Path, options: PageOptions) -> None:
        try:
            fmt = export_board(self.board, path, options)
        except ExportError as error:
            self.app.call_from_thread(self._failed, str(error))
            return
        self.app.call_from_thread(self.dismiss, f"Exported {path} ({fmt.upper()}).")

    def _failed(self, message: str) -> None:
        label = self.query_one("#save-error", Static)
        label.update(message)
        label.add_class("-shown")

    def action_cancel(self) -> None:
        self.dismiss(None)
