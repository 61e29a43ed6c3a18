"""Where an edited board comes from and goes to: opening, formats by file, atomic saves.

The board editor (``snl edit``) opens a board file, a built-in board (read-only: saving
asks for a path) or a path that does not exist yet (a new empty board). It saves in the
file's own format (a ``.json`` file keeps being a LeetCode matrix or a board document,
whichever it was), atomically (``files.disk.write_atomically``: the user's umask, a
temporary file in the same folder, then a rename),
and remembers the file's modification time and size so that a file changed on disk since
it was opened is not overwritten without asking. No Textual here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..board import Board
from ..errors import BoardError
from ..files.disk import write_atomically
from ..files.formats import builtin_names, dump_board, load_board, load_board_to_fix
from ..files.json_board import lost_in_matrix
from ..files.share import looks_like_code
from ..text import plural
from .edit import empty_board

SAVE_FORMATS = {".toml": "toml", ".json": "json", ".txt": "txt"}
DEFAULT_SIZE = 10

Stamp = tuple[int, int]
"""(modification time in ns, size in bytes) of a file as last read or written."""


@dataclass(frozen=True)
class BoardSource:
    """Where the board being edited lives: ``path`` None means nowhere yet."""

    path: Path | None = None
    fmt: str | None = None
    """The format to save in (toml, json, matrix or txt)."""
    builtin: str | None = None
    """The built-in board it is a copy of (read-only: saving asks for a path)."""
    stamp: Stamp | None = None
    """The file's stamp when it was opened or last saved; None when there was no file."""
    left_out: tuple[str, ...] = ()
    """Jumps of the file that broke the board rules and were left out when it was opened
    (one line each, with the reason): saving asks first, since the file still has them."""

    @property
    def label(self) -> str:
        if self.path is not None:
            return str(self.path)
        if self.builtin is not None:
            return f"built-in board {self.builtin!r} (read-only)"
        return "not saved yet"


def format_for(path: Path, text: str | None = None) -> str:
    """The format a file is saved in: by its extension; a ``.json`` holding a list of
    rows stays a LeetCode matrix. Other extensions raise BoardError."""
    fmt = SAVE_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(SAVE_FORMATS)
        raise BoardError(
            f"cannot save a board as {path.suffix or 'a file without an extension'} (use {known})",
            source=str(path),
        )
    if fmt == "json" and text is not None and text.lstrip("\ufeff \t\r\n").startswith("["):
        return "matrix"
    return fmt


def file_stamp(path: Path) -> Stamp | None:
    """The file's (mtime_ns, size), or None when there is no such file."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def changed_on_disk(source: BoardSource) -> bool:
    """Whether the file was changed (or created, or deleted) since it was read or saved."""
    if source.path is None:
        return False
    return file_stamp(source.path) != source.stamp


def open_for_editing(
    spec: str | None, rows: int | None = None, cols: int | None = None
) -> tuple[Board, BoardSource, str | None]:
    """The board to edit, where it lives, and a note for the designer (or None).

    ``spec`` is a board file, a built-in board's name, a share code, a path that does not
    exist yet (a new empty ``rows`` x ``cols`` board named after the file), or None (a new
    board not saved anywhere). Bad files, and paths the system refuses (a name too long, a
    folder that cannot be read), raise BoardError with one line.
    """
    try:
        return _open_for_editing(spec, rows, cols)
    except OSError as error:
        raise BoardError(f"cannot use this path: {error.strerror or error}", source=spec) from None


def _open_for_editing(
    spec: str | None, rows: int | None = None, cols: int | None = None
) -> tuple[Board, BoardSource, str | None]:
    """The work of ``open_for_editing`` (which adds the paths the system refuses)."""
    size_given = rows is not None or cols is not None
    rows = DEFAULT_SIZE if rows is None else rows
    cols = rows if cols is None else cols
    if spec is None:
        return empty_board(rows, cols), BoardSource(), None
    path = Path(spec).expanduser()
    if looks_like_code(spec) and not os.path.lexists(spec):  # shared: saving asks where
        return load_board(spec), BoardSource(), None
    if spec in builtin_names() and not path.exists():
        return load_board(spec), BoardSource(builtin=spec), None
    if path.exists():
        if path.is_dir():
            raise BoardError("is a directory, not a board file", source=spec)
        board, left_out = load_board_to_fix(path)
        text = path.read_text(encoding="utf-8-sig")
        fmt = format_for(path, text)
        source = BoardSource(path, fmt, stamp=file_stamp(path), left_out=tuple(left_out))
        note = None
        if left_out:
            note = (
                f"{spec} breaks the board rules; opened without "
                f"{plural(len(left_out), 'jump')} to fix: " + "; ".join(left_out)
            )
        if size_given and (rows, cols) != (board.rows, board.cols):
            note = (
                f"{spec} exists: opened as it is ({board.rows}x{board.cols}); "
                "--size applies to new boards only."
            )
        return board, source, note
    fmt = format_for(path)
    if not path.parent.exists():
        raise BoardError(f"there is no folder {path.parent}", source=spec)
    return empty_board(rows, cols, name=path.stem), BoardSource(path, fmt), None


def save_board(board: Board, path: Path, fmt: str) -> Stamp | None:
    """Save ``board`` to ``path`` in ``fmt``; returns the new file's stamp.

    A LeetCode matrix holds no rules: saving rules into one is refused (BoardError), not
    done silently.
    """
    if fmt == "matrix":
        lost = lost_in_matrix(board)
        if lost:
            options = ", ".join(f"{key}={value}" for key, value in lost.items())
            raise BoardError(
                f"a LeetCode matrix cannot hold the rules ({options}): save as .toml instead",
                source=str(path),
            )
    write_atomically(path, dump_board(board, fmt))
    return file_stamp(path)
