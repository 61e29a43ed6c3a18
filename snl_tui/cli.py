"""The ``snl`` command: play, solve, analyze, check, convert and list boards (SPEC 4).

Every user mistake (a bad argument, a bad board file, a bad rule value) ends with one
line on stderr and exit status 2, never a traceback; so does output that cannot be
written (``> /dev/full``). Error lines are at most ``LINE_LIMIT`` characters with control
characters escaped. ``snl`` alone plays ``classic``.

Playing saves after every move in the saved-games store (SPEC 8; ``--no-save`` never
touches it) and first offers to resume the last unfinished game; ``snl resume [ID]``
continues one and ``snl replay ID`` shows one again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeAlias

from . import __version__, store_cli
from .argtypes import whole_number
from .core.board import Board
from .core.engine import MAX_PLAYERS, Player, move
from .core.errors import SnlError
from .core.formats import FORMATS, builtin_boards, dump_board, load_board, lost_in_matrix
from .core.rules import RULE_NAMES, RULE_OPTIONS, Rules
from .core.session import GameSession
from .core.session import parse_players as session_parse_players
from .core.solver import solve
from .core.text import LINE_LIMIT, clip, parse_whole, place, quote, safe_line

if TYPE_CHECKING:
    from .core.settings import Settings
    from .core.store import SavedGame, Store

EXIT_OK = 0
EXIT_WARNINGS = 1
EXIT_USAGE = 2
MAX_GAME_ID = 2**63 - 1
"""The largest id SQLite can store: a larger number names no saved game."""

COMMANDS = (
    "play",
    "resume",
    "replay",
    "solve",
    "analyze",
    "check",
    "boards",
    "convert",
    "generate",
    "edit",
    "serve",
    *store_cli.COMMANDS,
)


BOARD_HELP = "a built-in board's name (see 'snl boards') or a .toml, .json or .txt file"


class UsageError(SnlError):
    """A command-line mistake found after parsing (e.g. too many players)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block) and exit 2.
    ``subcommands`` maps each command built on it to its parser."""

    subcommands: dict[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        # argparse quotes the bad argument: it may hold control characters or be huge.
        line = safe_line(f"{self.prog}: {message}", LINE_LIMIT - 30)
        self.exit(EXIT_USAGE, f"{line} (see {self.prog} --help)\n")


# -- rule options, shared by play, solve and analyze ------------------------------------------


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """One option per rule (``core.rules.RULE_OPTIONS``): it overrides the board's rule."""
    group = parser.add_argument_group("rule options (default: the board's own rules)")
    for option in RULE_OPTIONS:
        if option.kind is bool:
            group.add_argument(
                option.flag,
                dest=option.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=option.help,
            )
        elif option.kind is int:
            low, high = option.values[0], option.values[-1]
            group.add_argument(
                option.flag,
                dest=option.name,
                type=whole_number(low, high),
                metavar="N" if len(option.values) > 2 else None,
                help=option.help,
            )
        else:
            group.add_argument(
                option.flag, dest=option.name, choices=option.values, help=option.help
            )


