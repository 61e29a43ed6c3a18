"""The host's powers in a room: from the host's own client, skip the turn of the seat to
move, hand a seat to the computer (and back, or to whoever joins under its name), remove a
person (the computer plays their seat to the end; their token is void) and mute someone's
chat (their name, their seat's token and a watcher's address). Every one is a ``notice``
to everyone, saying what happened.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..core.seats import TurnError
from ..core.session import GameSession
from ..core.text import quote
from .limits import error
from .people import Connection, SeatState
from .protocol import CLOSE_POLICY, HAND_TO, encode, name_key
from .room_clocks import RoomClocks


class PoweredRoom(Protocol):
    """What the host's powers need of their room (``net.room.Room``)."""

    session: GameSession
    seats: list[SeatState]
    clocks: RoomClocks
    muted: set[str]
    muted_addresses: set[str]

    @property
    def status(self) -> str: ...

    def connections(self) -> list[Connection]: ...

    def notice(self, code: str, message: str) -> None: ...

    def seats_changed(self) -> None: ...

    def moved(self) -> None: ...

    def save(self) -> None: ...

    def hand_over(self, index: int) -> None: ...

    def strike(self, connection: Connection, code: str, message: str) -> None: ...


class HostPowers:
    """The host's orders to one room, each checked."""

    def __init__(self, room: PoweredRoom) -> None:
        self.room = room

    def act(self, connection: Connection, message: dict[str, Any]) -> None:
        """``skip``, ``hand``, ``kick`` or ``mute`` from the host's client (checked)."""
        kind = message["type"]
        if not connection.is_host:
            self.room.strike(connection, "host-only", f"Only the host can {kind}.")
            return
        if kind == "mute":
            self._mute(connection, message["name"], message["muted"])
            return
        index = message["seat"]
        if index >= len(self.room.seats):
            connection.send(error("no-seat", f"There is no seat {index + 1}."))
            return
        seat = self.room.seats[index]
        if seat.computer:
            connection.send(error("computer-seat", f"{seat.name} is the computer's seat."))
            return
        if kind == "skip":
            self._skip(connection, index)
        elif kind == "hand":
            self._hand(connection, index, message["to"])
        else:
            self._kick(connection, index)

    def _skip(self, connection: Connection, index: int) -> None:
        seat = self.room.seats[index]
        if self.room.status != "playing":
            connection.send(error("not-playing", "There is no turn to skip now."))
            return
        try:
            self.room.session.skip_for(index)
        except TurnError as refused:
            connection.send(error("not-their-turn", str(refused)))
            return
        why = "is away" if seat.connection is None else "was taking too long"
        self.room.notice("skipped", f"The host skipped {seat.name}'s turn ({seat.name} {why}).")
        self.room.moved()

    def _hand(self, connection: Connection, index: int, to: str) -> None:
        seat = self.room.seats[index]
        if to not in HAND_TO:
            connection.send(error("bad-hand", "A seat goes to the computer, its person or anyone."))
            return
        if seat.removed:
            connection.send(error("removed", f"{seat.name} was removed from this game."))
            return
        if not seat.taken:
            connection.send(error("free-seat", f"Nobody has taken {seat.name}'s seat yet."))
            return
        if to == "anyone":
            if seat.connection is connection:
                connection.send(error("own-seat", "The host keeps their own seat."))
                return
            self.room.hand_over(index)
            self.room.notice(
                "handed-over",
                f"The host handed {seat.name}'s seat over: whoever joins as {seat.name} takes it.",
            )
            return
        if (to == "computer") == seat.standin:
            already = "plays" if seat.standin else "does not play"
            connection.send(error("no-change", f"The computer {already} {seat.name}'s seat."))
            return
        seat.standin, seat.idle = to == "computer", False  # the host's own decision
        self.room.seats_changed()
        self.room.save()  # --resume keeps the host's decision
        if seat.standin:
            self.room.notice("computer", f"The host handed {seat.name}'s seat to the computer.")
        elif seat.connection is None:
            self.room.notice("person", f"{seat.name}'s seat waits for {seat.name} again.")
            self.room.clocks.arm_away(index)
        else:
            self.room.notice("person", f"{seat.name} plays their own seat again.")
        self.room.clocks.next_turn()

    def _kick(self, connection: Connection, index: int) -> None:
        seat = self.room.seats[index]
        if seat.removed:
            connection.send(error("removed", f"{seat.name} was removed already."))
            return
        if seat.connection is connection:
            connection.send(error("own-seat", "The host cannot remove their own seat."))
            return
        gone = seat.connection
        seat.removed, seat.standin, seat.taken = True, True, True
        seat.token_sha256, seat.connection, seat.free_since = None, None, None
        seat.away_before = 0.0
        if gone is not None:
            gone.seat, gone.room = None, None
            gone.send(encode("refused", code="removed", message="the host removed you"))
            gone.close(CLOSE_POLICY, "the host removed you from the game")
        self.room.seats_changed()
        self.room.save()  # their token is void after a --resume too
        self.room.notice(
            "removed", f"The host removed {seat.name}: the computer plays the seat to the end."
        )
        self.room.clocks.next_turn()

    def _mute(self, connection: Connection, name: str, muted: bool) -> None:
        """Silence (or not) a person: their name, their seat (its token, whatever name
        they come back under) and their connections (a watcher's address too)."""
        key = name_key(name)
        seats = [s for s in self.room.seats if not s.computer and name_key(s.name) == key]
        people = [c for c in self.room.connections() if name_key(c.name) == key]
        if not seats and not people:
            connection.send(error("no-one", f"Nobody is called {quote(name)} here."))
            return
        for seat in seats:
            seat.muted = muted
        for person in people:
            person.muted = muted
            if person.seat is None:
                (self.room.muted_addresses.add if muted else self.room.muted_addresses.discard)(
                    person.address
                )
        shown = seats[0].name if seats else people[0].name
        self.room.seats_changed()  # every screen (the host's menu) shows who is muted
        if muted:
            self.room.muted.add(key)
            self.room.notice("muted", f"The host muted {shown}.")
        else:
            self.room.muted.discard(key)
            self.room.notice("unmuted", f"The host let {shown} chat again.")
        self.room.save()

    def is_muted(self, connection: Connection) -> bool:
        if connection.muted or name_key(connection.name) in self.room.muted:
            return True
        index = connection.seat
        return index is not None and self.room.seats[index].muted


__all__ = ["HostPowers", "PoweredRoom"]
