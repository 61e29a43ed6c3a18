"""A room's clocks: the computer's pause before it rolls, the turn timer of ``snl host
--turn-time`` (roll for, or skip, a seat that does not roll in time; every screen is told
the seconds left with ``timer``) and ``--away-after`` (the computer plays for a person
gone, or here but not rolling, that long). ``Timers`` are the host's options; ``RoomClocks``
runs them for one room, on the room's event loop.

A resume keeps the clocks (issue 41): the room saves the seconds each clock had left
(``RoomClocks.to_json``, time left and not an instant, so a room resumed a day later
goes on with what was left), every ``SAVE_EVERY`` seconds while one runs and when the
host stops, and ``RoomClocks.restore`` gives them back: the turn's person has what was
left, at least ``MIN_LEFT`` seconds (they need a moment to see it is their turn again).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.errors import SnlError
from ..core.seats import Driver
from ..core.session import GameSession
from .people import SeatState
from .protocol import MAX_HISTORY, TIME_OUT_ACTIONS, encode


@dataclass(frozen=True)
class Timers:
    """What the room does by itself about slow or absent players (``snl host`` options)."""

    turn_time: float | None = None
    """Seconds a person has to roll before ``on_time_out`` happens (None: no limit)."""
    on_time_out: str = "roll"
    """'roll': the host rolls for them; 'skip': their turn is passed."""
    away_after: float | None = None
    """Seconds a person may be gone before the computer plays their seat (None: never)."""

    def __post_init__(self) -> None:
        if self.on_time_out not in TIME_OUT_ACTIONS:
            raise SnlError(f"a late turn is rolled for or skipped, not {self.on_time_out!r}")
        for value in (self.turn_time, self.away_after):
            if value is not None and not value > 0:
                raise SnlError("a time limit must be more than 0 seconds")


SAVE_EVERY = 5.0
"""Seconds between saves of a room's running clocks: after a ``kill -9`` a resumed turn
has at most this much more than was left."""
MIN_LEFT = 10.0
"""Seconds a clock has at least after a resume (or all of it, when shorter)."""


@dataclass
class SavedClocks:
    """The clocks' seconds left as a room was saved (``RoomClocks.to_json``)."""

    turn: tuple[int, int, int] | None = None
    """(seat, moves, game) of the turn whose clocks were running."""
    turn_left: float | None = None
    idle_left: float | None = None
    away_left: dict[int, float] = field(default_factory=dict)
    """Seat -> seconds left before the computer plays for its absent person."""

    @classmethod
    def from_json(cls, data: Any, seats: int) -> SavedClocks:
        """ValueError when ``data`` (``RoomClocks.to_json``) is damaged."""
        if not isinstance(data, dict):
            raise ValueError("the clocks are damaged")
        turn = data.get("turn")
        if turn is not None and (
            not isinstance(turn, list)
            or len(turn) != 3
            or not all(type(n) is int and n >= 0 for n in turn)
            or turn[0] >= seats
        ):
            raise ValueError("the turn's clock is damaged")
        away = data.get("away", {})
        if not isinstance(away, dict) or not all(
            isinstance(k, str) and k.isdigit() and int(k) < seats for k in away
        ):
            raise ValueError("the away clocks are damaged")
        turn_left, idle_left = data.get("turn_left"), data.get("idle_left")
        for value in (turn_left, idle_left, *away.values()):
            if value is not None and (type(value) not in (int, float) or not value >= 0):
                raise ValueError("a clock's time is damaged")
        return cls(
            None if turn is None else (turn[0], turn[1], turn[2]),
            turn_left,
            idle_left,
            {int(k): float(v) for k, v in away.items() if v is not None},
        )


def _resumed(left: float | None, limit: float) -> float:
    """What a clock of ``limit`` seconds that had ``left`` gets after a resume."""
    if left is None:
        return limit
    return min(limit, max(left, MIN_LEFT))


class ClockedRoom(Protocol):
    """What the clocks need of their room (``net.room.Room``)."""

    session: GameSession
    seats: list[SeatState]
    timers: Timers

    @property
    def status(self) -> str: ...

    def broadcast(self, frame: str) -> None: ...

    def notice(self, code: str, message: str) -> None: ...

    def seats_changed(self) -> None: ...

    def moved(self) -> None: ...

    def save(self) -> None: ...


