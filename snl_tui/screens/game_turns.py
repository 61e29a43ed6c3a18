"""The game screen's moves: one move applied in the session, saved, then shown (the die
face, the token stepping through ``Move.steps``, the jump) before ``TurnPlayed``; a move
made elsewhere (a room's) shown the same way; and the computer's rolls for the seats it
drives, after a short pause; what follows a shown move, and an undo.

``GameTurns`` is a helper the game screen (``screens/game.py``) holds: the screen's
actions and messages call it, and it calls back only what ``TurnHost`` names.
"""

from __future__ import annotations

import asyncio
import random
from functools import partial
from typing import Protocol

from textual.screen import Screen
from textual.timer import Timer

from ..commands import keys_of
from ..core.engine import Turn
from ..core.seats import Driver
from ..core.session import GameSession
from ..core.store.saving import GameSaver
from ..messages import GameEnded, TurnPlayed
from ..widgets.board import BoardView
from ..widgets.game_side import GameSide

__all__ = ["COMPUTER_DELAY", "GameTurns", "TurnHost"]

ROLL_FRAMES, ROLL_DELAY = 4, 0.05
COMPUTER_DELAY = 0.6


class TurnHost(Protocol):
    """What the moves need of the game screen besides Textual's ``Screen``."""

    session: GameSession
    saver: GameSaver
    busy: bool
    animation_on: bool
    computer_delay: float

    @property
    def side(self) -> GameSide: ...

    def show_status(self, message: str | None = None) -> None: ...

    def show_state(self) -> None: ...

    def show_everything(self) -> None: ...

    def say_save_notice(self) -> None: ...


class GameTurns:
    """One move at a time, shown; the computer's turns."""

    def __init__(self, screen: Screen[None], host: TurnHost) -> None:
        """``screen`` and ``host`` are the one game screen: as Textual's screen (its
        workers, timers and messages) and as the game it drives."""
        self.screen = screen
        self.host = host
        self.computer_timer: Timer | None = None
        self.cosmetic_random = random.Random(0)
        """Only for the rolling die's flicker: never decides a move."""

    def start(self, die: int | None) -> None:
        """Apply one move in the session (the engine's), then show it."""
        host, session = self.host, self.host.session
        name = session.game.players[session.game.current].name
        outcome = session.move(die)
        # One transaction after each move (about a millisecond; a locked store waits
        # at most ``GAME_TIMEOUT`` once, then saving stops for the session).
        host.saver.moved(session)
        if outcome.left_route:
            message = session.left_route_message(outcome.turn, keys_of)
            self.screen.notify(message, markup=False)
        saying = f"{name}: rolling..." if die is None else f"{name}: playing {die}..."
        self.show(outcome.turn, saying=saying)

    def show(self, turn: Turn, *, saying: str | None = None) -> None:
        """Show ``turn`` (animated, or at once), then post ``TurnPlayed``."""
        host = self.host
        host.busy = True
        if host.animation_on:
            if saying is not None:
                host.show_status(saying)
            worker = self.show_move(turn)
            self.screen.run_worker(worker, group="animation", exclusive=True)
        else:
            self.screen.post_message(TurnPlayed(turn))

    async def show_move(self, turn: Turn) -> None:
        """Die face, then the token through ``Move.steps``, then the jump."""
        session, side = self.host.session, self.host.side
        board_view = self.screen.query_one(BoardView)
        result = turn.move
        if not session.puzzle:  # a random die flickers before it settles
            faces = session.board.rules.faces
            for _ in range(ROLL_FRAMES):
                side.show_die(self.cosmetic_random.randint(1, faces))
                await asyncio.sleep(ROLL_DELAY)
        side.show_die(result.die)
        await board_view.walk(session.game.positions, turn)
        self.screen.post_message(TurnPlayed(turn))

    def played(self, turn: Turn) -> None:
        """``turn`` has been shown (``TurnPlayed``): the state after it, then the end of
        the game or the computer's next turn."""
        host = self.host
        game = host.session.game
        if game.history[-1:] != [turn]:
            return  # a stale animation from a game that was replaced or undone
        host.busy = False
        host.side.catch_up(game)
        host.side.show_die(turn.move.die)
        host.show_state()
        host.say_save_notice()
        if game.winner is not None:
            self.screen.post_message(GameEnded(game.winner, len(game.history)))
        else:
            self.computer_turn()

    def undo(self) -> None:
        """Take back the last move (a puzzle's), save, and show the game afresh."""
        host, session = self.host, self.host.session
        session.undo()
        host.saver.moved(session)
        history = session.game.history
        host.side.show_die(history[-1].move.die if history else None)  # not the undone value
        host.show_everything()
        host.say_save_notice()

    def stop(self) -> None:
        """Stop any animation and pending computer roll (a new game on the screen)."""
        self.screen.workers.cancel_group(self.screen, "animation")
        self.stop_computer()

    def stop_computer(self) -> None:
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None

    def computer_turn(self) -> None:
        """The computer rolls for a seat it drives, after a pause; a seat driven
        elsewhere (a room's) is left to its driver: the screen waits for its move."""
        host = self.host
        if host.session.driver_to_move is not Driver.COMPUTER:
            return
        self.stop_computer()
        roll = partial(self.computer_roll, host.session.generation)
        if host.computer_delay > 0:
            self.computer_timer = self.screen.set_timer(host.computer_delay, roll)
        else:  # tests and the benchmark: no pause, but still one move per message loop turn
            self.screen.call_later(roll)

    def computer_roll(self, generation: int) -> None:
        self.computer_timer = None
        host = self.host
        if generation != host.session.generation or host.busy:
            return  # the game was replaced meanwhile, or a move is still being shown
        if self.screen.has_class("too-small"):
            return  # the board is hidden: on_resize resumes when it is back
        if host.session.driver_to_move is Driver.COMPUTER:
            self.start(None)
