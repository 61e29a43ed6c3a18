"""Exact odds as fractions (SPEC 12, ``snl analyze --exact``): no rounding at all.

The expected turns from the start: the same chain as ``chain`` (its roll array, from the
engine's rules), solved over the rationals with ``fractions.Fraction`` by sparse
elimination in the order of decreasing positions (on a board without snakes a
back-substitution). Boards up to ``MAX_EXACT_SQUARES`` (12 x 12).

Each seat's chance of winning: ``exact_wins`` (the seats' tokens are independent, so the
chances are sums over turns of products of one token's sequences, summed exactly with
python-flint). One or two seats on every board up to 12 x 12, whatever the rules; three
seats up to 7 x 7 and four up to 5 x 5 under plain rules, 6 x 6 and 4 x 4 otherwise
(``seat_squares``), because the fractions themselves grow as the cube (three seats) or
the fourth power (four) of the board: three seats on classic come to 168,972 digits each
(38 s), four seats on a 6 x 6 to 97,897 (3 minutes).

``decimal_text`` writes a fraction's decimals exactly (integer arithmetic, no float) and
``integer_text`` its digits, however many (Python's ``str`` refuses past 4,300).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction

from ..board import Board
from ..engine import turn_shape
from .exact_wins import win_chances
from .markov import AnalysisError, chain_of
from .model import reachable_positions

MAX_EXACT_SQUARES = 144
"""Largest board with exact fractions (12 x 12)."""
EXACT_SEAT_SQUARES = {1: 144, 2: 144, 3: 36, 4: 16}
"""Largest board (squares) whose seats' win chances are exact fractions, per number of
seats, under any rules (``benchmarks/exact.py`` measures the hardest boards of each size:
a snake that puts every square on a loop, ``three_sixes`` on a 20-sided die)."""
PLAIN_SEAT_SQUARES = {3: 49, 4: 25}
"""The same under plain rules (``plain_rules``), whose fractions grow more slowly."""
SIDES = {144: "12x12", 49: "7x7", 36: "6x6", 25: "5x5", 16: "4x4"}

Row = dict[Hashable, Fraction]


def plain_rules(board: Board) -> bool:
    """A die of at most 6 faces and no roll again (no six_again, so no three_sixes)."""
    return board.rules.faces <= 6 and not any(turn_shape(board.rules).again)


def seat_squares(board: Board, players: int) -> int:
    """The largest board (squares) with exact win chances for ``players`` seats under
    ``board``'s rules."""
    if plain_rules(board):
        return PLAIN_SEAT_SQUARES.get(players, EXACT_SEAT_SQUARES[players])
    return EXACT_SEAT_SQUARES[players]


def fraction_digits(board: Board, players: int) -> int:
    """About how many digits each seat's win chance has as a fraction on ``board``:
    C(n + P - 1, P) P log10(f) for the n positions a token can be on (``exact_wins``;
    within about 25% of the measured sizes)."""
    chain = chain_of(board)
    start = board.rules.start_position
    states = reachable_positions(chain.dest, chain.goal, [start])
    n = sum(1 for p in states if bool(chain.can_finish[p]))
    return round(math.comb(n + players - 1, players) * players * math.log10(chain.faces))


def seats_out_of_reach(board: Board, players: int) -> str | None:
    """Why ``players`` seats' win chances on ``board`` are not exact fractions (its size
    is within ``MAX_EXACT_SQUARES``, its seats past ``seat_squares``), or None when they
    are: the reach for that many seats, and about how long each fraction would be."""
    if players not in EXACT_SEAT_SQUARES or board.goal <= seat_squares(board, players):
        return None
    return (
        f"exact fractions for {players} seats reach {_reach(board, players)}; each of this "
        f"board's would have about {_rounded(fraction_digits(board, players)):,} digits"
    )


def _reach(board: Board, players: int) -> str:
    if players in PLAIN_SEAT_SQUARES:
        plain, other = PLAIN_SEAT_SQUARES[players], EXACT_SEAT_SQUARES[players]
        return (
            f"{plain} squares ({SIDES[plain]}) with at most 6 faces and no six_again, else "
            f"{other} ({SIDES[other]})"
        )
    limit = seat_squares(board, players)
    return f"{limit} squares ({SIDES[limit]})"


