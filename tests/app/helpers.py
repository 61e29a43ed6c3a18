"""Helpers shared by the Pilot tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.screens.game import GameScreen

SIZE = (120, 40)


def game_screen(app: SnlApp) -> GameScreen:
    return app.game_screen


async def settle(pilot: Pilot, rounds: int = 3) -> None:
    """Let posted messages and call_later callbacks run."""
    for _ in range(rounds):
        await pilot.pause()


async def wait_until(pilot: Pilot, condition: Callable[[], bool], limit: int = 2000) -> None:
    """Pause until ``condition()`` holds (each pause lets one more move through)."""
    for _ in range(limit):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("condition never held")


async def soon(condition: Callable[[], bool], limit: int = 10_000) -> None:
    """Wait until ``condition()`` holds, looking every 2 ms: for what a thread worker
    hands back. (``pilot.pause`` waits for the process to go idle: at least 20 ms, and
    up to a second while another worker computes.)"""
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("condition never held")


async def computed(pilot: Pilot, rounds: int = 20) -> None:
    """Wait for the screen's thread workers (solver, hint odds, game report) and for
    what they hand back to the UI thread to show; a worker cancelled by a newer one
    (``exclusive``) is simply done. Bounded: a worker that never ends fails the test."""
    for _ in range(rounds):
        running = [w for w in pilot.app.workers if not w.is_finished]
        if not running:
            await settle(pilot)
            if not any(not w.is_finished for w in pilot.app.workers):
                return
            continue
        for worker in running:
            # Replaced by a newer worker, or failing the app (and so the test).
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await worker.wait()
        await settle(pilot)
    raise AssertionError("the workers never finished")


async def started(pilot: Pilot) -> GameScreen:
    """Wait until the game is on screen and the solver has answered for its board."""
    screen = game_screen(pilot.app)  # type: ignore[arg-type]
    await wait_until(pilot, lambda: screen.ready)
    return screen


def cpu(name: str = "CPU") -> Player:
    return Player(name, computer=True)


def record_notes(app: SnlApp) -> list[str]:
    """The messages of every notification ``app`` shows from now on (screens' and
    widgets' ``notify`` go through the app's): public API, no private list."""
    seen: list[str] = []
    notify = app.notify

    def recording(message: str, **options: object) -> None:
        seen.append(str(message))
        notify(message, **options)  # type: ignore[arg-type]

    app.notify = recording  # type: ignore[method-assign]
    return seen
