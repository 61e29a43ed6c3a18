"""A room: one shared game, its seats, the people connected, its timers and the host's
powers (``snl host``; the server around it is ``net.server``).

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

Saving. After every move (and every seat taken) the room's game and everything ``snl
host --resume`` needs (``saved_room``: the seats, the options, the password's hash) is
saved by the server's writer thread (``room_saving``), after the move's frames are sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from ..core.engine import Player
from ..core.errors import SnlError
from ..core.seats import Driver, TurnError
from ..core.session import GameSession
from ..core.store.saving import GameSaver
from ..core.text import plural, quote
from .guard import Secret
from .limits import Limits, Refusal, error, peer_address
from .protocol import (
    CLOSE_POLICY,
    HAND_TO,
    MAX_HISTORY,
    MAX_RECENT,
    MAX_WATCHERS,
    TIME_OUT_ACTIONS,
    ProtocolError,
    SeatInfo,
    check_chat,
    encode,
    name_key,
    state_json,
)
from .room_saving import RoomRecord, SaveWriter

KEEP_SEAT = 120.0
"""Seconds a dropped player's seat is kept for their token before anyone may take it by
name: long enough to come back after a network drop or a restarted terminal."""
GIVEN_AWAY_KEPT = 32
"""Seats given away whose old holders a room remembers, to tell them why on their return."""
CPU_DELAY = 0.8
"""Seconds a computer seat waits before rolling: long enough to follow the moves."""


class RoomHost(Protocol):
    """What a room needs of the server it runs in (``net.server.RoomServer``)."""

    limits: Limits
    keep_seat: float
    cpu_delay: float
    writer: SaveWriter
    clock: Callable[[], float]

    def say(self, line: str) -> None: ...

    def strike(self, connection: Connection, code: str, message: str) -> None: ...


@dataclass(frozen=True)
class Timers:
    """What the room does by itself about slow or absent players (``snl host`` options)."""

    turn_time: float | None = None
    """Seconds a person has to roll before ``on_time_out`` happens (None: no limit)."""
    on_time_out: str = "roll"
    """'roll': the host rolls for them; 'skip': their turn is passed."""
    away_after: float | None = None
    """Seconds a person may be gone before the computer plays their seat (None: never)."""

    def __post_init__(self) -> None:
        if self.on_time_out not in TIME_OUT_ACTIONS:
            raise SnlError(f"a late turn is rolled for or skipped, not {self.on_time_out!r}")
        for value in (self.turn_time, self.away_after):
            if value is not None and not value > 0:
                raise SnlError("a time limit must be more than 0 seconds")


def token_hash(token: str) -> str:
    """What a room keeps (and saves) of a seat token: never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# -- one connection -------------------------------------------------------------------------


_CLOSE = object()
"""The sender's last item: close the websocket after what is queued before it."""


