"""``snl games`` and ``snl stats``: the saved-games history on the command line (SPEC 8).

``cli.py`` registers these subcommands through ``register`` and runs them through ``run``.
Neither imports Textual or rich; ``stats`` loads the exact odds (numpy) only when it has
games to compare with them.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TextIO

from .core.errors import SnlError
from .core.report import LUCK_LEGEND
from .core.text import quote, safe_line

if TYPE_CHECKING:
    from .core.analysis import Analysis
    from .core.board import Board
    from .core.store import BoardRecord, Store

COMMANDS = ("games", "stats")

EXIT_OK = 0
EXIT_USAGE = 2


def register(commands: argparse._SubParsersAction[Any]) -> None:
    """Add the ``games`` and ``stats`` subcommands to the ``snl`` parser."""
    games = commands.add_parser("games", help="list saved games")
    games.add_argument("--json", action="store_true", help="print a JSON list")
    stats = commands.add_parser(
        "stats", help="wins, game lengths and luck per board and player; puzzle bests"
    )
    stats.add_argument(
        "board", nargs="?", metavar="BOARD", help="only this board (a name or a board file)"
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``snl games`` or ``snl stats``; returns the exit status."""
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
    from .core.store import DB_NAME, default_dir, open_store  # only for these commands

    folder = default_dir()
    if not folder.exists() or (folder.is_dir() and not (folder / DB_NAME).exists()):
        return None
    return open_store(create=False)  # a folder that is a file: one line, exit 2


# -- snl games -----------------------------------------------------------------------------


def cmd_games(store: Store, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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
            _local(game.started),
            str(game.turns),
            game.status_text + (" (puzzle)" if game.mode == "puzzle" else ""),
        )
        for game in listing.games
    ]
    right = {0, 4}
    _print_table(header, rows, right, out)
    return EXIT_OK


def _local(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _print_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int], out: TextIO
) -> None:
    rows = [tuple(safe_line(cell, 60) for cell in row) for row in rows]  # names from the store
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if index in right else cell.ljust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)


# -- snl stats -----------------------------------------------------------------------------


def cmd_stats(store: Store, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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
        print_board(board, out)
    print(f"\navg length: turns to reach the goal in the games won; {LUCK_LEGEND}", file=out)
    return EXIT_OK


def _known_board(board: str, store: Store | None) -> bool:
    """Whether ``board`` loads, or names a board of some saved game (finished or not)."""
    from .core.formats import load_board

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
    from .core.formats import load_board
    from .core.store import board_key

    names = [board]
    try:
        loaded = load_board(board)
    except SnlError:
        return names  # not a board we can load: match the stored names only
    return [*names, loaded.name, board_key(loaded)]


def exact_odds(board: Board) -> Analysis | None:
    """The exact one-player odds of ``board``, or None for a board too large for them."""
    from .core.analysis import analyze  # numpy loads only when there is history to compare

    try:
        return analyze(board)
    except SnlError:
        return None


def board_summary(record: BoardRecord, odds: Analysis | None = None) -> dict[str, Any]:
    """A board's history with the exact odds beside it (JSON-able); ``odds`` when the
    caller has them already (``exact_odds(record.board)``). Used by ``snl stats`` and the
    game's statistics screen, so both show the same figures."""
    from .core.analysis import luck
    from .core.solver import solve

    if odds is None:
        odds = exact_odds(record.board)
    if odds is not None:
        expected: float | None = odds.expected_turns
        median: int | None = odds.median_turns
    else:  # a board too large for the exact odds: history without them
        expected, median = None, None
    if expected is not None and not math.isfinite(expected):
        expected = None
    optimum = solve(record.board).moves
    players = []
    for player in record.players:
        seats = player.seats or (1,) * len(player.lengths)
        luck_shares = (
            [luck(odds, count, length) for length, count in zip(player.lengths, seats, strict=True)]
            if odds
            else []
        )
        players.append(
            {
                "player": player.player,
                "games": player.games,
                "wins": player.wins,
                "lengths": list(player.lengths),
                "average_length": player.average_length,
                "luck_percentiles": luck_shares,
                "median_luck": _median(luck_shares),
                "puzzles": player.puzzles,
                "puzzle_best": player.puzzle_best,
            }
        )
    return {
        "board": record.name,
        "key": record.key,
        "expected_turns": expected,
        "median_turns": median if median is None or median >= 0 else None,
        "optimum": optimum if optimum >= 0 else None,
        "players": players,
    }


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def print_board(board: dict[str, Any], out: TextIO) -> None:
    expected = board["expected_turns"]
    exact = (
        f"exact: {expected:.1f} turns expected, median {board['median_turns']}"
        if expected is not None
        else "exact odds not available for this board"
    )
    print(f"{safe_line(board['board'] or '(unnamed board)')} ({exact})", file=out)
    header = ("player", "games", "wins", "avg length", "luck", "puzzle best")
    rows = [_player_row(player, board) for player in board["players"]]
    _print_table(header, rows, {1, 2, 3, 4}, out)


def _player_row(player: dict[str, Any], board: dict[str, Any]) -> tuple[str, ...]:
    average = player["average_length"]
    median_luck = player["median_luck"]
    best = player["puzzle_best"]
    puzzle = "-"
    if best is not None:
        optimum = board["optimum"]
        puzzle = f"{best} (optimum {optimum})" if optimum is not None else str(best)
    return (
        player["player"],
        str(player["games"]),
        str(player["wins"]),
        "-" if average is None else f"{average:.1f}",
        "-" if median_luck is None else f"{median_luck:.0%}",
        puzzle,
    )
