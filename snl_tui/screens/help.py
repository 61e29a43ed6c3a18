"""The help screen: ``help.md`` (next to this file) plus key tables made from the bindings.

The game's keys come from ``GAME_COMMANDS`` (the source of the bindings, the footer and the
palette) and the end-of-game dialog's from its ``BINDINGS``, so help never drifts from what
the keys do. Each key is listed once; the tables have two columns (key, what it does) so
they read well from 80x24 up.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Markdown

from .. import commands
from ..commands import KEY_NAMES, command_help, fill_keys
from ..core.rules import RULE_OPTIONS
from .dialog import Dialog

HELP_FILE = Path(__file__).with_name("help.md")
TEXT_MARKS = """\
* `▲38` — a **ladder** starts here and climbs to square 38.
* `▼6` — a **snake** starts here and slides down to square 6.
* `△` / `▽` — a ladder / snake ends on this square.
* `A`, `B`, ... — the players' tokens (the player to move is underlined).
* `»3` — step 3 of the shown optimal route (`{toggle_route}`).
"""
PICTURE_MARKS = """\
The board is a picture (`{toggle_jumps}` shows it in characters, and back):

* A **ladder** is drawn with rails and rungs from its foot up to its top.
* A **snake** is drawn from its head (with eyes), where it starts, down to its tail.
* A round **token** with a letter is a player's: {seats}, seat by seat; a dark ring
  marks the player to move.
* An **orange outline** marks the square the last move ended on.
* A small grey disc with a number is a step of the shown optimal route
  (`{toggle_route}`).
"""


def key_cell(keys: str) -> str:
    """'r,space' -> '`r`/`Space`'; a display like '1-9/d' -> '`1-9`/`d`'.

    No spaces, so a narrow key column never breaks a key list over two lines.
    """
    parts = keys.replace("/", ",").split(",")
    return "/".join(f"`{KEY_NAMES.get(part.strip(), part.strip())}`" for part in parts)


def sentence(title: str, text: str = "") -> str:
    """'**Roll the die.** Roll for the player to move (classic mode).' A title that ends
    its own sentence ('Save the board as...') gets no second full stop."""
    end = "" if title.endswith((".", "…", "?", "!")) else "."
    return f"**{title}{end}** {text}".rstrip()


def table(rows: Iterable[tuple[str, str]]) -> str:
    lines = ["| Key | What it does |", "|---|---|"]
    lines += [f"| {keys} | {text} |" for keys, text in rows]
    return "\n".join(lines)


def keys_table() -> str:
    """A Markdown table of the game's keys, from ``GAME_COMMANDS`` (the bindings' source)."""
    rows = [
        (
            key_cell(fill_keys(command.key_display or command.keys)),
            sentence(command.title, command_help(command)),
        )
        for command in commands.GAME_COMMANDS
    ]
    rows.append(("`ctrl+p`", sentence("Command palette", "Every command above, and themes.")))
    return table(rows)


def game_over_keys_table() -> str:
    """The end-of-game dialog's keys, from its bindings (``t`` only after a puzzle)."""
    from .winner import GameOverScreen

    notes = {
        "t": "The same puzzle again (after a puzzle).",
        "n": "Choose players, mode and board.",
        "p": "Watch this game again, move by move; q comes back.",
        "escape": "Look at the final board.",
    }
    rows = []
    for binding in GameOverScreen.BINDINGS:
        if not isinstance(binding, Binding):
            continue
        note = notes.get(binding.key, "")
        rows.append((key_cell(binding.key), sentence(binding.description, note)))
    return table(rows)


def rules_table() -> str:
    """A Markdown table of the rule options, from ``core.rules.RULE_OPTIONS`` (the one
    source the command line, the files and the editor use too); two columns, like the
    key tables, so it reads well from 80x24 up."""
    lines = ["| Rule | What it does |", "|---|---|"]
    for option in RULE_OPTIONS:
        if option.kind is bool:
            values = "on or off"
        elif option.kind is int and len(option.values) > 2:
            values = f"{option.values[0]} to {option.values[-1]}"
        else:
            values = " or ".join(str(v) for v in option.values)
        text = sentence(option.label, f"{option.help[:1].upper()}{option.help[1:]} ({values}).")
        lines.append(f"| `{option.flag}` | {text} |")
    return "\n".join(lines)


def board_marks(picture: bool) -> str:
    """What the board's marks mean: the picture's (``picture``) or the characters'."""
    if not picture:
        return TEXT_MARKS
    from ..core.colours import SEAT_COLOURS

    seats = ", ".join(colour.name for colour in SEAT_COLOURS)
    return PICTURE_MARKS.replace("{seats}", seats)


def help_text(picture: bool = False) -> str:
    """``help.md`` with its key tables, and each ``{action}`` in its prose replaced by that
    action's key from the command table (so a rebinding updates the help); the board's
    marks are the picture's when it is shown (``picture``)."""
    text = HELP_FILE.read_text(encoding="utf-8")
    text = text.replace("{{BOARD_MARKS}}", board_marks(picture))
    text = text.replace("{{RULES}}", rules_table())
    text = text.replace("{{KEYS}}", keys_table()).replace(
        "{{GAME_OVER_KEYS}}", game_over_keys_table()
    )
    close = HelpScreen.BINDINGS[0]
    assert isinstance(close, Binding)
    text = text.replace(
        "{{CLOSE_KEYS}}", " or ".join(f"`{k}`" for k in commands.key_list(close.key))
    )
    for command in commands.GAME_COMMANDS:
        keys = "` or `".join(commands.key_list(command.keys))
        text = text.replace("{" + command.action + "}", keys)
    return text


class HelpScreen(Dialog[None]):
    """Rules, keys and the meaning of the board's glyphs."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def __init__(self, picture: bool = False) -> None:
        """``picture``: the board is shown as a picture (its marks are explained)."""
        super().__init__()
        self.picture = picture

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Markdown(help_text(self.picture))
        yield Footer()  # help's own keys, over the game's (which do nothing here)

    def action_close(self) -> None:
        self.dismiss(None)  # once: Dialog ignores a second key before it is gone
