"""The browser door of a real ``snl serve`` on 127.0.0.1 (SPEC 9): a foreign page may not
open a game, the page's sizes are clamped, every game process is memory-bounded, and
``/static/`` lists nothing. Driven with aiohttp's client, as an attacking page would."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from snl_tui.cli import serve, serve_guards

from .processes import stop_group

aiohttp = pytest.importorskip("aiohttp", reason="snl serve needs the web extra")
pytest.importorskip("textual_serve", reason="snl serve needs the web extra")

LIMIT = 30.0
"""Upper bound (seconds) of every wait: the machine is shared and loaded."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(condition, what: str):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + LIMIT
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {LIMIT:.0f} s waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snl_tui",
            "serve",
            "--port",
            str(port),
            "--no-save",
            "--allow-origin",
            "https://games.example.org",
        ],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def listening() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    try:
        wait_for(lambda: process.poll() is not None or listening(), "snl serve to listen")
        assert process.poll() is None, (tmp_path / "serve.log").read_text()
        yield port, process
    finally:
        stop_group(process)


def games(server_pid: int) -> list[int]:
    """The game processes (``snl play``) started by the server with ``server_pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if b"play" in command and os.getpgid(int(entry.name)) == server_pid:
                found.append(int(entry.name))
        except (OSError, ProcessLookupError):
            continue
    return found


def environment(pid: int) -> dict[str, str]:
    pairs = (Path(f"/proc/{pid}/environ").read_bytes()).split(b"\0")
    return dict(p.decode(errors="replace").split("=", 1) for p in pairs if b"=" in p)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def connect(port: int, origin: str | None, query: str = "width=80&height=24"):  # type: ignore[no-untyped-def]
    session = aiohttp.ClientSession()
    headers = {"Origin": origin} if origin is not None else {}
    try:
        ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws?{query}", headers=headers)
    except BaseException:
        await session.close()
        raise
    return session, ws


async def status_of(port: int, origin: str | None) -> int:
    try:
        session, ws = await connect(port, origin)
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status
    await ws.close()
    await session.close()
    return 101


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc (Linux)")
def test_an_oversized_page_gets_a_clamped_bounded_game(server) -> None:  # type: ignore[no-untyped-def]
    port, process = server

    async def attack() -> tuple[dict[str, str], float, str]:
        session, ws = await connect(port, f"http://127.0.0.1:{port}", "width=10000&height=5000")
        try:
            pid = await asyncio.to_thread(wait_for, lambda: games(process.pid), "a game process")
            first = environment(pid[0])
            await ws.send_str(json.dumps(["resize", {"width": 99999, "height": 99999}]))
            await ws.send_str(json.dumps(["resize", {"width": "lots", "height": -5}]))
            # The game keeps drawing at the clamped size: read until it has sent a frame.
            received = 0
            deadline = time.monotonic() + LIMIT
            while received < 2000 and time.monotonic() < deadline:
                message = await ws.receive(timeout=LIMIT)
                if message.type == aiohttp.WSMsgType.BINARY:
                    received += len(message.data)
            limits = Path(f"/proc/{pid[0]}/limits").read_text()
            return first, rss_mb(pid[0]), limits
        finally:
            await ws.close()
            await session.close()

    env, rss, limits = asyncio.run(attack())
    assert int(env["COLUMNS"]) == serve.WIDTH_RANGE[1]
    assert int(env["ROWS"]) == serve.HEIGHT_RANGE[1]
    data_limit = next(line for line in limits.splitlines() if line.startswith("Max data size"))
    assert str(serve_guards.MEMORY_LIMIT_MB * 1024 * 1024) in data_limit
    assert rss < 200, f"a game at the largest allowed size used {rss:.0f} MB"


def test_only_the_servers_own_pages_may_open_a_game(server) -> None:  # type: ignore[no-untyped-def]
    port, _ = server

    async def statuses() -> list[int]:
        return [
            await status_of(port, "http://evil.example.com"),
            await status_of(port, f"http://evil.example.com:{port}"),
            await status_of(port, None),
            await status_of(port, "https://games.example.org"),  # --allow-origin
            await status_of(port, f"http://127.0.0.1:{port}"),
        ]

    assert asyncio.run(statuses()) == [403, 403, 403, 101, 101]


def test_a_rebound_name_and_static_folders_are_refused(server) -> None:  # type: ignore[no-untyped-def]
    port, _ = server

    async def statuses() -> list[int]:
        async with aiohttp.ClientSession() as session:
            found = []
            for path, headers in [
                ("/static/", {}),
                ("/static/js/", {}),
                ("/", {"Host": f"rebound.example.com:{port}"}),
                ("/", {}),
            ]:
                async with session.get(f"http://127.0.0.1:{port}{path}", headers=headers) as r:
                    found.append(r.status)
            return found

    assert asyncio.run(statuses()) == [404, 404, 403, 200]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_games_end_with_their_server(server, how) -> None:  # type: ignore[no-untyped-def]
    """A game whose server is gone ends (it used to spin on its closed pipe at full
    speed, forever): killed gently or not, nothing is left running."""
    port, process = server

    async def kill_while_playing() -> list[int]:
        session, ws = await connect(port, f"http://127.0.0.1:{port}")
        try:
            pids = await asyncio.to_thread(wait_for, lambda: games(process.pid), "a game")
            await ws.receive(timeout=LIMIT)  # the game is up and drawing
            # The page stays open: only the server goes away.
            os.kill(process.pid, how)
            await asyncio.to_thread(process.wait, LIMIT)
            return pids
        finally:
            await ws.close()
            await session.close()

    pids = asyncio.run(kill_while_playing())

    def running(pid: int) -> bool:
        # A game that has ended may stay a zombie until whoever adopted it reaps it.
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")

    wait_for(lambda: not any(running(pid) for pid in pids), "the game to end with its server")
