"""The exact odds of random play (snl_tui.core.odds.analysis), checked against figures worked
out by hand, an exact rational solver, a plain forward iteration and Monte-Carlo games
played by the engine's ``Game``."""

from __future__ import annotations

import json
import math
import unicodedata
from fractions import Fraction

import pytest

from snl_tui.core.board import MAX_SIDE, Board
from snl_tui.core.engine import Game, next_position
from snl_tui.core.errors import MoveError, SnlError
from snl_tui.core.odds.analysis import (
    MAX_ANALYSIS_SQUARES,
    MAX_DISTRIBUTION_SQUARES,
    Analysis,
    AnalysisError,
    analyze,
)
from snl_tui.core.odds.model import idle_jumps
from snl_tui.core.odds.report import analysis_json, format_report
from snl_tui.core.odds.stretch import EXTENSION_ERROR
from snl_tui.core.odds.summary import summarize
from snl_tui.core.rules import Rules
from snl_tui.core.studio.checks import find_traps, odds_findings
from snl_tui.core.studio.impacts import jump_impacts

CLASSIC_LADDERS = [(1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91)]
CLASSIC_LADDERS.append((80, 100))
CLASSIC_SNAKES = [(16, 6), (47, 26), (49, 11), (56, 53), (62, 19), (64, 60), (87, 24), (93, 73)]
CLASSIC_SNAKES += [(95, 75), (98, 78)]


def classic(**rules: object) -> Board:
    return Board.from_jumps(
        10,
        10,
        ladders=CLASSIC_LADDERS,
        snakes=CLASSIC_SNAKES,
        rules=Rules(start=0, **rules),  # type: ignore[arg-type]
        name="classic",
    )


def line(squares: int, **rules: object) -> Board:
    """A 1 x squares board without jumps."""
    return Board(1, squares, rules=Rules(**rules))  # type: ignore[arg-type]


# -- independent references ---------------------------------------------------------------


def turn_outcomes(board: Board, square: int) -> dict[int, float]:
    """Where one whole turn from ``square`` ends (the goal when it wins), by expanding
    the rolls one by one: top faces under six_again roll again, a win stops at once."""
    rules = board.rules
    ends: dict[int, float] = {}
    pending = {square: 1.0}
    while sum(pending.values()) > 1e-17:
        again: dict[int, float] = {}
        for here, mass in pending.items():
            for die in range(1, rules.faces + 1):
                there = next_position(board, here, die)
                share = mass / rules.faces
                if there != board.goal and rules.six_again and die == rules.faces:
                    again[there] = again.get(there, 0.0) + share
                else:
                    ends[there] = ends.get(there, 0.0) + share
        pending = again
    return ends


def plain_cdf(board: Board, square: int, turns: int) -> list[float]:
    """P(finished within t turns) for t = 0..turns, by pushing a dict of mass forward."""
    goal = board.goal
    outcomes: dict[int, dict[int, float]] = {}
    mass = {square: 1.0}
    cdf = [1.0 if square == goal else 0.0]
    for _ in range(turns):
        following: dict[int, float] = {}
        for here, weight in mass.items():
            if here == goal:
                following[goal] = following.get(goal, 0.0) + weight
                continue
            if here not in outcomes:
                outcomes[here] = turn_outcomes(board, here)
            for there, p in outcomes[here].items():
                following[there] = following.get(there, 0.0) + weight * p
        mass = following
        cdf.append(mass.get(goal, 0.0))
    return cdf


def exact_expected(board: Board) -> dict[int, Fraction | None]:
    """Expected turns from every position in exact rationals (no six_again), by Gauss-
    Jordan elimination; None where the goal may never be reached."""
    assert not board.rules.six_again
    goal, faces = board.goal, board.rules.faces
    moves = {p: [next_position(board, p, d) for d in range(1, faces + 1)] for p in range(goal)}
    # can reach the goal / can reach a position that cannot: plain fixed points
    reach = {goal}
    changed = True
    while changed:
        changed = False
        for p, targets in moves.items():
            if p not in reach and any(t in reach for t in targets):
                reach.add(p)
                changed = True
    stuck = set(range(goal + 1)) - reach
    spoiled = set(stuck)
    changed = True
    while changed:
        changed = False
        for p, targets in moves.items():
            if p not in spoiled and any(t in spoiled for t in targets):
                spoiled.add(p)
                changed = True
    states = [p for p in range(goal) if p not in spoiled]
    index = {p: i for i, p in enumerate(states)}
    n = len(states)
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for p in states:
        i = index[p]
        rows[i][i] += 1
        rows[i][n] = Fraction(1)
        for t in moves[p]:
            if t != goal:
                rows[i][index[t]] -= Fraction(1, faces)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    result: dict[int, Fraction | None] = {p: None for p in range(goal + 1)}
    result[goal] = Fraction(0)
    for p in states:
        result[p] = rows[index[p]][n]
    return result


