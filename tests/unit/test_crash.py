"""A crash in the game (issue 10, item 6): non-zero exit, a short note on stderr naming
the file that holds the traceback, and the game in progress still offered for resume.

The crash is injected by the test alone: the hint key's action is replaced by one that
raises, and ``SnlApp.run`` runs headless with a pilot that plays a move, then presses it.
The CLI's real path (``main(["play", ...])``) does the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.cli.main import main
from snl_tui.core.store.games import open_store
from snl_tui.core.store.saving import last_resumable
from snl_tui.screens.game import GameScreen


class InjectedCrash(RuntimeError):
    """Raised by the test's hint action: the crash under test."""


def crash(self: GameScreen) -> None:
    raise InjectedCrash("test crash in the hint action")


async def wait_for(pilot: Pilot[Any], condition: Any, limit: int = 2000) -> None:
    for _ in range(limit):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("condition never held")


def headless(monkeypatch: pytest.MonkeyPatch, moves: int) -> dict[str, Any]:
    """``SnlApp.run`` runs headless: ``moves`` human rolls, each saved, then ``h``."""
    original = SnlApp.run
    seen: dict[str, Any] = {}

    async def play_then_crash(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SnlApp)
        screen = app.game_screen
        await wait_for(pilot, lambda: screen.ready)
        for _ in range(moves):
            await wait_for(pilot, lambda: screen.can_move() and screen.session.human_to_move)
            await pilot.press("r")
        await wait_for(pilot, lambda: len(screen.game.history) >= moves and not screen.busy)
        seen["rolls"] = list(screen.game.rolls)
        await pilot.press("h")

    def run(self: SnlApp, **options: Any) -> Any:
        self.game_screen.computer_delay = 0
        return original(self, headless=True, size=(120, 40), auto_pilot=play_then_crash)

    monkeypatch.setattr(SnlApp, "run", run)
    monkeypatch.setattr(GameScreen, "action_toggle_hint", crash)
    return seen


def test_a_crash_exits_non_zero_with_a_short_note_and_keeps_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_data_dir: Path
) -> None:
    seen = headless(monkeypatch, moves=2)
    status = main(["play", "--seed", "5", "--no-animation"])
    err = capsys.readouterr().err
    assert status != 0
    lines = err.splitlines()
    assert 1 <= len(lines) <= 2 and all(len(line) < 200 for line in lines), err
    reports = list(private_data_dir.glob("crash-*.txt"))
    assert len(reports) == 1 and str(reports[0]) in lines[0]
    report = reports[0].read_text(encoding="utf-8")
    assert "InjectedCrash" in report and "test crash in the hint action" in report
    assert "Traceback" in report
    # A plain traceback first, readable whatever the terminal's width was: the line that
    # raised, whole (Textual's own report wraps it at the terminal's width).
    assert report.startswith("Traceback (most recent call last):")
    assert 'raise InjectedCrash("test crash in the hint action")' in report
    assert "resume" in lines[1]
    # The game played before the crash is saved and offered again.
    with open_store() as store:
        offer = last_resumable(store)
        assert offer is not None and offer.status == "playing"
        assert offer.data["game"]["rolls"] == seen["rolls"]


def test_a_crash_before_any_move_has_no_game_to_offer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_data_dir: Path
) -> None:
    headless(monkeypatch, moves=0)
    assert main(["play", "--no-save", "--no-animation"]) != 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "crash-" in lines[0]
    assert len(list(private_data_dir.glob("crash-*.txt"))) == 1


def test_a_clean_quit_exits_zero_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_data_dir: Path
) -> None:
    original = SnlApp.run

    async def quit_at_once(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: pilot.app.game_screen.ready)  # type: ignore[attr-defined]
        await pilot.press("q")

    def run(self: SnlApp, **options: Any) -> Any:
        return original(self, headless=True, size=(120, 40), auto_pilot=quit_at_once)

    monkeypatch.setattr(SnlApp, "run", run)
    assert main(["play", "--no-save"]) == 0
    assert capsys.readouterr().err == ""
    assert not list(private_data_dir.glob("crash-*"))
