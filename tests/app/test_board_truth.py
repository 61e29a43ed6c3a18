"""``z`` tells the truth, a board opens on its players, and the picture widget draws
what the game says (issue 35)."""

from __future__ import annotations

import re

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.board import BoardView

from .helpers import settle, started


def visible_text(view: BoardView) -> str:
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


@pytest.mark.parametrize("size", [(100, 30), (120, 40), (140, 45), (200, 60)])
async def test_z_says_fits_only_when_every_square_number_is_whole(make_app, size) -> None:
    app = make_app(board=load_board("everest"))
    async with app.run_test(size=size) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        said = view.toggle_fit()
        await settle(pilot)
        numbers = {int(n) for n in re.findall(r"(?<![\d▲▼])\d+(?!\d)", visible_text(view))}
        whole = set(range(1, 401)) <= numbers
        fits = view.max_scroll_x == 0 and view.max_scroll_y == 0
        if said.startswith("Zoomed out: the whole board fits"):
            assert fits and whole
        else:
            assert "does not fit" in said and "needs" in said
            assert not (fits and whole)


async def test_z_says_what_size_the_whole_board_needs(make_app) -> None:
    app = make_app(board=load_board("everest"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        need_w, need_h = view.whole_board_size()
        assert view.outer_size.height < need_h  # the truth: 20 rows of 2 lines do not fit
        said = view.toggle_fit()
        wide = 120 + max(0, need_w - view.outer_size.width)
        tall = 40 + need_h - view.outer_size.height
        assert f"needs a terminal of at least {wide}x{tall} (this one is 120x40)" in said
    # And a terminal that size does show it whole.
    app = make_app(board=load_board("everest"))
    async with app.run_test(size=(wide, tall)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert view.toggle_fit() == "Zoomed out: the whole board fits."


async def test_a_big_board_opens_on_square_one_while_everyone_is_off_it(make_app) -> None:
    app = make_app(board=load_board("everest"), players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        view = screen.query_one(BoardView)
        assert view.max_scroll_y > 0  # it scrolls: the view had a choice
        grid = visible_text(view).splitlines()
        # Square 1 is the bottom-left square: its line is in view, above the status line.
        assert any(re.match(r"^\W*1\s", line) for line in grid)
        assert "400" not in "\n".join(grid)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (140, 45)])
async def test_the_replay_gives_the_board_the_room_the_game_gives_it(make_app, size) -> None:
    from snl_tui.core.store.games import open_store
    from snl_tui.screens.replay import ReplayScreen

    from .helpers import wait_until
    from .test_saved_games import replay_app

    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        game_board = screen.query_one(BoardView).region
    _, replay_app_, replay = replay_app(open_store(), animate=False)
    async with replay_app_.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: replay.finished)
        assert isinstance(replay, ReplayScreen)
        assert replay.query_one(BoardView).region == game_board
