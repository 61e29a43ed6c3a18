"""``snl games`` and ``snl stats``: the saved-games history on the command line (SPEC 8).

``cli.py`` registers these subcommands through ``register`` and runs them through ``run``.
Neither imports Textual or rich; ``stats`` loads the exact odds (numpy) only when it has
games to compare with them.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import SnlError
from ..core.store.history import PUZZLE_LEGEND, board_summary, print_board, print_table
from ..core.text import quote, safe_line
from .common import SPOKEN_REPORT_HELP, add_screen_reader, screen_reader_wanted

if TYPE_CHECKING:
    from datetime import datetime

    from ..core.store.games import Store

COMMANDS = ("games", "stats")

EXIT_OK = 0
EXIT_USAGE = 2


def register(commands: argparse._SubParsersAction[Any]) -> None:
    """Add the ``games`` and ``stats`` subcommands to the ``snl`` parser."""
    games = commands.add_parser("games", help="list saved games")
    games.add_argument("--json", action="store_true", help="print a JSON list")
    add_screen_reader(games, SPOKEN_REPORT_HELP)
    stats = commands.add_parser(
        "stats", help="wins, game lengths and luck per board and player; puzzle bests"
    )
    stats.add_argument(
        "board", nargs="?", metavar="BOARD", help="only this board (a name or a board file)"
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    add_screen_reader(stats, SPOKEN_REPORT_HELP)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``snl games`` or ``snl stats``; returns the exit status."""
    import json

    store = _open(args.command, err)
    board = getattr(args, "board", None)
    if store is None and board and not _known_board(board, None):
        print(f"snl stats: no board or saved game is called {quote(board)}", file=err)
        return EXIT_USAGE
    if store is None:
        if args.command == "games":
            print("[]" if args.json else "no saved games yet", file=out)
        else:
            print(json.dumps({"boards": []}) if args.json else "no saved games yet", file=out)
        return EXIT_OK
    if not store.enabled:
        reason = store.disabled_reason or "the store cannot be opened"
        print(f"snl {args.command}: {reason.removeprefix('not saving: ')}", file=err)
        return EXIT_USAGE
    if not args.json and screen_reader_wanted(args):
        from ..plain.speech import SpokenOut

        out = SpokenOut(out)  # type: ignore[assignment]
        args.spoken = True
    with store:
        for warning in store.warnings:
            print(f"snl {args.command}: {warning}", file=err)
        told = len(store.warnings)
        command = cmd_games if args.command == "games" else cmd_stats
        status = command(store, args, out, err)
        for warning in store.warnings[told:]:  # damage found while reading
            print(f"snl {args.command}: {warning}", file=err)
        return status


def _open(command: str, err: TextIO) -> Store | None:
    """The store for reading; None when nothing was ever saved (no data folder or no
    database file in it yet: a fresh install is not an error)."""
    from ..core.store.games import DB_NAME, default_dir, open_store  # only for these commands

    folder = default_dir()
    if not folder.exists() or (folder.is_dir() and not (folder / DB_NAME).exists()):
        return None
    return open_store(create=False)  # a folder that is a file: one line, exit 2


# -- snl games -----------------------------------------------------------------------------


def cmd_games(store: Store, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    listing = store.list_games()
    for line in listing.skipped:
        print(f"snl games: warning: {line}", file=err)
    if args.json:
        print(json.dumps([game.to_json() for game in listing.games], indent=2), file=out)
        return EXIT_OK
    if not listing.games:
        print("no saved games yet", file=out)
        return EXIT_OK
    header = ("id", "board", "players", "started", "turns", "status")
    rows = [
        (
            str(game.id),
            game.board_name or "(unnamed)",
            ", ".join(game.players),
            _local(game.started, spoken=getattr(args, "spoken", False)),
            str(game.turns),
            game.status_text + (" (puzzle)" if game.mode == "puzzle" else ""),
        )
        for game in listing.games
    ]
    right = {0, 4}
    print_table(header, rows, right, out, spoken=getattr(args, "spoken", False))
    if any(game.room and game.status == "playing" for game in listing.games):
        # Not 'snl resume': a room's seats are other people's (it refuses, and says this).
        print("\na room's game reopens with: snl host --resume ID", file=out)
    return EXIT_OK


def _local(moment: datetime, *, spoken: bool = False) -> str:
    """'2026-11-28 21:50' in the local time zone; spoken: '28 November 2026 at 21:50'."""
    if spoken:
        from ..plain.speech import date_words

        return date_words(moment)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


# -- snl stats -----------------------------------------------------------------------------


def cmd_stats(store: Store, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    wanted = _board_names(args.board) if args.board else None
    stats = store.stats(wanted)
    for line in stats.skipped:
        print(f"snl stats: warning: {line}", file=err)
    boards = [board_summary(record) for record in stats.boards]
    if args.json:
        print(json.dumps({"boards": boards}), file=out)
        return EXIT_OK
    if not boards:
        if args.board and not _known_board(args.board, store):
            print(f"snl stats: no board or saved game is called {quote(args.board)}", file=err)
            return EXIT_USAGE
        where = f" on {safe_line(args.board, 60)}" if args.board else ""
        print(f"no finished games{where} yet", file=out)
        return EXIT_OK
    for index, board in enumerate(boards):
        if index:
            print(file=out)
        print_board(board, out, spoken=getattr(args, "spoken", False))
    from ..core.odds.report import LUCK_LEGEND  # fractions, decimal: only for stats

    print(f"\navg length: turns to reach the goal in the games won; {LUCK_LEGEND}", file=out)
    print(PUZZLE_LEGEND, file=out)
    return EXIT_OK


def _known_board(board: str, store: Store | None) -> bool:
    """Whether ``board`` loads, or names a board of some saved game (finished or not)."""
    from ..core.files.formats import load_board

    try:
        load_board(board)
        return True
    except SnlError:
        if store is None:
            return False
        wanted = board.casefold()
        listing = store.list_games()
        return any(wanted in (g.board_name.casefold(), g.board_key) for g in listing.games)


def _board_names(board: str) -> list[str]:
    """What BOARD may be called in the store: as typed, and the name inside the board it
    loads (``classic`` is stored as 'Chutes and Ladders'), and that board's key."""
    from ..core.files.formats import load_board
    from ..core.store.games import board_key

    names = [board]
    try:
        loaded = load_board(board)
    except SnlError:
        return names  # not a board we can load: match the stored names only
    return [*names, loaded.name, board_key(loaded)]
