"""``snl serve``'s guards (SPEC 9, see ``serve.py``'s docstring): whose pages may play,
the sizes a page may ask for, what a tab may send, and the log without queries.
``serve.py`` imports every name here, so they stay importable from there."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from ..core.text import parse_whole

LOOPBACK = ("127.0.0.1", "localhost", "::1")

FULL_CLOSE_CODE = 1013
"""The websocket close code for "try again later": the page shows its "full" message."""

WIDTH_RANGE = (20, 400)
HEIGHT_RANGE = (10, 200)
"""Terminal sizes a page may ask for (cells). 400x200 is a 4K screen at the page's smallest
font; a game process at that size stays near 60 MB (10000x5000 took it past 400 MB)."""
MEMORY_LIMIT_MB = 1024
"""Each game process's data limit: several times what a game needs (about 60 MB at the
largest size), so one process can never take the machine down."""
MAX_MESSAGE_BYTES = 64 * 1024
"""The largest websocket message a tab may send; a larger one closes its socket (and
ends its game). The page sends keystrokes, sizes and pings: a few bytes each."""
MAX_INPUT_BYTES = 4096
"""The most keystrokes (bytes) one message may carry to the game (a paste); more is
dropped whole: a megabyte of keys left a game process at 1 GB, stuck on its pipe."""
INPUT_BYTES_PER_SECOND = 8192
"""What a tab may send per second, on average (typing, mouse moves and resizes use a
few hundred bytes); beyond it, messages are dropped."""
INPUT_BURST_BYTES = 16384
"""What a tab may send at once before ``INPUT_BYTES_PER_SECOND`` applies."""
MESSAGE_COST = 64
"""What each message costs from the budget at least (a flood of empty messages too)."""
QUIT_GRACE = 5.0
"""Seconds a game is given to quit after its tab has gone before it is killed."""
STDIN_TIMEOUT = 10.0
"""Seconds a game may leave its input unread before it counts as stuck and is ended."""


class HideQueries(logging.Filter):
    """The access log without query strings: a tab's websocket carries the name, the
    typed password and the tab's secret in its query (``/ws?...``), none of which may
    reach a log."""

    QUERY = re.compile(r"\?[^\s\"]*")

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.QUERY.sub("?...", record.getMessage())
        record.args = None
        return True


def clamp(value: object, bounds: tuple[int, int], default: int) -> int:
    """A size from the page as a whole number within ``bounds`` (``default`` when it is
    not a whole number at all)."""
    number = value if type(value) is int else parse_whole(str(value))
    if number is None:
        return default
    low, high = bounds
    return max(low, min(high, number))


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` in lower case, or None when it has none."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def host_names(host: str, port: int) -> set[str]:
    """The Host headers this server answers to when it listens on ``host``: loopback
    listens answer to the loopback names only (so a re-pointed name is refused); another
    address answers to any name (the network reaches it by names we cannot know)."""
    if host not in LOOPBACK:
        return set()
    names = {"127.0.0.1", "localhost", "[::1]"}
    return {f"{name}:{port}" for name in names} | (names if port == 80 else set())


def allowed(origin: str | None, host: str, hosts: set[str], extra: Iterable[str]) -> bool:
    """Whether a websocket from page ``origin`` to Host ``host`` is let in: the page's
    own origin (same host and port as the request, on a name this server answers to), or
    an origin given with ``--allow-origin``. No Origin header (not a browser) is refused
    too: every browser sends one, and the game has no other client."""
    if origin is None:
        return False
    origin = origin.strip().lower()
    if origin in extra:
        return True
    host = host.lower()
    if hosts and host not in hosts:
        return False
    return origin in (f"http://{host}", f"https://{host}")


class InputBudget:
    """What one tab may send per second: a bucket of ``burst`` bytes, refilled at
    ``per_second``. Every message costs at least ``MESSAGE_COST`` bytes, so a flood of
    tiny messages is bounded too. ``take`` says whether a message fits (it is then
    spent); one that does not is dropped, never queued."""

    def __init__(
        self,
        per_second: float = INPUT_BYTES_PER_SECOND,
        burst: float = INPUT_BURST_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.left = burst
        self.last = clock()

    def take(self, size: int) -> bool:
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.last) * self.per_second)
        self.last = now
        cost = max(size, MESSAGE_COST)
        if cost > self.left:
            return False
        self.left -= cost
        return True


PROCESS_ATTRIBUTE = "_process"
"""Where textual-serve's ``AppService`` keeps its game's process: it offers no public
accessor, and serve must wait for that process to exit (a slot is counted until then)
and kill one that will not quit. ``app_process`` is the one place this private name is
used; tests/unit/test_serve_bounds.py checks it against the installed textual-serve."""


class LibraryChanged(RuntimeError):
    """An installed library no longer works the way snl relies on."""


def app_process(service: object) -> asyncio.subprocess.Process:
    """The process of a started textual-serve ``AppService``; LibraryChanged, saying
    what to look at, when textual-serve keeps it elsewhere."""
    process = getattr(service, PROCESS_ATTRIBUTE, None)
    if not isinstance(process, asyncio.subprocess.Process):
        raise LibraryChanged(
            f"textual-serve's AppService keeps no process at .{PROCESS_ATTRIBUTE} "
            f"(found {type(process).__name__}): snl serve cannot watch its games; "
            "see snl_tui/cli/serve_guards.py, app_process"
        )
    return process
