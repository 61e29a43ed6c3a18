"""The figures of SPEC 6 beyond the mean (spread, most likely turn, game rounds, visits),
the fast ``expected_turns``, the overflow case and ``snl check``'s findings, each checked
against an independent computation: exact rationals built from the engine's
``next_position`` alone, or a small seeded Monte Carlo with a tolerance from its
standard error."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.engine import Game, next_position
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.odds.markov import expected_turns
from snl_tui.core.odds.report import analysis_json, format_report
from snl_tui.core.odds.summary import summarize
from snl_tui.core.rules import Rules
from snl_tui.core.studio.checks import check_board
from snl_tui.core.studio.impacts import jump_impacts
from snl_tui.core.text import percent, square_ranges

from .strategies import boards

# -- exact rationals ---------------------------------------------------------------------


def solve_exact(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gauss-Jordan elimination in rationals (small systems only)."""
    n = len(rhs)
    rows = [[*matrix[i], rhs[i]] for i in range(n)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] for i in range(n)]


def turn_matrix(board: Board) -> tuple[list[int], dict[int, dict[int, Fraction]]]:
    """Non-goal positions reachable from the start and their one-turn moves (no
    six_again: a turn is one roll), straight from ``next_position``."""
    faces = board.rules.faces
    start = board.rules.start_position
    states, moves = [start], {}
    for here in states:
        row: dict[int, Fraction] = {}
        for die in range(1, faces + 1):
            there = next_position(board, here, die)
            row[there] = row.get(there, Fraction(0)) + Fraction(1, faces)
            if there != board.goal and there not in states:
                states.append(there)
        moves[here] = row
    return states, moves


def exact_moments(board: Board) -> tuple[Fraction, Fraction, list[Fraction]]:
    """(E[T], E[T^2], turns begun on each reachable state) from the start, exactly."""
    states, moves = turn_matrix(board)
    index = {p: i for i, p in enumerate(states)}
    n = len(states)
    system = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for p, row in moves.items():
        for q, share in row.items():
            if q in index:
                system[index[p]][index[q]] -= share
    ones = [Fraction(1)] * n
    mean = solve_exact(system, ones)
    # T = 1 + T(next): E[T^2] = 1 + 2 P E + P E2, so (I - P) E2 = 2 E - 1.
    second = solve_exact(system, [2 * m - 1 for m in mean])
    transposed = [[system[j][i] for j in range(n)] for i in range(n)]
    visits = solve_exact(transposed, [Fraction(int(i == 0)) for i in range(n)])
    return mean[0], second[0], visits


def small_boards() -> list[Board]:
    return [
        Board.from_jumps(3, 3, ladders=[(2, 6)], snakes=[(8, 3)], rules=Rules(faces=3)),
        Board.from_jumps(1, 9, ladders=[(3, 7)], snakes=[(6, 2)], rules=Rules(faces=2)),
        Board.from_jumps(
            2, 5, ladders=[(4, 8)], snakes=[(9, 1)], rules=Rules(faces=4, overshoot="bounce")
        ),
        Board.from_jumps(
            3, 4, ladders=[(2, 11)], snakes=[(10, 5)], rules=Rules(start=0, overshoot="finish")
        ),
    ]


@pytest.mark.parametrize("board", small_boards())
def test_spread_and_visits_match_exact_rationals(board: Board) -> None:
    mean, second, visits = exact_moments(board)
    analysis = analyze(board)
    assert analysis.expected_turns == pytest.approx(float(mean), rel=1e-9)
    std = math.sqrt(float(second - mean * mean))
    assert analysis.std_turns == pytest.approx(std, rel=1e-7)
    counts = analysis.visits()
    assert counts is not None and len(counts) == board.goal + 1
    states, _ = turn_matrix(board)
    expected_counts = [0.0] * (board.goal + 1)
    for state, value in zip(states, visits, strict=True):
        expected_counts[state] = float(value)
    assert counts == pytest.approx(expected_counts, abs=1e-9)
    assert sum(counts) == pytest.approx(analysis.expected_turns, rel=1e-9)


