"""Huge boards: what ``snl check``, ``export``, ``play`` and ``convert`` cost, by board size.

Run: ``python benchmarks/huge_boards.py [--sizes 100,300,1000] [--limit SECONDS]``.

For each size N, a random N x N jump list with N*N/10 jumps (1000 x 1000: 100,000 jumps,
the board of issue 36) is written to a temporary folder, and each command runs in a
process of its own, as a person runs it: its wall time, its peak memory (``ru_maxrss``
of the finished process, i.e. VmHWM), its CPU time (the figure to compare on a shared
machine) and its exit status and last line are printed.
A command still running after ``--limit`` seconds (default 120) is killed and reported
as such. ``play`` is the real game, headless: from starting the process to the game on
screen with its panels and the solver's answer, then one roll; the size guard of ``snl
play`` is measured through the command line itself (``snl play FILE``, which refuses a
board over its bound before anything starts).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAY_CHILD = """
import asyncio, sys
from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board

async def play(path):
    app = SnlApp(load_board(path), (Player("You"),), seed=1, animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.game_screen
        while not screen.ready:
            await pilot.pause(0.05)
        screen.action_roll()
        while not screen.game.history or screen.busy:
            await pilot.pause(0.05)
    print("played one roll")

try:
    from snl_tui.cli.play import check_playable  # the guard of snl play, where there is one
except ImportError:
    check_playable = None
if check_playable is not None:
    from snl_tui.core.errors import SnlError
    try:
        check_playable(load_board(sys.argv[1]))
    except SnlError as error:
        print(error)
        sys.exit(2)
asyncio.run(play(sys.argv[1]))
"""


def write_board(folder: Path, side: int, seed: int = 36) -> Path:
    squares = side * side
    rng = random.Random(seed)
    starts = rng.sample(range(2, squares), squares // 10)
    path = folder / f"board-{side}.txt"
    with path.open("w") as file:
        file.write(f"{side} {side}\n")
        for start in starts:
            end = rng.randrange(1, squares + 1)
            while end == start:
                end = rng.randrange(1, squares + 1)
            file.write(f"{start} {end}\n")
    return path


def run(words: list[str], limit: float, cwd: Path) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak MB, what it said last or how it ended) of one
    command. On a shared machine the CPU time is the figure to compare: the wall time
    grows with the others' load."""
    said = cwd / "output.txt"  # a file, not a pipe: a long report must not block on it
    began = time.monotonic()
    with said.open("w") as output:
        process = subprocess.Popen(words, cwd=cwd, stdout=output, stderr=subprocess.STDOUT)
    deadline = began + limit
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            pid, status, usage = os.wait4(process.pid, 0)
            process.returncode = -9
            cpu = usage.ru_utime + usage.ru_stime
            return time.monotonic() - began, cpu, usage.ru_maxrss / 1024, f"killed at {limit:.0f} s"
        time.sleep(0.05)
    seconds = time.monotonic() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    lines = [line for line in said.read_text(errors="replace").splitlines() if line.strip()]
    last = lines[-1][:90] if lines else ""
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss / 1024, f"exit {process.returncode}: {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,300,1000")
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--commands", default="check,export,play,convert")
    args = parser.parse_args()
    snl = [sys.executable, "-m", "snl_tui"]
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        print(f"{'board':>22}  {'command':<8} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}  result")
        for side in (int(size) for size in args.sizes.split(",")):
            board = write_board(folder, side)
            label = f"{side}x{side}, {side * side // 10:,} jumps"
            commands = {
                "check": [*snl, "check", str(board)],
                "export": [*snl, "export", str(board), "-o", str(folder / "page.svg")],
                "convert": [*snl, "convert", str(board), "--to", "toml"],
                "play": [sys.executable, "-c", PLAY_CHILD, str(board)],
            }
            for name in args.commands.split(","):
                wall, cpu, peak, result = run(commands[name], args.limit, folder)
                print(
                    f"{label:>22}  {name:<8} {wall:7.1f} {cpu:7.1f} {peak:8.0f}  {result}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
