"""What a connection cannot do to the server: plain bytes, half-open connections, a
connection that never joins and a reader that stops reading are dropped, and meanwhile
a game in another room goes on to its end."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from websockets.asyncio.client import connect

from snl_tui.net.protocol import CLOSE_POLICY, encode
from snl_tui.net.server import Connection, Limits

from .rooms import (
    SCRIPT_LIMITS,
    WAIT,
    close_all,
    closed,
    join_frame,
    next_of,
    play_to_end,
    raw,
    seated,
    serving,
    settings,
    until,
)

SHORT = Limits(
    rate=SCRIPT_LIMITS.rate,
    burst=SCRIPT_LIMITS.burst,
    open_timeout=0.5,
    join_timeout=0.5,
    send_queue=8,
    send_timeout=1.0,
)


async def _eof(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the TCP connection."""
    received = b""
    async with asyncio.timeout(WAIT):
        while chunk := await reader.read(4096):
            received += chunk
    return received


async def test_plain_bytes_half_open_and_silent_connections_are_dropped() -> None:
    async with serving(None, SHORT) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        players = await seated(port, room, ["Ann", "Bob"])
        game = asyncio.create_task(play_to_end(room, players))
        # Plain bytes instead of a websocket handshake.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"\x00\xff hello there\r\n\r\n" * 50)
        await writer.drain()
        answer = await _eof(reader)
        assert b"101" not in answer.split(b"\r\n", 1)[0]  # never switched to a websocket
        writer.close()
        # A TCP connection that says nothing: closed once the handshake times out.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await _eof(reader) == b""
        writer.close()
        # A websocket that never joins: closed with the reason.
        silent = await raw(port)
        close_code, reason = await closed(silent)
        assert (close_code, reason) == (CLOSE_POLICY, "no join message in time")
        await asyncio.wait_for(game, WAIT * 3)
        assert room.session.game.over
        await close_all(players)


async def test_a_reader_that_stops_reading_is_dropped_and_stalls_nobody() -> None:
    async with serving(None, SHORT) as (server, port):
        watched = server.open_room(settings(["A", "B"]))
        other = server.open_room(settings(["A", "B"]))
        # A small receive buffer, and then no reading at all.
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        stuck = await connect(
            f"ws://127.0.0.1:{port}/", sock=sock, compression=None, proxy=None, max_size=None
        )
        await stuck.send(join_frame(watched, "Zed", spectate=True))
        await next_of(stuck, "welcome")
        stuck.transport.pause_reading()
        for _ in range(4000):  # each answer is the whole state (the board and the game)
            await stuck.send(encode("sync"))
        players = await seated(port, other, ["Ann", "Bob"])
        await play_to_end(other, players)
        await until(lambda: len(server.connections) == 2)  # the stuck reader is gone
        await close_all(players)


class _StuckWebsocket:
    """A websocket whose peer never reads: every send waits forever."""

    def __init__(self) -> None:
        self.aborted = asyncio.Event()
        self.transport = self

    async def send(self, frame: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        await asyncio.Event().wait()

    def abort(self) -> None:
        self.aborted.set()


async def test_a_full_send_queue_drops_the_reader_at_once() -> None:
    websocket: Any = _StuckWebsocket()
    connection = Connection(websocket, Limits(send_queue=4, send_timeout=WAIT * 10))
    for number in range(5):
        connection.send(f"frame {number}")
    assert websocket.aborted.is_set() and connection.closing


async def test_a_send_that_takes_too_long_drops_the_reader() -> None:
    websocket: Any = _StuckWebsocket()
    connection = Connection(websocket, Limits(send_timeout=0.05))
    sender = asyncio.create_task(connection.run_sender())
    connection.send("one frame")
    await asyncio.wait_for(websocket.aborted.wait(), WAIT)
    await asyncio.wait_for(sender, WAIT)
