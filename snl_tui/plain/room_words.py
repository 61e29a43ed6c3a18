"""A room's changes in plain words (``snl join --screen-reader``, ``plain.room``): who
took a seat, left it or came back, how long a seat has been away, and a room's code
spelled for a speech synthesizer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.text import plural
from . import words

if TYPE_CHECKING:
    from ..net.protocol import SeatInfo


def spelled_code(code: str) -> str:
    """A room's code for a speech synthesizer, letter by letter: "code 5 3 3 8 K G"
    ("5338KG" is read as a number, then "kg")."""
    return "code " + " ".join(code)


def away_for(seconds: float) -> str:
    """How long a seat has been away, in words: '45 seconds', '3 minutes 5 seconds'."""
    whole = max(0, round(seconds))
    minutes, rest = divmod(whole, 60)
    if minutes < 2:
        return plural(whole, "second")
    return plural(minutes, "minute") + (f" {plural(rest, 'second')}" if rest else "")


def seat_changes(
    before: tuple[SeatInfo, ...], after: tuple[SeatInfo, ...], away: set[int]
) -> list[str]:
    """What changed between two lists of seats, in words: who took a seat, who left, who
    came back (``away``: the seats said to be away, kept up to
    date here, so a seat taken a moment before its connection counts is not "back").
    Seats of the computer say nothing (they never come and go)."""
    lines = []
    for index, seat in enumerate(after):
        old = before[index] if index < len(before) else None
        who = words.plain_name(seat.name, index)
        if seat.kind == "computer":
            away.discard(index)
            if old is not None and old.kind != "computer":
                lines.append(f"{who}'s seat is now played by the computer.")
            continue
        if seat.removed or (old is not None and old.removed):
            continue  # the host removed its person: the room's notice says so
        if old is not None and old.kind == "computer":
            lines.append(f"{who} plays seat {index + 1} again, in person.")
        elif seat.taken and (old is None or not old.taken):
            lines.append(f"{who} took seat {index + 1}.")
        elif not seat.taken and old is not None and old.taken:
            away.discard(index)
            lines.append(f"{words.plain_name(old.name, index)} left seat {index + 1}; it is free.")
        elif seat.taken and old is not None and old.connected and not seat.connected:
            away.add(index)  # the room's notice says whether they quit or lost the connection
        elif seat.taken and seat.connected and index in away:
            away.discard(index)
            if not old or not old.standin:  # else the room's notice says they are back
                lines.append(f"{who} is back.")
    return lines


__all__ = ["away_for", "seat_changes", "spelled_code"]
