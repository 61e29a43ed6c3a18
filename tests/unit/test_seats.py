"""Seats and their drivers (core): whose move is next, who makes it, and a move made for
a seat only on its turn, with the game's own dice in classic mode."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snl_tui.core.engine import Game, Player
from snl_tui.core.errors import SnlError
from snl_tui.core.files.formats import load_board
from snl_tui.core.seats import Driver, TurnError
from snl_tui.core.session import GameSession, GameSettings

CLASSIC = load_board("classic")
PLAYERS = (Player("Ann"), Player("Robo", computer=True), Player("Bob"))


def session(seed: int = 5, remote: frozenset[int] = frozenset()) -> GameSession:
    return GameSession(GameSettings(CLASSIC, PLAYERS, seed), remote_seats=remote)


def test_each_seat_has_its_driver() -> None:
    played = session(remote=frozenset({2}))
    assert [seat.driver for seat in played.seats()] == [
        Driver.LOCAL,
        Driver.COMPUTER,
        Driver.REMOTE,
    ]
    assert [seat.player.name for seat in played.seats()] == ["Ann", "Robo", "Bob"]


def test_a_computer_seat_played_elsewhere_is_remote() -> None:
    # A room's client: the host rolls for the computer, so that seat is remote here.
    played = session(remote=frozenset({1, 2}))
    assert [seat.driver for seat in played.seats()] == [
        Driver.LOCAL,
        Driver.REMOTE,
        Driver.REMOTE,
    ]


def test_a_puzzle_seat_is_local_whatever_the_remote_seats() -> None:
    puzzle = GameSession(GameSettings(CLASSIC, PLAYERS, 1, "puzzle"), remote_seats=frozenset({0}))
    assert puzzle.driver(0) is Driver.LOCAL


def test_whose_move_follows_the_turn_order_and_ends_with_the_game() -> None:
    played = session(remote=frozenset({2}))
    assert (played.seat_to_move, played.driver_to_move) == (0, Driver.LOCAL)
    played.move_for(0)
    assert played.seat_to_move == played.game.current
    while not played.game.over:
        played.move_for(played.game.current)
    assert played.seat_to_move is None
    assert played.driver_to_move is None


def test_a_seat_cannot_move_out_of_turn() -> None:
    played = session()
    with pytest.raises(TurnError, match="Ann's turn, not Bob's"):
        played.move_for(2)
    with pytest.raises(TurnError, match="turn, not seat 9's"):
        played.move_for(8)
    assert played.game.history == []


def test_a_die_cannot_be_chosen_in_classic_mode() -> None:
    played = session()
    with pytest.raises(TurnError, match="rolled, not chosen"):
        played.move_for(0, 6)
    assert played.game.history == []


def test_a_puzzle_move_needs_a_legal_die() -> None:
    puzzle = GameSession(GameSettings(CLASSIC, (Player("Ann"),), 1, "puzzle"))
    with pytest.raises(TurnError, match="choose a die value"):
        puzzle.move_for(0)
    with pytest.raises(TurnError):
        puzzle.move_for(0, 7)
    assert puzzle.move_for(0, 4).turn.move.die == 4


def test_no_move_after_the_end() -> None:
    played = session()
    while not played.game.over:
        played.move_for(played.game.current)
    with pytest.raises(TurnError, match="over"):
        played.move_for(played.game.winner or 0)


@given(seed=st.integers(0, 2**32), remote=st.sets(st.sampled_from([0, 2])))
def test_moves_for_seats_roll_the_sessions_seeded_dice(seed: int, remote: set[int]) -> None:
    """Whoever drives the seats, the dice are the game's seeded RNG: the same seed gives
    the same rolls as a plain engine game."""
    played = session(seed, frozenset(remote))
    reference = Game(CLASSIC, PLAYERS, seed)
    for _ in range(60):
        if played.game.over:
            break
        turn = played.move_for(played.game.current).turn
        assert turn == reference.roll()


def test_remote_seats_travel_with_the_session() -> None:
    played = session(remote=frozenset({2}))
    played.move_for(0)
    again = GameSession.from_dict(json.loads(json.dumps(played.to_dict())))
    assert again.remote_seats == {2}
    assert again.driver(2) is Driver.REMOTE


def test_a_session_saved_before_seats_had_drivers_reads_back_local() -> None:
    data = session().to_dict()
    del data["remote_seats"]
    assert GameSession.from_dict(data).remote_seats == frozenset()


@pytest.mark.parametrize("bad", [[7], ["x"], 3, [-1]])
def test_bad_remote_seats_are_refused(bad: object) -> None:
    data = session().to_dict()
    data["remote_seats"] = bad
    with pytest.raises(SnlError):
        GameSession.from_dict(data)
