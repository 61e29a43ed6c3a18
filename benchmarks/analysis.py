"""Analysis speed: ``analyze(board, players=4)`` against a plain-Python forward iteration.

The plain version is what one writes first: build the move table with the engine, then
push a dict of probability mass forward one turn at a time (expanding extra rolls under
``six_again``) until less than 1e-12 is left, and read the expected turns, the median and
four seats' win chances off the finishing-turn distribution. It answers for the start
square only.

``analyze`` does more: expected turns from every square (one linear solve), the
distribution from every square (the table the game reads after each move), traps. The
timed call starts cold (the per-board cache is cleared each run); "warm" is a repeat call
on the cached board, which is what the game pays after every move.

Target: analyze at most 0.05 x the plain time. Then ``snl check``'s work at 50 x 50 with
1000 jumps (target under 5 s) and the fast ``expected_turns`` per board (a generator's
inner loop). Run:  python benchmarks/analysis.py
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import TypeVar

from snl_tui import Board, Rules, load_board
from snl_tui.core.analysis import Analysis, analyze, clear_cache
from snl_tui.core.chain import expected_turns
from snl_tui.core.checks import check_board
from snl_tui.core.engine import next_position

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
    args = parser.parse_args()
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
    check_figures()
    fast_expectation_figures(args.repeat)


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
