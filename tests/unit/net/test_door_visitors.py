"""Browser joiners each count as their own address: ``snl host --web``'s door reaches the
room from 127.0.0.1 for every visitor, and names each visitor beside the room's door key
(``net.guard``), so one visitor cannot use up the per-address caps or the password
guard for everyone joining by browser, and nobody without the key can claim an address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from snl_tui.cli import join as join_cli
from snl_tui.cli import serve, serve_commands
from snl_tui.cli.main import main
from snl_tui.net.address import RoomAddress
from snl_tui.net.guard import (
    DOOR_KEY_ENV,
    DOOR_KEY_HEADER,
    PASSWORD_ENV,
    VISITOR_ENV,
    VISITOR_HEADER,
    DoorPass,
    PasswordGuard,
    counted_address,
    new_door_key,
)
from snl_tui.net.server import Limits, Room, RoomServer

from .rooms import (
    SCRIPT_LIMITS,
    WAIT,
    FakeClock,
    ServerThread,
    join_frame,
    next_of,
    settings,
    until,
)

KEY = new_door_key()
ANN, BOB = "198.51.100.7", "203.0.113.9"
"""Two visitors of the browser door (documentation addresses: never this machine's)."""
LIMITS = Limits(
    rate=SCRIPT_LIMITS.rate, burst=SCRIPT_LIMITS.burst, max_connections=64, join_timeout=WAIT
)


async def _socket(port: int, headers: dict[str, str] | None = None) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{port}/", additional_headers=headers, compression=None, proxy=None
    )


def _as(visitor: str, key: str = KEY) -> dict[str, str]:
    return {DOOR_KEY_HEADER: key, VISITOR_HEADER: visitor}


async def _refused(port: int, headers: dict[str, str] | None = None) -> int:
    with pytest.raises(InvalidStatus) as refused:
        await _socket(port, headers)
    return refused.value.response.status_code


async def _server(door_key: str | None, **options: Any) -> tuple[RoomServer, int]:
    server = RoomServer(None, limits=LIMITS, cpu_delay=0, door_key=door_key, **options)
    return server, await server.start("127.0.0.1", 0)


async def test_each_visitor_has_the_per_address_cap_to_themselves() -> None:
    server, port = await _server(KEY)
    try:
        ann = [await _socket(port, _as(ANN)) for _ in range(LIMITS.per_address)]
        assert await _refused(port, _as(ANN)) == 503
        # Bob, through the same door (the same peer, 127.0.0.1), still comes in...
        bob = await _socket(port, _as(BOB))
        # ...and so does a terminal on this machine, which counts as 127.0.0.1.
        local = await _socket(port)
        await until(lambda: len(server.connections) == LIMITS.per_address + 2)
        assert sorted({c.address for c in server.connections}) == sorted({ANN, BOB, "127.0.0.1"})
        for websocket in [*ann, bob, local]:
            await websocket.close()
    finally:
        await server.stop()


async def test_without_the_key_a_claimed_address_is_ignored() -> None:
    server, port = await _server(KEY)
    try:
        mine = [await _socket(port) for _ in range(LIMITS.per_address)]  # 127.0.0.1 is full
        # A wrong key, or a key with no visitor, counts as the peer itself: refused.
        assert await _refused(port, _as(BOB, key=new_door_key())) == 503
        assert await _refused(port, {DOOR_KEY_HEADER: KEY}) == 503
        assert await _refused(port, {VISITOR_HEADER: BOB}) == 503
        # Two visitor headers: which one to believe? Neither.
        doubled = [(DOOR_KEY_HEADER, KEY), (VISITOR_HEADER, BOB), (VISITOR_HEADER, ANN)]
        with pytest.raises(InvalidStatus):
            await connect(f"ws://127.0.0.1:{port}/", additional_headers=doubled, proxy=None)
        # The door's own key lets its visitor in.
        bob = await _socket(port, _as(BOB))
        for websocket in [*mine, bob]:
            await websocket.close()
    finally:
        await server.stop()


async def test_a_room_without_a_door_believes_no_visitor() -> None:
    server, port = await _server(None)  # snl host without --web
    try:
        mine = [await _socket(port, _as(ANN)) for _ in range(LIMITS.per_address)]
        assert await _refused(port, _as(BOB)) == 503
        assert {c.address for c in server.connections} == {"127.0.0.1"}
        for websocket in mine:
            await websocket.close()
    finally:
        await server.stop()


async def _password(port: int, room: Room, password: str, visitor: str) -> dict[str, Any]:
    websocket = await _socket(port, _as(visitor))
    await websocket.send(join_frame(room, "Ann", password=password))
    answer = dict(await next_of(websocket, "refused"))
    await websocket.close()
    return answer


