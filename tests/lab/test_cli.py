"""``snl judge`` and ``snl learn`` on the command line: reports, JSON, exit codes, and
one clear line for every usage mistake."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from snl_tui.cli.lab import Progress, split_command
from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.solver import solve
from tests.unit.test_import_hygiene import loaded_ui_packages

from .conftest import SOLUTIONS

STDIN_SOLUTION = """
import json, sys
sys.path.insert(0, {folder!r})
from correct_textbook import Solution
print(Solution().snakesAndLadders(json.loads(sys.stdin.readline())))
"""


def test_an_accepted_solution_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["judge", str(SOLUTIONS / "correct_levels.py"), "--boards", "60", "--json"])
    assert status == 0
    assert json.loads(capsys.readouterr().out) == {"verdict": "accepted", "boards": 60}


def test_a_wrong_solution_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["judge", str(SOLUTIONS / "wrong_zero.py"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1
    assert data["verdict"] == "wrong" and data["got"] == 0 and data["expected"] == -1
    assert data["expected"] == solve(Board.from_matrix(data["board"])).moves
    assert data["boards"] >= 1 and data["mistakes"] == ["zero"]


def test_a_wrong_solution_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["judge", str(SOLUTIONS / "wrong_five_faces.py")])
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith("wrong answer: wrong_five_faces.py fails on this 3x3 board")
    lines = out.splitlines()
    board = json.loads(next(line for line in lines if line.startswith("board:"))[6:])
    expected = solve(Board.from_matrix(board))
    assert f"expected: {expected.moves}" in lines
    assert "got:      3" in lines
    route = next(line for line in lines if line.startswith("route:"))
    assert route.split()[-1] == "9" and route.count("->") == expected.moves
    assert "rolls 1 to 5" in out
    # The board is drawn: the top row holds the goal, a snake reads ▼1.
    assert any(line.split()[-1:] == ["9"] for line in lines[:5]) and "▼1" in out


def test_a_command_after_dashes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = tmp_path / "stdin_solution.py"
    script.write_text(STDIN_SOLUTION.format(folder=str(SOLUTIONS)), encoding="utf-8")
    argv = ["judge", "--boards", "10", "--json", "--", sys.executable, str(script)]
    status = main(argv)
    assert json.loads(capsys.readouterr().out) == {"verdict": "accepted", "boards": 10}
    assert status == 0


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["judge"], "give a solution file"),
        (["judge", "no-such-file.py"], "no such file"),
        (["judge", "x.py", "--", "cat"], "not both"),
        (["judge", "--"], "no command after --"),
        (["judge", "x.py", "--boards", "0"], "--boards"),
        (["judge", "x.py", "--time-limit", "soon"], "--time-limit"),
        (["learn", "no-such-board"], "no-such-board"),
        (["learn", "[[1, 2"], "not a JSON matrix"),
        (["learn", "[[-1, 9], [-1, -1]]"], "outside the board"),
        (["learn", "[" * 100_000], "not a JSON matrix"),
        (["learn", "[1, 2]"], "not a list of cells"),
    ],
)
def test_usage_mistakes_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert words in captured.err and len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err and captured.out == ""


def test_split_command() -> None:
    assert split_command(["judge", "a.py"]) == (["judge", "a.py"], None)
    assert split_command(["judge", "--json", "--", "./a", "--", "-x"]) == (
        ["judge", "--json"],
        ["./a", "--", "-x"],
    )


def test_a_solution_file_that_is_a_folder(
    capsys: pytest.CaptureFixture[str], write_solution: Callable[..., Path]
) -> None:
    folder = write_solution("x = 1\n").parent
    assert main(["judge", str(folder)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_judging_loads_neither_textual_nor_rich() -> None:
    """The lab is core-like: judging (without --show) never loads the UI."""
    solution = SOLUTIONS / "wrong_five_faces.py"
    code = (
        "import importlib, pkgutil, snl_tui.lab as lab\n"
        "for m in pkgutil.iter_modules(lab.__path__):\n"
        "    importlib.import_module('snl_tui.lab.' + m.name)\n"
        "from snl_tui.cli.main import main\n"
        f"status = main(['judge', {str(solution)!r}, '--boards', '40'])\n"
    )
    assert loaded_ui_packages(code) == (1, [])


def test_progress_shows_on_a_terminal_only() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        shown = Progress(120, stream)
        for checked in range(1, 121):
            shown("judging", checked)
        shown("fresh", 1)
        for tried in range(1, 3):
            shown("shrinking", tried)
        shown("proving", 1)
        shown.done()
    lines = [line.rstrip(" ") for line in terminal.getvalue().split("\r")[1:]]
    # Each board named before it runs: a slow board is the one the line shows.
    assert lines[:120] == [f"judging: board {n} of 120" for n in range(1, 121)]
    assert lines[120:] == [
        "re-running the failing board in a fresh process",
        "shrinking the failing board: 1 board tried",
        "shrinking the failing board: 2 boards tried",
        "checking what the answers say: 1 more board tried",
        "",  # cleared for the report
        "",
    ]
    assert pipe.getvalue() == ""


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("class Solution:\n    def snakesAndLadders(self, board)\n", "SyntaxError"),
        ("def snakesAndLadders(board):\n    return 1\n", "no class Solution"),
    ],
    ids=["syntax error", "no class"],
)
def test_a_solution_that_does_not_load_is_one_line_not_a_board(
    capsys: pytest.CaptureFixture[str],
    write_solution: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    source: str,
    why: str,
) -> None:
    """No board was judged: no board drawn, no route, no "watch the search on it", and
    ``--show`` opens nothing (the learn screen on LeetCode's example would explain
    nothing about a file that does not load)."""
    import snl_tui.cli.lab as lab

    monkeypatch.setattr(lab, "show", lambda explained: pytest.fail("opened the learn screen"))
    path = write_solution(source)
    assert main(["judge", str(path), "--show"]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out
    assert out.startswith(f"error: {path.name} did not run, so no board was judged: "), out
    assert "cannot load the solution" in out and why in out


def test_a_command_that_does_not_start_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-solver"
    assert main(["judge", "--", str(missing)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("error: "), out
    assert "did not run, so no board was judged: cannot run " in out
    assert out.endswith(": No such file or directory.\n"), out


def test_the_report_in_words_for_a_screen_reader(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["judge", str(SOLUTIONS / "wrong_five_faces.py"), "--screen-reader"])
    out = capsys.readouterr().out
    assert status == 1
    assert "▼" not in out and "▲" not in out and "-(" not in out and "->" not in out
    assert "square 6, snake down to 1" in out
    route = next(line for line in out.splitlines() if line.startswith("route:"))
    assert route.startswith("route: from 1 roll ") and "to 9" in route
    assert "bottom row, squares 1 to 3, left to right" in out


def test_what_a_python_solution_printed_is_shown_in_order_and_escaped(
    write_solution: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_solution(
        """
        import sys
        class Solution:
            def snakesAndLadders(self, board):
                print("size", len(board), "\\x1b[31mred")
                print("to stderr", file=sys.stderr)
                return len(board)
        """
    )
    assert main(["judge", str(path)]) == 1
    out = capsys.readouterr().out
    printed = out.split("What it printed on this board:\n")[1].splitlines()
    assert printed[:3] == [
        "    stdout and stderr:",
        "      | size 2 \\x1b[31mred",
        "      | to stderr",
    ]
    assert "\x1b" not in out
    # Facts, not a guess: no known mistake answers the side of the board.
    assert "Your answer is 2, the least is 1." in out


def test_a_command_that_prints_nothing_printed_no_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["judge", "--", "true"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("wrong answer: true fails on this 2x2 board")
    assert "It printed no answer" in out and "crash" not in out


def test_a_command_s_error_shows_its_first_lines(capsys: pytest.CaptureFixture[str]) -> None:
    script = (
        "import sys; sys.stdin.readline(); "
        "print('Traceback (most recent call last):', file=sys.stderr); "
        "[print(f'  frame {i}', file=sys.stderr) for i in range(30)]; "
        "print('ValueError: the real error', file=sys.stderr); "
        "print('note: the runtime says goodbye', file=sys.stderr); sys.exit(1)"
    )
    assert main(["judge", "--", sys.executable, "-c", script]) == 1
    out = capsys.readouterr().out
    assert "It crashed: the command exited with status 1: ValueError: the real error." in out
    shown = out.split("What it printed on this board:\n")[1].splitlines()
    assert shown[:3] == [
        "    stderr:",
        "      | Traceback (most recent call last):",
        "      |   frame 0",
    ]
    assert "      | note: the runtime says goodbye" in shown
    assert any("lines more" in line for line in shown)


def test_right_but_slow_on_every_board_is_too_slow_overall(
    capsys: pytest.CaptureFixture[str], write_solution: Callable[..., Path]
) -> None:
    """Each board well within its limit, the run past its CPU budget: 'too slow
    overall' with the CPU seconds and the boards (CPU time, whatever the load)."""
    source = (SOLUTIONS / "correct_textbook.py").read_text(encoding="utf-8")
    source = source.replace(
        "        n = len(board)\n",
        "        n = len(board)\n"
        "        import time\n"
        "        began = time.process_time()\n"
        "        while time.process_time() - began < 0.06:\n"
        "            pass\n",
        1,
    )
    solution = str(write_solution(source))
    status = main(["judge", solution, "--time-limit", "1", "--run-limit", "0.2"])
    out = capsys.readouterr().out
    assert status == 1
    head, _, rest = out.partition("\n\n")
    assert head.startswith("too slow overall: solution.py, ")
    assert " s of CPU over " in head and head.count("\n") == 0
    assert "Every answer was right" in rest and "limit 0.2 s for the whole run" in rest
    main(["judge", solution, "--time-limit", "1", "--run-limit", "0.2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "timeout" and data["cpu_seconds_overall"] > 0.2
    assert 4 <= data["boards"] < 1000
