"""Snapshots of the drawn board: classic and everest with the snakes and ladders drawn at
two terminal sizes, zoomed out to fit, and with ``j`` (markers only).

Same fixed environment as ``test_snapshots.py`` (textual-dark, seeded, no animation;
``conftest.py``).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board

from .test_snapshots import pressing, quiet_app

PLAYERS = [Player("Ann"), Player("Bob")]


@pytest.mark.parametrize("size", [(140, 45), (120, 40)], ids=["140x45", "120x40"])
@pytest.mark.parametrize("name", ["classic", "everest"])
def test_jumps_drawn(snap_compare, name: str, size: tuple[int, int]) -> None:
    app = quiet_app(board=load_board(name), players=PLAYERS)
    assert snap_compare(app, terminal_size=size, run_before=pressing())


@pytest.mark.parametrize("name", ["classic", "everest"])
def test_markers_only(snap_compare, name: str) -> None:
    app = quiet_app(board=load_board(name), players=PLAYERS)
    assert snap_compare(app, terminal_size=(140, 45), run_before=pressing("j"))


def test_everest_zoomed_out_to_fit(snap_compare) -> None:
    app = quiet_app(board=load_board("everest"), players=PLAYERS)
    assert snap_compare(app, terminal_size=(140, 45), run_before=pressing("z"))


def test_four_players_at_80x24(snap_compare) -> None:
    players = [Player("Ann"), Player("Bob"), Player("Cat"), Player("Dan")]
    app = quiet_app(board=load_board("river"), players=players)

    async def run_before(pilot: Pilot) -> None:
        await pressing()(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
