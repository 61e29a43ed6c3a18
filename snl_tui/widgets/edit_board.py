"""The editor's board: the game's board drawing plus a cursor, a pending jump and a heat map.

``EditBoard`` holds the editor's own drawing state (``cursor``, ``mark``, ``heat``) and
reports the keys and clicks meant for the board as messages; the editor screen decides
what they do (it owns the board being edited and its history).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.message import Message

from ..core.board import Board
from .board import LEGEND_ITEMS, ROUTE_MARK, BoardView

HEAT_SHADES = 4
"""How many shades the heat map uses (``board--heat-1`` .. ``-4``)."""


class EditBoard(BoardView):
    """The board with the editor's keys: the cursor, jumps, and a click to move."""

    COMPONENT_CLASSES = {  # with BoardView's: Textual merges them
        "board--cursor",
        "board--mark",
        *(f"board--heat-{shade}" for shade in range(1, HEAT_SHADES + 1)),
    }
    LEGEND = tuple(item for item in LEGEND_ITEMS if not item.startswith(ROUTE_MARK))
    BINDINGS = [
        Binding("up", "cursor(0, -1)", "Up", show=False),
        Binding("down", "cursor(0, 1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("enter", "jump", "Jump"),
        Binding("x,delete", "remove", "Remove"),
    ]

    @dataclass
    class CursorMoved(Message):
        """An arrow key: move the cursor by (dx, dy) on screen (up is the row above)."""

        dx: int
        dy: int

    @dataclass
    class SquareClicked(Message):
        """A click on ``square``: put the cursor there."""

        square: int

    class JumpKey(Message):
        """``enter``: start, end or pick up a jump at the cursor."""

    class RemoveKey(Message):
        """``x``: remove the jump at the cursor."""

    def __init__(self, board: Board, *, id: str | None = None) -> None:
        super().__init__(board, letters=(), id=id)
        self.cursor: int | None = None
        """The cursor's square (drawn reversed)."""
        self.mark: int | None = None
        """The pending jump's start (where ``enter`` began a jump)."""
        self.heat: dict[int, int] = {}
        """The heat map: square -> shade 1..HEAT_SHADES (absent: not shaded)."""

    def show_editing(
        self, cursor: int | None, mark: int | None = None, heat: dict[int, int] | None = None
    ) -> None:
        """Draw the cursor, the start of a jump being made and the heat map; repaints
        only the rows whose squares changed."""
        heat = heat or {}
        changed = {self.cursor, cursor, self.mark, mark}
        changed |= {s for s in heat.keys() | self.heat.keys() if heat.get(s) != self.heat.get(s)}
        self.cursor, self.mark, self.heat = cursor, mark, dict(heat)
        self.invalidate_squares(changed)

    def square_style(self, square: int, base: Style) -> Style:
        shade = self.heat.get(square)
        if shade is not None:
            base = base + self.component_style(f"board--heat-{shade}", partial=True)
        if square == self.mark:
            base = base + self.component_style("board--mark", partial=True)
        if square == self.cursor:
            base = base + self.component_style("board--cursor", partial=True)
        return base

    def action_cursor(self, dx: int, dy: int) -> None:
        self.post_message(self.CursorMoved(dx, dy))

    def action_jump(self) -> None:
        self.post_message(self.JumpKey())

    def action_remove(self) -> None:
        self.post_message(self.RemoveKey())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        square = self.square_at_offset(offset.x, offset.y)
        if square is not None:
            self.post_message(self.SquareClicked(square))