def rule_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options given on the command line (the rest come from the board)."""
    return {
        name: getattr(args, name) for name in RULE_NAMES if getattr(args, name, None) is not None
    }


def _board(args: argparse.Namespace) -> Board:
    overrides = rule_overrides(args)
    # Check the options alone first, so a bad value is blamed on the option, not the file.
    Rules.from_mapping(overrides)
    return load_board(args.board, overrides or None)


# -- commands ----------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    """``snl play``: what was named on the command line is played. Only a bare ``snl``
    (no board, mode or players named) offers the last unfinished game; with a board or
    mode named, only an unfinished game of that board and mode is offered."""
    named = args.board is not None or args.mode is not None or args.players is not None
    args.board = args.board or "classic"
    mode = args.mode or "classic"
    board = _board(args)
    remembered, notices = _remembered(args)
    named_players = args.players  # "" is a mistake to report, not "not given"
    if named_players is None:
        named_players = remembered.players or DEFAULT_PLAYERS
    players = parse_players(named_players)
    from .app import SnlApp, run_app  # Textual loads only to play

    def same_game(saved: SavedGame) -> bool:
        return saved.board == board and saved.mode == mode

    app = SnlApp(
        board=board,
        players=players,
        seed=args.seed,
        mode=mode,
        animate=not args.no_animation and remembered.animation,
        # The saved games open after the first frame (the store's module and SQLite
        # load then), and the last unfinished game is offered then.
        open_store=None if args.no_save else _game_store,
        offer_last=not args.no_resume_offer,
        offer_only=same_game if named else None,
        settings=None if args.no_save else remembered,
        notices=notices,
    )
    return run_app(app)  # non-zero after a crash, which leaves a short note on stderr


DEFAULT_PLAYERS = "You,cpu"


def _remembered(args: argparse.Namespace) -> tuple[Settings, list[str]]:
    """The settings remembered from earlier runs (defaults with ``--no-save``, which
    touches nothing in the data folder)."""
    from .core.settings import Settings, load_settings

    if args.no_save:
        return Settings(), []
    return load_settings()


def _game_store() -> Store:
    """The store a game saves to: a short busy timeout, so a locked store costs one
    short wait, after which the game goes on without saving (and says so once)."""
    from .core.saving import GAME_TIMEOUT
    from .core.store import open_store

    return open_store(timeout=GAME_TIMEOUT)


def _saved_game(store: Store, text: str | None) -> SavedGame:
    """Saved game ``text`` (an id), or the last unfinished one when None."""
    if not store.enabled:
        raise UsageError(
            (store.disabled_reason or "the store cannot be opened").removeprefix("not saving: ")
        )
    if text is None:
        saved = store.last_unfinished()
        if saved is None:
            raise UsageError("no unfinished game to resume ('snl games' lists saved games)")
        return saved
    game_id = parse_whole(text)
    if game_id is None or game_id < 1:
        raise UsageError(f"not a saved game's number: {quote(text)} (see 'snl games')")
    if game_id > MAX_GAME_ID:  # more than SQLite can hold: no such game
        raise UsageError(f"no saved game {clip(text, 24)} ('snl games' lists saved games)")
    return store.load_game(game_id)


def _session(saved: SavedGame) -> GameSession:
    try:
        return GameSession.from_dict(saved.data)
    except SnlError as error:
        raise UsageError(f"saved game {saved.id} cannot be read back: {error}") from None


def cmd_resume(args: argparse.Namespace) -> int:
    """``snl resume [ID]``: continue a saved game (``--no-save``: without saving)."""
    from .core.store import open_store

    store = _game_store() if not args.no_save else open_store(create=False)
    with store:
        saved = _saved_game(store, args.game)
        if saved.status == "won":
            raise UsageError(
                f"game {saved.id} is over ({saved.status_text}): 'snl replay {saved.id}' shows it"
            )
        session = _session(saved)
        if args.no_save:
            store.close()  # read, never written
        from .app import SnlApp, run_app  # Textual loads only to play

        app = SnlApp(
            board=session.settings.board,
            players=session.settings.players,
            mode=session.mode,
            animate=not args.no_animation,
            store=None if args.no_save else store,
            resume=(session, saved.id),
        )
        return run_app(app)


def cmd_replay(args: argparse.Namespace) -> int:
    """``snl replay ID``: show a saved game again, move by move (nothing is written)."""
    from .core.store import open_store

    with open_store(create=False) as store:
        saved = _saved_game(store, args.game)
    session = _session(saved)
    from .app import SnlApp, run_app

    app = SnlApp(
        board=session.settings.board,
        players=session.settings.players,
        mode=session.mode,
        animate=not args.no_animation,
        replay=session,
    )
    return run_app(app)


def parse_players(text: str) -> list[Player]:
    """``"Ann,cpu,cpu:Robo"`` -> players: the session's one parser (``--players: `` first)."""
    try:
        return session_parse_players(text)
    except SnlError as error:  # a sentence for the dialog, a clause like argparse's here
        sentence = str(error).rstrip(".")
        raise UsageError(f"argument --players: {sentence[:1].lower()}{sentence[1:]}") from None


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    board = _board(args)
    if args.start_square == 0 and board.rules.start == 1:
        # Position 0 exists only when tokens start off the board (SPEC 1).
        raise UsageError(
            "--from 0: this board starts on square 1 (start = 1), there is no "
            "off-the-board position; use --start 0 or a square from 1"
        )
    solution = solve(board, args.start_square)
    if args.json:
        data = solution.to_dict()
        data["board"] = board.name
        data["goal"] = board.goal
        print(json.dumps(data), file=out)
        return EXIT_OK
    origin = place(solution.start)
    label = board.name or args.board
    if not solution.reachable:
        print(f"{label}: the goal (square {board.goal}) cannot be reached from {origin}", file=out)
        return EXIT_OK
    if solution.moves == 0:
        print(f"{label}: already on the goal (square {board.goal})", file=out)
        return EXIT_OK
    plural = "roll" if solution.moves == 1 else "rolls"
    long_route = solution.moves > LONG_ROUTE
    dice = _run_length(solution.rolls) if long_route else " ".join(map(str, solution.rolls))
    print(f"{label}: {solution.moves} {plural} from {origin} (dice: {dice})", file=out)
    position = solution.start
    width = len(str(solution.moves))
    # A long route (a big board) shows its two ends; --json has every step.
    shown_head = LONG_ROUTE // 2 if long_route else solution.moves
    shown_tail = solution.moves - LONG_ROUTE // 2 if long_route else solution.moves
    for number, die in enumerate(solution.rolls, start=1):
        step = move(board, position, die)
        if number <= shown_head or number > shown_tail:
            print(f"  {number:>{width}}. {step.describe()}", file=out)
        elif number == shown_head + 1:
            hidden = shown_tail - shown_head
            print(f"  {'':>{width}}  ... {hidden} more moves (--json lists every one)", file=out)
        position = step.end
    return EXIT_OK


