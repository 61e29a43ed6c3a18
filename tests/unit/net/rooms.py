"""Helpers for the rooms' tests: a server on a free loopback port, scripted clients, a
game played to the end in a bounded loop, raw connections for hostile frames."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSettings
from snl_tui.core.store.games import Store, open_store
from snl_tui.net.address import RoomAddress
from snl_tui.net.client import Backoff, RoomClient
from snl_tui.net.protocol import PROTOCOL_VERSION, SeatInfo, encode
from snl_tui.net.server import Limits, Room, RoomServer

CLASSIC = load_board("classic")
WAIT = 20.0
"""Seconds a test waits for a condition at most (a loaded machine is slow, never that slow)."""
FAST_BACKOFF = Backoff(first=0.02, most=0.2)
SCRIPT_LIMITS = Limits(rate=100_000, burst=100_000)
"""Scripted players roll as fast as the host answers, far above a person's rate limit
(test_a_flood_is_rate_limited_and_closed checks the real one)."""


def settings(players: Sequence[str], seed: int = 7) -> GameSettings:
    return GameSettings(CLASSIC, tuple(Player.parse(name) for name in players), seed)


@contextlib.asynccontextmanager
async def serving(
    store: Store | None, limits: Limits = SCRIPT_LIMITS, **options: Any
) -> AsyncIterator[tuple[RoomServer, int]]:
    """A room server on a free port of 127.0.0.1, stopped afterwards (``options`` go to
    ``RoomServer``)."""
    server = RoomServer(store, limits=limits, cpu_delay=0, **options)
    port = await server.start("127.0.0.1", 0)
    try:
        yield server, port
    finally:
        await server.stop()


def address(port: int, room: Room) -> RoomAddress:
    return RoomAddress("127.0.0.1", port, room.code)


def store_in(folder: Path) -> Store:
    return open_store(folder / "games.db")


class FakeClock:
    """A server clock a test moves by hand (seats kept, password waits)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def seated(
    port: int, room: Room, names: Sequence[str], tokens: Sequence[str | None] = ()
) -> list[RoomClient]:
    """One started client per name (with its seat's token, when given), each welcomed
    into its seat, and each seeing the room's seats as the host has them (the frames
    about the others joining have arrived: a client reads frames in a thread)."""
    tokens = list(tokens) or [None] * len(names)
    clients = [
        RoomClient(address(port, room), name, token=token, backoff=FAST_BACKOFF)
        for name, token in zip(names, tokens, strict=True)
    ]
    for client in clients:
        client.start()
        await client.wait_for(lambda c=client: c.seat is not None, WAIT)
    for client in clients:
        await client.wait_for(lambda c=client: _settled(c, room), WAIT)
    return clients


def _present(seats: Sequence[SeatInfo]) -> tuple[SeatInfo, ...]:
    """The seats without their time away (it grows between two messages)."""
    return tuple(dataclasses.replace(seat, away=None) for seat in seats)


def _settled(client: RoomClient, room: Room) -> bool:
    session = client.session
    return (
        _present(client.seats) == _present(room.seat_infos())
        and client.status == room.status
        and session is not None
        and [p.name for p in session.game.players] == [p.name for p in room.session.game.players]
    )


async def play_moves(room: Room, clients: Sequence[RoomClient], count: int) -> None:
    """Play until the host's game has ``count`` more moves (or is over), then wait until
    a person is to move and every client has seen every move: nothing is on its way."""
    target = len(room.session.game.history) + count
    await play_to_end(room, clients, stop=lambda: len(room.session.game.history) >= target)
    await until(
        lambda: (
            room.session.game.over
            or (_anyone(clients) and all(_seen(c, len(room.session.game.history)) for c in clients))
        )
    )