def _rounded(value: int) -> int:
    """Two significant digits: an estimate says no more."""
    if value < 100:
        return value
    scale = 10 ** (len(str(value)) - 2)
    rounded: int = (value + scale // 2) // scale * scale
    return rounded


def check_exact(board: Board, players: int) -> None:
    """Raise ``AnalysisError`` (one line) when the exact figures are out of reach."""
    if board.goal > MAX_EXACT_SQUARES:
        raise AnalysisError(
            f"--exact: exact fractions for boards of at most {MAX_EXACT_SQUARES} squares "
            f"(12x12); this one has {board.goal}"
        )
    if players not in EXACT_SEAT_SQUARES:
        most = max(EXACT_SEAT_SQUARES)
        raise AnalysisError(f"--exact: exact win chances for 1 to {most} players, not {players}")
    limit = seat_squares(board, players)
    if board.goal <= limit:
        return
    fewer = max(seats for seats in EXACT_SEAT_SQUARES if board.goal <= seat_squares(board, seats))
    # One line of at most text.LINE_LIMIT characters (docs/cli.md says why).
    raise AnalysisError(
        f"--exact --players {players}: exact win chances up to {_reach(board, players)}; "
        f"this one has {board.goal}; use --players {fewer} or fewer"
    )


def exact_expected_turns(board: Board, start: int | None = None) -> Fraction | None:
    """Expected turns to finish from ``start`` (default: the rules' start) as a fraction;
    None when some game from there never finishes (the expectation is infinite)."""
    check_exact(board, 1)
    chain = chain_of(board)
    position = board.rules.start_position if start is None else start
    if position == chain.goal:
        return Fraction(0)
    if not chain.safe[position]:
        return None
    # X(p) = sum_d (c_d + X(next_d)) / f over the safe positions: the turns still to
    # start after the roll from p (c_d = 1 when roll d ends the turn without winning).
    states = reachable_positions(chain.dest, chain.goal, [position])
    faces, goal = chain.faces, chain.goal
    rows: dict[Hashable, Row] = {}
    rhs: dict[Hashable, Fraction] = {}
    for here in states:
        ends = chain.dest[here].tolist()
        # Counted per destination: a three_sixes turn has faces**3 equally likely ends.
        counts = Counter(there for there in ends if there != goal)
        ending = int(chain.turns.ends_turn(here).sum())
        row: Row = {here: Fraction(1)}
        for there, count in counts.items():
            row[there] = row.get(there, Fraction(0)) - Fraction(count, faces)
        rows[here] = row
        rhs[here] = Fraction(ending, faces)
    solution = solve_sparse(rows, rhs, sorted(states, reverse=True))
    return 1 + solution[position]


def exact_win_chances(board: Board, players: int) -> list[Fraction]:
    """Each seat's chance of winning, everyone on the rules' start, as fractions
    (``check_exact`` says for which boards and seats)."""
    check_exact(board, players)
    return win_chances(board, players)


def solve_sparse(
    rows: dict[Hashable, Row], rhs: dict[Hashable, Fraction], order: Sequence[Hashable]
) -> dict[Hashable, Fraction]:
    """Solve the sparse system exactly by Gaussian elimination in ``order`` (every
    pivot is on the diagonal: the systems here are non-singular M-matrices, whose
    diagonal stays positive under elimination in any order)."""
    users: dict[Hashable, set[Hashable]] = {}
    for key, row in rows.items():
        for column in row:
            if column != key:
                users.setdefault(column, set()).add(key)
    done: list[Hashable] = []
    for pivot in order:
        row = rows[pivot]
        diagonal = row.pop(pivot)
        if diagonal == 0:  # pragma: no cover - the systems here are non-singular
            raise AnalysisError("--exact: a singular system (a bug)")
        for column in row:
            row[column] /= diagonal
        rhs[pivot] /= diagonal
        for user in users.pop(pivot, set()):
            target = rows[user]
            factor = target.pop(pivot)
            rhs[user] -= factor * rhs[pivot]
            for column, value in row.items():
                updated = target.get(column, Fraction(0)) - factor * value
                if updated:
                    target[column] = updated
                    if column != user:
                        users.setdefault(column, set()).add(user)
                elif column in target:
                    del target[column]
        for column in row:
            users.get(column, set()).discard(pivot)
        done.append(pivot)
    # Back-substitution: each pivot row now refers only to later pivots.
    solution: dict[Hashable, Fraction] = {}
    for pivot in reversed(done):
        value = rhs[pivot]
        for column, coefficient in rows[pivot].items():
            value -= coefficient * solution[column]
        solution[pivot] = value
    return solution


def decimal_text(value: Fraction, digits: int = 20) -> str:
    """``value`` to ``digits`` decimals, rounded half up, by integer arithmetic."""
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**digits
    whole = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    text = integer_text(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"


def integer_text(value: int) -> str:
    """``value``'s decimal digits, however many (``str`` refuses past 4,300 of them)."""
    if -(10**4000) < value < 10**4000:
        return str(value)
    from flint import fmpz

    return str(fmpz(value))


def fraction_text(value: Fraction) -> str:
    """``value`` as ``numerator/denominator`` (or a whole number), every digit written."""
    if value.denominator == 1:
        return integer_text(value.numerator)
    return f"{integer_text(value.numerator)}/{integer_text(value.denominator)}"
