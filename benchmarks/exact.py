"""``snl analyze --exact``: time and fraction sizes of the exact win chances (issue 21).

For each seat count and board size, the hardest boards we know: a snake from near the
goal down to square 2 puts every square on a loop (the turn matrix then has as many
non-zero eigenvalues as positions, which is what the fractions' size and the work grow
with), under the default rules and the rules that make the fractions largest
(``six_again`` and ``three_sixes`` on a 6- and a 20-sided die, a 20-sided die). Prints per
board: positions, non-zero eigenvalues, process time, and the digits of the largest
numerator and denominator; then classic and the built-in boards.

Run: python benchmarks/exact.py [--seats 2 3 4] [--sides 4 5 6 7 8 12] [--quick] [--past]
(``--quick``: default rules only). Boards up to the --exact limits for their rules, and
one size past them under default rules (every rule set with ``--past``, which takes
minutes, and three seats on classic). Times are process times, the CRT primes found
afresh for each board as by a new ``snl`` process. The default run takes about ten
minutes, three of them for four seats on a 6 x 6 (one size past the limit).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from snl_tui import Board, Rules, load_board
from snl_tui.core.odds import exact_wins
from snl_tui.core.odds.exact import integer_text, seat_squares
from snl_tui.core.odds.exact_wins import _HadamardSums, _TurnChain, win_chances

RULES: dict[str, dict[str, object]] = {
    "default": {},
    "six_again": {"six_again": True},
    "six_again d20": {"six_again": True, "faces": 20},
    "three_sixes": {"six_again": True, "three_sixes": True},
    "three_sixes d20": {"six_again": True, "three_sixes": True, "faces": 20},
    "d20": {"faces": 20},
}


def looped(rows: int, cols: int, **rules: object) -> Board:
    goal = rows * cols
    jumps = [(goal - 7, 2)] if goal >= 10 else [(goal - 2, 2)]
    return Board(rows, cols, jumps, rules=Rules(**rules))  # type: ignore[arg-type]


def digits(values: list[Fraction]) -> tuple[int, int]:
    return (
        max(len(integer_text(abs(v.numerator))) for v in values),
        max(len(integer_text(v.denominator)) for v in values),
    )


def measure(name: str, board: Board, seats: int) -> None:
    chain = _TurnChain(board)
    nonzero = _HadamardSums(chain).degree if chain.size and not chain.start_on_goal else 0
    exact_wins._PRIMES.clear()  # found again, as by a fresh snl process
    start = time.process_time()
    wins = win_chances(board, seats)
    elapsed = time.process_time() - start
    top, bottom = digits(wins)
    limit = seat_squares(board, seats)
    mark = "" if board.goal <= limit else f"  (past the --exact limit of {limit} squares)"
    print(
        f"{seats} seats  {name:<34} positions {chain.size:>3}  eigenvalues {nonzero:>3}  "
        f"{elapsed:7.2f} s  digits {top:>7,}/{bottom:<7,}{mark}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--sides", type=int, nargs="+")
    parser.add_argument("--quick", action="store_true", help="default rules only")
    parser.add_argument(
        "--past",
        action="store_true",
        help="every rule set one size past the limits too (minutes), and 3 seats on classic",
    )
    args = parser.parse_args()
    sides = {2: [6, 8, 10, 12], 3: [4, 5, 6, 7, 8], 4: [3, 4, 5, 6]}
    rules = {"default": {}} if args.quick else RULES
    for seats in args.seats:
        for side in args.sides or sides.get(seats, []):
            for label, options in rules.items():
                board = looped(side, side, **options)
                # Within the limit, or one size past it (default rules only, unless --past).
                within = board.goal <= seat_squares(board, seats)
                past = (side - 1) ** 2 <= seat_squares(board, seats)
                if within or (past and (args.past or not options)):
                    measure(f"{side}x{side} looped, {label}", board, seats)
        for name in ("classic", "leetcode-1", "throws-30", "lld-6x6", "octahedron"):
            board = load_board(name)
            if board.goal <= seat_squares(board, seats) or (seats == 3 and args.past):
                measure(name, board, seats)


if __name__ == "__main__":
    main()
