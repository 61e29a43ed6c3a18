"""The saved-games store: one SQLite file holding every game, for resume, history and stats.

SPEC 8. No Textual and no rich here: the game screen and the ``snl games``/``snl stats``
commands both use this module.

Using it
========

``open_store()`` opens the database in ``$SNL_DATA_DIR`` (when set) or in
``platformdirs.user_data_dir("snl")``. It never raises for a problem of the environment
(locked, read-only, a directory that cannot be made, a file from a newer snl): it returns
a *disabled* store whose ``disabled_reason`` says why, and whose writes do nothing.

Damage is looked for, not waited for: opening runs ``PRAGMA quick_check`` (a few
milliseconds for thousands of games), and any read or write that meets a damaged page or
undecodable text later does the same as a damaged file found on opening. The damaged file
is moved aside (``games.db.corrupt-<time>``, with its ``-wal``/``-shm``), a fresh one is
started, and every game whose rows still read back cleanly (its board, its moves) is copied
into it with its id; the one-line warning ("... moved aside; 3 of 4 saved games kept") is in
``store.warnings`` and, once, in ``take_notice()``. The read or write that met the damage
is then tried once more on the fresh file.

The game saves after every move, one transaction each::

    store = open_store()                    # or open_store(path) in tests
    game_id = None
    ...after each move...
    game_id = store.save_game(
        game_id, board=board, players=["Ann", "CPU"], mode="classic",
        status="playing", turns=7, rolls=9, data=session.to_dict(),
    )                                       # None when not saving
    notice = store.take_notice()            # "not saving: ..." once, then None
    ...at the end...
    store.save_game(game_id, ..., status="won", winner="Ann", turns=12, rolls=14, data=...)
    store.mark_abandoned(game_id)           # for `n` / `m` (a new game)

``save_game`` inserts when ``game_id`` is None and returns the new id. ``turns`` is the
number of turns the winner took (the game's length, in the same unit as the exact
distribution of ``core.odds.analysis``), ``rolls`` the number of die rolls (a puzzle's score:
the solver's optimum counts rolls). ``data`` is the session's ``to_dict()``: the store
treats it as opaque JSON. The board is stored whole, once per distinct board, so a board
file edited or deleted later does not change a saved game.

A write that fails (another program holds the write lock longer than the busy timeout,
a read-only file, a full disk) disables the store for the rest of the session and leaves
one notice for ``take_notice()``: the game goes on without saving and says so once.

Reading back: ``last_unfinished()``, ``load_game(id)`` (a ``SavedGame`` with the board,
validated again, and ``data``), ``list_games()`` and ``stats()``. Everything read is
untrusted input (the file may have been edited): a row that fails validation is skipped
and named in the result's ``skipped`` list (``load_game`` raises ``StoreError``), never
a traceback.

A game being played is held in ``store.live`` (``live.py``: a lock the operating system
drops when the process ends): ``unfinished()`` leaves out the games another running snl
holds, so one game is never played by two processes at once.

Durability: WAL mode with ``synchronous=NORMAL``. A committed save survives the process
being killed at any moment (``kill -9`` loses at most the move in flight); a power cut
may lose the last few saves but never corrupts the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

from ..board import Board
from ..errors import SnlError
from ..files.formats import dump_board, parse_board
from ..text import escape_controls
from .data_dir import DATA_DIR_ENV, default_dir
from .live import LiveGames

DB_NAME = "games.db"
BUSY_TIMEOUT = 0.5
"""Seconds a save waits for another snl's write lock before giving up (a save takes
about a millisecond, so a lock held this long is a stuck or foreign program)."""

Status = Literal["playing", "won", "abandoned"]
STATUSES: tuple[str, ...] = ("playing", "won", "abandoned")
MODES: tuple[str, ...] = ("classic", "puzzle")


_T = TypeVar("_T")


class StoreError(SnlError):
    """A saved game that cannot be read back (missing, or its row is damaged)."""


# -- schema --------------------------------------------------------------------------------

# MIGRATIONS[n] takes the schema from version n to n + 1 (``PRAGMA user_version``). Append,
# never edit: a database in the wild may be at any version. Each step runs in one
# transaction together with its version bump, so a crash mid-migration changes nothing.
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
    write lock. Raises ``_Unusable`` for a file written by a newer snl.
    """
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found < 0:  # snl writes 0..SCHEMA_VERSION: the header was overwritten
        raise sqlite3.DatabaseError(f"database disk image is malformed (schema {found})")
    if found > SCHEMA_VERSION:
        raise _Unusable(
            f"not saving: {DB_NAME} was written by a newer snl (schema {found}, "
            f"this snl knows {SCHEMA_VERSION})"
        )
    if found == SCHEMA_VERSION:
        return found
    with _transaction(conn):
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
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    # IMMEDIATE takes the write lock up front, so a busy store fails at BEGIN (after the
    # busy timeout) instead of half-way through.
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# -- what comes back -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One saved game as ``snl games`` lists it."""

    id: int
    board_name: str
    board_key: str
    players: tuple[str, ...]
    mode: str
    status: str
    """playing | won | abandoned"""
    winner: str | None
    turns: int
    rolls: int | None
    started: datetime
    updated: datetime

    @property
    def status_text(self) -> str:
        """'in progress', 'won by Ann' or 'abandoned'."""
        if self.status == "won":
            return f"won by {self.winner}"
        return "in progress" if self.status == "playing" else "abandoned"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "board": self.board_name,
            "players": list(self.players),
            "mode": self.mode,
            "started": self.started.isoformat(),
            "updated": self.updated.isoformat(),
            "turns": self.turns,
            "rolls": self.rolls,
            "status": self.status,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class SavedGame(GameSummary):
    """A saved game with what it takes to resume it: the board and the session's data."""

    board: Board
    data: dict[str, Any]


