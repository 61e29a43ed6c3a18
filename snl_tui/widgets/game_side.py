"""The game screen's side column: the players, the die and the status line beside it, a
table's own panels (a room's turn clock), the die values to click, the hint and the move
log, and the box for a die value without a key.

The column is empty in the game's first frame (its width is set by ``snl.tcss``) and its
panels mount once the board is drawn (``mount_panels``). Each panel shows the session
itself (``update_from``); the column passes on what the screen knows besides the session
(the seats as its table lists them, the hint's seat, whether the solver has answered).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import Horizontal, Vertical
from textual.widget import AwaitMount, Widget
from textual.widgets import Input

from ..core.engine import Game, Player
from ..core.session import GameSession
from .dice import DiceFace, DieInput, DieValues, StatusLine
from .hint_panel import HintPanel
from .move_log import MoveLog
from .players import PlayersPanel

__all__ = ["GameSide"]


class GameSide(Vertical):
    """The side column of the game screen (``#side``)."""

    def mount_panels(self, table_panels: Sequence[Widget]) -> AwaitMount:
        """Mount the panels, with ``table_panels`` (a room's) under the die."""
        players = PlayersPanel(id="players")
        players.border_title = "Players"
        hint = HintPanel(id="hint")
        hint.border_title = "Hint"
        hint.display = False
        log = MoveLog(id="log")
        log.border_title = "Moves"
        status = StatusLine(id="status", markup=False)
        dice_row = Horizontal(DiceFace(id="dice"), status, id="dice-row")
        die_values = DieValues(id="die-values")  # puzzle mode: the legal values, to click
        return self.mount_all([players, dice_row, *table_panels, die_values, hint, log])

    def show_game(self, session: GameSession) -> None:
        """A game shown afresh (a new game, an undo): the die and the whole move log."""
        self.query_one(DiceFace).update_from(session.game)
        self.query_one(MoveLog).update_from(session)

    def show_state(self, session: GameSession, players: Sequence[Player]) -> None:
        """The seats (``players``: as the table lists them) and the die values to play."""
        self.query_one(PlayersPanel).update_from(session, players)
        self.query_one(DieValues).update_from(session)

    def show_hint(
        self, session: GameSession, seat: int, *, visible: bool, compact: bool, ready: bool
    ) -> None:
        """The hint panel, shown or hidden, about ``seat``; ``compact``: no chart."""
        panel = self.query_one(HintPanel)
        panel.display = visible
        if visible:
            panel.compact = compact
            panel.update_from(session, seat, ready=ready)

    def show_status(
        self, session: GameSession, message: str | None, *, ready: bool, table_says: str | None
    ) -> None:
        """``message`` as an error (a refusal, a warning), else what the table or the
        session says now."""
        status = self.query_one(StatusLine)
        if message is not None:
            status.say(message, error=True)
        else:
            status.update_from(session, ready=ready, table_says=table_says)

    def show_die(self, value: int | None) -> None:
        self.query_one(DiceFace).value = value

    def catch_up(self, game: Game) -> None:
        """The moves played since the move log last showed the game."""
        self.query_one(MoveLog).catch_up(game.history, game.players)

    async def open_die_box(self) -> None:
        """The box for any die value, empty and focused (made on first use: only dice
        with over 9 faces need it)."""
        die_input = next(self.query("#die-input").results(Input), None)
        if die_input is None:
            die_input = DieInput(id="die-input", placeholder="die value, Enter", type="integer")
            await self.mount(die_input, after="#dice-row")
        die_input.display = True
        die_input.value = ""
        die_input.focus()

    def close_die_box(self) -> None:
        for die_input in self.query("#die-input"):
            die_input.display = False
