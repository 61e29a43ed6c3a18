"""Analysis speed (issue 21): every figure against its target, ratios in one run.

1. ``analyze(board, players=4)`` against a plain-Python forward iteration on small boards
   (both must agree; target: analyze at most 0.05 x the plain time, cold cache).
2. ``analyze(players=4)`` on 50 x 50 boards in process, cold (target 50 ms), and the
   same with every figure of ``snl analyze`` asked (accuracy included).
3. ``snl analyze`` against ``snl solve`` on the same 50 x 50 board file, as processes
   started the same way (target: at most 3x), with their peak memory (target under
   100 MB for analyze).
4. Expected turns (and std) on 1000 x 1000 boards, cold (target 2 s).
5. ``snl check``'s work at 50 x 50 with 1000 jumps, and the fast ``expected_turns``
   per board (a generator's inner loop).
6. A 1000 x 1000 JSON matrix loaded (target: at most 2x ``json.load`` of the file) and
   ``distances_to_goal`` against the forward search ``solve`` (target: at most 2x).

Items 2-4 run twice in child processes, each timing scipy's import where the figure needs
scipy (as the command does): with the BLAS threads limited to one
(``OPENBLAS_NUM_THREADS=1`` and friends) and with the default. Run:
python benchmarks/analysis.py  (``--quick`` skips the 1000 x 1000 boards)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import TypeVar

from snl_tui import Board, Rules, load_board
from snl_tui.core.engine import next_position
from snl_tui.core.files.formats import dump_board
from snl_tui.core.odds.analysis import Analysis, analyze, clear_cache
from snl_tui.core.odds.markov import expected_turns
from snl_tui.core.solver import distances_to_goal, solve
from snl_tui.core.studio.checks import check_board

T = TypeVar("T")
TOLERANCE = 1e-12


def plain_odds(board: Board, players: int = 4) -> tuple[float, int, list[float]]:
    """(expected turns, median, win chances) by forward iteration with dicts and lists."""
    goal, faces, again = board.goal, board.rules.faces, board.rules.six_again
    moves = [[next_position(board, p, d) for d in range(1, faces + 1)] for p in range(goal)]
    share = 1.0 / faces
    mass = {board.rules.start_position: 1.0}
    cdf = [0.0]
    finished = 0.0
    while 1.0 - finished > TOLERANCE and len(cdf) < 1_000_000:
        following: dict[int, float] = {}
        pending = mass
        while pending:  # the rolls of one turn; top faces roll again under six_again
            extra: dict[int, float] = {}
            for here, weight in pending.items():
                w = weight * share
                for face, there in enumerate(moves[here], start=1):
                    if there == goal:
                        finished += w
                    elif again and face == faces:
                        extra[there] = extra.get(there, 0.0) + w
                    else:
                        following[there] = following.get(there, 0.0) + w
            pending = {p: m for p, m in extra.items() if m > 1e-20}
        mass = following
        cdf.append(finished)
    expected = sum(1.0 - c for c in cdf)
    median = next(t for t, c in enumerate(cdf) if c >= 0.5)
    # Seat r wins at turn t: it finishes then, earlier seats not within t, later ones not
    # within t - 1 (every seat starts on the same square, so one distribution serves).
    wins = [0.0] * players
    for t in range(1, len(cdf)):
        exact = cdf[t] - cdf[t - 1]
        for seat in range(players):
            wins[seat] += (
                exact * (1.0 - cdf[t]) ** seat * (1.0 - cdf[t - 1]) ** (players - 1 - seat)
            )
    return expected, median, wins


def seeded_board(side: int, jumps: int, seed: int, rules: Rules) -> Board:
    """A side x side board with ``jumps`` random snakes and ladders, the same every run."""
    rng = random.Random(seed)
    goal = side * side
    table: dict[int, int] = {}
    while len(table) < jumps:
        start = rng.randrange(2, goal)
        end = rng.randrange(max(1, start - goal // 4), min(goal, start + goal // 4) + 1)
        if end != start and start not in table:
            table[start] = end
    return Board(side, side, table.items(), rules=rules, name=f"seeded {side}x{side}")


def best_time(function: Callable[[], T], repeat: int) -> tuple[float, T]:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    return best, result  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (best is kept)")
    parser.add_argument("--quick", action="store_true", help="skip the 1000 x 1000 boards")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # a figure in a child process
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child_figure(args.child)))
        return
    cases = [
        ("classic 10x10", load_board("classic")),
        ("everest 20x20", load_board("everest")),
        ("seeded 16x16", seeded_board(16, 40, seed=16, rules=Rules(start=0))),
        (
            "seeded 20x20 six_again",
            seeded_board(20, 60, seed=20, rules=Rules(start=0, overshoot="bounce", six_again=True)),
        ),
    ]
    header = (
        f"{'board':<24}{'E turns':>10}{'median':>8}{'seat 1':>9}{'turns':>7}"
        f"{'plain ms':>10}{'snl ms':>9}{'warm ms':>9}{'ratio':>8}"
    )
    print(header)
    print("-" * len(header))
    worst = 0.0
    for label, board in cases:
        plain_s, (plain_e, plain_median, plain_wins) = best_time(
            lambda board=board: plain_odds(board), max(1, args.repeat // 2)
        )

        def cold(board: Board = board) -> Analysis:
            clear_cache()
            a = analyze(board, players=4)
            a.expected_turns, a.median_turns  # noqa: B018 - the figures the plain one has
            return a

        snl_s, a = best_time(cold, args.repeat)
        warm_s, _ = best_time(lambda board=board: analyze(board, players=4), args.repeat)
        # Both sides must tell the same story before their speeds mean anything.
        assert abs(a.expected_turns - plain_e) < 1e-8 * plain_e, (a.expected_turns, plain_e)
        assert a.median_turns == plain_median
        assert all(abs(x - y) < 1e-9 for x, y in zip(a.win_chances, plain_wins, strict=True))
        ratio = snl_s / plain_s
        worst = max(worst, ratio)
        print(
            f"{label:<24}{a.expected_turns:>10.4f}{a.median_turns:>8}"
            f"{a.win_chances[0]:>9.2%}{a.horizon:>7}{plain_s * 1e3:>10.1f}"
            f"{snl_s * 1e3:>9.1f}{warm_s * 1e3:>9.2f}{ratio:>8.3f}"
        )
    print("-" * len(header))
    verdict = "meets" if worst <= 0.05 else "MISSES"
    print(f"worst ratio {worst:.3f} ({verdict} the 0.05 target); 4 players, cold cache")
    cli_figures()
    check_figures()
    fast_expectation_figures(args.repeat)
    thread_figures(args.quick)
    if not args.quick:
        path_figures()


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def board_50(jumps: int) -> Board:
    return seeded_board(50, jumps, seed=50, rules=Rules())


def warm_imports() -> None:
    """What ``snl analyze`` has loaded before it analyses (the package and numpy) out of
    the timing; scipy stays in it: a figure that needs scipy's sparse solver or graph
    search pays its import, as the command does (a 3 x 3 board's analysis needs none)."""
    assert analyze(Board(3, 3), players=2).expected_turns > 0


def child_figure(name: str) -> dict[str, float]:
    """One figure measured in this (child) process: wall seconds, CPU seconds, and the
    peak memory in MB of the whole process."""
    if name.startswith("analyze50-"):
        board = board_50(int(name.split("-")[1]))
        warm_imports()
        clear_cache()
        work = lambda: analyze(board, players=4).win_chances  # noqa: E731
    elif name.startswith("report50-"):
        board = board_50(int(name.split("-")[1]))
        warm_imports()
        clear_cache()

        def work() -> object:
            from snl_tui.core.odds.report import analysis_json
            from snl_tui.core.odds.summary import summarize

            return analysis_json(summarize(analyze(board, players=4)))

    elif name.startswith("expected1000-"):
        board = seeded_board(1000, int(name.split("-")[1]), seed=1000, rules=Rules())
        warm_imports()
        clear_cache()

        def work() -> object:
            a = analyze(board)
            return a.expected_turns, a.std_turns

    else:
        raise SystemExit(f"unknown figure {name}")
    started, cpu = time.perf_counter(), time.process_time()
    work()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"wall": wall, "cpu": cpu, "peak_mb": peak_mb()}


