"""``snl export BOARD -o FILE``: print a board: an SVG, PDF or PNG page to play on paper.

Registered by ``cli/main.py``. BOARD is a built-in board's name
(from any folder) or a board file; FILE's extension picks the format. Every mistake (a
bad board, an unknown extension, a missing or unwritable folder) is one line and exit 2,
with no file left behind (``export.export_board`` writes atomically). An existing FILE is
replaced only with ``--force``, as ``snl generate -o`` does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from ..core.files.formats import load_board
from ..core.text import escape_controls
from ..export import PAPERS, THEMES, PageOptions, export_board
from .common import Subcommands, UsageError


def add_export_parser(commands: Subcommands) -> None:
    """Register ``snl export`` on the CLI's subparsers."""
    export = commands.add_parser(
        "export", help="write a printable page of a board (.svg, .pdf or .png)"
    )
    export.add_argument("board", metavar="BOARD")
    export.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the page to write: .svg, .pdf or .png (by its extension)",
    )
    export.add_argument("--paper", choices=tuple(PAPERS), default="a4", help="default: a4")
    export.add_argument(
        "--theme",
        choices=THEMES,
        default="print",
        help="print: black on white (default); colour: in colour",
    )
    export.add_argument("--title", metavar="TEXT", help="the title (default: the board's name)")
    export.add_argument(
        "--no-rules", action="store_true", help="leave out the rules line under the board"
    )
    export.add_argument(
        "--force", action="store_true", help="replace FILE when it exists (default: refuse)"
    )


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """Write the page; says where."""
    path = Path(args.output)
    if path.exists() and not path.is_dir() and not args.force:
        raise UsageError(f"-o {escape_controls(args.output)}: the file exists; --force replaces it")
    board = load_board(args.board)
    options = PageOptions(
        paper=args.paper, theme=args.theme, title=args.title, rules=not args.no_rules
    )
    fmt = export_board(board, path, options)
    print(f"Wrote {path} ({fmt.upper()}, {args.paper}, {args.theme}).", file=out)
    return 0
