"""Which saved games a running snl is playing right now (SPEC 8: two snl processes at once
both work, so neither may take the other's game).

A process playing a saved game holds an exclusive lock on one small file for it,
``<store>-live/<id>``, for as long as it plays it. Another process finds the lock taken
and neither offers nor resumes that game. The operating system drops the lock when the
process ends however it ends (``kill -9``, a crash, a closed terminal), so there is no
heartbeat to wait out and nothing stale to clean: a game is offered again the moment its
player has gone.

Locks are ``flock`` locks (POSIX): they belong to the open file, so a second open of the
same file in the same process conflicts too; the holder is therefore remembered here and
never asks itself. A lock file is removed by its holder on release, and a taker checks that
the file it locked is still the one at that path (else it was removed meanwhile, and it
tries again). Where there is no ``flock`` (Windows), or the folder cannot be written, games
are not locked and behave as before: nothing is refused.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

ATTEMPTS = 20
"""Tries to take a lock that another process only looks at (``live_elsewhere`` takes it
shared for a moment) or has just released."""
RETRY_PAUSE = 0.005
"""Seconds between those tries."""


class LiveGames:
    """The locks of one store's games: ``folder`` holds one file per game being played."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._held: dict[int, int] = {}
        """Game id -> the open file whose lock this process holds."""

    def hold(self, game_id: int) -> bool:
        """Take game ``game_id`` for this process: False when another process plays it.
        True when it was already ours, or when locks cannot be used here."""
        if game_id in self._held or fcntl is None:
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return True  # nowhere to keep locks (a read-only data folder): as before
        path = self._path(game_id)
        for _ in range(ATTEMPTS):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
            except OSError:
                return True
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if self._held_by_other(path):
                    return False
                time.sleep(RETRY_PAUSE)  # only looked at, or released meanwhile: again
                continue
            except OSError:
                os.close(fd)
                return True  # a file system without locks: as before
            if not _same_file(fd, path):  # removed by its last holder meanwhile
                os.close(fd)
                continue
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            self._held[game_id] = fd
            return True
        return False

    def release(self, game_id: int | None) -> None:
        """Let game ``game_id`` go (finished, abandoned, or no longer on screen)."""
        if game_id is None or game_id not in self._held:
            return
        fd = self._held.pop(game_id)
        with contextlib.suppress(OSError):
            self._path(game_id).unlink()  # while still locked: a taker sees it is gone
        os.close(fd)

    def release_all(self) -> None:
        for game_id in list(self._held):
            self.release(game_id)

    def holds(self, game_id: int) -> bool:
        """Whether this process holds game ``game_id``."""
        return game_id in self._held

    def live_elsewhere(self, game_id: int) -> bool:
        """Whether another running process plays game ``game_id``."""
        if game_id in self._held or fcntl is None:
            return False
        return self._held_by_other(self._path(game_id))

    def _held_by_other(self, path: Path) -> bool:
        assert fcntl is not None
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return False  # no lock file: nobody plays it
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        finally:
            os.close(fd)  # drops the shared lock, if it was taken
        return False

    def _path(self, game_id: int) -> Path:
        return self.folder / str(int(game_id))


def _same_file(fd: int, path: Path) -> bool:
    try:
        opened, current = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (opened.st_dev, opened.st_ino) == (current.st_dev, current.st_ino)


__all__ = ["LiveGames"]
