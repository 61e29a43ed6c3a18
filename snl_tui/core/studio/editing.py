"""One board being edited: its edits with undo, its file, and whether it has changes.

The editor screen (``screens/editor_display.py``) and the line editor of plain mode
(``plain/edit.py``) each hold one ``EditingSession``: what the board is now, what
"unsaved changes" means and what a save remembers are said here once. No Textual here.
"""

from __future__ import annotations

from pathlib import Path

from ..board import Board
from .board_file import BoardSource, save_board
from .edit import Edit, History


def content(board: Board) -> tuple[object, ...]:
    """What saving writes (``Board ==`` leaves out the name and the description)."""
    return (board, board.name, board.description)


class EditingSession:
    """The board being edited (``history.current``), where it lives, and what its file
    holds: ``dirty`` while they differ."""

    def __init__(self, board: Board, source: BoardSource | None = None) -> None:
        self.history = History(board)
        self.source = source or BoardSource()
        self.saved = content(board)
        """What the file holds (a new board: what it was opened as)."""

    @property
    def board(self) -> Board:
        return self.history.current

    @property
    def dirty(self) -> bool:
        return content(self.board) != self.saved

    def apply(self, edit: Edit) -> Board:
        """Apply ``edit``; raises BoardError (and keeps the board) when it is refused."""
        return self.history.apply(edit)

    def write(self, path: Path, fmt: str) -> None:
        """Save the board to ``path`` in ``fmt`` (atomically): it is the file now, with
        no changes. Raises BoardError or OSError, and then nothing changes."""
        board = self.board
        stamp = save_board(board, path, fmt)
        self.source = BoardSource(path, fmt, stamp=stamp)
        self.saved = content(board)


__all__ = ["EditingSession", "content"]
