"""``snl solve``, ``analyze``, ``check``, ``boards`` and ``convert``: boards on the command
line, without Textual (numpy loads only for the commands that need it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from ..core.cells import cell_width, cut_cells, pad_cells
from ..core.engine import MAX_PLAYERS, move
from ..core.files.formats import FORMATS, builtin_boards, dump_board, load_board
from ..core.files.json_board import lost_in_matrix
from ..core.solver import count_optimal_routes, solve
from ..core.text import escape_controls, parse_whole, place, plural, quote
from .common import (
    BOARD_HELP,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WARNINGS,
    SPOKEN_REPORT_HELP,
    Subcommands,
    UsageError,
    add_rule_options,
    add_screen_reader,
    board_from_args,
    screen_reader_wanted,
    spoken_out,
    whole_number,
)


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    board = board_from_args(args)
    if args.start_square == 0 and board.rules.start == 1:
        # Position 0 exists only when tokens start off the board (SPEC 1).
        raise UsageError(
            "--from 0: this board starts on square 1 (start = 1), there is no "
            "off-the-board position; use --start 0 or a square from 1"
        )
    solution = solve(board, args.start_square)
    routes = count_optimal_routes(board, args.start_square) if args.count else None
    if args.json:
        import json  # only for --json: not at start-up

        data = solution.to_dict()
        data["board"] = board.name
        data["goal"] = board.goal
        if routes is not None:
            data["routes"] = routes
        print(json.dumps(data), file=out)
        return EXIT_OK
    origin = place(solution.start)
    label = board.name or args.board
    if screen_reader_wanted(args):
        from ..plain.words import solve_lines

        for line in solve_lines(board, label, solution, routes):
            print(line, file=out)
        return EXIT_OK
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
    if routes is not None:
        unique = " (this one is the only one)" if routes == 1 else ""
        print(f"optimal routes: {routes} distinct sequences of die values{unique}", file=out)
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
    from ..core.errors import BoardError
    from ..core.studio.file_errors import every_error

    try:
        board = load_board(args.board)
    except BoardError:
        # Every error, not only the first: each on stdout, the count on stderr (one line).
        errors = every_error(args.board)
        if len(errors) <= 1:
            raise
        shown = spoken_out(args, out)
        for error in errors:
            print(f"error: {error}", file=shown)
        shown.flush()
        print(f"snl check: {escape_controls(args.board)}: {len(errors)} errors", file=err)
        return EXIT_USAGE

    # Everything within core.limits' bounds (checks.check_board says what it left out);
    # progress goes to a terminal only, never into a pipe.
    from ..core.studio.checks import check_board  # numpy loads only when needed

    shown = spoken_out(args, out)
    # A line redrawn in place is noise to a screen reader: no progress in plain mode.
    drawn = err.isatty() and shown is out
    progress = _progress_printer(err, "snl check: jump impacts") if drawn else None
    out = shown
    report = check_board(board, progress, drawing=True)
    warnings, notes = report.warnings, report.notes
    for warning in warnings:
        print(f"warning: {warning.message}", file=out)
    for look in report.looks:
        print(f"look: {look.message}", file=out)
    for note in notes:
        print(note, file=out)
    summary = (
        f"{args.board}: {board.rows}x{board.cols}, {plural(len(board.ladders), 'ladder')}, "
        f"{plural(len(board.snakes), 'snake')}"
    )
    if warnings:
        count = len(warnings)
        print(f"{summary}: valid, {count} warning{'s' if count > 1 else ''}", file=out)
        return EXIT_WARNINGS
    looks = f" ({plural(len(report.looks), 'note')} on its looks)" if report.looks else ""
    print(f"{summary}: ok{looks}", file=out)
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
    import json

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
    if screen_reader_wanted(args):  # one line a board, in words
        from ..plain.speech import spoken

        for name, size, least, description in rows:
            text = f"{name}: {size.replace('x', ' by ')}, least rolls {least}. {description}"
            print(spoken(" ".join(text.split())), file=out)
        return EXIT_OK
    header = ("name", "size", "least rolls", "description")
    widths = [max(cell_width(row[i]) for row in [header, *rows]) for i in range(3)]
    import shutil  # only for the table of boards

    room = max(20, shutil.get_terminal_size((100, 24)).columns - sum(widths) - 7)
    for row in [header, *rows]:
        text = " ".join(row[3].split())
        if cell_width(text) > room:
            text = cut_cells(text, room - 3).rstrip() + "..."
        name, size, least = (pad_cells(row[i], widths[i], right=i == 2) for i in range(3))
        print(f"{name}  {size}  {least}  {text}", file=out)
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
    import json

    board = board_from_args(args)
    from ..core.odds import report  # numpy loads only when needed
    from ..core.odds.analysis import AnalysisError, analyze
    from ..core.odds.summary import summarize

    out = spoken_out(args, out)
    if args.exact:
        try:
            lines, data = report.exact_report(board, args.players, args.digits)
        except AnalysisError as error:
            raise UsageError(str(error)) from None
        if args.json:
            print(json.dumps(data), file=out)
        else:
            print("\n".join(lines), file=out)
        out.flush()
        return EXIT_OK
    analysis = analyze(board, players=args.players, progress=_progress)
    figures = summarize(analysis, visits=args.visits, bars=not args.json)
    if args.json:
        data = report.analysis_json(figures, visits=args.visits)
        print(json.dumps(data), file=out)
        return EXIT_OK
    print(report.format_report(figures, board, visits=args.visits), file=out)
    out.flush()
    return EXIT_OK


def _progress(text: str) -> None:
    """A long analysis's progress, on stderr (the report itself goes to stdout)."""
    print(f"snl analyze: {text}", file=sys.stderr, flush=True)


