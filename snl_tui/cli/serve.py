"""``snl serve``: play in a browser through textual-serve (SPEC 9).

Each browser tab (each websocket) runs its own ``snl play`` process, started with the
running interpreter so it works from any directory and any install. textual-serve is an
optional extra (``snl-tui[web]``); without it ``snl serve`` says how to install it.

The page comes from ``snl_tui/web/`` (our template): titled ``snl``, no external fonts,
the terminal focused as soon as it is connected, a font size that fits the board. The
number of games at once is capped, because each one is a process of ~40 MB.

The browser door is guarded (SPEC 9), because loopback is no protection against pages
that the user's own browser opens on other sites:
- a websocket is accepted only from the page's own origin (or one given with
  ``--allow-origin``), and only for a Host header this server answers to (a page whose
  name was re-pointed at 127.0.0.1, "DNS rebinding", is refused too): anything else is 403;
- every size the page sends (the query string and each resize message) is clamped to
  ``WIDTH_RANGE`` x ``HEIGHT_RANGE`` before a game process sees it, and each game process
  runs under a memory limit (``MEMORY_LIMIT_MB``, ``ulimit -d``);
- what a tab sends is bounded: ``MAX_MESSAGE_BYTES`` a message (more closes it),
  ``MAX_INPUT_BYTES`` of keystrokes a message and ``InputBudget`` a second (more is
  dropped);
- a game whose tab has gone is asked to quit, then killed after ``QUIT_GRACE`` seconds;
  a game that leaves its input unread for ``STDIN_TIMEOUT`` seconds is ended too; and a
  game counts against ``--max-sessions`` until its process has exited;
- no folder is ever listed: ``/static``, ``/static/js/`` and ``/static/js/.`` are 404.

A room's browser door (``--room``, which ``snl host --web`` starts): the page at
``/join/CODE`` (and ``/``) asks the friend's name (and the room's password when it has
one) before the terminal starts, and each tab runs ``snl join`` under that name (checked
by ``check_name`` before any process starts). ``/room`` passes a room's websocket
through to the room server, so ``snl join http://HOST:PORT/join/CODE`` needs no other
port (a tunnel or a TLS proxy forwards one port). It prints its link on the first line.
One visitor's address runs at most half of ``--max-sessions`` games at once, so one
visitor cannot fill the door; given ``snl host``'s door key in its environment, the door
names each visitor to the room, which then counts them as their own address
(``net.guard``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import socket
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..core.text import quote
from ..net.guard import DOOR_KEY_ENV, DOOR_KEY_HEADER, PASSWORD_ENV, VISITOR_HEADER
from ..net.seat_tokens import DOOR_SAID_ENV
from .common import screen_reader_wanted
from .serve_args import add_serve_parser as add_serve_parser
from .serve_commands import SEAT_SECRET, join_command, play_command
from .serve_guards import (
    FULL_CLOSE_CODE,
    HEIGHT_RANGE,
    INPUT_BURST_BYTES,
    INPUT_BYTES_PER_SECOND,
    LOOPBACK,
    MAX_MESSAGE_BYTES,
    QUIT_GRACE,
    STDIN_TIMEOUT,
    WIDTH_RANGE,
    HideQueries,
    InputBudget,
    allowed,
    app_process,
    clamp,
    host_names,
    origin_of,
)
from .serve_guards import MAX_INPUT_BYTES as MAX_INPUT_BYTES
from .serve_guards import MESSAGE_COST as MESSAGE_COST
from .serve_guards import PROCESS_ATTRIBUTE as PROCESS_ATTRIBUTE
from .serve_guards import LibraryChanged as LibraryChanged

INSTALL_HINT = (
    "snl serve: browser play needs textual-serve: pip install 'snl-tui[web]' "
    '(from a checkout: pip install ".[web]")'
)
TEMPLATES = Path(__file__).parent.parent / "web"
EXIT_OK = 0
EXIT_USAGE = 2

SEAT_SCRIPT = "/seat.js"
"""How a room's tab keeps its seat (``web/seat.js``): the board page's and the text
page's one script."""


async def seat_script(request: Any) -> Any:
    from aiohttp import web

    return web.FileResponse(TEMPLATES / "seat.js", headers={"Content-Type": "text/javascript"})


def room_link(origin: str, code: str) -> str:
    """The link a friend opens: ``ORIGIN/join/CODE``."""
    return f"{origin.rstrip('/')}/join/{code}"


