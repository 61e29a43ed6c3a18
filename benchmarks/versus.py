"""The odds engine before and after a change, in one run: each figure measured with two
checkouts' interpreters in turn (alternating, so both see the same machine load), best
of N each, and the ratio after / before.

Commands are the real ``snl`` in a fresh process (start-up and every import included,
as a user pays them); the in-process figures time one call in a fresh process after
importing only what the command line has imported by then (``snl_tui`` and numpy: never
scipy, which a figure that needs it pays for itself). Boards are written once to a
temporary folder with this checkout's code (the same bytes for both).

Run:  python benchmarks/versus.py --before /path/to/old/checkout/.venv/bin/python
      [--runs 5] [--quick] [--only TEXT]   (``--quick``: no 1000 x 1000 boards;
      ``--only``: the figures whose label holds TEXT)
An interpreter that imports the old checkout will do (a script running a venv's python
with ``PYTHONPATH`` set to the old tree: its ``snl_tui`` comes first).
The figures are process times (user + system CPU of the child), which a second process on
the other core disturbs less than wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from analysis import seeded_board  # this folder's: the same boards as its figures

from snl_tui import Board, Rules, load_board
from snl_tui.core.files.formats import dump_board

IN_PROCESS = {
    "analyze(players=4) 50x50, 100 jumps": (
        "a = analyze(board, players=4); a.win_chances; a.expected_turns"
    ),
    "analyze(players=4) 50x50, 1000 jumps": (
        "a = analyze(board, players=4); a.win_chances; a.expected_turns"
    ),
    "expected_turns x200, 10x10 boards": "[expected_turns(b) for b in boards]",
    "expected_turns x20, 10x10 three sixes": "[expected_turns(b) for b in boards]",
    "analyze 10x10 with a trap": "a = analyze(board); a.expected_turns; a.finish_within(50)",
    "jump_impacts 20x20, 60 jumps": "jump_impacts(board)",
}

CHILD = """
import sys, time, resource
try:
    from snl_tui.core.files.formats import load_board
    from snl_tui.core.odds.analysis import analyze
    from snl_tui.core.odds.markov import expected_turns
    from snl_tui.core.studio.impacts import jump_impacts
except ImportError:  # a checkout from before the core's packages (issue 30)
    from snl_tui.core.formats import load_board
    from snl_tui.core.analysis import analyze
    from snl_tui.core.chain import expected_turns
    from snl_tui.core.impacts import jump_impacts
import numpy
paths = sys.argv[1:]
board = load_board(paths[0])
boards = [load_board(p) for p in paths[1:]]
before = resource.getrusage(resource.RUSAGE_SELF)
{work}
after = resource.getrusage(resource.RUSAGE_SELF)
print(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
"""


def cpu_of_command(python: str, args: list[str], where: str) -> float:
    """CPU seconds of ``python -m snl_tui ARGS`` (the child's own, not ours), run in
    ``where``: not a checkout, whose ``snl_tui`` folder would come first on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "snl_tui", *args], capture_output=True, check=False, cwd=where)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cpu_in_process(python: str, work: str, paths: list[str], where: str) -> float:
    out = subprocess.run(
        [python, "-c", CHILD.format(work=work), *paths], capture_output=True, text=True, cwd=where
    )
    if out.returncode:
        raise SystemExit(out.stderr)
    return float(out.stdout.split()[-1])


