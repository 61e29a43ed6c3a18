"""Routing the drawn jumps (issue 35 item 5): how long it takes and what it still hides.

For each built-in board (and the designer's 8x8 of the issue, where the snake 46->30
ran over the snake 35->14): the CPU time of ``geometry.jump_paths`` on a fresh board
(median of ``--repeat`` runs, each in the same process on a new board object), how many
jumps still hide something and how many things they hide in all, and the wall time of
``snl export classic -o page.svg`` as a person runs it (a fresh process each time;
median of ``--repeat``). ``--before REF`` does the same with that commit's ``snl_tui``
(exported to a temporary folder) in the same run, so the two are measured side by side
on the same machine under the same load. CPU time, not wall time, for the routing: the
machine is shared.

Run:  python benchmarks/routing.py [--before REF] [--repeat 5] [--boards a,b,...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DESIGNER = """name = "designer 8x8"
size = 8
ladders = [[3, 22], [11, 27], [20, 41], [36, 58]]
snakes = [[46, 30], [35, 14], [62, 43], [55, 38], [25, 6]]
"""

ROUTE_SCRIPT = """
import json, statistics, sys, time
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.geometry import jump_paths, overlaps
try:  # the routing itself, not the built-in boards' stored routings (issue 45)
    from snl_tui.core.geometry.routing import Router
    def route(board):
        return Router(board).run()
except ImportError:
    route = jump_paths

rows = []
for spec in sys.argv[2:]:
    loaded = load_board(spec)
    seconds = []
    for _ in range(int(sys.argv[1])):
        board = Board(loaded.rows, loaded.cols, list(loaded.jumps.items()), rules=loaded.rules)
        began = time.process_time()
        route(board)
        seconds.append(time.process_time() - began)
    hiding = overlaps(board)
    rows.append({
        "board": spec,
        "seconds": statistics.median(seconds),
        "jumps": len(loaded.jumps),
        "hiding": len(hiding),
        "hidden": sum(len(overlap.hidden) for overlap in hiding),
    })
print(json.dumps(rows))
"""


def route(source: Path, specs: list[str], repeat: int) -> list[dict[str, object]]:
    """The routing's figures for ``specs`` with the ``snl_tui`` in ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", ROUTE_SCRIPT, str(repeat), *specs],
        capture_output=True,
        text=True,
        env=env,
        cwd=source,
        timeout=3600,
        check=True,
    )
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows


def export_seconds(source: Path, folder: Path, repeat: int) -> float:
    """Median wall time of ``snl export classic -o page.svg`` with ``source``'s snl."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "snl_tui",
                "export",
                "classic",
                "-o",
                str(folder / "page.svg"),
                "--force",
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=source,
            timeout=600,
        )
        times.append(time.perf_counter() - began)
        if done.returncode:
            raise SystemExit(f"snl export failed ({source}): {done.stderr.strip()}")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a git ref to compare with (e.g. main)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--boards", help="board names or files, comma-separated")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        designer = folder / "designer-8x8.toml"
        designer.write_text(DESIGNER)
        if args.boards:
            specs = args.boards.split(",")
        else:
            sys.path.insert(0, str(root))
            from snl_tui.core.files.formats import builtin_names

            specs = [*builtin_names(), str(designer)]
        sources = [("now", root)]
        if args.before:
            archive = subprocess.run(
                ["git", "archive", args.before, "snl_tui", "boards"],
                cwd=root,
                capture_output=True,
                check=True,
            )
            before = folder / "before"
            before.mkdir()
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
            sources.insert(0, (f"before ({args.before})", before))
        results = {label: route(source, specs, args.repeat) for label, source in sources}
        print(
            f"{'board':<16} {'jumps':>5}"
            + "".join(f" {label[:22]:>22} {'hiding':>7} {'hidden':>7}" for label, _ in sources)
        )
        print(
            f"{'':<16} {'':>5}" + f" {'routing CPU':>22} {'jumps':>7} {'things':>7}" * len(sources)
        )
        for index, spec in enumerate(specs):
            name = Path(spec).stem if spec.endswith(".toml") else spec
            line = f"{name:<16} {results[sources[0][0]][index]['jumps']:>5}"
            for label, _ in sources:
                row = results[label][index]
                line += f" {float(row['seconds']):>20.3f} s {row['hiding']:>7} {row['hidden']:>7}"  # type: ignore[arg-type]
            print(line)
        print()
        for label, source in sources:
            seconds = export_seconds(source, folder, args.repeat)
            print(f"snl export classic -o page.svg ({label}): {seconds:.3f} s wall, median")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
