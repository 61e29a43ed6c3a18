"""A game begins on the game screen: its first (once the panels are up), the session's
next (n, m, another board, retry), a saved one resumed, or the whole game a room's host
sent anew.

Each asks the solver about the board, shows the game, says it started and lets a
computer roll. ``GameRounds`` is a helper the game screen (``screens/game.py``) holds:
it calls back only what ``RoundHost`` names.
"""

from __future__ import annotations

from typing import Protocol

from textual.screen import Screen

from ..core.session import GameSession, GameSettings
from ..core.store.saving import GameSaver
from ..messages import GameStarted
from ..widgets.board import BoardView
from ..widgets.game_side import GameSide
from ..widgets.players import token_letters
from .game_solver import GameSolver
from .game_turns import GameTurns

__all__ = ["GameRounds", "RoundHost"]


class RoundHost(Protocol):
    """What a new game needs of the game screen besides Textual's ``Screen``."""

    session: GameSession
    saver: GameSaver
    busy: bool
    panels_mounted: bool
    solver: GameSolver
    turns: GameTurns

    @property
    def side(self) -> GameSide: ...

    def show_everything(self) -> None: ...


class GameRounds:
    """One game after another on the same screen."""

    def __init__(self, screen: Screen[None], host: RoundHost) -> None:
        """``screen`` and ``host`` are the one game screen: as Textual's screen (its
        workers, widgets and messages) and as the game it shows."""
        self.screen = screen
        self.host = host

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        """The session's next game (``again``: the same one once more), on this screen:
        stops any animation and pending computer roll."""
        host = self.host
        host.turns.stop()
        host.saver.leaving(host.session)  # n, m, another board: the old game is abandoned
        host.session.new_game(settings, again=again)
        self.show_new_session()

    def resume(self, session: GameSession, game_id: int) -> bool:
        """Continue saved game ``game_id`` (rebuilt as ``session``) on this screen; the
        game that was on screen had no moves (it was just started), so it is dropped.
        False, and nothing changes, when another running snl is playing that game."""
        host = self.host
        if not host.saver.resumed(session, game_id):
            return False
        host.turns.stop()
        host.session = session
        self.show_new_session()
        return True

    def replaced(self, session: GameSession) -> None:
        """The whole game, sent anew (joining, rejoining, a new game): show it."""
        host, screen = self.host, self.screen
        if session is host.session:
            return
        screen.workers.cancel_group(screen, "animation")
        host.session = session
        host.busy = False
        if screen.is_mounted:
            game = host.session.game
            screen.query_one(BoardView).set_board(game.board, token_letters(game.players))
            self.begins()

    def show_new_session(self) -> None:
        host = self.host
        host.busy = False
        game = host.session.game
        self.screen.query_one(BoardView).set_board(game.board, token_letters(game.players))
        host.side.close_die_box()
        self.begins()

    def begins(self) -> None:
        """A new game on this screen: ask the solver about its board, show it."""
        host = self.host
        host.solver.solve(host.session.board)
        if host.panels_mounted:  # else mount_panels shows it
            self.shown()

    def shown(self) -> None:
        """Show the game, let a computer start."""
        host = self.host
        host.show_everything()
        self.screen.post_message(GameStarted(host.session.board.name, host.session.mode))
        host.turns.computer_turn()
