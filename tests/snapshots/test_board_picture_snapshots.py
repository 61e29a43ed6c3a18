"""Snapshots of the character board: classic and everest with the snakes and ladders
drawn at two terminal sizes, zoomed out to fit, with ``j`` (markers only), and classic
at 80x24 (markers: the squares are too small for lines).

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


def test_classic_reads_at_80x24(snap_compare) -> None:
    # The character board at the README's size: squares too small for the braille
    # lines, so the jumps are marked at their ends (▲38 at 1, △ at 38) and read.
    app = quiet_app(board=load_board("classic"), players=PLAYERS)
    assert snap_compare(app, terminal_size=(80, 24), run_before=pressing())


def test_four_players_at_80x24(snap_compare) -> None:
    players = [Player("Ann"), Player("Bob"), Player("Cat"), Player("Dan")]
    app = quiet_app(board=load_board("river"), players=players)

    async def run_before(pilot: Pilot) -> None:
        await pressing()(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