LONG_ROUTE = 40
"""Routes longer than this print their first and last moves only."""


def _run_length(rolls: list[int]) -> str:
    """'4 6x12 2' for 4 6 6 ... 6 2: a long route's dice on one readable line."""
    groups: list[str] = []
    index = 0
    while index < len(rolls):
        end = index
        while end < len(rolls) and rolls[end] == rolls[index]:
            end += 1
        count = end - index
        groups.append(f"{rolls[index]}x{count}" if count > 1 else str(rolls[index]))
        index = end
    return " ".join(groups)


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    board = load_board(args.board)
    from .core.checks import check_board  # numpy loads only when needed

    # Warnings: the board's own findings, then the odds' (jumps that never fire, traps
    # with the share of games that never end); notes: what each jump does to the
    # expected game length. Progress goes to a terminal only, never into a pipe.
    progress = _progress_printer(err, "snl check: jump impacts") if err.isatty() else None
    report = check_board(board, progress)
    warnings = report.warnings
    for warning in warnings:
        print(f"warning: {warning.message}", file=out)
    for note in report.notes:
        print(note, file=out)
    summary = (
        f"{args.board}: {board.rows}x{board.cols}, {len(board.ladders)} ladders, "
        f"{len(board.snakes)} snakes"
    )
    if warnings:
        count = len(warnings)
        print(f"{summary}: valid, {count} warning{'s' if count > 1 else ''}", file=out)
        return EXIT_WARNINGS
    print(f"{summary}: ok", file=out)
    return EXIT_OK


