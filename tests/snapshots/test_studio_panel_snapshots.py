"""Snapshot tests of the studio's numbers panel, mounted alone in a small app (textual-dark).

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``
and look at the SVGs in ``__snapshots__`` before committing them.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.studio_panel import NumbersPanel

SIZE = (60, 44)


class PanelApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.theme = "textual-dark"

    def compose(self) -> ComposeResult:
        yield NumbersPanel()


async def settled(pilot: Pilot[None]) -> None:
    panel = pilot.app.query_one(NumbersPanel)
    while panel.computing or panel.effects is None:
        await pilot.pause()
    await pilot.pause()


def test_panel_after_an_edit(snap_compare) -> None:  # type: ignore[no-untyped-def]
    classic = load_board("classic")
    snake = classic.snakes[0]
    fewer = Board(
        classic.rows,
        classic.cols,
        [(a, b) for a, b in classic.jumps.items() if a != snake.start],
        rules=classic.rules,
    )

    async def run_before(pilot: Pilot[None]) -> None:
        panel = pilot.app.query_one(NumbersPanel)
        panel.show_board(classic, 1)
        await settled(pilot)
        panel.show_board(fewer, 1)
        await settled(pilot)
        panel.show_cursor(classic.ladders[1].start)
        await pilot.pause()

    assert snap_compare(PanelApp(), terminal_size=SIZE, run_before=run_before)


def test_panel_on_a_board_too_big(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        pilot.app.query_one(NumbersPanel).show_board(Board(201, 201), 1)
        await settled(pilot)

    assert snap_compare(PanelApp(), terminal_size=(60, 12), run_before=run_before)
