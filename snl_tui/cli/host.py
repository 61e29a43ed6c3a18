"""``snl host``: open a room for friends on other machines and serve it (SPEC 11).

Prints one line, ``snl join HOST:PORT/CODE``, for the others to type, then serves the room
(``net.server``) until Ctrl+C. Loopback by default; another address only when given, with
a warning. The room's game is saved after every move in this machine's store, so
``snl host --resume ID`` reopens a room whose host stopped, with its code and seats.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from ..core.board import Board
from ..core.engine import MAX_PLAYERS, Player, unique_names
from ..core.errors import SnlError
from ..core.session import GameSettings
from ..core.text import safe_line
from .common import Subcommands, parse_players, saved_game_id, whole_number

if TYPE_CHECKING:
    from ..core.store.games import Store
    from ..net.client import RoomClient
    from ..net.server import Room, RoomServer

DEFAULT_HOST = "127.0.0.1"
DEFAULT_SEATS = 2
LOOPBACK = ("127.0.0.1", "localhost", "::1")
ANY_ADDRESS = ("0.0.0.0", "::", "")
EXIT_OK = 0
KEEP_SEAT = 120
"""``--keep-seat``'s default (``net.server.KEEP_SEAT``, not imported: the CLI's help must
not load the network code)."""
MAX_KEEP_SEAT = 7 * 24 * 3600


def add_host_parser(
    commands: Subcommands,
    add_rule_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``snl host`` on the CLI's subparsers."""
    from ..net.protocol import DEFAULT_PORT

    host = commands.add_parser("host", help="open a room for friends on other machines")
    host.add_argument("board", nargs="?", metavar="BOARD", help="the board (default classic)")
    host.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    host.add_argument(
        "--port", type=whole_number(0, 65535), default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}"
    )
    host.add_argument(
        "--seats",
        type=whole_number(1, MAX_PLAYERS),
        metavar="N",
        help=f"seats for people (default: the people in --players, else {DEFAULT_SEATS})",
    )
    host.add_argument(
        "--players",
        metavar="LIST",
        help="the seats in turn order, as for 'snl play': a name keeps a seat for the "
        "person who joins with it; 'cpu' seats play by themselves",
    )
    host.add_argument("--seed", type=int, help="seed the dice (same seed, same rolls)")
    host.add_argument("--password", metavar="P", help="people must give it to join")
    host.add_argument(
        "--keep-seat",
        type=whole_number(0, MAX_KEEP_SEAT),
        metavar="SECONDS",
        default=int(KEEP_SEAT),
        help="how long a dropped player's seat waits for them (their terminal comes back "
        f"with its token at any time) before anyone may take it by name (default "
        f"{int(KEEP_SEAT)})",
    )
    host.add_argument(
        "--name",
        metavar="NAME",
        help="take a seat yourself and play in this terminal (the others' 'snl join' "
        "line shows on the game screen)",
    )
    host.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    host.add_argument(
        "--resume",
        metavar="ID",
        help="reopen a saved room's game (its id in 'snl games') with its code and seats",
    )
    host.add_argument(
        "--no-save", action="store_true", help="do not save the room's game (no --resume)"
    )
    add_rule_options(host)


def room_players(players_text: str | None, seats: int | None) -> tuple[Player, ...]:
    """The room's seats: ``--players`` as listed, plus free seats up to ``--seats``
    people; ``--seats`` alone (default 2) gives that many free seats."""
    players: list[Player] = []
    if players_text is not None:
        players = parse_players(players_text)  # its errors name --players
    people = sum(not player.computer for player in players)
    wanted = seats if seats is not None else (people if players else DEFAULT_SEATS)
    if wanted < people:
        raise SnlError(f"--seats {wanted}: --players already names {people} people")
    players += [Player(f"Player {people + number}") for number in range(1, wanted - people + 1)]
    if len(players) > MAX_PLAYERS:
        raise SnlError(f"a room has at most {MAX_PLAYERS} seats, not {len(players)}")
    if not any(not player.computer for player in players):
        raise SnlError("a room needs at least one seat for a person (--seats N)")
    return tuple(unique_names(players))


