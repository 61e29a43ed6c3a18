"""The analysis on random boards under every rule option (hypothesis), against a plain
forward iteration of the distribution, the turn-level Bellman equations and exact
rationals."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.odds import tuning
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.rules import Rules
from snl_tui.core.studio.impacts import jump_impacts

from .test_analysis import exact_expected, plain_cdf, turn_outcomes


@st.composite
def boards(draw: st.DrawFn) -> Board:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(2, 6))
    goal = rows * cols
    rules = Rules(
        start=draw(st.sampled_from([0, 1])),
        overshoot=draw(st.sampled_from(["stay", "bounce", "finish"])),
        chain=draw(st.booleans()),
        faces=draw(st.integers(2, 8)),
        six_again=draw(st.booleans()),
    )
    starts = draw(st.lists(st.integers(1, goal - 1), unique=True, max_size=min(6, goal - 1)))
    jumps = []
    for start in starts:
        end = draw(st.integers(1, goal).filter(lambda e, s=start: e != s))
        jumps.append((start, end))
    try:
        return Board(rows, cols, jumps, rules=rules)
    except BoardError:  # a jump cycle under chain = true
        assume(False)
        raise


SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(boards(), st.data())
def test_distribution_matches_plain_forward_iteration(board: Board, data: st.DataObject) -> None:
    a = analyze(board)
    square = data.draw(st.integers(0, board.goal))
    for origin in (board.rules.start_position, square):
        plain = plain_cdf(board, origin, 40)
        for t, p in enumerate(plain):
            assert a.finish_within_from(origin, t) == pytest.approx(p, abs=1e-9)


@SETTINGS
@given(boards())
def test_expectation_and_finish_probability_obey_one_turn(board: Board) -> None:
    a = analyze(board)
    chain = a._chain
    for square in range(board.goal):
        outcomes = turn_outcomes(board, square)
        expected = a.expected_turns_from(square)
        successors = [a.expected_turns_from(q) for q in outcomes]
        if math.isfinite(expected):
            assert all(math.isfinite(e) for e in successors)
            bellman = 1 + sum(p * a.expected_turns_from(q) for q, p in outcomes.items())
            assert expected == pytest.approx(bellman, rel=1e-8)
        else:
            assert chain.finish_probability[square] < 1
        finish = sum(p * chain.finish_probability[q] for q, p in outcomes.items())
        assert chain.finish_probability[square] == pytest.approx(finish, abs=1e-9)
        # The table's limit is the probability of ever finishing.
        assert a.finish_within_from(square, 10**9) == pytest.approx(
            chain.finish_probability[square], abs=1e-9
        )


@SETTINGS
@given(boards().filter(lambda b: not b.rules.six_again and b.goal <= 14))
def test_expectation_is_exact(board: Board) -> None:
    a = analyze(board)
    for square, value in exact_expected(board).items():
        if value is None:
            assert a.expected_turns_from(square) == math.inf
        else:
            assert a.expected_turns_from(square) == pytest.approx(float(value), rel=1e-9)


@SETTINGS
@given(boards(), st.integers(2, 4))
def test_seats_add_up_and_the_first_is_ahead(board: Board, players: int) -> None:
    a = analyze(board, players=players)
    chances = a.win_chances
    assert sum(chances) + a.no_winner == pytest.approx(1.0, abs=1e-9)
    assert all(c >= -1e-12 for c in chances)
    # From the same square, an earlier seat never has a worse chance.
    for earlier, later in itertools.pairwise(chances):
        assert earlier >= later - 1e-12
    single = analyze(board).never_finishes
    assert a.no_winner == pytest.approx(single**players, abs=1e-12)


@SETTINGS
@given(boards(), st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9, 1.0]))
def test_percentile_turns_are_the_first_turn_reaching_the_share(board: Board, q: float) -> None:
    a = analyze(board)
    turns = a.percentile_turns(q)
    if turns == math.inf:
        # Never reached: either that share never finishes, or only in the limit.
        assert a.finish_within(a.horizon) < q + 1e-9
    else:
        assert isinstance(turns, int)
        assert a.finish_within(turns) >= q - 1e-12
        assert turns == 0 or a.finish_within(turns - 1) < q


@SETTINGS
@given(boards())
def test_dense_and_gathering_turn_operators_agree(board: Board) -> None:
    # Small boards use a dense turn matrix, large ones gathers and pointer doubling:
    # the same figures either way (the path chosen by size: DENSE_TURN_LIMIT).
    # The win chances agree within what each path vouches for (their closed-form tails
    # stop at a stated error, up to CLOSED_TAIL), the distribution to 1e-12.
    figures = []
    errors = []
    for limit in (10**9, 0):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tuning, "DENSE_TURN_LIMIT", limit)
            clear_cache()
            a = analyze(board, players=2)
            figures.append((a.win_chances, a.finish_within(5), a.finish_within(20)))
            errors.append(a.accuracy_of("win_chances").error)
    clear_cache()
    (w1, *f1), (w2, *f2) = figures
    assert w1 == pytest.approx(w2, abs=max(1e-12, sum(errors)))
    assert f1 == pytest.approx(f2, abs=1e-12)


def test_a_large_six_again_board_matches_plain_iteration() -> None:
    # 400 squares: above the dense limit, so the gathering operator does the work.
    rng = random.Random(2024)
    jumps: dict[int, int] = {}
    while len(jumps) < 40:
        start, end = rng.randrange(2, 400), rng.randrange(1, 401)
        if start != end and start not in jumps:
            jumps[start] = end
    rules = Rules(start=0, overshoot="bounce", six_again=True, chain=False)
    board = Board(20, 20, jumps.items(), rules=rules)
    assert board.goal + 1 > tuning.DENSE_TURN_LIMIT
    a = analyze(board)
    plain = plain_cdf(board, 0, 150)
    for t, p in enumerate(plain):
        assert a.finish_within(t) == pytest.approx(p, abs=1e-10)
    if math.isfinite(a.expected_turns):
        tail = sum(1.0 - a.finish_within(t) for t in range(len(a.distribution)))
        assert a.expected_turns == pytest.approx(tail, rel=1e-8)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "rules",
    [
        Rules(start=0),
        Rules(overshoot="bounce", six_again=True),
        Rules(overshoot="finish", chain=True, faces=10),
    ],
)
def test_large_boards_expectation_is_the_tables_survival_sum(seed: int, rules: Rules) -> None:
    # The sparse factorisation's expectation against the turn table: E = sum_t P(T > t),
    # two computations of one quantity that share nothing but the roll table.
    rng = random.Random(seed)
    jumps: dict[int, int] = {}
    while len(jumps) < 30:
        start, end = rng.randrange(2, 225), rng.randrange(1, 226)
        if start != end and start not in jumps and end not in jumps:
            jumps[start] = end
    try:
        board = Board(15, 15, jumps.items(), rules=rules)
    except BoardError:  # a chain cycle
        return
    a = analyze(board)
    chain = a._chain
    checked = 0
    for square in range(board.goal):
        expected = float(chain.expected[square])
        if not math.isfinite(expected):
            continue
        column = chain.column(square)
        assert column.resolved
        assert expected == pytest.approx(float((1.0 - column.cdf).sum()), rel=1e-9)
        checked += 1
    assert checked > 100


@SETTINGS
@given(boards())
def test_jump_impacts_match_the_board_without_the_jump(board: Board) -> None:
    # jump_impacts updates one inverted system (Woodbury); this analyses each board
    # minus one jump from scratch.
    start = board.rules.start_position
    with_all = analyze(board).expected_turns
    jumps = board.jumps
    for impact in jump_impacts(board):
        others = [(a, b) for a, b in jumps.items() if a != impact.start]
        without = analyze(Board(board.rows, board.cols, others, rules=board.rules))
        expected = without.expected_turns_from(start)
        if math.isinf(expected):
            assert impact.expected_turns_without == math.inf
        else:
            assert impact.expected_turns_without == pytest.approx(expected, rel=1e-9)
            if math.isfinite(with_all):
                assert impact.delta == pytest.approx(with_all - expected, rel=1e-9, abs=1e-9)
