"""The editor's side form (its fields laid out by the editor screen)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll


class EditorForm(VerticalScroll, can_focus=False):
    """The side form. Not focusable itself (a scroll container is by default): the
    first Tab from the board lands in the Name field, where letters are typed, not taken
    as the board's commands. The field being edited carries ``-editing`` (its label is
    then reversed: visible in every theme and colour depth)."""

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.call_after_refresh(self.mark_editing)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.call_after_refresh(self.mark_editing)

    def mark_editing(self) -> None:
        for field in self.query(".field"):
            field.set_class(field.has_focus_within, "-editing")


__all__ = ["EditorForm"]
