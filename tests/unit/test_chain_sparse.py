"""The sparse factorisation against a tiny dense reference (hypothesis), and larger
boards against plain numpy: expected turns, standard deviation, visits, finishing
chances and the distribution."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import next_position
from snl_tui.core.errors import BoardError
from snl_tui.core.odds import markov as chain_module
from snl_tui.core.odds import stretch
from snl_tui.core.odds.analysis import CLOSED_TAIL, Analysis, analyze, clear_cache
from snl_tui.core.rules import Rules


def dense_reference(board: Board) -> dict[str, np.ndarray]:
    """Expected turns, Var(T), P(ever finishing) and the one-player visits from the
    rules' start, with numpy's dense solver on the per-turn matrix built straight from
    ``next_position`` (the engine), for boards without ``three_sixes``: the textbook
    fundamental matrix N = (I - Q)^-1, E = N 1, E[T^2] = (2N - I) N 1."""
    goal, faces = board.goal, board.rules.faces
    again = board.rules.six_again
    size = goal + 1
    # The turn matrix: rolls until a turn ends (a top roll that does not win rolls
    # again), as (I - A)^-1 B over the rolls.
    a = np.zeros((size, size))
    b = np.zeros((size, size))
    for here in range(goal):
        for die in range(1, faces + 1):
            there = next_position(board, here, die)
            if again and die == faces and there != goal:
                a[here, there] += 1 / faces
            else:
                b[here, there] += 1 / faces
    b[goal, goal] = 1.0
    turn = np.linalg.solve(np.eye(size) - a, b)
    # Which positions finish surely: P(finish) = 1, from absorption probabilities.
    q = turn[:goal, :goal]
    reach = turn[:goal, goal]
    can = np.zeros(size, dtype=bool)
    can[goal] = True
    changed = True
    while changed:
        changed = False
        for here in range(goal):
            if not can[here] and any(can[t] for t in np.flatnonzero(turn[here] > 0)):
                can[here] = changed = True
    live = np.flatnonzero(can[:goal])
    finish = np.zeros(size)
    finish[goal] = 1.0
    if len(live):
        finish[live] = np.linalg.solve(np.eye(len(live)) - q[np.ix_(live, live)], reach[live])
    safe = np.flatnonzero(finish[:goal] > 1 - 1e-9)
    expected = np.full(size, math.inf)
    variance = np.full(size, math.inf)
    expected[goal] = variance[goal] = 0.0
    visits = None
    if len(safe):
        n = np.linalg.inv(np.eye(len(safe)) - q[np.ix_(safe, safe)])
        ones = np.ones(len(safe))
        e = n @ ones
        second = (2 * n - np.eye(len(safe))) @ e
        expected[safe] = e
        variance[safe] = second - e * e
        start = board.rules.start_position
        if start in set(safe.tolist()):
            row = n[list(safe).index(start)]
            visits = np.zeros(size)
            visits[safe] = row
    return {"expected": expected, "variance": variance, "finish": finish, "visits": visits}


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
    jumps = [(s, draw(st.integers(1, goal).filter(lambda e, s=s: e != s))) for s in starts]
    try:
        return Board(rows, cols, jumps, rules=rules)
    except BoardError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(board=boards())
def test_sparse_figures_match_the_dense_reference(board: Board) -> None:
    # Whichever way the chain solves I - R (the plain walk plus corrections on a board
    # of that shape, SuperLU on the rest: boards with traps, bounces and the like),
    # against the textbook reference.
    reference = dense_reference(board)
    _check_against(reference, board, analyze(board))


def _check_against(reference: dict[str, np.ndarray], board: Board, a: Analysis) -> None:
    chain = a._chain
    for square in range(board.goal + 1):
        want = reference["expected"][square]
        got = a.expected_turns_from(square)
        if math.isinf(want):
            assert got == math.inf
            continue
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
        assert float(chain.variance[square]) == pytest.approx(
            reference["variance"][square], rel=1e-9, abs=1e-9
        )
        assert float(chain.finish_probability[square]) == pytest.approx(1.0, abs=1e-12)
    assert chain.finish_probability == pytest.approx(reference["finish"], abs=1e-12)
    visits = a.visits()
    if reference["visits"] is None:
        assert visits is None
    else:
        assert visits is not None
        assert visits == pytest.approx(list(reference["visits"]), rel=1e-12, abs=1e-12)
    if a.finite:
        assert a.std_turns == pytest.approx(
            math.sqrt(max(reference["variance"][a.start], 0.0)), rel=1e-9, abs=1e-9
        )
    assert all(entry.exact for entry in a.accuracy)


def random_board(side: int, jumps: int, seed: int, rules: Rules) -> Board:
    rng = random.Random(seed)
    goal = side * side
    table: dict[int, int] = {}
    while len(table) < jumps:
        start = rng.randrange(2, goal)
        end = rng.randrange(max(1, start - goal // 4), min(goal, start + goal // 4) + 1)
        if end != start and start not in table:
            table[start] = end
    return Board(side, side, table.items(), rules=rules)


def plain_numpy_expected(board: Board) -> np.ndarray:
    """E from every position with numpy's dense solver, per roll (no six_again)."""
    goal, faces = board.goal, board.rules.faces
    matrix = np.eye(goal)
    for here in range(goal):
        for die in range(1, faces + 1):
            there = next_position(board, here, die)
            if there != goal:
                matrix[here, there] -= 1 / faces
    return np.linalg.solve(matrix, np.ones(goal))


