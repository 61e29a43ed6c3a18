"""A yes/no question before something that cannot be taken back (replacing a game).

A ``ModalScreen[bool]``: True for yes (Enter or ``y``), False for no (Escape or ``n``).
It dismisses once: a second Enter before the dialog is gone does nothing.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from .dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    """Asks ``question``; the yes button has the focus."""

    CSS_PATH = "dialogs.tcss"
    AUTO_FOCUS = "#yes"

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm", classes="dialog"):
            yield Label(self.question, classes="dialog-title", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="primary")
                yield Button("No (n)", id="no")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)  # once: Dialog ignores a second key before it is gone

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "yes")
