"""``snl generate`` (SPEC 7): the command-line front of the board generator.

Kept beside ``cli.py`` rather than in it: ``cli.py`` only registers the parser and
dispatches here. Exit 0 with a board (TOML on stdout, or written atomically to ``-o``),
1 when no board meets the targets in time (one line with the closest figures; nothing
written), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..core.board import Board
from ..core.cells import cut_cells
from ..core.errors import SnlError
from ..core.rules import Rules
from ..core.text import escape_controls
from .common import whole_number

EXIT_NO_BOARD = 1
FORMAT_BY_SUFFIX = {".toml": "toml", ".json": "json", ".txt": "txt"}


class GenerateUsageError(SnlError):
    """A bad combination of ``snl generate`` options."""


COUNT = whole_number(0)
"""Sizes and counts the generator takes (0 is checked where it makes no sense)."""


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    return value


def add_generate_parser(
    commands: argparse._SubParsersAction[Any],
    add_rule_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``snl generate`` with its options on the CLI's subparsers."""
    gen = commands.add_parser("generate", help="generate a board that meets targets")
    size = gen.add_argument_group("size (default 10x10)")
    size.add_argument("--size", type=COUNT, metavar="N", help="an N x N board")
    size.add_argument("--rows", type=COUNT, metavar="R")
    size.add_argument("--cols", type=COUNT, metavar="C")
    gen.add_argument("--ladders", type=COUNT, metavar="N", help="exactly N ladders")
    gen.add_argument("--snakes", type=COUNT, metavar="N", help="exactly N snakes")
    gen.add_argument(
        "--expected-turns", type=_number, metavar="T", help="expected game length in turns"
    )
    gen.add_argument(
        "--tolerance", type=_number, default=0.5, metavar="D", help="allowed miss (default 0.5)"
    )
    gen.add_argument("--least-rolls", type=COUNT, metavar="K", help="least rolls")
    gen.add_argument("--players", type=COUNT, default=2, metavar="P", help="seats (default 2)")
    gen.add_argument(
        "--max-first-seat-edge",
        type=_number,
        metavar="E",
        help="the first seat's win chance within E of 1/P",
    )
    gen.add_argument(
        "--within",
        type=COUNT,
        metavar="K",
        help="a tail target, with --share: the longest games parents care about",
    )
    gen.add_argument(
        "--share",
        type=_number,
        metavar="S",
        help="with --within: at least this share of one-player games end within K turns "
        "(--within 25 --share 0.9: 90%% of games within 25 turns)",
    )
    gen.add_argument("--jumps", type=COUNT, metavar="N", help="N jumps in all (ladders and snakes)")
    gen.add_argument(
        "--longest-jump",
        type=COUNT,
        metavar="L",
        help="no jump spans more than L squares",
    )
    gen.add_argument(
        "--safe-start",
        type=COUNT,
        default=0,
        metavar="N",
        help="no snake head on the first N squares",
    )
    gen.add_argument(
        "--no-snakes-in-last-row",
        action="store_true",
        help="no snake head in the last row (the goal's)",
    )
    gen.add_argument(
        "--unique-route",
        action="store_true",
        help="exactly one optimal route (a puzzle with one answer)",
    )
    gen.add_argument(
        "--keep",
        metavar="BOARD",
        help="keep this board's jumps (and its size and rules, unless given) and fill in the rest",
    )
    gen.add_argument("--seed", type=int, help="same seed and options, same board")
    gen.add_argument(
        "--time-limit",
        type=_number,
        default=10.0,
        metavar="SECONDS",
        help="give up after this long (default 10)",
    )
    gen.add_argument("--name", help="the board's name")
    gen.add_argument(
        "-o", "--output", metavar="FILE", help="write here (.toml, .json or .txt); default stdout"
    )
    gen.add_argument(
        "--force", action="store_true", help="replace FILE when it exists (default: refuse)"
    )
    gen.add_argument(
        "--closest",
        metavar="FILE",
        help="when no board meets the targets, write the closest one here (to edit or retry)",
    )
    add_rule_options(gen)


