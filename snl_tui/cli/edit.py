"""``snl edit [BOARD] [--size N | --rows R --cols C | --template NAME]``: the board editor.

Kept apart from ``cli.py`` (which only registers it): the size options, opening the
board (``board_files.open_for_editing``) and starting the app on the editor screen.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.errors import SnlError
from ..core.limits import check_playable
from ..core.studio.templates import TEMPLATES
from .common import add_screen_reader, screen_reader_wanted, whole_number


class EditUsageError(SnlError):
    """A bad combination of ``snl edit`` options."""


def add_edit_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register ``snl edit`` on the CLI's subparsers."""
    edit = commands.add_parser(
        "edit",
        help="design a board with the numbers in view (a new one if BOARD does not exist)",
    )
    edit.add_argument(
        "board",
        nargs="?",
        metavar="BOARD",
        help="a board file, a built-in board (read-only), or a new .toml/.json/.txt path",
    )
    edit.add_argument(
        "--template",
        choices=sorted(TEMPLATES),
        help="start a new board from a starter: "
        + "; ".join(f"{t.name}: {t.summary}" for t in TEMPLATES.values()),
    )
    size = edit.add_argument_group("size of a new board (default 10x10)")
    size.add_argument("--size", type=whole_number(1), metavar="N", help="an N x N board")
    size.add_argument("--rows", type=whole_number(1), metavar="R")
    size.add_argument("--cols", type=whole_number(1), metavar="C")
    add_screen_reader(edit, "a line editor in plain lines for a screen reader")


def edit_size(args: argparse.Namespace) -> tuple[int | None, int | None]:
    """(rows, cols) asked for on the command line; (None, None) when not given."""
    if args.size is not None:
        if args.rows is not None or args.cols is not None:
            raise EditUsageError("give --size or --rows and --cols, not both")
        return args.size, args.size
    if (args.rows is None) != (args.cols is None):
        raise EditUsageError("--rows and --cols go together (or use --size)")
    return args.rows, args.cols


def cmd_edit(args: argparse.Namespace) -> int:
    """Open the board (errors are one line, exit 2, before any screen) and edit it."""
    from ..core.studio.board_file import open_for_editing

    rows, cols = edit_size(args)
    board, source, note = open_for_editing(args.board, rows, cols)
    check_playable(board, "to edit")  # the editor draws and analyses it as the game does
    if args.template is not None:
        if rows is not None:
            raise EditUsageError("a template has its own size: give --template or --size")
        if source.stamp is not None or source.builtin is not None:
            raise EditUsageError(
                f"--template starts a new board, and {args.board} is an existing one"
            )
        board = TEMPLATES[args.template].board(name=board.name or None)
    if screen_reader_wanted(args):
        from ..plain.console import Console
        from ..plain.edit import PlainEditor

        return PlainEditor(board, source, Console.standard(), note).run()
    from ..app import SnlApp, run_app
    from ..screens.editor import EditorScreen

    editor = EditorScreen(board, source, exit_on_leave=True, note=note)
    return run_app(SnlApp.editing(editor, board))
