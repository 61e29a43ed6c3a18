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
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from .. import __version__
from ..core.board import Board
from ..core.errors import SnlError
from ..core.limits import check_playable
from ..core.odds.blas import started_on_one_thread
from ..core.text import quote
from . import history
from .boards import (
    add_analyze_parser,
    add_boards_parser,
    add_check_parser,
    add_convert_parser,
    add_share_parser,
    add_solve_parser,
    cmd_analyze,
    cmd_boards,
    cmd_check,
    cmd_convert,
    cmd_share,
    cmd_solve,
)
from .common import (
    EXIT_BROKEN_PIPE,
    EXIT_USAGE,
    IN_WORDS_HELP,
    Parser,
    Subcommands,
    add_rule_options,
    add_screen_reader,
    board_from_args,
    drop_stdout,
    parse_players,
    report_error,
    rule_overrides,
    screen_reader_default,
    screen_reader_typed,
    spoken_out,
)
from .play import (
    add_play_parser,
    add_replay_parser,
    add_resume_parser,
    cmd_play,
    cmd_replay,
    cmd_resume,
)

COMMANDS = (
    "play",
    "resume",
    "replay",
    "solve",
    "analyze",
    "check",
    "boards",
    "convert",
    "share",
    "generate",
    "edit",
    "export",
    "serve",
    "host",
    "join",
    "judge",
    "learn",
    *history.COMMANDS,
)


