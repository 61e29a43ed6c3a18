"""The board editor's dialogs: a question with a few answers, "save as", and the keys.

``ChoiceScreen`` asks "save / discard / cancel" when leaving with unsaved changes and
"overwrite?" when the file changed on disk; ``SaveAsScreen`` asks for a path and checks
its extension (the extension picks the format); ``EditorHelpScreen`` lists the editor's
keys from the same table as its bindings, so the help never drifts from the keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Markdown, Static

from .dialog import Dialog

SAVE_SUFFIXES = (".toml", ".json", ".txt")
DIALOG_CSS: list[str | PurePath] = ["dialogs.tcss", "editor.tcss"]


def save_path_error(text: str) -> str | None:
    """Why ``text`` is not a path the editor can save to, or None when it is."""
    if not text.strip():
        return "Type a file name, e.g. myboard.toml."
    path = Path(text.strip()).expanduser()
    if path.suffix.lower() not in SAVE_SUFFIXES:
        return f"End the name with {', '.join(SAVE_SUFFIXES)}: the extension picks the format."
    if path.is_dir():
        return f"{path} is a folder."
    if not path.parent.exists():
        return f"There is no folder {path.parent}."
    return None


class ChoiceScreen(Dialog[str | None]):
    """A question and a row of buttons; returns the chosen answer's key (None: escape).

    ``choices`` are (key, label) pairs: each answer's key is also its keyboard key.
    """

    CSS_PATH = DIALOG_CSS
    BINDINGS = [Binding("escape", "choose(None)", "Cancel")]

    def __init__(self, question: str, choices: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="choice"):
            yield Static(self.question, classes="dialog-title", markup=False)
            with Horizontal(classes="buttons"):
                for key, label in self.choices:
                    yield Button(f"{label} ({key})", id=f"choice-{key}")

    def on_key(self, event: events.Key) -> None:
        if any(event.key == choice for choice, _ in self.choices):
            event.stop()
            self.dismiss(event.key)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        self.dismiss(button_id.removeprefix("choice-"))

    def action_choose(self, key: str | None) -> None:
        self.dismiss(key)


class SaveAsScreen(Dialog[Path | None]):
    """Ask for the path to save to; the extension (.toml, .json, .txt) picks the format."""

    CSS_PATH = DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, suggestion: str = "") -> None:
        super().__init__()
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="save-as"):
            yield Static("Save the board as", classes="dialog-title", markup=False)
            yield Input(self.suggestion, placeholder="myboard.toml", id="save-path")
            yield Static("", id="save-error", markup=False)
            yield Static(
                "Enter saves, Escape cancels. The extension picks the format: .toml, "
                ".json (a board document) or .txt (a jump list).",
                classes="dialog-hint",
            )

    @on(Input.Submitted, "#save-path")
    def _submitted(self, event: Input.Submitted) -> None:
        error = save_path_error(event.value)
        if error is not None:
            label = self.query_one("#save-error", Static)
            label.update(error)
            label.add_class("-shown")
            return
        self.dismiss(Path(event.value.strip()).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)


class EditorHelpScreen(Dialog[None]):
    """The editor's keys (a Markdown text made from its command table)."""

    CSS_PATH = DIALOG_CSS
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="editor-help", classes="dialog"):
            yield Markdown(self.text)

    def action_close(self) -> None:
        self.dismiss(None)
