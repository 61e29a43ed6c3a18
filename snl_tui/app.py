"""The Textual app: ``SnlApp(board, players, seed, mode, animate).run()``.

The app holds the settings and pushes the game screen; the game itself lives in
``screens/game.py`` and every rule in ``core``. ``snl`` / ``snl play`` (``cli.py``) create
it; ``q`` quits with exit code 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual.app import App

from .commands import GameCommands
from .core.board import Board
from .core.engine import Player
from .core.formats import load_board
from .screens.game import MODES, GameScreen, GameSettings

DEFAULT_PLAYERS = (Player("You"), Player("CPU", computer=True))
DEFAULT_BOARD = "classic"
"""The built-in board a game starts on when none is given."""


class SnlApp(App[None]):
    """Snakes & Ladders in the terminal."""

    CSS_PATH = Path(__file__).with_name("snl.tcss")
    """Absolute, so that a subclass defined elsewhere (tests, benchmarks) keeps it."""
    TITLE = "snl"
    SUB_TITLE = "Snakes & Ladders"
    COMMANDS = App.COMMANDS | {GameCommands}

    def __init__(
        self,
        board: Board | None = None,
        players: Sequence[Player] | None = None,
        seed: int | None = None,
        mode: str = "classic",
        animate: bool = True,
    ) -> None:
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.settings = GameSettings(
            board if board is not None else load_board(DEFAULT_BOARD),
            list(players) if players else list(DEFAULT_PLAYERS),
            seed,
            mode,
        )
        self.animation_on = animate
        self.game_screen = GameScreen(self.settings, animate=animate)

    def get_default_screen(self) -> GameScreen:
        # The game is the base screen: no blank default screen is drawn first.
        return self.game_screen
