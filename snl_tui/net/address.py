"""Where a room is: ``HOST:PORT/CODE`` as ``snl host`` prints it, or the browser door's
``http(s)://HOST:PORT/join/CODE`` link (``RoomAddress``, ``parse_address``), and the
room codes themselves (their alphabet, length, and the form the server keys them by)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import SnlError
from ..core.text import quote

WEB_ROOM_PATH = "/room"
"""Where the browser door (``snl serve --room``) passes a room's websocket through."""
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Room codes: no 0/O or 1/I/L to misread when someone reads one out."""
CODE_LENGTH = 6
DEFAULT_PORT = 8765


def normal_code(code: str) -> str:
    """A room code as the server keys it (case does not matter when typed)."""
    return code.strip().upper()


@dataclass(frozen=True)
class RoomAddress:
    """``HOST:PORT/CODE``: where a room is and which one; or, for a room behind its
    browser door, the door's ``http(s)://HOST:PORT/join/CODE`` link (``web``)."""

    host: str
    port: int
    code: str
    web: bool = False
    """Through the browser door (its websocket at ``WEB_ROOM_PATH``), not the room's own port."""
    secure: bool = False
    """``https``/``wss``: behind a TLS proxy or tunnel."""

    def __str__(self) -> str:
        if self.web:
            return self.link
        return f"{self._host}:{self.port}/{self.code}"

    @property
    def _host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def link(self) -> str:
        """The browser door's page for this room (what a browser opens)."""
        scheme = "https" if self.secure else "http"
        default = 443 if self.secure else 80
        port = "" if self.port == default else f":{self.port}"
        return f"{scheme}://{self._host}{port}/join/{self.code}"

    @property
    def uri(self) -> str:
        scheme = "wss" if self.secure else "ws"
        path = WEB_ROOM_PATH if self.web else "/"
        return f"{scheme}://{self._host}:{self.port}{path}"


_ADDRESS = re.compile(
    r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[A-Za-z0-9.-]+)):(?P<port>\d{1,5})/(?P<code>[A-Za-z0-9]{1,16})$"
)


_LINK = re.compile(
    r"^(?P<scheme>https?)://(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[A-Za-z0-9.-]+))"
    r"(?::(?P<port>\d{1,5}))?/join/(?P<code>[A-Za-z0-9]{1,16})/?$"
)


def parse_address(text: str) -> RoomAddress:
    """'127.0.0.1:8765/K7Q2MX' (or the browser door's 'http://host:8000/join/K7Q2MX')
    -> RoomAddress; SnlError with an example otherwise."""
    link = _LINK.match(text.strip())
    if link is not None:
        secure = link["scheme"] == "https"
        port = int(link["port"]) if link["port"] else (443 if secure else 80)
        if 0 < port < 65536:
            host = link["v6"] or link["host"]
            return RoomAddress(host, port, normal_code(link["code"]), web=True, secure=secure)
    match = _ADDRESS.match(text.strip())
    port = int(match["port"]) if match else 0
    if match is None or not 0 < port < 65536:
        raise SnlError(
            f"not a room address: {quote(text, 30)} (like 127.0.0.1:{DEFAULT_PORT}/K7Q2MX or "
            "http://example.org:8000/join/K7Q2MX, as snl host printed it)"
        )
    return RoomAddress(match["v6"] or match["host"], port, normal_code(match["code"]))


__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DEFAULT_PORT",
    "WEB_ROOM_PATH",
    "RoomAddress",
    "normal_code",
    "parse_address",
]
