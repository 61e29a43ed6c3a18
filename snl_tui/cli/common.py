"""What every ``snl`` command shares: one-line errors and exit codes, the parser class,
the rule options (built from ``core.rules``), reading BOARD with them, and players."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeAlias

from ..core.board import Board
from ..core.engine import Player
from ..core.errors import SnlError
from ..core.files.formats import load_board
from ..core.rules import RULE_NAMES, RULE_OPTIONS, Rules
from ..core.text import LINE_LIMIT, clip, parse_whole, quote, safe_line

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


EXIT_OK = 0


EXIT_WARNINGS = 1


EXIT_USAGE = 2


EXIT_BROKEN_PIPE = 1
"""What Python itself exits with on EPIPE (the docs' recipe)."""


MAX_GAME_ID = 2**63 - 1
"""The largest id SQLite can store: a larger number names no saved game."""


BOARD_HELP = "a built-in board's name (see 'snl boards') or a .toml, .json or .txt file"


class UsageError(SnlError):
    """A command-line mistake found after parsing (e.g. too many players)."""


class HelpLayout(argparse.HelpFormatter):
    """argparse's help layout, as wide as the terminal, found without ``shutil``.

    argparse makes a formatter for every argument it adds (to check its metavar), and
    its own finds the width with ``shutil``, whose import (with bz2 and lzma) is a
    measurable part of a quick command's start. The width is ``shutil``'s rule:
    ``$COLUMNS``, else the terminal's, else 80; minus 2 as argparse takes it."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block) and exit 2, its help
    laid out by ``HelpLayout``. ``subcommands`` maps each command built on it to its
    parser. With ``in_words`` (the run's plain mode, asked only when something is printed)
    its help and its errors are said in words (``plain.speech``): no columns, arrows or
    ranges written as symbols."""

    subcommands: dict[str, argparse.ArgumentParser]
    in_words: Callable[[], bool] | None = None

    def _words(self, text: str) -> str:
        if self.in_words is None or not self.in_words():
            return text
        from ..plain.speech import spoken_lines

        return "".join(line + "\n" for line in spoken_lines(text))

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        if self.in_words is None or not self.in_words():
            super().print_help(file)
            return
        # One line an option, never cut mid-sentence to fit a width no one sees.
        drawn = self.formatter_class
        self.formatter_class = _unwrapped
        try:
            (file or sys.stdout).write(self._words(self.format_help()))
        finally:
            self.formatter_class = drawn

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        super().exit(status, self._words(message) if message else message)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpLayout)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        # A near miss of a choice (a rule value, a format): say which one was meant.
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice is not None:
            options = re.findall(r"'([^']*)'", choice.group(2))
            import difflib  # only for a near miss

            near = difflib.get_close_matches(choice.group(1), options, n=1, cutoff=0.6)
            if near:
                message += f": did you mean '{near[0]}'?"
        # argparse quotes the bad argument: it may hold control characters or be huge.
        line = safe_line(f"{self.prog}: {message}", LINE_LIMIT - 30)
        self.exit(EXIT_USAGE, f"{line} (see {self.prog} --help)\n")


def _unwrapped(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, max_help_position=10_000, width=100_000)


Subcommands: TypeAlias = "argparse._SubParsersAction[Any]"  # what add_subparsers returns


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


def board_from_args(args: argparse.Namespace) -> Board:
    overrides = rule_overrides(args)
    # Check the options alone first, so a bad value is blamed on the option, not the file.
    Rules.from_mapping(overrides)
    return load_board(args.board, overrides or None)


def parse_players(text: str) -> list[Player]:
    """``"Ann,cpu,cpu:Robo"`` -> players: the session's one parser (``--players: `` first)."""
    try:
        from ..core.session import parse_players  # seats: only for the game's commands

        return parse_players(text)
    except SnlError as error:  # a sentence for the dialog, a clause like argparse's here
        sentence = str(error).rstrip(".")
        raise UsageError(f"argument --players: {sentence[:1].lower()}{sentence[1:]}") from None


def add_no_save(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="play without reading or writing saved games",
    )


SCREEN_READER_HELP = (
    "plain lines for a screen reader or braille display instead of the full-screen game"
)
SPOKEN_REPORT_HELP = "the report in words for a screen reader: no arrows, bars or columns"
IN_WORDS_HELP = "every line in words for a screen reader: no arrows, glyphs or progress bars"


def add_screen_reader(parser: argparse.ArgumentParser, what: str = SCREEN_READER_HELP) -> None:
    parser.add_argument(
        "--screen-reader",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"{what} (default: on with the setting screen_reader = true or TERM=dumb)",
    )


def screen_reader_wanted(args: argparse.Namespace) -> bool:
    """Plain play (``snl_tui.plain``): ``--screen-reader`` or ``--no-screen-reader`` when
    given, else the setting ``screen_reader = true``, else ``TERM=dumb`` (a terminal that
    cannot draw the game: an editor's shell, a screen reader's plain console)."""
    given: bool | None = getattr(args, "screen_reader", None)
    return screen_reader_default() if given is None else given


def screen_reader_default() -> bool:
    """Plain mode when no option says: ``TERM=dumb`` or the setting ``screen_reader``."""
    if os.environ.get("TERM", "") == "dumb":
        return True
    from ..core.store.settings import load_settings

    # Read only, with --no-save too: nothing is written.
    return load_settings()[0].screen_reader


def screen_reader_typed(argv: list[str]) -> bool | None:
    """``--screen-reader`` (True) or ``--no-screen-reader`` (False) as typed in ``argv``
    (the last one counts, an abbreviation too), before ``--``; None when neither is: the
    help and the errors argparse prints while it parses are said in words already."""
    typed = None
    for word in argv:
        if word == "--":
            break
        if len(word) > 4 and "--screen-reader".startswith(word):
            typed = True
        elif len(word) > 7 and "--no-screen-reader".startswith(word):
            typed = False
    return typed


def spoken_out(args: argparse.Namespace, out: TextIO) -> TextIO:
    """``out``, or with ``--screen-reader`` (the setting, ``TERM=dumb``) and no ``--json``
    a stream that says each line in words (``plain.speech``)."""
    if getattr(args, "json", False) or getattr(out, "spoken", False):
        return out
    if not screen_reader_wanted(args):
        return out
    from ..plain.speech import SpokenOut

    return SpokenOut(out)  # type: ignore[return-value]


def report_error(err: TextIO, text: str) -> None:
    """One safe line on stderr; if even stderr is gone there is no one left to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(safe_line(text), file=err, flush=True)


def drop_stdout() -> None:
    """Send what is still buffered for stdout to devnull (it cannot be written)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a real file (a test's capture): nothing to flush later


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``low`` (to ``high``, when given)."""
    span = f"from {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        value = parse_whole(text)  # ASCII digits only, as in board files
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {quote(text)}")
        return value

    return parse


def saved_game_id(text: str) -> int:
    """A saved game's number as a person typed it (``snl resume ID``, ``snl replay ID``,
    ``snl host --resume ID``); UsageError with one line when it names no saved game."""
    game_id = parse_whole(text)
    if game_id is None or game_id < 1:
        raise UsageError(f"not a saved game's number: {quote(text)} (see 'snl games')")
    if game_id > MAX_GAME_ID:  # more than SQLite can hold: no such game
        raise UsageError(f"no saved game {clip(text, 24)} ('snl games' lists saved games)")
    return game_id
