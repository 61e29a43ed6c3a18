"""The editor's board: the game's board (as characters or a picture: its renderer) with a
cursor, the start of a jump being made and the heat map, and the editor's keys, which it
turns into messages for the editor screen (it never calls up into it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from textual import events
from textual.binding import Binding

from ..messages import CursorMoveRequested, JumpKeyPressed, RemoveKeyPressed, SquareClicked
from .board import LEGEND_ITEMS, BoardView
from .board_text import ROUTE_MARK

if TYPE_CHECKING:
    from ..export.picture import Marks

HEAT_SHADES = 4
"""How many shades the editor's heat map uses (``board--heat-1`` .. ``-4``)."""
EDITOR_COMPONENT_CLASSES = {
    "board--cursor",
    "board--mark",
    "board--locked",
    *(f"board--heat-{shade}" for shade in range(1, HEAT_SHADES + 1)),
}
"""The styles of the editor's marks, declared by the editor's board only."""


class EditBoard(BoardView):
    """The board with the editor's keys (the cursor, jumps, a click to move) and its
    marks: the cursor square, the start of a jump being made, the heat map."""

    COMPONENT_CLASSES = EDITOR_COMPONENT_CLASSES  # with BoardView's: Textual merges them

    cursor: int | None = None
    """The cursor square (drawn reversed)."""
    mark: int | None = None
    """Where the jump being made starts (None: no jump is being made)."""
    heat: dict[int, int] = {}  # replaced, never changed in place (show_editing)
    """The heat map: square -> shade 1..HEAT_SHADES (absent: not shaded)."""
    locked: frozenset[int] = frozenset()
    """Starts of the jumps locked for the generator (underlined: not by colour alone)."""
    LEGEND = tuple(item for item in LEGEND_ITEMS if not item.startswith(ROUTE_MARK))
    BINDINGS = [
        Binding("up", "cursor(0, -1)", "Up", show=False),
        Binding("down", "cursor(0, 1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("enter", "jump", "Jump"),
        Binding("x,delete", "remove", "Remove"),
    ]

    # Messages, not calls: the board says what was asked, the editor screen decides.

    def action_cursor(self, dx: int, dy: int) -> None:
        self.post_message(CursorMoveRequested(dx, dy))

    def action_jump(self) -> None:
        self.post_message(JumpKeyPressed())

    def action_remove(self) -> None:
        self.post_message(RemoveKeyPressed())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        square = self.square_at_offset(offset.x, offset.y)
        if square is not None:
            self.post_message(SquareClicked(square))

    def show_editing(
        self,
        cursor: int | None,
        mark: int | None = None,
        heat: dict[int, int] | None = None,
        locked: frozenset[int] = frozenset(),
    ) -> None:
        """Draw the cursor, the start of a jump being made, the heat map and the locked
        jumps; repaints only the rows whose squares changed."""
        heat = heat or {}
        changed: set[int | None] = {self.cursor, cursor, self.mark, mark}
        changed |= {s for s in heat.keys() | self.heat.keys() if heat.get(s) != self.heat.get(s)}
        changed |= set(locked ^ self.locked)
        self.cursor, self.mark, self.heat = cursor, mark, dict(heat)
        self.locked = locked
        self.refresh_squares(changed)

    def decorate_square(self, square: int, base: Style) -> Style:
        if square in self.locked:
            base = base + self.component_style("board--locked", partial=True)
        shade = self.heat.get(square)
        if shade is not None:
            base = base + self.component_style(f"board--heat-{shade}", partial=True)
        if square == self.mark:
            base = base + self.component_style("board--mark", partial=True)
        if square == self.cursor:
            base = base + self.component_style("board--cursor", partial=True)
        return base

    def decorate_marks(self, marks: Marks) -> Marks:
        from dataclasses import replace

        heat = {square: shade / HEAT_SHADES for square, shade in self.heat.items()}
        pending = (self.mark, self.cursor or self.mark) if self.mark is not None else None
        return replace(marks, cursor=self.cursor, heat=heat, pending=pending)
