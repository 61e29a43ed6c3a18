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
    said = run(session, "2\n9\nroll\nundo\nsay\n1\n1\n6\n6\n1\n6\n6\n")
    assert "Ann chose 2: from off the board to 2." in said
    notes = [line for line in said if line.startswith("Not optimal")]
    assert notes and "rolling a 1 or 4" in notes[0]
    assert any(line.startswith("9: a 6-sided die cannot roll 9.") for line in said)
    assert "Puzzle mode: you choose. Type a die value from 1 to 6." in said
    took_back = said.index("Took back 2: Ann off the board again.")
    assert said[took_back + 2] == said[took_back]  # say: not the move taken back
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


def test_game_over_is_said_once_and_the_input_then_ends_cleanly() -> None:
    board = load_board("classic")
    session = GameSession(GameSettings(board, (Player("You"), Player("CPU", True)), seed=5))
    said = run(session, "roll\n" * 235)
    assert session.game.over
    assert said.count("The game is over: type new for another, or quit.") == 1
    assert said[-1] == "Goodbye."


def test_a_name_with_nothing_to_say_is_its_seat_and_skin_tones_are_not_read() -> None:
    board = load_board("classic")
    players = (Player("\U0001f40d\U0001f3fd"), Player("Bo\U0001f44b\U0001f3ff"))
    session = GameSession(GameSettings(board, players, seed=3))
    said = run(session, "roll\nwhere\n")
    text = "\n".join(said)
    assert "Players in turn order: seat 1 and Bo. First to 100 wins." in said
    assert "seat 1: type roll, or press Enter." in said
    assert "seat 1 rolled " in text and ": type roll" not in text.replace("seat 1: type", "")
    assert "\U0001f3fd" not in text and "\U0001f3ff" not in text


def test_you_roll_again_board_n_and_say_n() -> None:
    board = load_board("classic")
    six = board.with_rules(board.rules.replace(six_again=True))
    session = GameSession(GameSettings(six, (Player("You"),), seed=5))
    said = run(session, "roll\n" * 12 + "board 47\nboard 80\nsay 3\n")
    assert any(line.endswith("You roll again.") for line in said)
    assert not any("You rolls" in line for line in said)
    assert "Square 47: a snake starts here, down to 26." in said
    assert "Square 80: a ladder starts here, up to 100." in said
    assert said[-4:-1] == said[-7:-4]  # say 3: the three lines before it, again
