"""Printable boards: a board as an SVG, PDF or PNG page (``snl export``, the editor's Export).

The SVG is written here directly (``svg.board_svg``); PDF and PNG are that same SVG
rendered by CairoSVG (which needs the system's cairo library), so the three always show
the same page. A file is written atomically (``core.files.disk``: a temporary file in the target's
folder, then a rename, with the user's umask); a failure leaves nothing behind. No Textual here.
"""

from __future__ import annotations

from pathlib import Path

from ..core.board import Board
from ..core.errors import SnlError
from ..core.files.disk import write_atomically
from ..core.limits import BoardTooLarge, check_printable
from ..core.text import quote
from .svg import PAPERS, THEMES, PageOptions, board_svg

__all__ = ["EXPORT_SUFFIXES", "PAPERS", "THEMES", "ExportError", "PageOptions", "export_board"]

EXPORT_SUFFIXES = (".svg", ".pdf", ".png")
PNG_DPI = 150
"""Pixels per inch of a PNG page (A4: 1240 x 1754 pixels)."""


class ExportError(SnlError):
    """A page that cannot be written: a bad name, a missing folder, no cairo."""


def export_format(path: Path) -> str:
    """'svg', 'pdf' or 'png' by ``path``'s extension; ExportError for any other."""
    suffix = path.suffix.lower()
    if suffix not in EXPORT_SUFFIXES:
        shown = quote(suffix) if suffix else "no extension"
        raise ExportError(f"{quote(str(path))}: cannot export to {shown}: use .svg, .pdf or .png")
    return suffix[1:]


def page_bytes(board: Board, fmt: str, options: PageOptions) -> bytes:
    """The page in ``fmt`` ('svg', 'pdf' or 'png')."""
    svg = board_svg(board, options)
    if fmt == "svg":
        return svg.encode("utf-8")
    try:
        import cairosvg  # type: ignore[import-untyped,unused-ignore]
    except (ImportError, OSError) as error:  # OSError: the cairo library is missing
        raise ExportError(
            f"{fmt.upper()} export needs CairoSVG and the cairo library "
            f"({error}); .svg works without them"
        ) from None
    if fmt == "pdf":
        data = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
    else:
        data = cairosvg.svg2png(
            bytestring=svg.encode("utf-8"), dpi=PNG_DPI, background_color="white"
        )
    assert isinstance(data, bytes)
    return data


def export_board(board: Board, path: Path, options: PageOptions | None = None) -> str:
    """Write ``board``'s page to ``path`` (its format by extension); returns the format.

    Every problem is an ExportError with one line for a person; no file is left behind.
    """
    fmt = export_format(path)
    folder = path.parent
    if not folder.is_dir():
        raise ExportError(f"{quote(str(path))}: there is no folder {quote(str(folder))}")
    if path.is_dir():
        raise ExportError(f"{quote(str(path))} is a folder")
    try:
        check_printable(board)  # before drawing: 1000 x 1000 took gigabytes, then failed
    except BoardTooLarge as error:
        raise ExportError(error.message) from None
    data = page_bytes(board, fmt, options or PageOptions())
    try:
        write_atomically(path, data)
    except OSError as error:
        raise ExportError(f"{quote(str(path))}: cannot write: {error.strerror or error}") from None
    return fmt