def cmd_generate(
    args: argparse.Namespace, rules_given: dict[str, object], out: TextIO, err: TextIO
) -> int:
    """Run the generator for parsed ``args``; ``rules_given`` are the rule options given."""
    from ..core.files.formats import dump_board
    from ..core.studio.generate import Targets, describe_shape, generate

    kept = _kept(args.keep)
    rows, cols = _size(args, kept)
    rules = Rules.from_mapping(rules_given)
    if kept is not None:
        rules = Rules.from_mapping(rules_given, base=kept.rules)
    fmt, target = _output(args.output, args.force)
    closest_fmt, closest_target = _output(args.closest, args.force, "--closest")
    if args.time_limit <= 0:
        raise GenerateUsageError(f"--time-limit must be above 0, not {args.time_limit:g}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    targets = Targets(
        rows=rows,
        cols=cols,
        ladders=args.ladders,
        snakes=args.snakes,
        expected_turns=args.expected_turns,
        tolerance=args.tolerance,
        least_rolls=args.least_rolls,
        players=args.players,
        max_first_seat_edge=args.max_first_seat_edge,
        within=args.within,
        share=args.share,
        rules=rules,
        name=_name(args.name, kept, seed),
        keep=tuple(kept.jumps.items()) if kept is not None else (),
        jumps=args.jumps,
        longest_jump=args.longest_jump,
        safe_start=args.safe_start,
        no_snakes_in_last_row=args.no_snakes_in_last_row,
        unique_route=args.unique_route,
    )
    progress = _progress_line(err, targets, args.time_limit) if err.isatty() else None
    result = generate(targets, seed=seed, time_limit=args.time_limit, progress=progress)
    if progress is not None:
        print("\r\033[K", end="", file=err, flush=True)
    if result.board is None:
        line = result.describe()
        if closest_target is not None and result.closest is not None:
            _write_atomically(closest_target, dump_board(result.closest, closest_fmt))
            line += f"; the closest board -> {closest_target}"
        print(f"snl generate: {line}", file=err)
        return EXIT_NO_BOARD
    text = dump_board(result.board, fmt)
    if target is None:
        out.write(text)
    else:
        _write_atomically(target, text)
    where = f" -> {target}" if target is not None else ""
    shape = describe_shape(targets, result.board)
    if shape is not None:
        print(f"snl generate: chose {shape}", file=err)
    print(
        f"snl generate: {result.describe()} (seed {seed}, {result.steps} steps, "
        f"{result.seconds:.2f} s){where}",
        file=err,
    )
    return 0


def _progress_line(err: TextIO, targets: Any, limit: float) -> Callable[[float, Any], None]:
    """A ``progress(seconds, best figures)`` redrawing one line on a terminal."""

    def progress(seconds: float, best: Any) -> None:
        left = max(0.0, limit - seconds)
        # The time left first: on a narrow terminal the end of the line is cut.
        text = f"searching, {left:.0f} s left: best so far {best.describe(targets)}"
        # One column short of the terminal's width, or the line wraps and each redraw
        # leaves a line behind.
        width = _columns(err) - 1
        print(f"\r\033[K{cut_cells(text, width)}", end="", file=err, flush=True)

    return progress


def _columns(err: TextIO) -> int:
    """The width of the terminal ``err`` is drawn on: stdout is often a file here
    (``snl generate > board.toml``), so not ``shutil.get_terminal_size``'s stdout."""
    try:
        return os.get_terminal_size(err.fileno()).columns
    except (AttributeError, ValueError, OSError):  # no file descriptor, or not a terminal
        return shutil.get_terminal_size((100, 24)).columns


def _kept(path: str | None) -> Board | None:
    """The board whose jumps ``--keep`` keeps (a name, a file or a share code)."""
    if path is None:
        return None
    from ..core.files.formats import load_board

    return load_board(path)


def _name(given: str | None, kept: Board | None, seed: int) -> str:
    if given is not None:
        return given
    if kept is not None and kept.name:
        return kept.name
    return f"Generated board (seed {seed})"


def _size(args: argparse.Namespace, kept: Board | None = None) -> tuple[int, int]:
    given = args.size is not None or args.rows is not None or args.cols is not None
    if kept is not None and not given:
        return kept.rows, kept.cols
    if args.size is not None:
        if args.rows is not None or args.cols is not None:
            raise GenerateUsageError("give --size or --rows and --cols, not both")
        return args.size, args.size
    if (args.rows is None) != (args.cols is None):
        raise GenerateUsageError("--rows and --cols go together (or use --size)")
    if args.rows is None:
        return 10, 10
    return args.rows, args.cols


def _output(path: str | None, force: bool = False, option: str = "-o") -> tuple[str, Path | None]:
    """The format and file for ``-o`` or ``--closest`` (checked before the search, not
    after it): an existing file is a board someone made, replaced only with ``--force``."""
    if path is None:
        return "toml", None
    target = Path(path)
    fmt = FORMAT_BY_SUFFIX.get(target.suffix.lower())
    label = escape_controls(path)
    if fmt is None:
        raise GenerateUsageError(
            f"{option} {label}: the extension picks the format: .toml, .json or .txt"
        )
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise GenerateUsageError(f"{option} {label}: no folder {escape_controls(str(folder))!r}")
    if target.is_dir():
        raise GenerateUsageError(f"{option} {label}: is a folder")
    if target.exists() and not force:
        raise GenerateUsageError(f"{option} {label}: the file exists; --force replaces it")
    return fmt, target


def _write_atomically(target: Path, text: str) -> None:
    """``disk.write_atomically`` (a temporary file, then a rename: never a half-written
    board), with a folder that cannot be written to as one line."""
    from ..core.files.disk import write_atomically

    try:
        write_atomically(target, text)
    except OSError as error:  # a read-only or full folder: nothing was written
        raise GenerateUsageError(f"cannot write {target}: {error.strerror or error}") from None