# -- reference figures --------------------------------------------------------------------


def test_classic_reference_figures() -> None:
    a = analyze(classic(), players=2)
    assert round(a.expected_turns, 4) == 39.2251
    assert a.median_turns == 32
    assert a.least_rolls == 7
    assert round(a.win_chances[0], 4) == 0.5079
    assert math.isclose(sum(a.win_chances), 1.0, abs_tol=1e-12)
    assert a.never_finishes == 0.0 and a.no_winner == 0.0
    assert not a.truncated


def test_classic_matches_exact_rationals_everywhere() -> None:
    board = classic()
    a = analyze(board)
    exact = exact_expected(board)
    for square in range(board.goal + 1):
        value = exact[square]
        assert value is not None
        assert a.expected_turns_from(square) == pytest.approx(float(value), rel=1e-11)


def test_classic_distribution_matches_plain_forward_iteration() -> None:
    board = classic()
    a = analyze(board)
    plain = plain_cdf(board, 0, 200)
    # Within 1e-12 turn by turn; a tail written in closed form (``Distribution._extended``) is
    # within EXTENSION_ERROR (1e-11, a hundredth of what "exact" means).
    bound = 1e-12 + EXTENSION_ERROR
    for t in range(201):
        assert a.finish_within(t) == pytest.approx(plain[t], abs=bound)
    for square in (5, 50, 99):
        plain = plain_cdf(board, square, 60)
        for t in range(61):
            assert a.finish_within_from(square, t) == pytest.approx(plain[t], abs=bound)


def test_expectation_agrees_with_the_tail_sum_of_the_distribution() -> None:
    # Two independent routes to E: the linear solve, and sum_t P(not finished by t).
    for board in (classic(), classic(six_again=True), classic(overshoot="bounce", chain=True)):
        a = analyze(board)
        tail = sum(1.0 - p for p in _cdf(a))
        assert a.expected_turns == pytest.approx(tail, rel=1e-9)


def _cdf(a: Analysis) -> list[float]:
    return [a.finish_within(t) for t in range(len(a.distribution))]


# -- figures worked out by hand -------------------------------------------------------------


def test_two_squares_exact_finish_is_geometric() -> None:
    # From square 1 only a 1 wins: p = 1/6 per turn.
    a = analyze(line(2), players=3)
    assert a.expected_turns == pytest.approx(6.0, rel=1e-12)
    for k in range(0, 30):
        assert a.finish_within(k) == pytest.approx(1 - (5 / 6) ** k, abs=1e-12)
    assert a.median_turns == 4  # (5/6)^4 = 0.48 <= 0.5 < (5/6)^3
    assert a.least_rolls == 1
    p, q = 1 / 6, 5 / 6
    cycle = 1 - q**3
    expected = [p / cycle, p * q / cycle, p * q * q / cycle]
    assert a.win_chances == pytest.approx(expected, abs=1e-12)


def test_two_players_on_two_squares() -> None:
    a = analyze(line(2), players=2)
    assert a.win_chances == pytest.approx([6 / 11, 5 / 11], abs=1e-12)


def test_two_squares_six_again() -> None:
    # A turn wins with 1/6 + (1/6)(1/6) + ... = 1/5: the forfeited 6 still rolls again.
    a = analyze(line(2, six_again=True))
    assert a.expected_turns == pytest.approx(5.0, rel=1e-12)
    assert a.finish_within(3) == pytest.approx(1 - 0.8**3, abs=1e-12)


def test_two_squares_bounce_and_finish() -> None:
    # bounce: odd rolls end on the goal, even ones bounce back to 1. finish: any roll wins.
    assert analyze(line(2, overshoot="bounce")).expected_turns == pytest.approx(2.0)
    a = analyze(line(2, overshoot="finish"))
    assert a.expected_turns == 1.0
    assert a.finish_within(1) == pytest.approx(1.0, abs=1e-15)
    assert a.median_turns == 1
    assert a.percentile_turns(1.0) == 1