async def test_wrong_passwords_lock_out_the_visitor_who_sent_them_only() -> None:
    clock = FakeClock()
    guard = PasswordGuard(clock=clock)
    server, port = await _server(KEY, guard=guard)
    try:
        room = server.open_room(settings(["A", "B"]), password="sesame")
        for _ in range(guard.lock_after):
            assert (await _password(port, room, "guess", ANN))["code"] == "wrong-password"
            clock.now += 100  # past each wait (64 s at most), within the count's memory
        assert (await _password(port, room, "guess", ANN))["code"] == "too-many-tries"
        assert (await _password(port, room, "guess", BOB))["code"] == "wrong-password"
    finally:
        await server.stop()


@given(
    peer=st.sampled_from(["127.0.0.1", "::1", "127.0.0.2", "192.0.2.1", "2001:db8::1", "x"]),
    key=st.sampled_from([KEY, KEY + "x", "", KEY.upper()]),
    visitor=st.sampled_from([ANN, "2001:db8::5", "not an address", "", " " + BOB]),
)
def test_only_a_local_peer_with_the_key_names_a_real_address(
    peer: str, key: str, visitor: str
) -> None:
    counted = counted_address(peer, key, visitor, KEY)
    believed = peer.startswith("127.") or peer == "::1"
    believed = believed and key == KEY and visitor.strip() in (ANN, BOB, "2001:db8::5")
    assert counted == (visitor.strip() if believed else peer)
    assert counted_address(peer, key, visitor, None) == peer  # no door: nobody is believed


def test_a_tabs_join_process_is_told_its_visitor_in_its_environment() -> None:
    """The door's command exports the visitor; the key comes from the door's own
    environment (never the command line); ``snl join`` reads both back."""
    command = serve_commands.join_command(
        "127.0.0.1:8765/ABCDEF", "Ann", "pass word", False, False, ANN
    )
    assert KEY not in command and "pass word" not in command.partition(" && exec ")[2]
    prefix, _, _ = command.partition(" && exec ")
    # And SIGINT ignored: Ctrl+C at the door's terminal reaches its games too, and one
    # that quit on it told its tab "you left" instead of "the host is away".
    reader = (
        "import os, json, signal; "
        "print(json.dumps(dict(os.environ, SIGINT=str(signal.getsignal(signal.SIGINT)))))"
    )
    shown = subprocess.run(
        ["sh", "-c", f"{prefix} && exec {sys.executable} -c '{reader}'"],
        env={**os.environ, DOOR_KEY_ENV: KEY},
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    )
    environment = json.loads(shown.stdout)
    assert environment.pop("SIGINT") == str(signal.SIG_IGN)
    assert DoorPass.from_environment(environment) == DoorPass(KEY, ANN)
    assert environment[PASSWORD_ENV] == "pass word"
    assert DoorPass.from_environment({DOOR_KEY_ENV: KEY}) is None
    assert VISITOR_ENV not in serve_commands.join_command("r", "Ann", None, False, False)


def test_snl_join_in_a_tab_counts_as_its_visitor(monkeypatch: pytest.MonkeyPatch) -> None:
    """``snl join``, as the door starts it (the key, its visitor and the password in its
    environment), presents its visitor to the room and gets in with the password."""
    host = ServerThread()
    try:
        host.server.door_key = KEY
        room = host.open_room("A", "B", password="sesame")
        monkeypatch.setenv(DOOR_KEY_ENV, KEY)
        monkeypatch.setenv(VISITOR_ENV, BOB)
        monkeypatch.setenv(PASSWORD_ENV, "sesame")  # the password typed in the tab
        seen: list[set[str]] = []

        async def addresses() -> set[str]:
            return {c.address for c in host.server.connections}

        def play_in_room(joined: Any, **_: Any) -> int:
            async def joining() -> None:
                client = await joined()
                seen.append(host.run(addresses()))
                await client.close()

            asyncio.run(joining())
            return 0

        monkeypatch.setattr(join_cli, "play_in_room", play_in_room)
        assert main(["join", f"127.0.0.1:{host.port}/{room.code}", "--name", "Vic"]) == 0
        assert seen == [{BOB}]
    finally:
        host.stop()


