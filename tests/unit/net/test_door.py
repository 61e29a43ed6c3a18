"""The room's door: foreign web pages and re-pointed names are refused, one address
cannot fill the server, and wrong passwords are slowed down and then locked out."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from snl_tui.net.client import RoomClient
from snl_tui.net.guard import PasswordGuard
from snl_tui.net.server import Limits, RoomServer

from .rooms import (
    FAST_BACKOFF,
    SCRIPT_LIMITS,
    WAIT,
    FakeClock,
    address,
    close_all,
    join_frame,
    next_of,
    seated,
    serving,
    settings,
)

ATTACKER = "127.0.0.2"
"""Another loopback address (Linux routes all of 127/8 to lo): a second peer."""


async def _socket(port: int, *, source: str = "127.0.0.1", **headers: str) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{port}/",
        additional_headers=headers,
        local_addr=(source, 0),
        compression=None,
        proxy=None,
    )


async def _status_line(port: int, host: str, origin: str | None = None) -> bytes:
    """The first line of the server's answer to a websocket handshake with these headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [
        "GET / HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    async with asyncio.timeout(WAIT):
        line = await reader.readline()
    writer.close()
    return line


async def test_foreign_pages_and_re_pointed_names_are_refused() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        here = f"127.0.0.1:{port}"
        assert b" 101 " in await _status_line(port, here)  # a terminal client: no Origin
        assert b" 101 " in await _status_line(port, f"localhost:{port}")
        assert b" 403 " in await _status_line(port, here, "https://evil.example")
        assert b" 403 " in await _status_line(port, here, f"http://{here}")  # not allowed
        assert b" 403 " in await _status_line(port, f"evil.example:{port}")  # rebinding
        with pytest.raises(InvalidStatus) as refused:
            await _socket(port, Origin="https://evil.example")
        assert b"web pages from other sites" in refused.value.response.body
        # Terminal clients play as before.
        players = await seated(port, room, ["Ann"])
        await close_all(players)


async def test_an_allowed_page_and_any_host_name_off_loopback() -> None:
    server = RoomServer(None, limits=SCRIPT_LIMITS, origins=["http://127.0.0.1:8000"])
    port = await server.start("0.0.0.0", 0)
    try:
        assert b" 101 " in await _status_line(port, f"127.0.0.1:{port}", "http://127.0.0.1:8000")
        assert b" 101 " in await _status_line(port, f"games.example:{port}")  # any name
        assert b" 403 " in await _status_line(port, "x", "https://evil.example")
    finally:
        await server.stop()


async def test_one_address_cannot_fill_the_server() -> None:
    limits = Limits(
        rate=SCRIPT_LIMITS.rate, burst=SCRIPT_LIMITS.burst, max_connections=24, join_timeout=WAIT
    )
    async with serving(None, limits) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        idle = [await _socket(port, source=ATTACKER) for _ in range(limits.per_address)]
        with pytest.raises(InvalidStatus) as refused:
            await _socket(port, source=ATTACKER)
        assert refused.value.response.status_code == 503
        assert b"too many connections from your address" in refused.value.response.body
        # A real player, from another address, still sits down.
        player = RoomClient(address(port, room), "Ann", backoff=FAST_BACKOFF)
        player.start()
        await player.wait_for(lambda: player.seat is not None or player.failures > 0, WAIT)
        assert player.seat == 0, player.last_failure
        await player.close()
        for socket in idle:
            await socket.close()


async def _try(port: int, room: object, password: str, source: str = "127.0.0.1") -> dict:
    websocket = await _socket(port, source=source)
    await websocket.send(join_frame(room, "Ann", password=password))  # type: ignore[arg-type]
    answer = json.loads(json.dumps(await next_of(websocket, "refused")))
    await websocket.close()
    return dict(answer)


async def _welcomed(port: int, room: object, password: str) -> bool:
    websocket = await _socket(port)
    await websocket.send(join_frame(room, "Ann", password=password, spectate=True))  # type: ignore[arg-type]
    async with asyncio.timeout(WAIT):
        kind = json.loads(await websocket.recv())["type"]
    await websocket.close()
    return kind == "welcome"


async def test_wrong_passwords_are_slowed_then_locked_out_per_address() -> None:
    clock = FakeClock()
    guard = PasswordGuard(clock=clock)
    server = RoomServer(None, limits=SCRIPT_LIMITS, cpu_delay=0, guard=guard)
    port = await server.start("127.0.0.1", 0)
    try:
        room = server.open_room(settings(["A", "B"]), password="sesame")
        for _ in range(guard.free_tries):
            assert (await _try(port, room, "guess"))["code"] == "wrong-password"
        # Now even the right password must wait, and the refusal says so in words.
        refused = await _try(port, room, "sesame")
        assert refused["code"] == "too-many-tries"
        assert refused["message"] == (
            "too many wrong passwords from your address: try again in 1 second"
        )
        # Another address is not slowed down by this one.
        assert (await _try(port, room, "guess", source=ATTACKER))["code"] == "wrong-password"
        clock.now += 1
        assert await _welcomed(port, room, "sesame")  # after the wait: in, and forgiven
        for wrong in range(guard.lock_after):
            refused = await _try(port, room, "guess")
            assert refused["code"] == "wrong-password", wrong
            clock.now += 2 ** max(0, wrong + 1 - guard.free_tries)  # each wait, no sooner
        refused = await _try(port, room, "sesame")
        assert refused["code"] == "too-many-tries" and "locked out" in refused["message"]
        clock.now += guard.lockout
        assert await _welcomed(port, room, "sesame")
    finally:
        await server.stop()


@given(st.lists(st.floats(min_value=0, max_value=4.9), min_size=1, max_size=60))  # < lockout
def test_an_address_gets_few_checks_however_it_paces_them(gaps: list[float]) -> None:
    """Whatever the pace, one address has at most ``lock_after`` passwords checked in a
    lockout period: brute force is some 10 guesses in 5 minutes, not 500 a second."""
    clock = FakeClock()
    guard = PasswordGuard(clock=clock)
    checked = 0
    for gap in gaps:
        clock.now += gap
        if guard.refusal("peer") is None:
            checked += 1
            guard.failed("peer")
    assert checked <= guard.lock_after
