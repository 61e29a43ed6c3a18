"""``snl serve``'s page for screen readers: the plain mode behind an accessible page.

``/?screenreader=1`` (or the normal page's "screen reader" link) serves ``web/plain.html``
instead of the terminal: no canvas, a live region (``role="log"``) that gets one new
paragraph for each line the game says, so a screen reader announces every line once, and
an ordinary text input with its own history (Up and Down). Behind it, each tab's
websocket at ``PLAIN_SOCKET`` runs the same ``snl play`` command as a terminal tab, with
``--screen-reader`` instead of ``--no-screen-reader``, as a subprocess with pipes: each
line it writes is one text frame, each frame the page sends is one typed line.

At a room's door (``--room``: ``snl host --web``), ``/join/CODE?screenreader=1`` serves
the same page, which asks the name (and the room's password) in a form first; its
websocket then carries the room's code, the name and the tab's seat secret, exactly as
the board page's does, and runs the door's ``snl join`` (``SnlServer.room_tab``, the same
checks and the same counts) with ``--screen-reader``. Its refusal (standard error) is
said on the page too.

The same guards as the terminal door (``serve.py``): the page's own origin only, a game
counted against ``--max-sessions`` until its process has exited, every frame bounded
(``MAX_MESSAGE_BYTES``, one line of at most ``INPUT_LIMIT`` characters, no control
characters) and budgeted (``InputBudget``), a game that leaves its input unread for
``STDIN_TIMEOUT`` seconds ended, and a game whose tab has gone given the end of its
input (it says goodbye and stays saved), then killed after ``QUIT_GRACE`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..plain.console import INPUT_LIMIT

PLAIN_PAGE = "plain.html"
PLAIN_SOCKET = "/plain/ws"
LINE_BYTES = 64 * 1024
"""The longest line read from a game (its lines are at most a few thousand characters)."""
PLAIN_ANSWERS = ("1", "true", "on", "yes")
CLOSE_LEFT = 1000
"""The tab's game ended (its player quit) or the tab went."""
CLOSE_DOOR_STOPS = 1001
"""The door stops (a room's host stopped): the page waits for it and comes back."""
CLOSE_REFUSED = 4000
"""The game ended with an error (the room refused the tab): the page asks again."""


def wants_plain(query: Mapping[str, str]) -> bool:
    """Whether the page's address asks for the screen-reader page (``?screenreader=1``)."""
    return query.get("screenreader", "").strip().lower() in PLAIN_ANSWERS
    # (?screenreader=terminal keeps the terminal page with xterm.js's own mode)


def plain_command(command: str) -> str:
    """The terminal tab's shell command (``serve_commands.play_command``) in plain mode."""
    return command.replace(" --no-screen-reader ", " --screen-reader ", 1)


def typed_line(text: str) -> str:
    """A frame from the page as one typed line: its first line, at most ``INPUT_LIMIT``
    characters, control characters left out."""
    first = text.split("\n", 1)[0][:INPUT_LIMIT]
    return "".join(char for char in first if unicodedata.category(char) != "Cc")


@dataclass(frozen=True)
class DoorGuards:
    """What the terminal door guards with (``serve.py``), handed over by it."""

    allowed: Callable[[str | None, str, set[str], Iterable[str]], bool]
    """Whether a page's origin may play (``serve.allowed``)."""
    budget: Callable[[float, float], Any]
    """A tab's input budget (``serve.InputBudget``): ``take(size)`` says if a frame fits."""
    full_code: int
    max_message_bytes: int


def add_plain_routes(app: Any, server: Any, guards: DoorGuards) -> None:
    """Add the plain page's websocket to ``server``'s aiohttp ``app`` (``SnlServer``)."""

    async def socket(request: Any) -> Any:
        return await plain_socket(server, guards, request)

    app.router.add_get(PLAIN_SOCKET, socket)


