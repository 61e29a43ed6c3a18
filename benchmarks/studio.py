"""Board studio benchmarks (issue 11 item 6): the generator's part.

``snl generate --size 10 --expected-turns T`` for T in 15, 25, 40, 60 must take at most
2 s each (median over 5 seeds), and at most 10 s on a 20x20 board. Each run is the real
command in a fresh process (start-up and numpy's import included); the generator's own
search time (as it reports it) is shown beside it.

Run:  python benchmarks/studio.py [--seeds 5] [--quick]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

SNL = [sys.executable, "-m", "snl_tui"]
CASES: list[tuple[int, float, float]] = [
    # (size, expected turns, limit in seconds for the median)
    (10, 15, 2.0),
    (10, 25, 2.0),
    (10, 40, 2.0),
    (10, 60, 2.0),
    (20, 40, 10.0),
    (20, 100, 10.0),
]


def run_generate(size: int, turns: float, seed: int) -> tuple[float, float, int, str]:
    """(wall seconds, search seconds, exit code, figures line) of one real run."""
    command = [
        *SNL,
        "generate",
        "--size", str(size),
        "--expected-turns", str(turns),
        "--seed", str(seed),
    ]  # fmt: skip
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=Path(__file__).parent)
    wall = time.perf_counter() - began
    line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    match = re.search(r"([\d.]+) s\)", line)
    search = float(match.group(1)) if match else float("nan")
    return wall, search, done.returncode, line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="10x10 cases only")
    args = parser.parse_args()
    failed = False
    print(f"{'board':>6} {'T':>5} {'median wall':>12} {'max wall':>9} {'median search':>14}  ok")
    for size, turns, limit in CASES:
        if args.quick and size != 10:
            continue
        walls, searches, codes = [], [], []
        for seed in range(1, args.seeds + 1):
            wall, search, code, line = run_generate(size, turns, seed)
            walls.append(wall)
            searches.append(search)
            codes.append(code)
            if code != 0:
                print(f"  seed {seed}: exit {code}: {line}")
        median = statistics.median(walls)
        ok = median <= limit and all(code == 0 for code in codes)
        failed |= not ok
        print(
            f"{size:>3}x{size:<2} {turns:>5g} {median:>10.2f} s {max(walls):>7.2f} s "
            f"{statistics.median(searches):>12.2f} s  {'yes' if ok else 'NO'} (limit {limit:g} s)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