class Listing(NamedTuple):
    games: list[GameSummary]
    """Newest first."""
    skipped: list[str]
    """One line per row that failed validation."""


@dataclass(frozen=True)
class PlayerRecord:
    """One player name's history on one board."""

    player: str
    games: int
    """Classic games played to the end (someone won) with this player in them."""
    wins: int
    lengths: tuple[int, ...]
    """Turns this player took to reach the goal, one per classic game they won."""
    seats: tuple[int, ...] = ()
    """How many players each of those games had (beside ``lengths``): the luck of a game
    is measured among games with as many players (``analysis.luck``)."""
    puzzle_scores: tuple[int, ...] = ()
    """Die rolls of every won puzzle (their best and average against the optimum)."""

    @property
    def average_length(self) -> float | None:
        return sum(self.lengths) / len(self.lengths) if self.lengths else None

    @property
    def puzzles(self) -> int:
        """Puzzle games won."""
        return len(self.puzzle_scores)

    @property
    def puzzle_best(self) -> int | None:
        """Least die rolls in a won puzzle (compare with the solver's optimum)."""
        return min(self.puzzle_scores, default=None)

    @property
    def puzzle_average(self) -> float | None:
        scores = self.puzzle_scores
        return sum(scores) / len(scores) if scores else None


@dataclass(frozen=True)
class BoardRecord:
    key: str
    name: str
    board: Board
    players: tuple[PlayerRecord, ...]
    """Sorted by name (case-insensitive)."""


class Stats(NamedTuple):
    boards: list[BoardRecord]
    """Sorted by board name."""
    skipped: list[str]


class _Unusable(Exception):
    """Why the store cannot be used at all (the message is for the player)."""


class _BadRow(Exception):
    """A row that fails validation (the message names what is wrong)."""


# -- the store -----------------------------------------------------------------------------


def open_store(
    path: str | Path | None = None, *, timeout: float = BUSY_TIMEOUT, create: bool = True
) -> Store:
    """The store at ``path`` (a database file) or in ``default_dir()``; never raises.

    When the store cannot be used the result is disabled (``store.enabled`` is False,
    ``store.disabled_reason`` says why in one line). ``create=False`` does not make a
    missing data directory (for the commands that only read).
    """
    db_path = Path(path) if path is not None else default_dir() / DB_NAME
    return Store(db_path, timeout=timeout, create=create)