def cmd_host(
    args: argparse.Namespace,
    load_board: Callable[[], Board],
    overrides: dict[str, Any],
    out: TextIO,
    err: TextIO,
) -> int:
    """Open the room (new, or ``--resume``d), print its ``snl join`` line, serve."""
    from ..net.server import RoomServer

    def say(line: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(safe_line(f"snl host: {line}"), file=err, flush=True)

    if args.resume is not None:
        given = [args.board, args.players, args.seats, args.seed, *overrides.values()]
        if any(value is not None for value in given):
            raise SnlError("--resume reopens the room as it was: no BOARD, seats or rules")
        if args.no_save:
            raise SnlError("--resume and --no-save: a resumed room goes on saving")
    store = None if args.no_save else _store()
    # With --name the game screen is up: it shows who sits where, no lines over it.
    server = RoomServer(
        store, log=None if args.name is not None else say, keep_seat=float(args.keep_seat)
    )
    if store is not None:
        for warning in [*store.warnings, *([store.disabled_reason] if not store.enabled else [])]:
            say(warning or "")
    if args.resume is not None:
        room = _resumed(server, store, args.resume, args.password)
    else:
        players = room_players(args.players, args.seats)
        settings = GameSettings(load_board(), players, args.seed)
        room = server.open_room(settings, password=args.password)
    if args.host not in LOOPBACK:
        say(
            f"warning: listening on {args.host}: anyone who can reach this address can join "
            "(use --password, or an SSH tunnel: see the docs, 'Play with friends')"
        )
    try:
        if args.name is not None:
            return _host_and_play(server, room, args, say)
        asyncio.run(_serve(server, room, args.host, args.port, out))
    finally:
        if store is not None:
            store.close()
    return EXIT_OK


def _host_and_play(
    server: RoomServer, room: Room, args: argparse.Namespace, say: Callable[[str], None]
) -> int:
    """``--name``: serve the room and take a seat in it from this terminal; the others'
    ``snl join`` line is on the game screen (and printed when the game closes)."""
    from ..net.protocol import RoomAddress, check_name
    from .join import join_room, play_in_room

    name = check_name(args.name)
    where: list[RoomAddress] = []

    async def start() -> None:
        bound = await _listen(server, args.host, args.port)
        where.append(RoomAddress(_shown_host(args.host), bound, room.code))

    async def joined() -> RoomClient:
        own = RoomAddress(_local_host(args.host), where[0].port, room.code)
        return await join_room(own, [name], password=args.password)

    def join_line() -> str:
        return f"snl join {where[0]}" if where else ""

    try:
        return play_in_room(
            joined,
            animate=not args.no_animation,
            join_line=join_line,
            before=start,
            after=server.stop,
        )
    finally:
        if where:
            say(f"the room is closed (it was {join_line()})")


def _store() -> Store:
    from ..core.store.games import open_store
    from ..core.store.saving import GAME_TIMEOUT

    return open_store(timeout=GAME_TIMEOUT)


def _resumed(server: RoomServer, store: Store | None, text: str, password: str | None) -> Room:
    from ..core.store.games import StoreError

    try:
        game_id = saved_game_id(text)
    except SnlError as error:
        raise SnlError(f"--resume: {error}") from None
    if store is None or not store.enabled:
        reason = store.disabled_reason if store is not None else None
        raise SnlError(f"--resume: {reason or 'no saved games'}".replace("not saving: ", ""))
    try:
        saved = store.load_game(game_id)
    except StoreError as error:
        raise SnlError(f"--resume: {error}") from None
    return server.resume_room(saved, password=password)


async def _listen(server: RoomServer, host: str, port: int) -> int:
    """Start listening; the port bound (``--port 0``: any free one)."""
    try:
        return await server.start(host, port)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise SnlError(f"cannot listen on {host}:{port}: {reason.lower()}") from None


def _shown_host(host: str) -> str:
    """The address others type: this machine's name when listening on every address."""
    return socket.gethostname() if host in ANY_ADDRESS else host


def _local_host(host: str) -> str:
    """Where this machine reaches its own room."""
    if host in ANY_ADDRESS:
        return "127.0.0.1"
    return host


async def _serve(server: RoomServer, room: Room, host: str, port: int, out: TextIO) -> None:
    from ..net.protocol import RoomAddress

    bound = await _listen(server, host, port)
    print(f"snl join {RoomAddress(_shown_host(host), bound, room.code)}", file=out, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()


__all__ = ["add_host_parser", "cmd_host", "room_players"]
