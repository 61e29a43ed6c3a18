"""``snl judge`` and ``snl learn``: the 909 lab's commands (SPEC 15).

``snl judge SOLUTION.py`` or ``snl judge -- COMMAND...`` judges a LeetCode 909 solution
(``lab.judge``) and prints the smallest failing board with the answers, an optimal route
and what the wrong answer suggests; ``--json`` prints one object instead, ``--show`` opens
the failing board on the learn screen. ``snl learn [BOARD]`` steps through the
breadth-first search on a board. Exit 0 accepted, 1 not, 2 usage.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..core.board import Board
from ..core.errors import BoardError, SnlError
from ..core.text import clip, escape_controls, plural, quote
from .common import (
    BOARD_HELP,
    EXIT_OK,
    add_rule_options,
    add_screen_reader,
    board_from_args,
    screen_reader_wanted,
    whole_number,
)

if TYPE_CHECKING:
    from ..lab.judge import Verdict
    from ..lab.report import Explained

EXIT_REJECTED = 1
DEFAULT_BOARDS = 1000
DEFAULT_SEED = 909
LEARN_DEFAULT_BOARD = "leetcode-1"


class JudgeUsageError(SnlError):
    """A bad combination of ``snl judge`` arguments."""


def seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, from 0.05 to 600."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.05 <= value <= 600:
        raise argparse.ArgumentTypeError(f"must be seconds from 0.05 to 600, not {quote(text)}")
    return value


def add_judge_parser(commands: argparse._SubParsersAction[Any]) -> None:
    judge = commands.add_parser(
        "judge",
        help="judge a LeetCode 909 solution: the smallest board it gets wrong",
        description="Run a LeetCode 909 solution on boards chosen to catch the typical "
        "mistakes, then on random boards, and show the smallest board it gets wrong. "
        "SOLUTION is a Python file with LeetCode's class Solution; or, after --, any "
        "command that reads the board as one line of JSON on stdin and prints the answer.",
        epilog="Exit status: 0 accepted, 1 wrong, error or time-out, 2 usage.",
    )
    judge.add_argument("solution", nargs="?", metavar="SOLUTION.py", help="the solution file")
    judge.add_argument(
        "--boards",
        type=whole_number(1, 1_000_000),
        default=DEFAULT_BOARDS,
        metavar="N",
        help=f"boards to try in all (default {DEFAULT_BOARDS})",
    )
    judge.add_argument(
        "--seed",
        type=whole_number(0),
        default=DEFAULT_SEED,
        metavar="S",
        help=f"seed of the random boards (default {DEFAULT_SEED})",
    )
    judge.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="CPU seconds per board (default 2)",
    )
    judge.add_argument(
        "--run-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="CPU seconds all the boards may take together (default 60)",
    )
    judge.add_argument(
        "--memory",
        type=whole_number(0, 1 << 20),
        default=None,
        metavar="MB",
        help="memory the solution may use (default 512; 0: no limit)",
    )
    judge.add_argument("--json", action="store_true", help="print one JSON object")
    judge.add_argument(
        "--show", action="store_true", help="open the failing board in the learn screen"
    )
    add_screen_reader(
        judge,
        "the report in plain words (the board row by row, the route as 'from 1 roll 3 to 4'),"
        " no drawing or arrows, and --show's search in plain lines",
    )


def add_learn_parser(commands: argparse._SubParsersAction[Any]) -> None:
    learn = commands.add_parser(
        "learn",
        help="watch the breadth-first search that solves a board, step by step",
        description="Step through LeetCode 909's breadth-first search on a board: the "
        "queue, the level, each square's distance, the one-jump rule and the route.",
    )
    learn.add_argument(
        "board",
        nargs="?",
        default=LEARN_DEFAULT_BOARD,
        metavar="BOARD",
        help=f"{BOARD_HELP}, or a LeetCode matrix such as '[[-1,-1],[-1,3]]' "
        f"(default {LEARN_DEFAULT_BOARD})",
    )
    add_screen_reader(learn, "the search told step by step in plain lines for a screen reader")
    add_rule_options(learn)


def split_command(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """``snl judge ... -- CMD ARGS``: (the arguments before ``--``, the command after it,
    None when there is no ``--``)."""
    if "--" not in argv:
        return argv, None
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def cmd_judge(args: argparse.Namespace, command: list[str] | None, out: TextIO) -> int:
    from ..lab.boards import judge_cases
    from ..lab.command_runner import CommandRunner
    from ..lab.judge import RUN_CPU_LIMIT, judge
    from ..lab.runner import DEFAULT_MEMORY_MB, DEFAULT_TIME_LIMIT, PythonRunner, Runner

    time_limit = args.time_limit if args.time_limit is not None else DEFAULT_TIME_LIMIT
    memory = args.memory if args.memory is not None else DEFAULT_MEMORY_MB
    run_limit = args.run_limit if args.run_limit is not None else RUN_CPU_LIMIT
    runner: Runner
    if command is not None:
        if args.solution is not None:
            raise JudgeUsageError("give a solution file or a command after --, not both")
        if not command:
            raise JudgeUsageError("no command after --")
        runner = CommandRunner(command, time_limit=time_limit, memory_mb=memory)
    else:
        if args.solution is None:
            raise JudgeUsageError("give a solution file (SOLUTION.py) or a command after --")
        path = Path(args.solution)
        if not path.is_file():
            raise JudgeUsageError(f"no such file: {quote(args.solution)}")
        runner = PythonRunner(path, time_limit=time_limit, memory_mb=memory)
    from ..lab.sandbox import become_subreaper

    become_subreaper()  # the solution's orphans come back to the judge, which ends them
    words = not args.json and screen_reader_wanted(args)
    shown = Progress(args.boards, sys.stderr)
    shown.on = shown.on and not words  # a screen reader would read every redraw
    previous = {sig: signal.signal(sig, _end) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with runner:
            verdict = judge(
                runner, judge_cases(args.boards, args.seed), progress=shown, run_cpu_limit=run_limit
            )
    except KeyboardInterrupt:
        return stopped(shown, signal.SIGINT)
    except Stopped as stop:
        return stopped(shown, stop.number)
    finally:
        shown.done()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        # The runner has ended every solution's process: orphans of anything this
        # process starts after the judge (an in-process caller's) are init's again.
        become_subreaper(False)
    failure = verdict.failure
    explained = None
    if words:
        from ..plain.speech import SpokenOut

        out = SpokenOut(out)  # type: ignore[assignment]
    if failure is not None:
        from ..lab.report import explain

        explained = explain(failure, time_limit, words=words)
    if args.json:
        data = verdict.to_json()
        if failure is not None and failure.proof is not None and failure.proof.mistake:
            data.update(proven_on_boards=failure.proof.boards)
        if explained is not None:
            data.update(
                route=explained.route,
                rolls=explained.rolls,
                mistakes=explained.mistakes,
                suspects=explained.suspects,
            )
        out.write(json.dumps(data) + "\n")
    else:
        write_verdict(out, runner.label, verdict, explained, words=words)
    if (
        args.show
        and explained is not None
        and failure is not None
        and not failure.outcome.fatal
        and failure.overall is None  # every board right: none to show
    ):
        out.flush()
        return show(explained, plain=words) or EXIT_REJECTED
    out.flush()
    return EXIT_OK if verdict.accepted else EXIT_REJECTED


class Stopped(BaseException):
    """SIGTERM or SIGHUP came: the judge leaves."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _end(number: int, frame: object) -> None:
    """SIGTERM or SIGHUP: leave through the ``with runner`` that ends the solution."""
    raise Stopped(number)