async def plain_page(request: Any, room: Mapping[str, object] | None = None) -> Any:
    """The accessible page (``web/plain.html``); ``room``: a room's door (``ask_password``
    when the room has one), whose page asks the name first."""
    import aiohttp_jinja2

    context = {"room": room is not None, "ask_password": bool((room or {}).get("ask_password"))}
    return aiohttp_jinja2.render_template(PLAIN_PAGE, request, context)


async def plain_socket(server: Any, guards: DoorGuards, request: Any) -> Any:
    """One tab of the plain page: its game runs while the tab is open."""
    from aiohttp import web

    origin = request.headers.get("Origin")
    if not guards.allowed(origin, request.host, server.hosts, server.allow_origins):
        raise web.HTTPForbidden(text="snl serve: pages from other sites may not play")
    websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=guards.max_message_bytes)
    await websocket.prepare(request)
    if server.room is not None:  # a room's door: this tab's snl join --screen-reader
        answer = server.room_tab(request, plain=True)
        if isinstance(answer, tuple):  # refused: no room code, a bad name, full
            await websocket.close(code=answer[0], message=answer[1])
            return websocket
        with server.counted(request.remote or ""):  # no await since the check
            await run_plain_game(server, guards, websocket, answer, room=True)
        return websocket
    if server.full():
        await websocket.close(code=guards.full_code, message=b"full")
        return websocket
    server.sessions += 1  # no await since the check: no other session in between
    try:
        await run_plain_game(server, guards, websocket, plain_command(server.command))
    finally:
        server.sessions -= 1  # only now: the game's process has exited
    return websocket


async def run_plain_game(
    server: Any, guards: DoorGuards, websocket: Any, command: str, *, room: bool = False
) -> None:
    """The game's lines to the tab, the tab's lines to the game, until either ends.
    ``room``: a room's ``snl join``, whose one-line refusal (its standard error: a name
    taken, a wrong password) the tab hears too. The socket closes with ``CLOSE_LEFT``
    when the game ended by itself or its tab went, ``CLOSE_DOOR_STOPS`` when the door
    stops (the page comes back), ``CLOSE_REFUSED`` when the game failed."""
    from aiohttp import WSMsgType

    process = await asyncio.create_subprocess_shell(
        command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT if room else asyncio.subprocess.DEVNULL,
        limit=LINE_BYTES,
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    async def lines_out() -> None:
        while True:
            try:
                raw = await stdout.readline()
            except ValueError:  # a line past LINE_BYTES: not a game's line
                return
            if not raw:
                return
            if not websocket.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await websocket.send_str(raw.decode("utf-8", errors="replace").rstrip("\n"))

    async def lines_in() -> None:
        budget = guards.budget(*server.input_budget)
        async for message in websocket:
            if message.type != WSMsgType.TEXT or not budget.take(len(message.data)):
                continue
            stdin.write((typed_line(message.data) + "\n").encode("utf-8"))
            try:
                await asyncio.wait_for(stdin.drain(), server.stdin_timeout)
            except (TimeoutError, ConnectionError):
                return

    reader = asyncio.ensure_future(lines_out())
    writer = asyncio.ensure_future(lines_in())
    try:
        await asyncio.wait([reader, writer], return_when=asyncio.FIRST_COMPLETED)
        if writer.done():  # the tab has gone: the end of the game's input
            with contextlib.suppress(Exception):
                stdin.close()
        try:
            await asyncio.wait_for(process.wait(), server.quit_grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reader, server.quit_grace)  # the last lines said
    finally:
        for task in (reader, writer):
            task.cancel()
        await asyncio.gather(reader, writer, return_exceptions=True)
        if process.returncode is None:  # cancelled (the server stops): still end it
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if getattr(server, "stopping", False):
            code = CLOSE_DOOR_STOPS
        else:
            code = CLOSE_LEFT if process.returncode in (0, None) else CLOSE_REFUSED
        await websocket.close(code=code)


__all__ = [
    "PLAIN_SOCKET",
    "DoorGuards",
    "add_plain_routes",
    "plain_command",
    "plain_page",
    "wants_plain",
]