def test_coin_die_without_jumps_follows_its_recurrences() -> None:
    # faces = 2, finish: E(k) = 1 + (E(k-1) + E(k-2)) / 2 with E(0) = E(-1) = 0, k the
    # squares still to go. stay: the same, except E(1) = 2 (a 2 is forfeited).
    for overshoot, first in (("finish", 1.0), ("stay", 2.0)):
        board = line(15, faces=2, overshoot=overshoot)
        a = analyze(board)
        expected = [0.0, first]
        for k in range(2, 15):
            expected.append(1 + (expected[k - 1] + expected[k - 2]) / 2)
        for k in range(15):
            assert a.expected_turns_from(15 - k) == pytest.approx(expected[k], rel=1e-12)


def test_start_off_the_board_is_one_extra_turn_on_a_plain_line() -> None:
    # Without jumps, start = 0 is start = 1 one square further back.
    off = analyze(line(20, start=0))
    on = analyze(Board(1, 21))
    assert off.expected_turns == pytest.approx(on.expected_turns, rel=1e-12)
    assert off.distribution[:80] == pytest.approx(on.distribution[:80], abs=1e-14)


def test_first_move_never_finishes_in_zero_turns() -> None:
    a = analyze(classic())
    assert a.finish_within(0) == 0.0 and a.finish_within(6) == 0.0
    assert a.finish_within(7) > 0
    assert a.finish_within(-3) == 0.0
    assert analyze(classic(), positions=[100]).expected_turns == 0.0


# -- boards that may never end -------------------------------------------------------------


def wall_board() -> Board:
    """faces = 2: squares 6 and 7 both drop to 4, so from 4 and 5 the goal is gone."""
    return Board.from_jumps(1, 10, snakes=[(6, 4), (7, 4)], rules=Rules(faces=2))


def fork_board() -> Board:
    """faces = 2: from square 1 a 1 climbs to 9 (safe), a 2 goes to 3 (into the wall)."""
    return Board.from_jumps(1, 12, ladders=[(2, 9)], snakes=[(6, 4), (7, 4)], rules=Rules(faces=2))


def test_unreachable_goal_is_infinite() -> None:
    # Found by graph search, not by iterating (its speed is benchmarks/analysis.py's).
    a = analyze(wall_board(), players=2)
    assert a.expected_turns == math.inf
    assert a.never_finishes == 1.0
    assert a.median_turns == -1
    assert a.percentile_turns(0.1) == math.inf
    assert a.finish_within(10**9) == 0.0
    assert a.win_chances == [0.0, 0.0]
    assert a.no_winner == 1.0
    assert a.least_rolls == -1
    assert a.expected_turns_from(8) == pytest.approx(analyze(line(3, faces=2)).expected_turns)


def test_half_the_games_never_finish() -> None:
    a = analyze(fork_board(), players=2)
    assert a.expected_turns == math.inf
    assert a.never_finishes == pytest.approx(0.5, abs=1e-12)
    # Exactly half finish in the limit, so no finite turn has half the games over.
    assert a.median_turns == -1
    assert a.percentile_turns(0.25) < math.inf
    assert a.finish_within(10**6) == pytest.approx(0.5, abs=1e-12)
    assert a.no_winner == pytest.approx(0.25, abs=1e-12)
    assert sum(a.win_chances) + a.no_winner == pytest.approx(1.0, abs=1e-12)
    assert a.win_chances[0] > a.win_chances[1]
    assert math.isfinite(a.expected_turns_from(9))
    assert sum(a.distribution) == pytest.approx(0.5, abs=1e-12)


def test_infinite_board_json_and_report() -> None:
    a = analyze(fork_board())
    data = analysis_json(summarize(a))
    assert data["expected_turns"] is None and data["finite"] is False
    assert data["median_turns"] is None
    json.dumps(data, allow_nan=False)
    text = format_report(summarize(a), fork_board())
    assert "infinite" in text and "50.0% of games never finish" in text