def peak_mb() -> float:
    """This process's peak resident memory in MB: the kernel's high-water mark of its
    own address space (``VmHWM``). ``ru_maxrss`` is not that on Linux: it keeps the
    peak of the forked copy of the parent from before ``exec`` (the benchmark's own
    process, 140 MB by then), which a child started later would report as its own."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_child(name: str, one_thread: bool) -> dict[str, float]:
    env = dict(os.environ)
    for key in BLAS_THREADS:
        if one_thread:
            env[key] = "1"
        else:
            env.pop(key, None)
    out = subprocess.run(
        [sys.executable, __file__, "--child", name], env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(out.stderr)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def thread_figures(quick: bool) -> None:
    """Items 2 and 4, each with one BLAS thread and with the default."""
    cases = [
        ("analyze50-100", "analyze(players=4) 50x50, 100 jumps", 0.05),
        ("analyze50-1000", "analyze(players=4) 50x50, 1000 jumps", 0.05),
        ("report50-100", "every figure of snl analyze 50x50, 100 jumps", None),
    ]
    if not quick:
        cases += [
            ("expected1000-0", "E and std on 1000x1000, no jumps", 2.0),
            ("expected1000-2000", "E and std on 1000x1000, 2000 jumps", 2.0),
        ]
    print()
    print(f"{'figure':<48}{'threads':>8}{'wall s':>9}{'cpu s':>8}{'peak MB':>9}  target")
    for name, label, target in cases:
        for one in (True, False):
            # Each run is a fresh process (a cold analysis); the machine's speed varies
            # between processes by up to 2x here, so the small figures take the best of
            # five and the 1000 x 1000 ones (seconds each) of two.
            runs = 2 if name.startswith("expected1000") else 5
            best = min((run_child(name, one) for _ in range(runs)), key=lambda r: r["wall"])
            verdict = ""
            if target is not None:
                verdict = f"{target:g} s: {'meets' if best['wall'] <= target else 'MISSES'}"
            print(
                f"{label:<48}{'1' if one else 'default':>8}{best['wall']:>9.3f}"
                f"{best['cpu']:>8.3f}{best['peak_mb']:>9.0f}  {verdict}"
            )


def cli_figures() -> None:
    """Item 3: ``snl analyze`` against ``snl solve`` on one 50 x 50 file, as processes
    (the console script), best of eleven each, alternating, with their peak memory."""
    snl = os.path.join(os.path.dirname(sys.executable), "snl")
    with tempfile.TemporaryDirectory() as temp:
        for jumps in (100, 1000):
            path = os.path.join(temp, f"board{jumps}.toml")
            with open(path, "w") as handle:
                handle.write(dump_board(board_50(jumps), "toml"))
            best = {"solve": math.inf, "analyze": math.inf}
            pairs = []
            # Alternating, best of 11: the two commands see the same machine load (and the
            # median of the pairs' ratios, which one slow moment does not move).
            for _ in range(11):
                pair = {}
                for command in ("solve", "analyze"):
                    started = time.perf_counter()
                    subprocess.run([snl, command, path], check=True, capture_output=True)
                    pair[command] = time.perf_counter() - started
                    best[command] = min(best[command], pair[command])
                pairs.append(pair["analyze"] / pair["solve"])
            times = {command: (best[command], cli_peak(command, path)) for command in best}
            ratio = times["analyze"][0] / times["solve"][0]
            print(
                f"snl analyze 50x50 ({jumps} jumps): {times['analyze'][0]:.3f} s, "
                f"snl solve {times['solve'][0]:.3f} s: {ratio:.1f}x "
                f"({'meets' if ratio <= 3 else 'MISSES'} the 3x target; median of the "
                f"pairs {statistics.median(pairs):.1f}x); "
                f"peak memory: solve {times['solve'][1]:.0f} MB, "
                f"analyze {times['analyze'][1]:.0f} MB"
            )


PEAK_PROBE = """
import sys
from snl_tui.cli.main import run
sys.argv = ["snl", *sys.argv[1:]]
try:
    run()
