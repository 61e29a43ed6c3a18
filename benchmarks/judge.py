"""Judge speed: boards judged per second for a correct Python solution (target: 1,000
boards in under 10 s), the same through a compiled C command (one process a board), the
time to shrink a failure to its smallest board and the mistake named, and the time to a
verdict for a right, a wrong, a slow (right but O(n^6)) and an endless solution at the
default limit of 2 s of CPU a board (target: about a minute at most), and with
``--near`` for a right one just under that limit on every board (the whole run's CPU
budget stops it).

The Python solution answers every board in one child process (the harness); the boards
and their expected answers are made in this process, as ``snl judge`` makes them. Each
figure is the best of ``--repeat`` runs (default 3), wall-clock, with the child's start
included. Run:  python benchmarks/judge.py [--boards N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from snl_tui.lab.boards import judge_cases
from snl_tui.lab.command_runner import CommandRunner
from snl_tui.lab.judge import judge
from snl_tui.lab.runner import PythonRunner, Runner
from snl_tui.lab.sandbox import NAMESPACE_SWITCH, namespace_prefix

SOLUTIONS = Path(__file__).resolve().parent.parent / "tests" / "lab" / "solutions"
C_SOURCE = r"""
#include <stdio.h>
int main(void) {
    static int cells[400], flat[401], dist[401], queue[401];
    int count = 0, c, n = 0, value = 0, sign = 1, digits = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == '-') sign = -1;
        if (c >= '0' && c <= '9') { value = value * 10 + (c - '0'); digits = 1; }
        else if (digits) { cells[count++] = sign * value; value = 0; sign = 1; digits = 0; }
    }
    while (n * n < count) n++;
    for (int level = 0; level < n; level++)
        for (int i = 0; i < n; i++)
            flat[level * n + i + 1] = cells[(n - 1 - level) * n + (level % 2 ? n - 1 - i : i)];
    int goal = n * n, head = 0, tail = 0;
    for (int s = 0; s <= goal; s++) dist[s] = -1;
    dist[1] = 0; queue[tail++] = 1;
    while (head < tail) {
        int s = queue[head++];
        for (int t = s + 1; t <= s + 6 && t <= goal; t++) {
            int end = flat[t] != -1 ? flat[t] : t;
            if (dist[end] < 0) { dist[end] = dist[s] + 1; queue[tail++] = end; }
        }
    }
    printf("%d\n", dist[goal]);
    return 0;
}
"""


def timed_judge(runner: Runner, boards: int, shrinking: bool = True) -> tuple[float, object]:
    began = time.perf_counter()
    verdict = judge(runner, judge_cases(boards, 909), shrinking=shrinking)
    return time.perf_counter() - began, verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--near",
        action="store_true",
        help="also a right solution just under the CPU limit on every board (about 1 min)",
    )
    args = parser.parse_args()

    print(f"snl judge speed, {args.boards:,} boards (best of {args.repeat}):")
    for name in ("correct_textbook.py", "correct_levels.py"):
        times = []
        for _ in range(args.repeat):
            with PythonRunner(SOLUTIONS / name) as runner:
                seconds, verdict = timed_judge(runner, args.boards)
            assert verdict.accepted, verdict  # type: ignore[attr-defined]
            times.append(seconds)
        best = min(times)
        print(
            f"  Python {name:22} {best:6.2f} s  {args.boards / best:8,.0f} boards/s"
            f"  (target: {args.boards:,} in under 10 s: {'met' if best < 10 else 'MISSED'})"
        )

    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        print("  C command: skipped (no C compiler)")
    else:
        with tempfile.TemporaryDirectory() as folder:
            source, program = Path(folder) / "s.c", Path(folder) / "s"
            source.write_text(C_SOURCE, encoding="utf-8")
            subprocess.run([compiler, "-O2", "-o", str(program), str(source)], check=True)
            # In a PID namespace under the runner's init where the machine has them, and
            # as on a machine without (the runner starts each board's command itself).
            for where, switch in (("namespace", ""), ("no namespace", "0")):
                if switch == "" and not namespace_prefix():
                    continue
                os.environ[NAMESPACE_SWITCH] = switch
                times = []
                for _ in range(args.repeat):
                    with CommandRunner([str(program)]) as runner:
                        seconds, verdict = timed_judge(runner, args.boards)
                    assert verdict.accepted, verdict  # type: ignore[attr-defined]
                    times.append(seconds)
                del os.environ[NAMESPACE_SWITCH]
                best = min(times)
                print(
                    f"  C command (a process a board, {where}) {best:6.2f} s  "
                    f"{args.boards / best:8,.0f} boards/s"
                )

    print("time to a verdict at the default CPU limit (one run each):")
    for name in ("correct_textbook.py", "wrong_dfs_memo.py", "slow_correct.py", "wrong_loops.py"):
        with PythonRunner(SOLUTIONS / name) as runner:
            seconds, verdict = timed_judge(runner, args.boards)
        failure = verdict.failure  # type: ignore[attr-defined]
        what = verdict.verdict  # type: ignore[attr-defined]
        if failure is not None:
            proof = failure.proof
            named = proof.mistake.key if proof is not None and proof.mistake else "none named"
            what += f" on {failure.side}x{failure.side}"
            what += f" (mistake: {named})" if what.startswith("wrong") else ""
            if failure.slow:
                measured = failure.scaled.get(failure.side)
                what = f"too slow on {failure.side}x{failure.side}: " + (
                    f"{measured:.1f} s of CPU" if measured is not None else "past 3x the limit"
                )
                power = failure.growth()
                what += f", about n^{power:.1f}" if power is not None else ""
        print(f"  {name:26} {seconds:6.1f} s  {what}")
    if args.near:
        near_the_limit(args.boards)

    print("time to find and shrink a failure (wrong solutions, judged from the first board):")
    for name in sorted(SOLUTIONS.glob("wrong_*.py")):
        times, shrinks = [], []
        for _ in range(args.repeat):
            with PythonRunner(name, time_limit=0.5) as runner:
                seconds, verdict = timed_judge(runner, args.boards)
            failure = verdict.failure  # type: ignore[attr-defined]
            times.append(seconds)
            shrinks.append(failure.shrink_seconds)
        proof = failure.proof
        named = proof.mistake.key if proof is not None and proof.mistake else "-"
        print(
            f"  {name.name:28} {verdict.verdict:8} found on board {verdict.boards:4}"  # type: ignore[attr-defined]
            f" ({failure.found_side}x{failure.found_side}), shrunk to "
            f"{failure.side}x{failure.side} in {failure.shrink_tries:4} tries, "
            f"{min(shrinks) * 1000:6.1f} ms; judged in {min(times):5.2f} s; mistake: {named}"
        )


def near_the_limit(boards: int) -> None:
    """The textbook solution spinning 1.9 s of CPU on every board: right, each board
    within the 2 s limit, stopped by the whole run's CPU budget (60 s)."""
    source = (SOLUTIONS / "correct_textbook.py").read_text(encoding="utf-8")
    spin = (
        "        n = len(board)\n        import time\n        began = time.process_time()\n"
        "        while time.process_time() - began < 1.9:\n            pass\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "near_the_limit.py"
        path.write_text(source.replace("        n = len(board)\n", spin, 1), encoding="utf-8")
        with PythonRunner(path) as runner:
            seconds, verdict = timed_judge(runner, boards)
    failure = verdict.failure  # type: ignore[attr-defined]
    overall = failure.overall if failure is not None else None
    what = (
        f"too slow overall: {overall:.1f} s of CPU over {failure.overall_boards} boards"
        if overall is not None
        else verdict.verdict  # type: ignore[attr-defined]
    )
    print(f"  {'near_the_limit (1.9 s/board)':26} {seconds:6.1f} s  {what}")


if __name__ == "__main__":
    main()