@pytest.mark.parametrize("board", small_boards())
def test_most_likely_turn_is_the_exact_pmf_peak(board: Board) -> None:
    _, moves = turn_matrix(board)
    mass = {board.rules.start_position: Fraction(1)}
    pmf = [Fraction(0)]
    while sum(mass.values()) >= max(pmf):  # later turns could still beat the peak
        following: dict[int, Fraction] = {}
        finished = Fraction(0)
        for here, share in mass.items():
            for there, step in moves[here].items():
                if there == board.goal:
                    finished += share * step
                else:
                    following[there] = following.get(there, Fraction(0)) + share * step
        pmf.append(finished)
        mass = following
    assert analyze(board).mode_turns == pmf.index(max(pmf))


@pytest.mark.parametrize("board", small_boards()[:2])
def test_game_rounds_match_exact_rationals_on_pairs(board: Board) -> None:
    # Two seats move in turn; the game ends in the round in which the first finishes.
    states, moves = turn_matrix(board)
    pairs = [(a, b) for a in states for b in states]
    index = {pair: i for i, pair in enumerate(pairs)}
    n = len(pairs)
    system = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for (a, b), i in index.items():
        for a2, pa in moves[a].items():
            if a2 == board.goal:
                continue  # seat 1 won in this round
            for b2, pb in moves[b].items():
                if b2 != board.goal:
                    system[i][index[(a2, b2)]] -= pa * pb
    rounds = solve_exact(system, [Fraction(1)] * n)
    start = board.rules.start_position
    analysis = analyze(board, players=2)
    assert analysis.game_rounds == pytest.approx(float(rounds[index[(start, start)]]), rel=1e-9)
    assert analyze(board).game_rounds == analyze(board).expected_turns


def test_six_again_figures_match_a_seeded_monte_carlo() -> None:
    board = Board.from_jumps(
        2, 6, ladders=[(3, 9)], snakes=[(11, 4)], rules=Rules(faces=3, six_again=True)
    )
    rng = random.Random(7)
    rounds = []
    for _ in range(4000):
        game = Game(board, ("A", "B"), seed=rng.randrange(1 << 30))
        while not game.over:
            game.roll()
        rounds.append(game.turns_taken[game.winner or 0])
    single = []
    for _ in range(4000):
        game = Game(board, ("A",), seed=rng.randrange(1 << 30))
        while not game.over:
            game.roll()
        single.append(game.turns_taken[0])
    analysis = analyze(board, players=2)
    n = len(single)
    mean = sum(single) / n
    std = math.sqrt(sum((t - mean) ** 2 for t in single) / (n - 1))
    # Standard error of a sample standard deviation ~ std * sqrt(kurtosis-ish / n): be
    # generous (5 SE of the mean of squares), yet far tighter than any real mistake.
    assert analyze(board).std_turns == pytest.approx(std, rel=0.08)
    mean_rounds = sum(rounds) / len(rounds)
    se = math.sqrt(sum((r - mean_rounds) ** 2 for r in rounds) / len(rounds) / len(rounds))
    assert abs(analysis.game_rounds - mean_rounds) < 5 * se
    visits = analyze(board).visits()
    assert visits is not None and sum(visits) == pytest.approx(analyze(board).expected_turns)


def test_figures_with_a_trap_are_infinite_not_wrong() -> None:
    # faces = 2: square 6 and 7 drop to 4, so from 4 and 5 the goal is gone.
    board = Board.from_jumps(1, 10, snakes=[(6, 4), (7, 4)], rules=Rules(faces=2))
    analysis = analyze(board)
    assert not analysis.finite and math.isinf(analysis.std_turns)
    assert analysis.visits() is None and math.isinf(analysis.game_rounds)
    data = analysis_json(summarize(analysis, visits=True), visits=True)
    assert data["finite"] is False and data["std_turns"] is None and data["visits"] is None


