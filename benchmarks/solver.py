"""Solver speed: ``solve(Board.from_matrix(m))`` against the textbook LeetCode 909 BFS.

The textbook solution keeps a dict of distances and a deque, and converts every square it
visits to (row, col) on the fly. Ours validates the whole matrix, flattens it once into a
landing table and runs a level-by-level BFS that scans each level's roll ranges once; the
route (die values and squares) is included in the timed call.

Both run in this process on the same boards; the figure that matters is the ratio (target:
at most 0.4 at 1000 x 1000). Run:  python benchmarks/solver.py [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import deque

from snl_tui import Board, solve
from snl_tui.core.solver import distances_to_goal


def textbook_bfs(board: list[list[int]]) -> int:
    n = len(board)

    def get(s: int) -> tuple[int, int]:
        quot, rem = divmod(s - 1, n)
        row = n - 1 - quot
        col = rem if row % 2 != n % 2 else n - 1 - rem
        return row, col

    dist = {1: 0}
    queue = deque([1])
    while queue:
        s = queue.popleft()
        if s == n * n:
            return dist[s]
        for s2 in range(s + 1, min(s + 6, n * n) + 1):
            r, c = get(s2)
            if board[r][c] != -1:
                s2 = board[r][c]
            if s2 not in dist:
                dist[s2] = dist[s] + 1
                queue.append(s2)
    return -1


def random_board(n: int, density: float, seed: int) -> list[list[int]]:
    """A LeetCode-style matrix with ``density`` of the squares starting a jump."""
    rng = random.Random(seed)
    goal = n * n
    matrix = [[-1] * n for _ in range(n)]
    for _ in range(int(goal * density)):
        matrix[rng.randrange(n)][rng.randrange(n)] = rng.randint(1, goal)
    matrix[n - 1][0] = -1  # square 1
    matrix[0][n - 1 if (n - 1) % 2 == 0 else 0] = -1  # the goal
    return matrix


def best_time(function, argument, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function(argument)
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    args = parser.parse_args()
    cases = [
        ("20x20, 5% jumps", 20, 0.05),
        ("300x300, 2% jumps", 300, 0.02),
        ("1000x1000, 2% jumps", 1000, 0.02),
        ("1000x1000, 10% jumps", 1000, 0.10),
        ("1000x1000, no jumps", 1000, 0.0),
    ]
    print(f"{'board':<24}{'rolls':>8}{'textbook s':>13}{'snl s':>10}{'ratio':>8}")
    for label, n, density in cases:
        matrix = random_board(n, density, seed=n)
        repeat = args.repeat if n >= 300 else args.repeat * 50
        textbook_time, expected = best_time(textbook_bfs, matrix, repeat)
        ours_time, solution = best_time(lambda m: solve(Board.from_matrix(m)), matrix, repeat)
        assert solution.moves == expected, (label, solution.moves, expected)
        ratio = ours_time / textbook_time
        print(f"{label:<24}{expected:>8}{textbook_time:>13.4f}{ours_time:>10.4f}{ratio:>8.2f}")
    print("target: ratio <= 0.40 at 1000x1000 (whole call: validation, BFS and route)")
    # The hint panel's table (least rolls from every square at once), for the record.
    board = Board.from_matrix(random_board(1000, 0.02, seed=1000))
    started = time.perf_counter()
    distances_to_goal(board)
    elapsed = time.perf_counter() - started
    print(f"distances_to_goal (every square) on 1000x1000, 2% jumps: {elapsed:.3f} s")


if __name__ == "__main__":
    main()
