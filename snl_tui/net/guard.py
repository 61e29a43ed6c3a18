"""The room server's door: which websockets may open, and how fast an address may guess.

``door_refusal`` is asked before a websocket handshake completes. A browser always sends
an ``Origin`` header, and a web page on any site can open a socket to a loopback port:
so a foreign Origin is refused (a terminal client sends none; origins the host allows, a
page of its own, are let in). On a loopback listen the ``Host`` header must name
loopback too, as ``snl serve`` checks it: a page whose name was re-pointed at 127.0.0.1
("DNS rebinding") is refused as well.

``PasswordGuard`` counts wrong passwords per address: a few tries are free, then each
try must wait twice as long as the last, then the address is locked out for a while;
a right password clears its count. The refusals say so in words (``refusal``). A room
counts its wrong passwords too (``room_guard``), so that many addresses guessing together
are slowed down as one. The room keeps its password as a salted hash (``Secret``).

A browser door (``snl serve --room``, started by ``snl host --web``) reaches the room from
this machine for every visitor: its tabs' ``snl join`` processes and the websockets it
passes through all come from 127.0.0.1. So that one visitor cannot use up the
per-address caps (and the password guard) for everyone joining by browser, the door
names each visitor's own address in a header (``VISITOR_HEADER``), beside the room's
door key (``DOOR_KEY_HEADER``): a secret the host made for its door and gave it in the
environment (``DOOR_KEY_ENV``), never on a command line. ``counted_address`` believes
the visitor only with the right key *and* from a loopback peer; anything else counts as
the peer's own address, so a remote client cannot claim another address.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..core.text import plural

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""Listening addresses that only this machine reaches."""


