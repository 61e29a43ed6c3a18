"""Exact fractions (``core.exact``, ``snl analyze --exact``) against the floats."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.analysis import AnalysisError, analyze
from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.exact import decimal_text, exact_expected_turns, exact_win_chances
from snl_tui.core.formats import dump_board, load_board
from snl_tui.core.rules import Rules


@st.composite
def small_boards(draw: st.DrawFn, max_rows: int = 4, max_cols: int = 6) -> Board:
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(2, max_cols))
    goal = rows * cols
    rules = Rules(
        start=draw(st.sampled_from([0, 1])),
        overshoot=draw(st.sampled_from(["stay", "bounce", "finish"])),
        chain=draw(st.booleans()),
        faces=draw(st.integers(2, 6)),
        six_again=draw(st.booleans()),
        three_sixes=False,
    )
    starts = draw(st.lists(st.integers(1, goal - 1), unique=True, max_size=min(5, goal - 1)))
    jumps = [(s, draw(st.integers(1, goal).filter(lambda e, s=s: e != s))) for s in starts]
    try:
        return Board(rows, cols, jumps, rules=rules)
    except BoardError:  # a jump cycle under chain = true
        assume(False)
        raise


SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


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
@given(small_boards(max_rows=2, max_cols=5), st.integers(1, 2))
def test_exact_win_chances_equal_the_floats(board: Board, players: int) -> None:
    exact = exact_win_chances(board, players)
    floating = analyze(board, players=players)
    assert len(exact) == players
    for fraction, chance in zip(exact, floating.win_chances, strict=True):
        assert 0 <= fraction <= 1
        assert float(fraction) == pytest.approx(chance, abs=1e-12)
    # Exactly: the chances and "nobody ever wins" make 1.
    assert float(1 - sum(exact)) == pytest.approx(floating.no_winner, abs=1e-12)


def test_classic_fraction_equals_the_float() -> None:
    classic = load_board("classic")
    exact = exact_expected_turns(classic)
    assert exact is not None
    assert abs(float(exact) - analyze(classic).expected_turns) < 1e-12
    assert decimal_text(exact).startswith("39.2251223082349")


def test_decimal_text_rounds_exactly() -> None:
    assert decimal_text(Fraction(2, 3), 5) == "0.66667"
    assert decimal_text(Fraction(-1, 8), 2) == "-0.13"
    assert decimal_text(Fraction(5), 3) == "5.000"


def test_limits_are_one_line() -> None:
    with pytest.raises(AnalysisError, match="at most 144 squares"):
        exact_expected_turns(Board(13, 13))
    with pytest.raises(AnalysisError, match="at most 2 players"):
        exact_win_chances(load_board("classic"), 3)
    with pytest.raises(AnalysisError, match="at most 25 squares"):
        exact_win_chances(load_board("classic"), 2)


def test_cli_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["analyze", "classic", "--exact"]) == 0
    out = capsys.readouterr().out
    exact = exact_expected_turns(load_board("classic"))
    assert f"expected turns    {exact}" in out and "= 39.2251223082349" in out
    small = tmp_path / "small.toml"
    small.write_text(dump_board(Board(4, 4, [(3, 11), (14, 2)]), "toml"))
    assert main(["analyze", str(small), "--exact", "--players", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    seats = [Fraction(text) for text in data["win_chances"]]
    assert sum(seats) == 1 and seats[0] > seats[1]
    big = tmp_path / "big.toml"
    big.write_text(dump_board(Board(13, 13), "toml"))
    assert main(["analyze", str(big), "--exact"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most 144 squares" in err
