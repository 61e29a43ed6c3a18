"""Who is in a room: one ``Connection`` per client (its websocket, its own send queue,
its rate limits) and one ``SeatState`` per seat, as the host knows it (the hash of its
token, never the token). ``net.room`` seats the one in the other.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .limits import Limits, peer_address
from .protocol import CLOSE_POLICY, SeatInfo


class JoinedRoom(Protocol):
    """What the server asks of the room a connection sits in (``net.room.Room``)."""

    def roll(self, connection: Connection, token: str) -> None: ...

    def again(self, connection: Connection, token: str) -> None: ...

    def state(self) -> dict[str, Any]: ...

    def chat(self, connection: Connection, text: str, *, reaction: bool = False) -> None: ...

    def host_action(self, connection: Connection, message: dict[str, Any]) -> None: ...

    def leave(self, connection: Connection, quit: bool = False) -> None: ...


def token_hash(token: str) -> str:
    """What a room keeps (and saves) of a seat token: never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# -- one connection -------------------------------------------------------------------------


_CLOSE = object()
"""The sender's last item: close the websocket after what is queued before it."""


class Connection:
    """One client: its websocket, its own send queue and where it sits."""

    def __init__(
        self, websocket: ServerConnection, limits: Limits, address: str | None = None
    ) -> None:
        self.websocket = websocket
        self.limits = limits
        self.queue: asyncio.Queue[object] = asyncio.Queue(limits.send_queue + 1)
        self.room: JoinedRoom | None = None
        self.seat: int | None = None
        self.name = ""
        self.is_host = False
        """Joined with the room's host key: may skip, hand over, remove and mute."""
        self.strikes = 0
        self.muted = False
        """The host silenced this connection's chat (it stays so under any name)."""
        self.closing = False
        self.address = peer_address(websocket) if address is None else address
        """Where the connection counts as coming from (a browser door's visitor)."""
        self._allowance = float(limits.burst)
        self._checked = time.monotonic()
        self._chat_allowance = float(limits.chat_burst)
        self._chat_checked = self._checked
        self._close: tuple[int, str] = (CLOSE_POLICY, "")

    def send(self, frame: str) -> None:
        """Queue one frame; a reader too far behind is dropped (never waited for)."""
        if self.closing:
            return
        if self.queue.qsize() >= self.limits.send_queue:
            self.abort()
            return
        self.queue.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (a refusal is read before the close)."""
        if self.closing:
            return
        self.closing = True
        self._close = (code, reason)
        self.queue.put_nowait(_CLOSE)

    def abort(self) -> None:
        """Drop the connection now (a slow or stuck reader)."""
        self.closing = True
        self.websocket.transport.abort()

    def allowed(self) -> bool:
        """One more message under the rate limit (a token bucket)."""
        now = time.monotonic()
        self._allowance = min(
            float(self.limits.burst), self._allowance + (now - self._checked) * self.limits.rate
        )
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def may_chat(self) -> bool:
        """One more chat line under the chat limit (its own, slower token bucket)."""
        now = time.monotonic()
        limits = self.limits
        self._chat_allowance = min(
            float(limits.chat_burst),
            self._chat_allowance + (now - self._chat_checked) * limits.chat_rate,
        )
        self._chat_checked = now
        if self._chat_allowance < 1:
            return False
        self._chat_allowance -= 1
        return True

    async def run_sender(self) -> None:
        """Send the queued frames in order, each within the send timeout."""
        websocket = self.websocket
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    code, reason = self._close
                    await websocket.close(code, reason)
                    return
                assert isinstance(item, str)
                async with asyncio.timeout(self.limits.send_timeout):
                    await websocket.send(item)
        except TimeoutError:
            self.abort()
        except ConnectionClosed:
            self.closing = True


# -- seats --------------------------------------------------------------------------------


@dataclass
class SeatState:
    """A seat as the host knows it, token hash included."""

    name: str
    computer: bool
    taken: bool
    token_sha256: str | None = None
    connection: Connection | None = field(default=None, repr=False)
    standin: bool = False
    """The computer plays this person's seat (the host handed it over, or they have been
    away longer than ``Timers.away_after``) until they come back."""
    removed: bool = False
    """The host removed its person: the computer plays it to the end of the game."""
    free_since: float | None = None
    """When its person's connection went (the server's clock); None while connected. In
    a resumed room: the resume (the wait before the seat may be taken by name, ``Room
    .keep_seat``, counts from there, whatever time away was saved)."""
    away_before: float = 0.0
    """Seconds its person had been away when a resumed room was saved: the time away
    everyone sees adds them (``info``), the wait for the seat by name does not."""
    muted: bool = False
    """The host silenced this seat's chat: under any name, with its token."""
    idle: bool = False
    """The room itself (not the host) handed this seat to the computer: its person was
    away, or here but not rolling, for ``Timers.away_after``. Coming back (or rolling)
    takes it back; a resumed room starts without it (everyone is away from then on)."""

    def info(self, now: float) -> SeatInfo:
        kind = "computer" if self.computer else "person"
        connected = self.computer or self.connection is not None
        seconds = self.away_for(now)
        away = None if connected or not self.taken or seconds is None else int(seconds)
        return SeatInfo(
            self.name,
            kind,
            self.taken or self.computer,
            connected,
            away,
            standin=self.standin,
            removed=self.removed,
            muted=self.muted,
        )

    def away_for(self, now: float) -> float | None:
        """Seconds its person has been away (a resumed room: the time saved plus the
        time since the resume), or None while they are here."""
        if self.connection is not None or self.free_since is None:
            return None
        return self.away_before + max(0.0, now - self.free_since)

    @property
    def played_by_computer(self) -> bool:
        return self.computer or self.standin or self.removed


__all__ = ["Connection", "JoinedRoom", "SeatState", "token_hash"]
