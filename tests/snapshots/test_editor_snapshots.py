"""Snapshot tests of the board editor at 120x40, textual-dark: plain and heat map.

Update after an intended visual change with
``pytest tests/snapshots/test_editor_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.board import Board
from snl_tui.core.studio.board_file import BoardSource
from snl_tui.screens.editor import EditorScreen

SIZE = (120, 40)


def editor_app() -> SnlApp:
    board = Board(8, 8, [(3, 22), (12, 40), (30, 51), (27, 9), (46, 20), (62, 43)], name="designer")
    source = BoardSource(Path("designer.toml"), "toml")
    editor = EditorScreen(board, source, exit_on_leave=True)
    app = SnlApp.editing(editor, board, animate=False)
    app.theme = "textual-dark"
    return app


async def settled(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    for _ in range(5):
        await pilot.pause()


def test_editor_plain(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("right", "right", "up", "enter", "up")  # a jump being made
        await settled(pilot)

    assert snap_compare(editor_app(), terminal_size=SIZE, run_before=run_before)


def test_editor_heat_map(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("up", "up", "up", "v")
        await settled(pilot)

    assert snap_compare(editor_app(), terminal_size=SIZE, run_before=run_before)
