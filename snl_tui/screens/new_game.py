"""The new-game dialog: players, mode and board. Returns ``GameSettings`` or None.

An error (e.g. too many players) stays until the players, mode or board change. In puzzle
mode a note says who plays: a puzzle has one player (``puzzle_player``), the others sit out.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from ..core.errors import SnlError
from ..core.files.formats import builtin_names, load_board
from ..core.session import (
    MODES,
    GameSettings,
    parse_players,
    players_text,
    who_plays_puzzle,
)
from .dialog import Dialog

__all__ = ["NewGameScreen", "parse_players", "puzzle_note"]

CURRENT = "(current board)"


def puzzle_note(text: str) -> str:
    """Who plays a puzzle with the players typed: see ``who_plays_puzzle``."""
    try:
        players = parse_players(text)
    except SnlError:
        return "A puzzle has one player: the first human one in the list."
    return who_plays_puzzle(players)


class NewGameScreen(Dialog[GameSettings | None]):
    """Enter starts the game, Escape cancels."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameSettings) -> None:
        super().__init__()
        self.current_settings = current

    def compose(self) -> ComposeResult:
        boards = [(CURRENT, CURRENT)] + [(name, name) for name in builtin_names()]
        with Vertical(id="new-game", classes="dialog"):
            yield Label("New game", classes="dialog-title")
            yield Label("Players (comma-separated; cpu:Name for a computer player)")
            yield Input(players_text(self.current_settings.players), id="players-input")
            with Horizontal(id="mode-and-board"):
                with Vertical(id="mode-column"):
                    yield Label("Mode")
                    yield Select(
                        [(mode, mode) for mode in MODES],
                        value=self.current_settings.mode,
                        allow_blank=False,
                        id="mode-select",
                    )
                with Vertical(id="board-column"):
                    yield Label("Board")
                    yield Select(boards, value=CURRENT, allow_blank=False, id="board-select")
            yield Static("", id="puzzle-note", classes="dialog-hint", markup=False)
            yield Static("", id="new-game-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#players-input", Input).focus()
        self.show_puzzle_note()

    def show_puzzle_note(self) -> None:
        """In puzzle mode, say who plays; hidden in classic mode."""
        note = self.query_one("#puzzle-note", Static)
        puzzle = self.query_one("#mode-select", Select).value == "puzzle"
        if puzzle:
            note.update(puzzle_note(self.query_one("#players-input", Input).value))
        note.display = puzzle

    def clear_error(self) -> None:
        self.query_one("#new-game-error", Static).remove_class("-shown")

    @on(Input.Changed, "#players-input")
    @on(Select.Changed)
    def _edited(self) -> None:
        """The user changed something: an old error no longer applies."""
        self.clear_error()
        self.show_puzzle_note()

    def settings(self) -> GameSettings:
        """The chosen settings; raises SnlError (shown in the dialog) when invalid."""
        players = parse_players(self.query_one("#players-input", Input).value)
        mode = str(self.query_one("#mode-select", Select).value)
        board_name = self.query_one("#board-select", Select).value
        board = (
            self.current_settings.board if board_name == CURRENT else load_board(str(board_name))
        )
        return GameSettings(board, tuple(players), self.current_settings.seed, mode)

    def start_game(self) -> None:
        try:
            settings = self.settings()
        except SnlError as error:
            message = self.query_one("#new-game-error", Static)
            message.update(str(error))
            message.add_class("-shown")
            return
        self.close(settings)

    def close(self, settings: GameSettings | None) -> None:
        """Dismiss (once: ``Dialog`` ignores a second Enter or Escape)."""
        self.dismiss(settings)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.start_game()

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        self.start_game()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.close(None)