def cmd_serve(args: argparse.Namespace, overrides: dict[str, Any], err: TextIO) -> int:
    """Serve the game until Ctrl+C; exit 2 with one line when textual-serve is missing."""
    try:
        server_class = _server_class()
    except ImportError:
        print(INSTALL_HINT, file=err)
        return EXIT_USAGE
    try:
        found = socket.getaddrinfo(args.host, args.port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        print(f"snl serve: cannot resolve the host {quote(args.host)}", file=err)
        return EXIT_USAGE
    if args.port == 0:
        # Any free port: chosen here, because the link (the first line) must name it
        # and textual-serve only learns the port it listens on after saying its link.
        args.port = free_port(found[0])
    extra = []
    for url in args.allow_origin:
        origin = origin_of(url)
        if origin is None:
            print(
                f"snl serve: --allow-origin {quote(url)} is not an origin such as "
                "https://games.example.org",
                file=err,
            )
            return EXIT_USAGE
        extra.append(origin)
    if args.host not in LOOPBACK:
        print(
            f"snl serve: warning: listening on {args.host}: anyone who can reach this "
            "address and port can play (and start processes on this machine)",
            file=err,
        )
    # The host's door gets the room's password in the environment; taken out of it here,
    # or every tab's snl join would inherit it and join without the password.
    password = os.environ.pop(PASSWORD_ENV, None)
    if args.password is not None:
        password = args.password
    args.password = password
    room = None
    if args.room is not None:
        from ..core.errors import SnlError
        from ..net.address import parse_address

        try:
            room = parse_address(args.room)
        except SnlError as error:
            print(f"snl serve: --room: {error}", file=err)
            return EXIT_USAGE
    server = server_class(
        play_command(args, overrides),
        host=args.host,
        port=args.port,
        max_sessions=args.max_sessions,
        allow_origins=tuple(extra),
        room=room,
        room_options=(args.password, args.no_animation),
        quiet=args.quiet,
        link_origin=extra[0] if extra else None,
        in_words=screen_reader_wanted(args),
    )
    try:
        server.serve()
    except OSError as error:  # the port is taken, the address is not this machine's
        print(f"snl serve: cannot listen on {args.host}:{args.port}: {error.strerror}", file=err)
        return EXIT_USAGE
    return EXIT_OK


def free_port(address: tuple[Any, ...]) -> int:
    """A port free now on ``address`` (an entry of ``socket.getaddrinfo``)."""
    family, kind, protocol, _, where = address
    with socket.socket(family, kind, protocol) as probe:
        probe.bind((where[0], 0))
        return int(probe.getsockname()[1])


def _server_class() -> type[Any]:
    """``SnlServer``, defined only when textual-serve can be imported."""
    import aiohttp
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from ..core.errors import SnlError
    from ..net.address import WEB_ROOM_PATH, RoomAddress
    from ..net.protocol import MAX_FRAME, check_name
    from .serve_games import CLOSE_DOOR_STOPS, GameRelay
    from .serve_plain import DoorGuards, add_plain_routes, plain_page, wants_plain
    from .serve_room import pump, stop_without

    class SnlServer(GameRelay, Server):
        """textual-serve's server with our page, a cap on concurrent games and the guards
        of the module's docstring."""

        def __init__(
            self,
            command: str,
            *,
            host: str,
            port: int,
            max_sessions: int,
            allow_origins: tuple[str, ...] = (),
            room: RoomAddress | None = None,
            room_options: tuple[str | None, bool] = (None, False),
            quiet: bool = False,
            link_origin: str | None = None,
            in_words: bool = False,
        ) -> None:
            # Our templates folder (absolute, so textual-serve's own base path is ignored).
            super().__init__(command, host=host, port=port, title="snl", templates_path=TEMPLATES)
            self.max_sessions = max_sessions
            self.sessions = 0
            self.tabs_per_visitor = max(1, max_sessions // 2)
            """A room's door: the games one visitor's address may hold at once, so that one
            visitor cannot fill the door for everyone else (``--room`` only: a local
            ``snl serve`` has one visitor, this machine)."""
            self.visitor_tabs: Counter[str] = Counter()
            """Game processes alive: each counts from its tab's arrival until it has exited."""
            self.hosts = host_names(host, port)
            self.allow_origins = allow_origins
            self.quit_grace = QUIT_GRACE
            self.stdin_timeout = STDIN_TIMEOUT
            self.input_budget = (INPUT_BYTES_PER_SECOND, INPUT_BURST_BYTES)
            """Each tab's ``InputBudget``: bytes per second, and at once."""
            self.room = room
            """The room every tab joins (``--room``): tabs ask their name first."""
            self.room_options = room_options
            self.quiet = quiet
            self.in_words = in_words
            """Plain mode (``--screen-reader``): the link opens the page for screen
            readers, and the banner is one line of words, not a drawn logo."""
            self.link_origin = link_origin
            """The origin friends reach this door at (a proxy's, from --allow-origin)."""
            self.parent_watch: asyncio.Future[None] | None = None
            self.stopping = False
            """The door is stopping: its tabs are told to come back (``CLOSE_DOOR_STOPS``)."""
            self.playing: set[web.WebSocketResponse] = set()
            """The tabs whose game runs now: closed first when the door stops."""
            self.said_folder: Path | None = None
            """Where room tabs' games write why they failed (``said_file``)."""
            self.said_count = 0
            self.door_key = (os.environ.get(DOOR_KEY_ENV) or None) if room else None
            """``snl host --web``'s door key (its environment): the room then counts each
            visitor as their own address (``net.guard``)."""

        async def _make_app(self) -> web.Application:
            # textual-serve's routes (its only hook for them), with two changes: the
            # static files list no folder (textual-serve serves them with show_index,
            # which lists /static, /static/js and /static/js/. alike), and the guard runs
            # before every route.
            @web.middleware
            async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
                return await self.guard(request, handler)

            app = web.Application(middlewares=[guard])
            aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
            app.add_routes(
                [
                    web.get("/", self.handle_index, name="index"),
                    web.get("/ws", self.handle_websocket, name="websocket"),
                    web.get("/download/{key}", self.handle_download, name="download"),
                    web.static("/static", self.statics_path, show_index=False, name="static"),
                    # The seat a room's tab keeps, one script for both pages.
                    web.get(SEAT_SCRIPT, seat_script, name="seat"),
                ]
            )
            app.on_startup.append(self.on_startup)
            app.on_shutdown.append(self.on_shutdown)
            if self.room is not None:
                app.router.add_get("/join/{code}", self.handle_index)
                app.router.add_get(WEB_ROOM_PATH, self.handle_room)
            self.add_plain_door(app)
            return app

        def initialize_logging(self) -> None:
            if self.in_words:
                # Plain mode: warnings only, one plain line each (no level column drawn
                # with colour, no access log of bracketed dates and quoted requests).
                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(logging.Formatter("snl serve: %(message)s"))
                logging.basicConfig(level=logging.WARNING, handlers=[handler])
            else:
                super().initialize_logging()
            logging.getLogger("aiohttp.access").addFilter(HideQueries())

        async def on_shutdown(self, app: web.Application) -> None:
            self.stopping = True  # the tabs' sockets close with "going away": they come back
            # Each closed socket ends its relay, so its game is asked to quit (then killed)
            # now, not when aiohttp's shutdown timeout cancels the handlers (20 s and more).
            for websocket in list(self.playing):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await websocket.close(code=CLOSE_DOOR_STOPS, message=b"the door stops")
            await super().on_shutdown(app)
            if self.said_folder is not None:
                import shutil

                shutil.rmtree(self.said_folder, ignore_errors=True)

        def add_plain_door(self, app: web.Application) -> None:
            """The screen-reader page's socket (``serve_plain.py``), with this door's guards."""
            guards = DoorGuards(allowed, InputBudget, FULL_CLOSE_CODE, MAX_MESSAGE_BYTES)
            add_plain_routes(app, self, guards)

        def link(self) -> str:
            origin = self.link_origin
            if origin is None:
                shown = socket.gethostname() if self.host in ("0.0.0.0", "::", "") else self.host
                shown = f"[{shown}]" if ":" in shown else shown
                origin = f"http://{shown}:{self.port}"
            code = self.room.code if self.room is not None else ""
            link = room_link(origin, code) if self.room is not None else f"{origin}/"
            return f"{link}?screenreader=1" if self.in_words else link

        async def on_startup(self, app: web.Application) -> None:
            print(self.link(), flush=True)  # the first line: snl host --web reads it
            if self.door_key is not None:  # snl host --web's own door: it goes with it
                self.parent_watch = asyncio.ensure_future(stop_without(os.getppid()))
            if self.in_words and not self.quiet:
                print(
                    "snl serves the game at that link, on its page for screen readers; "
                    "press Control C to stop.",
                    flush=True,
                )
            elif not self.quiet:
                await super().on_startup(app)

        async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
            """Refuse what the module's docstring refuses; clamp the page's sizes."""
            for name in ("Host", "Origin"):
                if len(request.headers.getall(name, [])) > 1:
                    raise web.HTTPBadRequest(text=f"snl serve: one {name} header at most")
            if self.hosts and request.host.lower() not in self.hosts:
                raise web.HTTPForbidden(text="snl serve: unknown host")
            if request.path == WEB_ROOM_PATH and self.room is not None:
                # ``snl join`` sends no Origin; a browser page always does: only ours.
                origin = request.headers.get("Origin")
                if origin is not None and not allowed(
                    origin, request.host, self.hosts, self.allow_origins
                ):
                    raise web.HTTPForbidden(text="snl serve: pages from other sites may not play")
            if request.path == "/ws":
                origin = request.headers.get("Origin")
                if not allowed(origin, request.host, self.hosts, self.allow_origins):
                    raise web.HTTPForbidden(text="snl serve: pages from other sites may not play")
            try:
                response: web.StreamResponse = await handler(request)
            except web.HTTPForbidden:
                if request.path.startswith("/static"):
                    raise web.HTTPNotFound() from None  # a folder: not there, as any path
                raise
            return response

        def full(self) -> bool:
            return self.sessions >= self.max_sessions

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            if self.full():
                return aiohttp_jinja2.render_template(
                    "full.html", request, {"max_sessions": self.max_sessions}, status=503
                )
            if self.room is not None:
                code = request.match_info.get("code")
                if code is None:  # only the room's link (with its code) opens a seat
                    raise web.HTTPNotFound(text="snl serve: open the room's link (/join/CODE)")
                if code.upper() != self.room.code:
                    raise web.HTTPNotFound(text="snl serve: no such room here")
                context = {
                    "font_size": 16,
                    "ask_name": True,
                    "ask_password": self.room_options[0] is not None,
                }
                if wants_plain(request.rel_url.query):  # the text page, in the room
                    room_page: web.StreamResponse = await plain_page(request, context)
                    return room_page
                return aiohttp_jinja2.render_template("app_index.html", request, context)
            if wants_plain(request.rel_url.query):  # ?screenreader=1: serve_plain.py
                page: web.StreamResponse = await plain_page(request)
                return page
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_room(self, request: web.Request) -> web.WebSocketResponse:
            """A room's websocket, passed through to the room server frame by frame (the
            room checks every frame; this door only bounds their size)."""
            assert self.room is not None
            outside = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=15)
            await outside.prepare(request)
            target = RoomAddress(self.room.host, self.room.port, self.room.code)
            try:
                async with (
                    aiohttp.ClientSession() as session,
                    session.ws_connect(
                        target.uri, max_msg_size=0, headers=self.visitor_headers(request)
                    ) as inside,
                ):
                    await pump(outside, inside)
            except (aiohttp.ClientError, OSError):
                pass
            if not outside.closed:
                await outside.close(code=1013, message=b"the room is not reachable")
            return outside

        def visitor_headers(self, request: web.Request) -> dict[str, str]:
            """What tells the room whose connection this is (with the host's door key,
            which only this machine's door has: ``net.guard``); nothing without a key."""
            if self.door_key is None or request.remote is None:
                return {}
            return {DOOR_KEY_HEADER: self.door_key, VISITOR_HEADER: request.remote}

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if self.room is not None:
                return await self.join_websocket(request)
            if self.full():
                # A page loaded before the others took the last seats: refuse with "try
                # again later"; the page shows that the server is full.
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.close(code=FULL_CLOSE_CODE, message=b"full")
                return websocket
            self.sessions += 1  # no await since the check: no other session in between
            try:
                return await self.play(request, self.command)
            finally:
                self.sessions -= 1  # only now: the game's process has exited

        async def play(
            self, request: web.Request, command: str, said: Path | None = None
        ) -> web.WebSocketResponse:
            """One tab's game (``command``: ``snl play``, or a room's ``snl join``): its
            process runs while the tab is open, and is ended (asked, then killed) before
            this returns. Its input is bounded (``relay``). ``said``: where a room tab's
            game writes why it failed, the reason its socket closes with."""
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE_BYTES)
            query = request.rel_url.query
            width = clamp(query.get("width", "80"), WIDTH_RANGE, 80)
            height = clamp(query.get("height", "24"), HEIGHT_RANGE, 24)
            await websocket.prepare(request)

            async def write_bytes(data: bytes) -> None:
                # Once the tab is gone, the game's output is read and dropped: a
                # process must never block on a full pipe (it would never quit).
                if not websocket.closed:
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await websocket.send_bytes(data)

            async def write_str(data: str) -> None:
                if not websocket.closed:
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await websocket.send_str(data)

            async def close() -> None:
                await websocket.close(code=self._close_code(process), message=reason())

            def reason() -> bytes:
                return self._close_reason(process, said)

            service = AppService(
                command,
                write_bytes=write_bytes,
                write_str=write_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            process: Any = None
            await service.start(width, height)
            process = app_process(service)
            # A game that exits by itself (quit, or a crash) closes its tab's socket.
            watcher = asyncio.ensure_future(self._close_when_done(process, websocket, said))
            self.playing.add(websocket)
            try:
                await self.relay(websocket, service)
            finally:
                self.playing.discard(websocket)
                watcher.cancel()
                await self.end_game(service, process)
                # A game ended for being stuck: its tab is told.
                await websocket.close(code=self._close_code(process), message=reason())
                if said is not None:
                    said.unlink(missing_ok=True)
            return websocket

        async def join_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """A tab of a room's door: ``snl join`` under the name the page asked for."""
            assert self.room is not None
            websocket = web.WebSocketResponse(heartbeat=15)
            answer = self.room_tab(request, plain=False)
            if isinstance(answer, tuple):
                await websocket.prepare(request)
                await websocket.close(code=answer[0], message=answer[1])
                return websocket
            said = self.said_file()
            command = f"export {DOOR_SAID_ENV}={shlex.quote(str(said))} && {answer}"
            with self.counted(request.remote or ""):
                return await self.play(request, command, said)

        def said_file(self) -> Path:
            """A new file for one tab's game to write why it failed (a private folder of
            this door's, made once, removed when the door stops)."""
            if self.said_folder is None:
                import tempfile

                self.said_folder = Path(tempfile.mkdtemp(prefix="snl-door-"))
            self.said_count += 1
            return self.said_folder / f"tab-{self.said_count}"

        def room_tab(self, request: web.Request, *, plain: bool) -> str | tuple[int, bytes]:
            """A room tab's ``snl join`` command (``plain``: for the text page), or the
            close code and reason that refuse it: no room code (only the room's link
            opens a seat), a name the room would refuse, the door or this visitor's
            share of it full."""
            assert self.room is not None
            query = request.query
            seat = query.get("seat", "")
            try:
                if query.get("code", "").upper() != self.room.code:
                    # Only the room's link (its code) opens a seat, never the bare door.
                    raise SnlError("open the room's link (with its code) to take a seat")
                name = check_name(query.get("name", ""))
            except SnlError as error:
                return (1008, str(error).encode()[:120])
            visitor = request.remote or ""
            if self.full() or self.visitor_tabs[visitor] >= self.tabs_per_visitor:
                # The page says the server is full: close another tab, or try later.
                return (FULL_CLOSE_CODE, b"full")
            password, no_animation = self.room_options
            if password is not None:
                password = query.get("password", "")[:128]
            named = visitor if self.door_key is not None and visitor else None
            secret = seat if SEAT_SECRET.match(seat) else None
            return join_command(
                str(self.room), name, password, no_animation, False, named, secret, plain
            )

        @contextlib.contextmanager
        def counted(self, visitor: str) -> Iterator[None]:
            """A room tab's game counted, for the door and for its visitor, until its
            process has exited (the end of the ``with``). No await between the checks
            of ``room_tab`` and this: no other tab in between."""
            self.sessions += 1
            self.visitor_tabs[visitor] += 1
            try:
                yield
            finally:
                self.sessions -= 1
                self.visitor_tabs[visitor] -= 1
                if self.visitor_tabs[visitor] <= 0:
                    del self.visitor_tabs[visitor]

    return SnlServer