def test_traps_and_idle_jumps() -> None:
    traps = find_traps(fork_board())
    assert traps.doomed == (3, 4, 5)
    assert traps.risky == (1,)
    assert traps.never_finishes == pytest.approx(0.5)
    assert not find_traps(classic())
    # Square 9's ladder sits behind the wall of wall_board's twin: it never fires.
    board = Board.from_jumps(
        1, 12, ladders=[(9, 11)], snakes=[(6, 4), (7, 4)], rules=Rules(faces=2)
    )
    assert [(j.start, j.end) for j in idle_jumps(board)] == [(9, 11)]
    findings, _ = odds_findings(board)
    warnings = [finding.message for finding in findings]
    assert any("ladder 9 -> 11 never fires" in w for w in warnings)
    assert any(w.startswith("trap: 100.00% of games never finish") for w in warnings)
    assert {finding.kind for finding in findings} == {"idle-jump", "trap"}
    assert idle_jumps(classic()) == []


def test_odds_findings_skip_square_one_and_describe_every_jump() -> None:
    board = Board.from_jumps(3, 3, ladders=[(1, 5)], snakes=[(8, 2)])
    warnings, notes = odds_findings(board)
    assert warnings == []  # the start = 1 case is SPEC 2's own warning
    assert notes[0].startswith("expected game length:")
    assert len(notes) == 1 + 2


def expected_from_rows_plain(board: Board) -> float:
    """Expected turns on a board without jumps under overshoot = stay, from the start:
    backwards from the goal, each square's only loop is the rolls it forfeits."""
    goal, faces = board.goal, board.rules.faces
    expected = [0.0] * (goal + 1)
    for here in range(goal - 1, -1, -1):
        moves = [here + d for d in range(1, faces + 1) if here + d <= goal]
        stay = faces - len(moves)
        expected[here] = (1.0 + sum(expected[t] for t in moves) / faces) / (1 - stay / faces)
    return expected[board.rules.start_position]


def test_the_analysis_takes_every_board_the_solver_takes() -> None:
    assert MAX_ANALYSIS_SQUARES == MAX_SIDE * MAX_SIDE
    big = Board(60, 60)  # over the old dense limit of 2,500 squares
    a = analyze(big, players=2)
    assert a.expected_turns == pytest.approx(expected_from_rows_plain(big), rel=1e-12)
    assert all(entry.exact for entry in a.accuracy)
    warnings, notes = odds_findings(big)
    assert warnings == [] and notes[0].startswith("expected game length")


def test_a_board_past_the_distribution_limit_says_what_it_left_out() -> None:
    big = Board(201, 201)
    assert big.goal > MAX_DISTRIBUTION_SQUARES
    a = analyze(big, players=2)
    # Expected turns, std and visits are computed (one sparse factorisation) ...
    assert math.isfinite(a.expected_turns) and math.isfinite(a.std_turns)
    visits = a.visits()
    assert visits is not None and sum(visits) == pytest.approx(a.expected_turns, rel=1e-9)
    # ... the distribution's figures are left out, and say why.
    assert a.left_out is not None and "40,401" in a.left_out
    status = {entry.figure: entry.status for entry in a.accuracy}
    assert status == {
        "expected_turns": "exact",
        "std_turns": "exact",
        "visits": "exact",
        "distribution": "left out",
        "mode_turns": "left out",
        "win_chances": "left out",
        "game_rounds": "left out",
    }
    for ask in (
        lambda: a.finish_within(10),
        lambda: a.median_turns,
        lambda: a.win_chances,
        lambda: a.game_rounds,
    ):
        with pytest.raises(AnalysisError, match="at most 40,000 squares"):
            ask()
    text = format_report(summarize(a))
    assert "expected turns" in text and "median turns" not in text
    assert "left out: median, percentiles, finished within, most likely turn, win chances" in text
    data = analysis_json(summarize(a))
    assert data["median_turns"] is None and data["win_chances"] is None
    assert data["accuracy"]["win_chances"]["status"] == "left out"  # type: ignore[index]
    assert data["expected_turns"] == pytest.approx(a.expected_turns)


# -- seats and game situations ---------------------------------------------------------------


def test_single_player_wins_whenever_it_finishes() -> None:
    assert analyze(classic()).win_chances == [1.0]
    assert analyze(fork_board()).win_chances == pytest.approx([0.5], abs=1e-12)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_sum_to_one_and_earlier_seats_are_ahead(players: int) -> None:
    a = analyze(classic(six_again=True), players=players)
    chances = a.win_chances
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)
    assert chances == sorted(chances, reverse=True)


