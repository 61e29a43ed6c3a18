"""``snl join HOST:PORT/CODE``: play in a friend's room from this terminal (SPEC 11).

The room is joined before the game screen opens, so a wrong code or password, a name
already playing, or a host that cannot be reached is one line and exit 2, and the screen
opens on the game as it is. The client then runs on the app's own event loop
(``App.run(loop=...)``, public Textual API) for as long as the screen is up: it rejoins by
itself after a drop. ``snl host --name`` plays through the same path (``play_in_room``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import SnlError
from .common import Subcommands, add_screen_reader, screen_reader_wanted

if TYPE_CHECKING:
    from ..net.address import RoomAddress
    from ..net.client import RoomClient
    from ..net.guard import DoorPass
    from ..net.seat_tokens import SeatTokens

JOIN_TIMEOUT = 15.0
"""Seconds to wait for the room's welcome before giving up with one line."""
MAX_NAME_TRIES = 8
"""A default name already playing in the room is tried as "Name 2" .. "Name 8"."""


def add_join_parser(commands: Subcommands) -> None:
    """Register ``snl join`` on the CLI's subparsers."""
    join = commands.add_parser("join", help="play in a friend's room (what 'snl host' printed)")
    join.add_argument("address", metavar="HOST:PORT/CODE", help="as 'snl host' printed it")
    join.add_argument(
        "--name",
        metavar="NAME",
        help="your name in the room (default: your user name); the same name takes "
        "your seat back after you left",
    )
    join.add_argument(
        "--password",
        metavar="P",
        help="the room's password, if it has one (or SNL_ROOM_PASSWORD in the environment)",
    )
    join.add_argument(
        "--numbered",
        action="store_true",
        help="if NAME is playing already, join as NAME 2, NAME 3, ... (the default name is)",
    )
    join.add_argument("--watch", action="store_true", help="watch without taking a seat")
    join.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    join.add_argument(
        "--no-bell",
        action="store_true",
        help="no bell or notification when your turn comes (b switches it in the game)",
    )
    add_screen_reader(join)


def cmd_join(args: argparse.Namespace) -> int:
    from ..net.address import parse_address
    from ..net.guard import PASSWORD_ENV, DoorPass
    from ..net.protocol import check_name

    address = parse_address(args.address)
    given = args.name is not None
    name = check_name(args.name if given else default_name())
    numbered = not given or args.numbered
    names = [name, *(f"{name} {n}" for n in range(2, MAX_NAME_TRIES + 1))] if numbered else [name]

    # A browser tab of `snl serve --room`: the door says whose tab it is (net.guard),
    # and hands over the password it was typed in the environment, not the command line.
    door = DoorPass.from_environment(os.environ)
    password = args.password if args.password is not None else os.environ.get(PASSWORD_ENV)

    from ..net.seat_tokens import DOOR_SAID_ENV, SEAT_KEY_ENV, SeatTokens

    tab = os.environ.get(SEAT_KEY_ENV) or None  # a browser tab's own secret (snl serve)
    tokens = SeatTokens()

    plain = screen_reader_wanted(args)
    said = os.environ.get(DOOR_SAID_ENV) or None  # a browser tab's: its page says why

    async def joined() -> RoomClient:
        return await join_room(
            address,
            names,
            password=password,
            watch=args.watch,
            door=door,
            tokens=tokens,
            tab=tab,
            spoken=plain or said is not None,  # no address on the page either
        )

    try:
        return play_in_room(
            joined, animate=not args.no_animation, bell=not args.no_bell, plain=plain
        )
    except SnlError as error:
        if said is not None:  # the door reads it and closes the tab's socket with it
            with contextlib.suppress(OSError):
                Path(said).write_text(f"{error}\n", encoding="utf-8")
        raise


def default_name() -> str:
    """The user's login name, else "Player"."""
    with contextlib.suppress(Exception):  # getpass raises whatever the platform gives
        name = getpass.getuser().strip()
        if name and name.isprintable() and "," not in name:
            return name[:1].upper() + name[1:]
    return "Player"


