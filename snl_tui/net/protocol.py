"""The rooms' wire protocol: JSON text frames, each one object with a ``"type"``.

Everything a client sends is untrusted: ``decode_client`` checks a frame against
``CLIENT_MESSAGES`` (the type, every field's type and size, no field besides those,
``MAX_FRAME`` bytes at most) and raises ``ProtocolError`` with a short code and a line for
the person otherwise. The server replies to one bad frame with an ``error`` message and
closes the connection after ``MAX_STRIKES`` of them. The client checks the server's
frames with ``decode_server`` in the same way (they may be larger: a snapshot holds the
whole board).

A session
=========

client -> ``join`` {version, room, name, password?, token?, spectate?} (the first frame)
server -> ``welcome`` {role, seat, token, notice, state, recent?} or ``refused`` {code,
          message} and a close: a wrong room, password or seat token, a name in use
          (``recent``: the room's last notices and chat lines, as frames)
client -> ``roll`` {token}    the seat's own roll; the server draws the die
client -> ``again`` {token}   a new game in the same seats, once the game is over
client -> ``sync`` {}         the whole state again
client -> ``chat`` {text}     one line to everyone (rate- and length-limited; muted: refused)
client -> ``react`` {reaction}  one of ``REACTIONS``, as a chat line
The host's own client (it joined with the room's ``host`` key) may also send:
client -> ``skip`` {seat}     pass the turn of the seat to move (it stays where it is)
client -> ``hand`` {seat, to} ``to`` "computer": the computer plays the seat until its person
          comes back; "person": the person plays it again; "anyone": whoever joins with
          the seat's name next takes it (the old token stops working)
client -> ``kick`` {seat}     remove a person: their connection closes, the seat's token is
          void, and the computer plays the seat to the end of the game
client -> ``mute`` {name, muted}  silence (or not) someone's chat
server -> ``move`` {index, seat, die, status}   every move, to everyone in the room
server -> ``seats`` {status, seats}             someone joined, left or came back
server -> ``game`` {state}                      a new game began
server -> ``state`` {state}                     the answer to ``sync``
server -> ``error`` {code, message}             a refused message; the connection stays
server -> ``notice`` {code, message}            what happened and why (a turn skipped, a
          seat handed to the computer, a timer ran out, a new game begun by someone)
server -> ``chat`` {name, text, reaction}       someone said something (text checked)
server -> ``timer`` {seat, seconds}             the seat to move has this many seconds to
          roll (``--turn-time``); null: no clock runs

A ``state`` is {status, seats, watchers, muted_watchers, session}: the status
(``waiting`` for people, ``playing``, ``over``), the seats ({name, kind, taken,
connected, away, standin, removed, muted}), the watchers' names (and those the host
muted) and the session's ``to_dict()`` without its seeds (``public_session``), from
which the client rebuilds the game with its log (``session_from_public``). ``seats``
carries the watchers (and the muted ones) too. No message carries a die value from a
client: the host rolls every die. A ``move`` whose die is 0 (``engine.PASS``) is a
skipped turn.

The dice are secret until rolled: no frame carries the session's seed, a game's seed or
anything derived from them, so a client (a watcher too) learns each die only from the
``move`` that makes it. The client's copy of the game never draws a die of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import SnlError
from ..core.session import GameSession, game_seed
from ..core.text import escape_controls, quote
from .names import (
    MAX_SHOWN,
    ProtocolError,
    check_chat,
    check_name,
    is_invisible,
    name_key,
    shown_text,
)

PROTOCOL_VERSION = 4
MAX_FRAME = 64 * 1024
"""Bytes in one client frame at most (the server's websocket refuses bigger ones)."""
MAX_SERVER_FRAME = 1024 * 1024
"""Bytes in one server frame at most, as a client accepts it: a snapshot carries the whole
board and every roll, and the largest a room plays (``MAX_ROOM_SQUARES``,
``MAX_HISTORY``) takes a few hundred KB."""
MAX_ROOM_SQUARES = 100 * 100
"""The largest board a room plays (and a client accepts): 100 x 100 squares."""
MAX_HISTORY = 10_000
"""Rolls in one room's game at most: the host stops there, and a client refuses a longer
game (reading one back replays every roll, in a thread: see benchmarks/room_client.py)."""
MAX_STRIKES = 5
"""Bad frames (malformed, unknown, too many at once) before the server closes."""
MAX_NAME = 24
MAX_PASSWORD = 128
MAX_TOKEN = 64
MAX_CHAT = 200
"""Characters in one chat line at most."""
MAX_WATCHERS = 64
MAX_RECENT = 20
"""The last notices and chat lines a room keeps for someone who joins (in ``welcome``)."""
REACTIONS = ("gg", "nice", "ouch", "wow", "hurry")
"""Quick reactions: each is shown as the words in ``REACTION_TEXT``."""
REACTION_TEXT = {
    "gg": "good game!",
    "nice": "nice one!",
    "ouch": "ouch!",
    "wow": "wow!",
    "hurry": "hurry up!",
}
HAND_TO = ("computer", "person", "anyone")
"""Where the host hands a seat: to the computer, back to its person, or over to whoever
joins with its name next (the seat's token stops working: ``Room.hand_over``)."""
TIME_OUT_ACTIONS = ("roll", "skip")
"""What a room does to a turn not rolled in time (``snl host --late``)."""
STATUSES = ("waiting", "playing", "over")
STATE_FIELDS = frozenset({"status", "seats", "watchers", "muted_watchers", "session"})
SEAT_FIELDS = frozenset(
    {"name", "kind", "taken", "connected", "away", "standin", "removed", "muted"}
)
SEAT_KINDS = ("person", "computer")

# Closing codes (RFC 6455): the reason travels with the close frame.
CLOSE_POLICY = 1008
"""A refused join, or too many bad frames."""
CLOSE_GOING_AWAY = 1001
"""The host stopped."""
CLOSE_TRY_LATER = 1013
"""The server is full, or the client read too slowly."""


@dataclass(frozen=True)
class Field:
    """One field of a message: its JSON type, whether it must be there, its size."""

    kind: type | tuple[type, ...]
    required: bool = True
    limit: int | None = None
    """Characters at most for text; for a number, its largest value."""


CLIENT_MESSAGES: dict[str, dict[str, Field]] = {
    "join": {
        "version": Field(int, limit=1_000_000),
        "room": Field(str, limit=16),
        "name": Field(str, limit=MAX_NAME),
        "password": Field(str, required=False, limit=MAX_PASSWORD),
        "token": Field(str, required=False, limit=MAX_TOKEN),
        "spectate": Field(bool, required=False),
        "host": Field(str, required=False, limit=MAX_TOKEN),
    },
    "roll": {"token": Field(str, limit=MAX_TOKEN)},
    "again": {"token": Field(str, limit=MAX_TOKEN)},
    "sync": {},
    "chat": {"text": Field(str, limit=MAX_CHAT)},
    "react": {"reaction": Field(str, limit=16)},
    "skip": {"seat": Field(int, limit=3)},
    "hand": {"seat": Field(int, limit=3), "to": Field(str, limit=16)},
    "kick": {"seat": Field(int, limit=3)},
    "mute": {"name": Field(str, limit=MAX_NAME), "muted": Field(bool)},
}
HOST_MESSAGES = frozenset({"skip", "hand", "kick", "mute"})
"""What only the host's own client may send."""

SERVER_MESSAGES: dict[str, dict[str, Field]] = {
    "welcome": {
        "role": Field(str, limit=16),
        "seat": Field((int, type(None)), limit=100),
        "token": Field((str, type(None)), limit=MAX_TOKEN),
        "notice": Field((str, type(None)), limit=500),
        "room": Field(str, limit=16),
        "state": Field(dict),
        "recent": Field(list, required=False),
    },
    "timer": {
        "seat": Field((int, type(None)), limit=100),
        "seconds": Field((int, type(None)), limit=10**6),
    },
    "refused": {"code": Field(str, limit=40), "message": Field(str, limit=500)},
    "move": {
        "index": Field(int, limit=10**9),
        "seat": Field(int, limit=100),
        "die": Field(int, limit=1000),
        "status": Field(str, limit=16),
    },
    "seats": {
        "status": Field(str, limit=16),
        "seats": Field(list),
        "watchers": Field(list),
        "muted_watchers": Field(list),
    },
    "game": {"state": Field(dict)},
    "state": {"state": Field(dict)},
    "error": {"code": Field(str, limit=40), "message": Field(str, limit=500)},
    "notice": {"code": Field(str, limit=40), "message": Field(str, limit=500)},
    "chat": {
        "name": Field(str, limit=MAX_NAME * 2),
        "text": Field(str, limit=MAX_CHAT),
        "reaction": Field(bool),
    },
}


def encode(message_type: str, **fields: Any) -> str:
    """One frame: ``{"type": message_type, **fields}`` as compact JSON."""
    return json.dumps({"type": message_type, **fields}, separators=(",", ":"), allow_nan=False)


def decode_client(frame: str | bytes) -> dict[str, Any]:
    """A client's frame checked against ``CLIENT_MESSAGES``; ProtocolError otherwise."""
    return _decode(frame, CLIENT_MESSAGES, MAX_FRAME)


def decode_server(frame: str | bytes) -> dict[str, Any]:
    """A server's frame checked against ``SERVER_MESSAGES`` (the state inside is checked
    by ``read_state``)."""
    return _decode(frame, SERVER_MESSAGES, MAX_SERVER_FRAME)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _decode(
    frame: str | bytes, messages: dict[str, dict[str, Field]], limit: int
) -> dict[str, Any]:
    if isinstance(frame, bytes):
        raise ProtocolError("malformed", "binary frames are not part of the protocol")
    if len(frame) > limit:  # characters: a cheap upper bound's check before parsing
        raise ProtocolError("too-big", f"a frame is {limit} bytes at most")
    if len(frame.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError("too-big", f"a frame is {limit} bytes at most")
    try:
        message = json.loads(frame, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a frame must be one JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", "a frame must be one JSON object")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", 'a message needs a "type"')
    spec = messages.get(kind)
    if spec is None:
        raise ProtocolError("unknown-type", f"unknown message type {_short(kind)}")
    for name in message:
        if name != "type" and name not in spec:
            raise ProtocolError("malformed", f"{kind}: unexpected field {_short(name)}")
    for name, field in spec.items():
        if name not in message:
            if field.required:
                raise ProtocolError("malformed", f"{kind}: missing field {name!r}")
            continue
        _check(kind, name, message[name], field)
    return message


def _check(kind: str, name: str, value: Any, field: Field) -> None:
    kinds = field.kind if isinstance(field.kind, tuple) else (field.kind,)
    # bool is an int to Python, not to the protocol.
    if type(value) not in kinds:
        raise ProtocolError("malformed", f"{kind}: field {name!r} has the wrong type")
    if field.limit is None:
        return
    if isinstance(value, str) and len(value) > field.limit:
        raise ProtocolError(
            "malformed", f"{kind}: field {name!r} is too long ({field.limit} characters at most)"
        )
    if type(value) is int and not 0 <= value <= field.limit:
        raise ProtocolError("malformed", f"{kind}: field {name!r} is out of range")


def _short(text: str) -> str:
    return quote(text, 30)


@dataclass(frozen=True)
class SeatInfo:
    """A seat as everyone in the room sees it (never its token)."""

    name: str
    kind: str
    """'person' or 'computer'."""
    taken: bool
    """A person sits there (always true for a computer)."""
    connected: bool
    """Its person is connected now (always true for a computer)."""
    away: int | None = None
    """Seconds since its person left, while they are away."""
    standin: bool = False
    """The computer plays this person's seat (handed over, or away too long)."""
    removed: bool = False
    """The host removed its person: the computer plays it to the end of the game."""
    muted: bool = False
    """The host silenced its person's chat (the host's menu offers to undo it)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "taken": self.taken,
            "connected": self.connected,
            "away": self.away,
            "standin": self.standin,
            "removed": self.removed,
            "muted": self.muted,
        }


@dataclass(frozen=True)
class RoomState:
    """What a ``state`` holds: the room's status, its seats and the game."""

    status: str
    seats: tuple[SeatInfo, ...]
    session: GameSession
    watchers: tuple[str, ...] = ()
    muted_watchers: tuple[str, ...] = ()
    """The watchers the host muted (a seat says so itself: ``SeatInfo.muted``)."""


def read_seats(items: Any) -> tuple[SeatInfo, ...]:
    """The ``seats`` of a message, checked; ProtocolError otherwise."""
    if not isinstance(items, list) or not 1 <= len(items) <= 4:
        raise ProtocolError("bad-state", "seats must be a list of 1 to 4 seats")
    seats = []
    for item in items:
        if not isinstance(item, dict) or set(item) != SEAT_FIELDS:
            raise ProtocolError("bad-state", f"a seat must have {', '.join(sorted(SEAT_FIELDS))}")
        name, kind = item["name"], item["kind"]
        if (
            not isinstance(name, str)
            or not name
            or len(name) > MAX_NAME * 2
            or kind not in SEAT_KINDS
        ):
            raise ProtocolError("bad-state", "a seat has a bad name or kind")
        flags = (item["taken"], item["connected"], item["standin"], item["removed"], item["muted"])
        if any(type(flag) is not bool for flag in flags):
            raise ProtocolError("bad-state", "a seat's flags must be true or false")
        away = item["away"]
        if away is not None and (type(away) is not int or not 0 <= away <= 10**9):
            raise ProtocolError("bad-state", "a seat's time away must be a whole number")
        # A host's names reach the screen: escaped like every text from outside.
        seats.append(
            SeatInfo(
                escape_controls(name),
                kind,
                item["taken"],
                item["connected"],
                away,
                standin=item["standin"],
                removed=item["removed"],
                muted=item["muted"],
            )
        )
    return tuple(seats)


def read_watchers(items: Any) -> tuple[str, ...]:
    """The watchers' names of a message, checked; ProtocolError otherwise."""
    if not isinstance(items, list) or len(items) > MAX_WATCHERS:
        raise ProtocolError("bad-state", f"watchers must be a list of {MAX_WATCHERS} names at most")
    if any(not isinstance(name, str) or not name or len(name) > MAX_NAME * 2 for name in items):
        raise ProtocolError("bad-state", "a watcher has a bad name")
    return tuple(escape_controls(name) for name in items)


def read_recent(items: Any) -> list[dict[str, Any]]:
    """A welcome's ``recent`` lines: ``notice`` and ``chat`` frames, each checked as if
    it came on its own; ProtocolError otherwise."""
    if not isinstance(items, list) or len(items) > MAX_RECENT:
        raise ProtocolError("bad-state", f"recent lines must be a list of {MAX_RECENT} at most")
    recent = []
    for item in items:
        if not isinstance(item, str):
            raise ProtocolError("bad-state", "a recent line must be a frame")
        message = decode_server(item)
        if message["type"] not in ("notice", "chat"):
            raise ProtocolError("bad-state", "a recent line is a notice or a chat line")
        recent.append(message)
    return recent


def read_server_frame(frame: str | bytes) -> dict[str, Any]:
    """A server's frame decoded and checked whole, the slow part of a client's work (run
    it off the screen's thread): its ``state`` is read into a ``RoomState`` and its
    ``seats`` into ``SeatInfo``s; ProtocolError otherwise."""
    message = decode_server(frame)
    if "state" in message:
        message["state"] = read_state(message["state"])
    if message["type"] == "welcome":
        message["recent"] = read_recent(message.get("recent", []))
    if message["type"] == "seats":
        message["seats"] = read_seats(message["seats"])
        message["watchers"] = read_watchers(message["watchers"])
        message["muted_watchers"] = read_watchers(message["muted_watchers"])
    return message


def read_state(data: Any) -> RoomState:
    """A ``state`` object, checked, with the session rebuilt; ProtocolError otherwise."""
    if not isinstance(data, dict) or set(data) != STATE_FIELDS:
        raise ProtocolError(
            "bad-state", "a state must have a status, seats, watchers, muted watchers and session"
        )
    if data["status"] not in STATUSES:
        raise ProtocolError("bad-state", "unknown room status")
    seats = read_seats(data["seats"])
    watchers = read_watchers(data["watchers"])
    muted_watchers = read_watchers(data["muted_watchers"])
    try:
        session = session_from_public(data["session"])
    except SnlError as error:
        raise ProtocolError("bad-state", f"the game cannot be read: {error}") from None
    if len(session.game.players) != len(seats):
        raise ProtocolError("bad-state", "the seats do not match the game's players")
    return RoomState(data["status"], seats, session, watchers, muted_watchers)


def state_json(
    status: str,
    seats: Any,
    session: GameSession,
    watchers: Sequence[str] = (),
    muted_watchers: Sequence[str] = (),
) -> dict[str, Any]:
    """The ``state`` of a room, as ``read_state`` reads it back."""
    return {
        "status": status,
        "seats": [seat.to_json() for seat in seats],
        "watchers": list(watchers),
        "muted_watchers": list(muted_watchers),
        "session": public_session(session),
    }


SECRET_SESSION_FIELDS = ("seed", "base_seed")
"""What ``GameSession.to_dict`` holds that tells the dice ahead: never sent."""
SECRET_GAME_FIELDS = ("seed",)


def public_session(session: GameSession) -> dict[str, Any]:
    """The session as a client may know it: ``to_dict()`` without the seeds (the session's,
    the settings' and the game's), so nobody can replay the dice to come."""
    data = session.to_dict()
    for name in SECRET_SESSION_FIELDS:
        del data[name]
    data["game"] = {k: v for k, v in data["game"].items() if k not in SECRET_GAME_FIELDS}
    return data


_CLIENT_SEED = 0
"""The seed of a client's copy of the game: it never draws a die (the host sends each
one), so the seed only keeps ``GameSession.from_dict``'s consistency check."""


def _check_size(data: dict[str, Any]) -> None:
    """Refuse what is bigger than a room plays before anything is built of it."""
    board, rolls = data.get("board"), data["game"].get("rolls")
    if not isinstance(board, dict):
        raise SnlError("saved session: no board")
    rows, cols = board.get("rows"), board.get("cols")
    if type(rows) is not int or type(cols) is not int or not 0 < rows * cols <= MAX_ROOM_SQUARES:
        raise SnlError(f"the board is larger than a room plays ({MAX_ROOM_SQUARES} squares)")
    if isinstance(board.get("jumps"), list) and len(board["jumps"]) > rows * cols:
        raise SnlError("the board has more jumps than squares")
    if isinstance(rolls, list) and len(rolls) > MAX_HISTORY:
        raise SnlError(f"the game is longer than a room plays ({MAX_HISTORY} rolls)")


def session_from_public(data: Any) -> GameSession:
    """A ``public_session`` read back on the client; SnlError when it is malformed. Seeds
    the host put in anyway are ignored (the client's dice are the host's moves)."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise SnlError("not a saved session")
    _check_size(data)
    index = data.get("game_index")
    if type(index) is not int or not 0 <= index < 2**63:
        raise SnlError("saved session: the game's number must be a whole number")
    seeds = {"seed": None, "base_seed": _CLIENT_SEED}
    game = {**data["game"], "seed": game_seed(_CLIENT_SEED, index)}
    return GameSession.from_dict({**data, **seeds, "game": game})


__all__ = [
    "CLIENT_MESSAGES",
    "CLOSE_GOING_AWAY",
    "CLOSE_POLICY",
    "CLOSE_TRY_LATER",
    "HAND_TO",
    "HOST_MESSAGES",
    "MAX_CHAT",
    "MAX_FRAME",
    "MAX_HISTORY",
    "MAX_NAME",
    "MAX_RECENT",
    "MAX_ROOM_SQUARES",
    "MAX_SERVER_FRAME",
    "MAX_SHOWN",
    "MAX_STRIKES",
    "PROTOCOL_VERSION",
    "REACTIONS",
    "REACTION_TEXT",
    "SERVER_MESSAGES",
    "TIME_OUT_ACTIONS",
    "ProtocolError",
    "RoomState",
    "SeatInfo",
    "check_chat",
    "check_name",
    "decode_client",
    "decode_server",
    "encode",
    "is_invisible",
    "name_key",
    "public_session",
    "read_seats",
    "read_server_frame",
    "read_state",
    "read_watchers",
    "session_from_public",
    "shown_text",
    "state_json",
]