def test_seat_order_is_what_matters() -> None:
    board = classic()
    one = analyze(board, players=3, positions=[10, 50, 70], to_move=1)
    two = analyze(board, players=3, positions=[50, 70, 10], to_move=0)
    assert one.win_chances == pytest.approx(two.win_chances[2:] + two.win_chances[:2])
    assert one.start == 50 and one.expected_turns == pytest.approx(board_expected(board, 50))


def board_expected(board: Board, square: int) -> float:
    return analyze(board).expected_turns_from(square)


@pytest.mark.parametrize("board", [classic(), classic(overshoot="bounce"), fork_board()])
def test_win_chances_obey_the_first_roll(board: Board) -> None:
    # Total probability over seat 0's first roll (one roll per turn without six_again).
    start = board.rules.start_position
    faces = board.rules.faces
    total = [0.0, 0.0]
    for die in range(1, faces + 1):
        there = next_position(board, start, die)
        if there == board.goal:
            total[0] += 1 / faces
            continue
        after = analyze(board, players=2, positions=[there, start], to_move=1).win_chances
        total[0] += after[0] / faces
        total[1] += after[1] / faces
    assert analyze(board, players=2).win_chances == pytest.approx(total, abs=1e-11)


def test_a_pending_extra_roll_is_a_fresh_turn() -> None:
    # After a non-winning 6 under six_again the same seat rolls on: to_move stays 0.
    board = classic(six_again=True)
    faces = board.rules.faces
    total = [0.0, 0.0]
    for die in range(1, faces + 1):
        there = next_position(board, 0, die)
        if die == faces:
            after = analyze(board, players=2, positions=[there, 0], to_move=0)
        else:
            after = analyze(board, players=2, positions=[there, 0], to_move=1)
        total = [t + w / faces for t, w in zip(total, after.win_chances, strict=True)]
    assert analyze(board, players=2).win_chances == pytest.approx(total, abs=1e-11)


def test_bad_arguments() -> None:
    board = classic()
    with pytest.raises(SnlError):
        analyze(board, players=5)
    with pytest.raises(SnlError):
        analyze(board, players=2, positions=[0])
    with pytest.raises(MoveError):
        analyze(board, players=1, positions=[101])
    with pytest.raises(SnlError):
        analyze(board, players=2, to_move=2)
    with pytest.raises(MoveError):
        analyze(board).expected_turns_from(-1)
    with pytest.raises(ValueError):
        analyze(board).percentile_turns(1.5)


def test_the_chain_work_is_cached_per_board() -> None:
    board = classic(faces=5)
    first = analyze(board)
    again = analyze(classic(faces=5), players=4, positions=[3, 9, 27, 80], to_move=2)
    assert first._chain is again._chain


# -- distribution views ----------------------------------------------------------------------


def test_percentiles_distribution_and_pmf() -> None:
    a = analyze(classic())
    assert a.percentile_turns(0.5) == a.median_turns
    assert a.percentile(32) >= 0.5 > a.percentile(31)
    low, high = a.percentile_turns(0.1), a.percentile_turns(0.9)
    assert low < a.median_turns < high
    assert sum(a.distribution) == pytest.approx(1.0, abs=1e-12)
    pmf = a.pmf(40)
    assert len(pmf) == 41 and pmf[:7] == [0.0] * 7
    assert sum(pmf) == pytest.approx(a.finish_within(40), abs=1e-14)
    # Past the resolved distribution (its tail below 1e-12) nothing is left.
    resolved = len(a.distribution)
    assert a.pmf(resolved + 5)[-1] == 0.0
    assert sum(a.pmf(resolved - 1)) == pytest.approx(1.0, abs=1e-12)


# -- jump impacts ------------------------------------------------------------------------------


def test_jump_impacts_on_classic() -> None:
    board = classic()
    impacts = {(i.start, i.end): i for i in jump_impacts(board)}
    assert len(impacts) == 19
    top = impacts[(80, 100)]
    assert top.kind == "ladder" and top.delta < -19
    assert top.describe().startswith("ladder 80->100 shortens the game by 19.")
    # The famous oddity: the chute 56 -> 53 makes the classic game slightly shorter.
    odd = impacts[(56, 53)]
    assert odd.kind == "snake" and odd.delta < 0
    assert "SHORTENS" in odd.describe()
    reduced = Board.from_jumps(
        10,
        10,
        ladders=[j for j in CLASSIC_LADDERS if j != (80, 100)],
        snakes=CLASSIC_SNAKES,
        rules=Rules(start=0),
    )
    assert top.expected_turns_without == pytest.approx(analyze(reduced).expected_turns)