def build_parser(command: str | None = None, in_words: Callable[[], bool] | None = None) -> Parser:
    """The ``snl`` parser. With ``command`` (one of ``COMMANDS``) only that subcommand's
    arguments are built: ``main`` parses ``snl play ...`` without building the other
    twelve (a few milliseconds before the first frame). Help and errors read the same:
    ``snl --help`` and an unknown command build them all.

    Every subcommand takes ``--screen-reader`` (SPEC 17): one that says nothing of its
    own about it gets the generic option here, and its lines are said in words
    (``main``). ``in_words``: the help and the errors are said in words when it is true."""
    parser = Parser(
        prog="snl",
        description="Snakes & Ladders for the terminal: play, solve and analyze boards.",
        epilog="Without a command, snl plays the classic board. BOARD is the name of a "
        "built-in board (see 'snl boards') or a .toml, .json or .txt file.",
    )
    parser.add_argument("--version", action="version", version=f"snl {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for names, add in _SUBCOMMANDS:  # in the order ``snl --help`` lists them
        if command is None or command in names:
            add(commands)
    parser.subcommands = dict(commands.choices)
    for subcommand in (parser, *parser.subcommands.values()):
        if subcommand is not parser:
            with contextlib.suppress(argparse.ArgumentError):  # it has its own already
                add_screen_reader(subcommand, IN_WORDS_HELP)
        if isinstance(subcommand, Parser):
            subcommand.in_words = in_words
    return parser


def _add_generate(commands: Subcommands) -> None:
    from .generate import add_generate_parser

    add_generate_parser(commands, add_rule_options)


def _add_edit(commands: Subcommands) -> None:
    from .edit import add_edit_parser

    add_edit_parser(commands)


def _add_export(commands: Subcommands) -> None:
    from .export import add_export_parser

    add_export_parser(commands)


def _add_serve(commands: Subcommands) -> None:
    from .serve import add_serve_parser

    add_serve_parser(commands, add_rule_options)


def _add_host(commands: Subcommands) -> None:
    from .host import add_host_parser

    add_host_parser(commands, add_rule_options)


def _add_join(commands: Subcommands) -> None:
    from .join import add_join_parser

    add_join_parser(commands)


def _add_judge(commands: Subcommands) -> None:
    from .lab import add_judge_parser

    add_judge_parser(commands)


def _add_learn(commands: Subcommands) -> None:
    from .lab import add_learn_parser

    add_learn_parser(commands)


_SUBCOMMANDS: tuple[tuple[tuple[str, ...], Callable[[Subcommands], None]], ...] = (
    (("play",), add_play_parser),
    (("resume",), add_resume_parser),
    (("replay",), add_replay_parser),
    (("solve",), add_solve_parser),
    (("analyze",), add_analyze_parser),
    (("check",), add_check_parser),
    (("boards",), add_boards_parser),
    (("convert",), add_convert_parser),
    (("share",), add_share_parser),
    (("generate",), _add_generate),
    (("edit",), _add_edit),
    (("export",), _add_export),
    (history.COMMANDS, history.register),  # games, stats
    (("serve",), _add_serve),
    (("host",), _add_host),
    (("join",), _add_join),
    (("judge",), _add_judge),
    (("learn",), _add_learn),
)
"""Each subcommand's name(s) and what adds it to the parser."""


def unknown_command(word: str) -> str:
    """One line for ``snl WORD`` when WORD is no command: a board gets 'snl play WORD',
    a near miss of a command or a board 'did you mean', anything else the commands."""
    import difflib
    from pathlib import Path

    from ..core.files.formats import builtin_names
    from ..core.files.share import looks_like_code

    shown = quote(word)
    if looks_like_code(word):
        return "snl: that is a share code: 'snl play CODE' plays it, 'snl edit CODE' edits it"
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


def _unrecognized(parser: Parser, args: argparse.Namespace, extra: list[str]) -> NoReturn:
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


BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Read once, when numpy loads its BLAS library (``run``)."""


def run() -> int:
    """The ``snl`` console script (and ``python -m snl_tui``): ``main`` with BLAS on one
    thread unless the environment already says how many. Its dense solves are small
    (``core/odds/blas.py``): a second thread gains nothing there, costs numpy's import about
    40 ms of CPU to start, and competes with the game for the other core. numpy is not
    loaded yet when this runs, so the variables take effect."""
    for name in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    if "numpy" not in sys.modules and all(
        os.environ[name] == "1" for name in BLAS_THREAD_VARIABLES
    ):
        started_on_one_thread()  # nothing for threadpoolctl to limit later
    return main()


class InWords:
    """Whether this run speaks in words (plain mode, SPEC 17): ``--screen-reader`` as
    typed, else ``TERM=dumb`` or the setting, read once and only when first asked (a
    usage error or ``--help`` may come before the options are parsed)."""

    def __init__(self, argv: list[str]) -> None:
        self.answer = screen_reader_typed(argv)

    def __call__(self) -> bool:
        if self.answer is None:
            self.answer = screen_reader_default()
        return self.answer


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args_list = _with_default_command(list(sys.argv[1:] if argv is None else argv))
    first = args_list[0]
    if "textual" not in sys.modules:  # it reads the colour system as it is imported
        from ..widgets.graphics_query import use_terminal_colours

        use_terminal_colours()
    in_words = InWords(args_list)

    def said(text: str) -> str:
        if not in_words():
            return text
        from ..plain.speech import spoken

        return spoken(text)

    if first == "--version" and len(args_list) > 1:
        report_error(
            sys.stderr, said(f"snl: --version takes nothing after it, not {quote(args_list[1])}")
        )
        return EXIT_USAGE
    if not first.startswith("-") and first not in COMMANDS:
        report_error(sys.stderr, said(unknown_command(first)))
        return EXIT_USAGE
    run_command = None
    if first == "judge":  # snl judge [options] -- COMMAND ARGS: the command is not parsed
        from .lab import split_command

        args_list, run_command = split_command(args_list)
    parser = build_parser(first if first in COMMANDS else None, in_words)
    try:
        args, extra = parser.parse_known_args(args_list)
        if extra:
            _unrecognized(parser, args, extra)
    except SystemExit as stop:  # --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    out: TextIO = sys.stdout
    err: TextIO = sys.stderr
    if args.screen_reader is None and not getattr(args, "json", False):
        args.screen_reader = in_words()  # the setting is read once, here
    if args.screen_reader and not getattr(args, "json", False):
        # Every line on stderr in words (generate's choices, a host's log, an error), and
        # no progress line redrawn in place (a stream in words is no terminal).
        from ..plain.speech import SpokenOut

        err = SpokenOut(err)  # type: ignore[assignment]
    handlers: dict[str, Callable[[], int]] = {
        "play": lambda: cmd_play(args),
        "resume": lambda: cmd_resume(args),
        "replay": lambda: cmd_replay(args),
        "solve": lambda: cmd_solve(args, out),
        "analyze": lambda: cmd_analyze(args, out),
        "check": lambda: cmd_check(args, out, err),
        "boards": lambda: cmd_boards(args, out),
        "convert": lambda: cmd_convert(args, out, err),
        "share": lambda: cmd_share(args, out),
        "generate": lambda: _generate(args, out, err),
        "edit": lambda: _edit(args),
        "export": lambda: _export(args, spoken_out(args, out)),
        "serve": lambda: _serve(args, err),
        "host": lambda: _host(args, out, err),
        "join": lambda: _join(args),
        "judge": lambda: _judge(args, run_command, out),
        "learn": lambda: _learn(args),
        **{name: lambda: history.run(args, out, err) for name in history.COMMANDS},
    }
    try:
        status = handlers[args.command]()
        out.flush()  # a full disk shows here, while it can still be reported
        return status
    except SnlError as error:
        report_error(err, f"snl {args.command}: {error}")
        return EXIT_USAGE
    except BrokenPipeError:
        # `snl convert ... | head`: the reader left. The Python docs' recipe: point
        # stdout at devnull so the interpreter's last flush does not fail again.
        drop_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:  # `> /dev/full`: no space left, an I/O error
        drop_stdout()
        report_error(err, f"snl {args.command}: cannot write the output: {error.strerror or error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _generate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .generate import cmd_generate  # numpy loads only when needed

    return cmd_generate(args, rule_overrides(args), out, err)


def _edit(args: argparse.Namespace) -> int:
    from .edit import cmd_edit  # Textual loads only when needed

    return cmd_edit(args)


def _export(args: argparse.Namespace, out: TextIO) -> int:
    from .export import cmd_export  # the page's code loads only when needed

    return cmd_export(args, out)


def _serve(args: argparse.Namespace, err: TextIO) -> int:
    from .serve import cmd_serve

    # A bad board or rule (or one too large to play) is one line now, not in every tab.
    board = board_from_args(args)
    if args.room is None:
        check_playable(board)
    parse_players(args.players)
    if args.room is not None:  # likewise a bad room address or name
        from ..net.address import parse_address
        from ..net.protocol import check_name

        parse_address(args.room)
        check_name(args.name)
    return cmd_serve(args, rule_overrides(args), err)


def _host(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .host import cmd_host  # the network library loads only to host

    def board() -> Board:
        args.board = args.board or "classic"
        board = board_from_args(args)
        check_playable(board)  # every seat's screen draws and analyses it
        return board

    return cmd_host(args, board, rule_overrides(args), out, err)


def _join(args: argparse.Namespace) -> int:
    from .join import cmd_join  # the network library and Textual load only to join

    return cmd_join(args)


def _judge(args: argparse.Namespace, command: list[str] | None, out: TextIO) -> int:
    from .lab import cmd_judge  # the lab loads only to judge

    return cmd_judge(args, command, out)


def _learn(args: argparse.Namespace) -> int:
    from .lab import cmd_learn  # Textual loads only when needed

    return cmd_learn(args)
