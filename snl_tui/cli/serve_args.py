"""``snl serve``'s command line (``add_serve_parser``); ``serve.py`` runs it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..net.guard import PASSWORD_ENV
from .common import add_screen_reader, whole_number

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8


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
    add_screen_reader(
        serve, "the link opens the page for screen readers, and the banner is one line of words"
    )
    add_rule_options(serve)
