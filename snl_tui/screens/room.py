"""A room's game seen from one seat: ``snl join`` (and ``snl host --name``) (SPEC 11).

The screen is the usual game screen on the room's shared session, with one difference in
who moves: the host rolls every die. In the client's session every seat but this one is
remote (``Driver.REMOTE``, the computer's seats too), so the game screen's own rules leave
it nothing to drive but its own seat's ``r``, which asks the host to roll
(``RoomClient.roll``); every move, its own included, arrives from the host and is shown as
it comes (the die, the token's steps, the jump). The hint, the odds and the route are about this
screen's own seat; the players panel says who is you, who is away and which seats are
still free; the status line says whose turn it is, or "reconnecting..." while the client
finds the room again (``RoomClient`` does that by itself, with backoff). A spectator
(the seats were full) watches the same screen with nothing to press.

The client runs on the app's own event loop (the CLI starts it before the app), and tells
the screen what happened through ``RoomScreen.Changed`` messages, so everything the
screen does happens in its own message loop and no key ever waits on the network.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import on
from textual.message import Message

from ..commands import keys_of
from ..core.engine import Player, Turn
from ..core.session import GameSession, GameSettings
from ..messages import TurnPlayed
from ..net.client import ClientEvent, RoomClient
from ..widgets.board import BoardView
from ..widgets.players import token_letters
from .game import GameScreen

ROOM_HIDDEN = frozenset(
    {"new_game", "load_board", "switch_mode", "edit", "undo", "pick", "choose_die"}
    | {"saved_games", "stats"}
)
"""Actions a room's screen does not offer: the host chose the board, the rules and the
seats (``n`` is offered again once the game is over: another game in the same seats)."""


class RoomScreen(GameScreen):
    """The shared game of a room, played from this terminal's seat (or watched)."""

    HELP = "Press r on your turn: the host rolls your die. Press ? for help."

    @dataclass
    class Changed(Message):
        """The room client heard something (``ClientEvent``)."""

        event: ClientEvent

    def __init__(
        self, client: RoomClient, *, animate: bool = True, join_line: str | None = None
    ) -> None:
        """``client`` has been welcomed (it holds the room's session); ``join_line`` is
        what others type to join (shown by the host's own screen)."""
        session = client.session
        if session is None:
            raise ValueError("the room client has no game yet: wait for its welcome")
        super().__init__(session.settings, animate=animate, session=session)
        self.client = client
        self.join_line = join_line
        self.rolling = False
        """A roll was asked of the host and its move has not arrived yet."""
        client.listener = self._heard

    def _heard(self, event: ClientEvent) -> None:
        # Called in the client's task (the same event loop): hand it to the message loop.
        self.post_message(self.Changed(event))

    def on_mount(self) -> None:
        # The room's address stays in the title bar: the line others type, on the host.
        where = self.join_line if self.join_line is not None else f"room {self.client.address}"
        self.sub_title = where
        if self.join_line is not None:
            self.notify(f"Others join with: {self.join_line}", timeout=20, markup=False)

    # -- what the room says --------------------------------------------------------------

    @on(Changed)
    def _room_changed(self, message: Changed) -> None:
        event, client = message.event, self.client
        if event.kind in ("welcome", "state", "game"):
            self.rolling = False
            if client.session is not None and client.session is not self.session:
                self._take_session(client.session)
            if event.kind == "welcome" and event.message:
                self.notify(event.message, markup=False)
        elif event.kind == "move" and event.turn is not None:
            self.rolling = False
            self._show_room_move(event.turn)
            return  # the move's end (TurnPlayed) shows the state
        elif event.kind == "refused" and event.message:
            self.rolling = False
            self.notify(event.message, severity="warning", markup=False)
        elif event.kind == "error" and event.message:
            self.rolling = False
            if self.panels_mounted:  # a host may answer before the screen is up
                self._show_status(event.message)
            return
        elif event.kind == "disconnected":
            self.rolling = False
        if self.panels_mounted and not self.busy:
            self._show_state()

    def _take_session(self, session: GameSession) -> None:
        """The host sent the whole game (joining, rejoining, a new game): show it."""
        self.workers.cancel_group(self, "animation")
        self.session = session
        self.busy = False
        if self.is_mounted:
            game = session.game
            self.query_one(BoardView).set_board(game.board, token_letters(game.players))
            self._game_begins()

    def _show_room_move(self, turn: Turn) -> None:
        """A move the host made (the client has played it in the session already)."""
        if not self.panels_mounted:
            return  # mount_panels shows the state as it is
        self.busy = True
        if self.animation_on:
            self.run_worker(self.show_move(turn), group="animation", exclusive=True)
        else:
            self.post_message(TurnPlayed(turn))

    # -- who moves: the host, always ----------------------------------------------------

    def can_move(self) -> bool:
        # Every seat but this screen's own is remote (the client says so to the session):
        # the game screen's own rule leaves only this seat's turn, and the host decides.
        return super().can_move() and not self.rolling and self.client.my_turn

    def action_roll(self) -> None:
        if self.check_action("roll", ()) is not True:
            return
        if not self.can_move():
            if not self.busy:
                self._show_status(self._waiting_text())
            return
        self.rolling = True
        name = self.session.game.players[self.session.game.current].name
        self._show_status(f"{name}: rolling...")
        self.run_worker(self._ask_roll(), group="room", exclusive=False)

    async def _ask_roll(self) -> None:
        if not await self.client.roll():
            self.rolling = False
            self._show_status(self._room_status())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ROOM_HIDDEN and not (action == "new_game" and self.session.game.over):
            return False
        if action == "roll" and self.client.seat is None:
            return False  # a spectator has nothing to roll
        return super().check_action(action, parameters)

    def action_new_game(self) -> None:
        """Once the game is over: another game in the same seats (the host starts it)."""
        if not self.session.game.over:
            return
        self.run_worker(self.client.again(), group="room")

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        """The winner dialog's "again": another game in the same seats, by the host."""
        if self.session.game.over:
            self.run_worker(self.client.again(), group="room")

    def action_quit(self) -> None:
        self.app.exit(return_code=0)

    # -- what it shows -------------------------------------------------------------------

    def hint_seat(self) -> int:
        seat = self.client.seat
        if seat is None or self.session.game.over:
            return self.session.hint_seat
        return seat

    def shown_players(self) -> Sequence[Player]:
        seats, mine = self.client.seats, self.client.seat
        shown = []
        for index, player in enumerate(self.session.game.players):
            tags = []
            if index == mine:
                tags.append("you")
            if index < len(seats) and not player.computer:
                info = seats[index]
                if not info.taken:
                    tags.append("free")
                elif not info.connected:
                    tags.append("away")
            name = f"{player.name} ({', '.join(tags)})" if tags else player.name
            shown.append(Player(name, player.computer))
        return shown

    def _show_status(self, message: str | None = None) -> None:
        super()._show_status(self._room_status() if message is None else message)

    def _room_status(self) -> str:
        client, game = self.client, self.session.game
        if not client.connected:
            if client.refused is not None:
                return f"The room turned us away: {client.refused}"
            return f"Reconnecting to {client.address}..."
        if game.winner is not None:
            winner = game.players[game.winner].name
            return f"{winner} reached the goal! {keys_of('new_game')} plays again, same seats."
        if client.status == "waiting":
            free = sum(1 for seat in client.seats if not seat.taken)
            waiting = f"Waiting for {free} more to join."
            return f"{waiting} Others join with: {self.join_line}" if self.join_line else waiting
        if client.my_turn:
            return self.session.status(keys_of)
        return self._waiting_text()

    def _waiting_text(self) -> str:
        client, game = self.client, self.session.game
        if game.over:
            return self._room_status()
        if client.seat is None:
            prefix = "Watching: "
        else:
            prefix = "" if not self.busy else "Showing the move... "
        player = game.players[game.current]
        seat = client.seats[game.current] if game.current < len(client.seats) else None
        if player.computer:
            return f"{prefix}{player.name} is rolling (the host rolls for the computer)."
        if seat is not None and not seat.taken:
            return f"{prefix}Waiting for someone to take {player.name}'s seat."
        if seat is not None and not seat.connected:
            return f"{prefix}Waiting for {player.name} to come back..."
        return f"{prefix}{player.name} to move, on another machine."


__all__ = ["RoomScreen"]
