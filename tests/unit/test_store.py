"""The saved-games store (SPEC 8): round trip, migrations, and every failure of the
environment ending in a clear message or a disabled store, never a traceback."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from snl_tui.core.engine import Game
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import (
    DB_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    StoreError,
    board_key,
    open_store,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / DB_NAME


def play(seed: int, names: tuple[str, ...] = ("Ann", "CPU"), board: str = "classic") -> Game:
    game = Game(load_board(board), names, seed=seed)
    while not game.over:
        game.roll()
    return game


def save_whole_game(store, game: Game, mode: str = "classic") -> int:
    """Save after every roll, as the game screen does, then the result."""
    game_id = None
    names = [p.name for p in game.players]
    replay = Game(game.board, game.players, seed=game.seed)
    for _ in game.history:
        replay.roll()
        game_id = store.save_game(
            game_id,
            board=game.board,
            players=names,
            mode=mode,
            data=replay.to_dict(),
            turns=replay.turns_taken[replay.current],
            rolls=len(replay.history),
        )
        assert game_id is not None
    winner = game.players[game.winner].name
    assert store.finish(game_id, winner, game.turns_taken[game.winner], len(game.history))
    return game_id


# -- round trip ----------------------------------------------------------------------------


def test_a_game_saved_after_every_move_resumes_exactly(db):
    board = load_board("classic")
    game = Game(board, ("Ann", "CPU"), seed=11)
    with open_store(db) as store:
        game_id = None
        for _ in range(9):
            game.roll()
            game_id = store.save_game(
                game_id, board=board, players=["Ann", "CPU"], mode="classic", data=game.to_dict()
            )
    with open_store(db) as store:
        saved = store.last_unfinished()
        assert saved is not None and saved.id == game_id
        assert saved.board == board and saved.board.name == board.name
        assert saved.status_text == "in progress"
        resumed = Game.from_dict(saved.board, saved.data)
    assert resumed.positions == game.positions and resumed.current == game.current
    # Same later rolls: the random state came back too.
    assert [resumed.roll().move.die for _ in range(5)] == [game.roll().move.die for _ in range(5)]


def test_finished_and_abandoned_games_are_listed_with_their_status(db):
    with open_store(db) as store:
        won = save_whole_game(store, play(3))
        dropped = store.save_game(
            None, board=load_board("classic"), players=["Bob"], mode="classic", data={}
        )
        assert store.mark_abandoned(dropped)
        listing = store.list_games()
        assert store.last_unfinished() is None
    by_id = {game.id: game for game in listing.games}
    assert by_id[dropped].status_text == "abandoned"
    assert by_id[won].status_text.startswith("won by ")
    assert listing.skipped == []


def test_load_game_of_an_unknown_id_is_a_store_error(db):
    with open_store(db) as store, pytest.raises(StoreError, match="no saved game 99"):
        store.load_game(99)


def test_stats_per_board_and_player_match_the_games_played(db):
    games = [play(seed) for seed in range(12)]
    with open_store(db) as store:
        for game in games:
            save_whole_game(store, game)
        stats = store.stats()
    assert stats.skipped == []
    (record,) = stats.boards
    assert record.key == board_key(load_board("classic"))
    ann = next(p for p in record.players if p.player == "Ann")
    ann_wins = [g for g in games if g.winner == 0]
    assert ann.games == len(games)
    assert ann.wins == len(ann_wins)
    assert sorted(ann.lengths) == sorted(g.turns_taken[0] for g in ann_wins)


def test_puzzle_bests_count_rolls(db):
    board = load_board("classic")
    with open_store(db) as store:
        for rolls in (12, 9, 15):
            store.save_game(
                None, board=board, players=["Ann"], mode="puzzle", data={},
                status="won", winner="Ann", turns=rolls - 1, rolls=rolls,
            )  # fmt: skip
        (record,) = store.stats().boards
    (ann,) = record.players
    assert (ann.puzzles, ann.puzzle_best, ann.games) == (3, 9, 0)


# -- migrations ----------------------------------------------------------------------------


def test_a_version_1_database_is_migrated_and_keeps_its_games(db):
    board = load_board("classic")
    game = play(5)
    conn = sqlite3.connect(db)
    for statement in MIGRATIONS[0]:  # the schema as snl 1 wrote it
        conn.execute(statement)
    from snl_tui.core.files.formats import dump_board

    conn.execute("INSERT INTO boards VALUES (?, ?)", (board_key(board), dump_board(board, "json")))
    conn.execute(
        "INSERT INTO games (board_key, board_name, players, mode, status, winner, turns,"
        " started, updated, data) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            board_key(board), board.name, json.dumps(["Ann", "CPU"]), "classic", "won",
            game.players[game.winner].name, game.turns_taken[game.winner],
            "2024-05-01T10:00:00+00:00", "2024-05-01T10:30:00+00:00", json.dumps(game.to_dict()),
        ),
    )  # fmt: skip
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()

    with open_store(db) as store:
        assert store.enabled, store.disabled_reason
        saved = store.load_game(1)
        assert saved.rolls is None  # the column version 2 added: unknown for old games
        assert Game.from_dict(saved.board, saved.data).positions == game.positions
        assert store.stats().boards[0].players[0].games == 1
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = {row[0] for row in check.execute("SELECT name FROM sqlite_master")}
        assert {"games_by_status", "games_by_board"} <= indexes


def test_a_database_from_a_newer_snl_is_left_alone(db):
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store = open_store(db)
    assert not store.enabled
    assert "newer snl" in (store.disabled_reason or "")
    assert store.save_game(None, board=load_board("classic"), players=["A"], mode="classic",
                           data={}) is None  # fmt: skip
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


# -- damaged, locked, read-only ------------------------------------------------------------


def test_a_corrupt_file_is_moved_aside_and_a_fresh_store_started(db):
    garbage = random.Random(7).randbytes(8192)
    db.write_bytes(garbage)
    with open_store(db) as store:
        assert store.enabled
        (warning,) = store.warnings
        assert "damaged" in warning and "\n" not in warning
        assert (
            store.save_game(
                None, board=load_board("classic"), players=["A"], mode="classic", data={}
            )
            == 1
        )
    (aside,) = db.parent.glob(f"{DB_NAME}.corrupt-*")
    assert aside.read_bytes() == garbage


def test_a_data_directory_that_cannot_be_made_disables_saving(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = open_store(blocker / "sub" / DB_NAME)  # works for root too: no permissions involved
    assert not store.enabled
    assert store.take_notice() == store.disabled_reason
    assert store.take_notice() is None
    board = load_board("classic")
    assert store.save_game(None, board=board, players=["A"], mode="classic", data={}) is None
    assert not store.mark_abandoned(1)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through chmod")
def test_a_read_only_directory_disables_saving(tmp_path):
    directory = tmp_path / "ro"
    directory.mkdir()
    directory.chmod(0o555)
    try:
        store = open_store(directory / DB_NAME)
        assert not store.enabled
        assert store.take_notice() is not None
    finally:
        directory.chmod(0o755)


def test_a_store_that_turns_read_only_says_so_once_and_goes_on(db):
    # What a read-only file looks like to SQLite (SQLITE_READONLY), without relying on
    # file permissions that root ignores.
    board = load_board("classic")
    store = open_store(db)
    first = store.save_game(None, board=board, players=["A"], mode="classic", data={"n": 1})
    assert first == 1
    store._conn.execute("PRAGMA query_only = ON")
    assert store.save_game(first, board=board, players=["A"], mode="classic", data={}) is None
    notice = store.take_notice()
    assert notice is not None and "read-only" in notice
    assert store.save_game(first, board=board, players=["A"], mode="classic", data={}) is None
    assert store.take_notice() is None  # said once
    assert store.load_game(first).data == {"n": 1}  # the last good save is intact
    store.close()


def test_a_locked_store_gives_up_quickly_and_says_so_once(db):
    board = load_board("classic")
    with open_store(db) as setup:
        setup.save_game(None, board=board, players=["A"], mode="classic", data={"n": 1})
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holding the write lock
    try:
        store = open_store(db, timeout=0.2)
        assert store.enabled  # opening an up-to-date store needs no write lock
        assert store.save_game(1, board=board, players=["A"], mode="classic", data={}) is None
        notice = store.take_notice()
        assert notice is not None and "locked" in notice
        assert store.save_game(1, board=board, players=["A"], mode="classic", data={}) is None
        assert store.take_notice() is None
        assert store.list_games().games[0].id == 1  # reading still works under WAL
        store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_two_connections_saving_at_once_both_save(db):
    board = load_board("classic")
    open_store(db).close()  # create the schema once, as the first snl would
    results: dict[str, list[int | None]] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def player(name: str) -> None:
        # A generous busy timeout: the machine is shared; what is tested is that both
        # connections' saves land, not how fast.
        with open_store(db, timeout=10) as store:
            start.wait()
            game_id = None
            for move in range(40):
                game_id = store.save_game(
                    game_id, board=board, players=[name], mode="classic",
                    data={"move": move}, turns=move,
                )  # fmt: skip
                results[name].append(game_id)

    threads = [threading.Thread(target=player, args=(name,)) for name in results]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(None not in ids and len(set(ids)) == 1 for ids in results.values())
    with open_store(db) as store:
        games = store.list_games().games
    assert sorted((g.players[0], g.turns) for g in games) == [("a", 39), ("b", 39)]


# -- untrusted rows ------------------------------------------------------------------------


def test_rows_that_fail_validation_are_reported_and_skipped(db):
    good = play(1)
    with open_store(db) as store:
        good_id = save_whole_game(store, good)
        bad_board = save_whole_game(store, play(2, board="leetcode-1"))
        bad_players = save_whole_game(store, play(4))
    with sqlite3.connect(db) as conn:
        # A board that breaks the rules (a ladder off the board) and a garbled players list.
        leet = board_key(load_board("leetcode-1"))
        conn.execute(
            "UPDATE boards SET document = ? WHERE key = ?",
            ('{"size": 6, "ladders": [[2, 99]], "snakes": []}', leet),
        )
        conn.execute("UPDATE games SET players = '[oops' WHERE id = ?", (bad_players,))
    with open_store(db) as store:
        listing = store.list_games()
        assert {g.id for g in listing.games} == {good_id, bad_board}
        assert len(listing.skipped) == 1 and f"saved game {bad_players}" in listing.skipped[0]
        with pytest.raises(StoreError, match=f"saved game {bad_board} is damaged"):
            store.load_game(bad_board)
        stats = store.stats()
    assert [record.name for record in stats.boards] == [good.board.name]
    assert len(stats.skipped) == 2
    assert any("board" in line and "invalid" in line for line in stats.skipped)


# -- kill -9 -------------------------------------------------------------------------------

SAVER = """
import sys
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import open_store

