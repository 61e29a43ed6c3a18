"""The board fits its squares to the room it has: whole rows at 80 columns and up."""

from __future__ import annotations

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.board import (
    CELL_HEIGHT,
    LEGEND_ITEMS,
    ROUTE_MARK,
    BoardView,
    cell_width_for,
    min_cell_width,
)

from .helpers import SIZE, settle, started


def screen_text(view: BoardView) -> list[str]:
    return [view.render_line(y).text for y in range(view.size.height)]


@pytest.mark.parametrize("size", [(80, 24), (100, 30), SIZE, (200, 60)])
async def test_every_column_of_the_classic_board_is_in_view(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        view = screen.query_one(BoardView)
        board = view.board
        assert view.max_scroll_x == 0  # no sideways scrolling
        assert view.max_scroll_y == 0  # nor up and down: 10x10 fits 80x24 whole
        assert min_cell_width(board) <= view.cell_width
        text = "\n".join(screen_text(view))
        for square in range(1, 11):  # the bottom row, all in view from the first frame
            assert f" {square} " in text or text.rstrip().endswith(f" {square}")
        if size == SIZE:
            assert view.cell_width == cell_width_for(board)  # comfortable when there is room
            assert view.cell_height == CELL_HEIGHT
        if size == (80, 24):
            assert view.cell_height == 2  # two lines per row on a short terminal
        if size == (200, 60):  # a big terminal is used: taller and wider squares
            assert view.cell_height > CELL_HEIGHT and view.cell_width > cell_width_for(board)
            assert view.size.height - view.virtual_size.height < board.rows  # < a row to spare


async def test_squares_shrink_and_grow_with_the_terminal(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        wide = view.cell_width
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert view.cell_width < wide and view.max_scroll_x == 0
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        assert view.cell_width == wide


async def test_compact_squares_keep_numbers_labels_and_route_steps(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        board = view.board
        view.show([28], [84, 100], current=0)
        await settle(pilot)
        width = view.cell_width
        assert width == min_cell_width(board) and view.cell_height == 2

        def cell(square: int, part: int) -> str:
            row, col = board.position_of(square)
            line = view.paint_line(row * view.cell_height + part).text
            return line[col * width : (col + 1) * width]

        assert cell(28, 1).strip() == "▲84A"  # the token joins the jump's line
        assert cell(84, 0).strip() == f"84{ROUTE_MARK}1"  # beside the number
        assert cell(100, 0).strip() == "100"
        # Every route ends there: no room for its step; the label drops its leading space
        # rather than its end mark.
        assert cell(100, 1).strip() == "GOAL△"
        for square in range(1, 101):
            assert cell(square, 0).split()[0].split(ROUTE_MARK)[0] == str(square)


async def test_the_legend_wraps_on_a_narrow_board(make_app) -> None:
    app = make_app(board=load_board("leetcode-2"))  # 2x2: 14 columns of squares
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        text = "\n".join(screen_text(view))
        for item in LEGEND_ITEMS:
            assert item in text
