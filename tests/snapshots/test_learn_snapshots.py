"""Snapshots of ``snl learn classic`` (the breadth-first search step by step) at the
smallest terminal people use, 80x24, and at 140x45, each after a few levels: the whole
board with the distances, the step in words, the queue and the code's current line.

Update with ``pytest tests/snapshots/test_learn_snapshots.py --snapshot-update`` and look
at the SVGs (turned into PNGs: ``cairosvg FILE.svg -o FILE.png``) before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.files.formats import load_board
from snl_tui.screens.learn import LEARN_CSS, LearnScreen

from .test_snapshots import settle


def learn_app() -> SnlApp:
    board = load_board("classic")
    app = SnlApp(board=board, animate=False, front=LearnScreen(board), front_css=LEARN_CSS)
    app.theme = "textual-dark"
    return app


async def three_levels_and_a_step(pilot: Pilot) -> None:
    """Level 1 and 2 done, level 3 begun: square 45 expanded, its first die tried."""
    await settle(pilot)
    await pilot.press("l", "l", "l", "space", "space")
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=["80x24", "140x45"])
def test_learn_classic_after_a_few_levels(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(learn_app(), terminal_size=size, run_before=three_levels_and_a_step)