def stopped(shown: Progress, number: int) -> int:
    """One line on stderr when the judge was stopped (the runner has ended the solution
    and all it started by then); the exit status, 128 + the signal's number."""
    why = "Ctrl+C" if number == signal.SIGINT else signal.Signals(number).name
    shown.done()
    with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
        sys.stderr.write(f"snl judge: stopped by {why} {shown.doing()}; the solution was ended.\n")
        sys.stderr.flush()
    return 128 + number


class Progress:
    """What the judge is doing, on one line of stderr when it is a terminal: 'judging:
    board 350 of 1,000', 'shrinking the failing board: 40 boards tried'...; ``done``
    clears the line."""

    def __init__(self, total: int, err: TextIO) -> None:
        self.total, self.err = total, err
        self.shown = False
        self.on = err.isatty()
        self.width = 0
        self.stage, self.count = "", 0

    def doing(self) -> str:
        """What the judge was doing: 'while judging board 5 of 1,000'."""
        if self.stage == "judging":
            return f"while judging board {self.count:,} of {self.total:,}"
        if self.stage == "shrinking":
            return f"while shrinking the failing board ({plural(self.count, 'board')} tried)"
        if self.stage == "measuring":
            return "while measuring a slow board's CPU time"
        if self.stage in ("fresh", "proving"):
            return "while checking the failing board"
        return "before the first board"

    def __call__(self, stage: str, count: int) -> None:
        self.stage, self.count = stage, count
        if not self.on:
            return
        if stage == "judging":
            # Every board, named before it runs: a slow one is the one on the line.
            text = f"judging: board {count:,} of {self.total:,}"
        elif stage == "fresh":
            text = "re-running the failing board in a fresh process"
        elif stage == "measuring":
            text = f"too slow: measuring its CPU time, board {count} of 5"
        elif stage == "shrinking":
            text = f"shrinking the failing board: {plural(count, 'board')} tried"
        else:
            text = f"checking what the answers say: {plural(count, 'more board')} tried"
        self.err.write("\r" + text.ljust(self.width))
        self.width = len(text)
        self.err.flush()
        self.shown = True

    def done(self) -> None:
        """Clear the line: the report follows."""
        if self.shown:  # two more: the terminal's echo of a Ctrl+C, '^C'
            self.err.write("\r" + " " * (self.width + 2) + "\r")
            self.err.flush()
            self.shown = False