@pytest.mark.parametrize("side", [30, 40])
def test_large_boards_against_plain_numpy(side: int) -> None:
    # The check: 30x30-100x100 boards against a plain numpy reference (the
    # sizes here keep the dense reference quick).
    board = random_board(side, side * 2, seed=side, rules=Rules(start=0))
    a = analyze(board, players=4)
    reference = plain_numpy_expected(board)
    finite = np.isfinite(a._chain.expected[:-1])
    assert a._chain.expected[:-1][finite] == pytest.approx(reference[finite], rel=1e-9)
    # Four seats from the start: symmetric chances that add up, within their bound (the
    # tail is closed once its sum is known to within CLOSED_TAIL).
    wins = a.win_chances
    bound = a.accuracy_of("win_chances").error
    assert bound <= CLOSED_TAIL and sum(wins) == pytest.approx(1 - a.no_winner, abs=CLOSED_TAIL)
    assert wins[0] > wins[1] > wins[2] > wins[3]
    # The distribution sums to the expectation: E = sum_t P(T > t).
    column = a._chain.column(a.start).cdf
    assert a.expected_turns == pytest.approx(float((1 - column).sum()), rel=1e-9)


def test_the_built_in_small_boards_need_no_scipy() -> None:
    """snl stats and the hint's first odds on the built-in 10 x 10 boards import no scipy
    (a quarter of a second): their systems are solved dense."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from snl_tui.core.odds.analysis import analyze\n"
        "from snl_tui.core.files.formats import load_board\n"
        "for name in ('classic', 'leetcode-1', 'throws-30', 'river'):\n"
        "    a = analyze(load_board(name), players=2)\n"
        "    a.expected_turns, a.std_turns, a.win_chances, a.visits(), a.mode_turns\n"
        "print('scipy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_forecast_stops_the_columns_near_the_first_turn_that_settles_them() -> None:
    """``Chain.columns`` with a ``wait`` that forecasts from the criterion's readings (as
    the analysis does for its win chances) stops within a few dozen turns of the first
    turn that meets it, where the usual stretches (an eighth more each time) run past."""
    board = random_board(30, 40, seed=0, rules=Rules())
    start = board.rules.start_position
    target = 1e-9
    clear_cache()
    full = chain_module.chain_of(board).column(start)
    assert full.resolved
    first = int(np.argmax(1.0 - full.cdf <= target))  # the first turn that meets it
    assert first > 300  # a long game: met well after the first checks
    stops = []
    for forecasting in (True, False):
        clear_cache()
        readings: list[tuple[int, float]] = []

        def done(columns: list[stretch.Column], readings: list = readings) -> bool:
            left = 1.0 - float(columns[0].cdf[-1])
            readings.append((columns[0].horizon, left))
            return left <= target

        def wait(turn: int, readings: list = readings) -> int:
            return stretch.forecast(readings, turn, target)

        column = chain_module.chain_of(board).columns(
            [start], done, wait=wait if forecasting else None
        )[0]
        assert 1.0 - column.cdf[-1] <= target
        stops.append(column.horizon)
    clear_cache()
    forecast, usual = stops
    assert first <= forecast <= first + 48 < usual