def start_up(before: str, after: str, runs: int, where: str) -> None:
    """``snl solve classic`` over ``python -c pass`` for each side (issue 43: at most 3):
    what a quick command costs beyond the interpreter's own start."""
    best: dict[tuple[str, str], float] = {}
    for _ in range(max(runs, 20)):
        for side, python in (("before", before), ("after", after)):
            for label, argv in (
                ("pass", ["-c", "pass"]),
                ("solve", ["-m", "snl_tui", "solve", "classic"]),
            ):
                child = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([python, *argv], capture_output=True, check=False, cwd=where)
                done = resource.getrusage(resource.RUSAGE_CHILDREN)
                spent = done.ru_utime + done.ru_stime - child.ru_utime - child.ru_stime
                best[side, label] = min(best.get((side, label), float("inf")), spent)
    for side in ("before", "after"):
        ratio = best[side, "solve"] / best[side, "pass"]
        label = f"{side}: python -c pass, snl solve classic, x"
        print(f"{label:<44}{best[side, 'pass']:>9.3f}{best[side, 'solve']:>9.3f}{ratio:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the old checkout's python")
    parser.add_argument("--after", default=sys.executable, help="the new one (this one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="", help="the figures whose label holds this")
    args = parser.parse_args()
    env_threads = {key: "1" for key in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    os.environ.update(env_threads)
    # A user's snl runs from bytecode caches: a shell that forbids writing them would
    # time the compiler instead.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as temp:

        def written(name: str, board: Board) -> str:
            path = str(Path(temp) / f"{name}.toml")
            Path(path).write_text(dump_board(board, "toml"))
            return path

        b100 = written("b100", seeded_board(50, 100, 50, Rules()))
        b1000 = written("b1000", seeded_board(50, 1000, 50, Rules()))
        b20 = written("b20", seeded_board(20, 60, 20, Rules(start=0)))
        small = [written(f"s{s}", seeded_board(10, 12, s, Rules(start=0))) for s in range(200)]
        classic = written("classic", load_board("classic"))
        three = Rules(start=0, six_again=True, three_sixes=True)
        threes = [written(f"t{s}", seeded_board(10, 12, s, three)) for s in range(20)]
        # Squares 21..26 all snakes to 20: 20 is doomed, and the squares before it may
        # finish (systems over some of the positions).
        trap = written("trap", Board(10, 10, [(s, 20) for s in range(21, 27)] + [(40, 90)]))
        commands: list[tuple[str, list[str]]] = [
            ("snl solve classic", ["solve", "classic"]),
            ("snl analyze classic", ["analyze", classic]),
            (
                "snl analyze classic --three-sixes",
                ["analyze", classic, "--six-again", "--three-sixes"],
            ),
            (
                "snl analyze classic --players 4 --json",
                ["analyze", classic, "--players", "4", "--json"],
            ),
            ("snl analyze 50x50/100 --players 4", ["analyze", b100, "--players", "4"]),
            ("snl analyze 50x50/1000 --players 4", ["analyze", b1000, "--players", "4"]),
            ("snl check classic", ["check", classic]),
            ("snl check 50x50/1000", ["check", b1000]),
            ("snl generate 10x10 E=25", ["generate", "--size", "10", "--expected-turns", "25"]),
            (
                "snl generate 10x10 E=40 edge 0.02",
                [
                    "generate",
                    "--size",
                    "10",
                    "--expected-turns",
                    "40",
                    "--max-first-seat-edge",
                    "0.02",
                ],
            ),
            ("snl generate 20x20 E=40", ["generate", "--size", "20", "--expected-turns", "40"]),
        ]
        if not args.quick:
            big = written("big", seeded_board(1000, 2000, 1000, Rules()))
            plain = written("plain", seeded_board(1000, 0, 1000, Rules()))
            commands += [
                ("snl analyze 1000x1000/2000", ["analyze", big]),
                ("snl analyze 1000x1000/0", ["analyze", plain]),
            ]
        papers = {
            "analyze(players=4) 50x50, 100 jumps": [b100],
            "analyze(players=4) 50x50, 1000 jumps": [b1000],
            "expected_turns x200, 10x10 boards": [small[0], *small],
            "expected_turns x20, 10x10 three sixes": [threes[0], *threes],
            "analyze 10x10 with a trap": [trap],
            "jump_impacts 20x20, 60 jumps": [b20],
        }
        title = f"figure (CPU s, best of {args.runs})"
        print(f"{title:<44}{'before':>9}{'after':>9}{'ratio':>8}")
        worst = 0.0
        for label, argv in commands:
            if args.only not in label:
                continue
            best = {"before": float("inf"), "after": float("inf")}
            for _ in range(args.runs):
                for side, python in (("before", args.before), ("after", args.after)):
                    best[side] = min(best[side], cpu_of_command(python, argv, temp))
            ratio = best["after"] / best["before"]
            worst = max(worst, ratio)
            print(f"{label:<44}{best['before']:>9.3f}{best['after']:>9.3f}{ratio:>8.2f}")
        if "solve classic" in args.only or not args.only:
            start_up(args.before, args.after, args.runs, temp)
        for label, work in IN_PROCESS.items():
            if args.only not in label:
                continue
            best = {"before": float("inf"), "after": float("inf")}
            for _ in range(args.runs):
                for side, python in (("before", args.before), ("after", args.after)):
                    best[side] = min(best[side], cpu_in_process(python, work, papers[label], temp))
            ratio = best["after"] / best["before"]
            worst = max(worst, ratio)
            print(f"{label:<44}{best['before']:>9.4f}{best['after']:>9.4f}{ratio:>8.2f}")
        print(f"worst ratio {worst:.2f} (target: at most 1.25)")
        for side, python in (("before", args.before), ("after", args.after)):
            where = subprocess.run(
                [python, "-c", "import snl_tui; print(snl_tui.__file__)"],
                capture_output=True,
                text=True,
                cwd=temp,
            )
            print(f"{side}: {where.stdout.strip()}")


if __name__ == "__main__":
    main()
