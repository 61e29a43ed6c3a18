"""``snl serve``'s bounds (issue 36, items 7 and 8), on the real server in this process
with a stand-in game process (a few lines of Python speaking textual-serve's protocol):
what a tab sends is bounded per message and per second, a game whose tab has gone is
ended (killed when it will not quit), a slot is counted until its process has exited, and
no folder is listed."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from snl_tui.cli import serve
from tests.processes import alive

aiohttp = pytest.importorskip("aiohttp", reason="snl serve needs the web extra")
pytest.importorskip("textual_serve", reason="snl serve needs the web extra")
from aiohttp.test_utils import TestServer  # noqa: E402
from yarl import URL  # noqa: E402

LIMIT = 30.0
"""Upper bound (seconds) of every wait: the machine is shared and loaded."""

GAME = r"""
import json, os, signal, sys, time
out = sys.stdout.buffer
pid_file, mode = sys.argv[1], sys.argv[2]
with open(pid_file, "w") as f:
    f.write(str(os.getpid()))
out.write(b"__GANGLION__\n"); out.flush()
if mode == "stuck":  # reads nothing, ignores SIGTERM: only SIGKILL ends it
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)
total = 0
while True:  # echo the number of keystroke bytes received so far
    head = sys.stdin.buffer.read(5)
    if len(head) < 5:
        break
    payload = sys.stdin.buffer.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"D":
        total += len(payload)
        text = str(total).encode()
        out.write(b"D" + len(text).to_bytes(4, "big") + text); out.flush()
    elif json.loads(payload).get("type") == "quit":
        break
"""


class Served:
    """A running ``SnlServer`` whose tabs run the stand-in game in ``mode``."""

    def __init__(self, server: Any, port: int, pid_file: Path) -> None:
        self.server = server
        self.port = port
        self.pid_file = pid_file

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def game_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text())
        except (OSError, ValueError):
            return None


async def wait_for(condition: Callable[[], object], what: str) -> Any:
    deadline = time.monotonic() + LIMIT
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {LIMIT:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)
    return value


async def start(tmp_path: Path, mode: str) -> AsyncIterator[Served]:
    script = tmp_path / "game.py"
    script.write_text(GAME)
    pid_file = tmp_path / "pid"
    command = f"exec {sys.executable} {script} {pid_file} {mode}"  # as play_command does
    server = serve._server_class()(command, host="127.0.0.1", port=0, max_sessions=1)
    server.quit_grace = 0.5
    server.stdin_timeout = 1.0
    test_server = TestServer(await server._make_app(), host="127.0.0.1")
    await test_server.start_server()
    assert test_server.port is not None
    server.hosts = serve.host_names("127.0.0.1", test_server.port)
    try:
        yield Served(server, test_server.port, pid_file)
    finally:
        await test_server.close()


@pytest.fixture
async def echo(tmp_path: Path) -> AsyncIterator[Served]:
    async for served in start(tmp_path, "echo"):
        yield served


@pytest.fixture
async def stuck(tmp_path: Path) -> AsyncIterator[Served]:
    async for served in start(tmp_path, "stuck"):
        yield served


async def received(ws: Any, at_least: int) -> int:
    """Read the game's echoes until it reports ``at_least`` bytes (or goes quiet)."""
    total = 0
    while total < at_least:
        try:
            message = await ws.receive(timeout=1.0)
        except TimeoutError:
            break
        if message.type != aiohttp.WSMsgType.BINARY:
            break
        total = int(message.data)
    return total


async def test_a_tab_gone_ends_a_stuck_game_and_holds_its_slot_until_then(stuck: Served):
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(
            f"{stuck.origin}/ws", headers={"Origin": stuck.origin}, max_msg_size=0
        )
        pid = await wait_for(stuck.game_pid, "the game to start")
        assert stuck.server.sessions == 1
        await ws.close()
    # The tab is gone; the game ignores "quit" and SIGTERM: the slot stays taken while
    # the process lives, and the process is killed after the grace period.
    while alive(pid):
        assert stuck.server.sessions == 1, "a slot was given back before its game exited"
        await asyncio.sleep(0.02)
    await wait_for(lambda: stuck.server.sessions == 0, "the slot to be given back")


async def test_a_megabyte_message_closes_the_tab_and_reaches_no_game(echo: Served):
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{echo.origin}/ws", headers={"Origin": echo.origin})
        pid = await wait_for(echo.game_pid, "the game to start")
        await ws.send_str(json.dumps(["stdin", "r" * (1 << 20)]))
        message = await ws.receive(timeout=LIMIT)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    await wait_for(lambda: not alive(pid), "the game to end")
    await wait_for(lambda: echo.server.sessions == 0, "the slot to be given back")


