"""The saved-games screen (the game's ``g``): every unfinished saved game, to continue one.

Each line says the board, the mode, the players and the turns played; Enter continues
the highlighted game (the game on screen stays saved as it was: every move of it is),
Escape goes back. The game being played is marked and cannot be picked again; nor can a
room's game (``snl host``), whose line says how to reopen it: ``snl host --resume ID``.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ..core.store.games import SavedGame, Store
from ..core.store.saving import resumable_games
from ..core.text import plural, safe_line
from .dialog import Dialog


def game_line(saved: SavedGame, current: bool) -> str:
    """'12  Chutes and Ladders · classic · Ann, CPU · 7 turns · 2026-11-24 21:05'; a
    room's game says how to reopen it instead: it is not continued here."""
    started = saved.updated.astimezone().strftime("%Y-%m-%d %H:%M")
    parts = [
        f"{saved.id:>4}",
        safe_line(saved.board_name or "(unnamed board)", 30),
        saved.mode,
        safe_line(", ".join(saved.players), 40),
        plural(saved.turns, "turn") + " played",
        started,
    ]
    if saved.room:
        return " · ".join(parts) + f"  (a room: {saved.reopen})"
    return " · ".join(parts) + ("  (this game)" if current else "")


class SavedGamesScreen(Dialog[int | None]):
    """Pick an unfinished saved game (Enter) or go back (Escape); dismisses with its id."""

    CSS_PATH = ["dialogs.tcss", "saves.tcss"]
    AUTO_FOCUS = "#saved-games-list"
    BINDINGS = [Binding("escape", "close", "Back")]

    def __init__(self, store: Store, current: int | None = None) -> None:
        super().__init__()
        self.games = resumable_games(store, rooms=True)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-games", classes="dialog"):
            yield Label("Saved games in progress", classes="dialog-title")
            if not self.games:
                yield Static("No unfinished games are saved.", id="saved-games-empty")
                return
            options = [
                Option(
                    game_line(saved, saved.id == self.current),
                    id=str(saved.id),
                    disabled=saved.id == self.current or saved.room,
                )
                for saved in self.games
            ]
            yield OptionList(*options, id="saved-games-list", markup=False)
            yield Static("Enter continues the highlighted game · Escape goes back", classes="hint")

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id
        self.dismiss(int(option_id) if option_id is not None else None)

    def action_close(self) -> None:
        self.dismiss(None)
