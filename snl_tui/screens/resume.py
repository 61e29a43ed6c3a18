"""The resume dialog: ``snl`` found a game in progress; continue it, or start a new one.

Shown only when the store holds an unfinished game that no other running snl is playing
(``SnlApp(offer=...)``, from the CLI's default path). It dismisses with True (resume) or
False (new game: the app marks the old game abandoned, so it is not offered again).

Its keys are none of the game's: ``c`` continues, Escape starts a new game. A player who
presses the game's keys by habit (``r`` or Space to roll, ``n`` for a new game, a die
value) answers nothing, and no button has the focus, so Enter and Space press none.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Label, Static

from ..core.store.games import SavedGame
from ..core.text import place, plural
from .dialog import Dialog


def describe(saved: SavedGame) -> list[str]:
    """What the dialog says about a saved game: board, mode, players and squares."""
    data = saved.data
    positions = data.get("positions")
    lines = [
        f"{saved.board_name or 'board'} · {saved.mode} mode · {plural(saved.turns, 'turn')} played"
    ]
    if isinstance(positions, list) and len(positions) == len(saved.players):
        pairs = zip(saved.players, positions, strict=True)
        lines += [f"{name}: {place(square)}" for name, square in pairs]
    started = saved.started.astimezone().strftime("%Y-%m-%d %H:%M")
    lines.append(f"Started {started}; saved game {saved.id}.")
    return lines


class ResumeScreen(Dialog[bool]):
    """Continue the saved game (c) or start a new one (Escape); the buttons click too."""

    CSS_PATH = ["dialogs.tcss", "saves.tcss"]
    AUTO_FOCUS = ""
    """Nothing focused: Enter or Space (the game's roll key) must not press a button."""

    BINDINGS = [
        Binding("c", "choose(True)", "Continue"),
        Binding("escape", "choose(False)", "New game"),
    ]

    def __init__(self, saved: SavedGame) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-dialog", classes="dialog"):
            yield Label("Resume your game?", classes="dialog-title")
            for line in describe(self.saved):
                yield Static(line, classes="resume-line", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Continue (c)", id="resume", variant="primary")
                yield Button("New game (Esc)", id="new")
        yield Footer()  # the offer's own keys, over the game's (which do nothing here)

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)  # once: Dialog ignores a second key before it is gone

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id == "resume")
