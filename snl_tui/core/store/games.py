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

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..board import Board
from .damage import is_damage, salvage, write_failure
from .data_dir import DATA_DIR_ENV, default_dir
from .live import LiveGames
from .records import (
    STATUSES,
    BadRow,
    BoardRecord,
    GameSummary,
    Listing,
    PlayerRecord,
    SavedGame,
    Stats,
    Status,
    StoreError,
    Tally,
    board_document,
    board_key,
    count_of,
    json_of,
    now_text,
    parse_stored_board,
    players_of,
    summary_of,
)
from .schema import (
    DB_NAME,
    GAME_COLUMNS,
    MIGRATIONS,
    SCHEMA_VERSION,
    Unusable,
    migrate,
    transaction,
)

BUSY_TIMEOUT = 0.5
"""Seconds a save waits for another snl's write lock before giving up (a save takes
about a millisecond, so a lock held this long is a stuck or foreign program)."""

_T = TypeVar("_T")


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
        except Unusable as error:
            self._disable(str(error))

    # -- opening -------------------------------------------------------------------------

    def _connect(self, timeout: float, create: bool) -> sqlite3.Connection:
        directory = self.path.parent
        if not directory.is_dir():
            if directory.exists():
                raise Unusable(f"not saving: {directory} is not a directory")
            if not create:
                raise Unusable(f"no saved games: {directory} does not exist")
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise Unusable(
                    f"not saving: cannot make {directory} ({error.strerror or error})"
                ) from None
        try:
            return self._open(timeout)
        except sqlite3.DatabaseError as error:
            if not is_damage(error):
                raise Unusable(write_failure(error, self.path)) from None
        return self._start_afresh()

    def _start_afresh(self) -> sqlite3.Connection:
        """The file is damaged (or not a database): move it aside, open a fresh one and
        copy into it every game that still reads back cleanly."""
        aside = self._move_aside()
        try:
            conn = self._open(self._timeout)
        except sqlite3.DatabaseError as error:
            raise Unusable(write_failure(error, self.path)) from None
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
        if not is_damage(error) or self._conn is None:
            return False
        self._conn.close()
        self._conn = None
        self._boards.clear()
        self._stored_keys.clear()
        try:
            self._conn = self._start_afresh()
        except Unusable as unusable:
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
                raise Unusable(f"not saving: cannot use WAL mode on {self.path} ({mode})")
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
            raise Unusable(
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
        now = now_text()

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
                (status, winner, turns, rolls, now_text(), game_id),
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
                    with transaction(self._conn):
                        return work(self._conn)
                except sqlite3.Error as error:
                    if attempt == 1 and self._recover(error):
                        continue  # the fresh file takes the write
                    self._disable(write_failure(error, self.path))
            return None

    def _board_key(self, board: Board) -> tuple[str, str]:
        # The game saves the same Board object after every move: dump it once.
        cached = self._key_cache.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1], cached[2]
        key, document = board_document(board)
        self._key_cache[id(board)] = (board, key, document)
        return key, document

    # -- reading -------------------------------------------------------------------------

    _COLUMNS = GAME_COLUMNS
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

    # A room's game holds its room beside the session (``GameSummary.room``); the data
    # of a damaged row may not be JSON at all: then it is no room (and damaged anyway).
    _ROOM = "CASE WHEN json_valid(data) THEN json_type(data, '$.room') = 'object' ELSE 0 END"

    def list_games(self) -> Listing:
        """Every saved game, newest first; damaged rows are skipped and named."""
        games, skipped = [], []
        for row in self._read(
            f"SELECT {self._COLUMNS}, {self._ROOM} FROM games ORDER BY started DESC, id DESC"
        ):
            try:
                games.append(summary_of(row[:11], room=row[11] == 1))
            except BadRow as error:
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
        except BadRow as error:
            raise StoreError(f"saved game {game_id} is damaged: {error}") from None

    def last_unfinished(self) -> SavedGame | None:
        """The most recently saved game still in progress that can be loaded, or None."""
        games = self.unfinished(limit=20)
        return games[0] if games else None

    def unfinished(self, limit: int = 50) -> list[SavedGame]:
        """The games still in progress that can be loaded, most recently saved first
        (at most ``limit`` rows are looked at; damaged ones are left out: `snl games`
        names them; a room's with no moves yet is not a game to go on with: ``snl host
        --resume`` reopens that one). A game another running snl is playing is left out
        too: it is not this process's to resume."""
        rows = self._read(
            # rolls = 0: a room saved as it opened (NO_MOVES), nothing to go on with.
            f"{self._SELECT_GAMES} WHERE status = 'playing' AND NOT coalesce(rolls = 0, 0)"
            " ORDER BY updated DESC, id DESC LIMIT ?",
            (limit,),
        )
        games = []
        for row in rows:
            if type(row[0]) is int and self.live.live_elsewhere(row[0]):
                continue
            try:
                games.append(self._saved_game(row))
            except BadRow:
                continue
        return games

    def _saved_game(self, row: tuple[Any, ...]) -> SavedGame:
        data = json_of(row[11], "data")
        if not isinstance(data, dict):
            raise BadRow(f"data is {type(data).__name__}, not an object")
        summary = summary_of(row[:11], room=isinstance(data.get("room"), dict))
        board = self._board(summary.board_key, row[12])
        fields = {name: getattr(summary, name) for name in GameSummary.__dataclass_fields__}
        return SavedGame(**fields, board=board, data=data)

    def _board(self, key: str, document: object) -> Board:
        known = self._boards.get(key)
        if known is None:
            known = parse_stored_board(key, document)
            self._boards[key] = known
        if isinstance(known, str):
            raise BadRow(known)
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
        per_board: dict[str, dict[str, Tally]] = {}
        names: dict[str, str] = {}
        skipped: list[str] = []
        for key, board_name, players, mode, _, winner, turns, rolls, game_id in rows:
            names_of_row = {str(board_name).casefold(), str(key).casefold()}
            if wanted is not None and not wanted & names_of_row:
                continue
            try:
                seats = players_of(players)
                if not isinstance(winner, str) or winner not in seats:
                    raise BadRow(f"winner {winner!r} is not one of the players")
                length = count_of(turns, "turns")
                moves = None if rolls is None else count_of(rolls, "rolls")
            except BadRow as error:
                skipped.append(f"saved game {game_id!r} skipped: {error}")
                continue
            tallies = per_board.setdefault(key, {})
            names.setdefault(key, str(board_name))
            for seat in seats:
                tally = tallies.setdefault(seat, Tally())
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
            except BadRow as error:
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
