"""``snl serve``: play in a browser through textual-serve (SPEC 9).

Each browser tab (each websocket) runs its own ``snl play`` process, started with the
running interpreter so it works from any directory and any install. textual-serve is an
optional extra (``snl-tui[web]``); without it ``snl serve`` says how to install it.

The page comes from ``snl_tui/web/`` (our template): titled ``snl``, no external fonts,
the terminal focused as soon as it is connected, a font size that fits the board. The
number of games at once is capped, because each one is a process of ~40 MB.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from .argtypes import whole_number

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

TEMPLATES = Path(__file__).parent / "web"
EXIT_OK = 0
EXIT_USAGE = 2


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
    serve.add_argument("--mode", choices=("classic", "puzzle"), default="classic")
    serve.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    serve.add_argument(
        "--no-save", action="store_true", help="browser games are not saved (default: saved)"
    )
    add_rule_options(serve)


def play_command(args: argparse.Namespace, overrides: dict[str, Any]) -> str:
    """The shell command each browser session runs: this interpreter's ``snl play``.

    A board file is made absolute, so the game finds it whatever the directory. Every
    tab is a new game: it saves like a terminal game (unless ``--no-save``) but does not
    offer to resume the last one, which may be the game in another open tab.
    """
    board = args.board
    if Path(board).suffix and Path(board).exists():
        board = str(Path(board).resolve())
    words = [sys.executable, "-m", "snl_tui", "play", board, "--players", args.players]
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
    return shlex.join(words)


def cmd_serve(args: argparse.Namespace, overrides: dict[str, Any], err: TextIO) -> int:
    """Serve the game until Ctrl+C; exit 2 with one line when textual-serve is missing."""
    try:
        server_class = _server_class()
    except ImportError:
        print(INSTALL_HINT, file=err)
        return EXIT_USAGE
    if args.host not in LOOPBACK:
        print(
            f"snl serve: warning: listening on {args.host}: anyone who can reach this "
            "address and port can play (and start processes on this machine)",
            file=err,
        )
    server = server_class(
        play_command(args, overrides),
        host=args.host,
        port=args.port,
        max_sessions=args.max_sessions,
    )
    server.serve()
    return EXIT_OK


def _server_class() -> type[Any]:
    """``SnlServer``, defined only when textual-serve can be imported."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class SnlServer(Server):
        """textual-serve's server with our page and a cap on concurrent games."""

        def __init__(self, command: str, *, host: str, port: int, max_sessions: int) -> None:
            # Our templates folder (absolute, so textual-serve's own base path is ignored).
            super().__init__(command, host=host, port=port, title="snl", templates_path=TEMPLATES)
            self.max_sessions = max_sessions
            self.sessions = 0

        def full(self) -> bool:
            return self.sessions >= self.max_sessions

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            if self.full():
                return aiohttp_jinja2.render_template(
                    "full.html", request, {"max_sessions": self.max_sessions}, status=503
                )
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if self.full():
                # A page loaded before the others took the last seats: refuse with "try
                # again later"; the page shows that the server is full.
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.close(code=FULL_CLOSE_CODE, message=b"full")
                return websocket
            self.sessions += 1  # no await since the check: no other session in between
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions -= 1

    return SnlServer