finally:
    with open("/proc/self/status") as status:
        peak = [line.split()[1] for line in status if line.startswith("VmHWM:")]
    print(int(peak[0]) / 1024, file=sys.stderr)
"""


def cli_peak(command: str, path: str) -> float:
    """The peak memory in MB of ``snl COMMAND PATH``, read by the process itself at its
    end (``VmHWM``; see ``peak_mb``), or nan where /proc is not there."""
    out = subprocess.run(
        [sys.executable, "-c", PEAK_PROBE, command, path], capture_output=True, text=True
    )
    try:
        return float(out.stderr.split()[-1])
    except (ValueError, IndexError):
        return math.nan


def path_figures() -> None:
    """Item 6: a 1000 x 1000 JSON matrix and ``distances_to_goal``."""
    from snl_tui.core.files.formats import load_board as load

    board = seeded_board(1000, 2000, seed=1000, rules=Rules())
    with tempfile.TemporaryDirectory() as temp:
        path = os.path.join(temp, "big.json")
        with open(path, "w") as handle:
            handle.write(dump_board(board, "matrix"))

        def plain() -> object:
            with open(path) as handle:
                return json.load(handle)

        plain_s = min(_timed(plain) for _ in range(3))
        load_s = min(_timed(lambda: load(path)) for _ in range(3))
    ratio = load_s / plain_s
    print(
        f"1000x1000 JSON matrix: load_board {load_s:.3f} s, json.load {plain_s:.3f} s: "
        f"{ratio:.2f}x ({'meets' if ratio <= 2 else 'MISSES'} the 2x target)"
    )
    solve_s = min(_timed(lambda: solve(board)) for _ in range(3))
    fresh = [seeded_board(1000, 2000, seed=1000, rules=Rules()) for _ in range(3)]
    dist_s = min(_timed(lambda b=b: distances_to_goal(b)) for b in fresh)
    ratio = dist_s / solve_s
    print(
        f"1000x1000 distances_to_goal {dist_s:.3f} s, solve {solve_s:.3f} s: {ratio:.1f}x "
        f"({'meets' if ratio <= 2 else 'MISSES'} the 2x target)"
    )


def check_figures() -> None:
    """``snl check``'s work (findings, traps, per-jump impacts) at the analysis limit:
    50 x 50 with 1000 jumps; target under 5 s (issue 10, item 10)."""
    board = seeded_board(50, 1000, seed=50, rules=Rules())
    clear_cache()
    started = time.perf_counter()
    report = check_board(board)
    elapsed = time.perf_counter() - started
    verdict = "meets" if elapsed < 5.0 else "MISSES"
    print(
        f"check 50x50, {len(board.jumps)} jumps: {elapsed:.2f} s, "
        f"{len(report.warnings)} warnings ({verdict} the 5 s target)"
    )


def fast_expectation_figures(repeat: int) -> None:
    """``chain.expected_turns``: one small solve per board, a generator's inner loop."""
    boards = [seeded_board(10, 12, seed=s, rules=Rules(start=0)) for s in range(200)]
    best = min(_timed(lambda: [expected_turns(board) for board in boards]) for _ in range(repeat))
    print(f"expected_turns on 10x10 boards (12 jumps): {best / len(boards) * 1e6:.0f} us each")
    boards = [seeded_board(20, 40, seed=s, rules=Rules(start=0)) for s in range(50)]
    best = min(_timed(lambda: [expected_turns(board) for board in boards]) for _ in range(repeat))
    print(f"expected_turns on 20x20 boards (40 jumps): {best / len(boards) * 1e6:.0f} us each")


def _timed(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
