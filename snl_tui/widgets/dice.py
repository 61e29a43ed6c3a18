"""The die face (pips for values up to 6, the number for bigger dice), the box for die
values without a key of their own, the row of die values to click in a puzzle, and the
status line beside the die."""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from textual.events import Key
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, Static

from ..commands import keys_of
from ..core.engine import PASS, Game
from ..core.session import GameSession

COMPUTING = "Computing…"
"""What a panel says while a worker finds its figures."""

PIP = "●"
# Which of the 3x3 pip slots (row-major) are lit for each value.
PIPS: dict[int, tuple[int, ...]] = {
    1: (4,),
    2: (0, 8),
    3: (0, 4, 8),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}


def face_lines(value: int | None, faces: int = 6) -> list[str]:
    """The five lines of a die face showing ``value`` (blank when None)."""
    inner: list[str]
    if value is None:
        inner = ["       ", "   ?   ", "       "]
    elif faces <= 6 and value in PIPS:
        lit = PIPS[value]
        inner = [
            " " + " ".join(PIP if row * 3 + col in lit else " " for col in range(3)) + " "
            for row in range(3)
        ]
    else:
        inner = ["       ", f"{value:^7}", "       "]
    return ["┌───────┐", *(f"│{line}│" for line in inner), "└───────┘"]


class DiceFace(Widget):
    """The last die value rolled or chosen.

    Drawn line by line (``render_line``) from strips made once per face: a move repaints
    the die's five lines without building, wrapping and styling a text again."""

    COMPONENT_CLASSES = {"dice--face"}

    value: reactive[int | None] = reactive(None)
    faces: reactive[int] = reactive(6)

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.face_strips: dict[tuple[int | None, int, int], list[Strip]] = {}
        """The lines of each face drawn so far, by (value, faces, width)."""

    def update_from(self, game: Game) -> None:
        """This game's die, on the last move's value (none before the first move)."""
        self.faces = game.board.rules.faces
        self.value = game.history[-1].move.die if game.history else None

    def validate_value(self, value: int | None) -> int | None:
        """A passed turn (a skipped seat in a room: the engine's ``PASS``, 0) rolled no
        die: none is shown."""
        return None if value == PASS else value

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.face_strips.clear()  # a theme or a class changed: the colours may have

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return len(face_lines(None)[0])

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(face_lines(None))

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        key = (self.value, self.faces, width)
        strips = self.face_strips.get(key)
        if strips is None:
            base = self.rich_style
            style = base + self.get_component_rich_style("dice--face")
            strips = self.face_strips[key] = [
                Strip([Segment(line, style)]).crop_extend(0, width, base)
                for line in face_lines(self.value, self.faces)
            ]
        return strips[y] if y < len(strips) else Strip.blank(width, self.rich_style)


class DieInput(Input):
    """The box for a die value over 9: it takes digits only, so every other key still
    reaches the game (and the footer, which hides the keys a focused widget would eat,
    keeps showing them)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()

    def on_key(self, event: Key) -> None:
        if event.is_printable and not (event.character or "").isdigit():
            event.prevent_default()  # not typed here: it bubbles on to the game's keys


class DieValues(Static):
    """Puzzle mode: the legal die values as links that play them when clicked (the
    screen's ``pick``); hidden when there are none."""

    def show(self, legal: Sequence[int]) -> None:
        self.display = bool(legal)
        links = " ".join(f"[@click=screen.pick({die})]{die}[/]" for die in legal)
        text = f"Play: {links}" if legal else ""
        if self.content != text:  # one line high: never a new layout
            self.update(text, layout=False)

    def update_from(self, session: GameSession) -> None:
        """The die values legal now in ``session``'s puzzle (none in classic mode)."""
        self.show(session.game.legal_dice() if session.puzzle else ())


class StatusLine(Static):
    """The game's status line, beside the die: what happened, whose turn, or an error
    (``-error``: a refusal, a warning, the room's words)."""

    def say(self, message: str, *, error: bool = False) -> None:
        self.set_class(error, "-error")
        if self.content != message:  # a fixed height (snl.tcss): never a new layout
            self.update(message, layout=False)

    def update_from(self, session: GameSession, *, ready: bool, table_says: str | None) -> None:
        """What ``session`` says now (what happened, whose turn), or ``table_says`` (a
        room's words) as an error; ``ready``: the solver has answered for the board (a
        puzzle is judged by its optimum: until then the line says it is computing)."""
        if table_says is not None:
            self.say(table_says, error=True)
        elif session.puzzle and not ready:
            self.say(f"{COMPUTING} (the puzzle's optimum)")
        else:
            self.say(session.status(keys_of))
