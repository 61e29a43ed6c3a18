"""The game session (core, no Textual): settings, players, puzzle and route rules, status,
seeds, and a versioned to_dict/from_dict that continues with exactly the same rolls."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player
from snl_tui.core.errors import SnlError
from snl_tui.core.files.formats import load_board
from snl_tui.core.rules import Rules
from snl_tui.core.session import (
    SESSION_VERSION,
    GameSession,
    GameSettings,
    board_from_dict,
    board_to_dict,
    game_seed,
    parse_players,
    players_text,
    puzzle_player,
    who_plays_puzzle,
)
from snl_tui.core.solver import optimal_route

from .strategies import boards


def keys(action: str) -> str:
    return {"roll": "r or space", "undo": "u", "choose_die": "d", "toggle_route": "o"}[action]


CLASSIC = load_board("classic")


def session(board: Board = CLASSIC, *players: Player, mode: str = "classic", seed: int = 7):
    return GameSession(GameSettings(board, players or (Player("You"),), seed, mode))


# -- players -------------------------------------------------------------------------


def test_one_parser_for_the_command_line_and_the_dialog() -> None:
    assert parse_players("You, cpu:Robo, cpu") == [
        Player("You"),
        Player("Robo", computer=True),
        Player("CPU", computer=True),
    ]
    assert parse_players("Ann, ann") == [Player("Ann"), Player("ann 2")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "at least one player"),
        (" , ", "at least one player"),
        ("Ann,,Bob", "empty name"),
        ("Ann,", "empty name"),
        ("a,b,c,d,e", "At most 4 players"),
    ],
)
def test_bad_player_lists_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(SnlError, match=message):
        parse_players(text)


def test_the_command_line_delegates_to_the_same_parser() -> None:
    from snl_tui.cli.common import UsageError
    from snl_tui.cli.common import parse_players as cli_parse

    assert cli_parse("Ann, cpu") == parse_players("Ann, cpu")
    with pytest.raises(UsageError, match="--players: an empty name"):
        cli_parse("Ann,,Bob")


@given(st.lists(st.sampled_from(["Ann", "Bob", "cpu", "cpu:Zed", "You"]), min_size=1, max_size=4))
def test_players_text_reads_back_as_the_same_players(names: list[str]) -> None:
    players = parse_players(", ".join(names))
    assert parse_players(players_text(players)) == players


def test_a_puzzle_seats_the_first_human_and_says_who_sits_out() -> None:
    players = (Player("CPU", computer=True), Player("Ann"), Player("Bob"))
    assert puzzle_player(players) == Player("Ann")
    assert who_plays_puzzle(players) == "A puzzle has one player: Ann. CPU and Bob sit out."
    played = session(CLASSIC, *players, mode="puzzle")
    assert played.game.players == (Player("Ann"),)
    assert played.puzzle_notice() == who_plays_puzzle(players)
    assert session(CLASSIC, Player("Ann"), mode="puzzle").puzzle_notice() is None
    assert session(CLASSIC, Player("Ann"), Player("Bob")).puzzle_notice() is None


def test_settings_refuse_an_unknown_mode() -> None:
    with pytest.raises(SnlError, match="mode must be one of"):
        GameSettings(CLASSIC, (Player("You"),), None, "speedrun")


# -- seeds ---------------------------------------------------------------------------


def test_game_k_of_a_seeded_session_has_its_own_seed() -> None:
    seeds = [game_seed(7, k) for k in range(20)]
    assert seeds[0] == 7  # the first game is what --seed 7 always played
    assert len(set(seeds)) == 20
    assert game_seed(7, 3) == game_seed(7, 3) != game_seed(8, 3)


def test_new_games_follow_the_sequence_and_retry_repeats_the_game() -> None:
    played = session(CLASSIC, Player("Ann"), Player("Bob"), seed=11)
    first = [played.move().turn.move.die for _ in range(6)]
    played.new_game()
    second = [played.move().turn.move.die for _ in range(6)]
    assert played.game_index == 1 and played.game.seed == game_seed(11, 1)
    game_zero = Game(CLASSIC, played.game.players, seed=11)
    assert first == [game_zero.roll().move.die for _ in range(6)]
    reference = Game(CLASSIC, played.game.players, seed=game_seed(11, 1))
    assert second == [reference.roll().move.die for _ in range(6)]
    played.new_game(again=True)
    assert played.game_index == 1 and played.game.history == []
    assert [played.move().turn.move.die for _ in range(6)] == second


def test_an_unseeded_session_still_replays_itself() -> None:
    played = GameSession(GameSettings(CLASSIC, (Player("Ann"),)))
    assert played.base_seed >= 0
    rolls = [played.move().turn.move.die for _ in range(5)]
    again = GameSession.from_dict(json.loads(json.dumps(played.to_dict())))
    assert again.game.rolls == rolls


# -- moves, gating and status --------------------------------------------------------


def test_available_actions_follow_mode_and_game_state() -> None:
    classic = session()
    assert classic.available("roll") is True
    assert classic.available("undo") is False and classic.available("pick") is False
    puzzle = session(mode="puzzle")
    assert puzzle.available("roll") is False
    assert puzzle.available("undo") is None  # nothing to undo yet
    puzzle.move(1)
    assert puzzle.available("undo") is True
    for die in optimal_route(CLASSIC, puzzle.game.position).rolls:
        puzzle.move(die)
    assert puzzle.game.over
    assert puzzle.available("pick") is None and puzzle.available("help") is True


def test_computer_turns_are_classic_only() -> None:
    played = session(CLASSIC, Player("Ann"), Player("Bot", computer=True))
    assert not played.computer_to_move and played.human_to_move
    played.move()
    assert played.computer_to_move == (played.game.current == 1)


def test_status_names_the_keys_it_is_given() -> None:
    played = session(CLASSIC, Player("Ann"), Player("Bob"))
    assert played.status(keys) == "Ann: press r or space to roll."
    assert played.status(lambda action: "X") == "Ann: press X to roll."
    turn = played.move().turn
    assert played.status(keys) == f"Ann rolled {turn.move.die}. Bob: press r or space to roll."
    puzzle = session(mode="puzzle")
    assert puzzle.status(keys) == "Move 1: choose a die value (1-6). u undoes."
    big = session(Board(10, 10, rules=Rules(faces=12)), mode="puzzle")
    assert "1-9, or d for 10-12" in big.status(keys)


def test_a_puzzle_move_off_every_optimal_route_gets_a_note() -> None:
    played = session(mode="puzzle")
    best = optimal_route(CLASSIC, 0).rolls[0]
    played.move(best)
    assert played.move_note is None
    worse = next(d for d in played.game.legal_dice() if d not in (2, 3) and d != best)
    before = played.game.position
    played.move(worse)
    if played.move_note is not None:  # the die might still be optimal by chance
        assert played.move_note.startswith("Not optimal:")
    assert played.status(keys).startswith(played.move_note or "Move 3")
    played.undo()
    assert played.game.position == before and played.move_note is None


def test_why_not_explains_a_refused_die() -> None:
    played = session(Board(2, 3), mode="puzzle")  # goal 6, exact finish
    for _ in range(4):
        played.move(1)
    assert played.game.position == 5
    assert played.why_not(1) is None
    assert played.why_not(3) == "3 would overshoot the goal: exact finish needed."
    assert played.why_not(9) is not None and "9" in played.why_not(9)  # type: ignore[operator]


def test_the_route_follows_its_owner_and_hides_when_they_leave() -> None:
    played = session(mode="puzzle")
    assert played.show_route() is None
    route = list(played.route)
    assert route == optimal_route(CLASSIC, 0).squares
    outcome = played.move(optimal_route(CLASSIC, 0).rolls[0])
    assert not outcome.left_route and played.route == route[1:]
    off = next(d for d in played.game.legal_dice() if played.game.position + d not in route)
    outcome = played.move(off)
    if played.game.position not in route:
        assert outcome.left_route and not played.route_on
        assert "o shows a new one" in played.left_route_message(outcome.turn, keys)


def test_no_route_at_the_end_or_when_unreachable() -> None:
    trap = Board.from_jumps(1, 4, snakes=[(2, 1), (3, 1)], rules=Rules(faces=2))
    assert session(trap, mode="puzzle").show_route() is not None
    assert session(trap).optimal_moves == -1


# -- saving --------------------------------------------------------------------------


def test_to_dict_is_versioned_json_and_complete() -> None:
    played = session(CLASSIC, Player("Ann"), Player("Bot", computer=True), seed=5)
    for _ in range(7):
        played.move()
    data = json.loads(json.dumps(played.to_dict()))
    assert data["version"] == SESSION_VERSION
    assert data["positions"] == played.game.positions and data["turn"] == played.game.current
    assert board_from_dict(data["board"]) == CLASSIC
    assert board_from_dict(data["board"]).name == CLASSIC.name


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(version=99),
        lambda d: d.update(positions=[1, 2]),
        lambda d: d["board"].update(rows="ten"),
        lambda d: d["game"].update(rolls=[0]),
        lambda d: d.update(mode="speedrun"),
        lambda d: d.update(base_seed="x"),
        lambda d: d.pop("board"),
        lambda d: d["players"].append(5),
    ],
)
def test_a_damaged_save_is_one_clear_error(damage) -> None:  # type: ignore[no-untyped-def]
    played = session(CLASSIC, Player("Ann"), Player("Bob"))
    played.move()
    data = json.loads(json.dumps(played.to_dict()))
    damage(data)
    with pytest.raises(SnlError):
        GameSession.from_dict(data)


@settings(max_examples=40, deadline=None)
@given(
    board=boards(),
    seed=st.integers(0, 2**32),
    index=st.integers(0, 3),
    moves=st.integers(0, 12),
    seats=st.integers(1, 3),
)
def test_a_restored_session_continues_with_the_same_rolls(
    board: Board, seed: int, index: int, moves: int, seats: int
) -> None:
    players = tuple(Player(f"P{n}") for n in range(seats))
    played = GameSession(GameSettings(board, players, seed))
    for _ in range(index):
        played.new_game()
    for _ in range(moves):
        if played.game.over:
            break
        played.move()
    restored = GameSession.from_dict(json.loads(json.dumps(played.to_dict())))
    assert restored.to_dict() == played.to_dict()
    assert board_to_dict(restored.board) == board_to_dict(board)
    for _ in range(10):  # the same future, roll for roll
        if played.game.over:
            break
        assert restored.move().turn == played.move().turn
    restored.new_game()
    played.new_game()
    assert restored.game.seed == played.game.seed