def host_names(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` headers a server listening on ``host``:``port`` answers to: the
    loopback names for a loopback listen; None (any name) for another address, which the
    network reaches by names we cannot know."""
    if host not in LOOPBACK:
        return None
    names = ("127.0.0.1", "localhost", "[::1]")
    with_port = {f"{name}:{port}" for name in names}
    return frozenset(with_port | (set(names) if port == 80 else set()))


def door_refusal(
    origin: str | None, host: str | None, hosts: frozenset[str] | None, origins: Iterable[str]
) -> str | None:
    """Why a websocket with these ``Origin`` and ``Host`` headers is refused, or None when
    it may open. No Origin: a program, not a web page, and welcome. ``origins``: pages
    allowed besides (``scheme://host:port``, lower case)."""
    if hosts is not None and (host or "").strip().lower() not in hosts:
        return "this room answers to its loopback address only"
    if origin is not None and origin.strip().lower() not in origins:
        return "web pages from other sites cannot join a room"
    return None


DOOR_KEY_ENV = "SNL_DOOR_KEY"
"""The environment variable that hands the room's door key to its browser door (and the
door's ``snl join`` processes inherit it)."""
VISITOR_ENV = "SNL_DOOR_VISITOR"
"""The environment variable in which the browser door tells a tab's ``snl join`` whose
tab it is (the visitor's address)."""
PASSWORD_ENV = "SNL_ROOM_PASSWORD"
"""The environment variable through which the host hands the room's password to its
browser door, and the door a tab's typed password to its ``snl join``: a command line
is readable by every user of the machine (``ps``), an environment only by its owner."""
DOOR_KEY_HEADER = "X-Snl-Door-Key"
VISITOR_HEADER = "X-Snl-Visitor"


@dataclass(frozen=True)
class DoorPass:
    """What a browser door's connection to the room says about its visitor."""

    key: str
    visitor: str

    def headers(self) -> dict[str, str]:
        return {DOOR_KEY_HEADER: self.key, VISITOR_HEADER: self.visitor}

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> DoorPass | None:
        """The pass a door gave this process (``snl join`` in a browser tab), if any."""
        key, visitor = environ.get(DOOR_KEY_ENV), environ.get(VISITOR_ENV)
        if not key or not visitor:
            return None
        return cls(key, visitor)


def new_door_key() -> str:
    """A room's door key: 256 random bits."""
    return secrets.token_urlsafe(32)


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def counted_address(peer: str, key: str | None, visitor: str | None, door_key: str | None) -> str:
    """The address a connection from ``peer`` counts as, for the per-address caps and the
    password guard: the ``visitor`` its headers name when it comes from this machine with
    the room's ``door_key`` (``key``), else ``peer`` itself (see the module)."""
    if door_key is None or key is None or visitor is None or not is_loopback(peer):
        return peer
    if not hmac.compare_digest(key.encode("utf-8", "replace"), door_key.encode("utf-8")):
        return peer
    try:
        return str(ipaddress.ip_address(visitor.strip()))
    except ValueError:
        return peer


@dataclass
class _Tries:
    wrong: int
    last: float


@dataclass
class PasswordGuard:
    """Wrong passwords per address: slowed down, then locked out (see the module)."""

    free_tries: int = 3
    """Wrong passwords an address may send without waiting (a person mistypes)."""
    first_wait: float = 1.0
    """Seconds to wait after the free tries; each further wrong one doubles it..."""
    lock_after: int = 10
    """...and this many wrong ones lock the address out..."""
    lockout: float = 300.0
    """...for this many seconds (also how long a quiet address's count is kept)."""
    most_wait: float = math.inf
    """The longest wait between two tries (a room's own count: slow, never locked)."""
    who: str = "your address"
    """Whose tries are counted, in the refusals' words."""
    clock: Callable[[], float] = time.monotonic
    most_addresses: int = 10_000
    """Addresses remembered at most (the oldest counts are forgotten first)."""
    _tries: dict[str, _Tries] = field(default_factory=dict, repr=False)

    def refusal(self, address: str) -> str | None:
        """Why ``address`` may not try a password now (in words), or None when it may."""
        tries = self._current(address)
        if tries is None or tries.wrong < self.free_tries:
            return None
        now = self.clock()
        if tries.wrong >= self.lock_after:
            left = tries.last + self.lockout - now
            return f"too many wrong passwords from {self.who}: locked out for {_seconds(left)} more"
        wait = min(self.most_wait, self.first_wait * 2.0 ** min(tries.wrong - self.free_tries, 60))
        left = tries.last + wait - now
        if left > 0:
            return f"too many wrong passwords from {self.who}: try again in {_seconds(left)}"
        return None

    def failed(self, address: str) -> None:
        """``address`` sent a wrong password."""
        tries = self._current(address)
        now = self.clock()
        if tries is None:
            if len(self._tries) >= self.most_addresses:
                del self._tries[next(iter(self._tries))]
            self._tries[address] = _Tries(1, now)
        else:
            tries.wrong, tries.last = tries.wrong + 1, now

    def succeeded(self, address: str) -> None:
        """``address`` sent the right password: its count starts again."""
        self._tries.pop(address, None)

    def _current(self, address: str) -> _Tries | None:
        tries = self._tries.get(address)
        if tries is not None and self.clock() - tries.last >= self.lockout:
            del self._tries[address]
            return None
        return tries


def room_guard(clock: Callable[[], float] = time.monotonic) -> PasswordGuard:
    """The count of wrong passwords for a whole room, whatever the addresses they come
    from (many addresses guessing together): a few free, then one try every
    ``most_wait`` seconds at most, never locked (the room's friends still get in)."""
    return PasswordGuard(
        free_tries=20,
        first_wait=1.0,
        most_wait=30.0,
        lock_after=2**31,
        lockout=3600.0,
        who="everyone",
        clock=clock,
    )


@dataclass(frozen=True)
class Secret:
    """A room's password as the room keeps and saves it: a salted hash, never the text."""

    salt: str
    digest: str

    ITERATIONS = 20_000

    @classmethod
    def of(cls, password: str) -> Secret:
        salt = secrets.token_hex(16)
        return cls(salt, cls._hash(salt, password))

    @classmethod
    def _hash(cls, salt: str, password: str) -> str:
        data = password.encode("utf-8", "surrogatepass")
        return hashlib.pbkdf2_hmac("sha256", data, bytes.fromhex(salt), cls.ITERATIONS).hex()

    def matches(self, given: str) -> bool:
        return hmac.compare_digest(self._hash(self.salt, given), self.digest)

    def to_json(self) -> dict[str, str]:
        return {"salt": self.salt, "sha256": self.digest}

    @classmethod
    def from_json(cls, data: object) -> Secret:
        """ValueError when ``data`` is not what ``to_json`` wrote."""
        if not isinstance(data, dict) or set(data) != {"salt", "sha256"}:
            raise ValueError("the password's hash is damaged")
        salt, digest = data["salt"], data["sha256"]
        if not (isinstance(salt, str) and isinstance(digest, str)) or len(digest) != 64:
            raise ValueError("the password's hash is damaged")
        try:
            bytes.fromhex(salt + digest)
        except ValueError:
            raise ValueError("the password's hash is damaged") from None
        return cls(salt, digest)


def _seconds(seconds: float) -> str:
    return plural(max(1, math.ceil(seconds)), "second")


__all__ = [
    "DOOR_KEY_ENV",
    "LOOPBACK",
    "PASSWORD_ENV",
    "VISITOR_ENV",
    "DoorPass",
    "PasswordGuard",
    "Secret",
    "counted_address",
    "door_refusal",
    "host_names",
    "new_door_key",
    "room_guard",
]
