"""The engine: one move under every rule option, and games of 1-4 players."""

from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player, legal_dice, move, next_position
from snl_tui.core.errors import MoveError, SnlError
from snl_tui.core.rules import Rules

from .reference import reference_step
from .strategies import boards

# 4x4 board, goal 16: ladder 3->10, snake 14->4, ladder 10->15 (a jump ending on a jump).
JUMPS = [(3, 10), (14, 4), (10, 15)]


def kind_of(result) -> str | None:  # type: ignore[no-untyped-def]
    """The net effect of the move's jumps: 'ladder', 'snake' or None."""
    if not result.jumps:
        return None
    return "ladder" if result.end > result.landed else "snake"


def board(**rules) -> Board:
    return Board(4, 4, JUMPS, rules=Rules(**rules))


def test_plain_step_and_jumps():
    b = board()
    result = move(b, 1, 1)
    assert (result.landed, result.end, kind_of(result), result.won) == (2, 2, None, False)
    result = move(b, 1, 2)
    assert (result.landed, result.end, kind_of(result)) == (3, 10, "ladder")
    assert result.steps == (2, 3)
    result = move(b, 12, 2)
    assert (result.landed, result.end, kind_of(result)) == (14, 4, "snake")


def test_at_most_one_jump_per_move_by_default():
    # 3 -> 10 and 10 starts a ladder to 15: without chain the token stops on 10.
    assert move(board(), 1, 2).end == 10
    chained = move(board(chain=True), 1, 2)
    assert chained.end == 15
    assert [(j.start, j.end) for j in chained.jumps] == [(3, 10), (10, 15)]


def test_overshoot_stay_forfeits_the_roll():
    result = move(board(), 13, 5)
    assert result.forfeited and result.end == 13 and result.landed == 13
    assert legal_dice(board(), 13) == (1, 2, 3)
    assert legal_dice(board(), 16) == ()


def test_overshoot_bounce_counts_back_from_the_goal():
    result = move(board(overshoot="bounce"), 13, 5)  # 14, 15, 16, back to 15, 14 -> snake
    assert result.steps == (14, 15, 16, 15, 14)
    assert (result.landed, result.end, result.bounced) == (14, 4, True)
    assert legal_dice(board(overshoot="bounce"), 13) == (1, 2, 3, 4, 5, 6)


def test_overshoot_finish_wins_on_any_roll_reaching_the_goal():
    result = move(board(overshoot="finish"), 13, 6)
    assert (result.end, result.won) == (16, True)
    assert result.steps == (14, 15, 16)


def test_bounce_on_a_tiny_board_with_a_big_die_reflects_at_both_ends():
    tiny = Board(1, 3, rules=Rules(overshoot="bounce", faces=12))
    for die in range(1, 13):
        result = move(tiny, 1, die)
        # The walk is the single source of truth: it must agree with next_position.
        assert result.landed == result.steps[-1] == next_position(tiny, 1, die)
        assert all(1 <= s <= 3 for s in result.steps)


def test_start_off_the_board_lets_a_jump_on_square_1_fire():
    b = Board(4, 4, [(1, 9)], rules=Rules(start=0))
    assert move(b, 0, 1).end == 9
    game = Game(b)
    assert game.positions == [0]
    assert game.play(1).move.end == 9


def test_bad_die_values_and_positions_raise_move_error():
    with pytest.raises(MoveError, match="6-sided die cannot roll 7"):
        move(board(), 1, 7)
    with pytest.raises(MoveError):
        move(board(), 1, 0)
    with pytest.raises(MoveError, match="already on the goal"):
        move(board(), 16, 1)
    with pytest.raises(MoveError, match="not on the board"):
        move(board(), 17, 1)


def test_describe_reads_like_a_move_log():
    assert move(board(), 12, 2).describe("Ann") == "Ann rolled 2: 12 -> 14, snake to 4"
    assert move(board(), 13, 5).describe("Ann") == "Ann rolled 5: stays on 13 (past the goal)"
    assert move(board(), 13, 3).describe() == "Rolled 3: 13 -> 16, reaches the goal!"
    start0 = Board(4, 4, [(1, 9)], rules=Rules(start=0))
    assert move(start0, 0, 1).describe("Bo") == "Bo rolled 1: start -> 1, ladder to 9"


@given(boards(max_side=6, max_faces=20), st.data())
def test_every_move_agrees_with_the_reference_step(board, data):
    rules = board.rules
    matrix = board.to_matrix()
    position = data.draw(st.integers(0, board.goal - 1))
    for die in range(1, rules.faces + 1):
        expected = reference_step(matrix, position, die, rules.overshoot, rules.chain)
        result = move(board, position, die)
        if expected is None:
            assert result.forfeited and die not in legal_dice(board, position)
        else:
            assert result.end == expected == next_position(board, position, die)
            assert die in legal_dice(board, position)


