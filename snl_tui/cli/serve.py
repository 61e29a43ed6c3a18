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
import json
import logging
import os
import re
import shlex
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from ..core.text import parse_whole, quote
from ..net.guard import (
    DOOR_KEY_ENV,
    DOOR_KEY_HEADER,
    PASSWORD_ENV,
    VISITOR_ENV,
    VISITOR_HEADER,
)
from ..net.seat_tokens import SEAT_KEY_ENV
from .common import whole_number

SEAT_SECRET = re.compile(r"^[0-9a-f]{32,64}$")
"""A browser tab's own secret (``seat=`` in its websocket's query, kept in the tab's
storage): under it, the door's ``snl join`` keeps the tab's seat token."""
PARENT_CHECK = 1.0
"""Seconds between two looks at whether ``snl host`` (the door's parent) still runs."""
CLOSE_ENDED = 1000
"""A tab's game ended because its player left: the page says so and offers the seat back."""
CLOSE_DOOR_STOPS = 1001
"""The door stops (its host stopped): the page waits for the room and reconnects."""
CLOSE_FAILED = 4000
"""The tab's game ended with an error (the room refused it): the page says so."""


class HideQueries(logging.Filter):
    """The access log without query strings: a tab's websocket carries the name, the
    typed password and the tab's secret in its query (``/ws?...``), none of which may
    reach a log."""

    QUERY = re.compile(r"\?[^\s\"]*")

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.QUERY.sub("?...", record.getMessage())
        record.args = None
        return True


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
LOOPBACK = ("127.0.0.1", "localhost", "::1")
INSTALL_HINT = (
    "snl serve: browser play needs textual-serve: pip install 'snl-tui[web]' "
    '(from a checkout: pip install ".[web]")'
)
FULL_CLOSE_CODE = 1013
"""The websocket close code for "try again later": the page shows its "full" message."""

TEMPLATES = Path(__file__).parent.parent / "web"
WIDTH_RANGE = (20, 400)
HEIGHT_RANGE = (10, 200)
"""Terminal sizes a page may ask for (cells). 400x200 is a 4K screen at the page's smallest
font; a game process at that size stays near 60 MB (10000x5000 took it past 400 MB)."""
MEMORY_LIMIT_MB = 1024
"""Each game process's data limit: several times what a game needs (about 60 MB at the
largest size), so one process can never take the machine down."""
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest websocket message a tab may send; a larger one closes its socket (and
ends its game). The page sends keystrokes, sizes and pings: a few bytes each."""
MAX_INPUT_BYTES = 4096
"""The most keystrokes (bytes) one message may carry to the game (a paste); more is
dropped whole: a megabyte of keys left a game process at 1 GB, stuck on its pipe."""
INPUT_BYTES_PER_SECOND = 8192
"""What a tab may send per second, on average (typing, mouse moves and resizes use a
few hundred bytes); beyond it, messages are dropped."""
INPUT_BURST_BYTES = 16384
"""What a tab may send at once before ``INPUT_BYTES_PER_SECOND`` applies."""
MESSAGE_COST = 64
"""What each message costs from the budget at least (a flood of empty messages too)."""
QUIT_GRACE = 5.0
"""Seconds a game is given to quit after its tab has gone before it is killed."""
STDIN_TIMEOUT = 10.0
"""Seconds a game may leave its input unread before it counts as stuck and is ended."""
EXIT_OK = 0
EXIT_USAGE = 2

log = logging.getLogger("snl.serve")


def add_serve_parser(
    commands: argparse._SubParsersAction[Any],
    add_rule_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``snl serve`` on the CLI's subparsers."""
    serve = commands.add_parser("serve", help="play in a web browser (needs snl-tui[web])")
    serve.add_argument("board", nargs="?", default="classic", metavar="BOARD")
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    serve.add_argument(
        "--port", type=whole_number(0, 65535), default=DEFAULT_PORT, help="default 8000"
    )
    serve.add_argument(
        "--max-sessions",
        type=whole_number(1),
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"games at once, one per browser tab (default {DEFAULT_MAX_SESSIONS})",
    )
    serve.add_argument(
        "--players", default="You,cpu", metavar="LIST", help="as for 'snl play' (default You,cpu)"
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also accept browser pages from this origin, e.g. https://games.example.org "
        "behind a reverse proxy (repeatable; default: only this server's own pages)",
    )
    serve.add_argument("--mode", choices=("classic", "puzzle"), default="classic")
    serve.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    serve.add_argument(
        "--no-save", action="store_true", help="browser games are not saved (default: saved)"
    )
    serve.add_argument(
        "--room",
        metavar="HOST:PORT/CODE",
        help="every browser tab joins this room of 'snl host' instead of a game of its own",
    )
    serve.add_argument(
        "--name",
        default="Guest",
        metavar="NAME",
        help="with --room: the tabs' name in the room (Guest, then Guest 2, ...)",
    )
    serve.add_argument(
        "--password",
        metavar="P",
        help=f"with --room: the room's password (or {PASSWORD_ENV} in the environment)",
    )
    serve.add_argument(
        "--quiet", action="store_true", help="print only the link (the first line), no banner"
    )
    add_rule_options(serve)


