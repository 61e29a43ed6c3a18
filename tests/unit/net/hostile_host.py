"""A hostile host for the client's tests: a websocket server on a free loopback port that
reads the client's join and answers with whatever frames a test scripts."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.net.address import RoomAddress
from snl_tui.net.protocol import encode, state_json
from snl_tui.net.server import SeatState

from .rooms import CLASSIC

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[H\x9b31m\u202e"
"""A window title (OSC), a clear screen, a cursor home, a C1 CSI and a bidi override."""

Script = Callable[[ServerConnection], Any]


def hostile_state(names: Sequence[str], session: GameSession | None = None) -> dict[str, Any]:
    """A well-formed state whose players are ``names`` (escapes and all)."""
    players = tuple(Player(name) for name in names)
    session = session or GameSession(GameSettings(CLASSIC, players, 3))
    seats = [SeatState(name, False, True) for name in names]
    return state_json("playing", [seat.info(0.0) for seat in seats], session)


def welcome(state: dict[str, Any], notice: str = "Welcome.", seat: int | None = 0) -> str:
    return encode(
        "welcome",
        role="player" if seat is not None else "spectator",
        seat=seat,
        token="t" * 20 if seat is not None else None,
        notice=notice,
        room="ABCDEF",
        state=state,
    )


@contextlib.asynccontextmanager
async def hostile_host(script: Script) -> AsyncIterator[RoomAddress]:
    """Serve ``script(websocket)`` (after the join is read) on a free loopback port."""

    async def handle(websocket: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            await websocket.recv()  # the join
            await script(websocket)
            async for _ in websocket:  # then listen (syncs) until the client leaves
                pass

    async with serve(handle, "127.0.0.1", 0, max_size=None, compression=None) as server:
        port = int(next(iter(server.sockets)).getsockname()[1])
        yield RoomAddress("127.0.0.1", port, "ABCDEF")


def endless_state(rolls: int, rows: int = 3, cols: int = 3) -> dict[str, Any]:
    """A well-formed state of a game that is ``rolls`` rolls of 1 long: on a board whose
    snake 3 -> 1 sends both tokens round for ever (an honest host's game, only long)."""
    board = Board.from_jumps(rows, cols, snakes=[(3, 1)])
    session = GameSession(GameSettings(board, (Player("Ann"), Player("Bob")), 3))
    state = hostile_state(["Ann", "Bob"], session)
    game = state["session"]
    game["game"]["rolls"] = [1] * rolls
    game["game"]["draws"] = 0
    moves = (rolls + 1) // 2, rolls // 2  # each token: 1 -> 2 -> (3 ->) 1 ...
    game["positions"] = [1 + moves[0] % 2, 1 + moves[1] % 2]
    game["turn"] = rolls % 2
    return state