def test_a_ladder_can_lengthen_the_game() -> None:
    # Coin die: the ladder 8 -> 9 lifts the token right in front of the snake 11 -> 1.
    board = Board.from_jumps(1, 12, ladders=[(8, 9)], snakes=[(11, 1)], rules=Rules(faces=2))
    without = Board.from_jumps(1, 12, snakes=[(11, 1)], rules=Rules(faces=2))
    exact_with = exact_expected(board)[1]
    exact_without = exact_expected(without)[1]
    assert exact_with is not None and exact_without is not None
    assert exact_with > exact_without
    (ladder, _) = jump_impacts(board)
    assert ladder.lengthens
    assert ladder.delta == pytest.approx(float(exact_with - exact_without), rel=1e-10)
    assert "LENGTHENS" in ladder.describe()


def test_jump_impacts_with_traps() -> None:
    impacts = {(i.start, i.end): i for i in jump_impacts(fork_board())}
    # Without the ladder every game runs into the wall: still infinite either way.
    assert math.isnan(impacts[(2, 9)].delta)
    # Without one of the wall's snakes the game always ends: that snake makes it endless.
    assert impacts[(6, 4)].delta == math.inf
    assert "endless" in impacts[(6, 4)].describe()


# -- reports -----------------------------------------------------------------------------------


def test_json_has_spec_keys() -> None:
    a = analyze(classic(), players=2)
    data = analysis_json(summarize(a))
    assert set(data) >= {"expected_turns", "median_turns", "least_rolls", "finish_within"}
    assert data["finite"] is True
    assert data["median_turns"] == 32 and data["least_rolls"] == 7
    assert set(data["finish_within"]) >= {"10", "20", "50", "100"}  # type: ignore[arg-type]
    assert data["win_chances"] == a.win_chances
    assert json.loads(json.dumps(data, allow_nan=False)) == data


def test_text_report() -> None:
    board = classic()
    text = format_report(summarize(analyze(board, players=2)), board)
    assert "expected turns    39.2251" in text
    assert "median turns      32" in text
    assert "least rolls       7" in text
    assert "10%: 15" in text and "90%:" in text
    assert "seat 1: 50.79%" in text
    assert "█" in text
    for char in text:
        assert unicodedata.east_asian_width(char) not in ("W", "F")
    assert format_report(summarize(analyze(board))).startswith("classic (10x10)")


# -- against games played by the engine -----------------------------------------------------


def play_games(board: Board, players: int, games: int, seed: int) -> list[tuple[int, int]]:
    """(winner seat, winner's turns) of ``games`` random games played by Game."""
    results = []
    for n in range(games):
        game = Game(board, tuple(f"P{i}" for i in range(players)), seed=seed * 100_003 + n)
        while not game.over:
            game.roll()
        assert game.winner is not None
        results.append((game.winner, game.turns_taken[game.winner]))
    return results


MONTE_CARLO_BOARDS = [
    Board.from_jumps(4, 4, ladders=[(2, 9), (7, 13)], snakes=[(15, 3), (11, 6)]),
    Board.from_jumps(
        4,
        5,
        ladders=[(1, 8), (4, 14)],
        snakes=[(14, 2), (19, 10), (17, 5)],
        rules=Rules(start=0, overshoot="bounce", chain=True, faces=4, six_again=True),
    ),
    Board.from_jumps(
        3, 5, ladders=[(3, 12)], snakes=[(13, 4)], rules=Rules(overshoot="finish", faces=3)
    ),
]


