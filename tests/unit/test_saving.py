"""The autosave coordinator (``core.store.saving``) against a real store in a temporary folder."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.solver import optimal_dice
from snl_tui.core.store.games import DB_NAME, Store, open_store
from snl_tui.core.store.saving import GameSaver

PLAYERS = (Player("Ann"), Player("CPU", computer=True))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(tmp_path / DB_NAME)


def session(seed: int = 4, mode: str = "classic") -> GameSession:
    return GameSession(GameSettings(load_board("classic"), PLAYERS, seed, mode))


def test_each_move_is_saved_with_the_moves_and_positions(store):
    played, saver = session(), GameSaver(store)
    for _ in range(5):
        played.move()
        saver.moved(played)
    saved = store.load_game(saver.game_id)
    assert saved.status == "playing"
    assert saved.data["game"]["rolls"] == played.game.rolls
    assert saved.data["positions"] == played.game.positions
    assert saved.rolls == 5 and saved.turns == max(played.game.turns_taken)
    assert len(store.list_games().games) == 1  # one row, updated in place


def test_a_resumed_game_goes_on_exactly_as_it_would_have(store):
    straight = session(seed=9)
    while not straight.game.over:
        straight.move()
    assert len(straight.game.history) > 12
    interrupted, saver = session(seed=9), GameSaver(store)
    for _ in range(12):
        interrupted.move()
        saver.moved(interrupted)
    saved = store.last_unfinished()
    assert saved is not None and saved.id == saver.game_id
    resumed = GameSession.from_dict(saved.data)
    later = GameSaver(store)
    later.resumed(resumed, saved.id)
    while not resumed.game.over:
        resumed.move()
        later.moved(resumed)
    assert resumed.game.rolls == straight.game.rolls
    assert resumed.game.positions == straight.game.positions
    assert store.load_game(saved.id).data["game"]["rolls"] == straight.game.rolls
    assert store.load_game(saved.id).status == "won"


def test_a_won_game_is_finished_with_winner_turns_and_rolls(store):
    played, saver = session(seed=2), GameSaver(store)
    while not played.game.over:
        played.move()
        saver.moved(played)
    game = played.game
    assert game.winner is not None
    saved = store.load_game(saver.game_id)
    assert saved.status == "won" and saved.winner == game.players[game.winner].name
    assert saved.turns == game.turns_taken[game.winner] and saved.rolls == len(game.history)
    saver.leaving(played)  # a new game after a win: the result stays
    assert store.load_game(saved.id).status == "won"


def test_a_puzzle_records_its_rolls_against_the_optimum(store):
    played, saver = session(mode="puzzle"), GameSaver(store)
    played.move(2)  # not optimal on purpose (1 takes the ladder to 38)
    saver.moved(played)
    while not played.game.over:
        played.move(optimal_dice(played.board, played.game.position)[0])
        saver.moved(played)
    record = store.stats().boards[0].players[0]
    assert record.puzzles == 1 and record.puzzle_best == len(played.game.history)
    assert record.puzzle_best > played.optimal_moves


def test_leaving_marks_abandoned_and_the_next_game_gets_its_own_row(store):
    played, saver = session(), GameSaver(store)
    played.move()
    saver.moved(played)
    first = saver.game_id
    saver.leaving(played)
    played.new_game()
    played.move()
    saver.moved(played)
    assert store.load_game(first).status == "abandoned"
    assert saver.game_id != first and store.load_game(saver.game_id).status == "playing"
    assert store.last_unfinished().id == saver.game_id


def test_a_game_without_moves_is_never_stored(store):
    played, saver = session(), GameSaver(store)
    assert saver.moved(played) is None
    saver.leaving(played)
    assert store.list_games().games == []


def test_no_store_saves_nothing():
    played, saver = session(), GameSaver(None)
    played.move()
    assert saver.moved(played) is None and saver.notice() is None


def test_a_locked_store_says_not_saving_once_and_never_waits_again(tmp_path):
    path = tmp_path / DB_NAME
    store = open_store(path, timeout=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        played, saver = session(), GameSaver(store)
        played.move()
        assert saver.moved(played) is None
        notice = saver.notice()
        assert notice is not None and notice.startswith("not saving:") and "locked" in notice
        assert saver.notice() is None  # once
        assert not saver.saving
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    played.move()
    assert saver.moved(played) is None  # disabled for the rest of the session


def test_a_damaged_store_is_reported_once(tmp_path):
    path = tmp_path / DB_NAME
    path.write_bytes(b"this is not a database" * 100)
    saver = GameSaver(open_store(path))
    notice = saver.notice()
    assert notice is not None and "damaged" in notice
    assert saver.notice() is None


@pytest.mark.parametrize("command", [["--no-save", "--seed", "1"], ["play", "--no-save"]])
def test_no_save_never_creates_the_store(command, tmp_path, monkeypatch):
    import snl_tui.app

    data = tmp_path / "data"
    monkeypatch.setenv("SNL_DATA_DIR", str(data))
    seen = {}

    def run(app: snl_tui.app.SnlApp) -> None:  # no terminal: record what would be played
        seen["store"], seen["offer"] = app.store, app.offer

    monkeypatch.setattr(snl_tui.app.SnlApp, "run", run)
    assert main(command) == 0
    assert seen == {"store": None, "offer": None}
    assert not data.exists()


def test_resume_and_replay_refuse_bad_ids_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    for argv in (["resume", "x"], ["resume", "99"], ["resume"], ["replay", "7"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"snl {argv[0]}: "), err
    assert not os.path.exists(tmp_path / "nothing")


def test_play_after_a_solved_puzzle_is_a_new_saved_attempt(store):
    """Solve, undo twice, play on, quit (issue 18 item 7): the solved game keeps its
    result and the attempt that goes on is saved and resumable, and the player is told."""
    played, saver = session(mode="puzzle"), GameSaver(store)
    while not played.game.over:
        played.move(optimal_dice(played.board, played.game.position)[0])
        saver.moved(played)
    won = saver.game_id
    assert saver.notice() is None
    played.undo()
    saver.moved(played)
    played.undo()
    saver.moved(played)
    note = saver.notice()
    assert note is not None and "new attempt" in note and saver.notice() is None
    played.move(optimal_dice(played.board, played.game.position)[-1])
    saver.moved(played)
    assert saver.game_id is not None and saver.game_id != won
    assert store.load_game(won).status == "won"
    resumable = store.last_unfinished()
    assert resumable is not None and resumable.id == saver.game_id
    rebuilt = GameSession.from_dict(resumable.data)
    assert rebuilt.game.history == played.game.history