@pytest.fixture
async def door_and_room(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Any, Room, int]]:
    """A room server with a door key, and ``snl serve --room``'s server for it (in this
    process, as ``snl host --web`` starts it in another), listening on 127.0.0.1."""
    aiohttp = pytest.importorskip("aiohttp", reason="snl serve needs the web extra")
    pytest.importorskip("textual_serve", reason="snl serve needs the web extra")
    from aiohttp.test_utils import TestServer

    server, port = await _server(KEY)
    room = server.open_room(settings(["A", "B"]))
    monkeypatch.setenv(DOOR_KEY_ENV, KEY)
    address = RoomAddress("127.0.0.1", port, room.code)
    door = serve._server_class()("true", host="127.0.0.1", port=0, max_sessions=4, room=address)
    door.quit_grace = 0.5
    web = TestServer(await door._make_app(), host="127.0.0.1")
    await web.start_server()
    door.hosts = serve.host_names("127.0.0.1", web.port)
    try:
        yield aiohttp, server, web.port
    finally:
        await web.close()
        await server.stop()


async def test_the_doors_pass_through_counts_each_browser_visitor(door_and_room: Any) -> None:
    """``snl join http://HOST:PORT/join/CODE`` goes through the door's ``/room``: each
    visitor (here two loopback source addresses) has the room's cap to themselves."""
    aiohttp, server, door_port = door_and_room

    async def through(session: Any) -> Any:
        return await session.ws_connect(f"http://127.0.0.1:{door_port}/room")

    first, second = (
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        for source in ("127.0.0.2", "127.0.0.3")
    )
    async with first, second:
        held = [await through(first) for _ in range(LIMITS.per_address)]
        await until(lambda: len(server.connections) == LIMITS.per_address)
        assert {c.address for c in server.connections} == {"127.0.0.2"}
        full = await through(first)  # the room refuses it: the door closes it, 1013
        async with asyncio.timeout(WAIT):
            message = await full.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE and full.close_code == 1013
        other = await through(second)
        await until(lambda: len(server.connections) == LIMITS.per_address + 1)
        assert {c.address for c in server.connections} == {"127.0.0.2", "127.0.0.3"}
        for websocket in [*held, other]:
            await websocket.close()


