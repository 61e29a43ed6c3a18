"""Damage inside a saved-games file that SQLite can still open (SPEC 8, issue 18): it is
noticed on opening or on first use, the file is moved aside, and every game that still
reads back cleanly is kept in the fresh store, with its id and its moves."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings, parse_players
from snl_tui.core.store.games import DB_NAME, StoreError, open_store

from .test_store import play, save_whole_game


def fill(db: Path, games: int, seed: int = 0) -> dict[int, tuple[dict, str]]:
    """A store of ``games`` finished games; returns each id's data and status text."""
    originals = {}
    with open_store(db) as store:
        for index in range(games):
            game_id = save_whole_game(store, play(seed * 1000 + index, ("Ann", "Bo")))
            originals[game_id] = store.load_game(game_id).data, store.load_game(game_id).status
        store.close()
    # Everything in the main file (no WAL left beside it), as after a clean exit.
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return originals


def damage(db: Path, offset: int, length: int = 2000, seed: int = 1) -> None:
    noise = random.Random(seed).randbytes(length)
    with db.open("r+b") as file:
        file.seek(offset)
        file.write(noise)


def damage_games(db: Path) -> bytes:
    """2,000 bytes of noise over the saved games themselves, a third of the way into the
    file (where they lie depends on SQLite's layout: found, not guessed). Returns the file
    as it was."""
    raw = db.read_bytes()
    offset = raw.find(b'"players"', len(raw) // 3)
    assert offset > 0
    damage(db, offset - 1000)
    return raw


def check_fresh_store(db: Path, originals: dict[int, tuple[dict, str]] | None) -> set[int]:
    """The fresh store is sound, every game it has loads, and (given the originals) is
    the original, unchanged. Returns the ids it kept."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with open_store(db) as store:
        assert store.warnings == []  # the fresh file opens cleanly
        kept = set()
        for summary in store.list_games().games:
            saved = store.load_game(summary.id)
            if originals is not None:
                assert (saved.data, saved.status) == originals[summary.id]
            kept.add(summary.id)
    return kept


def read_everything(db: Path) -> list[str]:
    """What `snl games` and `snl resume ID` read, for every game; returns the warnings.
    A game lost to the damage is "no saved game N" (a StoreError), never a traceback."""
    with open_store(db) as store:
        for summary in store.list_games().games:
            try:
                store.load_game(summary.id)
            except StoreError as error:
                assert "no saved game" in str(error) or "damaged" in str(error)
        return list(store.warnings)


def test_bytes_written_mid_file_are_noticed_and_readable_games_kept(tmp_path: Path) -> None:
    db = tmp_path / DB_NAME
    originals = fill(db, 40)
    raw = damage_games(db)
    (warning,) = read_everything(db)
    assert "damaged" in warning and "moved it to games.db.corrupt-" in warning
    (aside,) = (
        p for p in tmp_path.glob(f"{DB_NAME}.corrupt-*") if p.name[-4:] not in ("-wal", "-shm")
    )
    assert aside.read_bytes() != raw and len(aside.read_bytes()) >= len(raw)
    kept = check_fresh_store(db, originals)
    assert kept and kept < set(originals)  # 2,000 bytes of noise did cost something
    assert f"kept {len(kept)} of " in warning
    with open_store(db) as store:  # new games go to the fresh file
        new_id = save_whole_game(store, play(99, ("Cy", "Di")))
        assert store.load_game(new_id).players == ("Cy", "Di")


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    offset=st.integers(0, 40_000) | st.just(14_336),
    length=st.integers(1, 3000),
    seed=st.integers(0, 99),
)
def test_damage_anywhere_never_crashes(
    tmp_path_factory: pytest.TempPathFactory, offset: int, length: int, seed: int
) -> None:
    db = tmp_path_factory.mktemp("damage") / DB_NAME
    fill(db, 12, seed)
    damage(db, min(offset, db.stat().st_size - 1), length, seed)
    warnings = read_everything(db)
    assert len(warnings) <= 1 and all("\n" not in w for w in warnings)
    if warnings:
        check_fresh_store(db, None)


def test_text_that_is_not_utf8_is_found_on_use(tmp_path: Path) -> None:
    """Damage inside a row (the file's structure intact) passes the check on opening and
    is found when the row is read: `snl resume` used to fail with a decode error."""
    db = tmp_path / DB_NAME
    originals = fill(db, 3)
    raw = db.read_bytes()
    where = raw.rfind(b'"players"')
    assert where > 0
    db.write_bytes(raw[:where] + b"\xff\xfe\xff" + raw[where + 3 :])
    with open_store(db) as store:
        assert store.warnings == []  # structure intact: nothing to see on opening
        assert len(store.list_games().games) == 3  # the data column is not read here
    (warning,) = read_everything(db)  # one game's data meets the damage
    assert "kept 2 of 3 saved games" in warning
    assert len(check_fresh_store(db, originals)) == 2


def test_snl_games_after_damage(tmp_path: Path) -> None:
    """The commands a player runs: one warning line, the kept games listed, exit 0."""
    db = tmp_path / DB_NAME
    fill(db, 40)
    board = load_board("classic")
    session = GameSession(GameSettings(board, tuple(parse_players("Ann,Bo")), seed=3))
    session.move()
    with open_store(db) as store:
        unfinished = store.save_game(
            None, board=board, players=["Ann", "Bo"], mode="classic", data=session.to_dict()
        )
        store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damage_games(db)
    env = {"SNL_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def snl_games() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "snl_tui", "games"]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)

    done = snl_games()
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()
    assert "damaged" in line and "kept" in line
    assert "Ann" in done.stdout
    again = snl_games()
    assert again.returncode == 0 and again.stderr == ""  # noticed once, fixed for good
    assert again.stdout == done.stdout
    with open_store(db) as store:  # the unfinished game is still offered, unless lost
        last = store.last_unfinished()
        assert last is None or last.id == unfinished
