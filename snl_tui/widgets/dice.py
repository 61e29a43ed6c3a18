"""The die face (pips for values up to 6, the number for bigger dice), the box for die
values without a key of their own, and the row of die values to click in a puzzle."""

from __future__ import annotations

from rich.text import Text
from textual.events import Key
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input

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
    """The last die value rolled or chosen."""

    COMPONENT_CLASSES = {"dice--face"}

    value: reactive[int | None] = reactive(None)
    faces: reactive[int] = reactive(6)

    def render(self) -> Text:
        style = self.get_component_rich_style("dice--face")
        return Text("\n".join(face_lines(self.value, self.faces)), style=style, no_wrap=True)


class DieInput(Input):
    """The box for a die value over 9: it takes digits only, so every other key still
    reaches the game (and the footer, which hides the keys a focused widget would eat,
    keeps showing them)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()

    def on_key(self, event: Key) -> None:
        if event.is_printable and not (event.character or "").isdigit():
            event.prevent_default()  # not typed here: it bubbles on to the game's keys
