"""Saving rooms' games off the event loop: every screen has the move before it is saved.

A room saves its game as it opens and after every move (``snl host --resume`` reopens it
from there), and a save is a SQLite transaction: most of a millisecond, far more on a
busy disk. Written on the server's event loop, it held up every room's moves (issue 41:
50 rooms, p99 over 500 ms). Here the loop only takes a snapshot of what to save
(``session.to_dict()``, a few microseconds) after the move has been sent, and one writer
thread (``SaveWriter``) writes the snapshots in order. A room's rows (``RoomRecord``)
keep their ids in the writer's own order, so a game's second save updates the row its
first save made even when the first has not been written yet when the second is asked
for; and a save asked for while an older one of the same row still waits replaces it
(the newest state is the one to keep: under load, fewer writes).

Nothing is lost on a crash but what was still queued (the moves of the last moments,
which everyone has seen): every written save is a committed transaction.

What a room saves beside its session (its seats, options and clocks, for ``--resume``;
``net.saved_room`` reads it back) is ``saved_room``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..core.store.saving import GameSaver

if TYPE_CHECKING:
    from ..core.session import GameSession
    from .guard import Secret
    from .people import SeatState
    from .room_clocks import RoomClocks, Timers

Job = Callable[[], None]


class SaveWriter:
    """One thread that runs save jobs in the order they come (started on first use).

    Asking costs the event loop a ``deque.append`` and, only when the writer sleeps, one
    wake-up: no lock per save (a queue's lock handed the GIL to the writer every time)."""

    def __init__(self) -> None:
        self._jobs: deque[Job | None] = deque()
        self._wake = threading.Event()
        self._done = threading.Condition()
        self._asked = 0
        self._written = 0
        self._thread: threading.Thread | None = None
        self.failures: list[str] = []
        """What went wrong in a job (the room's log says it)."""

    def submit(self, job: Job | None) -> None:
        if self._thread is None:
            if job is None:
                return
            self._thread = threading.Thread(target=self._run, name="snl-room-saves", daemon=True)
            self._thread.start()
        self._asked += 1
        self._jobs.append(job)
        if not self._wake.is_set():
            self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while self._jobs:
                job = self._jobs.popleft()
                try:
                    if job is None:
                        return
                    job()
                except Exception as error:  # a save must never end the writer
                    self.failures.append(f"a save failed: {error}")
                finally:
                    with self._done:
                        self._written += 1
                        self._done.notify_all()

    def flush(self) -> None:
        """Wait (blocking) until every job asked for so far has been written."""
        if self._thread is None:
            return
        asked = self._asked
        with self._done:
            self._done.wait_for(lambda: self._written >= asked or not self._alive())

    def _alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    async def written(self) -> None:
        """Wait, without blocking the event loop, until every save so far is written."""
        await asyncio.to_thread(self.flush)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        thread = self._thread
        if thread is not None:
            self.submit(None)
            thread.join()
            self._thread = None


@dataclass
class _Row:
    """One game's row in the store: its id once the writer has made it, and the newest
    save not yet written (a newer one replaces it: only the last state matters)."""

    id: int | None = None
    finished: bool = False
    pending: dict[str, Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def put(self, fields: dict[str, Any]) -> bool:
        """Keep ``fields`` as the save to write; True when no write was queued for it."""
        with self.lock:
            queued = self.pending is not None
            self.pending = fields
            return not queued

    def take(self) -> dict[str, Any] | None:
        with self.lock:
            fields, self.pending = self.pending, None
            return fields


class RoomRecord:
    """One room's saves: snapshots taken on the loop, written by the ``SaveWriter``.

    ``saver`` (a ``GameSaver``) owns the store and the game a resumed room continues
    (``GameSaver.resumed``); ``saver.game_id`` follows the rows as they are written."""

    def __init__(self, saver: GameSaver, writer: SaveWriter, on_first: Callable[[int], None]):
        self.saver = saver
        self.writer = writer
        self.on_first = on_first
        """Called on the event loop with a row's id once its first save is written."""
        self._session: GameSession | None = None
        self._index: int | None = None
        """The session's ``game_index`` whose row ``_row`` is: another is a new game."""
        self._row = _Row(saver.game_id)
        self._whole: dict[str, Any] | None = None
        """``session.to_dict()`` as the game began: what a move does not change (the
        board whole, the settings, the seeds) is taken from it, not made again."""

    def resumed(self, session: GameSession) -> None:
        """The room continues ``saver.game_id``'s game (``session``'s)."""
        self._session, self._index = session, session.game_index
        self._row, self._whole = _Row(self.saver.game_id), None

    def save(self, session: GameSession, extra: Mapping[str, Any]) -> None:
        """Queue a save of the session as it is now (taken here, written later)."""
        store = self.saver.store
        if store is None:
            return
        game = session.game
        if session is not self._session:  # made again (a seat's new name): the same game
            self._session, self._whole = session, None
        if session.game_index != self._index:  # a new game of the session: a row of its own
            old = self._row
            self._index, self._row, self._whole = session.game_index, _Row(), None
            self.writer.submit(lambda: store.live.release(old.id) if old.id is not None else None)
        row = self._row
        if row.finished:
            return
        # Saved before its first move too: a room is its code, seats, password and
        # options as much as its game, and a host killed before anyone rolls resumes it.
        winner = game.winner
        turns = game.turns_taken[winner] if winner is not None else max(game.turns_taken)
        fields: dict[str, Any] = {
            "board": session.settings.board,
            "players": [player.name for player in game.players],
            "mode": session.mode,
            "status": "won" if winner is not None else "playing",
            "winner": game.players[winner].name if winner is not None else None,
            "turns": turns,
            "rolls": len(game.history),
            "data": self._snapshot(session) | dict(extra),
        }
        row.finished = winner is not None
        if not row.put(fields):
            return  # a write is queued for this row: it writes these newer fields
        loop = asyncio.get_running_loop()

        def write() -> None:
            newest = row.take()
            if newest is None:
                return
            first = row.id is None
            saved = store.save_game(row.id, **newest)
            if saved is None:
                return
            row.id = saved
            if row.finished:
                store.live.release(saved)  # over: nothing left to resume
            else:
                store.live.hold(saved)  # ours until it ends, or this process does
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                loop.call_soon_threadsafe(self._written, saved, first)

        self.writer.submit(write)

    def _snapshot(self, session: GameSession) -> dict[str, Any]:
        """``session.to_dict()``, made whole once a game and then only its moving parts
        (the game's rolls, the positions, the turn, the route): the board and settings
        are the same all game long, and turning them into a dict was most of a save."""
        whole = self._whole
        if whole is None or whole.get("game_index") != session.game_index:
            self._whole = whole = session.to_dict()
            return dict(whole)
        game = session.game
        return whole | {
            "game": game.to_dict(),
            "positions": list(game.positions),
            "turn": game.current,
            "route": {"owner": session.route_owner, "squares": list(session.route)},
            "remote_seats": sorted(session.remote_seats),
        }

    def _written(self, game_id: int, first: bool) -> None:
        self.saver.game_id = game_id
        if first:
            self.on_first(game_id)


class SavableRoom(Protocol):
    """What a room's saved form is made of (``net.room.Room``)."""

    code: str
    host_name: str | None
    recent: deque[str]
    clocks: RoomClocks
    given_away: dict[str, str]
    seats: list[SeatState]
    password: Secret | None
    timers: Timers
    keep_seat: float
    muted: set[str]
    muted_addresses: set[str]
    options: dict[str, Any]


def saved_room(room: SavableRoom, now: float) -> dict[str, Any]:
    """What ``--resume`` needs beside the session: the code, the seats, the host,
    the last notices and chat lines, and every option of the room (the password as
    its salted hash only), ``now`` by the room's server's clock."""
    timers = room.timers
    return {
        "code": room.code,
        "host": room.host_name,
        "recent": list(room.recent),
        "clocks": room.clocks.to_json(),
        "given_away": dict(room.given_away),
        "seats": [
            {
                "taken": s.taken,
                "token_sha256": s.token_sha256,
                "standin": s.standin,
                "removed": s.removed,
                "muted": s.muted,
                "idle": s.idle,
                "away": _rounded(s.away_for(now)),
            }
            for s in room.seats
        ],
        "options": {
            "password": None if room.password is None else room.password.to_json(),
            "turn_time": timers.turn_time,
            "late": timers.on_time_out,
            "away_after": timers.away_after,
            "keep_seat": room.keep_seat,
            "muted": sorted(room.muted),
            "muted_addresses": sorted(room.muted_addresses),
            **room.options,
        },
    }


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 1)


__all__ = ["RoomRecord", "SavableRoom", "SaveWriter", "saved_room"]