class RoomClocks:
    """The timers of one room: whose turn it is decides which run."""

    def __init__(self, room: ClockedRoom, cpu_delay: float) -> None:
        self.room = room
        self.cpu_delay = cpu_delay
        """Seconds a computer seat waits before rolling."""
        self.computer_turn: asyncio.TimerHandle | None = None
        self.turn_timer: asyncio.TimerHandle | None = None
        self.armed: tuple[int, int, int] | None = None
        """(seat, moves, game) the turn timer runs for: a seat change elsewhere keeps it."""
        self.deadline: float | None = None
        self.idle_timer: asyncio.TimerHandle | None = None
        self.idle_deadline: float | None = None
        self.away_timers: dict[int, asyncio.TimerHandle] = {}
        self.away_deadlines: dict[int, float] = {}
        self.resumed = SavedClocks()
        """What a resumed room's clocks had left, until each is armed again."""
        self.saving: asyncio.TimerHandle | None = None
        """The next save of the running clocks (every ``SAVE_EVERY`` seconds)."""

    def restore(self, saved: SavedClocks) -> None:
        """A resumed room: its clocks start with what they had left (``MIN_LEFT`` at
        least) when armed again, not with a whole turn."""
        self.resumed = saved

    def to_json(self) -> dict[str, Any]:
        """The seconds each running clock has left (a resumed room's clocks not yet
        armed again: what they had), for ``Room.saved_room``."""
        resumed = self.resumed
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:  # no loop (a room saved before serving): nothing runs
            now = None

        def left(deadline: float | None) -> float | None:
            return None if deadline is None or now is None else round(max(0.0, deadline - now), 1)

        away = {str(i): left(d) for i, d in self.away_deadlines.items()}
        away |= {str(i): v for i, v in resumed.away_left.items() if str(i) not in away}
        if self.armed is not None:
            turn: list[int] | None = list(self.armed)
            turn_left, idle_left = left(self.deadline), left(self.idle_deadline)
        elif resumed.turn is not None:
            turn, turn_left, idle_left = list(resumed.turn), resumed.turn_left, resumed.idle_left
        else:
            turn = turn_left = idle_left = None
        return {"turn": turn, "turn_left": turn_left, "idle_left": idle_left, "away": away}

    def _keep_saving(self) -> None:
        """While a clock runs, save the room every ``SAVE_EVERY`` seconds: a host killed
        meanwhile resumes with (about) the time that was left."""
        if self.saving is not None:
            return
        if self.turn_timer is None and self.idle_timer is None and not self.away_timers:
            return
        loop = asyncio.get_running_loop()
        self.saving = loop.call_later(SAVE_EVERY, self._save_clocks)

    def _save_clocks(self) -> None:
        self.saving = None
        if self.turn_timer is None and self.idle_timer is None and not self.away_timers:
            return
        self.room.save()
        self._keep_saving()

    def computer_plays(self, seat: int) -> bool:
        return (
            self.room.session.driver(seat) is Driver.COMPUTER
            or self.room.seats[seat].played_by_computer
        )

    def next_turn(self) -> None:
        """After anything that may change whose turn it is or who plays it: the computer's
        roll after a pause, or the person's turn timer."""
        self._computer_next()
        self.arm_turn()

    def _computer_next(self) -> None:
        """Let the computer roll after a pause when its seat (or a seat it stands in
        for) is to move."""
        if self.computer_turn is not None or self.room.status != "playing":
            return
        seat = self.room.session.seat_to_move
        if seat is None or not self.computer_plays(seat):
            return
        loop = asyncio.get_running_loop()
        self.computer_turn = loop.call_later(self.cpu_delay, self._computer_moves)

    def _computer_moves(self) -> None:
        self.computer_turn = None
        seat = self.room.session.seat_to_move
        if seat is None or self.room.status != "playing" or not self.computer_plays(seat):
            return
        if len(self.room.session.game.history) >= MAX_HISTORY:
            return  # the longest game a room plays: clients would refuse a longer one
        self.room.session.move_for(seat)
        self.room.moved()

    def arm_turn(self) -> None:
        """A person to move has ``Timers.turn_time`` seconds to roll, from the moment
        their turn began: anything else (a seat taken back, someone joining) leaves
        their clock running. Connected and not rolling for ``Timers.away_after`` counts
        as away too (``_idle_too_long``)."""
        seat = self.room.session.seat_to_move
        playing = self.room.status == "playing" and seat is not None
        armed = None
        if playing and seat is not None and not self.computer_plays(seat):
            armed = (seat, len(self.room.session.game.history), self.room.session.game_index)
        if armed is not None and armed == self.armed:
            return  # the same turn: its clocks go on
        for handle in (self.turn_timer, self.idle_timer):
            if handle is not None:
                handle.cancel()
        self.turn_timer = self.idle_timer = None
        self.armed, self.deadline, self.idle_deadline = armed, None, None
        if armed is not None:
            loop = asyncio.get_running_loop()
            index, moves, _ = armed
            limit, idle = self.room.timers.turn_time, self.room.timers.away_after
            resumed = self.resumed
            if resumed.turn is not None and resumed.turn == armed:
                limit = None if limit is None else _resumed(resumed.turn_left, limit)
                idle = None if idle is None else _resumed(resumed.idle_left, idle)
            if resumed.turn is not None:  # this turn or another: used once
                resumed.turn = resumed.turn_left = resumed.idle_left = None
            if limit is not None:
                self.turn_timer = loop.call_later(limit, self._time_out, index, moves)
                self.deadline = loop.time() + limit
            if idle is not None:
                self.idle_timer = loop.call_later(idle, self._idle_too_long, index, moves)
                self.idle_deadline = loop.time() + idle
            self._keep_saving()
        if self.room.timers.turn_time is not None:
            self.room.broadcast(self.frame())

    def frame(self) -> str:
        """How long the seat to move has left to roll (``timer``)."""
        deadline, armed = self.deadline, self.armed
        if deadline is None or armed is None:
            return encode("timer", seat=None, seconds=None)
        left = max(0, math.ceil(deadline - asyncio.get_running_loop().time()))
        return encode("timer", seat=armed[0], seconds=left)

    def _idle_too_long(self, index: int, moves: int) -> None:
        self.idle_timer = self.idle_deadline = None
        session = self.room.session
        if session.seat_to_move != index or len(session.game.history) != moves:
            return
        seat = self.room.seats[index]
        if self.room.status != "playing" or seat.played_by_computer:
            return
        if seat.connection is None:  # gone meanwhile: coming back, not rolling, undoes it
            self._stand_in(index, "has not rolled for {} and is away", "they come back")
        else:
            self._stand_in(index, "has not rolled for {}", "they roll again")

    def _time_out(self, seat: int, moves: int) -> None:
        self.turn_timer = None
        self.deadline = None
        session = self.room.session
        if session.seat_to_move != seat or len(session.game.history) != moves:
            return  # the turn was played meanwhile
        if self.room.status != "playing" or self.computer_plays(seat):
            return
        name, limit = self.room.seats[seat].name, _seconds(self.room.timers.turn_time)
        if self.room.timers.on_time_out == "skip":
            self.room.notice(
                "timed-out", f"{name} did not roll within {limit}: the turn is skipped."
            )
            session.skip_for(seat)
        else:
            self.room.notice("timed-out", f"{name} did not roll within {limit}: the host rolls.")
            session.move_for(seat)
        self.room.moved()

    def arm_away(self, index: int) -> None:
        limit = self.room.timers.away_after
        seat = self.room.seats[index]
        if limit is None or seat.played_by_computer:
            return
        if index in self.resumed.away_left:  # a resumed room: what their clock had left
            limit = _resumed(self.resumed.away_left.pop(index), limit)
        loop = asyncio.get_running_loop()
        self.away_timers[index] = loop.call_later(limit, self._away_too_long, index)
        self.away_deadlines[index] = loop.time() + limit
        self._keep_saving()

    def _away_too_long(self, index: int) -> None:
        self.away_timers.pop(index, None)
        self.away_deadlines.pop(index, None)
        seat = self.room.seats[index]
        if seat.connection is not None or seat.played_by_computer:
            return
        self._stand_in(index, "has been away {}", "they come back")

    def _stand_in(self, index: int, why: str, until: str) -> None:
        """The computer plays seat ``index`` for its person (``idle``: the room's own
        doing, undone by ``until``), and everyone is told ``why`` (``{}``: the time)."""
        seat = self.room.seats[index]
        seat.standin = seat.idle = True
        self.room.seats_changed()
        limit = _seconds(self.room.timers.away_after)
        self.room.notice(
            "computer",
            f"{seat.name} {why.format(limit)}: the computer plays for them until {until}.",
        )
        self.next_turn()

    def arm_away_timers(self) -> None:
        """Start ``Timers.away_after`` for every person not here (a resumed room, once
        the server runs): the computer plays for them only after that long."""
        for index, seat in enumerate(self.room.seats):
            if seat.taken and seat.connection is None and index not in self.away_timers:
                self.arm_away(index)

    def came_back(self, index: int) -> None:
        """Seat ``index``'s person is here again: no computer for them after all."""
        away = self.away_timers.pop(index, None)
        self.away_deadlines.pop(index, None)
        self.resumed.away_left.pop(index, None)
        if away is not None:
            away.cancel()

    def stop(self) -> None:
        timers = (self.computer_turn, self.turn_timer, self.idle_timer, self.saving)
        for handle in (*timers, *self.away_timers.values()):
            if handle is not None:
                handle.cancel()
        self.computer_turn = self.turn_timer = self.idle_timer = self.saving = None
        self.armed = self.deadline = self.idle_deadline = None
        self.away_timers.clear()
        self.away_deadlines.clear()


def _seconds(value: float | None) -> str:
    seconds = round(value or 0)
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{seconds // 60} minutes"


__all__ = ["MIN_LEFT", "SAVE_EVERY", "ClockedRoom", "RoomClocks", "SavedClocks", "Timers"]