class Connection:
    """One client: its websocket, its own send queue and where it sits."""

    def __init__(
        self, websocket: ServerConnection, limits: Limits, address: str | None = None
    ) -> None:
        self.websocket = websocket
        self.limits = limits
        self.queue: asyncio.Queue[object] = asyncio.Queue(limits.send_queue + 1)
        self.room: Room | None = None
        self.seat: int | None = None
        self.name = ""
        self.is_host = False
        """Joined with the room's host key: may skip, hand over, remove and mute."""
        self.strikes = 0
        self.muted = False
        """The host silenced this connection's chat (it stays so under any name)."""
        self.closing = False
        self.address = peer_address(websocket) if address is None else address
        """Where the connection counts as coming from (a browser door's visitor)."""
        self._allowance = float(limits.burst)
        self._checked = time.monotonic()
        self._chat_allowance = float(limits.chat_burst)
        self._chat_checked = self._checked
        self._close: tuple[int, str] = (CLOSE_POLICY, "")

    def send(self, frame: str) -> None:
        """Queue one frame; a reader too far behind is dropped (never waited for)."""
        if self.closing:
            return
        if self.queue.qsize() >= self.limits.send_queue:
            self.abort()
            return
        self.queue.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (a refusal is read before the close)."""
        if self.closing:
            return
        self.closing = True
        self._close = (code, reason)
        self.queue.put_nowait(_CLOSE)

    def abort(self) -> None:
        """Drop the connection now (a slow or stuck reader)."""
        self.closing = True
        self.websocket.transport.abort()

    def allowed(self) -> bool:
        """One more message under the rate limit (a token bucket)."""
        now = time.monotonic()
        self._allowance = min(
            float(self.limits.burst), self._allowance + (now - self._checked) * self.limits.rate
        )
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def may_chat(self) -> bool:
        """One more chat line under the chat limit (its own, slower token bucket)."""
        now = time.monotonic()
        limits = self.limits
        self._chat_allowance = min(
            float(limits.chat_burst),
            self._chat_allowance + (now - self._chat_checked) * limits.chat_rate,
        )
        self._chat_checked = now
        if self._chat_allowance < 1:
            return False
        self._chat_allowance -= 1
        return True

    async def run_sender(self) -> None:
        """Send the queued frames in order, each within the send timeout."""
        websocket = self.websocket
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    code, reason = self._close
                    await websocket.close(code, reason)
                    return
                assert isinstance(item, str)
                async with asyncio.timeout(self.limits.send_timeout):
                    await websocket.send(item)
        except TimeoutError:
            self.abort()
        except ConnectionClosed:
            self.closing = True


# -- rooms ----------------------------------------------------------------------------------


@dataclass
class SeatState:
    """A seat as the host knows it, token hash included."""

    name: str
    computer: bool
    taken: bool
    token_sha256: str | None = None
    connection: Connection | None = field(default=None, repr=False)
    standin: bool = False
    """The computer plays this person's seat (the host handed it over, or they have been
    away longer than ``Timers.away_after``) until they come back."""
    removed: bool = False
    """The host removed its person: the computer plays it to the end of the game."""
    free_since: float | None = None
    """When its person's connection went (the server's clock); None while connected."""
    muted: bool = False
    """The host silenced this seat's chat: under any name, with its token."""
    idle: bool = False
    """The room itself (not the host) handed this seat to the computer: its person was
    away, or here but not rolling, for ``Timers.away_after``. Coming back (or rolling)
    takes it back; a resumed room starts without it (everyone is away from then on)."""

    def info(self, now: float) -> SeatInfo:
        kind = "computer" if self.computer else "person"
        connected = self.computer or self.connection is not None
        away = None
        if not connected and self.taken and self.free_since is not None:
            away = int(max(0.0, now - self.free_since))
        return SeatInfo(
            self.name,
            kind,
            self.taken or self.computer,
            connected,
            away,
            standin=self.standin,
            removed=self.removed,
        )

    @property
    def played_by_computer(self) -> bool:
        return self.computer or self.standin or self.removed


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
            self.record.resumed(session.game)
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
        self._computer_turn: asyncio.TimerHandle | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self._turn_armed: tuple[int, int, int] | None = None
        """(seat, moves, game) the turn timer runs for: a seat change elsewhere keeps it."""
        self._turn_deadline: float | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self._given_away: dict[str, str] = {}
        """Token hashes that no longer hold a seat -> what to tell their holder."""
        now = server.clock()
        for seat in seats:  # a resumed room: its people are away from now on
            if seat.taken and not seat.computer and seat.connection is None:
                seat.free_since = now
            if seat.idle:  # the room's own stand-in: not before they have had a chance
                seat.standin = seat.idle = False

    def arm_away_timers(self) -> None:
        """Start ``Timers.away_after`` for every person not here (a resumed room, once
        the server runs): the computer plays for them only after that long."""
        for index, seat in enumerate(self.seats):
            if seat.taken and seat.connection is None and index not in self._away_timers:
                self._arm_away_timer(index)

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

    def watchers(self) -> list[str]:
        return sorted((c.name for c in self.spectators), key=str.casefold)[:MAX_WATCHERS]

    def state(self) -> dict[str, Any]:
        return state_json(self.status, self.seat_infos(), self.session, self.watchers())

    def connections(self) -> list[Connection]:
        seated = [seat.connection for seat in self.seats if seat.connection is not None]
        return [*seated, *self.spectators]

    def broadcast(self, frame: str) -> None:
        """The same frame to everyone in the room, encoded once."""
        for connection in self.connections():
            connection.send(frame)

    def _seats_changed(self) -> None:
        seats = [seat.to_json() for seat in self.seat_infos()]
        self.broadcast(encode("seats", status=self.status, seats=seats, watchers=self.watchers()))

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
                told = self._given_away.get(token_hash(token))
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
        self._seats_changed()
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
            self._seats_changed()
        self.server.say(f"{self.code}: {seat.name}'s seat is handed over")
        self._save()  # a resumed room must not give the old token its seat back

    def _give_away(self, digest: str, told: str) -> None:
        if len(self._given_away) >= GIVEN_AWAY_KEPT:
            del self._given_away[next(iter(self._given_away))]
        self._given_away[digest] = told

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
            before.seat = None
            before.room = None
            before.close(CLOSE_POLICY, "your seat was taken back from another connection")
        token = secrets.token_urlsafe(18)
        seat.token_sha256 = token_hash(token)
        seat.connection, seat.free_since = connection, None
        away = self._away_timers.pop(index, None)
        if away is not None:
            away.cancel()
        connection.room, connection.seat, connection.name = self, index, seat.name
        connection.send(self._welcome("player", index, token, notice))
        connection.send(self._timer_frame())
        came_back = seat.standin and not seat.removed
        seat.standin, seat.idle = seat.removed, False
        # The new token is saved at once, not with the next move: a host killed before
        # that move and --resumed must know it (the old one no longer holds the seat).
        self._save()
        self._seats_changed()
        self.server.say(f"{self.code}: {seat.name} sits in seat {index + 1}")
        if came_back:
            self.notice("back", f"{seat.name} is back and plays their own seat again.")
        self._next_turn()

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
        if index is not None and self.seats[index].connection is connection:
            seat = self.seats[index]
            seat.connection = None
            seat.free_since = self.server.clock()
            self._seats_changed()
            how = "quit" if quit else "lost the connection"
            self.notice("left", f"{seat.name} {how}: the seat is kept for them.")
            self._arm_away_timer(index)
        elif watcher:
            self._seats_changed()
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
            self._seats_changed()
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
        self._moved()

    def again(self, connection: Connection, token: str) -> None:
        """A new game in the same seats, once this one is over."""
        if self._own_seat(connection, token) is None:
            return
        if not self.session.game.over and len(self.session.game.history) < MAX_HISTORY:
            connection.send(error("not-over", "The game is not over yet."))
            return
        self.session.new_game()
        self.broadcast(encode("game", state=self.state()))
        # After the game: a screen shows the notice in the new game's log.
        self.notice("new-game", f"{connection.name} started a new game in the same seats.")
        self._next_turn()

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

    def _moved(self) -> None:
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
        asyncio.get_running_loop().call_soon(self._save)
        if game.winner is not None:
            self.server.say(f"{self.code}: {game.players[game.winner].name} wins")
        self._next_turn()

    def _save(self) -> None:
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
        """What ``--resume`` needs beside the session: the code, the seats, the host and
        every option of the room (the password as its salted hash only)."""
        timers = self.timers
        return {
            "code": self.code,
            "host": self.host_name,
            "seats": [
                {
                    "taken": s.taken,
                    "token_sha256": s.token_sha256,
                    "standin": s.standin,
                    "removed": s.removed,
                    "muted": s.muted,
                    "idle": s.idle,
                }
                for s in self.seats
            ],
            "options": {
                "password": None if self.password is None else self.password.to_json(),
                "turn_time": timers.turn_time,
                "late": timers.on_time_out,
                "away_after": timers.away_after,
                "keep_seat": self.keep_seat,
                "muted": sorted(self.muted),
                **self.options,
            },
        }

    # -- whose turn, and who plays it

    def _computer_plays(self, seat: int) -> bool:
        return self.session.driver(seat) is Driver.COMPUTER or self.seats[seat].played_by_computer

    def _next_turn(self) -> None:
        """After anything that may change whose turn it is or who plays it: the computer's
        roll after a pause, or the person's turn timer."""
        self._computer_next()
        self._arm_turn_timer()

    def _computer_next(self) -> None:
        """Let the computer roll after a pause when its seat (or a seat it stands in
        for) is to move."""
        if self._computer_turn is not None or self.status != "playing":
            return
        seat = self.session.seat_to_move
        if seat is None or not self._computer_plays(seat):
            return
        loop = asyncio.get_running_loop()
        self._computer_turn = loop.call_later(self.server.cpu_delay, self._computer_moves)

    def _computer_moves(self) -> None:
        self._computer_turn = None
        seat = self.session.seat_to_move
        if seat is None or self.status != "playing" or not self._computer_plays(seat):
            return
        if len(self.session.game.history) >= MAX_HISTORY:
            return  # the longest game a room plays: clients would refuse a longer one
        self.session.move_for(seat)
        self._moved()

    def _arm_turn_timer(self) -> None:
        """A person to move has ``Timers.turn_time`` seconds to roll, from the moment
        their turn began: anything else (a seat taken back, someone joining) leaves
        their clock running. Connected and not rolling for ``Timers.away_after`` counts
        as away too (``_idle_too_long``)."""
        seat = self.session.seat_to_move
        playing = self.status == "playing" and seat is not None
        armed = None
        if playing and seat is not None and not self._computer_plays(seat):
            armed = (seat, len(self.session.game.history), self.session.game_index)
        if armed is not None and armed == self._turn_armed:
            return  # the same turn: its clocks go on
        for handle in (self._turn_timer, self._idle_timer):
            if handle is not None:
                handle.cancel()
        self._turn_timer = self._idle_timer = None
        self._turn_armed, self._turn_deadline = armed, None
        if armed is not None:
            loop = asyncio.get_running_loop()
            index, moves, _ = armed
            limit, idle = self.timers.turn_time, self.timers.away_after
            if limit is not None:
                self._turn_timer = loop.call_later(limit, self._time_out, index, moves)
                self._turn_deadline = loop.time() + limit
            if idle is not None:
                self._idle_timer = loop.call_later(idle, self._idle_too_long, index, moves)
        if self.timers.turn_time is not None:
            self.broadcast(self._timer_frame())

    def _timer_frame(self) -> str:
        """How long the seat to move has left to roll (``timer``)."""
        deadline, armed = self._turn_deadline, self._turn_armed
        if deadline is None or armed is None:
            return encode("timer", seat=None, seconds=None)
        left = max(0, math.ceil(deadline - asyncio.get_running_loop().time()))
        return encode("timer", seat=armed[0], seconds=left)

    def _idle_too_long(self, index: int, moves: int) -> None:
        self._idle_timer = None
        session = self.session
        if session.seat_to_move != index or len(session.game.history) != moves:
            return
        seat = self.seats[index]
        if self.status != "playing" or seat.played_by_computer:
            return
        seat.standin = seat.idle = True
        self._seats_changed()
        limit = _seconds(self.timers.away_after)
        self.notice(
            "computer",
            f"{seat.name} has not rolled for {limit}: the computer plays for them until "
            "they roll again.",
        )
        self._next_turn()

    def _time_out(self, seat: int, moves: int) -> None:
        self._turn_timer = None
        self._turn_deadline = None
        session = self.session
        if session.seat_to_move != seat or len(session.game.history) != moves:
            return  # the turn was played meanwhile
        if self.status != "playing" or self._computer_plays(seat):
            return
        name, limit = self.seats[seat].name, _seconds(self.timers.turn_time)
        if self.timers.on_time_out == "skip":
            self.notice("timed-out", f"{name} did not roll within {limit}: the turn is skipped.")
            session.skip_for(seat)
        else:
            self.notice("timed-out", f"{name} did not roll within {limit}: the host rolls.")
            session.move_for(seat)
        self._moved()

    def _arm_away_timer(self, index: int) -> None:
        limit = self.timers.away_after
        seat = self.seats[index]
        if limit is None or seat.played_by_computer:
            return
        loop = asyncio.get_running_loop()
        self._away_timers[index] = loop.call_later(limit, self._away_too_long, index)

    def _away_too_long(self, index: int) -> None:
        self._away_timers.pop(index, None)
        seat = self.seats[index]
        if seat.connection is not None or seat.played_by_computer:
            return
        seat.standin = seat.idle = True
        self._seats_changed()
        limit = _seconds(self.timers.away_after)
        self.notice(
            "computer",
            f"{seat.name} has been away {limit}: the computer plays for them until they come back.",
        )
        self._next_turn()

    # -- the host's powers

    def host_action(self, connection: Connection, message: dict[str, Any]) -> None:
        """``skip``, ``hand``, ``kick`` or ``mute`` from the host's client (checked)."""
        kind = message["type"]
        if not connection.is_host:
            self.server.strike(connection, "host-only", f"Only the host can {kind}.")
            return
        if kind == "mute":
            self._mute(connection, message["name"], message["muted"])
            return
        index = message["seat"]
        if index >= len(self.seats):
            connection.send(error("no-seat", f"There is no seat {index + 1}."))
            return
        seat = self.seats[index]
        if seat.computer:
            connection.send(error("computer-seat", f"{seat.name} is the computer's seat."))
            return
        if kind == "skip":
            self._skip(connection, index)
        elif kind == "hand":
            self._hand(connection, index, message["to"])
        else:
            self._kick(connection, index)

    def _skip(self, connection: Connection, index: int) -> None:
        seat = self.seats[index]
        if self.status != "playing":
            connection.send(error("not-playing", "There is no turn to skip now."))
            return
        try:
            self.session.skip_for(index)
        except TurnError as refused:
            connection.send(error("not-their-turn", str(refused)))
            return
        why = "is away" if seat.connection is None else "was taking too long"
        self.notice("skipped", f"The host skipped {seat.name}'s turn ({seat.name} {why}).")
        self._moved()

    def _hand(self, connection: Connection, index: int, to: str) -> None:
        seat = self.seats[index]
        if to not in HAND_TO:
            connection.send(error("bad-hand", "A seat goes to the computer, its person or anyone."))
            return
        if seat.removed:
            connection.send(error("removed", f"{seat.name} was removed from this game."))
            return
        if not seat.taken:
            connection.send(error("free-seat", f"Nobody has taken {seat.name}'s seat yet."))
            return
        if to == "anyone":
            if seat.connection is connection:
                connection.send(error("own-seat", "The host keeps their own seat."))
                return
            self.hand_over(index)
            self.notice(
                "handed-over",
                f"The host handed {seat.name}'s seat over: whoever joins as {seat.name} takes it.",
            )
            return
        if (to == "computer") == seat.standin:
            already = "plays" if seat.standin else "does not play"
            connection.send(error("no-change", f"The computer {already} {seat.name}'s seat."))
            return
        seat.standin, seat.idle = to == "computer", False  # the host's own decision
        self._seats_changed()
        if seat.standin:
            self.notice("computer", f"The host handed {seat.name}'s seat to the computer.")
        elif seat.connection is None:
            self.notice("person", f"{seat.name}'s seat waits for {seat.name} again.")
            self._arm_away_timer(index)
        else:
            self.notice("person", f"{seat.name} plays their own seat again.")
        self._next_turn()

    def _kick(self, connection: Connection, index: int) -> None:
        seat = self.seats[index]
        if seat.removed:
            connection.send(error("removed", f"{seat.name} was removed already."))
            return
        if seat.connection is connection:
            connection.send(error("own-seat", "The host cannot remove their own seat."))
            return
        gone = seat.connection
        seat.removed, seat.standin, seat.taken = True, True, True
        seat.token_sha256, seat.connection, seat.free_since = None, None, None
        if gone is not None:
            gone.seat, gone.room = None, None
            gone.send(encode("refused", code="removed", message="the host removed you"))
            gone.close(CLOSE_POLICY, "the host removed you from the game")
        self._seats_changed()
        self.notice(
            "removed", f"The host removed {seat.name}: the computer plays the seat to the end."
        )
        self._next_turn()

    def _mute(self, connection: Connection, name: str, muted: bool) -> None:
        """Silence (or not) a person: their name, their seat (its token, whatever name
        they come back under) and their connections (a watcher's address too)."""
        key = name_key(name)
        seats = [s for s in self.seats if not s.computer and name_key(s.name) == key]
        people = [c for c in self.connections() if name_key(c.name) == key]
        if not seats and not people:
            connection.send(error("no-one", f"Nobody is called {quote(name)} here."))
            return
        for seat in seats:
            seat.muted = muted
        for person in people:
            person.muted = muted
            if person.seat is None:
                (self.muted_addresses.add if muted else self.muted_addresses.discard)(
                    person.address
                )
        shown = seats[0].name if seats else people[0].name
        if muted:
            self.muted.add(key)
            self.notice("muted", f"The host muted {shown}.")
        else:
            self.muted.discard(key)
            self.notice("unmuted", f"The host let {shown} chat again.")
        self._save()

    def _is_muted(self, connection: Connection) -> bool:
        if connection.muted or name_key(connection.name) in self.muted:
            return True
        index = connection.seat
        return index is not None and self.seats[index].muted

    # -- chat

    def chat(self, connection: Connection, text: str, *, reaction: bool = False) -> None:
        if self._is_muted(connection):
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
        timers = (self._computer_turn, self._turn_timer, self._idle_timer)
        for handle in (*timers, *self._away_timers.values()):
            if handle is not None:
                handle.cancel()
        self._computer_turn = self._turn_timer = self._idle_timer = None
        self._turn_armed = None
        self._away_timers.clear()


def _seconds(value: float | None) -> str:
    seconds = round(value or 0)
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{seconds // 60} minutes"


__all__ = [
    "CPU_DELAY",
    "KEEP_SEAT",
    "Connection",
    "Room",
    "RoomHost",
    "SeatState",
    "Timers",
    "token_hash",
]
