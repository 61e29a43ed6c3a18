"""The sandbox: a solution's prints, crashes, loops, memory, children and hostile output
never reach snl as answers or raw text, and a dead or killed child is replaced."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from snl_tui.core.files.formats import load_board
from snl_tui.lab.boards import judge_cases
from snl_tui.lab.command_runner import CommandRunner
from snl_tui.lab.judge import judge
from snl_tui.lab.runner import PythonRunner
from tests.processes import OUTER_PID, alive

from .conftest import SOLUTIONS

LEETCODE_1 = load_board("leetcode-1").to_matrix()  # LeetCode's examples, as built in
LEETCODE_2 = load_board("leetcode-2").to_matrix()

THREE = [[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
TEXTBOOK = (SOLUTIONS / "correct_textbook.py").read_text(encoding="utf-8")


def test_prints_in_the_solution_are_not_answers(write_solution: Callable[..., Path]) -> None:
    source = TEXTBOOK.replace(
        "        n = len(board)\n",
        "        n = len(board)\n        print(99)\n        import os; os.write(1, b'7\\n')\n",
        1,
    )
    path = write_solution(source)
    with PythonRunner(path) as runner:
        assert judge(runner, judge_cases(40, 1)).accepted


def test_a_string_is_a_wrong_answer(write_solution: Callable[..., Path]) -> None:
    path = write_solution(
        """
        class Solution:
            def snakesAndLadders(self, board):
                return "1"
        """
    )
    with PythonRunner(path) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "other" and outcome.text == "'1'"


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("class Solution:\n    def snakesAndLadders(self, board)\n", "SyntaxError"),
        ("def snakesAndLadders(board):\n    return 1\n", "no class Solution"),
        ("raise SystemExit(3)\n", "SystemExit"),
    ],
)
def test_a_solution_that_does_not_load_is_one_error(
    write_solution: Callable[..., Path], source: str, words: str
) -> None:
    with PythonRunner(write_solution(source)) as runner:
        verdict = judge(runner, judge_cases(1000, 1))
    assert verdict.verdict == "error" and verdict.boards == 1
    assert verdict.failure is not None and verdict.failure.shrink_tries == 0
    assert words in verdict.failure.outcome.text


def test_a_crash_is_an_error_and_the_next_board_gets_a_new_child(
    write_solution: Callable[..., Path],
) -> None:
    source = TEXTBOOK.replace(
        "        n = len(board)\n",
        "        n = len(board)\n        if n == 3:\n            import os; os._exit(3)\n",
        1,
    )
    with PythonRunner(write_solution(source)) as runner:
        assert runner.run(LEETCODE_1).value == 4
        crashed = runner.run(THREE)
        assert crashed.kind == "error" and "exited with status 3" in crashed.text
        assert runner.run(LEETCODE_1).value == 4
        assert runner.starts == 2


def test_a_loop_times_out_and_its_whole_process_group_is_killed(
    write_solution: Callable[..., Path], tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    source = TEXTBOOK.replace(
        "        n = len(board)\n",
        "        n = len(board)\n"
        "        if n == 3:\n"
        "            import os, subprocess\n"
        "            child = subprocess.Popen(['sleep', '600'])\n"
        "            ids = [outer_pid(os.getpid()), outer_pid(child.pid)]\n"
        f"            open({str(pids)!r}, 'w').write(' '.join(map(str, ids)))\n"
        "            while True:\n"
        "                pass\n",
        1,
    )
    with PythonRunner(write_solution(OUTER_PID + source), time_limit=0.5) as runner:
        outcome = runner.run(THREE)
        assert outcome.kind == "timeout" and "0.5 s of CPU" in outcome.text
        started = [int(pid) for pid in pids.read_text().split()]
        assert len(started) == 2
        # SIGKILL reaches the process group at once; the orphaned grandchild is reaped
        # by init a moment later.
        deadline = time.monotonic() + 10
        while any(map(alive, started)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(map(alive, started))
        assert runner.run(LEETCODE_1).value == 4
        assert runner.starts == 2


def test_memory_is_limited(write_solution: Callable[..., Path]) -> None:
    path = write_solution(
        """
        class Solution:
            def snakesAndLadders(self, board):
                hog = bytearray(1 << 31)
                return len(hog)
        """
    )
    with PythonRunner(path, memory_mb=256) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "error" and "MemoryError" in outcome.text


def test_hostile_output_is_escaped() -> None:
    command = ["sh", "-c", "read line; printf '\\033]0;owned\\a\\033[2J4'"]
    with CommandRunner(command) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "other"
    assert "\x1b" not in outcome.text and "\a" not in outcome.text
    assert "\\x1b" in outcome.text


def test_endless_output_is_cut_off() -> None:
    with CommandRunner(["sh", "-c", "yes 1"], time_limit=5) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "error" and "printed more than" in outcome.text


def test_a_failing_command_says_why_in_one_safe_line() -> None:
    command = ["sh", "-c", "echo 'bad \\033[31mthing' >&2; exit 4"]
    outcome = CommandRunner(command).run(LEETCODE_2)
    assert outcome.kind == "error" and "exited with status 4" in outcome.text
    assert "bad \\x1b[31mthing" in outcome.text


def test_a_missing_command_is_fatal(tmp_path: Path) -> None:
    outcome = CommandRunner([str(tmp_path / "nothing-here")]).run(LEETCODE_2)
    assert outcome.kind == "error" and outcome.fatal and "cannot run" in outcome.text


C_SOLUTION = r"""
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    static int cells[400], flat[401], dist[401], queue[401];
    int count = 0, depth = 0, c, n = 0, value = 0, sign = 1, in_number = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == '[') depth++;
        if (c == '-') sign = -1;
        if (c >= '0' && c <= '9') { value = value * 10 + (c - '0'); in_number = 1; }
        else if (in_number) { cells[count++] = sign * value; value = 0; sign = 1; in_number = 0; }
    }
    while (n * n < count) n++;
    for (int level = 0; level < n; level++)
        for (int i = 0; i < n; i++) {
            int col = level % 2 == 0 ? i : n - 1 - i;
            flat[level * n + i + 1] = cells[(n - 1 - level) * n + col];
        }
    int goal = n * n, head = 0, tail = 0;
    for (int s = 0; s <= goal; s++) dist[s] = -1;
    dist[1] = 0; queue[tail++] = 1;
    while (head < tail) {
        int s = queue[head++];
        for (int die = 1; die <= FACES && s + die <= goal; die++) {
            int t = s + die;
            if (flat[t] != -1) t = flat[t];
            if (dist[t] < 0) { dist[t] = dist[s] + 1; queue[tail++] = t; }
        }
    }
    printf("%d\n", dist[goal]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def c_programs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The C solution built twice: with a six-faced die (right) and a five-faced one."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler (gcc or cc) on this machine")
    folder = tmp_path_factory.mktemp("c")
    source = folder / "solution.c"
    source.write_text(C_SOLUTION, encoding="utf-8")
    programs = {}
    for faces in (6, 5):
        program = folder / f"solution{faces}"
        subprocess.run(
            [compiler, "-O2", f"-DFACES={faces}", "-o", str(program), str(source)],
            check=True,
            timeout=60,
        )
        programs[faces] = program
    return programs


def test_a_c_solution_through_a_command(c_programs: dict[int, Path]) -> None:
    """A process a board: 120 boards hold every edge case, both LeetCode examples and
    every side from 2 to 6 and 20 (a thousand took 14 s: a start each); none of the
    runner's pipes or pidfds is left open after them."""
    open_before = len(os.listdir("/proc/self/fd"))
    with CommandRunner([str(c_programs[6])]) as runner:
        verdict = judge(runner, judge_cases(120, 909))
    assert verdict.accepted and verdict.boards == 120
    assert len(os.listdir("/proc/self/fd")) == open_before
    with CommandRunner([str(c_programs[5])]) as runner:
        verdict = judge(runner, judge_cases(1000, 909))
    assert verdict.verdict == "wrong"
    assert verdict.failure is not None and verdict.failure.side <= 4


def test_the_solution_cannot_read_the_next_board(write_solution: Callable[..., Path]) -> None:
    source = TEXTBOOK.replace(
        "        n = len(board)\n",
        "        n = len(board)\n        import sys\n        sys.stdin.readline()\n",
        1,
    )
    with PythonRunner(write_solution(source)) as runner:
        assert judge(runner, judge_cases(30, 2)).accepted
