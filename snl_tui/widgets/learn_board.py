"""The learn screen's board: the game's board drawing with the search on it.

Each square the search has reached shows its distance (``»2``: reached in two rolls);
the square being expanded carries ``@``, the square the die landed on ``+``, and, for a
judged solution, the squares its answer could come from ``?``. Colours repeat it: the
squares in the queue, the one being expanded, the one where the move ended, the start of
a jump a move did not take (one jump per move) and the route read back.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rich.style import Style

from ..core.board import Board
from .board import BoardView
from .board_text import EMPTY, LADDER, LADDER_END, ROUTE_MARK, SNAKE, SNAKE_END, CellState

MARKS = ("queued", "expanding", "ended", "one-jump", "route", "suspect")
"""The search's marks, in the order they are laid over a square (the last wins)."""
HERE, LANDED, SUSPECT = 0, 1, 2
"""The 'seats' whose letters mark squares: the square expanded, landed on, suspected."""
LETTERS = ("@", "+", "?")


class LearnBoard(BoardView):
    """The board with distances, the queue, the square being expanded and the route."""

    COMPONENT_CLASSES = {f"learn--{mark}" for mark in MARKS}
    LEGEND: tuple[str, ...] = (
        f"{LADDER} ladder",
        f"{SNAKE} snake",
        f"{LADDER_END}{SNAKE_END} jump ends",
        f"{ROUTE_MARK}n reached in n rolls",
        "@ expanded",
        "+ landed",
        "? your answer",
    )
    marks: dict[int, str] = {}  # replaced, never changed in place (show_search)

    def __init__(self, board: Board, *, judged: bool = False, id: str | None = None) -> None:
        """``judged``: a judged solution's squares are shown too (the legend says ``?``)."""
        if not judged:  # read by the layout, which BoardView's __init__ makes
            self.LEGEND = self.LEGEND[:-1]
        super().__init__(board, letters=LETTERS, id=id)

    def show_search(
        self,
        distances: Mapping[int, int],
        marks: Mapping[int, str],
        here: int | None = None,
        landed: int | None = None,
        suspects: Collection[int] = (),
    ) -> None:
        """Draw one state of the search; repaints only the squares that changed."""
        tokens: dict[int, list[int]] = {}
        for seat, square in ((HERE, here), (LANDED, landed)):
            if square is not None and square > 0:
                tokens.setdefault(square, []).append(seat)
        for square in suspects:
            tokens.setdefault(square, []).append(SUSPECT)
        states = {
            square: CellState(tuple(tokens.get(square, ())), distances.get(square))
            for square in (distances.keys() | tokens.keys())
            if square > 0
        }
        changed = {
            square
            for square in states.keys() | self.cell_states.keys()
            if states.get(square, EMPTY) != self.cell_states.get(square, EMPTY)
        }
        changed |= {
            s for s in marks.keys() | self.marks.keys() if marks.get(s) != self.marks.get(s)
        }
        self.cell_states = states
        self.off_board = (HERE,) if here == 0 else ()
        self.current_seat = None
        self.marks = dict(marks)
        self.refresh_squares(changed)

    def decorate_square(self, square: int, base: Style) -> Style:
        mark = self.marks.get(square)
        if mark is not None:
            base = base + self.component_style(f"learn--{mark}", partial=True)
        return base