async def test_keystrokes_are_bounded_per_message_and_per_second(echo: Served):
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{echo.origin}/ws", headers={"Origin": echo.origin})
        await wait_for(echo.game_pid, "the game to start")
        await ws.send_str(json.dumps(["stdin", "x" * (serve.MAX_INPUT_BYTES + 1)]))
        await ws.send_str(json.dumps(["stdin", "r"]))
        assert await received(ws, 1) == 1  # the oversized message was dropped whole
        began = time.monotonic()
        chunk = "k" * 1000
        for _ in range(200):  # 200 kB as fast as the socket takes it
            await ws.send_str(json.dumps(["stdin", chunk]))
        spent = time.monotonic() - began
        allowed = serve.INPUT_BURST_BYTES + serve.INPUT_BYTES_PER_SECOND * (spent + 1.0)
        got = await received(ws, 1 + 200 * len(chunk))
        assert 1 + len(chunk) <= got <= 1 + allowed, (got, allowed)
        await ws.close()


async def test_a_game_that_reads_no_input_is_ended_while_its_tab_floods_it(stuck: Served):
    stuck.server.input_budget = (1e9, 1e9)  # the pipe fills at once; the game never reads it
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{stuck.origin}/ws", headers={"Origin": stuck.origin})
        pid = await wait_for(stuck.game_pid, "the game to start")
        chunk = "k" * serve.MAX_INPUT_BYTES
        deadline = time.monotonic() + LIMIT
        while alive(pid) and not ws.closed and time.monotonic() < deadline:
            await ws.send_str(json.dumps(["stdin", chunk]))
            await asyncio.sleep(0.01)
        await wait_for(lambda: not alive(pid), "the stuck game to be ended")
        # The tab is told its game is over; reading the close answers it, as a browser
        # does (the server waits up to 10 s for a tab that never answers).
        message = await ws.receive(timeout=LIMIT)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await wait_for(lambda: stuck.server.sessions == 0, "the slot to be given back")


@pytest.mark.parametrize(
    "path", ["/static", "/static/", "/static/js", "/static/js/", "/static/js/.", "/static/./js"]
)
async def test_no_folder_is_listed(echo: Served, path: str) -> None:
    async with (
        aiohttp.ClientSession() as session,
        # encoded: the path goes as it is, "." included (as curl --path-as-is sends it)
        session.get(URL(f"{echo.origin}{path}", encoded=True), allow_redirects=False) as response,
    ):
        body = await response.text()
    assert response.status == 404, (path, response.status)
    assert "Index of" not in body and "textual.js" not in body


async def test_a_file_under_static_is_still_served(echo: Served) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{echo.origin}/static/js/textual.js") as response,
    ):
        assert response.status == 200


def test_the_input_budget_refills_at_its_rate() -> None:
    now = [0.0]
    budget = serve.InputBudget(per_second=100, burst=200, clock=lambda: now[0])
    assert budget.take(150) and not budget.take(100)
    now[0] += 0.5  # 50 bytes back: 100 in all
    assert budget.take(100) and not budget.take(1)  # at least MESSAGE_COST each
    now[0] += 1000  # never more than the burst
    assert budget.take(200) and not budget.take(serve.MESSAGE_COST)


async def test_the_private_names_serve_relies_on_are_where_textual_serve_keeps_them() -> None:
    """textual-serve has no public accessor for a game's process nor a hook for the
    routes: ``app_process`` and ``SnlServer._make_app`` use its private names, checked
    here against the installed textual-serve so that an upgrade that moves them fails
    loudly (and ``app_process`` says so in words, never an AttributeError)."""
    import inspect

    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager
    from textual_serve.server import Server

    async def ignore(*_: object) -> None:
        return None

    service = AppService(
        f"exec {sys.executable} -c 'import time; time.sleep(30)'",
        write_bytes=ignore,
        write_str=ignore,
        close=ignore,
        download_manager=DownloadManager(),
    )
    await service.start(80, 24)
    process = serve.app_process(service)
    assert process.returncode is None and alive(process.pid)
    process.kill()
    assert await asyncio.wait_for(process.wait(), LIMIT) != 0
    await asyncio.wait_for(service.stop(), LIMIT)
    with pytest.raises(serve.LibraryChanged, match=r"keeps no process at \._process"):
        serve.app_process(object())
    # Server.serve builds its application with _make_app, which SnlServer overrides.
    assert "self._make_app()" in inspect.getsource(Server.serve)
