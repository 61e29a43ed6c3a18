"""How large a board each command takes, in one place (issue 36, item 10).

A board file may describe up to 1000 x 1000 squares with a jump on every tenth (SPEC 2's
largest). Reading it, checking its rules, solving it and its expected length stay within
seconds at that size; some work grows faster than the board and would take minutes or
gigabytes there. Each such command either answers within these bounds or refuses at once
with one line saying the bound (``docs/security.md`` lists them with what they cost):

* ``snl play``, ``resume``, ``replay``, ``edit``, ``serve``, ``host`` and the game's Load
  dialog: boards of at most ``PLAY_MAX_SQUARES`` squares (the game draws, solves and
  analyses the board after every move, and keeps the odds for its panels).
* ``snl export`` (and the editor's Export): at most ``EXPORT_MAX_SQUARES`` (a printed
  page of more squares has numbers no one can read; drawing them took gigabytes).
* ``snl check``: the board's own checks for every board; the checks that follow random
  play (jumps that never fire, traps) up to ``CHECK_ODDS_MAX_SQUARES``; what each jump
  does to the game's length while jumps x squares is at most ``CHECK_IMPACTS_MAX_WORK``.
  Past them it says what it left out, in a note, and why.

No Textual here: the command line and the screens ask the same functions.
"""

from __future__ import annotations

from .board import Board
from .errors import BoardError

PLAY_MAX_SQUARES = 100 * 100
"""The largest board the game opens (100 x 100 = 10,000 squares; rooms keep to the same
size). What larger boards cost is in ``docs/security.md`` (``benchmarks/huge_boards.py``)."""
EXPORT_MAX_SQUARES = 100 * 100
"""The largest board printed on one page (100 x 100: a square about 2 mm wide on A4)."""
CHECK_ODDS_MAX_SQUARES = 200 * 200
"""The largest board ``snl check`` follows random play on (jumps that never fire, traps)."""
CHECK_IMPACTS_MAX_WORK = 5_000_000
"""Jumps x squares up to which ``snl check`` works out what each jump does (each jump is
a pass over the whole board and keeps rows of the inverse: 500 jumps on 100 x 100)."""
CHECK_DRAWING_MAX_SQUARES = 12 * 12
CHECK_DRAWING_MAX_JUMPS = 40
"""The largest board whose drawing ``snl check`` (and so the editor and the generator,
which returns no board ``check`` warns about) routes to find what it still hides. The
routing tries every curve of every jump against the numbers and ends near it: past this
size a check takes seconds, and on the generator's dense boards (a 20 x 20 board has
about 45 jumps, many of them long) some number is always crossed, so the generator
would find no board at all."""


class BoardTooLarge(BoardError):
    """A board larger than what the command takes (the message says the bound)."""


def check_playable(board: Board, doing: str = "to play") -> None:
    """Raise ``BoardTooLarge`` when the game (or the editor: ``doing="to edit"``) cannot
    open ``board`` within its bounds."""
    check_size(board.rows, board.cols, PLAY_MAX_SQUARES, doing)


def check_printable(board: Board) -> None:
    """Raise ``BoardTooLarge`` when ``board`` is too large for a printed page."""
    check_size(board.rows, board.cols, EXPORT_MAX_SQUARES, "for a printed page")


def check_odds_fits(board: Board) -> bool:
    """Whether ``snl check`` follows random play on ``board``."""
    return board.goal <= CHECK_ODDS_MAX_SQUARES


def check_drawing_fits(board: Board) -> bool:
    """Whether ``snl check`` routes the board's drawing (``CHECK_DRAWING_MAX_*``)."""
    return board.goal <= CHECK_DRAWING_MAX_SQUARES and len(board.jumps) <= CHECK_DRAWING_MAX_JUMPS


def check_impacts_fit(board: Board) -> bool:
    """Whether ``snl check`` works out what each of ``board``'s jumps does."""
    return len(board.jumps) * board.goal <= CHECK_IMPACTS_MAX_WORK


def check_size(rows: int, cols: int, most: int, doing: str) -> None:
    """Raise ``BoardTooLarge`` when a ``rows`` x ``cols`` board has more than ``most``
    squares, in the words every command uses ("the board is too large to play: ...";
    the studio asks before it makes such a board: ``doing="to edit"``, "to generate")."""
    if rows * cols > most:
        raise BoardTooLarge(
            f"the board is too large {doing}: {_size_text(rows, cols)} "
            f"(at most {most:,} squares, such as {_side(most)} x {_side(most)})"
        )


def size_text(board: Board) -> str:
    """'1000 x 1000 = 1,000,000 squares'."""
    return _size_text(board.rows, board.cols)


def _size_text(rows: int, cols: int) -> str:
    return f"{rows} x {cols} = {rows * cols:,} squares"


def _side(squares: int) -> int:
    return int(squares**0.5)


__all__ = [
    "CHECK_IMPACTS_MAX_WORK",
    "CHECK_ODDS_MAX_SQUARES",
    "EXPORT_MAX_SQUARES",
    "PLAY_MAX_SQUARES",
    "BoardTooLarge",
    "check_impacts_fit",
    "check_odds_fits",
    "check_playable",
    "check_printable",
    "check_size",
    "size_text",
]
