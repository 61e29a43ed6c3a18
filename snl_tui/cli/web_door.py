"""``snl host --web``: the room's browser door (``snl serve --room``) in a process of its
own, started and stopped with the room, and the addresses it is told and says."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
from collections import deque
from typing import TYPE_CHECKING

from ..core.errors import SnlError
from ..core.text import safe_line

if TYPE_CHECKING:
    from ..net.address import RoomAddress

DOOR_LINES_KEPT = 50
"""The browser door's last log lines ``WebDoor`` keeps (it reads them all)."""
WEB_START_TIMEOUT = 20.0
"""Seconds the browser door (``snl serve --room``) may take to say its link."""
ANY_ADDRESS = ("0.0.0.0", "::", "")


def shown_host(host: str) -> str:
    """The address others type: this machine's name when listening on every address."""
    return socket.gethostname() if host in ANY_ADDRESS else host


def local_host(host: str) -> str:
    """Where this machine reaches its own room."""
    if host in ANY_ADDRESS:
        return "127.0.0.1"
    return host


def web_available() -> None:
    import importlib.util

    if importlib.util.find_spec("textual_serve") is None:
        raise SnlError("--web needs textual-serve: pip install 'snl-tui[web]'")


class WebDoor:
    """``snl serve --room`` for this room, in a process of its own (textual-serve runs
    its own event loop), stopped with the room."""

    def __init__(self, process: asyncio.subprocess.Process, link: str) -> None:
        self.process = process
        self.link = link
        self.said: deque[str] = deque(maxlen=DOOR_LINES_KEPT)
        """The door's last lines (its access log, its warnings): kept for a look, and
        read as they come, so that the door never blocks on a full pipe (it stopped
        answering after about 1200 requests when nobody read its log)."""
        self._readers = [
            asyncio.ensure_future(self._read(stream))
            for stream in (process.stdout, process.stderr)
            if stream is not None
        ]

    async def _read(self, stream: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError, ValueError):
            async for line in stream:
                self.said.append(line.decode("utf-8", "replace").rstrip())

    @classmethod
    async def open(
        cls, args: argparse.Namespace, address: RoomAddress, code: str, door_key: str | None
    ) -> WebDoor:
        """Start the door; ``door_key`` (the room server's) goes in its environment,
        never on its command line, which every user of the machine can read."""
        from ..net.address import RoomAddress
        from ..net.guard import DOOR_KEY_ENV, PASSWORD_ENV

        local = RoomAddress(local_host(args.host), address.port, code)
        words = [sys.executable, "-m", "snl_tui", "serve", "--room", str(local)]
        words += ["--host", args.host, "--port", str(args.web_port), "--quiet"]
        if args.no_animation:
            words.append("--no-animation")
        for origin in args.allow_origin:
            words += ["--allow-origin", origin]
        environment = dict(os.environ)
        environment.pop(PASSWORD_ENV, None)
        if door_key is not None:
            environment[DOOR_KEY_ENV] = door_key
        if getattr(args, "room_has_password", args.password is not None):
            # The door only asks each tab for the password (the room checks it): it is
            # told that there is one, never the password (a resumed room has its hash).
            environment[PASSWORD_ENV] = ""
        process = await asyncio.create_subprocess_exec(
            *words,
            env=environment,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert process.stdout is not None
        try:
            async with asyncio.timeout(WEB_START_TIMEOUT):
                line = (await process.stdout.readline()).decode("utf-8", "replace").strip()
        except TimeoutError:
            line = ""
        if not line.startswith("http"):
            problem = ""
            if process.returncode is not None or not line:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                assert process.stderr is not None
                problem = (await process.stderr.read()).decode("utf-8", "replace").strip()
            raise SnlError(f"--web: the browser door did not start: {safe_line(problem or line)}")
        host = shown_host(args.host)
        return cls(process, line.replace(f"//{local_host(args.host)}:", f"//{host}:", 1))

    async def close(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.terminate()
            try:
                async with asyncio.timeout(5):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self._readers:  # they end at the end of the pipes: a moment after the exit
            await asyncio.wait(self._readers, timeout=2)
        for reader in self._readers:
            reader.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)


__all__ = ["ANY_ADDRESS", "WebDoor", "local_host", "shown_host", "web_available"]