store = open_store(sys.argv[1], timeout=10)
board = load_board("classic")
game_id = int(sys.argv[2]) if sys.argv[2] != "new" else None
start = int(sys.argv[3])
for n in range(start, start + 100000):
    # A realistic session's size, and a body that says which save it belongs to.
    data = {"n": n, "rolls": [n % 6 + 1] * 100}
    game_id = store.save_game(game_id, board=board, players=["Ann"], mode="classic",
                              data=data, turns=n)
    assert game_id is not None, store.disabled_reason
    print(game_id, n, flush=True)
"""


def test_kill_9_at_any_moment_loses_at_most_the_move_in_flight(db):
    rng = random.Random(909)
    game_id, committed = "new", 0
    for _ in range(4):
        saver = subprocess.Popen(
            [sys.executable, "-c", SAVER, str(db), str(game_id), str(committed + 1)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert saver.stdout is not None
        # Kill after a seeded number of confirmed saves: where inside the next save the
        # signal lands is up to the scheduler, which is the point.
        for _ in range(rng.randint(1, 60)):
            line = saver.stdout.readline()
            assert line, "the saver stopped early"
            game_id, committed = line.split()
        saver.send_signal(signal.SIGKILL)
        # The saver ran ahead of our reading: its last confirmed save is the last whole
        # line it wrote before the signal.
        for line in saver.stdout:
            if line.endswith("\n"):
                game_id, committed = line.split()
        saver.wait()
        committed = int(committed)
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        with open_store(db) as store:
            saved = store.load_game(int(game_id))
        # Every confirmed save is there; at most the one in flight got in too; the row is
        # whole (its summary and its data come from the same save).
        assert saved.turns in (committed, committed + 1)
        assert saved.data["n"] == saved.turns
        committed = saved.turns
