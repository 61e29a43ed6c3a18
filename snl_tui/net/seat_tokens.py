"""Seat tokens kept on disk, so a player comes straight back to their own seat.

A room hands each seated player a secret token (a new one every time they sit). ``snl
join`` keeps the last one for each room and name in the player's data folder
(``seats.json`` beside the saved games, mode 0600: a token is a seat's key), so a client
restarted after a crash, a quit by mistake or a browser tab reloaded (the browser door
keys its tabs' tokens by a secret the tab keeps: ``SEAT_KEY_ENV``) takes the same seat
back at once, without waiting for ``snl host --keep-seat``.

Reading never fails (a missing, damaged or oversized file is no tokens); writing is
atomic (a temporary file in the same folder, flushed, then renamed) and a failure to
write only means the next join is by name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from .address import RoomAddress
from .protocol import MAX_TOKEN, name_key

FILE_NAME = "seats.json"
MAX_BYTES = 64 * 1024
MOST_ROOMS = 64
"""Tokens kept at most (the oldest are forgotten first)."""
SEAT_KEY_ENV = "SNL_SEAT_KEY"
"""The browser door tells a tab's ``snl join`` the tab's own secret (kept in the tab's
storage) in this environment variable: its token is kept under that secret's hash."""
DOOR_SAID_ENV = "SNL_DOOR_SAID"
"""The file a tab's ``snl join`` writes the line it failed with (the room's refusal): the
door closes the tab's socket with it, and the page says it, not only "ended"."""


def tokens_path() -> Path:
    from ..core.store.data_dir import default_dir

    return default_dir() / FILE_NAME


def seat_key(address: RoomAddress, name: str, tab: str | None = None) -> str:
    """Where one seat's token is kept: the room, the name (``name_key``), and a browser
    tab's secret (hashed) when it is a tab's."""
    key = f"{address.host}:{address.port}/{address.code}|{name_key(name)}"
    if tab:
        key += "|" + hashlib.sha256(tab.encode("utf-8", "replace")).hexdigest()[:32]
    return key


class SeatTokens:
    """The tokens file: ``{key: {"token": ..., "at": seconds}}``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else tokens_path()

    def _read(self) -> dict[str, dict[str, object]]:
        try:
            with self.path.open("rb") as file:
                data = json.loads(file.read(MAX_BYTES + 1)[:MAX_BYTES])
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            key: value
            for key, value in data.items()
            if isinstance(key, str) and isinstance(value, dict)
        }

    def get(self, key: str) -> str | None:
        """The token kept under ``key``, if any."""
        token = self._read().get(key, {}).get("token")
        if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN:
            return token
        return None

    def put(self, key: str, token: str | None) -> None:
        """Keep ``token`` under ``key`` (None: forget it). Never raises."""
        data = self._read()
        if token is None:
            if data.pop(key, None) is None:
                return
        else:
            data[key] = {"token": token, "at": int(time.time())}
            if len(data) > MOST_ROOMS:
                oldest = sorted(data, key=lambda k: _when(data[k]))
                for old in oldest[: len(data) - MOST_ROOMS]:
                    del data[old]
        with contextlib.suppress(OSError):
            self._write(json.dumps(data, sort_keys=True))

    def _write(self, text: str) -> None:
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        # mkstemp makes the file 0600: a token is the key to a seat.
        handle, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


def _when(entry: dict[str, object]) -> int:
    at = entry.get("at")
    return at if isinstance(at, int) else 0


__all__ = ["DOOR_SAID_ENV", "SEAT_KEY_ENV", "SeatTokens", "seat_key", "tokens_path"]
