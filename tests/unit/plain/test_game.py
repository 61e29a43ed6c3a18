"""``PlainGame`` driven by typed lines: puzzles, undo, a new game, bad input, saving."""

from __future__ import annotations

import io

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.solver import least_rolls_from
from snl_tui.core.store.games import open_store
from snl_tui.core.store.saving import GameSaver
from snl_tui.plain.console import Console
from snl_tui.plain.game import PlainGame

from .plainness import unplain


def run(session: GameSession, typed: str, saver: GameSaver | None = None) -> list[str]:
    console = Console(io.StringIO(), io.StringIO(typed))
    assert PlainGame(session, console, saver, luck=lambda _: None).run() == 0
    assert unplain("\n".join(console.said)) == []
    return console.said


def test_a_puzzle_by_die_values_with_a_slip_an_undo_and_the_score() -> None:
    board = load_board("classic")
    session = GameSession(GameSettings(board, (Player("Ann"),), mode="puzzle"))
    # 2 from the start is not optimal (1 climbs to 38); 9 is no die value; undo; then
    # the solver's own route to the goal.
    said = run(session, "2\n9\nroll\nundo\n1\n1\n6\n6\n1\n6\n6\n")
    assert "Ann chose 2: from off the board to 2." in said
    notes = [line for line in said if line.startswith("Not optimal")]
    assert notes and "rolling a 1 or 4" in notes[0]
    assert any(line.startswith("9: a 6-sided die cannot roll 9.") for line in said)
    assert "Puzzle mode: you choose. Type a die value from 1 to 6." in said
    assert "Took back 2: Ann off the board again." in said
    assert session.game.winner == 0 and len(session.game.history) == 7
    assert f"The least possible is {least_rolls_from(board, 0)}: an optimal solution!" in said


def test_hot_seat_bad_input_and_a_new_game_that_abandons_the_old(private_data_dir) -> None:
    board = load_board("throws-30")
    session = GameSession(GameSettings(board, (Player("Ann"), Player("Bo")), seed=3))
    store = open_store()
    saver = GameSaver(store)
    said = run(session, "r\nfly\nr\nnew\nr\n", saver)
    assert said.count("Ann: type roll, or press Enter.") == 2  # each game's first move
    assert any(line.startswith("'fly' is not a command. Commands: roll") for line in said)
    assert "The unfinished game is left as abandoned." in said
    games = sorted(store.list_games().games, key=lambda game: game.id)
    assert [game.status for game in games] == ["abandoned", "playing"]
    assert (
        said[-1]
        == f"Goodbye. Game {games[1].id} is saved: snl resume {games[1].id} goes on from here."
    )
    store.close()


def test_computers_alone_play_to_the_end_at_once() -> None:
    board = load_board("throws-30")
    players = (Player("Robo", True), Player("Hal", True))
    session = GameSession(GameSettings(board, players, seed=1))
    said = run(session, "")
    assert session.game.over
    moves = [line for line in said if " rolled " in line]
    assert len(moves) == len(session.game.history)
    assert said[-2] == "Type new for another game, or quit."
    assert said[-1] == "Goodbye."
