"""A room's client: joins a room of ``snl host``, keeps the shared game, rolls for its seat.

``RoomClient`` is plain asyncio (no Textual): a screen runs it in a worker and reads
``client.session`` after each event (``listener``), a script awaits ``wait_for``. The
game it holds is rebuilt from the server's ``state`` snapshots (``protocol.read_state``:
without the host's seeds, which it never learns) and moved on by each ``move`` event,
checked in order (a gap asks for the state again).

Everything from the host is untrusted: each frame is read in a thread
(``protocol.read_server_frame``, bounded by ``MAX_SERVER_FRAME``, ``MAX_HISTORY`` and
``MAX_ROOM_SQUARES``), so the screen's event loop never waits on it, and every text the
host sends (names, notices, errors) is escaped as it arrives.
Its own seat is driven locally, the other people's seats remotely (``GameSession.driver``).

When the connection drops, the client reconnects by itself with a growing, jittered
delay (``Backoff``) and rejoins its seat with its token (or, if the host forgot the
token, with its name). A refusal that cannot change by waiting (no such room, a wrong
password, another protocol version, a bad name) stops it: ``client.refused`` says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from ..core.engine import Turn
from ..core.errors import SnlError
from ..core.session import GameSession
from .address import RoomAddress, parse_address
from .guard import DoorPass, is_loopback
from .protocol import (
    MAX_CHAT,
    MAX_HISTORY,
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    STATUSES,
    ProtocolError,
    RoomState,
    SeatInfo,
    encode,
    read_server_frame,
    shown_text,
)

FINAL_REFUSALS = frozenset(
    {"no-room", "wrong-password", "bad-version", "bad-name", "join-first", "room-full"}
    | {"password-needed", "removed", "wrong-host-key"}
    | {"too-many-tries", "seat-given-away", "seat-elsewhere"}
)
"""Refusals that waiting cannot change (or must not be retried soon): the client stops
instead of reconnecting. A seat kept for its player (``seat-kept``) is tried again: it
is free once the host's wait is over. A seat taken back from another connection
(``seat-elsewhere``: the same person's second tab or terminal) stops this one: trying
again would take it back, and the other would, for ever; the token on disk is the
other's now, and stays."""


CHAT_RATE = 20.0
"""Chat lines a second a client shows at most, on average (the host lets each person
say one every two seconds)..."""
CHAT_BURST = 60.0
"""...and at once."""
INLINE_FRAME = 2048
"""Characters of a frame read on the event loop itself (a move, a notice, a chat line);
a larger one (a state: the whole game) is read in a thread."""


@dataclass(frozen=True)
class Backoff:
    """Reconnection delays: ``first`` seconds, doubling up to ``most``, each +-``jitter``."""

    first: float = 0.25
    most: float = 8.0
    jitter: float = 0.2

    def delay(self, attempt: int) -> float:
        base = min(self.most, self.first * 2.0 ** min(attempt, 30))
        return base * random.uniform(1 - self.jitter, 1 + self.jitter)


class EventKind(StrEnum):
    """What a ``ClientEvent`` is about (a ``str``: ``kind == "move"`` reads as before)."""

    WELCOME = "welcome"
    """The room took us in (again, after a drop): the whole state came with it."""
    MOVE = "move"
    """The host made a move (``turn``)."""
    SEATS = "seats"
    """Someone joined, left or came back."""
    GAME = "game"
    """A new game began in the same seats."""
    STATE = "state"
    """The whole state again (an answer to ``sync``)."""
    ERROR = "error"
    """The host refused one of our messages; we stay."""
    REFUSED = "refused"
    """The room refused us (``RoomClient.refused`` when for good)."""
    DISCONNECTED = "disconnected"
    """The connection dropped: reconnecting."""
    NOTICE = "notice"
    """What happened and why (``code``)."""
    CHAT = "chat"
    """Someone said something (``name``)."""
    TIMER = "timer"
    """The turn clock changed (``RoomClient.turn_deadline``)."""


@dataclass(frozen=True)
class ClientEvent:
    """What just happened, for a listener (the screen)."""

    kind: EventKind
    message: str | None = None
    turn: Turn | None = None
    """The move's turn (``move``)."""
    code: str | None = None
    """A notice's or an error's code (``new-game``, ``skipped``...)."""
    name: str | None = None
    """Who said a chat line."""


Listener = Callable[[ClientEvent], None]


class RoomClient:
    """One person's (or spectator's) connection to a room."""

    def __init__(
        self,
        address: RoomAddress | str,
        name: str,
        *,
        password: str | None = None,
        spectate: bool = False,
        token: str | None = None,
        host_key: str | None = None,
        listener: Listener | None = None,
        backoff: Backoff | None = None,
        open_timeout: float = 10.0,
        ping_interval: float | None = 10.0,
        ping_timeout: float | None = 10.0,
        door: DoorPass | None = None,
        on_token: Callable[[str | None], None] | None = None,
    ) -> None:
        """``door``: this client is a browser door's tab (``snl serve --room``), and says
        whose (sent to a room on this machine only: the key is the host's secret).
        ``on_token``: called with each new seat token (None: the room no longer knows
        the last one), to keep it on disk (``seat_tokens``)."""
        self.address = parse_address(address) if isinstance(address, str) else address
        self.name = name
        self.password = password
        self.spectate = spectate
        self.token = token
        self.host_key = host_key
        """The room's host key (``snl host --name``'s own client): the host's powers."""
        self.listener = listener
        self.on_token = on_token
        self.backoff = backoff or Backoff()
        self._options: dict[str, Any] = {
            "open_timeout": open_timeout,
            "ping_interval": ping_interval,
            "ping_timeout": ping_timeout,
            "close_timeout": 2.0,
            "max_size": MAX_SERVER_FRAME,
            "compression": None,
            "proxy": None,
        }
        here = is_loopback(self.address.host) or self.address.host == "localhost"
        if door is not None and here and not self.address.web:
            self._options["additional_headers"] = door.headers()
        # What the room looks like, as far as the last message said.
        self.session: GameSession | None = None
        self.status: str | None = None
        self.seats: tuple[SeatInfo, ...] = ()
        self.seats_heard = 0.0
        """When ``seats`` came (``loop.time()``): a seat's time away grows from there."""
        self.watchers: tuple[str, ...] = ()
        self.muted_watchers: tuple[str, ...] = ()
        """The watchers the host muted (the host's menu offers to undo it)."""
        self.seat: int | None = None
        self.role: str | None = None
        self.notice: str | None = None
        self.last_error: str | None = None
        self.refused: ProtocolError | None = None
        """Why the room refused this client for good (it stopped reconnecting)."""
        self.connections = 0
        """How many times a connection was made (1 for the first; more after drops)."""
        self.failures = 0
        """Connections that ended without a welcome (refused, unreachable, dropped)."""
        self.last_failure: str | None = None
        """Why the last connection could not be made, in words ("connection refused")."""
        self.last_refusal: ProtocolError | None = None
        """The room's last refusal, final or not (a name already playing, say)."""
        self.turn_seat: int | None = None
        """The seat whose turn clock runs (``--turn-time``), and..."""
        self.turn_deadline: float | None = None
        """...when it runs out (``loop.time()``); None: no clock runs."""
        self.chat_dropped = 0
        """Chat lines not shown: the host sent more than ``CHAT_RATE`` allows."""
        self._chat_allowance = float(CHAT_BURST)
        self._chat_checked = 0.0
        self.recent: list[ClientEvent] = []
        """The room's last notices and chat lines from before this client joined (its
        first welcome): a screen shows them first, as a rejoining one has them."""
        self.welcomes = 0
        """Welcomes so far: the first one's ``recent`` lines are shown, a rejoin's not
        (its screen has them already)."""
        self.resyncs = 0
        """How many times the client found its game out of step with the host's (or a
        frame garbled) and asked for the whole state again."""
        self._websocket: ClientConnection | None = None
        self._closing = False
        self._changed = asyncio.Condition()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- what a screen asks

    @property
    def connected(self) -> bool:
        return self._websocket is not None and self.role is not None

    @property
    def is_host(self) -> bool:
        return self.host_key is not None

    @property
    def my_turn(self) -> bool:
        session = self.session
        return (
            self.connected
            and self.status == "playing"
            and session is not None
            and self.seat is not None
            and session.seat_to_move == self.seat
            and not (self.seat < len(self.seats) and self.seats[self.seat].standin)
        )

    # -- running

    def start(self) -> asyncio.Task[None]:
        """Run the client in a task of the running loop (``close`` ends it)."""
        if self._task is None:
            self._task = asyncio.create_task(self.run())
        return self._task

    async def run(self) -> None:
        """Connect, play, and reconnect after a drop, until ``close`` or a final refusal."""
        attempt = 0
        while not self._closing and self.refused is None:
            welcomed = await self._connect_once()
            if not welcomed:
                self.failures += 1
            if self._closing or self.refused is not None:
                break
            attempt = 0 if welcomed else attempt + 1
            self._emit(ClientEvent(EventKind.DISCONNECTED, "reconnecting..."))
            await self._notify()
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.backoff.delay(attempt)):
                    await self._wake.wait()  # close() cuts the wait short

    async def _connect_once(self) -> bool:
        """One connection, until it ends; True when the room welcomed it."""
        welcomed = False
        try:
            async with connect(self.address.uri, **self._options) as websocket:
                self._websocket = websocket
                self.connections += 1
                await websocket.send(self._join_frame())
                async for frame in websocket:
                    await self._receive(websocket, frame)
                    welcomed = welcomed or self.role is not None
        except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, InvalidURI) as error:
            self.last_failure = shown_text(_failure_text(error))
        finally:
            self._websocket = None
            self.role = None
        return welcomed

    def _join_frame(self) -> str:
        fields: dict[str, Any] = {
            "version": PROTOCOL_VERSION,
            "room": self.address.code,
            "name": self.name,
        }
        if self.password is not None:
            fields["password"] = self.password
        if self.token is not None:
            fields["token"] = self.token
        if self.spectate:
            fields["spectate"] = True
        if self.host_key is not None:
            fields["host"] = self.host_key
        return encode("join", **fields)

    async def close(self) -> None:
        """Leave the room and stop reconnecting."""
        self._closing = True
        self._wake.set()
        websocket = self._websocket
        if websocket is not None:
            await websocket.close()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- playing

    async def roll(self) -> bool:
        """Ask the host to roll for this seat; False when not connected or not seated
        (whether it was this seat's turn, the host decides and says)."""
        return await self._send_with_token("roll")

    async def again(self) -> bool:
        """Ask for a new game in the same seats (once the game is over)."""
        return await self._send_with_token("again")

    async def sync(self) -> bool:
        """Ask for the whole state again."""
        return await self._send(encode("sync"))

    async def chat(self, text: str) -> bool:
        """Say one line to everyone in the room."""
        return await self._send(encode("chat", text=text[:MAX_CHAT]))

    async def react(self, reaction: str) -> bool:
        """A quick reaction (one of ``REACTIONS``)."""
        return await self._send(encode("react", reaction=reaction))

    # -- the host's powers (the host refuses them from anyone else)

    async def skip(self, seat: int) -> bool:
        """Skip ``seat``'s turn (it must be that seat's turn)."""
        return await self._send(encode("skip", seat=seat))

    async def hand(self, seat: int, to: str) -> bool:
        """Hand ``seat`` to "computer", or back to its "person"."""
        return await self._send(encode("hand", seat=seat, to=to))

    async def kick(self, seat: int) -> bool:
        """Remove ``seat``'s person from the game (the computer plays it)."""
        return await self._send(encode("kick", seat=seat))

    async def mute(self, name: str, muted: bool = True) -> bool:
        return await self._send(encode("mute", name=name, muted=muted))

    async def _send_with_token(self, kind: str) -> bool:
        if self.token is None or self.seat is None:
            return False
        return await self._send(encode(kind, token=self.token))

    async def _send(self, frame: str) -> bool:
        websocket = self._websocket
        if websocket is None:
            return False
        try:
            await websocket.send(frame)
        except ConnectionClosed:
            return False
        return True

    async def wait_for(self, predicate: Callable[[], bool], timeout: float) -> None:
        """Wait until ``predicate()`` holds (checked after every message and every
        change of connection); TimeoutError after ``timeout`` seconds."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(predicate)

    # -- what the server says

    async def _receive(self, websocket: ClientConnection, frame: str | bytes) -> None:
        try:
            # Decoding (the whole game, for a state) runs in a thread: a host's frame can
            # never hold up the screen's keys, Ctrl+Q included. A small frame (a move, a
            # chat line: microseconds to read) is read here, without the thread's hop.
            if len(frame) <= INLINE_FRAME:
                message = read_server_frame(frame)
            else:
                message = await asyncio.to_thread(read_server_frame, frame)
            in_step = self._apply(message)
        except ProtocolError as problem:
            self.last_error = shown_text(str(problem))
            in_step = False
        if not in_step:
            self.resyncs += 1
            await websocket.send(encode("sync"))  # out of step or garbled: the state again
        await self._notify()

    def _apply(self, message: dict[str, Any]) -> bool:
        """Take one message in; False when the game is out of step with the host."""
        kind = message["type"]
        if kind == "welcome":
            self._load(message["state"])
            self.role, self.seat = message["role"], message["seat"]
            if message["token"] is not None:
                self.token = message["token"]
                if self.on_token is not None:
                    self.on_token(self.token)
            notice = message["notice"]
            self.notice = None if notice is None else shown_text(notice)
            self._drive_seats()
            self.welcomes += 1
            self._emit(ClientEvent(EventKind.WELCOME, self.notice))
            if self.welcomes == 1:  # what was said before this client came
                self.recent = [_said(earlier) for earlier in message.get("recent", [])]
        elif kind == "timer":
            seconds, seat = message["seconds"], message["seat"]
            self.turn_seat = seat if seconds is not None else None
            self.turn_deadline = None if seconds is None else _now() + seconds
            self._emit(ClientEvent(EventKind.TIMER))
        elif kind in ("state", "game"):
            self._load(message["state"])
            self._emit(ClientEvent(EventKind(kind)))
        elif kind == "seats":
            self.seats = message["seats"]
            self.watchers = message["watchers"]
            self.muted_watchers = message["muted_watchers"]
            self.seats_heard = _now()
            self.status = _status(message["status"])
            self._emit(ClientEvent(EventKind.SEATS))
        elif kind in ("notice", "chat"):
            if kind == "chat" and not self._may_show_chat():
                return True  # a flood: dropped here, before any screen's queue
            self._emit(_said(message))
        elif kind == "move":
            return self._move(message)
        elif kind == "error":
            self.last_error = shown_text(message["message"])
            self._emit(
                ClientEvent(EventKind.ERROR, self.last_error, code=shown_text(message["code"]))
            )
        elif kind == "refused":
            self._refused(shown_text(message["code"]), shown_text(message["message"]))
        return True

    def _may_show_chat(self) -> bool:
        """One more chat line for the screen under ``CHAT_RATE`` (a token bucket): an
        honest room stays far below it, a hostile host's flood cannot fill the screen's
        queue (and slow its quitting). The first line dropped says so."""
        now = _now()
        allowance = min(CHAT_BURST, self._chat_allowance + (now - self._chat_checked) * CHAT_RATE)
        self._chat_checked = now
        if allowance < 1:
            self._chat_allowance = allowance
            self.chat_dropped += 1
            if self.chat_dropped == 1:
                self._emit(
                    ClientEvent(
                        EventKind.NOTICE,
                        "The host sends chat lines faster than anyone reads: some are not shown.",
                        code="chat-flood",
                    )
                )
            return False
        self._chat_allowance = allowance - 1
        return True

    def _load(self, state: RoomState) -> None:
        self.session, self.seats, self.status = state.session, state.seats, state.status
        self.watchers, self.seats_heard = state.watchers, _now()
        self.muted_watchers = state.muted_watchers
        self._drive_seats()

    def _drive_seats(self) -> None:
        """Our own seat is driven here; every other seat, people's and the computer's,
        is the host's to move: its moves come over the network."""
        session = self.session
        if session is None:
            return
        seats = set(range(len(session.game.players)))  # the host rolls for them all
        session.remote_seats = frozenset(seats - {self.seat} if self.seat is not None else seats)

    def _move(self, message: dict[str, Any]) -> bool:
        session = self.session
        if session is None:
            return False
        game = session.game
        if message["index"] != len(game.history) or message["seat"] != session.seat_to_move:
            return False
        if len(game.history) >= MAX_HISTORY:  # no longer than a state may be
            self.last_error = f"the game is longer than a room plays ({MAX_HISTORY} rolls)"
            return False
        try:
            # The host rolled this die: the engine's roll, so house rules (three sixes
            # cancel the turn) act here exactly as on the host.
            outcome = session.take_roll(message["die"])
        except SnlError:
            return False
        self.status = _status(message["status"])
        self._emit(ClientEvent(EventKind.MOVE, turn=outcome.turn))
        return True

    def _refused(self, code: str, message: str) -> None:
        self.last_refusal = ProtocolError(code, message)
        if code in ("wrong-token", "seat-given-away") and self.on_token is not None:
            self.on_token(None)  # the token on disk opens nothing any more
        if code == "wrong-token":
            self.token = None  # the host forgot it (restarted): rejoin by name
        elif code in FINAL_REFUSALS:
            self.refused = ProtocolError(code, message)
        self.notice = message
        self._emit(ClientEvent(EventKind.REFUSED, message))

    def _emit(self, event: ClientEvent) -> None:
        if self.listener is not None:
            self.listener(event)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()


