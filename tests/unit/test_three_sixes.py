"""The house rule *three sixes in a row cancel the turn* (``three_sixes``, SPEC 12): in
the engine, in files and on the command line, and analysed exactly (checked against a
seeded Monte Carlo of the engine itself)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.engine import Game
from snl_tui.core.errors import RulesError
from snl_tui.core.files.formats import dump_board, load_board, parse_board
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.odds.markov import expected_turns
from snl_tui.core.rules import Rules

RULES = Rules(faces=3, six_again=True, three_sixes=True)


def small_board(rules: Rules = RULES) -> Board:
    return Board.from_jumps(4, 5, ladders=[(3, 11)], snakes=[(17, 6), (14, 2)], rules=rules)


def test_the_third_top_face_in_a_turn_goes_back_to_where_the_turn_began() -> None:
    game = Game(small_board(Rules(faces=3, six_again=True, three_sixes=True, overshoot="bounce")))
    # Rolled dice only: a replay marks them as drawn from the RNG.
    game = Game.replay(game.board, game.players, [3, 3, 3, 1], draws=4)
    first, second, third, fourth = game.history
    assert first.again and second.again and not third.again
    assert third.cancelled and not first.cancelled
    assert third.move.end != 1  # where the roll would have gone...
    assert fourth.move.start == 1  # ...but the next turn begins where the first began
    assert game.turns_taken == [2]


def test_a_puzzles_chosen_values_are_not_rolls() -> None:
    game = Game(small_board())
    for die in (3, 3, 3):
        game.play(die)
    assert not any(turn.cancelled for turn in game.history)


def test_three_sixes_needs_six_again_and_travels_in_every_format() -> None:
    with pytest.raises(RulesError, match="needs 'six_again'"):
        Rules(three_sixes=True)
    board = small_board()
    for fmt in ("toml", "json", "txt"):
        assert parse_board(dump_board(board, fmt), suffix=f".{fmt}").rules == board.rules


def monte_carlo(board: Board, games: int, seed: int) -> tuple[float, float]:
    """Mean turns to finish and its standard error, playing the engine itself."""
    rng = random.Random(seed)
    lengths = []
    for _ in range(games):
        game = Game(board, seed=rng.randrange(2**32))
        while not game.over:
            game.roll()
        lengths.append(game.turns_taken[0])
    mean = sum(lengths) / games
    variance = sum((x - mean) ** 2 for x in lengths) / (games - 1)
    return mean, math.sqrt(variance / games)


def test_the_exact_analysis_agrees_with_a_seeded_monte_carlo_of_the_engine() -> None:
    board = small_board()
    exact = analyze(board)
    mean, error = monte_carlo(board, 6000, seed=12)
    assert abs(exact.expected_turns - mean) < 4 * error
    # The rule matters here: without it the game is measurably different.
    plain = analyze(small_board(Rules(faces=3, six_again=True)))
    assert abs(plain.expected_turns - exact.expected_turns) > 4 * error
    assert expected_turns(board) == pytest.approx(exact.expected_turns, rel=1e-9)


@settings(max_examples=15, deadline=None)
@given(
    faces=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    start=st.sampled_from([0, 1]),
    overshoot=st.sampled_from(["stay", "bounce", "finish"]),
)
def test_distribution_matches_the_engine(faces: int, seed: int, start: int, overshoot: str) -> None:
    """P(finished within k turns) from the chain against the engine's own games."""
    rules = Rules(faces=faces, six_again=True, three_sixes=True, start=start, overshoot=overshoot)
    board = small_board(rules)
    exact = analyze(board)
    rng = random.Random(seed)
    games, k = 1500, 6
    within = 0
    for _ in range(games):
        game = Game(board, seed=rng.randrange(2**32))
        while not game.over and game.turns_taken[0] <= k:
            game.roll()
        within += game.over and game.turns_taken[0] <= k
    p = exact.finish_within(k)
    assert abs(within / games - p) < 5 * math.sqrt(p * (1 - p) / games) + 1e-9


def test_the_command_line_and_the_rules_line_know_it(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["analyze", "classic", "--six-again", "--three-sixes", "--json"]) == 0
    three = capsys.readouterr().out
    assert main(["analyze", "classic", "--six-again", "--json"]) == 0
    assert capsys.readouterr().out != three
    assert main(["analyze", "classic", "--three-sixes"]) == 2
    assert "needs 'six_again'" in capsys.readouterr().err
    assert (
        "three in a row go back"
        in load_board("classic", {"six_again": True, "three_sixes": True}).rules.describe()
    )


def test_snl_check_weighs_each_jump_under_the_rule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Each jump's effect is the exact expectation without it, under three_sixes too."""
    from snl_tui.core.studio.impacts import jump_impacts

    board = small_board()
    for impact in jump_impacts(board):
        others = [(a, b) for a, b in board.jumps.items() if a != impact.start]
        assert impact.expected_turns_without == pytest.approx(
            expected_turns(board.with_jumps(others)), rel=1e-12
        )
    path = tmp_path / "three.toml"
    path.write_text(dump_board(board, "toml"))
    assert main(["check", str(path)]) in (0, 1)
