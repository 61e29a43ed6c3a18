"""The help screen: ``help.md`` (next to this file) plus the key table from the commands."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from ..commands import GAME_COMMANDS

HELP_FILE = Path(__file__).with_name("help.md")


def keys_table() -> str:
    """A Markdown table of every key, from ``GAME_COMMANDS`` (the bindings' source)."""
    rows = ["| Key | Action | |", "|---|---|---|"]
    for command in GAME_COMMANDS:
        keys = command.key_display or command.keys.replace("space", "Space").replace(",", ", ")
        rows.append(f"| `{keys}` | {command.title} | {command.help} |")
    rows.append("| `1`-`9` | Die value | Puzzle mode: play that die value. |")
    rows.append("| `ctrl+p` | Command palette | Every command above, plus the theme. |")
    return "\n".join(rows)


class HelpScreen(ModalScreen[None]):
    """Rules, keys and the meaning of the board's glyphs."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        text = HELP_FILE.read_text(encoding="utf-8").replace("{{KEYS}}", keys_table())
        with VerticalScroll(id="help", classes="dialog"):
            yield Markdown(text)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
