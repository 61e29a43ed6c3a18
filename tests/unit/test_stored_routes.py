"""The built-in boards' routings stored ahead of time (``core.geometry.stored``) are the
ones the routing works out: run ``python scripts/store_routes.py`` when this fails."""

from __future__ import annotations

import pytest

from snl_tui.core.board import Board
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.geometry import jump_paths, number_boxes
from snl_tui.core.geometry.routing import Router
from snl_tui.core.geometry.stored import stored_routing


@pytest.mark.parametrize("name", builtin_names())
def test_each_stored_routing_is_the_one_worked_out(name: str) -> None:
    board = load_board(name)
    stored = stored_routing(board)
    assert stored is not None, "routes.json is stale: python scripts/store_routes.py"
    fresh = Router(board).run()
    assert stored.paths == fresh.paths
    assert stored.boxes == fresh.boxes
    assert jump_paths(board) == fresh.paths and number_boxes(board) == fresh.boxes


def test_another_board_is_routed_as_before() -> None:
    classic = load_board("classic")
    moved = Board.from_jumps(
        10, 10, ladders=[(s, e) for s, e in classic.jumps.items() if e > s][1:], snakes=[]
    )
    assert stored_routing(moved) is None
    assert len(jump_paths(moved)) == len(moved.jumps)
