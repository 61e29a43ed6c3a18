"""``snl serve``'s tab commands: the shell command each browser tab runs, ``snl play``
(``play_command``) or, at a room's door, ``snl join`` (``join_command``), with this
interpreter, under the data limit ``MEMORY_LIMIT_MB`` (``ulimit -d``). Plain functions
of the door's options: no textual-serve needed to build them.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from ..net.guard import PASSWORD_ENV, VISITOR_ENV
from ..net.seat_tokens import SEAT_KEY_ENV
from .serve_guards import MEMORY_LIMIT_MB

SEAT_SECRET = re.compile(r"^[0-9a-f]{32,64}$")
"""A browser tab's own secret (``seat=`` in its websocket's query, kept in the tab's
storage): under it, the door's ``snl join`` keeps the tab's seat token."""


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
    # Ctrl+C in the terminal of the door (or of snl host --web) reaches its whole
    # process group, these games too: one that quit on it before the door had said
    # "going away" told its tab "you left" instead of "the host is away" (the tab then
    # never came back by itself). A tab's game has no keyboard of its own to interrupt
    # it; the door ends it. Ignored here, SIGINT stays ignored through exec.
    setup = [f"ulimit -d {MEMORY_LIMIT_MB * 1024}", "trap '' INT"]
    if password is not None:
        setup.append(f"export {PASSWORD_ENV}={shlex.quote(password)}")
    if visitor is not None:
        setup.append(f"export {VISITOR_ENV}={shlex.quote(visitor)}")
    if seat is not None:  # the tab's own secret: its seat token is kept under it
        setup.append(f"export {SEAT_KEY_ENV}={shlex.quote(seat)}")
    return " && ".join([*setup, f"exec {shlex.join(words)}"])