def play_command(args: argparse.Namespace, overrides: dict[str, Any]) -> str:
    """The shell command each browser session runs: this interpreter's ``snl play``
    (``snl join`` with ``--room``), under a data limit of ``MEMORY_LIMIT_MB``
    (``ulimit -d``, in every POSIX shell).

    A board file is made absolute, so the game finds it whatever the directory. Every
    tab is a new game: it saves like a terminal game (unless ``--no-save``) but does not
    offer to resume the last one, which may be the game in another open tab.
    """
    if args.room is not None:
        return join_command(args.room, args.name, args.password, args.no_animation, True)
    board = args.board
    if Path(board).suffix and Path(board).exists():
        board = str(Path(board).resolve())
    words = [sys.executable, "-m", "snl_tui", "play", board, "--players", args.players]
    # textual-serve speaks to a Textual app: the plain lines of the screen-reader mode
    # (which the setting screen_reader = true would choose) would break the page. The
    # page has its own screen-reader option (?screenreader=1).
    words.append("--no-screen-reader")
    words += ["--mode", args.mode]
    if args.no_animation:
        words.append("--no-animation")
    words.append("--no-save" if args.no_save else "--no-resume-offer")
    for name, value in overrides.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            words.append(flag if value else flag.replace("--", "--no-", 1))
        else:
            words += [flag, str(value)]
    return f"ulimit -d {MEMORY_LIMIT_MB * 1024} && exec {shlex.join(words)}"


def join_command(
    room: str,
    name: str,
    password: str | None,
    no_animation: bool,
    numbered: bool,
    visitor: str | None = None,
    seat: str | None = None,
    plain: bool = False,
) -> str:
    """One browser tab's ``snl join`` (``numbered``: Guest, Guest 2, ... for tabs that
    all have the same name), under the data limit. ``visitor``: the tab's address, for
    the room's per-address caps (believed only with the door key the process inherits
    from this one's environment: ``net.guard``). The password goes in the environment
    of ``snl join``, not on its command line, which every user of the machine can read
    for as long as the game runs (the shell's own line, until it execs, is the moment).
    ``plain``: the text page's tab (``serve_plain.py``), the room in plain lines."""
    words = [sys.executable, "-m", "snl_tui", "join", room, "--name", name]
    # A terminal tab: see play_command; the text page reads plain lines.
    words.append("--screen-reader" if plain else "--no-screen-reader")
    if numbered:
        words.append("--numbered")
    if no_animation:
        words.append("--no-animation")
    setup = [f"ulimit -d {MEMORY_LIMIT_MB * 1024}"]
    if password is not None:
        setup.append(f"export {PASSWORD_ENV}={shlex.quote(password)}")
    if visitor is not None:
        setup.append(f"export {VISITOR_ENV}={shlex.quote(visitor)}")
    if seat is not None:  # the tab's own secret: its seat token is kept under it
        setup.append(f"export {SEAT_KEY_ENV}={shlex.quote(seat)}")
    return " && ".join([*setup, f"exec {shlex.join(words)}"])


def room_link(origin: str, code: str) -> str:
    """The link a friend opens: ``ORIGIN/join/CODE``."""
    return f"{origin.rstrip('/')}/join/{code}"