def test_players_parse_and_validation():
    assert Player.parse("cpu") == Player("CPU", computer=True)
    assert Player.parse("CPU:Robo") == Player("Robo", computer=True)
    assert Player.parse(" Ann ") == Player("Ann")
    with pytest.raises(SnlError, match="1 to 4 players"):
        Game(board(), tuple(Player(f"P{i}") for i in range(5)))
    with pytest.raises(SnlError, match="1 to 4 players"):
        Game(board(), ())


def test_turn_order_and_winner():
    game = Game(board(), ("Ann", "Bo"))
    game.play(2)  # Ann 1 -> 3 -> ladder 10
    assert game.positions == [10, 1] and game.current == 1
    game.play(1)  # Bo 1 -> 2
    game.play(6)  # Ann 10 -> 16 wins
    assert game.over and game.winner == 0
    assert game.turns_taken == [2, 1]
    with pytest.raises(MoveError, match="game is over"):
        game.roll()
    assert game.legal_dice() == ()


def test_forfeited_roll_passes_the_turn():
    game = Game(board(), ("Ann", "Bo"))
    game.positions[0] = 13
    game.play(6)
    assert game.positions == [13, 1] and game.current == 1


def test_six_again_grants_another_roll_in_the_same_turn():
    game = Game(board(six_again=True), ("Ann", "Bo"))
    turn = game.play(6)  # 1 -> 7, top face: Ann rolls again
    assert turn.again and game.current == 0 and game.turns_taken == [1, 0]
    turn = game.play(1)  # 7 -> 8, turn passes
    assert not turn.again and turn.turn == 1 and game.current == 1
    assert game.turns_taken == [1, 0]
    game.play(6)
    game.play(6)
    assert game.turns_taken == [1, 1] and game.current == 1
    game.play(2)
    assert game.current == 0 and game.turns_taken == [1, 1]


def test_six_again_with_another_die_uses_its_top_face():
    game = Game(board(six_again=True, faces=4), ("Ann", "Bo"))
    assert game.play(4).again
    assert not game.play(3).again


def test_same_seed_same_game_and_replay_from_the_rolls():
    def play_out(seed):
        game = Game(board(overshoot="bounce"), ("Ann", "cpu", "Cy"), seed=seed)
        while not game.over:
            game.roll()
        return game

    first, second = play_out(7), play_out(7)
    assert first.rolls == second.rolls and first.winner == second.winner
    assert play_out(8).rolls != first.rolls
    replayed = Game.replay(first.board, first.players, first.rolls)
    assert replayed.positions == first.positions and replayed.winner == first.winner
    assert [t.move for t in replayed.history] == [t.move for t in first.history]


def test_undo_takes_back_exactly_the_last_roll():
    game = Game(board(), ("Ann",))
    game.play(2)
    game.play(1)
    undone = game.undo()
    assert undone is not None and undone.move.die == 1
    assert game.positions == [10] and game.rolls == [2]
    game.undo()
    assert game.positions == [1] and game.undo() is None


def state(game: Game) -> dict[str, object]:
    """Every field of a game, the RNG's state included."""
    values = {f.name: getattr(game, f.name) for f in fields(game) if f.name != "_rng"}
    return {**values, "rng": game._rng.getstate()}


def test_undoing_the_winning_roll_reopens_the_game():
    game = Game(Board.from_matrix([[-1, -1], [-1, -1]]), ("Ann",))
    game.play(3)
    assert game.over and game.winner == 0
    game.undo()
    assert not game.over and game.winner is None and game.positions == [1]
    game.play(3)  # and it can be won again
    assert game.winner == 0


@given(boards(max_side=6), st.data())
def test_undo_leaves_the_game_exactly_as_replaying_all_but_the_last_roll(board, data):
    players = ("Ann", "Bob")[: data.draw(st.integers(1, 2))]
    game = Game(board, players, seed=data.draw(st.integers(0, 99)))
    for _ in range(data.draw(st.integers(1, 25))):
        if game.over:
            break
        if data.draw(st.booleans()):
            game.roll()
        else:
            legal = game.legal_dice()
            if not legal:
                break
            game.play(data.draw(st.sampled_from(legal)))
    if not game.history:
        return
    draws = sum(turn.drawn for turn in game.history[:-1])
    expected = Game.replay(board, game.players, game.rolls[:-1], game.seed, draws)
    game.undo()
    assert state(game) == state(expected)


def test_saved_games_round_trip_and_bad_saves_are_refused():
    game = Game(board(), ("Ann", "cpu:Robo"), seed=3)
    for _ in range(5):
        game.roll()
    saved = game.to_dict()
    restored = Game.from_dict(board(), saved)
    assert restored.positions == game.positions and restored.players == game.players
    assert restored.roll().move == game.roll().move  # the RNG carries on identically
    with pytest.raises(SnlError, match="not a saved game"):
        Game.from_dict(board(), {"rolls": []})
    with pytest.raises(MoveError, match="roll 2"):
        Game.from_dict(board(), {"players": [{"name": "A"}], "rolls": [1, 9]})