def _said(message: dict[str, Any]) -> ClientEvent:
    """A ``notice`` or ``chat`` message as an event, its texts escaped (checked by the
    host, escaped here anyway: the host may be anyone's)."""
    if message["type"] == "notice":
        return ClientEvent(
            EventKind.NOTICE, shown_text(message["message"]), code=shown_text(message["code"])
        )
    return ClientEvent(
        EventKind.CHAT,
        shown_text(message["text"]),
        code="reaction" if message["reaction"] else None,
        name=shown_text(message["name"]),
    )


def _failure_text(error: BaseException) -> str:
    """Why a connection failed, for a person: 'connection refused', 'no answer'..."""
    if isinstance(error, ConnectionRefusedError):
        return "connection refused (is snl host running there?)"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    if isinstance(error, InvalidStatus) and error.response.status_code in (403, 503):
        # The room's door said why (a foreign page, too many connections...).
        reason = error.response.body.decode("utf-8", "replace").strip()
        return f"the host refused the connection: {reason or error.response.reason_phrase}"
    if isinstance(error, InvalidHandshake | InvalidURI):
        return "that address does not answer as an snl room"
    if isinstance(error, ConnectionClosed):
        return "the connection was closed"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


def _now() -> float:
    return asyncio.get_running_loop().time()


def _status(value: str) -> str:
    if value not in STATUSES:
        raise ProtocolError("bad-state", "unknown room status")
    return value


__all__ = ["Backoff", "ClientEvent", "EventKind", "RoomClient"]