def clamp(value: object, bounds: tuple[int, int], default: int) -> int:
    """A size from the page as a whole number within ``bounds`` (``default`` when it is
    not a whole number at all)."""
    number = value if type(value) is int else parse_whole(str(value))
    if number is None:
        return default
    low, high = bounds
    return max(low, min(high, number))


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` in lower case, or None when it has none."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def host_names(host: str, port: int) -> set[str]:
    """The Host headers this server answers to when it listens on ``host``: loopback
    listens answer to the loopback names only (so a re-pointed name is refused); another
    address answers to any name (the network reaches it by names we cannot know)."""
    if host not in LOOPBACK:
        return set()
    names = {"127.0.0.1", "localhost", "[::1]"}
    return {f"{name}:{port}" for name in names} | (names if port == 80 else set())


def allowed(origin: str | None, host: str, hosts: set[str], extra: Iterable[str]) -> bool:
    """Whether a websocket from page ``origin`` to Host ``host`` is let in: the page's
    own origin (same host and port as the request, on a name this server answers to), or
    an origin given with ``--allow-origin``. No Origin header (not a browser) is refused
    too: every browser sends one, and the game has no other client."""
    if origin is None:
        return False
    origin = origin.strip().lower()
    if origin in extra:
        return True
    host = host.lower()
    if hosts and host not in hosts:
        return False
    return origin in (f"http://{host}", f"https://{host}")


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
        from ..net.protocol import parse_address

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


class InputBudget:
    """What one tab may send per second: a bucket of ``burst`` bytes, refilled at
    ``per_second``. Every message costs at least ``MESSAGE_COST`` bytes, so a flood of
    tiny messages is bounded too. ``take`` says whether a message fits (it is then
    spent); one that does not is dropped, never queued."""

    def __init__(
        self,
        per_second: float = INPUT_BYTES_PER_SECOND,
        burst: float = INPUT_BURST_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.left = burst
        self.last = clock()

    def take(self, size: int) -> bool:
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.last) * self.per_second)
        self.last = now
        cost = max(size, MESSAGE_COST)
        if cost > self.left:
            return False
        self.left -= cost
        return True


PROCESS_ATTRIBUTE = "_process"
"""Where textual-serve's ``AppService`` keeps its game's process: it offers no public
accessor, and serve must wait for that process to exit (a slot is counted until then)
and kill one that will not quit. ``app_process`` is the one place this private name is
used; tests/unit/test_serve_bounds.py checks it against the installed textual-serve."""


class LibraryChanged(RuntimeError):
    """An installed library no longer works the way snl relies on."""


def app_process(service: object) -> asyncio.subprocess.Process:
    """The process of a started textual-serve ``AppService``; LibraryChanged, saying
    what to look at, when textual-serve keeps it elsewhere."""
    process = getattr(service, PROCESS_ATTRIBUTE, None)
    if not isinstance(process, asyncio.subprocess.Process):
        raise LibraryChanged(
            f"textual-serve's AppService keeps no process at .{PROCESS_ATTRIBUTE} "
            f"(found {type(process).__name__}): snl serve cannot watch its games; "
            "see snl_tui/cli/serve.py, app_process"
        )
    return process


def _server_class() -> type[Any]:
    """``SnlServer``, defined only when textual-serve can be imported."""
    import aiohttp
    import aiohttp_jinja2
    import jinja2
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from ..core.errors import SnlError
    from ..net.protocol import MAX_FRAME, WEB_ROOM_PATH, RoomAddress, check_name
    from .serve_plain import DoorGuards, add_plain_routes, plain_page, wants_plain

    class SnlServer(Server):
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
            self.link_origin = link_origin
            """The origin friends reach this door at (a proxy's, from --allow-origin)."""
            self.parent_watch: asyncio.Future[None] | None = None
            self.stopping = False
            """The door is stopping: its tabs are told to come back (``CLOSE_DOOR_STOPS``)."""
            self.playing: set[web.WebSocketResponse] = set()
            """The tabs whose game runs now: closed first when the door stops."""
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
            return room_link(origin, code) if self.room is not None else f"{origin}/"

        async def on_startup(self, app: web.Application) -> None:
            print(self.link(), flush=True)  # the first line: snl host --web reads it
            if self.door_key is not None:  # snl host --web's own door: it goes with it
                self.parent_watch = asyncio.ensure_future(_stop_without(os.getppid()))
            if not self.quiet:
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
                    await _pump(outside, inside)
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

        async def play(self, request: web.Request, command: str) -> web.WebSocketResponse:
            """One tab's game (``command``: ``snl play``, or a room's ``snl join``): its
            process runs while the tab is open, and is ended (asked, then killed) before
            this returns. Its input is bounded (``relay``)."""
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
                await websocket.close(code=self._close_code(process))

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
            watcher = asyncio.ensure_future(self._close_when_done(process, websocket))
            self.playing.add(websocket)
            try:
                await self.relay(websocket, service)
            finally:
                self.playing.discard(websocket)
                watcher.cancel()
                await self.end_game(service, process)
                # A game ended for being stuck: its tab is told.
                await websocket.close(code=self._close_code(process))
            return websocket

        def _close_code(self, process: Any) -> int:
            """How a tab's socket closes: the door stops (come back), the game ended
            (its player left) or failed (a refusal: the page says the game ended)."""
            if self.stopping:
                return CLOSE_DOOR_STOPS
            returncode = None if process is None else process.returncode
            return CLOSE_FAILED if returncode not in (None, 0) else CLOSE_ENDED

        async def _close_when_done(self, process: Any, websocket: web.WebSocketResponse) -> None:
            await process.wait()
            await websocket.close(code=self._close_code(process))

        async def relay(self, websocket: web.WebSocketResponse, service: Any) -> None:
            """The tab's messages to the game, bounded: a message larger than
            ``MAX_MESSAGE_BYTES`` closes the socket (aiohttp, code 1009); keystrokes
            beyond ``MAX_INPUT_BYTES`` in one message, or beyond the tab's
            ``InputBudget``, are dropped; sizes are clamped; a game that takes no input
            for ``stdin_timeout`` seconds is stuck, and ended."""
            budget = InputBudget(*self.input_budget)
            async for message in websocket:
                if message.type != WSMsgType.TEXT or not budget.take(len(message.data)):
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                try:
                    if kind == "stdin" and isinstance(data, str):
                        keys = data.encode("utf-8", errors="replace")
                        if len(keys) <= MAX_INPUT_BYTES:
                            await asyncio.wait_for(service.send_bytes(keys), self.stdin_timeout)
                    elif kind == "resize" and isinstance(data, dict):
                        size = (
                            clamp(data.get("width"), WIDTH_RANGE, 80),
                            clamp(data.get("height"), HEIGHT_RANGE, 24),
                        )
                        await asyncio.wait_for(service.set_terminal_size(*size), self.stdin_timeout)
                    elif kind == "ping":
                        await websocket.send_json(["pong", data])
                    elif kind in ("blur", "focus"):
                        await asyncio.wait_for(getattr(service, kind)(), self.stdin_timeout)
                except TimeoutError:
                    log.warning("snl serve: a game left its input unread: ending it")
                    return
                except ConnectionError:
                    return

        async def end_game(self, service: Any, process: Any) -> None:
            """Ask the game to quit, give it ``quit_grace`` seconds, then kill it; return
            once it has exited."""
            try:
                await self.download_manager.cancel_app_downloads(
                    app_service_id=service.app_service_id
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(service.send_meta({"type": "quit"}), self.quit_grace)
                try:
                    await asyncio.wait_for(process.wait(), self.quit_grace)
                except TimeoutError:
                    log.warning("snl serve: a game did not quit with its tab: killing it")
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
                    await process.wait()
                with contextlib.suppress(Exception):
                    # Its output reader ends at the end of the pipe.
                    await asyncio.wait_for(service.stop(), self.quit_grace)
            finally:
                if process.returncode is None:  # cancelled (the server stops): still end it
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()

        async def join_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """A tab of a room's door: ``snl join`` under the name the page asked for."""
            assert self.room is not None
            websocket = web.WebSocketResponse(heartbeat=15)
            answer = self.room_tab(request, plain=False)
            if isinstance(answer, tuple):
                await websocket.prepare(request)
                await websocket.close(code=answer[0], message=answer[1])
                return websocket
            with self.counted(request.remote or ""):
                return await self.play(request, answer)

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

    async def _stop_without(parent: int) -> None:
        """Stop this door (as Ctrl+C would) once ``parent``, the ``snl host`` that
        started it, is gone, even killed with -9: a door left behind would keep the port
        that ``snl host --resume`` opens the room's door on again."""
        while os.getppid() == parent:
            await asyncio.sleep(PARENT_CHECK)
        os.kill(os.getpid(), signal.SIGTERM)

    async def _pump(outside: web.WebSocketResponse, inside: Any) -> None:
        """Text frames both ways until either side closes."""

        async def out_to_in() -> None:
            async for message in outside:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                await inside.send_str(message.data)

        async def in_to_out() -> None:
            async for message in inside:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                await outside.send_str(message.data)

        tasks = [asyncio.ensure_future(out_to_in()), asyncio.ensure_future(in_to_out())]
        _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await inside.close()
        await outside.close()

    return SnlServer
