"""Exact odds as fractions (SPEC 12, ``snl analyze --exact``): no rounding at all.

The same chain as ``chain`` (its roll array, from the engine's rules), solved over the
rationals with ``fractions.Fraction``: the expected turns from the start, and each seat's
chance of winning. One seat wins whenever it finishes (the probability of ever
finishing); two seats play the joint chain of both tokens, rolling in turn (a top roll
under ``six_again`` keeps the turn), so a win chance is one linear system over the pairs
of positions. More seats would need the joint chain of every token (positions to the
power of the seats), so exact win chances stop at two seats.

``decimal_text`` writes a fraction's decimals exactly (integer arithmetic, no float).

Boards up to ``MAX_EXACT_SQUARES`` (12 x 12); two seats' win chances up to
``MAX_EXACT_PAIR_SQUARES`` (5 x 5), past which the fractions grow too large to finish.
Elimination runs on sparse rows in the order of decreasing positions, so on a board
without snakes it is a back-substitution.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

import numpy as np

from .board import Board
from .chain import AnalysisError, chain_of

MAX_EXACT_SQUARES = 144
"""Largest board with exact fractions (12 x 12)."""
MAX_EXACT_SEATS = 2
"""Most seats whose win chances are exact fractions (the joint chain of two tokens)."""
MAX_EXACT_PAIR_SQUARES = 25
"""Largest board with two seats' exact win chances: the joint chain has a state per
pair of positions and its fractions grow fast (measured: 4x4 0.2 s, 5x5 1.7 s, 6x6
12 s, classic more than ten minutes)."""

Row = dict[Hashable, Fraction]


def check_exact(board: Board, players: int) -> None:
    """Raise ``AnalysisError`` (one line) when the exact figures are out of reach."""
    if board.goal > MAX_EXACT_SQUARES:
        raise AnalysisError(
            f"--exact: exact fractions for boards of at most {MAX_EXACT_SQUARES} squares "
            f"(12x12); this one has {board.goal}"
        )
    if players > MAX_EXACT_SEATS:
        raise AnalysisError(
            f"--exact: exact win chances for at most {MAX_EXACT_SEATS} players (the joint "
            f"chain of {players} tokens has too many states); use --players 1 or 2"
        )
    if players == 2 and board.goal > MAX_EXACT_PAIR_SQUARES:
        raise AnalysisError(
            f"--exact --players 2: exact win chances for boards of at most "
            f"{MAX_EXACT_PAIR_SQUARES} squares (the joint chain of two tokens); this one "
            f"has {board.goal}; use --players 1"
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
    states = _reachable(chain.dest, chain.goal, [position])
    scale = Fraction(1, chain.faces)
    rows: dict[Hashable, Row] = {}
    rhs: dict[Hashable, Fraction] = {}
    for here in states:
        row: Row = {here: Fraction(1)}
        constant = Fraction(0)
        for face, there in enumerate(chain.dest[here].tolist(), start=1):
            if there == chain.goal:
                continue
            if not (chain.six_again and face == chain.faces):
                constant += scale
            row[there] = row.get(there, Fraction(0)) - scale
        rows[here] = row
        rhs[here] = constant
    solution = _solve(rows, rhs, sorted(states, reverse=True))
    return 1 + solution[position]


def exact_win_chances(board: Board, players: int) -> list[Fraction]:
    """Each seat's chance of winning, everyone on the rules' start, as fractions (one or
    two seats; ``check_exact``)."""
    check_exact(board, players)
    chain = chain_of(board)
    start = board.rules.start_position
    goal, faces, again = chain.goal, chain.faces, chain.six_again
    scale = Fraction(1, faces)
    if start == goal:
        return [Fraction(1)] + [Fraction(0)] * (players - 1)
    if not chain.can_finish[start]:
        return [Fraction(0)] * players  # nobody ever wins
    if players == 1:
        if chain.safe[start]:
            return [Fraction(1)]
        # P(ever finishing): F(p) = sum_d F(next_d) / f, F(goal) = 1, F(doomed) = 0.
        states = [p for p in _reachable(chain.dest, goal, [start]) if chain.can_finish[p]]
        rows: dict[Hashable, Row] = {}
        rhs: dict[Hashable, Fraction] = {}
        for here in states:
            row: Row = {here: Fraction(1)}
            constant = Fraction(0)
            for there in chain.dest[here].tolist():
                if there == goal:
                    constant += scale
                elif chain.can_finish[there]:
                    row[there] = row.get(there, Fraction(0)) - scale
            rows[here], rhs[here] = row, constant
        return [_solve(rows, rhs, sorted(states, reverse=True))[start]]
    # Two seats. (m, a, b): m = 1 for "the seat to move wins", 2 for "the other seat
    # wins", with the seat to move on a and the other on b. A roll from a that wins
    # decides; a top roll under six_again keeps the turn; any other roll hands the turn
    # over, and the roles swap. Pairs where neither token can finish are 0 (no winner).
    positions = _reachable(chain.dest, goal, [start])
    can = chain.can_finish
    pairs = [(a, b) for a in positions for b in positions if can[a] or can[b]]
    rows = {}
    rhs = {}
    for a, b in pairs:
        for m in (1, 2):
            row = {(m, a, b): Fraction(1)}
            constant = Fraction(0)
            for face, there in enumerate(chain.dest[a].tolist(), start=1):
                if there == goal:
                    constant += scale if m == 1 else 0
                    continue
                keeps = again and face == faces
                nxt = (m, there, b) if keeps else (3 - m, b, there)
                if can[nxt[1]] or can[nxt[2]]:
                    row[nxt] = row.get(nxt, Fraction(0)) - scale
            rows[(m, a, b)], rhs[(m, a, b)] = row, constant
    order = sorted(rows, key=lambda key: (key[1] + key[2], key[1], key[0]), reverse=True)  # type: ignore[index]
    solution = _solve(rows, rhs, order)
    first = solution[(1, start, start)]
    return [first, solution[(2, start, start)]]


def _reachable(dest: np.ndarray, goal: int, starts: Sequence[int]) -> list[int]:
    """The positions a game from ``starts`` can reach, the goal left out."""
    seen = set(starts)
    order = [p for p in starts if p != goal]
    for here in order:
        for there in dest[here].tolist():
            if there not in seen:
                seen.add(there)
                if there != goal:
                    order.append(there)
    return order


def _solve(
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
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"