async def join_room(
    address: RoomAddress,
    names: list[str],
    *,
    password: str | None = None,
    watch: bool = False,
    timeout: float = JOIN_TIMEOUT,
    host_key: str | None = None,
    door: DoorPass | None = None,
    tokens: SeatTokens | None = None,
    tab: str | None = None,
    spoken: bool = False,
) -> RoomClient:
    """A client welcomed in the room under the first of ``names`` the room accepts
    (the next one only when a name is already playing); SnlError with one line else.
    ``tokens``: the seat tokens kept on disk (``net.seat_tokens``): a name with a token
    there takes its seat back with it at once, and each new token is kept; ``tab``: a
    browser tab's own secret, under which its token is kept. ``spoken`` (plain mode):
    the room's refusal without its address, which a screen reader reads digit by digit
    ("wrong password for this room", not "127.0.0.1:44391/YTZCET: wrong password...")."""
    from ..net.seat_tokens import seat_key

    where = "" if spoken else f"{address}: "

    for index, name in enumerate(names):
        key = seat_key(address, name, tab)
        kept = None if tokens is None or watch else tokens.get(key)
        client = await _try_join(address, name, password, watch, host_key, door, kept, timeout)
        if kept is not None and client.role is None and _stale(client):
            # The room no longer knows that token (given away, or another room): by name.
            if tokens is not None:
                tokens.put(key, None)
            client = await _try_join(address, name, password, watch, host_key, door, None, timeout)
        if client.role is not None:
            if tokens is not None and not watch:
                tokens.put(key, client.token)
                client.on_token = lambda token, key=key: tokens.put(key, token)
            return client
        refusal = client.last_refusal
        if refusal is not None and refusal.code == "name-taken" and index + 1 < len(names):
            continue
        if refusal is not None:
            raise SnlError(f"{where}{refusal}")
        raise SnlError(f"cannot reach {address}: {client.last_failure or 'no connection'}")
    raise SnlError(f"{where}every name tried is playing already: give --name")


async def _try_join(
    address: RoomAddress,
    name: str,
    password: str | None,
    watch: bool,
    host_key: str | None,
    door: DoorPass | None,
    token: str | None,
    timeout: float,
) -> RoomClient:
    """One client, welcomed (``role``) or closed after its refusal or failure."""
    from ..net.client import RoomClient

    client = RoomClient(
        address, name, password=password, spectate=watch, host_key=host_key, door=door
    )
    client.token = token
    client.start()
    try:
        await client.wait_for(
            lambda: (
                client.role is not None
                or client.last_refusal is not None
                or client.failures > 0
                # Before its welcome an honest host sends nothing else: a frame this snl
                # refused (or an error) is the host's, and said at once.
                or client.last_error is not None
            ),
            timeout,
        )
    except TimeoutError:
        await client.close()
        raise SnlError(_silent(address, client, timeout)) from None
    if client.role is None:
        await client.close()
        if client.last_refusal is None and client.last_error is not None:
            raise SnlError(_silent(address, client, timeout))
    return client


def _stale(client: RoomClient) -> bool:
    refusal = client.last_refusal
    return refusal is not None and refusal.code in ("wrong-token", "seat-given-away")


def _silent(address: RoomAddress, client: RoomClient, timeout: float) -> str:
    """Why no welcome came: what the host sent that the client refused, if anything,
    else no answer at all."""
    if client.last_error is not None:
        return f"{address}: the host sent something this snl refuses: {client.last_error}"
    return f"{address}: no answer in {timeout:.0f} seconds"


def play_in_room(
    joined: Callable[[], Awaitable[RoomClient]],
    *,
    animate: bool = True,
    join_line: Callable[[], str] | None = None,
    before: Callable[[], Awaitable[object]] | None = None,
    after: Callable[[], Awaitable[object]] | None = None,
    bell: bool = True,
    plain: bool = False,
    notices: Sequence[str] = (),
) -> int:
    """Join (``joined``), then open the room's screen on the same event loop until the
    player quits; ``before``/``after`` run on that loop first and last (the host's own
    server; ``join_line`` says, once it has run, what others type to join). Joining's
    SnlError propagates (one line, exit 2). ``plain``: the room in plain lines for a
    screen reader (``snl_tui.plain.room``) instead of the room's screen. ``notices``:
    what this terminal has to say about the room (``snl host --resume``), said where
    the person sees it: on the screen, or as lines once the room is said."""
    from ..core.store.settings import load_settings

    loop = asyncio.new_event_loop()
    client: RoomClient | None = None
    try:
        if before is not None:
            loop.run_until_complete(before())
        client = loop.run_until_complete(joined())
        line = join_line() if join_line is not None else None
        if plain:
            from ..plain.console import Console
            from ..plain.room import play_room

            # In a terminal, the line editor (its modes come back at exit and on SIGTERM).
            console = Console.standard()
            playing = play_room(client, console, join_line=line, notices=notices)
            return loop.run_until_complete(playing)
        from ..app import SnlApp, run_app

        settings, _ = load_settings()
        app = SnlApp.joining(
            client,
            join_line=line,
            animate=animate,
            settings=settings,
            bell=bell,
            notices=notices,
        )
        return run_app(app, loop=loop)
    finally:
        if client is not None:
            loop.run_until_complete(client.close())
        if after is not None:
            loop.run_until_complete(after())
        loop.close()


__all__ = ["add_join_parser", "cmd_join", "join_room", "play_in_room"]