def _progress_printer(err: TextIO, label: str) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` that redraws one line on a terminal, then clears it."""
    shown = [-1]

    def progress(done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        if percent != shown[0]:
            shown[0] = percent
            print(f"\r{label}: {done}/{total}", end="", file=err, flush=True)
        if done >= total:
            print("\r\033[K", end="", file=err, flush=True)

    return progress


def cmd_boards(args: argparse.Namespace, out: TextIO) -> int:
    entries = builtin_boards()
    rows = [
        (entry.name, entry.size_label, str(solve(entry.board).moves), entry.description)
        for entry in entries
    ]
    if args.json:
        data = [
            {
                "name": name,
                "title": entry.board.name,
                "rows": entry.board.rows,
                "cols": entry.board.cols,
                "least_rolls": int(least),
                "rules": entry.board.rules.non_default(),
                "description": description,
            }
            for entry, (name, _, least, description) in zip(entries, rows, strict=True)
        ]
        print(json.dumps(data, indent=2), file=out)
        return EXIT_OK
    header = ("name", "size", "least rolls", "description")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
    room = max(20, shutil.get_terminal_size((100, 24)).columns - sum(widths) - 7)
    for row in [header, *rows]:
        text = " ".join(row[3].split())
        if len(text) > room:
            text = text[: room - 3].rstrip() + "..."
        print(
            f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:>{widths[2]}}  {text}",
            file=out,
        )
    return EXIT_OK


def cmd_convert(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    board = load_board(args.board)
    if args.to == "matrix":
        lost = lost_in_matrix(board)
        if lost:
            options = ", ".join(f"{key}={_rule_text(value)}" for key, value in lost.items())
            if not args.force:
                raise UsageError(
                    f"{args.board}: a LeetCode matrix cannot hold the rules ({options}); "
                    "use --to toml or txt, or --force to drop them"
                )
            print(f"snl convert: warning: rules dropped ({options})", file=err)
    out.write(dump_board(board, args.to))
    return EXIT_OK


def _rule_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    board = _board(args)
    from .core import report  # numpy loads only when needed
    from .core.analysis import analyze

    analysis = analyze(board, players=args.players)
    if args.json:
        data = report.analysis_json(analysis, visits=args.visits)
        print(json.dumps(data), file=out)
        return EXIT_OK
    print(report.format_report(analysis, board, visits=args.visits), file=out)
    return EXIT_OK


# -- parser -------------------------------------------------------------------------------------


def _square(text: str) -> int:
    value = parse_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"not a square number: {quote(text)}")
    return value


_player_count = whole_number(1, MAX_PLAYERS)


def _add_no_save(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="play without reading or writing saved games",
    )


def build_parser(command: str | None = None) -> _Parser:
    """The ``snl`` parser. With ``command`` (one of ``COMMANDS``) only that subcommand's
    arguments are built: ``main`` parses ``snl play ...`` without building the other
    twelve (a few milliseconds before the first frame). Help and errors read the same:
    ``snl --help`` and an unknown command build them all."""
    parser = _Parser(
        prog="snl",
        description="Snakes & Ladders for the terminal: play, solve and analyze boards.",
        epilog="Without a command, snl plays the classic board. BOARD is the name of a "
        "built-in board (see 'snl boards') or a .toml, .json or .txt file.",
    )
    parser.add_argument("--version", action="version", version=f"snl {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for names, add in _SUBCOMMANDS:  # in the order ``snl --help`` lists them
        if command is None or command in names:
            add(commands)
    parser.subcommands = dict(commands.choices)
    return parser


Subcommands: TypeAlias = "argparse._SubParsersAction[Any]"  # what add_subparsers returns


def _add_play(commands: Subcommands) -> None:
    play = commands.add_parser("play", help="play a board in the terminal (the default)")
    play.add_argument("board", nargs="?", metavar="BOARD", help=BOARD_HELP + " (default: classic)")
    play.add_argument(
        "--players",
        metavar="LIST",
        help="1-4 comma-separated names; 'cpu' or 'cpu:Name' is a computer "
        "(default: the last game's players, at first You,cpu)",
    )
    play.add_argument("--seed", type=whole_number(0), help="seed the dice (same seed, same game)")
    play.add_argument(
        "--mode",
        choices=("classic", "puzzle"),
        help="classic (the default): random dice; puzzle: you choose each die value",
    )
    play.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    _add_no_save(play)
    play.add_argument(
        "--no-resume-offer",
        action="store_true",
        help="start a new game without offering the last unfinished one (snl serve's tabs)",
    )
    add_rule_options(play)


def _add_resume(commands: Subcommands) -> None:
    resume = commands.add_parser("resume", help="continue a saved game (default: the last)")
    resume.add_argument(
        "game", nargs="?", metavar="ID", help="the game's id in 'snl games' (default: the last)"
    )
    resume.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    _add_no_save(resume)


def _add_replay(commands: Subcommands) -> None:
    replay = commands.add_parser("replay", help="show a saved game again, move by move")
    replay.add_argument("game", metavar="ID", help="the game's id in 'snl games'")
    replay.add_argument("--no-animation", action="store_true", help="move tokens instantly")


def _add_solve(commands: Subcommands) -> None:
    solve_cmd = commands.add_parser("solve", help="least rolls and one optimal route")
    solve_cmd.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    solve_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    solve_cmd.add_argument(
        "--from",
        dest="start_square",
        type=_square,
        metavar="SQUARE",
        help="start from this square (0 = off the board) instead of the rules' start",
    )
    add_rule_options(solve_cmd)


def _add_analyze(commands: Subcommands) -> None:
    analyze = commands.add_parser("analyze", help="exact odds of the real game")
    analyze.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    analyze.add_argument("--json", action="store_true", help="print one JSON object")
    analyze.add_argument(
        "--players",
        type=_player_count,
        default=1,
        metavar="N",
        help=f"win chances for N players in turn order (1-{MAX_PLAYERS}, default 1)",
    )
    analyze.add_argument(
        "--visits",
        action="store_true",
        help="also the expected turns begun on each square in a one-player game",
    )
    add_rule_options(analyze)


def _add_check(commands: Subcommands) -> None:
    check = commands.add_parser(
        "check", help="validate a board and print warnings (exit 0 ok, 1 warnings, 2 errors)"
    )
    check.add_argument("board", metavar="BOARD", help=BOARD_HELP)


def _add_boards(commands: Subcommands) -> None:
    boards = commands.add_parser("boards", help="list the built-in boards")
    boards.add_argument("--json", action="store_true", help="print a JSON list")


def _add_convert(commands: Subcommands) -> None:
    convert = commands.add_parser("convert", help="print a board in another format")
    convert.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    convert.add_argument("--to", required=True, choices=FORMATS, help="the output format")
    convert.add_argument(
        "--force",
        action="store_true",
        help="with --to matrix: drop rules the matrix cannot hold instead of refusing",
    )


def _add_generate(commands: Subcommands) -> None:
    from .generate_cli import add_generate_parser

    add_generate_parser(commands, add_rule_options)


def _add_edit(commands: Subcommands) -> None:
    from .edit_cli import add_edit_parser

    add_edit_parser(commands)


def _add_serve(commands: Subcommands) -> None:
    from .serve import add_serve_parser

    add_serve_parser(commands, add_rule_options)


_SUBCOMMANDS: tuple[tuple[tuple[str, ...], Callable[[Subcommands], None]], ...] = (
    (("play",), _add_play),
    (("resume",), _add_resume),
    (("replay",), _add_replay),
    (("solve",), _add_solve),
    (("analyze",), _add_analyze),
    (("check",), _add_check),
    (("boards",), _add_boards),
    (("convert",), _add_convert),
    (("generate",), _add_generate),
    (("edit",), _add_edit),
    (store_cli.COMMANDS, store_cli.register),  # games, stats
    (("serve",), _add_serve),
)
"""Each subcommand's name(s) and what adds it to the parser."""


def unknown_command(word: str) -> str:
    """One line for ``snl WORD`` when WORD is no command: a board gets 'snl play WORD',
    a near miss of a command or a board 'did you mean', anything else the commands."""
    import difflib
    from pathlib import Path

    from .core.formats import builtin_names

    shown = quote(word)
    boards = builtin_names()
    if word in boards or (Path(word).suffix in (".toml", ".json", ".txt") and Path(word).exists()):
        return f"snl: {shown} is a board, not a command: did you mean 'snl play {word}'?"
    commands = [c for c in COMMANDS if c != "play"] + ["play"]
    near_command = difflib.get_close_matches(word, commands, n=1, cutoff=0.6)
    near_board = difflib.get_close_matches(word, boards, n=1, cutoff=0.6)
    if near_command:
        return f"snl: unknown command {shown}: did you mean 'snl {near_command[0]}'?"
    if near_board:
        return f"snl: unknown command {shown}: did you mean 'snl play {near_board[0]}'?"
    return f"snl: unknown command {shown} (commands: {', '.join(COMMANDS)}; see snl --help)"


def _unrecognized(parser: _Parser, args: argparse.Namespace, extra: list[str]) -> NoReturn:
    """argparse's "unrecognized arguments", said by the subcommand's own parser (so it
    names ``snl solve``, not ``snl``) with the option it most likely meant."""
    import difflib
    import re

    target = parser.subcommands.get(getattr(args, "command", None) or "", parser)
    known = re.findall(r"--?[A-Za-z][\w-]*", target.format_usage())
    message = f"unrecognized arguments: {' '.join(extra)}"
    near = difflib.get_close_matches(extra[0], known, n=1, cutoff=0.6)
    if extra[0].startswith("-") and near:
        message += f": did you mean {near[0]}?"
    target.error(message)


def _with_default_command(argv: list[str]) -> list[str]:
    # `snl` and `snl --seed 3` mean `snl play ...`; help and version stay top-level.
    if not argv:
        return ["play"]
    first = argv[0]
    if first.startswith("-") and first not in ("-h", "--help", "--version"):
        return ["play", *argv]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args_list = _with_default_command(list(sys.argv[1:] if argv is None else argv))
    first = args_list[0]
    if first == "--version" and len(args_list) > 1:
        _report(sys.stderr, f"snl: --version takes nothing after it, not {quote(args_list[1])}")
        return EXIT_USAGE
    if not first.startswith("-") and first not in COMMANDS:
        _report(sys.stderr, unknown_command(first))
        return EXIT_USAGE
    parser = build_parser(first if first in COMMANDS else None)
    try:
        args, extra = parser.parse_known_args(args_list)
        if extra:
            _unrecognized(parser, args, extra)
    except SystemExit as stop:  # --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    out, err = sys.stdout, sys.stderr
    handlers: dict[str, Callable[[], int]] = {
        "play": lambda: cmd_play(args),
        "resume": lambda: cmd_resume(args),
        "replay": lambda: cmd_replay(args),
        "solve": lambda: cmd_solve(args, out),
        "analyze": lambda: cmd_analyze(args, out),
        "check": lambda: cmd_check(args, out, err),
        "boards": lambda: cmd_boards(args, out),
        "convert": lambda: cmd_convert(args, out, err),
        "generate": lambda: _generate(args, out, err),
        "edit": lambda: _edit(args),
        "serve": lambda: _serve(args, err),
        **{name: lambda: store_cli.run(args, out, err) for name in store_cli.COMMANDS},
    }
    try:
        status = handlers[args.command]()
        out.flush()  # a full disk shows here, while it can still be reported
        return status
    except SnlError as error:
        _report(err, f"snl {args.command}: {error}")
        return EXIT_USAGE
    except BrokenPipeError:
        # `snl convert ... | head`: the reader left. The Python docs' recipe: point
        # stdout at devnull so the interpreter's last flush does not fail again.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:  # `> /dev/full`: no space left, an I/O error
        _drop_stdout()
        _report(err, f"snl {args.command}: cannot write the output: {error.strerror or error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


EXIT_BROKEN_PIPE = 1
"""What Python itself exits with on EPIPE (the docs' recipe)."""


def _report(err: TextIO, text: str) -> None:
    """One safe line on stderr; if even stderr is gone there is no one left to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(safe_line(text), file=err, flush=True)


def _drop_stdout() -> None:
    """Send what is still buffered for stdout to devnull (it cannot be written)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a real file (a test's capture): nothing to flush later


def _generate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .generate_cli import cmd_generate  # numpy loads only when needed

    return cmd_generate(args, rule_overrides(args), out, err)


def _edit(args: argparse.Namespace) -> int:
    from .edit_cli import cmd_edit  # Textual loads only when needed

    return cmd_edit(args)


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    from .serve import cmd_serve

    _board(args)  # a bad board or rule is one line now, not in every browser tab
    parse_players(args.players)
    return cmd_serve(args, rule_overrides(args), err)
