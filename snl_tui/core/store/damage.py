"""A damaged saved-games file: knowing damage when SQLite reports it, and copying every
game that still reads back cleanly into a fresh file (``salvage``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..board import Board
from .records import BadRow, json_of, parse_stored_board, summary_of
from .schema import GAME_COLUMNS, transaction


def is_damage(error: sqlite3.Error) -> bool:
    """Whether ``error`` says the file is damaged: a corrupt page, not a database at all,
    or text that is not UTF-8 (snl writes only UTF-8, so that is damage too)."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return True
    text = str(error)
    return any(
        sign in text
        for sign in ("malformed", "Could not decode to UTF-8", "unsupported file format")
    )


SALVAGE_MAX_ROWS = 1_000_000
"""Rows looked for one by one when a damaged table cannot be read in one pass."""
READ_FAILURES = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file raises (SQLite's message may quote text that is not UTF-8)."""


def readable_rows(conn: sqlite3.Connection, table: str, columns: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` that can still be read: in one pass, or (when a damaged
    page stops the pass) one rowid at a time, skipping the rows that fail."""
    try:
        return conn.execute(f"SELECT {columns} FROM {table} ORDER BY rowid").fetchall()
    except READ_FAILURES:
        pass
    try:
        (top,) = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()
    except READ_FAILURES:
        return []
    rows = []
    for rowid in range(1, min(int(top or 0), SALVAGE_MAX_ROWS) + 1):
        try:
            row = conn.execute(f"SELECT {columns} FROM {table} WHERE rowid = ?", (rowid,))
            found = row.fetchone()
        except READ_FAILURES:
            continue
        if found is not None:
            rows.append(found)
    return rows


def text_row(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row read as bytes with its text decoded; UnicodeDecodeError for damaged text."""
    return tuple(value.decode("utf-8") if isinstance(value, bytes) else value for value in row)


def salvage(source: Path, target: sqlite3.Connection) -> tuple[int, int]:
    """Copy into ``target`` (a fresh store) every game of the damaged file ``source``
    whose row, data and board read back cleanly, with its id. Returns (kept, lost):
    games copied, and game rows found but left behind."""
    try:
        old = sqlite3.connect(source, isolation_level=None)
    except READ_FAILURES:
        return 0, 0
    old.text_factory = bytes  # damaged text is found row by row, not by a failed query
    try:
        boards: dict[str, str] = {}
        for row in readable_rows(old, "boards", "key, document"):
            try:
                key, document = text_row(row)
            except UnicodeDecodeError:
                continue
            if isinstance(parse_stored_board(str(key), document), Board):
                boards[str(key)] = str(document)
        columns = GAME_COLUMNS + ", data"
        kept = lost = 0
        with transaction(target):
            for row in readable_rows(old, "games", columns):
                try:
                    values = text_row(row)
                    summary_of(values[:11])
                    if not isinstance(json_of(values[11], "data"), dict):
                        raise BadRow("data is not an object")
                    document = boards[values[1]]
                except (UnicodeDecodeError, BadRow, KeyError, IndexError):
                    lost += 1
                    continue
                target.execute(
                    "INSERT OR IGNORE INTO boards (key, document) VALUES (?, ?)",
                    (values[1], document),
                )
                target.execute(
                    f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * 12)})", values
                )
                kept += 1
        return kept, lost
    finally:
        old.close()


def write_failure(error: sqlite3.Error, path: Path) -> str:
    """One line for the status bar: why the game is not being saved."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return f"not saving: {path.name} is locked by another program"
    if primary == sqlite3.SQLITE_READONLY:
        return f"not saving: {path} is read-only"
    if primary == sqlite3.SQLITE_FULL:
        return "not saving: the disk is full"
    if primary == sqlite3.SQLITE_CANTOPEN:
        return f"not saving: cannot open {path}"
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return f"not saving: {path} is damaged"
    return f"not saving: {path}: {error}"