def write_verdict(
    out: TextIO,
    label: str,
    verdict: Verdict,
    explained: Explained | None,
    *,
    words: bool = False,
) -> None:
    """The judge's report; ``words``: plain words for a screen reader (no drawn board, no
    arrows)."""
    from ..lab.report import draw, draw_words, route_text

    name = clip(escape_controls(label), 60)
    failure = verdict.failure
    if failure is None or explained is None:
        out.write(
            f"accepted: {name} gave the right answer on all {verdict.boards:,} boards "
            f"({verdict.seconds:.1f} s).\n"
        )
        return
    what = {"wrong": "wrong answer", "error": "error", "timeout": "time-out"}[failure.verdict]
    if failure.overall is not None:
        out.write(
            f"too slow overall: {name}, {failure.overall:.1f} s of CPU over "
            f"{plural(failure.overall_boards, 'board')}.\n\n{explained.reason}\n"
        )
        for line in explained.details:
            out.write(line + "\n")
        return
    if failure.slow:
        what = "too slow"
    elif failure.fresh is not None:
        what = "wrong answer after earlier boards"
    if failure.outcome.fatal:  # it never ran: the board it was given says nothing
        reason = failure.outcome.text.rstrip(".")
        out.write(f"{what}: {name} did not run, so no board was judged: {reason}.\n")
        for line in explained.printed:
            out.write("    " + line + "\n")
        return
    side = failure.side
    out.write(f"{what}: {name} fails on this {side}x{side} board (board {verdict.boards:,} ")
    out.write(f"tried, {quote(failure.found_on)}")
    if failure.shrink_tries:
        out.write(
            f", {failure.found_side}x{failure.found_side}, made simpler in "
            f"{plural(failure.shrink_tries, 'try', 'tries')}"
        )
    out.write(").\n\n")
    for line in draw_words(explained.board) if words else draw(explained.board):
        out.write("    " + line + "\n")
    out.write("\n")
    board = json.dumps(failure.matrix, separators=(",", ":"))
    out.write("board:    " + board + "\n")
    out.write(f"expected: {failure.expected}\n")
    out.write(f"got:      {explained.got}\n")
    out.write(f"route:    {route_text(explained.route, explained.rolls, words=words)}\n")
    out.write("\n" + explained.reason + "\n")
    for line in explained.details:
        out.write(line + "\n")
    if explained.printed:
        out.write("\nWhat it printed on this board:\n")
        for line in explained.printed:
            out.write("    " + line + "\n")
    out.write(f"\nWatch the search on it: add --show, or run snl learn '{board}'\n")


def show(explained: Explained, *, plain: bool = False) -> int:
    """The failing board on the learn screen (``plain``: the search in plain lines)."""
    if plain:
        from ..plain.console import Console
        from ..plain.learn import PlainLearn

        return PlainLearn(explained.board, Console.standard()).run()
    from ..app import SnlApp, run_app
    from ..screens.learn import LEARN_CSS, LearnScreen

    screen = LearnScreen(explained.board, judged=explained)
    app = SnlApp(board=explained.board, front=screen, front_css=LEARN_CSS)
    return run_app(app)


def learn_board(args: argparse.Namespace) -> Board:
    """BOARD as a built-in name, a file, a share code or a matrix in JSON."""
    text = args.board
    if text.lstrip().startswith("["):
        try:
            matrix = json.loads(text)
        except (ValueError, RecursionError) as error:  # RecursionError: [[[[... nested deep
            raise BoardError(f"the board is not a JSON matrix: {error}") from None
        from ..core.rules import Rules
        from .common import rule_overrides

        return Board.from_matrix(matrix, Rules.from_mapping(rule_overrides(args)), name="board")
    return board_from_args(args)


def cmd_learn(args: argparse.Namespace) -> int:
    from ..lab.search import MAX_SQUARES

    board = learn_board(args)
    if board.goal > MAX_SQUARES:
        raise BoardError(
            f"the board has {board.goal:,} squares: snl learn shows boards of up to {MAX_SQUARES:,}"
        )
    if screen_reader_wanted(args):
        from ..plain.console import Console
        from ..plain.learn import PlainLearn

        return PlainLearn(board, Console.standard()).run()
    from ..app import SnlApp, run_app
    from ..screens.learn import LEARN_CSS, LearnScreen

    app = SnlApp(board=board, front=LearnScreen(board), front_css=LEARN_CSS)
    return run_app(app)