# -- the fast expectation ------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_side=7))
def test_fast_expected_turns_agrees_with_the_analysis(board: Board) -> None:
    fast = expected_turns(board)
    full = analyze(board).expected_turns
    if math.isinf(full):
        assert math.isinf(fast)
    else:
        assert fast == pytest.approx(full, rel=1e-8, abs=1e-9)


def test_jump_impacts_agree_with_a_direct_solve_per_jump() -> None:
    rng = random.Random(11)
    jumps: dict[int, int] = {}
    while len(jumps) < 60:
        a, b = rng.randint(2, 143), rng.randint(1, 143)
        if a != b and a not in jumps and b not in jumps and a not in jumps.values():
            jumps[a] = b
    for rules in (Rules(), Rules(chain=True, six_again=True, overshoot="bounce")):
        try:
            board = Board(12, 12, jumps.items(), rules=rules)
        except Exception:  # a chain cycle: only the plain rules then
            continue
        for impact in jump_impacts(board):
            others = [(a, b) for a, b in board.jumps.items() if a != impact.start]
            direct = expected_turns(board.with_jumps(others))
            if math.isinf(direct):
                assert math.isinf(impact.expected_turns_without)
            else:
                assert impact.expected_turns_without == pytest.approx(direct, rel=1e-7)


# -- too large to print is not "never" -------------------------------------------------------


def astronomical_board() -> Board:
    """2 x 1000, a coin for a die, a snake back to 1 on every third square: every game
    ends, after about 2^667 turns."""
    return Board(2, 1000, [(s, 1) for s in range(3, 2000, 3)], rules=Rules(faces=2))


def test_an_astronomical_expectation_is_finite_not_endless() -> None:
    analysis = analyze(astronomical_board())
    assert analysis.finite and analysis.too_large and analysis.never_finishes == 0.0
    data = analysis_json(summarize(analysis))
    assert data["finite"] is True and data["too_large"] is True
    assert data["expected_turns"] is None
    text = format_report(summarize(analysis))
    assert "too large" in text
    assert "infinite" not in text and "never finish" not in text


# -- wording and findings ------------------------------------------------------------------


def test_percent_and_square_ranges() -> None:
    assert percent(0.0) == "0.0%" and percent(1.0) == "100.0%"
    assert percent(0.0004) == "<0.1%" and percent(0.9996) == ">99.9%"
    assert percent(0.426, 0) == "43%" and percent(None) == "n/a"
    assert square_ranges([0, 1, 2, 5, 7, 8]) == "squares start-2, 5, 7-8"
    assert square_ranges([4]) == "square 4"


def test_check_returns_findings_with_squares() -> None:
    board = Board.from_jumps(
        1, 12, ladders=[(1, 3), (9, 11)], snakes=[(6, 4), (7, 4)], rules=Rules(faces=2)
    )
    report = check_board(board)
    kinds = {finding.kind: finding for finding in report.warnings}
    assert kinds["snake-wall"].squares == (6, 7)
    assert kinds["jump-on-square-one"].squares == (1,)
    assert kinds["idle-jump"].squares == (9,)
    assert set(kinds["trap"].squares) >= {4, 5}
    assert report.notes[0].startswith("expected game length: infinite")


# -- the command line ----------------------------------------------------------------------


def test_analyze_json_has_the_new_figures(capsys) -> None:
    assert main(["analyze", "classic", "--json", "--players", "2", "--visits"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["std_turns"] > 0 and isinstance(data["mode_turns"], int)
    assert 0 < data["game_rounds"] < data["expected_turns"]
    assert len(data["visits"]) == 101 and data["visits"][0] == 1.0
    assert sum(data["visits"]) == pytest.approx(data["expected_turns"])
    assert main(["analyze", "classic", "--json"]) == 0
    assert "visits" not in json.loads(capsys.readouterr().out)


def test_solve_from_off_the_board_is_refused_on_a_start_one_board(capsys) -> None:
    assert main(["solve", "leetcode-2", "--from", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "start = 1" in captured.err
