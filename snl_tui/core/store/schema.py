"""The saved-games database's schema: its migrations, one per version (``PRAGMA
user_version``), and the transaction each runs in."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

# MIGRATIONS[n] takes the schema from version n to n + 1 (``PRAGMA user_version``). Append,
# never edit: a database in the wild may be at any version. Each step runs in one
# transaction together with its version bump, so a crash mid-migration changes nothing.
DB_NAME = "games.db"


class Unusable(Exception):
    """Why the store cannot be used at all (the message is for the player)."""


GAME_COLUMNS = (
    "id, board_key, board_name, players, mode, status, winner, turns, rolls, started, updated"
)
"""A game's summary columns, in the order ``records.summary_of`` reads them."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: boards (stored whole, once per distinct board) and games.
    (
        """CREATE TABLE boards (
            key TEXT PRIMARY KEY,        -- sha256 of the document
            document TEXT NOT NULL       -- dump_board(board, "json")
        )""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            board_key TEXT NOT NULL REFERENCES boards(key),
            board_name TEXT NOT NULL,
            players TEXT NOT NULL,       -- JSON list of names, in turn order
            mode TEXT NOT NULL,          -- classic | puzzle
            status TEXT NOT NULL,        -- playing | won | abandoned
            winner TEXT,
            turns INTEGER NOT NULL,      -- the winner's turns (the length so far while playing)
            started TEXT NOT NULL,       -- UTC, ISO 8601
            updated TEXT NOT NULL,
            data TEXT NOT NULL           -- the session's to_dict(), JSON
        )""",
    ),
    # 2: die rolls per game (a puzzle's score: under six_again turns and rolls differ;
    # unknown for games saved before), and indexes for resume and stats.
    (
        "ALTER TABLE games ADD COLUMN rolls INTEGER",
        "CREATE INDEX games_by_status ON games(status, updated)",
        "CREATE INDEX games_by_board ON games(board_key)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to ``SCHEMA_VERSION``; returns the version found before.

    Safe when two processes open a new file at once: the version is read again under the
    write lock. Raises ``Unusable`` for a file written by a newer snl.
    """
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found < 0:  # snl writes 0..SCHEMA_VERSION: the header was overwritten
        raise sqlite3.DatabaseError(f"database disk image is malformed (schema {found})")
    if found > SCHEMA_VERSION:
        raise Unusable(
            f"not saving: {DB_NAME} was written by a newer snl (schema {found}, "
            f"this snl knows {SCHEMA_VERSION})"
        )
    if found == SCHEMA_VERSION:
        return found
    with transaction(conn):
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[step]:
                try:
                    conn.execute(statement)
                except sqlite3.OperationalError as error:
                    # A table that exists before the step that makes it: the version in
                    # the header does not match the file, which snl never writes.
                    if "already exists" in str(error) or "duplicate column" in str(error):
                        raise sqlite3.DatabaseError(
                            f"database disk image is malformed (schema {version}: {error})"
                        ) from None
                    raise
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return found


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    # IMMEDIATE takes the write lock up front, so a busy store fails at BEGIN (after the
    # busy timeout) instead of half-way through.
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