@pytest.mark.parametrize("board", MONTE_CARLO_BOARDS)
def test_monte_carlo_games_agree(board: Board) -> None:
    # N games; every tolerance is 5 standard errors computed from the exact
    # distribution, so a correct analysis fails with probability < 1e-6 per check
    # (and the seed is fixed, so the outcome does not flicker).
    games = 6000
    a = analyze(board)
    results = play_games(board, 1, games, seed=7)
    turns = [t for _, t in results]
    dist = a.distribution
    mean = sum(t * p for t, p in enumerate(dist))
    variance = sum((t - mean) ** 2 * p for t, p in enumerate(dist))
    assert mean == pytest.approx(a.expected_turns, rel=1e-9)
    assert abs(sum(turns) / games - mean) < 5 * math.sqrt(variance / games)
    for q in (0.25, 0.5, 0.75):
        k = a.percentile_turns(q)
        p = a.finish_within(k)
        share = sum(t <= k for t in turns) / games
        assert abs(share - p) < 5 * math.sqrt(p * (1 - p) / games) + 1e-9


@pytest.mark.parametrize("board", MONTE_CARLO_BOARDS[:2])
def test_monte_carlo_seats_agree(board: Board) -> None:
    games = 6000
    exact = analyze(board, players=3).win_chances
    results = play_games(board, 3, games, seed=11)
    for seat, p in enumerate(exact):
        share = sum(winner == seat for winner, _ in results) / games
        assert abs(share - p) < 5 * math.sqrt(p * (1 - p) / games)


def test_positions_past_the_table_are_followed_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    # With room for 64 turns only, the positions asked about are followed past the
    # table: the same figures as the full table, not a silent cut.
    from snl_tui.core.odds import markov as module
    from snl_tui.core.odds import tuning

    board = classic(faces=4)  # a board no other test caches
    module.clear_cache()
    full = analyze(board, players=3, positions=[0, 17, 54], to_move=1)
    expected = (full.win_chances, full.median_turns, full.finish_within(200), full.game_rounds)
    monkeypatch.setattr(tuning, "TABLE_CELLS", 1)  # the floor: 64 rows
    module.clear_cache()
    try:
        a = analyze(board, players=3, positions=[0, 17, 54], to_move=1)
        assert a._chain.table.t == 63 and not a._chain.table.complete
        assert a.horizon > 63 and not a.truncated
        got = (a.win_chances, a.median_turns, a.finish_within(200), a.game_rounds)
        assert got[0] == pytest.approx(expected[0], abs=1e-12)
        assert got[1] == expected[1]
        assert got[2] == pytest.approx(expected[2], abs=1e-12)
        assert got[3] == pytest.approx(expected[3], abs=1e-9)
        assert all(entry.exact for entry in a.accuracy)
    finally:
        module.clear_cache()


def test_a_distribution_cut_by_the_work_budget_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from snl_tui.core.odds import markov as module
    from snl_tui.core.odds import tuning

    board = classic(faces=3)  # a board no other test caches
    monkeypatch.setattr(tuning, "TABLE_CELLS", 1)  # the floor: 64 rows
    monkeypatch.setattr(tuning, "COLUMN_WORK", 1)  # then 64 more turns at most
    module.clear_cache()
    try:
        a = analyze(board, players=2)
        assert a.truncated and a.horizon == 127
        unresolved = 1.0 - a.finish_within(127)
        assert 1e-6 < unresolved < 0.5
        assert a.finish_within(10**6) == a.finish_within(127)  # a lower bound past the cut
        assert a.percentile_turns(0.99999999) == math.inf
        assert math.isfinite(a.expected_turns)  # the factorisation does not need the table
        assert sum(a.win_chances) < 1 - 1e-9  # the unresolved rest is not handed out
        accuracy = {entry.figure: entry for entry in a.accuracy}
        assert accuracy["expected_turns"].exact
        assert accuracy["distribution"].status == "bounded"
        assert accuracy["distribution"].error == pytest.approx(unresolved, rel=1e-9)
        wins = accuracy["win_chances"]
        assert wins.status == "bounded" and "turn 127" in wins.why
        # The bound holds: the exact chances (no caps) are within it.
        monkeypatch.undo()
        module.clear_cache()
        exact = analyze(board, players=2).win_chances
        for got, want in zip(a.win_chances, exact, strict=True):
            assert got <= want <= got + wins.error
        rounds = accuracy["game_rounds"]
        assert abs(a.game_rounds - analyze(board, players=2).game_rounds) <= rounds.error
        text = format_report(summarize(a))
        assert "note: win chances within" in text and "after 127" in text
        data = analysis_json(summarize(a))
        assert data["accuracy"]["distribution"]["status"] == "bounded"  # type: ignore[index]
    finally:
        module.clear_cache()
