"""The screen-reader mode's sentences: each move in words, as the engine made it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.standing import compute_odds
from snl_tui.core.rules import Rules
from snl_tui.core.solver import least_rolls_from, optimal_dice, optimal_route
from snl_tui.plain import words
from snl_tui.plain.console import plain_text

from ..strategies import boards
from .plainness import unplain

CLASSIC = load_board("classic")
ANN_BO = (Player("Ann"), Player("Bo"))


def played(board: Board, dice: list[int], players=ANN_BO) -> tuple[Game, list[str]]:
    game = Game(board, players)
    lines = []
    for die in dice:
        turn = game.play(die)
        lines.append(words.turn_line(game, turn))
    return game, lines


def test_a_ladder_a_snake_and_whose_move_is_next() -> None:
    # classic starts off the board: 4 climbs 4-14; Bo's 6 lands on 6; Ann's 2 on 16, a chute.
    _, lines = played(CLASSIC, [4, 6, 2])
    assert lines == [
        "Ann rolled 4: from off the board to 4, a ladder up to 14. Bo to move.",
        "Bo rolled 6: from off the board to 6. Ann to move.",
        "Ann rolled 2: from 14 to 16, a snake down to 6. Bo to move.",
    ]


def test_a_roll_past_the_goal_stays_and_the_winner_is_named() -> None:
    board = Board(2, 3, [], rules=Rules(overshoot="stay"))  # goal 6, start on 1
    game, lines = played(board, [6, 1, 5], players=(Player("You"), Player("Bo")))
    assert lines[0] == "You rolled 6: past the goal, stays on 1. Bo to move."
    assert lines[2] == "You rolled 5: from 1 to 6, the goal! You win in 2 turns!"
    assert game.winner == 0


def test_bounce_chain_and_an_extra_roll_are_said() -> None:
    rules = Rules(overshoot="bounce", chain=True, six_again=True)
    board = Board(3, 3, [(3, 5), (5, 7)], rules=rules)  # goal 9
    _, lines = played(board, [2, 6], players=(Player("Ann"),))
    assert lines[0] == "Ann rolled 2: from 1 to 3, a ladder up to 5, then a ladder up to 7."
    assert lines[1].startswith("Ann rolled 6: from 7 to 5, bounced back from the goal")
    assert lines[1].endswith("Ann rolls again.")


def test_three_top_faces_cancel_the_turn_in_words() -> None:
    rules = Rules(six_again=True, three_sixes=True)
    board = Board(10, 10, [], rules=rules)
    game = Game(board, ANN_BO, seed=0)
    # Draw until a cancelled turn comes up (the engine decides, the words follow).
    for _ in range(5000):
        turn = game.roll()
        if turn.cancelled:
            line = words.turn_line(game, turn)
            assert line.startswith("Ann rolled 6: a third 6 in a row cancels the turn")
            assert f"back to {game.positions[turn.player]}." in line
            break
        if game.over:
            game = Game(board, ANN_BO, seed=len(game.history))
    else:
        raise AssertionError("no cancelled turn in 5000 rolls")


@given(boards(), st.lists(st.integers(1, 20), max_size=40), st.integers(1, 4))
def test_every_move_is_one_plain_line_with_its_numbers(board, dice, seats) -> None:
    players = tuple(Player(f"P{n}") for n in range(seats))
    game = Game(board, players)
    for die in dice:
        if game.over:
            break
        if die not in game.legal_dice() and not 1 <= die <= board.rules.faces:
            continue
        turn = game.play(die)
        line = words.turn_line(game, turn)
        assert "\n" not in line and unplain(line) == []
        mover = players[turn.player].name
        assert line.startswith(f"{mover} rolled {turn.move.die}: ")
        numbers = {int(n) for n in re.findall(r"\d+", line)}
        # Where the move ended is said in digits (the start too, unless off the board).
        assert game.positions[turn.player] in numbers or game.positions[turn.player] == 0
        assert line.count(" to move.") + line.count("rolls again") + line.count(" win") <= 1


@given(boards())
def test_hint_and_route_say_what_the_solver_says(board) -> None:
    start = board.rules.start_position
    hint = words.hint_line(board, start, "Ann")
    route = words.route_line(board, start, "Ann")
    least = least_rolls_from(board, start)
    assert unplain(hint + route) == []
    if least < 0:
        assert "cannot be reached" in hint and "cannot be reached" in route
        return
    assert f"at least {least} roll" in hint
    for die in optimal_dice(board, start):
        assert str(die) in hint
    solution = optimal_route(board, start, limit=words.ROUTE_SPOKEN)
    assert f"{least} roll" in route
    for die, end in zip(solution.rolls, solution.squares, strict=True):
        assert f"{die} to {end}" in route


def test_odds_positions_and_the_board_in_words() -> None:
    game, _ = played(CLASSIC, [4, 6])
    odds = compute_odds(CLASSIC, game.positions, game.current)
    line = words.odds_line(odds, game, game.current)
    assert line.startswith("Odds for Ann: ")
    assert f"{odds.expected_turns:.1f} turns left on average" in line
    assert "Chances to win: Ann " in line and ", Bo " in line
    assert words.positions_line(game) == "Ann on 14 and Bo on 6. Ann to move. The goal is 100."
    assert words.board_line(CLASSIC) == (
        "Chutes and Ladders: 10 by 10, goal 100, 9 ladders and 10 snakes; "
        "start off the board; exact finish; 6-sided die."
    )
    near = words.near_jumps_line(CLASSIC, 14, "Ann")
    # Within 12 squares of 14 (two turns): the chute on 16 and the ladder on 21, not 28.
    assert near == (
        "Ahead of Ann, on 14, within 12 squares: a snake on 16 down to 6, 2 away; "
        "a ladder on 21 up to 42, 7 away."
    )
    ladders, snakes = words.all_jumps_lines(CLASSIC)
    assert ladders.startswith("Ladders: 1 up to 38, 4 up to 14,")
    assert snakes.startswith("Snakes: 16 down to 6,")


def test_names_from_outside_cannot_drive_the_terminal_or_draw() -> None:
    line = plain_text("Bo\x1b[2J \U0001f40d rolled \u2554 4 \u2800")
    assert "\x1b" not in line and unplain(line) == []
    assert line.startswith("Bo\\x1b[2J") and "rolled" in line


def test_a_huge_line_is_read_as_its_first_part_and_the_next_line_still_counts() -> None:
    import io

    from snl_tui.plain.console import INPUT_LIMIT, Console

    console = Console(io.StringIO(), io.StringIO("x" * (INPUT_LIMIT * 5 + 7) + "\nwhere\n"))
    assert console.read() == "x" * INPUT_LIMIT
    assert console.read() == "where"
    assert console.read() is None


def test_a_skipped_turn_is_said_as_one() -> None:
    game = Game(CLASSIC, ANN_BO)
    game.play(4)
    turn = game.pass_turn()
    assert words.turn_line(game, turn) == "Bo's turn is skipped, off the board. Ann to move."