async def play_to_end(
    room: Room,
    clients: Sequence[RoomClient],
    max_moves: int = 3000,
    stop: Callable[[], bool] | None = None,
) -> None:
    """Every client rolls on its turn until the host's game is over (or ``stop()``), then
    every client has seen the last move. Bounded: at most ``max_moves`` rolls. A client
    rolls only once it has seen its previous move come back: until then its view of
    whose turn it is may be one move old."""
    for _ in range(max_moves):
        if room.session.game.over or (stop is not None and stop()):
            break
        mover = next((c for c in clients if c.my_turn), None)
        moves = len(room.session.game.history)
        if mover is None:  # a computer's turn, or a move on its way: wait for the next one
            await until(lambda n=moves: len(room.session.game.history) > n or _anyone(clients))
            continue
        await mover.roll()
        await mover.wait_for(lambda m=mover, n=moves: _seen(m, n + 1), WAIT)
    assert room.session.game.over or (stop is not None and stop())
    total = len(room.session.game.history)
    for client in clients:
        await client.wait_for(lambda c=client: _seen(c, total), WAIT)


def _seen(client: RoomClient, moves: int) -> bool:
    session = client.session
    return session is not None and len(session.game.history) >= moves


def _anyone(clients: Sequence[RoomClient]) -> bool:
    return any(client.my_turn for client in clients)


async def until(predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll a condition on the server's side (no event to wait on there), bounded."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


async def close_all(clients: Sequence[RoomClient]) -> None:
    for client in clients:
        await client.close()


def reference_rolls(players: Sequence[Player], seed: int, count: int) -> list[int]:
    """The first ``count`` dice of an engine game with ``seed``: the host's dice."""
    game = Game(CLASSIC, tuple(players), seed)
    return [game.roll().move.die for _ in range(count)]


async def raw(port: int) -> ClientConnection:
    """A bare websocket to the server, for frames no RoomClient would send."""
    return await connect(f"ws://127.0.0.1:{port}/", compression=None, proxy=None, max_size=None)


def join_frame(room: Room, name: str, **fields: object) -> str:
    return encode("join", version=PROTOCOL_VERSION, room=room.code, name=name, **fields)


async def next_of(websocket: ClientConnection, kind: str) -> dict[str, object]:
    """The next message of type ``kind`` (others are skipped)."""
    import json

    async with asyncio.timeout(WAIT):
        while True:
            message = json.loads(await websocket.recv())
            if message["type"] == kind:
                return dict(message)


async def closed(websocket: ClientConnection) -> tuple[int | None, str | None]:
    """Read until the server closes; its close code and reason."""
    from websockets.exceptions import ConnectionClosed

    async with asyncio.timeout(WAIT):
        with contextlib.suppress(ConnectionClosed):
            while True:
                await websocket.recv()
    return websocket.close_code, websocket.close_reason


def cut(client: RoomClient) -> None:
    """Cut a client's connection without a close frame: what the host sees of a process
    killed with -9, or of a network that dropped (the one place a test reaches inside
    the client: to get at the wire)."""
    websocket = client._websocket
    assert websocket is not None
    websocket.transport.abort()


async def play_until(
    clients: Sequence[RoomClient], done: Callable[[], bool], pace: float, max_moves: int = 3000
) -> None:
    """Clients roll on their turns, one roll each ``pace`` seconds at most (under a
    person's rate limit), until ``done()``: for a host in another process, whose game
    this process only sees through its clients. Bounded: ``max_moves`` rolls."""
    for _ in range(max_moves):
        if done():
            return
        mover = next((c for c in clients if c.my_turn), None)
        if mover is None:
            await asyncio.sleep(pace)
            continue
        seen = len(mover.session.game.history) if mover.session else 0
        await mover.roll()
        await mover.wait_for(lambda m=mover, n=seen: _seen(m, n + 1) or done(), WAIT)
        await asyncio.sleep(pace)
    assert done()


class ServerThread:
    """A room server on its own event loop in a thread (``snl join`` runs its own loop)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = RoomServer(None, cpu_delay=0)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = self.run(self.server.start("127.0.0.1", 0))

    def run(self, coroutine):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(WAIT)

    def open_room(self, *names: str, password: str | None = None) -> Room:
        async def opened() -> Room:
            return self.server.open_room(settings(list(names)), password=password)

        return self.run(opened())  # type: ignore[no-any-return]

    def stop(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()