async def test_one_visitor_runs_at_most_half_the_doors_games(
    door_and_room: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Each tab of a room's door is a process: one visitor's address may run half of
    ``--max-sessions`` of them, so the other half stays for everyone else."""
    from ..test_serve_bounds import GAME

    aiohttp, server, door_port = door_and_room
    (room,) = server.rooms.values()
    script = tmp_path / "game.py"
    script.write_text(GAME)
    stand_in = f"exec {sys.executable} {script} {tmp_path / 'pid'} echo"
    told: list[str | None] = []

    def join_command(*arguments: Any) -> str:
        told.append(arguments[5])  # the visitor the tab's process would be told
        return stand_in

    monkeypatch.setattr(serve, "join_command", join_command)
    first, second = (
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        for source in ("127.0.0.2", "127.0.0.3")
    )
    url = f"http://127.0.0.1:{door_port}/ws?name=Ann&code={room.code}"
    origin = {"Origin": f"http://127.0.0.1:{door_port}"}

    async def tab(session: Any) -> Any:
        websocket = await session.ws_connect(url, headers=origin)
        return websocket

    async with first, second:
        games = [await tab(first) for _ in range(2)]  # max_sessions 4: 2 a visitor
        try:
            await until(lambda: told == ["127.0.0.2", "127.0.0.2"])
            games.append(await tab(first))
            async with asyncio.timeout(WAIT):  # the door's pings reset receive's timeout
                message = await games[-1].receive()
            assert message.type == aiohttp.WSMsgType.CLOSE, "a third game for one visitor"
            assert games[-1].close_code == 1013
            games.append(await tab(second))  # another visitor still gets a game
            await until(lambda: told[-1:] == ["127.0.0.3"])
        finally:
            for websocket in games:
                await websocket.close()


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def test_the_password_and_the_door_key_are_on_no_command_line(tmp_path: Path) -> None:
    """``snl host --web --password P``: the door process (and what its tabs run) never
    has the password or the door key in its command line, which ``ps`` shows every user
    of the machine; the door still knows the room has a password (its page asks, at the
    link it said, on the free port it chose for ``--web-port 0``)."""
    pytest.importorskip("textual_serve", reason="snl serve needs the web extra")
    import time
    import urllib.request

    command = ["host", "--port", "0", "--web", "--web-port", "0"]  # any free port
    host = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", *command, "--password", "sesame", "--no-save"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, PASSWORD_ENV: "not-this-one"},
    )
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        link = host.stdout.readline().split()[2]
        assert first.startswith("snl join ") and "/join/" in link, (first, link)
        assert not link.startswith("http://127.0.0.1:0/"), link  # the port it listens on
        deadline = time.monotonic() + WAIT
        while not (doors := _children(host.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(doors) == 1
        door = doors[0]
        command_line = Path(f"/proc/{door}/cmdline").read_bytes().decode()
        assert "serve" in command_line and "--room" in command_line
        assert "sesame" not in command_line and "--password" not in command_line
        environment = Path(f"/proc/{door}/environ").read_bytes().decode().split("\0")
        # The door is told that the room has a password (it asks each tab), never which.
        assert f"{PASSWORD_ENV}=" in environment
        assert not any("sesame" in line for line in environment)
        assert any(line.startswith(f"{DOOR_KEY_ENV}=") for line in environment)
        page = ""
        while not page:  # the door says its link as it starts, a moment before it listens
            try:
                with urllib.request.urlopen(link, timeout=WAIT) as answer:
                    page = answer.read().decode()
            except OSError:
                assert time.monotonic() < deadline, "the door never answered"
                time.sleep(0.05)
        assert 'type="password"' in page
        # What a tab of the door runs: no password on the line, the typed one in the
        # environment (the room's password, from the host, is not inherited).
        command = serve_commands.join_command("127.0.0.1:1/ABCDEF", "Ann", "typed", False, False)
        assert "typed" not in command.partition(" && exec ")[2]
    finally:
        host.terminate()
        host.wait(WAIT)


def test_a_host_stopped_as_soon_as_it_speaks_closes_its_door() -> None:
    """SIGTERM the moment ``snl host --web`` has said its link: the door's process ends
    with the host (it was left running, serving a room that was gone)."""
    pytest.importorskip("textual_serve", reason="snl serve needs the web extra")
    import time

    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snl_tui",
            "host",
            "--port",
            "0",
            "--web",
            "--web-port",
            "0",
            "--no-save",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    doors: list[int] = []
    try:
        assert host.stdout is not None
        host.stdout.readline()
        assert "or open http" in host.stdout.readline()
        doors = _children(host.pid)  # the door is up before its link is said
        assert len(doors) == 1
        host.terminate()
        assert host.wait(WAIT) == 0  # stopped as asked, not killed by the signal
        deadline = time.monotonic() + WAIT
        while Path(f"/proc/{doors[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not Path(f"/proc/{doors[0]}").exists(), "the door outlived its host"
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(WAIT)
        for door in doors:
            with contextlib.suppress(ProcessLookupError):
                os.kill(door, 9)


async def test_only_the_rooms_link_opens_a_seat_at_the_door(door_and_room: Any) -> None:
    """The bare door (``/``) and a tab's socket without the room's code take no seat."""
    aiohttp, server, door_port = door_and_room
    (room,) = server.rooms.values()
    origin = {"Origin": f"http://127.0.0.1:{door_port}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{door_port}/") as answer:
            assert answer.status == 404 and "room's link" in await answer.text()
        async with session.get(f"http://127.0.0.1:{door_port}/join/{room.code}") as answer:
            assert answer.status == 200
        for query in ("name=Eve", "name=Eve&code=ZZZZZZ"):
            url = f"http://127.0.0.1:{door_port}/ws?{query}"
            websocket = await session.ws_connect(url, headers=origin)
            async with asyncio.timeout(WAIT):
                message = await websocket.receive()
            assert message.type == aiohttp.WSMsgType.CLOSE and websocket.close_code == 1008
            assert not room.connections()


def test_the_access_log_shows_no_query() -> None:
    """A tab's socket carries its name, password and secret in the query: never logged."""
    import logging

    record = logging.LogRecord(
        "aiohttp.access",
        logging.INFO,
        "",
        0,
        '%s "%s" %s',
        ("127.0.0.1", "GET /ws?name=Ann&password=sesame&seat=ab HTTP/1.1", 101),
        None,
    )
    assert serve.HideQueries().filter(record)
    shown = record.getMessage()
    assert "sesame" not in shown and "seat=" not in shown and '"GET /ws?... HTTP/1.1"' in shown


async def test_a_duplicate_host_or_origin_at_the_door_is_a_400(door_and_room: Any) -> None:
    _, server, door_port = door_and_room
    (room,) = server.rooms.values()
    for twice in (f"Host: 127.0.0.1:{door_port}", "Origin: http://a.example"):
        reader, writer = await asyncio.open_connection("127.0.0.1", door_port)
        lines = [
            f"GET /join/{room.code} HTTP/1.1",
            f"Host: 127.0.0.1:{door_port}",
            "Origin: http://a.example" if "Origin" in twice else "X-Other: 1",
            twice,
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        async with asyncio.timeout(WAIT):
            status = await reader.readline()
        writer.close()
        assert status.split()[1:2] == [b"400"], status  # aiohttp's parser or our guard
