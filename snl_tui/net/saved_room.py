"""A saved room read back for ``snl host --resume``: its code, seats, host and options.

``Room.saved_room`` writes them beside the session's data in the store; anything damaged
is one ``SnlError`` saying so, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import SnlError
from ..core.session import GameSession
from .address import normal_code
from .guard import Secret
from .limits import check_board_size
from .people import SeatState
from .protocol import read_recent
from .room import GIVEN_AWAY_KEPT, KEEP_SEAT
from .room_clocks import SavedClocks, Timers

if TYPE_CHECKING:
    from ..core.store.games import SavedGame


@dataclass(frozen=True)
class SavedOptions:
    """A saved room's options (``Room.saved_room``), as ``--resume`` restores them."""

    password: Secret | None = None
    timers: Timers = field(default_factory=Timers)
    keep_seat: float = KEEP_SEAT
    muted: tuple[str, ...] = ()
    muted_addresses: tuple[str, ...] = ()
    """Where muted watchers came from: from there they come back muted."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The host's own options (``--web``, ``--web-port``...): ``Room.options``."""


OWN_OPTIONS = frozenset(
    {"password", "turn_time", "late", "away_after", "keep_seat", "muted", "muted_addresses"}
)


def saved_options(room: Any) -> SavedOptions:
    """The options saved with a room (none for a room saved before they were);
    SnlError when they are damaged."""
    options = room.get("options")
    if options is None:
        return SavedOptions()
    if not isinstance(options, dict):
        raise SnlError("its options are damaged")
    try:
        password = options.get("password")
        secret = None if password is None else Secret.from_json(password)
        turn_time, away_after = options.get("turn_time"), options.get("away_after")
        late, keep_seat = options.get("late", "roll"), options.get("keep_seat", KEEP_SEAT)
        for value in (turn_time, away_after, keep_seat):
            if value is not None and (type(value) not in (int, float) or not value >= 0):
                raise ValueError("a time is damaged")
        if not isinstance(late, str) or keep_seat is None:
            raise ValueError("a time is damaged")
        muted = options.get("muted", [])
        if not isinstance(muted, list) or not all(isinstance(name, str) for name in muted):
            raise ValueError("the muted names are damaged")
        addresses = options.get("muted_addresses", [])
        if not isinstance(addresses, list) or not all(isinstance(a, str) for a in addresses):
            raise ValueError("the muted addresses are damaged")
        timers = Timers(turn_time, late, away_after)
    except ValueError as problem:
        raise SnlError(f"its options are damaged ({problem})") from None
    extra = {k: v for k, v in options.items() if k not in OWN_OPTIONS}
    return SavedOptions(secret, timers, float(keep_seat), tuple(muted), tuple(addresses), extra)


def _flag(value: object) -> bool:
    if type(value) is not bool:
        raise SnlError("a seat's 'taken' must be true or false")
    return value


def _away(seat: Any) -> float:
    """The seconds a seat's person had been away when the room was saved (0: here, or
    saved before rooms kept it)."""
    value = seat.get("away")
    if value is None:
        return 0.0
    if type(value) not in (int, float) or not 0 <= value < 10**8:
        raise SnlError("a seat's time away is damaged")
    return float(value)


def _digest(seat: Any) -> str | None:
    value = seat.get("token_sha256")
    if value is not None and (not isinstance(value, str) or len(value) != 64):
        raise SnlError("a seat's token hash is damaged")
    return value


@dataclass(frozen=True)
class SavedRoom:
    """What ``--resume`` reopens: the room's code, game, seats, host and options."""

    code: str
    session: GameSession
    seats: list[SeatState]
    host_name: str | None
    options: SavedOptions
    recent: tuple[str, ...] = ()
    """The room's last notices and chat lines (frames): a newcomer hears them still."""
    clocks: SavedClocks = field(default_factory=SavedClocks)
    """The seconds each clock had left (``RoomClocks.to_json``)."""
    given_away: dict[str, str] = field(default_factory=dict)
    """Token hashes that no longer hold a seat -> what their holder is told."""


def _given_away(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and len(k) == 64 and isinstance(v, str) for k, v in value.items()
    ):
        raise SnlError("the seats given away are damaged")
    return dict(list(value.items())[-GIVEN_AWAY_KEPT:])


def read_saved_room(saved: SavedGame) -> SavedRoom:
    """The room saved with game ``saved``; SnlError (one line) when it is not a room's
    game, was abandoned, or is damaged. A room whose game was won reopens on the won
    game, as its people left it: ``n`` plays another in the same seats."""
    room: Any = saved.data.get("room")
    if saved.status != "playing" and (saved.status != "won" or room is None):
        raise SnlError(f"game {saved.id} is {saved.status_text}: 'snl replay {saved.id}' shows it")
    try:
        code = normal_code(room["code"])
        stored = room["seats"]
        session = GameSession.from_dict(saved.data)
        check_board_size(session.board.rows, session.board.cols)
        players = session.settings.players
        if session.mode != "classic" or len(stored) != len(players):
            raise SnlError("its seats do not match its players")
        seats = [
            SeatState(
                p.name,
                p.computer,
                _flag(s["taken"]) or p.computer,
                _digest(s),
                standin=_flag(s.get("standin", False)),
                removed=_flag(s.get("removed", False)),
                muted=_flag(s.get("muted", False)),
                idle=_flag(s.get("idle", False)),
                away_before=_away(s),
            )
            for p, s in zip(players, stored, strict=True)
        ]
        options = saved_options(room)
        host_name = room.get("host")
        if host_name is not None and not isinstance(host_name, str):
            raise SnlError("the host's name is damaged")
        recent = room.get("recent", [])
        read_recent(recent)  # each one a notice or a chat line, checked as if sent
        clocks = SavedClocks.from_json(room.get("clocks", {}), len(seats))
        given_away = _given_away(room.get("given_away", {}))
    except (TypeError, KeyError, AttributeError) as problem:
        raise SnlError(
            f"game {saved.id} is not a room's game ('snl resume {saved.id}' continues it)"
            if room is None
            else f"game {saved.id}: the room cannot be read back ({problem})"
        ) from None
    except (SnlError, ValueError) as problem:
        raise SnlError(f"game {saved.id}: the room cannot be read back ({problem})") from None
    return SavedRoom(code, session, seats, host_name, options, tuple(recent), clocks, given_away)


__all__ = ["SavedOptions", "SavedRoom", "read_saved_room", "saved_options"]
