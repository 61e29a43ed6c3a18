"""``snl serve``'s games: one tab's input relayed to its game process, bounded (the
guards of ``serve.py``'s docstring), and the game ended when its tab goes. A mixin of
``SnlServer``; imported only once textual-serve (and so aiohttp) is known to be there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from .serve_guards import HEIGHT_RANGE, MAX_INPUT_BYTES, WIDTH_RANGE, InputBudget, clamp

CLOSE_ENDED = 1000
"""A tab's game ended because its player left: the page says so and offers the seat back."""
CLOSE_DOOR_STOPS = 1001
"""The door stops (its host stopped): the page waits for the room and reconnects."""
CLOSE_FAILED = 4000
"""The tab's game ended with an error (the room refused it): the page says so."""
REASON_BYTES = 120
"""Bytes of a failed game's line its tab's socket closes with (``_close_reason``)."""

log = logging.getLogger("snl.serve")


class GameRelay:
    """``SnlServer``'s tabs' games: how each one's socket closes, its input relayed, the
    game ended. The attributes are ``SnlServer``'s (and textual-serve's ``Server``'s)."""

    stopping: bool
    input_budget: tuple[int, int]
    stdin_timeout: float
    quit_grace: float
    download_manager: Any

    def _close_code(self, process: Any) -> int:
        """How a tab's socket closes: the door stops (come back), the game ended
        (its player left) or failed (a refusal: the page says the game ended)."""
        if self.stopping:
            return CLOSE_DOOR_STOPS
        returncode = None if process is None else process.returncode
        return CLOSE_FAILED if returncode not in (None, 0) else CLOSE_ENDED

    def _close_reason(self, process: Any, said: Path | None) -> bytes:
        """Why a room tab's game failed, in its own words (what it wrote to ``said``:
        the room's refusal, "Di is already playing in this room: choose another name"),
        for the page to say; empty otherwise. At most ``REASON_BYTES`` (a close frame's
        reason is 123 bytes at most), cut between two characters."""
        if said is None or self._close_code(process) != CLOSE_FAILED:
            return b""
        try:
            with said.open("rb") as file:
                line = file.readline(4 * REASON_BYTES)
        except OSError:
            return b""
        text = " ".join(line.decode("utf-8", "replace").split())
        cut = text.encode("utf-8")[:REASON_BYTES]
        return cut.decode("utf-8", "ignore").encode("utf-8")

    async def _close_when_done(
        self, process: Any, websocket: web.WebSocketResponse, said: Path | None = None
    ) -> None:
        await process.wait()
        await websocket.close(
            code=self._close_code(process), message=self._close_reason(process, said)
        )

    async def relay(self, websocket: web.WebSocketResponse, service: Any) -> None:
        """The tab's messages to the game, bounded: a message larger than
        ``MAX_MESSAGE_BYTES`` closes the socket (aiohttp, code 1009); keystrokes
        beyond ``MAX_INPUT_BYTES`` in one message, or beyond the tab's
        ``InputBudget``, are dropped; sizes are clamped; a game that takes no input
        for ``stdin_timeout`` seconds is stuck, and ended."""
        budget = InputBudget(*self.input_budget)
        async for message in websocket:
            if message.type != WSMsgType.TEXT or not budget.take(len(message.data)):
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            try:
                if kind == "stdin" and isinstance(data, str):
                    keys = data.encode("utf-8", errors="replace")
                    if len(keys) <= MAX_INPUT_BYTES:
                        await asyncio.wait_for(service.send_bytes(keys), self.stdin_timeout)
                elif kind == "resize" and isinstance(data, dict):
                    size = (
                        clamp(data.get("width"), WIDTH_RANGE, 80),
                        clamp(data.get("height"), HEIGHT_RANGE, 24),
                    )
                    await asyncio.wait_for(service.set_terminal_size(*size), self.stdin_timeout)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind in ("blur", "focus"):
                    await asyncio.wait_for(getattr(service, kind)(), self.stdin_timeout)
            except TimeoutError:
                log.warning("snl serve: a game left its input unread: ending it")
                return
            except ConnectionError:
                return

    async def end_game(self, service: Any, process: Any) -> None:
        """Ask the game to quit, give it ``quit_grace`` seconds, then kill it; return
        once it has exited."""
        try:
            await self.download_manager.cancel_app_downloads(app_service_id=service.app_service_id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(service.send_meta({"type": "quit"}), self.quit_grace)
            try:
                await asyncio.wait_for(process.wait(), self.quit_grace)
            except TimeoutError:
                log.warning("snl serve: a game did not quit with its tab: killing it")
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
            with contextlib.suppress(Exception):
                # Its output reader ends at the end of the pipe.
                await asyncio.wait_for(service.stop(), self.quit_grace)
        finally:
            if process.returncode is None:  # cancelled (the server stops): still end it
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
