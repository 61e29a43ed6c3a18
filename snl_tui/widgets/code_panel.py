"""The learn screen's code: the textbook search, the lines of the current step marked
with ``▶`` and highlighted. Where the panel is narrower than the code, indents are
halved before anything is cut."""

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

    def on_resize(self) -> None:
        self.show_lines(self.current)

    def fitted(self) -> tuple[str, ...]:
        """The lines, with halved indents when they would not fit the panel."""
        room = self.size.width - len(CURRENT)
        if not self.size.width or max(map(len, self.lines), default=0) <= room:
            return self.lines
        return tuple(
            " " * ((len(line) - len(line.lstrip(" "))) // 2) + line.lstrip(" ")
            for line in self.lines
        )

    def show_lines(self, current: Collection[int]) -> None:
        """Highlight the lines at these indices."""
        self.current = tuple(sorted(current))
        if not self.is_mounted:
            return
        style = self.get_component_rich_style("code--current")
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, line in enumerate(self.fitted()):
            if index:
                text.append("\n")
            if index in self.current:
                text.append(CURRENT + line, style)
            else:
                text.append("  " + line)
        self.update(text)