def square_number(text: str) -> int:
    value = parse_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"not a square number: {quote(text)}")
    return value


player_count = whole_number(1, MAX_PLAYERS)


def add_solve_parser(commands: Subcommands) -> None:
    solve_cmd = commands.add_parser("solve", help="least rolls and one optimal route")
    solve_cmd.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    solve_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    solve_cmd.add_argument(
        "--from",
        dest="start_square",
        type=square_number,
        metavar="SQUARE",
        help="start from this square (0 = off the board) instead of the rules' start",
    )
    solve_cmd.add_argument(
        "--count",
        action="store_true",
        help="also count the optimal routes (distinct die-value sequences): is it unique?",
    )
    add_screen_reader(solve_cmd, SPOKEN_REPORT_HELP)
    add_rule_options(solve_cmd)


def add_analyze_parser(commands: Subcommands) -> None:
    analyze = commands.add_parser("analyze", help="exact odds of the real game")
    analyze.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    analyze.add_argument("--json", action="store_true", help="print one JSON object")
    analyze.add_argument(
        "--players",
        type=player_count,
        default=1,
        metavar="N",
        help=f"win chances for N players in turn order (1-{MAX_PLAYERS}, default 1)",
    )
    analyze.add_argument(
        "--visits",
        action="store_true",
        help="also the expected turns begun on each square in a one-player game",
    )
    analyze.add_argument(
        "--exact",
        action="store_true",
        help="expected turns and win chances as exact fractions (boards up to 12x12; "
        "three players' win chances up to 7x7, four players' up to 5x5, one size less "
        "with six-again or more than 6 faces)",
    )
    analyze.add_argument(
        "--digits",
        type=exact_digits,
        default=20,
        metavar="N|all",
        help="with --exact: decimals shown of each fraction (default 20); 'all' prints "
        "every digit of every fraction (--json always has them all)",
    )
    add_screen_reader(analyze, SPOKEN_REPORT_HELP)
    add_rule_options(analyze)


def exact_digits(text: str) -> int | None:
    """``--digits``: a number of decimals (0 to 1000), or ``all`` (None)."""
    if text.strip().lower() == "all":
        return None
    value = parse_whole(text)
    if value is None or not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(
            f"--digits takes a number of decimals from 0 to 1000, or all; not {quote(text)}"
        )
    return value


def add_check_parser(commands: Subcommands) -> None:
    check = commands.add_parser(
        "check", help="validate a board and print warnings (exit 0 ok, 1 warnings, 2 errors)"
    )
    check.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    add_screen_reader(check, SPOKEN_REPORT_HELP)


def add_boards_parser(commands: Subcommands) -> None:
    boards = commands.add_parser("boards", help="list the built-in boards")
    boards.add_argument("--json", action="store_true", help="print a JSON list")
    add_screen_reader(boards, SPOKEN_REPORT_HELP)


def cmd_share(args: argparse.Namespace, out: TextIO) -> int:
    """``snl share BOARD``: the board's share code, one line (``snl play CODE`` opens it):
    its size, rules, jumps and name (``--no-name`` leaves the name out), and with
    ``--with-text`` its description too."""
    from ..core.files.share import board_code

    board = board_from_args(args)
    print(board_code(board, with_text=args.with_text, with_name=args.with_name), file=out)
    return EXIT_OK


def add_share_parser(commands: Subcommands) -> None:
    share = commands.add_parser(
        "share", help="print a one-line code of a board: snl play CODE (or edit, ...) opens it"
    )
    share.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    name = share.add_mutually_exclusive_group()
    name.add_argument(
        "--with-name",
        dest="with_name",
        action="store_true",
        default=True,
        help="carry the board's name, so the code opens under it (the default)",
    )
    name.add_argument(
        "--no-name",
        dest="with_name",
        action="store_false",
        help="leave the name out (the code opens as 'board RxC')",
    )
    share.add_argument(
        "--with-text",
        action="store_true",
        help="also carry the board's description (a longer code)",
    )


def add_convert_parser(commands: Subcommands) -> None:
    convert = commands.add_parser("convert", help="print a board in another format")
    convert.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    convert.add_argument("--to", required=True, choices=FORMATS, help="the output format")
    convert.add_argument(
        "--force",
        action="store_true",
        help="with --to matrix: drop rules the matrix cannot hold instead of refusing",
    )
