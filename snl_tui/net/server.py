"""The room server behind ``snl host``: rooms of one shared game each, over websockets.

The host holds the one true game of each room (``net.room``: the seats, the timers, the
host's powers, the chat): it rolls every die with the session's seeded RNG, makes a move
only for the seat whose turn it is, plays the computer seats, and saves the game after
every move in its store from a writer thread (``room_saving``), so ``snl games`` lists it,
``snl replay`` shows it and ``snl host --resume ID`` reopens the room with every option
(``saved_room``).

The door (``net.guard``). Before a handshake completes, a web page from a foreign
``Origin`` and, on loopback, a ``Host`` that is not a loopback name are refused (403), a
request with two of these headers is a 400, and an address holding
``Limits.per_address`` connections is turned away (503), so one peer cannot fill the
server. Wrong passwords are counted per address and per room (``PasswordGuard``,
``guard.room_guard``): slowed down, then locked out, and the refusal says so. The
room's host key, or a seat's live token, stands for the password. The host's own browser
door (``door_key``) names each visitor, and its connections count as theirs.

Hostile clients. Every frame is checked by ``protocol.decode_client``; a bad one gets an
``error`` reply, and ``MAX_STRIKES`` of them (or flooding past the rate limit) close the
connection with the reason. The first frame must be a ``join`` (within
``Limits.join_timeout``), else the connection is closed. Each connection has its own
bounded send queue and a sender task with a timeout, so a slow reader is dropped instead
of holding up its room, and nothing a connection does blocks the event loop: plain
bytes fail the websocket handshake, half-open connections time out (handshake, join,
keepalive pings).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import TYPE_CHECKING

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..core.errors import SnlError
from ..core.session import GameSession, GameSettings
from ..core.store.saving import GameSaver
from .address import CODE_ALPHABET, CODE_LENGTH, normal_code
from .guard import (
    DOOR_KEY_HEADER,
    VISITOR_HEADER,
    PasswordGuard,
    Secret,
    counted_address,
    door_refusal,
    host_names,
    room_guard,
)
from .limits import Limits, Refusal, check_board_size, error, peer_address
from .people import Connection, SeatState, token_hash
from .protocol import (
    CLOSE_POLICY,
    CLOSE_TRY_LATER,
    HOST_MESSAGES,
    MAX_FRAME,
    MAX_STRIKES,
    PROTOCOL_VERSION,
    REACTION_TEXT,
    REACTIONS,
    TIME_OUT_ACTIONS,
    ProtocolError,
    check_name,
    decode_client,
    encode,
)
from .room import CPU_DELAY, KEEP_SEAT, Room
from .room_clocks import Timers
from .room_saving import SaveWriter
from .saved_room import SavedOptions, read_saved_room, saved_options

if TYPE_CHECKING:
    from ..core.store.games import SavedGame, Store

TOO_MANY = "too many connections from your address"
Log = Callable[[str], None]


# -- the server -----------------------------------------------------------------------------


class RoomServer:
    """Rooms keyed by code on one websocket server."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        limits: Limits | None = None,
        cpu_delay: float = CPU_DELAY,
        log: Log | None = None,
        origins: Iterable[str] = (),
        guard: PasswordGuard | None = None,
        keep_seat: float = KEEP_SEAT,
        clock: Callable[[], float] = time.monotonic,
        door_key: str | None = None,
    ) -> None:
        """``origins``: web pages (``scheme://host:port``) allowed to open a socket
        besides terminal clients, which send no Origin. ``keep_seat``: seconds a dropped
        player's seat waits for their token before it may be taken by name.
        ``door_key``: the key of this host's own browser door (``snl host --web``), whose
        connections count as the visitor they name (``guard.counted_address``)."""
        self.door_key = door_key
        self.keep_seat = keep_seat
        self.clock = clock
        self.store = store
        self.limits = limits or Limits()
        self.cpu_delay = cpu_delay
        self.rooms: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.origins = frozenset(origin.strip().lower() for origin in origins)
        self.guard = guard or PasswordGuard()
        self.room_guards: dict[str, PasswordGuard] = {}
        """Wrong passwords per room (``guard.room_guard``), beside ``guard``'s per address."""
        self._hosts: frozenset[str] | None = None
        self._per_address: Counter[str] = Counter()
        self.writer = SaveWriter()
        """Writes the rooms' saves in a thread of its own (``room_saving``)."""
        self._log = log
        self._server: Server | None = None

    def say(self, line: str) -> None:
        if self._log is not None:
            self._log(line)

    # -- rooms

    def open_room(
        self,
        settings: GameSettings,
        *,
        password: str | None = None,
        code: str | None = None,
        timers: Timers | None = None,
        host_name: str | None = None,
    ) -> Room:
        """A new room for ``settings`` (classic mode: the host rolls every die)."""
        if settings.mode != "classic":
            raise SnlError("a room plays classic mode: the host rolls every die")
        if all(player.computer for player in settings.players):
            raise SnlError("a room needs at least one seat for a person")
        check_board_size(settings.board.rows, settings.board.cols)
        seats = [SeatState(p.name, p.computer, taken=p.computer) for p in settings.players]
        remote = frozenset(i for i, p in enumerate(settings.players) if not p.computer)
        session = GameSession(settings, remote_seats=remote)
        secret = Secret.of(password) if password else None
        room = self._add(code, session, seats, secret, GameSaver(self.store))
        room.timers, room.host_name = timers or Timers(), host_name
        return room

    def resume_room(
        self,
        saved: SavedGame,
        *,
        password: str | None = None,
        timers: Timers | None = None,
        keep_seat: float | None = None,
    ) -> Room:
        """Reopen a saved room's game with its code, seats and options (``snl host
        --resume``): ``password``, ``timers`` and ``keep_seat``, when given, replace the
        saved ones (``saved_room.saved_options`` reads those)."""
        back = read_saved_room(saved)
        options = back.options
        saver = GameSaver(self.store)
        saver.resumed(back.session, saved.id)
        secret = Secret.of(password) if password else options.password
        reopened = self._add(back.code, back.session, back.seats, secret, saver)
        reopened.timers, reopened.host_name = timers or options.timers, back.host_name
        reopened.keep_seat = options.keep_seat if keep_seat is None else keep_seat
        reopened.muted = set(options.muted)
        reopened.muted_addresses = set(options.muted_addresses)
        reopened.given_away = dict(back.given_away)
        reopened.clocks.restore(back.clocks)
        reopened.options = dict(options.extra)
        reopened.recent.extend(back.recent)  # the host's screen opens with them again
        return reopened

    def _add(
        self,
        code: str | None,
        session: GameSession,
        seats: list[SeatState],
        password: Secret | None,
        saver: GameSaver,
    ) -> Room:
        if code is None or code in self.rooms or not _valid_code(code):
            code = self._new_code()
        room = Room(self, code, session, seats, password, saver)
        self.rooms[code] = room
        if self._server is not None:  # serving already: open it now (else ``start`` does)
            asyncio.get_running_loop().call_soon(room.opened)
        return room

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    # -- serving

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port. OSError when
        the address cannot be used."""
        limits = self.limits
        self._server = await serve(
            self._handle,
            host,
            port,
            process_request=self._door,
            compression=None,
            max_size=MAX_FRAME,
            max_queue=4,
            open_timeout=limits.open_timeout,
            ping_interval=limits.ping_interval,
            ping_timeout=limits.ping_timeout,
            close_timeout=limits.close_timeout,
            server_header=None,
        )
        bound = int(self._server.sockets[0].getsockname()[1])
        self._hosts = host_names(host, bound)
        for room in self.rooms.values():  # saved at once; a resumed room's absent people
            room.opened()
        return bound

    def _door(self, websocket: ServerConnection, request: Request) -> Response | None:
        """Before the handshake: a foreign web page, a wrong Host on loopback, or an
        address holding too many connections gets an HTTP error with the reason."""
        headers = request.headers
        for name in ("Host", "Origin", DOOR_KEY_HEADER, VISITOR_HEADER):
            if len(headers.get_all(name)) > 1:
                self.say(f"refused a connection: more than one {name} header")
                return websocket.respond(HTTPStatus.BAD_REQUEST, f"one {name} header at most\n")
        origin, host = headers.get("Origin"), headers.get("Host")
        reason = door_refusal(origin, host, self._hosts, self.origins)
        if reason is not None:
            self.say(f"refused a connection: {reason}")
            return websocket.respond(HTTPStatus.FORBIDDEN, reason + "\n")
        if self._per_address[self._counted(websocket, request)] >= self.limits.per_address:
            return websocket.respond(HTTPStatus.SERVICE_UNAVAILABLE, TOO_MANY + "\n")
        return None

    def _counted(self, websocket: ServerConnection, request: Request | None) -> str:
        """The address a connection counts as (its peer's, or its door's visitor)."""
        peer = peer_address(websocket)
        if request is None or self.door_key is None:
            return peer
        headers = request.headers
        key, visitor = headers.get_all(DOOR_KEY_HEADER), headers.get_all(VISITOR_HEADER)
        if len(key) != 1 or len(visitor) != 1:
            return peer
        return counted_address(peer, key[0], visitor[0], self.door_key)

    async def stop(self) -> None:
        """Close every connection (1001, the host stopped), stop listening, and write
        the saves still queued."""
        self.stop_rooms()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        await self.saved()

    def stop_rooms(self) -> None:
        """Save every room and stop its clocks: whatever closes next (the browser door's
        games, the connections) is the host stopping, not people leaving."""
        for room in self.rooms.values():
            room.stop()

    async def saved(self) -> None:
        """Wait until every save asked for so far is written (``SaveWriter``)."""
        await self.writer.written()

    async def _handle(self, websocket: ServerConnection) -> None:
        if len(self.connections) >= self.limits.max_connections:
            await websocket.close(CLOSE_TRY_LATER, "the server is full")
            return
        address = self._counted(websocket, websocket.request)
        if self._per_address[address] >= self.limits.per_address:
            await websocket.close(CLOSE_TRY_LATER, TOO_MANY)
            return
        connection = Connection(websocket, self.limits, address)
        self.connections.add(connection)
        self._per_address[address] += 1
        sender = asyncio.create_task(connection.run_sender())
        try:
            await self._read(connection)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(connection)
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]
            if connection.room is not None:
                # A close frame from the client: it quit; none: the connection was lost.
                quit = websocket.close_code in (1000, 1001)
                connection.room.leave(connection, quit=quit)
            if not sender.done():
                sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def _read(self, connection: Connection) -> None:
        websocket = connection.websocket
        try:
            async with asyncio.timeout(self.limits.join_timeout):
                first = await websocket.recv()
        except TimeoutError:
            connection.close(CLOSE_POLICY, "no join message in time")
            await _drain(websocket)
            return
        self._join(connection, first)
        async for frame in websocket:
            if connection.closing:
                continue  # closing: what comes before the close answer is ignored
            self._receive(connection, frame)

    def _join(self, connection: Connection, frame: str | bytes) -> None:
        try:
            message = decode_client(frame)
            if message["type"] != "join":
                raise Refusal("join-first", "the first message must be a join")
            if message["version"] != PROTOCOL_VERSION:
                raise Refusal(
                    "bad-version",
                    f"this host speaks protocol {PROTOCOL_VERSION}, not {message['version']}: "
                    "use the same snl version as the host",
                )
            code = normal_code(message["room"])
            room = self.rooms.get(code)
            if room is None:
                raise Refusal("no-room", f"there is no room {code} on this server")
            host_key = message.get("host")
            if host_key is not None and not hmac.compare_digest(
                _utf8(room.host_key), _utf8(host_key)
            ):
                raise Refusal("wrong-host-key", "that is not this room's host key")
            # The host's own client holds the host key: the room is theirs, password or not
            # (a resumed room keeps only the password's hash). A seat's live token was
            # handed out after the password: it proves it (a restarted client, a tab).
            token = message.get("token")
            proven = host_key is not None or (token is not None and room.holds(token))
            if room.password is not None and not proven:
                if "password" not in message:
                    raise Refusal("password-needed", "this room needs a password (--password)")
                self._check_password(connection, room, message["password"])
            name = check_name(message["name"])
            connection.is_host = host_key is not None
            room.admit(connection, name, message.get("token"), message.get("spectate", False))
        except ProtocolError as problem:
            self._refuse(connection, problem.code, str(problem))
        except Refusal as refusal:
            self._refuse(connection, refusal.code, refusal.message)

    def _check_password(self, connection: Connection, room: Room, given: str) -> None:
        """Refusal unless ``given`` is the room's password, and not too soon after
        wrong ones from the same address, or to the same room from anywhere
        (``PasswordGuard``, ``guard.room_guard``)."""
        guard, address = self.guard, connection.address
        per_room = self.room_guards.setdefault(room.code, room_guard(guard.clock))
        wait = guard.refusal(address) or per_room.refusal(room.code)
        if wait is not None:
            raise Refusal("too-many-tries", wait)
        assert room.password is not None
        if not room.password.matches(given):
            guard.failed(address)
            per_room.failed(room.code)
            self.say(f"a wrong password from {address}")
            raise Refusal("wrong-password", "wrong password for this room")
        guard.succeeded(address)

    def _refuse(self, connection: Connection, code: str, message: str) -> None:
        connection.send(encode("refused", code=code, message=message))
        connection.close(CLOSE_POLICY, message[:100])

    def _receive(self, connection: Connection, frame: str | bytes) -> None:
        if not connection.allowed():
            self.strike(connection, "rate-limited", "Too many messages: slow down.")
            return
        try:
            message = decode_client(frame)
        except ProtocolError as problem:
            self.strike(connection, problem.code, str(problem))
            return
        room = connection.room
        if room is None:  # the seat was taken back by another connection
            return
        kind = message["type"]
        if kind == "roll":
            room.roll(connection, message["token"])
        elif kind == "again":
            room.again(connection, message["token"])
        elif kind == "sync":
            connection.send(encode("state", state=room.state()))
        elif kind == "chat":
            room.chat(connection, message["text"])
        elif kind == "react":
            reaction = REACTION_TEXT.get(message["reaction"])
            if reaction is None:
                self.strike(connection, "bad-reaction", f"A reaction is one of {REACTIONS}.")
            else:
                room.chat(connection, reaction, reaction=True)
        elif kind in HOST_MESSAGES:
            room.host_action(connection, message)
        else:  # join
            self.strike(connection, "already-joined", "This connection has joined already.")

    def strike(self, connection: Connection, code: str, message: str) -> None:
        """A bad message: an error reply, and the connection closed after too many."""
        connection.strikes += 1
        connection.send(error(code, message))
        if connection.strikes >= MAX_STRIKES:
            connection.close(CLOSE_POLICY, f"too many bad messages (last: {code})")


async def _drain(websocket: ServerConnection) -> None:
    """Read until the close handshake ends (what arrives meanwhile is dropped)."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in websocket:
            pass


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # JSON can carry a lone surrogate


def _valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(char in CODE_ALPHABET for char in code)


__all__ = [
    "CPU_DELAY",
    "KEEP_SEAT",
    "TIME_OUT_ACTIONS",
    "Connection",
    "Limits",
    "Room",
    "RoomServer",
    "SavedOptions",
    "SeatState",
    "Timers",
    "saved_options",
    "token_hash",
]
