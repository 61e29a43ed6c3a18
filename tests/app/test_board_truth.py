"""``z`` tells the truth, a board opens on its players, and the picture widget draws
what the game says (issue 35)."""

from __future__ import annotations

import re

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.board_picture import BoardPicture, palette_first

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


async def test_the_picture_draws_a_frame_only_when_something_on_it_changed(make_app) -> None:
    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert isinstance(view, BoardPicture)
        await settle(pilot)
        lines = view.render_lines(view.region.reset_offset)
        data = "".join(segment.text for strip in lines for segment in strip)
        columns, rows, _, _ = view.picture_size()
        assert data.count("\x1bP") == len(view.tiles(columns, rows))  # a Sixel per tile
        made, encoded = view.frames_made, view.tiles_encoded
        view.render_lines(view.region.reset_offset)
        assert (view.frames_made, view.tiles_encoded) == (made, encoded)  # nothing new
        refreshed = []
        view.refresh = lambda *regions, **_: refreshed.extend(regions)  # type: ignore[method-assign]
        view.show([5, 0], (), current=1)
        view.render_lines(view.region.reset_offset)
        assert view.frames_made == made + 1 and view.landed == 5
        # Only the tiles that show square 5 were encoded again, and only their lines
        # were repainted (whole-width: Textual writes the Sixel with the line).
        assert 1 <= view.tiles_encoded - encoded <= 2
        assert refreshed and all(region.width == view.size.width for region in refreshed)
        assert sum(region.height for region in refreshed) < rows
        del view.refresh
        assert view.out_of_view() == []  # the picture shows every square
        assert view.toggle_fit() == "The picture shows the whole board."
        view.toggle_jumps()  # j: the character board
        await settle(pilot)
        assert "▲38" in visible_text(view)


def test_palette_first_defines_every_colour_before_the_first_pixel() -> None:
    sixel = '\x1bP0;0;0q"1;1;4;6#1;2;0;0;0!4~-#2;2;100;0;0~#1~\x1b\\'
    out = palette_first(sixel)
    assert out == '\x1bP0;0;0q"1;1;4;6#1;2;0;0;0#2;2;100;0;0#1!4~-#2~#1~\x1b\\'


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


async def test_on_the_picture_a_token_climbs_its_ladder(make_app) -> None:
    from snl_tui.core.engine import Game
    from snl_tui.core.geometry import jump_paths

    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        view = screen.query_one(BoardView)
        assert isinstance(view, BoardPicture)
        await wait_until_routed(pilot, view)
        game = Game(view.board, [Player("Ann")], 1)
        turn = game.play(1)  # from the start to square 1: the ladder to 38
        assert turn.move.jumps and turn.move.end == 38
        seen: list[tuple[float, float]] = []
        show_marks = view.marks

        def recording() -> object:
            if view.moving is not None:
                seen.append(view.moving[1])
            return show_marks()

        view.marks = recording  # type: ignore[method-assign]
        refresh = view.refresh_picture

        def painting(squares: set[int]) -> None:
            refresh(squares)
            view.current_frame()  # what the next paint draws

        view.refresh_picture = painting  # type: ignore[method-assign]
        await view.walk([0], turn, pace=50)
        ladder = next(p for p in jump_paths(view.board) if p.jump.start == 1)
        assert len(seen) >= 5  # the token was drawn on its way, frame by frame
        assert all(point in ladder.body for point in seen)
        ys = [y for _, y in seen]
        assert ys == sorted(ys, reverse=True)  # up the ladder, never back
        assert view.moving is None and view.landed == 38 and view.positions == (38,)


async def wait_until_routed(pilot, view: BoardPicture) -> None:  # type: ignore[no-untyped-def]
    from snl_tui.core.geometry import jump_paths_known

    from .helpers import wait_until

    await wait_until(pilot, lambda: jump_paths_known(view.board))
