"""What one connection may cost the room server, and how a join is refused.

``Limits`` bounds every connection (rates, queues, timeouts); ``Refusal`` is a join
refused (sent as ``refused``, then the connection closes); ``error`` is the reply to one
bad message (the connection stays).
"""

from __future__ import annotations

from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection

from ..core.errors import SnlError
from .protocol import MAX_ROOM_SQUARES, encode


@dataclass(frozen=True)
class Limits:
    """What one connection may cost the server."""

    max_connections: int = 512
    per_address: int = 16
    """Connections one address may hold at once: far below ``max_connections`` and
    ``spectators_per_room``, so one peer cannot fill the server or a room's slots (and
    enough for a household behind one router, or ``snl serve --room``'s tabs)."""
    spectators_per_room: int = 32
    rate: float = 20.0
    """Messages per second a connection may send, on average (a person's client sends
    one roll per turn: far less)..."""
    burst: int = 40
    """...and at once."""
    chat_rate: float = 0.5
    """Chat lines and reactions per second, on average..."""
    chat_burst: int = 5
    """...and at once: more is refused (and counts as a bad message)."""
    send_queue: int = 256
    """Messages waiting for a slow reader before it is dropped."""
    send_timeout: float = 10.0
    """Seconds one message may take to leave before the reader is dropped."""
    join_timeout: float = 10.0
    open_timeout: float = 5.0
    ping_interval: float | None = 10.0
    ping_timeout: float | None = 10.0
    close_timeout: float = 2.0


class Refusal(Exception):
    """A join refused: sent as ``refused`` and the connection is closed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def peer_address(websocket: ServerConnection) -> str:
    """The address a connection comes from (its IP, without the port)."""
    remote = getattr(websocket, "remote_address", None)  # None once the socket is gone
    if isinstance(remote, tuple) and remote:
        return str(remote[0])
    return str(remote)


def error(code: str, message: str) -> str:
    return encode("error", code=code, message=message)


def check_board_size(rows: int, cols: int) -> None:
    if rows * cols > MAX_ROOM_SQUARES:
        raise SnlError(
            f"a room plays boards of up to {MAX_ROOM_SQUARES} squares (100 x 100), "
            f"not {rows} x {cols}"
        )


__all__ = ["Limits", "Refusal", "check_board_size", "error", "peer_address"]
