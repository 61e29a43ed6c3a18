"""The learn screen's code: the textbook search, the lines of the current step marked
with ``▶`` and highlighted."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual.widgets import Static

CURRENT = "▶ "


class CodePanel(Static):
    """Lines of code, some of them current."""

    COMPONENT_CLASSES = {"code--current"}

    def __init__(self, lines: Sequence[str], **kwargs: str | None) -> None:
        super().__init__("", markup=False, **kwargs)  # type: ignore[arg-type]
        self.lines = tuple(lines)
        self.current: tuple[int, ...] = ()

    def on_mount(self) -> None:
        self.show_lines(self.current)

    def show_lines(self, current: Collection[int]) -> None:
        """Highlight the lines at these indices."""
        self.current = tuple(sorted(current))
        if not self.is_mounted:
            return
        style = self.get_component_rich_style("code--current")
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, line in enumerate(self.lines):
            if index:
                text.append("\n")
            if index in self.current:
                text.append(CURRENT + line, style)
            else:
                text.append("  " + line)
        self.update(text)
