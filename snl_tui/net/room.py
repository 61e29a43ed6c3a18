"""A room: one shared game, its seats, the people connected, its timers and the host's
powers (``snl host``; the server around it is ``net.server``). The room seats people and
plays the game; who they are is ``net.people`` (``Connection``, ``SeatState``), its
clocks ``net.room_clocks`` and the host's orders ``net.host_powers``, each composed in.

Seats. A room's seats are its players in turn order. A ``cpu`` seat is the computer's;
each other seat waits for a person. People take the free seats in the order they join
(someone joining with the name of a free seat takes that one), and the game begins when
every seat is taken: the first seat moves first. Taking a seat hands out a secret token
(a new one each time); every ``roll`` must carry it. Coming back takes the same seat with
the token at once (even while the old connection still looks alive: it is closed); ``snl
join`` keeps it on disk (``seat_tokens``). By name alone, a seat whose holder has a token
is taken only once it has been free for ``keep_seat`` seconds (``snl host --keep-seat``),
or at once after the host handed it over (``Room.hand_over``); the holder's token then
stops working and, coming back, they are told why. The host's own client (the room's
``host_key``) takes the host's seat back at once. When the seats are full, newcomers
watch. A name at the table (a seat's or a watcher's, compared by ``protocol.name_key``)
belongs to whoever has it.

The host's powers. The host's own client may skip the turn of the seat to move, hand a
seat to the computer (and back), remove a person (the computer plays their seat to the
end; their token is void and their name cannot take it back) and mute someone's chat
(their name, their seat's token and a watcher's address). ``Timers`` does the first two
by itself: ``turn_time`` rolls for (or skips) a seat that does not roll in time (its clock
runs from the turn's start, whoever joins meanwhile; every screen is told the seconds
left with ``timer``), ``away_after`` hands a seat whose person has been gone, or
connected but not rolling, that long to the computer until they come back. Every one of
these is a ``notice`` to everyone, saying what happened and why; a newcomer's welcome
carries the last ones (``recent``).

Chat. ``chat`` and ``react`` lines go to everyone in the room with the sender's name;
they are checked (``check_chat``: one line, no control or invisible characters,
``MAX_CHAT`` at most) and limited by their own, slower token bucket (``Limits.chat_rate``).

Saving. When the room opens, after every move and whenever what ``snl host --resume``
needs changes (a seat taken, handed over or removed, someone muted; ``saved_room``: the
seats, the options, the password's hash, the seconds the clocks have left, the muted
addresses and the given-away tokens' explanations), every few seconds while a clock runs
and when the host stops, the room is saved by the server's writer
thread (``room_saving``), after the move's frames are sent: a host killed before anyone
rolls reopens the same room.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from ..core.engine import Player
from ..core.errors import SnlError
from ..core.seats import TurnError
from ..core.session import GameSession
from ..core.store.saving import GameSaver
from ..core.text import plural
from .guard import Secret
from .host_powers import HostPowers
from .limits import Limits, Refusal, error
from .people import Connection, SeatState, token_hash
from .protocol import (
    CLOSE_POLICY,
    MAX_HISTORY,
    MAX_RECENT,
    MAX_WATCHERS,
    ProtocolError,
    SeatInfo,
    check_chat,
    encode,
    name_key,
    state_json,
)
from .room_clocks import RoomClocks, Timers
from .room_saving import RoomRecord, SaveWriter, saved_room

KEEP_SEAT = 120.0
"""Seconds a dropped player's seat is kept for their token before anyone may take it by
name: long enough to come back after a network drop or a restarted terminal."""
GIVEN_AWAY_KEPT = 32
"""Seats given away whose old holders a room remembers, to tell them why on their return."""
CPU_DELAY = 0.8
"""Seconds a computer seat waits before rolling: long enough to follow the moves."""
SEAT_ELSEWHERE = "seat-elsewhere"
"""The refusal a connection gets when its seat was taken back from another (the same
person's second tab or terminal): final, so the two never take it from each other."""


def elsewhere(name: str) -> str:
    return f"your seat ({name}) is now played from another window or terminal: this one has left it"


class RoomHost(Protocol):
    """What a room needs of the server it runs in (``net.server.RoomServer``)."""

    limits: Limits
    keep_seat: float
    cpu_delay: float
    writer: SaveWriter
    clock: Callable[[], float]

    def say(self, line: str) -> None: ...

    def strike(self, connection: Connection, code: str, message: str) -> None: ...


# -- rooms --------------------------------------------------------------------------------


class Room:
    """One shared game: its seats, the people connected and its saver."""

    def __init__(
        self,
        server: RoomHost,
        code: str,
        session: GameSession,
        seats: list[SeatState],
        password: Secret | None,
        saver: GameSaver,
        timers: Timers | None = None,
        host_name: str | None = None,
    ) -> None:
        self.server = server
        self.code = code
        self.session = session
        self.seats = seats
        self.password = password
        """The room's password as a salted hash (``guard.Secret``), never its text."""
        self.saver = saver
        self.record = RoomRecord(saver, server.writer, self._saved_first)
        if saver.game_id is not None:  # a resumed room goes on in its game's row
            self.record.resumed(session)
        self.timers = timers or Timers()
        self.keep_seat = server.keep_seat
        """Seconds a dropped seat waits for its token before it may be taken by name."""
        self.options: dict[str, Any] = {}
        """The host's other options saved with the room (``--web``...), for ``--resume``."""
        self.host_name = host_name
        """The name the host plays under (saved, so ``--resume`` seats the host again)."""
        self.host_key = secrets.token_urlsafe(18)
        """What the host's own client joins with to have the host's powers (never sent)."""
        self.muted: set[str] = set()
        """Names (``name_key``) whose chat the host silenced."""
        self.muted_addresses: set[str] = set()
        """Where muted watchers came from: a watcher from there comes back muted."""
        self.spectators: set[Connection] = set()
        self.recent: deque[str] = deque(maxlen=MAX_RECENT)
        """The last notices and chat lines (frames): a newcomer's welcome carries them."""
        self.clocks = RoomClocks(self, server.cpu_delay)
        """The computer's pause, the turn timer and the away timers (``room_clocks``)."""
        self.powers = HostPowers(self)
        """What the host's own client may order (``host_powers``)."""
        self.given_away: dict[str, str] = {}
        """Token hashes that no longer hold a seat -> what to tell their holder (saved:
        after a resume they are told the same)."""
        self.stopped = False
        """The host stopped (``stop``): the connections closing now are not people leaving."""
        now = server.clock()
        # A resumed room: its people are away from now on (their time away goes on from
        # what was saved, ``SeatState.away_before``; the wait for their seat starts anew).
        for seat in seats:
            if seat.taken and not seat.computer and seat.connection is None:
                seat.free_since = now
            if seat.idle:  # the room's own stand-in: not before they have had a chance
                seat.standin = seat.idle = False

    def opened(self) -> None:
        """The server runs (this room's event loop with it): save the room at once, so a
        host killed before anyone rolls can ``--resume`` it, and start
        ``Timers.away_after`` for every person not here (a resumed room): the computer
        plays for them only after that long."""
        self.save()
        self.clocks.arm_away_timers()

    # -- what everyone sees

    @property
    def status(self) -> str:
        if self.session.game.over:
            return "over"
        if any(not seat.taken for seat in self.seats):
            return "waiting"
        return "playing"

    def seat_infos(self) -> list[SeatInfo]:
        now = self.server.clock()
        return [seat.info(now) for seat in self.seats]

    def watchers(self, *, muted: bool = False) -> list[str]:
        """The watchers' names (``muted``: those the host muted only)."""
        shown = (c.name for c in self.spectators if not muted or self.powers.is_muted(c))
        return sorted(shown, key=str.casefold)[:MAX_WATCHERS]

    def state(self) -> dict[str, Any]:
        watchers, muted = self.watchers(), self.watchers(muted=True)
        return state_json(self.status, self.seat_infos(), self.session, watchers, muted)

    def connections(self) -> list[Connection]:
        seated = [seat.connection for seat in self.seats if seat.connection is not None]
        return [*seated, *self.spectators]

    def broadcast(self, frame: str) -> None:
        """The same frame to everyone in the room, encoded once."""
        for connection in self.connections():
            connection.send(frame)

    def seats_changed(self) -> None:
        seats = [seat.to_json() for seat in self.seat_infos()]
        self.broadcast(
            encode(
                "seats",
                status=self.status,
                seats=seats,
                watchers=self.watchers(),
                muted_watchers=self.watchers(muted=True),
            )
        )

    def notice(self, code: str, message: str) -> None:
        """Tell everyone in the room what happened and why (and the host's log)."""
        frame = encode("notice", code=code, message=message)
        self.recent.append(frame)
        self.broadcast(frame)
        self.server.say(f"{self.code}: {message}")

    def _name_at_table(self, key: str) -> str | None:
        """The name at the table (a person's seat, or a watcher) that ``key`` is, if any."""
        for seat in self.seats:
            person = seat.taken and not seat.computer
            if person and name_key(seat.name) == key:
                return seat.name
        for watcher in self.spectators:
            if name_key(watcher.name) == key:
                return watcher.name
        return None

    # -- joining

    def admit(self, connection: Connection, name: str, token: str | None, spectate: bool) -> None:
        """Seat or seat back a person, or let them watch; Refusal says why not. A name
        at the table (``name_key``) belongs to whoever has it."""
        if token is not None:
            index = self._seat_of_token(token)
            if index is None:
                told = self.given_away.get(token_hash(token))
                if told is not None:
                    raise Refusal("seat-given-away", told)
                raise Refusal("wrong-token", f"that seat token is not valid in room {self.code}")
            self._sit(connection, index, "You are back in your seat.")
            return
        key = name_key(name)
        index = next((i for i, seat in enumerate(self.seats) if name_key(seat.name) == key), None)
        host_seat = (
            connection.is_host
            and self.host_name is not None
            and name_key(self.host_name) == key
            and index is not None
            and self.seats[index].taken
            and not self.seats[index].computer
        )
        if host_seat and index is not None:
            # The host key proves who this is: the host's own seat, at once (--resume).
            self._sit(connection, index, f"Welcome back, {self.seats[index].name}.")
            return
        if spectate or index is None or not self.seats[index].taken:
            taken = self._name_at_table(key)
            if taken is not None:
                raise Refusal(
                    "name-taken", f"{taken} is already at this table: choose another name"
                )
        if not spectate:
            if index is not None:
                seat = self.seats[index]
                if seat.computer:
                    raise Refusal("name-taken", f"{name} is a computer seat: choose another name")
                if seat.removed:
                    raise Refusal("removed", f"the host removed {seat.name} from this game")
                if seat.taken and seat.connection is not None:
                    raise Refusal(
                        "name-taken",
                        f"{seat.name} is already playing in this room: choose another name",
                    )
                if seat.taken:
                    self._take_back(connection, index)
                    return
                self._take(connection, index, name)
                return
            free = next((i for i, seat in enumerate(self.seats) if not seat.taken), None)
            if free is not None:
                self._take(connection, free, name)
                return
        if len(self.spectators) >= self.server.limits.spectators_per_room:
            raise Refusal("room-full", "the seats are taken and too many people are watching")
        connection.room, connection.seat, connection.name = self, None, name
        connection.muted = connection.muted or connection.address in self.muted_addresses
        self.spectators.add(connection)
        notice = "You are watching." if spectate else "Every seat is taken: you are watching."
        connection.send(self._welcome("spectator", None, None, notice))
        connection.send(self.clocks.frame())  # a watcher sees the turn clock too
        self.seats_changed()
        self.notice("watching", f"{name} is watching.")

    def _take_back(self, connection: Connection, index: int) -> None:
        """Someone comes back by name alone to a seat whose person is away: only a seat
        nobody holds a token for, or one free for ``keep_seat`` seconds (its holder's
        token stops working and they will be told)."""
        seat = self.seats[index]
        if seat.token_sha256 is not None:
            now = self.server.clock()
            free_for = now - (now if seat.free_since is None else seat.free_since)
            left = self.keep_seat - free_for
            if left > 0:
                wait = plural(math.ceil(left), "more second")
                raise Refusal(
                    "seat-kept",
                    f"{seat.name}'s seat is kept for its player for {wait} (they come back "
                    "with their token): wait, choose another name or watch",
                )
            self._give_away(
                seat.token_sha256,
                f"your seat ({seat.name}) was taken by name after it was free for "
                f"{plural(math.floor(free_for), 'second')}",
            )
        self._sit(connection, index, f"Welcome back, {seat.name}.")

    def hand_over(self, index: int) -> None:
        """The host gives seat ``index`` up: anyone may take it by its name at once. Its
        holder's token stops working; a holder still here is told and disconnected."""
        seat = self.seats[index]
        if seat.computer or not seat.taken:
            raise SnlError(f"seat {index + 1} has no person to hand over")
        if seat.token_sha256 is not None:
            self._give_away(seat.token_sha256, f"the host handed your seat ({seat.name}) over")
        seat.token_sha256 = None
        holder = seat.connection
        if holder is not None:
            seat.connection, seat.free_since = None, self.server.clock()
            holder.room, holder.seat = None, None
            message = f"the host handed your seat ({seat.name}) over"
            holder.send(encode("refused", code="seat-given-away", message=message))
            holder.close(CLOSE_POLICY, message)
            self.seats_changed()
        self.server.say(f"{self.code}: {seat.name}'s seat is handed over")
        self.save()  # a resumed room must not give the old token its seat back

    def _give_away(self, digest: str, told: str) -> None:
        if len(self.given_away) >= GIVEN_AWAY_KEPT:
            del self.given_away[next(iter(self.given_away))]
        self.given_away[digest] = told

    def holds(self, token: str) -> bool:
        """Whether ``token`` is a seat's live token in this room."""
        return self._seat_of_token(token) is not None

    def _seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token_sha256 is not None and hmac.compare_digest(seat.token_sha256, digest):
                return index
        return None

    def _take(self, connection: Connection, index: int, name: str) -> None:
        """A person takes a free seat under their own name (before the game begins)."""
        seat = self.seats[index]
        seat.name, seat.taken = name, True
        session = self.session
        players = tuple(
            Player(s.name, s.computer) if i == index else p
            for i, (s, p) in enumerate(zip(self.seats, session.settings.players, strict=True))
        )
        self.session = GameSession(
            session.settings.with_changes(players=players),
            base_seed=session.base_seed,
            game_index=session.game_index,
            remote_seats=session.remote_seats,
        )
        # Everyone already here plays on with the new name in the game (the move log, the
        # status line): the whole state, not only the seats.
        for other in self.connections():
            if other is not connection:
                other.send(encode("state", state=self.state()))
        self._sit(connection, index, f"You sit in seat {index + 1}.")

    def _sit(self, connection: Connection, index: int, notice: str) -> None:
        seat = self.seats[index]
        before = seat.connection
        if before is not None and before is not connection:
            # Its own client coming back after a drop the host has not noticed yet (no
            # one reads this), or the same person in a second tab or terminal: the one
            # left behind is told why and stops, never fighting for the seat.
            before.seat = None
            before.room = None
            before.send(encode("refused", code=SEAT_ELSEWHERE, message=elsewhere(seat.name)))
            before.close(CLOSE_POLICY, "your seat was taken back from another connection")
        token = secrets.token_urlsafe(18)
        seat.token_sha256 = token_hash(token)
        seat.connection, seat.free_since, seat.away_before = connection, None, 0.0
        self.clocks.came_back(index)
        connection.room, connection.seat, connection.name = self, index, seat.name
        connection.send(self._welcome("player", index, token, notice))
        connection.send(self.clocks.frame())
        came_back = seat.standin and not seat.removed
        seat.standin, seat.idle = seat.removed, False
        # The new token is saved at once, not with the next move: a host killed before
        # that move and --resumed must know it (the old one no longer holds the seat).
        self.save()
        self.seats_changed()
        self.server.say(f"{self.code}: {seat.name} sits in seat {index + 1}")
        if came_back:
            self.notice("back", f"{seat.name} is back and plays their own seat again.")
        self.clocks.next_turn()

    def _welcome(self, role: str, seat: int | None, token: str | None, notice: str) -> str:
        return encode(
            "welcome",
            role=role,
            seat=seat,
            token=token,
            notice=notice,
            room=self.code,
            state=self.state(),
            recent=list(self.recent),
        )

    def leave(self, connection: Connection, quit: bool = False) -> None:
        """``connection`` went: ``quit`` when its client said goodbye (a closing
        handshake), else it lost the connection."""
        watcher = connection in self.spectators
        self.spectators.discard(connection)
        index = connection.seat
        connection.room, connection.seat = None, None
        if self.stopped:
            # The host stopped and closed every connection: nobody quit (saying so put
            # "Di quit" in the host's log), and no clock starts on a room that is over.
            if index is not None and self.seats[index].connection is connection:
                self.seats[index].connection = None
            return
        if index is not None and self.seats[index].connection is connection:
            seat = self.seats[index]
            seat.connection = None
            seat.free_since = self.server.clock()
            self.seats_changed()
            how = "quit" if quit else "lost the connection"
            self.notice("left", f"{seat.name} {how}: the seat is kept for them.")
            self.clocks.arm_away(index)
        elif watcher:
            self.seats_changed()
            self.notice("watching", f"{connection.name} stopped watching.")

    # -- playing

    def roll(self, connection: Connection, token: str) -> None:
        """The connection's seat rolls, when it is that seat's turn."""
        index = self._own_seat(connection, token)
        if index is None:
            return
        waiting = sum(not seat.taken for seat in self.seats)
        if waiting:
            connection.send(error("waiting", f"Waiting for {waiting} more to join."))
            return
        seat = self.seats[index]
        if seat.idle and seat.standin and not seat.removed:
            seat.idle = seat.standin = False  # back at the keys: their own seat again
            self.seats_changed()
            self.notice("back", f"{seat.name} is back and plays their own seat again.")
        if seat.played_by_computer:
            connection.send(error("not-your-turn", "The computer is playing this seat."))
            return
        if len(self.session.game.history) >= MAX_HISTORY:
            connection.send(
                error(
                    "too-long",
                    f"This game has reached {MAX_HISTORY} rolls, "
                    "the most a room plays: it cannot go on.",
                )
            )
            return
        try:
            self.session.move_for(index)
        except TurnError as refused:
            connection.send(error("not-your-turn", str(refused)))
            return
        self.moved()

    def again(self, connection: Connection, token: str) -> None:
        """A new game in the same seats, once this one is over."""
        if self._own_seat(connection, token) is None:
            return
        if not self.session.game.over and len(self.session.game.history) < MAX_HISTORY:
            connection.send(error("not-over", "The game is not over yet."))
            return
        self.session.new_game()
        self.broadcast(encode("game", state=self.state()))
        self.save()  # the new game's row, before its first move (the last one is won)
        # After the game: a screen shows the notice in the new game's log.
        self.notice("new-game", f"{connection.name} started a new game in the same seats.")
        self.clocks.next_turn()

    def _own_seat(self, connection: Connection, token: str) -> int | None:
        index = connection.seat
        if index is None:
            connection.send(error("not-seated", "Only a seated player can do that."))
            return None
        digest = self.seats[index].token_sha256
        if digest is None or not hmac.compare_digest(digest, token_hash(token)):
            self.server.strike(connection, "wrong-token", "That is not your seat's token.")
            return None
        return index

    def moved(self) -> None:
        session = self.session
        game = session.game
        turn = game.history[-1]
        # Everyone sees the move first: the save is taken once the senders, woken by the
        # broadcast, have written the move to their sockets (they run before a callback
        # queued after them), so the writer thread never competes with those writes.
        self.broadcast(
            encode(
                "move",
                index=len(game.history) - 1,
                seat=turn.player,
                die=turn.move.die,
                status=self.status,
            )
        )
        asyncio.get_running_loop().call_soon(self.save)
        if game.winner is not None:
            self.server.say(f"{self.code}: {game.players[game.winner].name} wins")
        self.clocks.next_turn()

    def save(self) -> None:
        """Save the room as it is now: a snapshot here, written by the server's writer
        thread (``room_saving``), after the frames of the move have gone."""
        saver = self.saver
        self.record.save(self.session, {"room": self.saved_room()})
        notice = saver.notice()
        if notice is not None:
            self.server.say(f"{self.code}: {notice}")

    def _saved_first(self, game_id: int) -> None:
        self.server.say(f"{self.code}: saved as game {game_id}")

    def saved_room(self) -> dict[str, Any]:
        """What ``--resume`` needs beside the session (``room_saving.saved_room``)."""
        return saved_room(self, self.server.clock())

    # -- the host's powers

    def host_action(self, connection: Connection, message: dict[str, Any]) -> None:
        """``skip``, ``hand``, ``kick`` or ``mute`` from the host's client (checked)."""
        self.powers.act(connection, message)

    def strike(self, connection: Connection, code: str, message: str) -> None:
        self.server.strike(connection, code, message)

    # -- chat

    def chat(self, connection: Connection, text: str, *, reaction: bool = False) -> None:
        if self.powers.is_muted(connection):
            connection.send(error("muted", "The host muted you: your chat is not sent."))
            return
        if not connection.may_chat():
            self.server.strike(connection, "chat-flood", "Too many chat lines: slow down.")
            return
        try:
            line = text if reaction else check_chat(text)
        except ProtocolError as problem:
            connection.send(error(problem.code, str(problem)))
            return
        frame = encode("chat", name=connection.name, text=line, reaction=reaction)
        self.recent.append(frame)
        self.broadcast(frame)

    def stop(self) -> None:
        """The host stops: saved with what each clock has left and how long each person
        not here has been away, then the clocks stop (once)."""
        if self.stopped:
            self.clocks.stop()  # anything armed since (a roll while the door closed)
            return
        away = any(seat.free_since is not None for seat in self.seats)
        if self.clocks.armed is not None or self.clocks.away_timers or away:
            self.save()
        self.clocks.stop()
        self.stopped = True


__all__ = [
    "CPU_DELAY",
    "KEEP_SEAT",
    "SEAT_ELSEWHERE",
    "Room",
    "RoomHost",
]
