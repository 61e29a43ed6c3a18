"""``snl host``: open a room for friends on other machines and serve it (SPEC 11, 14).

Prints one line, ``snl join HOST:PORT/CODE``, for the others to type, then serves the room
(``net.server``) until Ctrl+C. Loopback by default; another address only when given, with
a warning. The room is saved in this machine's store as it opens and after every move,
so ``snl host --resume ID`` (the last line says the ID) reopens a room whose host
stopped, with its code, its seats and the host's own seat (the host's name is saved with
the room); what a resume replaces is said on the host's screen (``--name``) or log.

``--turn-time`` and ``--away-after`` keep a game going when a friend stops playing
(``net.server.Timers``); with ``--name`` the host's own screen has the host's powers
(``x``). ``--web`` also starts ``snl serve --room`` on ``--web-port``: its
``http://HOST:PORT/join/CODE`` link opens the room in a browser tab (which asks the
friend's name), and ``snl join`` takes the same link, through the same port.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from ..core.board import Board
from ..core.engine import MAX_PLAYERS, Player, unique_names
from ..core.errors import SnlError
from ..core.session import GameSettings
from ..core.text import safe_line
from .common import (
    Subcommands,
    add_screen_reader,
    parse_players,
    saved_game_id,
    screen_reader_wanted,
    whole_number,
)
from .web_door import WebDoor, local_host, shown_host, web_available

if TYPE_CHECKING:
    from ..core.store.games import SavedGame, Store
    from ..net.address import RoomAddress
    from ..net.client import RoomClient
    from ..net.server import Room, RoomServer

DEFAULT_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8000
DEFAULT_SEATS = 2
LOOPBACK = ("127.0.0.1", "localhost", "::1")
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
    from ..net.address import DEFAULT_PORT
    from ..net.protocol import TIME_OUT_ACTIONS

    host = commands.add_parser("host", help="open a room for friends on other machines")
    host.add_argument("board", nargs="?", metavar="BOARD", help="the board (default classic)")
    host.add_argument(
        "--host",
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only; "
        "--resume: the room's own)",
    )
    host.add_argument(
        "--port",
        type=whole_number(0, 65535),
        help=f"default {DEFAULT_PORT} (--resume: the room's own, where its players look)",
    )
    host.add_argument(
        "--seats",
        type=whole_number(1, MAX_PLAYERS),
        metavar="N",
        help="seats for people in all, those named in --players included (free seats are "
        f"added after the --players list up to N; default: the people in --players, else "
        f"{DEFAULT_SEATS})",
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
        help="how long a dropped player's seat waits for them before anyone may take it "
        "by name (their own terminal or browser tab comes back with its seat token at "
        f"once, at any time; default {int(KEEP_SEAT)})",
    )
    host.add_argument(
        "--name",
        metavar="NAME",
        help="take a seat yourself and play in this terminal (the others' 'snl join' "
        "line shows on the game screen)",
    )
    host.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    add_screen_reader(host)  # with --name: the room in plain lines
    host.add_argument(
        "--resume",
        metavar="ID",
        help="reopen a saved room's game (its id in 'snl games') with its code, seats and "
        "options (an option given again replaces the saved one)",
    )
    host.add_argument(
        "--no-save", action="store_true", help="do not save the room's game (no --resume)"
    )
    host.add_argument(
        "--turn-time",
        type=seconds_option,
        metavar="SECONDS",
        help="a person who does not roll within SECONDS is rolled for (or skipped: --late)",
    )
    host.add_argument(
        "--late",
        choices=TIME_OUT_ACTIONS,
        help="what --turn-time does to a late turn: roll for the player (default) or skip it",
    )
    host.add_argument(
        "--away-after",
        type=seconds_option,
        metavar="SECONDS",
        help="the computer plays the seat of someone gone (or here but not rolling) this "
        "long, until they come back (or roll)",
    )
    host.add_argument(
        "--web",
        action="store_true",
        help="also serve the room to browsers (needs snl-tui[web]): prints an http:// link "
        "that opens it in a browser tab; 'snl join' takes the link too",
    )
    host.add_argument(
        "--web-port",
        type=whole_number(0, 65535),
        help=f"the browser door's port with --web (default {DEFAULT_WEB_PORT})",
    )
    host.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="with --web: the address friends reach the door at through a TLS proxy or "
        "tunnel, e.g. https://games.example.org (its pages may play; the link uses it)",
    )
    add_rule_options(host)


def seconds_option(text: str) -> float:
    """``--turn-time``/``--away-after``: seconds, more than 0 and at most a day."""
    from ..core.text import parse_decimal

    value = parse_decimal(text)
    if value is None or not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds from 1 to 86400, like 60")
    return value


def room_players(players_text: str | None, seats: int | None) -> tuple[Player, ...]:
    """The room's seats: ``--players`` as listed, plus free seats up to ``--seats``
    people in all; ``--seats`` alone (default 2) gives that many free seats."""
    players: list[Player] = []
    if players_text is not None:
        players = parse_players(players_text)  # its errors name --players
    people = sum(not player.computer for player in players)
    wanted = seats if seats is not None else (people if players else DEFAULT_SEATS)
    if wanted < people:
        raise SnlError(
            f"--seats {wanted}: --players already names {people} people, and --seats counts "
            f"them (--seats {people + 1} adds one free seat after them)"
        )
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
    from ..net.server import RoomServer, Timers

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
    from ..net.guard import new_door_key

    saved = _saved_room(store, args.resume) if args.resume is not None else None
    replaced: list[str] = []  # saved options given again: said where the host looks
    if saved is not None:
        _restore_options(args, saved, replaced.append)
        saved_room = saved.data.get("room")
        host = saved_room.get("host") if isinstance(saved_room, dict) else None
        if args.name is None and isinstance(host, str):
            args.name = host  # the host's own seat: its screen, so no log lines over it
    keep_seat = float(KEEP_SEAT if args.keep_seat is None else args.keep_seat)
    if args.web_port is None:
        args.web_port = DEFAULT_WEB_PORT
    if args.host is None:
        args.host = DEFAULT_HOST
    if args.port is None:
        from ..net.address import DEFAULT_PORT

        args.port = DEFAULT_PORT
    server = RoomServer(
        store,
        log=None if args.name is not None else say,
        keep_seat=keep_seat,
        # --web: the browser door names each visitor, proven by this key (net.guard).
        door_key=new_door_key() if args.web else None,
    )
    if store is not None:
        for warning in [*store.warnings, *([store.disabled_reason] if not store.enabled else [])]:
            say(warning or "")
    timers = Timers(args.turn_time, args.late or "roll", args.away_after)
    if args.allow_origin and not args.web:
        raise SnlError("--allow-origin is for the browser door: add --web")
    if args.web:
        web_available()
    if saved is not None:
        room = server.resume_room(saved, password=args.password, timers=timers, keep_seat=keep_seat)
        if args.name is None and room.host_name is not None:
            args.name = room.host_name  # the host's own seat, as before the stop
        if args.name is not None:
            _check_resumed_name(room, args.name)
    else:
        players = room_players(args.players, args.seats)
        settings = GameSettings(load_board(), players, args.seed)
        host_name = None if args.name is None else check_host_name(args.name)
        room = server.open_room(
            settings, password=args.password, timers=timers, host_name=host_name
        )
    if args.web:
        room.options = {
            "web": True,
            "web_port": args.web_port,
            "allow_origin": list(args.allow_origin),
        }
    args.room_has_password = room.password is not None
    if args.host not in LOOPBACK:
        say(
            f"warning: listening on {args.host}: anyone who can reach this address can join "
            "(use --password, or a TLS proxy or tunnel: see the docs, 'Play with friends')"
        )
    try:
        if args.name is not None:
            return _host_and_play(server, room, args, say, replaced)
        for line in replaced:  # no screen: the log is where the host looks
            say(line)
        asyncio.run(_serve(server, room, args, out, say))
    finally:
        if store is not None:
            store.close()
    return EXIT_OK


def _check_resumed_name(room: Room, name: str) -> None:
    """``--resume --name``: the host sits where the host sat. Another name would leave
    the host's seat to wait for nobody, and a player's name would be that player's seat
    (the host's key takes its own seat at once): both are one line, not a surprise."""
    from ..net.protocol import name_key

    key, host = name_key(name), room.host_name
    if host is not None and name_key(host) != key:
        raise SnlError(f"--resume: the host of this room plays as {host}: --name {host}, or none")
    if host is None and any(s.taken and name_key(s.name) == key for s in room.seats):
        raise SnlError(f"--resume: {name} is a player's seat in this room: choose another --name")


def check_host_name(name: str) -> str:
    from ..net.protocol import check_name

    return check_name(name)


def _host_and_play(
    server: RoomServer,
    room: Room,
    args: argparse.Namespace,
    say: Callable[[str], None],
    notices: list[str],
) -> int:
    """``--name``: serve the room and take a seat in it from this terminal; the others'
    ``snl join`` line is on the game screen (and printed when the game closes, with
    the ``--resume`` that reopens it); ``notices`` are said on that screen."""
    from ..net.address import RoomAddress
    from ..net.protocol import check_name
    from .join import join_room, play_in_room

    name = check_name(args.name)
    room.host_name = name
    where: list[RoomAddress] = []
    links: list[str] = []
    door: list[WebDoor] = []

    async def start() -> None:
        bound = await _listen(server, args.host, args.port)
        _listening(room, args.host, bound)
        where.append(RoomAddress(shown_host(args.host), bound, room.code))
        line = await _resume_line(server, room)
        if line:  # on the host's screen from the start: a kill -9 prints nothing after
            notices.append(line)
        if args.web:
            door.append(await WebDoor.open(args, where[0], room.code, server.door_key))
            links.append(door[0].link)

    async def joined() -> RoomClient:
        own = RoomAddress(local_host(args.host), where[0].port, room.code)
        return await join_room(own, [name], password=args.password, host_key=room.host_key)

    async def stop() -> None:
        server.stop_rooms()  # the door's games closing next are not people quitting
        for opened in door:
            await opened.close()
        await server.stop()

    def join_line() -> str:
        if not where:
            return ""
        return f"snl join {where[0]}" + (f"  or open {links[0]}" if links else "")

    try:
        return play_in_room(
            joined,
            animate=not args.no_animation,
            join_line=join_line,
            before=start,
            after=stop,
            plain=screen_reader_wanted(args),
            notices=notices,
        )
    finally:
        if where:
            say(closed_line(room, join_line(), spoken=screen_reader_wanted(args)))


def closed_line(room: Room, join_line: str, *, spoken: bool = False) -> str:
    """What the host is told as the room closes: the address it had and how to reopen
    it. ``spoken`` (plain mode): the code letter by letter and no address, which a
    screen reader reads digit by digit ("room code C Q D 4 W X is closed: ...")."""
    if spoken:
        from ..plain.room_words import spelled_code

        return f"room {spelled_code(room.code)} is closed{_reopen(room)}"
    return f"the room is closed (it was {join_line}){_reopen(room)}"


def _store() -> Store:
    from ..core.store.games import open_store
    from ..core.store.saving import GAME_TIMEOUT

    return open_store(timeout=GAME_TIMEOUT)


RESTORED = (
    ("host", "--host"),
    ("port", "--port"),
    ("turn_time", "--turn-time"),
    ("late", "--late"),
    ("away_after", "--away-after"),
    ("keep_seat", "--keep-seat"),
    ("web_port", "--web-port"),
)


def _restore_options(
    args: argparse.Namespace, saved: SavedGame, say: Callable[[str], None]
) -> None:
    """``--resume``: the room's saved options, each unless given again (and then the
    host is told which saved option it replaces)."""
    from ..net.server import saved_options

    room = saved.data.get("room")
    if not isinstance(room, dict):
        return  # not a room's game: resume_room says so
    try:
        options = saved_options(room)
    except SnlError as error:
        raise SnlError(f"--resume: game {saved.id}: {error}") from None
    timers = options.timers
    listen, port = options.extra.get("listen"), options.extra.get("port")
    if not (listen is None or isinstance(listen, str)) or not (
        port is None or (type(port) is int and 0 < port <= 65535)
    ):
        raise SnlError(f"--resume: game {saved.id}: its options are damaged (its address)")
    was = {
        "host": listen,
        "port": port,
        "turn_time": timers.turn_time,
        "late": timers.on_time_out,
        "away_after": timers.away_after,
        "keep_seat": options.keep_seat,
        "web_port": options.extra.get("web_port") if options.extra.get("web") else None,
    }
    for name, flag in RESTORED:
        given, before = getattr(args, name), was[name]
        if given is None:
            setattr(args, name, before)
        elif before is not None and given != before:
            say(f"{flag} {_shown(given)} replaces the room's saved {flag} {_shown(before)}")
    if options.extra.get("web") is True and not args.web:
        args.web = True
        origins = options.extra.get("allow_origin")
        if isinstance(origins, list) and not args.allow_origin:
            args.allow_origin = [str(origin) for origin in origins]
    if args.password is not None and options.password is not None:
        say("--password replaces the room's saved password")


def _shown(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _saved_room(store: Store | None, text: str) -> SavedGame:
    from ..core.store.games import StoreError

    try:
        game_id = saved_game_id(text)
    except SnlError as error:
        raise SnlError(f"--resume: {error}") from None
    if store is None or not store.enabled:
        reason = store.disabled_reason if store is not None else None
        raise SnlError(f"--resume: {reason or 'no saved games'}".replace("not saving: ", ""))
    try:
        return store.load_game(game_id)
    except StoreError as error:
        raise SnlError(f"--resume: {error}") from None


def _listening(room: Room, host: str, port: int) -> None:
    """The room listens on ``host``:``port``: saved with it, so ``--resume`` alone
    reopens it where its players' clients look for it."""
    room.options.update(listen=host, port=port)
    room.save()


async def _listen(server: RoomServer, host: str, port: int) -> int:
    """Start listening; the port bound (``--port 0``: any free one)."""
    try:
        return await server.start(host, port)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise SnlError(f"cannot listen on {host}:{port}: {reason.lower()}") from None


async def _serve(
    server: RoomServer,
    room: Room,
    args: argparse.Namespace,
    out: TextIO,
    say: Callable[[str], None],
) -> None:
    from ..net.address import RoomAddress

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        # Before anything starts: a signal's own action would end this process at once
        # and leave the browser door's process running, serving a room that is gone.
        loop.add_signal_handler(number, stop.set)
    door: WebDoor | None = None
    try:
        bound = await _listen(server, args.host, args.port)
        _listening(room, args.host, bound)
        address = RoomAddress(shown_host(args.host), bound, room.code)
        print(f"snl join {address}", file=out, flush=True)
        if screen_reader_wanted(args):  # the code is read as a number: letter by letter
            from ..plain.room_words import spelled_code

            print(f"room {spelled_code(room.code)}", file=out, flush=True)
        resume = await _resume_line(server, room)
        if resume:
            say(resume)
        if args.web:
            door = await WebDoor.open(args, address, room.code, server.door_key)
            link = f"or open {door.link} in a browser (snl join takes it too)"
            print(link, file=out, flush=True)
        await stop.wait()
    finally:
        server.stop_rooms()  # the door's games closing next are not people quitting
        if door is not None:
            await door.close()
        await server.stop()
        reopen = _reopen(room)
        if reopen:
            say(f"the room is closed{reopen}")


async def _resume_line(server: RoomServer, room: Room) -> str:
    """Once the room's first save is written: how the host reopens it if this process
    stops, however it stops (a ``kill -9`` prints nothing after); "" when not saved."""
    await asyncio.sleep(0)  # a room added while serving opens (is saved) on the next turn
    await server.saved()
    game_id = room.saver.game_id
    if game_id is None:
        return ""
    return f"if the room stops, snl host --resume {game_id} reopens it"


def _reopen(room: Room) -> str:
    """How the host reopens the room (its saved game) once it is closed, if it can."""
    game_id = room.saver.game_id
    if game_id is None:
        return ""
    return f": snl host --resume {game_id} reopens it"


__all__ = ["add_host_parser", "cmd_host", "room_players", "seconds_option"]
