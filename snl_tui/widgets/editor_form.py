"""The editor's side form: a field for the name, the description, the size and each rule,
and the board's values put back in them (after an undo or a refused edit)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Select

from ..core.board import Board
from ..core.rules import RULE_OPTIONS
from ..core.studio.edit import Edit, Resize, SetDescription, SetName
from ..core.text import parse_whole

ON_OFF: dict[object, str] = {True: "on", False: "off"}


def form_fields(board: Board) -> ComposeResult:
    """The form's fields, holding ``board``'s values (ids ``f-name``, ``f-rows``, and
    ``f-`` and the rule's name for each rule)."""
    rules = board.rules

    def field(label: str, widget: Input | Select[object]) -> Horizontal:
        return Horizontal(Label(label, classes="field-label"), widget, classes="field")

    yield field("Name", Input(board.name, id="f-name", compact=True))
    yield field("Description", Input(board.description, id="f-description", compact=True))
    yield field("Rows", Input(str(board.rows), id="f-rows", type="integer", compact=True))
    yield field("Columns", Input(str(board.cols), id="f-cols", type="integer", compact=True))
    for option in RULE_OPTIONS:  # one field per rule, from the rules' one source
        widget_id = f"f-{option.name}"
        value = getattr(rules, option.name)
        # Every option is a choice written out ("on"/"off" for the switches): its state
        # reads as text, in a screen capture and without colours.
        labels = ON_OFF if option.kind is bool else option.value_labels
        choices = [(labels.get(v, str(v)), v) for v in option.values]
        select: Select[object] = Select(
            choices, value=value, allow_blank=False, id=widget_id, compact=True
        )
        select.tooltip = option.help
        yield field(option.label, select)


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

    def show(self, board: Board) -> None:
        """Put ``board``'s values in the fields that differ (setting a field's value
        posts a change only when it changes)."""
        values: dict[str, object] = {
            "f-name": board.name,
            "f-description": board.description,
            "f-rows": str(board.rows),
            "f-cols": str(board.cols),
        }
        for widget_id, value in values.items():
            field = self.query_one(f"#{widget_id}", Input)
            if field.value != value:
                field.value = str(value)
        for option in RULE_OPTIONS:
            value = getattr(board.rules, option.name)
            select = self.query_one(f"#f-{option.name}", Select)
            if select.value != value:
                select.value = value

    def edit_asked(self, field: Input, board: Board) -> Edit | str | None:
        """The edit ``field`` asks of ``board`` (None: its value is the board's), or why
        none can be made (a size that is not a whole number)."""
        value = field.value
        if field.id == "f-name" and value != board.name:
            return SetName(value)
        if field.id == "f-description" and value != board.description:
            return SetDescription(value)
        if field.id in ("f-rows", "f-cols"):
            rows_text = self.query_one("#f-rows", Input).value.strip()
            cols_text = self.query_one("#f-cols", Input).value.strip()
            rows_value, cols_value = parse_whole(rows_text), parse_whole(cols_text)
            if rows_value is None or cols_value is None:
                return "Refused: rows and columns must be whole numbers"
            rows, cols = rows_value, cols_value
            if (rows, cols) != (board.rows, board.cols):
                return Resize(rows, cols)
        return None


__all__ = ["EditorForm", "form_fields"]
