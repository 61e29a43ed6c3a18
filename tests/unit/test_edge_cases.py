"""Unit tests for the rough edges a new player met (issue 13): wording, the winner's
odds, the seed of each game, idle jumps and the keys that are hidden now."""

from __future__ import annotations

import random

import pytest

from snl_tui.cli.main import main
from snl_tui.commands import keys_of
from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze, winner_finished_within
from snl_tui.core.rules import Rules
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.solver import least_rolls_from, optimal_dice
from snl_tui.core.studio.checks import odds_findings
from snl_tui.core.studio.impacts import jump_impacts
from snl_tui.core.text import plural
from snl_tui.widgets.hint_panel import hint_lines
from snl_tui.widgets.studio_panel import NumbersPanel


def test_plural_says_one_thing_and_many_things() -> None:
    assert plural(1, "turn") == "1 turn"
    assert plural(0, "snake") == "0 snakes"
    assert plural(2, "roll") == "2 rolls"
    assert plural(3, "body", "bodies") == "3 bodies"


def test_the_studio_status_counts_one_ladder_as_one_ladder() -> None:
    panel = NumbersPanel()
    panel.shown_board = Board.from_jumps(8, 8, ladders=[(3, 20)])
    assert panel._status() == "8x8, 1 ladder, 0 snakes"


def test_a_detour_note_says_rolling_and_counts_rolls() -> None:
    board = load_board("classic")
    session = GameSession(GameSettings(board, mode="puzzle", seed=1))
    square = 0
    # A die value that is legal but not optimal from the start.
    detour = next(d for d in range(1, 7) if d not in optimal_dice(board, square))
    session.move(detour)
    note = session.move_note
    assert note is not None
    best = " or ".join(map(str, optimal_dice(board, square)))
    left = least_rolls_from(board, session.game.position)
    assert f"rolling a {best} would have left {plural(least_rolls_from(board, 0) - 1, 'roll')}" in (
        note
    )
    assert f"{plural(left, 'roll')} left now" in note


def test_the_hint_route_says_roll_then_square() -> None:
    board = load_board("classic")
    text = hint_lines(board, Player("Ann"), 0).plain
    assert "Route (roll→square): " in text


def test_a_jump_that_never_fires_says_so_in_check() -> None:
    # Square 8 is reached only from 6 and 7 with a 2-sided die, and both are ladders.
    board = Board.from_jumps(1, 12, ladders=[(6, 10), (7, 10), (8, 11)], rules=Rules(faces=2))
    impacts = {impact.start: impact for impact in jump_impacts(board)}
    assert not impacts[8].fires and impacts[6].fires
    _, notes = odds_findings(board)
    (note,) = [note for note in notes if "8->11" in note]
    assert "never fires" in note and "barely" not in note


def _monte_carlo_winner_within(board: Board, players: int, turns: int, games: int) -> float:
    rng = random.Random(5)
    short = 0
    for _ in range(games):
        game = Game(board, [f"P{i}" for i in range(players)], seed=rng.randrange(2**32))
        while not game.over:
            game.roll()
        assert game.winner is not None
        short += game.turns_taken[game.winner] <= turns
    return short / games


@pytest.mark.parametrize("players", [1, 3])
def test_the_winners_finishing_turn_matches_a_monte_carlo(players: int) -> None:
    board = Board.from_jumps(3, 4, ladders=[(2, 9)], snakes=[(11, 4)], rules=Rules(faces=4))
    turns = 3
    exact = winner_finished_within(board, players, turns)
    sampled = _monte_carlo_winner_within(board, players, turns, 4000)
    assert exact == pytest.approx(sampled, abs=0.03)  # ~4 standard errors
    # With more players a short game is more common; with one it is the one-seat odds.
    one = analyze(board).finish_within(turns)
    if players == 1:
        assert exact == pytest.approx(one)
    else:
        assert exact > one


def test_a_seeded_session_plays_different_games_in_a_reproducible_order() -> None:
    board = load_board("classic")

    def first_rolls(session: GameSession, games: int) -> list[tuple[int, ...]]:
        sequence = []
        for index in range(games):
            if index:
                session.new_game()
            game = session.game
            for _ in range(10):
                if not game.over:
                    game.roll()
            sequence.append(tuple(game.rolls))
        return sequence

    one = first_rolls(GameSession(GameSettings(board, seed=7)), 4)
    two = first_rolls(GameSession(GameSettings(board, seed=7)), 4)
    assert one == two  # the seed fixes the sequence of games
    assert len(set(one)) == 4  # and each game of it is its own


def test_solve_from_off_the_board_is_refused_on_a_start_1_board(capsys) -> None:
    assert load_board("leetcode-2").rules.start == 1
    assert main(["solve", "leetcode-2", "--from", "0"]) == 2
    assert "starts on square 1" in capsys.readouterr().err


def test_hidden_keys_say_why() -> None:
    board = load_board("classic")
    classic = GameSession(GameSettings(board, seed=3))
    assert classic.available("undo") is False
    assert "puzzle mode" in (classic.why_unavailable("undo", keys_of) or "")
    assert classic.why_unavailable("roll", keys_of) is None
    while not classic.game.over:
        classic.move()
    assert classic.available("roll") is False  # hidden from the footer
    over = classic.why_unavailable("roll", keys_of) or ""
    assert "game is over" in over and keys_of("new_game") in over
    assert keys_of("new_game") in classic.status(keys_of)