class Store:
    """One connection to the saved-games database (thread-safe: one lock per store)."""

    def __init__(self, path: Path, *, timeout: float = BUSY_TIMEOUT, create: bool = True):
        self.path = path
        self.warnings: list[str] = []
        """One-line warnings (a damaged file moved aside), in the order they happened."""
        self.disabled_reason: str | None = None
        self._notices: list[str] = []
        self._timeout = timeout
        self._lock = threading.Lock()
        self._boards: dict[str, Board | str] = {}
        """Parsed boards by key, or the reason a board failed validation."""
        self._stored_keys: set[str] = set()
        self._key_cache: dict[int, tuple[Board, str, str]] = {}
        self._conn: sqlite3.Connection | None = None
        self.live = LiveGames(path.with_name(f"{path.name}-live"))
        """The games a running snl plays right now (``live.py``): never offered twice."""
        try:
            self._conn = self._connect(timeout, create)
        except _Unusable as error:
            self._disable(str(error))

    # -- opening -------------------------------------------------------------------------

    def _connect(self, timeout: float, create: bool) -> sqlite3.Connection:
        directory = self.path.parent
        if not directory.is_dir():
            if directory.exists():
                raise _Unusable(f"not saving: {directory} is not a directory")
            if not create:
                raise _Unusable(f"no saved games: {directory} does not exist")
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise _Unusable(
                    f"not saving: cannot make {directory} ({error.strerror or error})"
                ) from None
        try:
            return self._open(timeout)
        except sqlite3.DatabaseError as error:
            if not _is_damage(error):
                raise _Unusable(_write_failure(error, self.path)) from None
        return self._start_afresh()

    def _start_afresh(self) -> sqlite3.Connection:
        """The file is damaged (or not a database): move it aside, open a fresh one and
        copy into it every game that still reads back cleanly."""
        aside = self._move_aside()
        try:
            conn = self._open(self._timeout)
        except sqlite3.DatabaseError as error:
            raise _Unusable(_write_failure(error, self.path)) from None
        kept, lost = salvage(aside, conn)
        if kept or lost:
            what = f"kept {kept} of {kept + lost} saved games"
        else:
            what = "no saved game could be read from it"
        self._warn(f"warning: {self.path} was damaged; moved it to {aside.name} and {what}")
        return conn

    def _warn(self, warning: str) -> None:
        self.warnings.append(warning)
        self._notices.append(warning)

    def _recover(self, error: sqlite3.Error) -> bool:
        """Called with the lock held when a read or write met ``error``: True when it was
        damage and a fresh file (with what could be kept) is now open."""
        if not _is_damage(error) or self._conn is None:
            return False
        self._conn.close()
        self._conn = None
        self._boards.clear()
        self._stored_keys.clear()
        try:
            self._conn = self._start_afresh()
        except _Unusable as unusable:
            self._disable(str(unusable))
            return False
        return True

    def _open(self, timeout: float) -> sqlite3.Connection:
        # Autocommit mode (isolation_level=None): transactions are explicit, one per save.
        conn = sqlite3.connect(
            self.path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise _Unusable(f"not saving: cannot use WAL mode on {self.path} ({mode})")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            # Reading the schema reads page 1: a file of garbage fails here.
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            migrate(conn)
            # Damage deeper in the file: every page is read once (btrees, free list).
            problems = conn.execute("PRAGMA quick_check(1)").fetchone()
            if problems is None or problems[0] != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {problems}")
            try:  # every column snl reads is there: the schema's own text is intact
                conn.execute(f"{self._SELECT_GAMES} LIMIT 0").fetchall()
            except sqlite3.OperationalError as error:
                raise sqlite3.DatabaseError(f"database disk image is malformed ({error})") from None
        except UnicodeDecodeError as error:
            # SQLite's message quoted damaged schema text that is not UTF-8.
            conn.close()
            raise sqlite3.DatabaseError(f"database disk image is malformed ({error})") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 2
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
            number += 1
        try:
            self.path.replace(aside)
            # A stale WAL beside a fresh file would be replayed into it: move it too.
            for suffix in ("-wal", "-shm"):
                extra = self.path.with_name(self.path.name + suffix)
                if extra.exists():
                    extra.replace(aside.with_name(aside.name + suffix))
        except OSError as error:
            raise _Unusable(
                f"not saving: {self.path} is damaged and cannot be moved aside "
                f"({error.strerror or error})"
            ) from None
        return aside

    # -- state ---------------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        """True while saves reach the file."""
        return self.disabled_reason is None

    def take_notice(self) -> str | None:
        """The next one-line message for the player, each once: a damaged file moved
        aside, then "not saving: ..." after the store became disabled; None when there is
        nothing new. Show it in the status line."""
        return self._notices.pop(0) if self._notices else None

    def close(self) -> None:
        with self._lock:
            self.live.release_all()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _disable(self, reason: str) -> None:
        if self.disabled_reason is None:
            self.disabled_reason = reason
            self._notices.append(reason)

    # -- writing -------------------------------------------------------------------------

    def save_game(
        self,
        game_id: int | None,
        *,
        board: Board,
        players: Sequence[str],
        mode: str,
        data: dict[str, Any],
        status: Status = "playing",
        winner: str | None = None,
        turns: int = 0,
        rolls: int | None = None,
    ) -> int | None:
        """Save a game in one transaction; returns its id (new when ``game_id`` is None).

        Returns None when not saving (the store is disabled; ``take_notice`` says why
        once). Bad arguments (an unknown status, data that is not JSON) raise
        ``ValueError``/``TypeError``: those are bugs, not the environment.
        """
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        if status == "won" and not winner:
            raise ValueError("a won game needs its winner")
        text = json.dumps(data, separators=(",", ":"), allow_nan=False)
        names = json.dumps([str(name) for name in players])
        key, document = self._board_key(board)
        now = _now()

        def write(conn: sqlite3.Connection) -> int:
            if key not in self._stored_keys:
                conn.execute(
                    "INSERT OR IGNORE INTO boards (key, document) VALUES (?, ?)", (key, document)
                )
            values = (key, board.name or "", names, mode, status, winner, turns, rolls, now)
            if game_id is not None:
                cursor = conn.execute(
                    "UPDATE games SET board_key=?, board_name=?, players=?, mode=?, status=?,"
                    " winner=?, turns=?, rolls=?, updated=?, data=? WHERE id=?",
                    (*values, text, game_id),
                )
                if cursor.rowcount:
                    return game_id
            cursor = conn.execute(
                "INSERT INTO games (board_key, board_name, players, mode, status, winner,"
                " turns, rolls, updated, started, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (*values, now, text),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        saved = self._write(write)
        if saved is not None:
            self._stored_keys.add(key)
        return saved

    def mark_abandoned(self, game_id: int | None) -> bool:
        """Mark a game abandoned (a new game replaced it); False when not saving."""
        if game_id is None:
            return False
        return self._update_status(game_id, "abandoned", None, None, None)

    def finish(self, game_id: int, winner: str, turns: int, rolls: int | None = None) -> bool:
        """Mark a game won by ``winner`` after ``turns`` turns; False when not saving."""
        return self._update_status(game_id, "won", winner, turns, rolls)

    def _update_status(
        self, game_id: int, status: str, winner: str | None, turns: int | None, rolls: int | None
    ) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            conn.execute(
                "UPDATE games SET status=?, winner=?, turns=coalesce(?, turns),"
                " rolls=coalesce(?, rolls), updated=? WHERE id=?",
                (status, winner, turns, rolls, _now(), game_id),
            )
            return True

        return self._write(write) is not None

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T | None:
        with self._lock:
            if self._conn is None or not self.enabled:
                return None
            for attempt in (1, 2):
                assert self._conn is not None
                try:
                    with _transaction(self._conn):
                        return work(self._conn)
                except sqlite3.Error as error:
                    if attempt == 1 and self._recover(error):
                        continue  # the fresh file takes the write
                    self._disable(_write_failure(error, self.path))
            return None

    def _board_key(self, board: Board) -> tuple[str, str]:
        # The game saves the same Board object after every move: dump it once.
        cached = self._key_cache.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1], cached[2]
        key, document = _board_document(board)
        self._key_cache[id(board)] = (board, key, document)
        return key, document

    # -- reading -------------------------------------------------------------------------

    _COLUMNS = (
        "id, board_key, board_name, players, mode, status, winner, turns, rolls, started, updated"
    )
    _SELECT_GAMES = (
        f"SELECT {_COLUMNS}, data, document FROM games"
        " LEFT JOIN boards ON boards.key = games.board_key"
    )

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            for attempt in (1, 2):
                if self._conn is None:
                    break
                try:
                    try:
                        return self._conn.execute(sql, params).fetchall()
                    except UnicodeDecodeError as error:  # in SQLite's own message
                        raise sqlite3.DatabaseError(f"malformed text ({error})") from None
                except sqlite3.Error as error:
                    if attempt == 1 and self._recover(error):
                        continue  # read again what the fresh file kept
                    raise StoreError(f"cannot read {self.path}: {error}") from None
            raise StoreError(self.disabled_reason or "the store is closed")

    def list_games(self) -> Listing:
        """Every saved game, newest first; damaged rows are skipped and named."""
        games, skipped = [], []
        for row in self._read(f"SELECT {self._COLUMNS} FROM games ORDER BY started DESC, id DESC"):
            try:
                games.append(_summary(row))
            except _BadRow as error:
                skipped.append(f"saved game {row[0]!r} skipped: {error}")
        return Listing(games, skipped)

    def load_game(self, game_id: int) -> SavedGame:
        """The saved game ``game_id`` with its board and data; StoreError when it is
        missing or its row fails validation."""
        rows = self._read(f"{self._SELECT_GAMES} WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"no saved game {game_id}")
        try:
            return self._saved_game(rows[0])
        except _BadRow as error:
            raise StoreError(f"saved game {game_id} is damaged: {error}") from None

    def last_unfinished(self) -> SavedGame | None:
        """The most recently saved game still in progress that can be loaded, or None."""
        games = self.unfinished(limit=20)
        return games[0] if games else None

    def unfinished(self, limit: int = 50) -> list[SavedGame]:
        """The games still in progress that can be loaded, most recently saved first
        (at most ``limit`` rows are looked at; damaged ones are left out: `snl games`
        names them). A game another running snl is playing is left out too: it is not
        this process's to resume."""
        rows = self._read(
            f"{self._SELECT_GAMES} WHERE status = 'playing' ORDER BY updated DESC, id DESC LIMIT ?",
            (limit,),
        )
        games = []
        for row in rows:
            if type(row[0]) is int and self.live.live_elsewhere(row[0]):
                continue
            try:
                games.append(self._saved_game(row))
            except _BadRow:
                continue
        return games

    def _saved_game(self, row: tuple[Any, ...]) -> SavedGame:
        summary = _summary(row[:11])
        data = _json(row[11], "data")
        if not isinstance(data, dict):
            raise _BadRow(f"data is {type(data).__name__}, not an object")
        board = self._board(summary.board_key, row[12])
        fields = {name: getattr(summary, name) for name in GameSummary.__dataclass_fields__}
        return SavedGame(**fields, board=board, data=data)

    def _board(self, key: str, document: object) -> Board:
        known = self._boards.get(key)
        if known is None:
            known = _parse_stored_board(key, document)
            self._boards[key] = known
        if isinstance(known, str):
            raise _BadRow(known)
        return known

    def stats(self, boards: str | Iterable[str] | None = None) -> Stats:
        """History per board and player name (see ``PlayerRecord``): won games only.

        ``boards`` keeps the boards whose name matches one of them (without case) or
        whose key is one of them. Rows that fail validation (a damaged row, a board that
        fails validation) are skipped and named in ``skipped``.
        """
        rows = self._read(
            "SELECT board_key, board_name, players, mode, status, winner, turns, rolls, id"
            " FROM games WHERE status = 'won'"
        )
        if isinstance(boards, str):
            boards = [boards]
        wanted = None if boards is None else {name.casefold() for name in boards}
        per_board: dict[str, dict[str, _Tally]] = {}
        names: dict[str, str] = {}
        skipped: list[str] = []
        for key, board_name, players, mode, _, winner, turns, rolls, game_id in rows:
            names_of_row = {str(board_name).casefold(), str(key).casefold()}
            if wanted is not None and not wanted & names_of_row:
                continue
            try:
                seats = _players(players)
                if not isinstance(winner, str) or winner not in seats:
                    raise _BadRow(f"winner {winner!r} is not one of the players")
                length = _count(turns, "turns")
                moves = None if rolls is None else _count(rolls, "rolls")
            except _BadRow as error:
                skipped.append(f"saved game {game_id!r} skipped: {error}")
                continue
            tallies = per_board.setdefault(key, {})
            names.setdefault(key, str(board_name))
            for seat in seats:
                tally = tallies.setdefault(seat, _Tally())
                if mode == "puzzle":
                    if seat == winner:
                        tally.puzzle_scores.append(moves if moves is not None else length)
                    continue
                tally.games += 1
                if seat == winner:
                    tally.wins += 1
                    tally.lengths.append(length)
                    tally.seats.append(len(seats))
        documents: dict[str, object] = {}
        if per_board:
            placeholders = ",".join("?" * len(per_board))
            documents = dict(
                self._read(
                    f"SELECT key, document FROM boards WHERE key IN ({placeholders})",
                    list(per_board),
                )
            )
        records = []
        for key, tallies in per_board.items():
            try:
                parsed = self._board(key, documents.get(key))
            except _BadRow as error:
                count = sum(1 for row in rows if row[0] == key)
                skipped.append(f"{count} saved game(s) on board {names[key]!r} skipped: {error}")
                continue
            players_sorted = sorted(tallies.items(), key=lambda item: item[0].casefold())
            records.append(
                BoardRecord(
                    key=key,
                    name=names[key],
                    board=parsed,
                    players=tuple(t.record(name) for name, t in players_sorted),
                )
            )
        records.sort(key=lambda record: (record.name.casefold(), record.key))
        return Stats(records, skipped)


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    lengths: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    puzzle_scores: list[int] = field(default_factory=list)

    def record(self, name: str) -> PlayerRecord:
        return PlayerRecord(
            name,
            self.games,
            self.wins,
            tuple(self.lengths),
            tuple(self.seats),
            tuple(self.puzzle_scores),
        )


# -- validation of what comes back ---------------------------------------------------------


def _summary(row: Sequence[Any]) -> GameSummary:
    game_id, key, board_name, players, mode, status, winner, turns, rolls, started, updated = row
    if type(game_id) is not int:
        raise _BadRow(f"id {game_id!r} is not a number")
    if not isinstance(key, str) or not isinstance(board_name, str):
        raise _BadRow("board reference is not text")
    if status not in STATUSES:
        raise _BadRow(f"unknown status {status!r}")
    if mode not in MODES:
        raise _BadRow(f"unknown mode {mode!r}")
    if status == "won" and not isinstance(winner, str):
        raise _BadRow("won, but no winner")
    return GameSummary(
        id=game_id,
        board_name=board_name,
        board_key=key,
        players=_players(players),
        mode=mode,
        status=status,
        winner=winner if isinstance(winner, str) else None,
        turns=_count(turns, "turns"),
        rolls=None if rolls is None else _count(rolls, "rolls"),
        started=_time(started, "started"),
        updated=_time(updated, "updated"),
    )


def _json(text: object, what: str) -> Any:
    if not isinstance(text, str):
        raise _BadRow(f"{what} is not text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _BadRow(f"{what} is not JSON ({error})") from None


def _players(text: object) -> tuple[str, ...]:
    names = _json(text, "players")
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(name, str) and name for name in names)
    ):
        raise _BadRow("players is not a list of names")
    # Names are drawn on the terminal (the resume offer, snl games, stats): an edited
    # store's escapes are shown, never obeyed.
    return tuple(escape_controls(name) for name in names)


def _count(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise _BadRow(f"{what} {value!r} is not a count")
    return value


def _time(value: object, what: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise _BadRow(f"{what} {value!r} is not a time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def board_key(board: Board) -> str:
    """The key the store files ``board`` under (its games' ``board_key``)."""
    return _board_document(board)[0]


def _board_document(board: Board) -> tuple[str, str]:
    document = dump_board(board, "json")
    return hashlib.sha256(document.encode("utf-8")).hexdigest(), document


def _parse_stored_board(key: str, document: object) -> Board | str:
    """The board a row refers to, validated like a board file; or why it is refused."""
    if document is None:
        return "its board is missing"
    if not isinstance(document, str):
        return "its board is not text"
    try:
        return parse_board(document, source="stored board", suffix=".json")
    except (SnlError, ValueError, TypeError, RecursionError) as error:
        return f"its board is invalid ({' '.join(str(error).split())})"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _is_damage(error: sqlite3.Error) -> bool:
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
_READ_FAILURES = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file raises (SQLite's message may quote text that is not UTF-8)."""


def _readable_rows(conn: sqlite3.Connection, table: str, columns: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` that can still be read: in one pass, or (when a damaged
    page stops the pass) one rowid at a time, skipping the rows that fail."""
    try:
        return conn.execute(f"SELECT {columns} FROM {table} ORDER BY rowid").fetchall()
    except _READ_FAILURES:
        pass
    try:
        (top,) = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()
    except _READ_FAILURES:
        return []
    rows = []
    for rowid in range(1, min(int(top or 0), SALVAGE_MAX_ROWS) + 1):
        try:
            row = conn.execute(f"SELECT {columns} FROM {table} WHERE rowid = ?", (rowid,))
            found = row.fetchone()
        except _READ_FAILURES:
            continue
        if found is not None:
            rows.append(found)
    return rows


def _text_row(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row read as bytes with its text decoded; UnicodeDecodeError for damaged text."""
    return tuple(value.decode("utf-8") if isinstance(value, bytes) else value for value in row)


def salvage(source: Path, target: sqlite3.Connection) -> tuple[int, int]:
    """Copy into ``target`` (a fresh store) every game of the damaged file ``source``
    whose row, data and board read back cleanly, with its id. Returns (kept, lost):
    games copied, and game rows found but left behind."""
    try:
        old = sqlite3.connect(source, isolation_level=None)
    except _READ_FAILURES:
        return 0, 0
    old.text_factory = bytes  # damaged text is found row by row, not by a failed query
    try:
        boards: dict[str, str] = {}
        for row in _readable_rows(old, "boards", "key, document"):
            try:
                key, document = _text_row(row)
            except UnicodeDecodeError:
                continue
            if isinstance(_parse_stored_board(str(key), document), Board):
                boards[str(key)] = str(document)
        columns = Store._COLUMNS + ", data"
        kept = lost = 0
        with _transaction(target):
            for row in _readable_rows(old, "games", columns):
                try:
                    values = _text_row(row)
                    _summary(values[:11])
                    if not isinstance(_json(values[11], "data"), dict):
                        raise _BadRow("data is not an object")
                    document = boards[values[1]]
                except (UnicodeDecodeError, _BadRow, KeyError, IndexError):
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


def _write_failure(error: sqlite3.Error, path: Path) -> str:
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


__all__ = [
    "BUSY_TIMEOUT",
    "DATA_DIR_ENV",
    "DB_NAME",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "BoardRecord",
    "GameSummary",
    "Listing",
    "PlayerRecord",
    "SavedGame",
    "Stats",
    "Store",
    "StoreError",
    "board_key",
    "default_dir",
    "migrate",
    "open_store",
]
