"""Exact fractions (``core.odds.exact``, ``core.odds.exact_wins``, ``snl analyze --exact``): against
the floats of ``analyze``, and against a plain-``fractions`` reference (the joint chain
of every seat's token) on tiny boards."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

import pytest
from flint import fmpq, fmpq_poly
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import dump_board, load_board
from snl_tui.core.odds.analysis import AnalysisError, analyze
from snl_tui.core.odds.exact import (
    Row,
    decimal_text,
    exact_expected_turns,
    exact_win_chances,
    fraction_digits,
    fraction_text,
    integer_text,
    seat_squares,
    solve_sparse,
)
from snl_tui.core.odds.exact_wins import (
    _chinese_remainder,
    crt_functional,
    symmetric_power,
)
from snl_tui.core.odds.markov import chain_of
from snl_tui.core.odds.model import reachable_positions
from snl_tui.core.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


@st.composite
def small_boards(draw: st.DrawFn, max_rows: int = 4, max_cols: int = 6) -> Board:
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(2, max_cols))
    goal = rows * cols
    three_sixes = draw(st.booleans())
    rules = Rules(
        start=draw(st.sampled_from([0, 1])),
        overshoot=draw(st.sampled_from(["stay", "bounce", "finish"])),
        chain=draw(st.booleans()),
        # A three_sixes turn has faces**3 outcomes: small dice keep the examples quick.
        faces=draw(st.integers(2, 4 if three_sixes else 6)),
        six_again=three_sixes or draw(st.booleans()),
        three_sixes=three_sixes,
    )
    starts = draw(st.lists(st.integers(1, goal - 1), unique=True, max_size=min(5, goal - 1)))
    jumps = [(s, draw(st.integers(1, goal).filter(lambda e, s=s: e != s))) for s in starts]
    try:
        return Board(rows, cols, jumps, rules=rules)
    except BoardError:  # a jump cycle under chain = true
        assume(False)
        raise


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


def joint_chain_wins(board: Board, players: int) -> list[Fraction]:
    """The reference: every seat's token in one chain (state: the seat to move and every
    seat's position), solved with ``fractions`` alone; positions ** players states, so
    for tiny boards only. A top roll under six_again keeps the turn."""
    chain = chain_of(board)
    goal, faces, again = chain.goal, chain.faces, chain.rolls_again
    start = board.rules.start_position
    if start == goal:
        return [Fraction(1)] + [Fraction(0)] * (players - 1)
    can = chain.can_finish
    # Per position: (where a roll ends, does it keep the turn) -> probability.
    moves: dict[int, Counter[tuple[int, bool]]] = {}
    for position in reachable_positions(chain.dest, goal, [start]):
        ends = chain.dest[position].tolist()
        moves[position] = Counter(
            (there, again and face == faces) for face, there in enumerate(ends, start=1)
        )
    first = (0, (start,) * players)
    states = [first]
    seen = {first}
    for mover, where in states:
        for there, keeps in moves[where[mover]]:
            after = (*where[:mover], there, *where[mover + 1 :])
            nxt = (mover if keeps else (mover + 1) % players, after)
            if there != goal and nxt not in seen and any(can[p] for p in after):
                seen.add(nxt)
                states.append(nxt)
    wins = []
    for seat in range(players):
        rows: dict[Hashable, Row] = {}
        rhs: dict[Hashable, Fraction] = {}
        for mover, where in states:
            key = (mover, where)
            row: Row = {key: Fraction(1)}
            constant = Fraction(0)
            for (there, keeps), count in moves[where[mover]].items():
                chance = Fraction(count, faces)
                if there == goal:
                    constant += chance if mover == seat else 0
                    continue
                after = (*where[:mover], there, *where[mover + 1 :])
                nxt = (mover if keeps else (mover + 1) % players, after)
                if nxt in seen:
                    row[nxt] = row.get(nxt, Fraction(0)) - chance
            rows[key], rhs[key] = row, constant
        order = sorted(rows, key=lambda k: (sum(k[1]), k[1], k[0]), reverse=True)  # type: ignore[index]
        wins.append(solve_sparse(rows, rhs, order)[first])
    return wins


def float_tolerance(board: Board, players: int) -> tuple[list[float], float]:
    analysis = analyze(board, players=players)
    errors = [a.error for a in analysis.accuracy if a.figure == "win_chances"]  # 2+ seats
    return analysis.win_chances, max([1e-10, *errors])


@SETTINGS
@given(small_boards())
def test_exact_expected_turns_equal_the_floats(board: Board) -> None:
    exact = exact_expected_turns(board)
    floating = analyze(board).expected_turns
    if exact is None:
        assert floating == math.inf
    else:
        assert isinstance(exact, Fraction)
        assert exact >= 1 or exact == 0
        assert float(exact) == pytest.approx(floating, rel=1e-12, abs=1e-12)


@SETTINGS
@given(small_boards(max_rows=4, max_cols=4), st.integers(1, 4))
def test_exact_win_chances_equal_the_floats(board: Board, players: int) -> None:
    exact = exact_win_chances(board, players)
    floats, tolerance = float_tolerance(board, players)
    assert len(exact) == players
    for fraction, chance in zip(exact, floats, strict=True):
        assert isinstance(fraction, Fraction)
        assert 0 <= fraction <= 1
        assert float(fraction) == pytest.approx(chance, abs=tolerance)
    # Exactly: nobody wins only when every seat is doomed, d ** players.
    doomed = 1 - exact_win_chances(board, 1)[0]
    assert sum(exact) == 1 - doomed**players


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_boards(max_rows=2, max_cols=3), st.integers(2, 3))
def test_exact_win_chances_equal_the_joint_chain_in_plain_fractions(
    board: Board, players: int
) -> None:
    # The joint chain has positions ** players states: three seats on 4 squares at most.
    if board.goal > 4:
        players = 2
    assert exact_win_chances(board, players) == joint_chain_wins(board, players)


def test_doomed_positions_leave_no_winner_exactly() -> None:
    # Two faces from square 1: a 1 lands on 2, a ladder to the goal; a 2 lands on 3,
    # from which both faces hit a snake back to 3: doomed. So each seat in turn wins
    # with probability 1/2 unless an earlier seat has, and nobody wins with 1/2 ** P.
    board = Board(2, 3, [(2, 6), (4, 3), (5, 3)], rules=Rules(faces=2))
    assert exact_win_chances(board, 1) == [Fraction(1, 2)]
    assert exact_win_chances(board, 4) == [Fraction(1, 2**seat) for seat in (1, 2, 3, 4)]
    for players in (2, 3):
        assert exact_win_chances(board, players) == joint_chain_wins(board, players)


def test_classic_fractions_equal_the_floats() -> None:
    classic = load_board("classic")
    exact = exact_expected_turns(classic)
    assert exact is not None
    assert abs(float(exact) - analyze(classic).expected_turns) < 1e-12
    assert decimal_text(exact).startswith("39.2251223082349")
    seats = exact_win_chances(classic, 2)
    assert sum(seats) == 1  # every seat finishes surely on classic
    for fraction, chance in zip(seats, analyze(classic, players=2).win_chances, strict=True):
        assert abs(float(fraction) - chance) < 1e-12
    assert len(integer_text(seats[0].denominator)) > 4000  # past Python's str limit


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.fractions(min_value=-1, max_value=1, max_denominator=9), min_size=1, max_size=4),
    st.integers(2, 3),
)
def test_symmetric_power_multiplies_the_roots(roots: list[Fraction], order: int) -> None:
    assume(all(root != 0 for root in roots))
    psi = fmpq_poly([1])
    for root in roots:
        psi *= fmpq_poly([1, -fmpq(root.numerator, root.denominator)])
    expected = fmpq_poly([1])
    indexes = [[i] for i in range(len(roots))]
    for _ in range(order - 1):
        indexes = [[*c, j] for c in indexes for j in range(c[-1], len(roots))]
    for combination in indexes:
        product = math.prod(roots[i] for i in combination)
        expected *= fmpq_poly([1, -fmpq(product.numerator, product.denominator)])
    assert symmetric_power(psi, order) == expected


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-50, 50), min_size=2, max_size=6),
    st.lists(st.integers(-50, 50), min_size=1, max_size=6),
    st.lists(st.fractions(min_value=0, max_value=1, max_denominator=30), min_size=6, max_size=6),
    st.integers(1, 7),
)
def test_the_chinese_remainders_give_the_plain_rational_answer(
    modulus: list[int], divisor: list[int], weights: list[Fraction], scale: int
) -> None:
    # A monic modulus with rational coefficients, any divisor prime to it.
    phi = fmpq_poly([fmpq(c, scale) for c in modulus] + [1])
    n = phi.degree()
    u = fmpq_poly([fmpq(c, scale + 1) for c in divisor]) % phi
    assume(not u.is_zero() and phi.gcd(u).degree() == 0)
    w = fmpq_poly([fmpq(c + 1, 3) for c in divisor[:n]])
    gammas = [fmpq(x.numerator, x.denominator) for x in weights[:n]]
    _, inverse, _ = u.xgcd(phi)
    g = (w * inverse) % phi
    plain = sum((g[j] * gammas[j] for j in range(n)), fmpq(0))
    (crt,) = crt_functional(phi, u, [w], gammas, magnitude=abs(plain) + 1)
    assert crt == plain


@given(st.lists(st.integers(0, 2**62), min_size=1, max_size=40))
def test_the_remainder_tree_reassembles(values: list[int]) -> None:
    primes = [2**61 - 1, 2**31 - 1, 1_000_000_007, 998_244_353, 2**62 - 57, 65_537, 257]
    primes = (primes * 6)[: len(values)]
    assume(len(set(primes)) == len(primes))
    residues = [v % p for v, p in zip(values, primes, strict=True)]
    value, product = _chinese_remainder(residues, primes)
    assert product == math.prod(primes)
    assert all(int(value) % p == r for r, p in zip(residues, primes, strict=True))


def test_decimal_text_rounds_exactly() -> None:
    assert decimal_text(Fraction(2, 3), 5) == "0.66667"
    assert decimal_text(Fraction(-1, 8), 2) == "-0.13"
    assert decimal_text(Fraction(5), 3) == "5.000"


def test_fraction_text_writes_every_digit() -> None:
    big = 7**9000  # 7,606 digits: str() alone would refuse it
    assert fraction_text(Fraction(big, 3)) == f"{integer_text(big)}/3"
    assert len(integer_text(big)) == 7606 and integer_text(-big)[0] == "-"
    assert fraction_text(Fraction(12, 1)) == "12"


def test_limits_are_one_line() -> None:
    with pytest.raises(AnalysisError, match="at most 144 squares"):
        exact_expected_turns(Board(13, 13))
    classic = load_board("classic")
    with pytest.raises(AnalysisError, match=r"--players 3: .* up to 49 squares .* has 100;"):
        exact_win_chances(classic, 3)
    with pytest.raises(AnalysisError, match=r"up to 25 squares \(5x5\) .* else 16 \(4x4\)"):
        exact_win_chances(Board(6, 5), 4)
    with pytest.raises(AnalysisError, match="1 to 4 players"):
        exact_win_chances(classic, 5)
    # Every board up to 12x12 for two seats, whatever the rules.
    assert all(
        seat_squares(board, 2) == 144 for board in (classic, Board(12, 12, rules=Rules(faces=20)))
    )


def test_the_seat_limits_follow_the_rules() -> None:
    plain, again, big_die = Rules(), Rules(six_again=True), Rules(faces=8)
    assert seat_squares(Board(7, 7, rules=plain), 3) == 49
    assert seat_squares(Board(5, 5, rules=plain), 4) == 25
    for rules in (again, big_die, Rules(six_again=True, three_sixes=True)):
        assert seat_squares(Board(7, 7, rules=rules), 3) == 36
        assert seat_squares(Board(5, 5, rules=rules), 4) == 16
    assert len(exact_win_chances(Board(5, 5, [(20, 2)], rules=plain), 4)) == 4
    with pytest.raises(AnalysisError, match="has 25; use --players 3 or fewer"):
        exact_win_chances(Board(5, 5, rules=again), 4)


def test_cli_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["analyze", "classic", "--exact"]) == 0
    out = capsys.readouterr().out
    exact = exact_expected_turns(load_board("classic"))
    assert exact is not None
    assert "one player" in out and "expected turns    39.22512230823496036944..." in out
    assert str(exact) not in out and "win chance" not in out  # alone, one always wins
    assert main(["analyze", "classic", "--exact", "--digits", "all"]) == 0
    assert str(exact) in capsys.readouterr().out
    assert main(["analyze", "classic", "--exact", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert len(out.encode()) < 2000  # it was 17.8 KB: every digit of two fractions
    lines = out.splitlines()
    seat = next(i for i, line in enumerate(lines) if "seat 1 wins" in line)
    assert lines[seat].split()[-1] == "0.50791159386993430257..."
    assert "2 players in turn order" in lines[seat - 1]
    assert "4,335 digits over 4,335" in lines[seat + 1]
    assert main(["analyze", "classic", "--exact", "--players", "2", "--digits", "all"]) == 0
    wins = exact_win_chances(load_board("classic"), 2)
    out = capsys.readouterr().out
    assert all(fraction_text(chance) in out for chance in wins)
    assert main(["analyze", "classic", "--exact", "--digits", "x"]) == 2
    assert "--digits" in capsys.readouterr().err
    small = tmp_path / "small.toml"
    small.write_text(dump_board(Board(4, 4, [(3, 11), (14, 2)]), "toml"))
    assert main(["analyze", str(small), "--exact", "--players", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    seats = [Fraction(text) for text in data["win_chances"]]
    assert sum(seats) == 1 and seats[0] > seats[1] > seats[2] > seats[3]
    assert data["players"] == 4 and len(data["win_chances_decimal"]) == 4
    big = tmp_path / "big.toml"
    big.write_text(dump_board(Board(13, 13), "toml"))
    assert main(["analyze", str(big), "--exact"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most 144 squares" in err


def test_cli_exact_past_the_seat_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """More seats than exact fractions reach: the expected turns stay a fraction, the win
    chances are the floating-point analysis's with its bound, and a note says why."""
    classic = load_board("classic")
    assert main(["analyze", "classic", "--exact", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "expected turns    39.22512230823496036944..." in out
    floats = analyze(classic, players=3).win_chances
    seats = [line.split() for line in out.splitlines() if " wins " in line]
    assert [float(words[3]) for words in seats] == pytest.approx(floats, abs=1e-14)
    assert all("(floating point, within" in " ".join(words) for words in seats)
    note = " ".join(out[out.index("note:") :].split())  # wrapped over a few lines
    assert "3 seats reach 49 squares (7x7)" in note and note.endswith(" digits")
    assert main(["analyze", "classic", "--exact", "--players", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["win_chances"] is None and data["players"] == 4
    assert sum(data["win_chances_float"]) == pytest.approx(1.0, abs=1e-12)
    assert 0 < data["win_chances_error"] <= 1e-11
    assert "4 seats reach 25 squares" in data["left_out"]["win_chances"]
    assert Fraction(data["expected_turns"]) == exact_expected_turns(classic)


def test_fraction_digits_estimate_the_measured_sizes() -> None:
    """The estimate in the note is within a third of the digits actually written (two
    seats on classic: 4,335; measured, not assumed)."""
    classic = load_board("classic")
    wins = exact_win_chances(classic, 2)
    measured = max(len(integer_text(chance.denominator)) for chance in wins)
    assert abs(fraction_digits(classic, 2) - measured) <= measured / 3


def test_only_exact_imports_flint() -> None:
    # python-flint loads on --exact's first use, never for the other commands.
    code = (
        "import sys\n"
        "from snl_tui.cli.main import main\n"
        "main(['analyze', 'leetcode-1'])\n"
        "main(['solve', 'classic'])\n"
        "assert 'flint' not in sys.modules, 'flint loaded'\n"
        "main(['analyze', 'leetcode-2', '--exact', '--players', '2'])\n"
        "assert 'flint' in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
