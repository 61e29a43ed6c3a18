"""Pilot tests of the board as a picture (issues 35 and 40): a frame re-encodes and
sends only the tiles that changed, each tile goes out once, the board's own picture
comes from the disk the second time, a token climbs its ladder frame by frame, Kitty's
protocol writes its escapes, and the editor draws its cursor, heat map and jump in
progress into the picture."""

from __future__ import annotations

import math

import pytest

from snl_tui.core.engine import Game, Player
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.board_picture import PictureRenderer, picture_cache_dir
from snl_tui.widgets.edit_board import EditBoard

from .helpers import settle, started, wait_until

SIXEL = "\x1bP0;1;0q"


@pytest.fixture
def painted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each of the board's paints gives Textual to write (every line of it)."""
    paints: list[str] = []
    render = PictureRenderer.render_lines

    def recording(view, crop):  # type: ignore[no-untyped-def]
        lines = render(view, crop)
        paints.append("".join(segment.text for strip in lines for segment in strip))
        return lines

    monkeypatch.setattr(PictureRenderer, "render_lines", recording)
    return paints


async def picture_ready(pilot, view: BoardView) -> BoardView:  # type: ignore[no-untyped-def]
    assert isinstance(view.renderer, PictureRenderer)
    await wait_until(pilot, lambda: view.renderer.pixels is not None and view.renderer.pixels.jumps)
    await settle(pilot)
    return view


async def test_a_move_re_encodes_and_sends_only_the_tiles_whose_pixels_changed(
    make_app, painted
) -> None:
    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        view = await picture_ready(pilot, screen.query_one(BoardView))
        columns, rows, _, _ = view.renderer.picture_size()
        every = len(view.renderer.tiles(columns, rows))
        sent = "".join(painted).count(SIXEL)
        assert sent == every  # each tile once, however often Textual painted
        encoded, made = view.renderer.tiles_encoded, view.renderer.frames_made
        painted.clear()
        view.refresh()
        await settle(pilot)
        assert painted and SIXEL not in "".join(painted)  # painted again: nothing sent
        picture = view.renderer
        assert (picture.tiles_encoded, picture.frames_made) == (encoded, made)  # painting: no work
        view.show([5, 0], (), current=1)
        assert view.renderer.frames_made == made + 1 and view.renderer.landed == 5
        assert 1 <= view.renderer.tiles_encoded - encoded <= 6  # the tiles of square 5 only
        await settle(pilot)
        assert 1 <= "".join(painted).count(SIXEL) <= 6  # and only they are sent
        encoded = view.renderer.tiles_encoded
        view.renderer.landed = None
        view.show([0, 0], (), current=1)  # back to the bare board: its own tiles, none encoded
        assert view.renderer.tiles_encoded == encoded


async def test_the_second_game_takes_the_board_picture_from_the_disk(make_app, painted) -> None:
    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        view = await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
        first = sorted(view.renderer.tile_data.items())
    assert list(picture_cache_dir().glob("*.json"))
    painted.clear()
    again = make_app(players=[Player("Ann")])
    again.pixels = "sixel"
    async with again.run_test(size=(80, 24)) as pilot:
        view = await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
        assert view.renderer.tiles_encoded == 0  # every tile from the disk
        assert sorted(view.renderer.tile_data.items()) == first
        # A warm launch sends the picture once (issue 40: it was sent 5-6 times).
        assert "".join(painted).count(SIXEL) == len(first)


async def test_a_damaged_cache_file_is_never_written_to_the_terminal(make_app, painted) -> None:
    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
    for path in picture_cache_dir().glob("*.json"):
        path.write_text(path.read_text().replace("\\u001bP", "\\u001b]0;owned\\u0007", 1))
    again = make_app(players=[Player("Ann")])
    again.pixels = "sixel"
    async with again.run_test(size=(80, 24)) as pilot:
        view = await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
        assert "owned" not in "".join(painted)
        assert view.renderer.tiles_encoded > 0  # drawn afresh instead


async def test_on_the_picture_a_token_climbs_its_ladder(make_app) -> None:
    from snl_tui.core.geometry import jump_paths

    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        view = await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
        game = Game(view.board, [Player("Ann")], 1)
        turn = game.play(1)  # from the start to square 1: the ladder to 38
        assert turn.move.jumps and turn.move.end == 38
        seen: list[tuple[float, float]] = []
        update = view.renderer.update_frame

        def recording() -> None:
            if view.renderer.moving is not None:
                seen.append(view.renderer.moving[1])
            update()

        view.renderer.update_frame = recording  # type: ignore[method-assign]
        encoded = view.renderer.tiles_encoded
        await view.walk([0], turn, pace=50)
        ladder = next(p for p in jump_paths(view.board) if p.jump.start == 1)
        assert len(seen) >= 5  # the token was drawn on its way, frame by frame
        assert all(point in ladder.body for point in seen)
        ys = [y for _, y in seen]
        assert ys == sorted(ys, reverse=True)  # up the ladder, never back
        assert view.renderer.tiles_encoded - encoded >= len(seen)  # each frame changed pixels
        picture = view.renderer
        assert picture.moving is None and picture.landed == 38 and picture.positions == (38,)


async def test_with_kittys_protocol_the_board_is_sent_and_sent_again_on_a_move(
    make_app, monkeypatch
) -> None:
    painted: list[str] = []  # what Textual's paints write for the board
    render = PictureRenderer.render_lines

    def recording(view, crop):  # type: ignore[no-untyped-def]
        lines = render(view, crop)
        painted.append("".join(segment.text for strip in lines for segment in strip))
        return lines

    monkeypatch.setattr(PictureRenderer, "render_lines", recording)
    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = "kitty"
    async with app.run_test(size=(80, 24)) as pilot:
        view = await picture_ready(pilot, (await started(pilot)).query_one(BoardView))
        out = "".join(painted)
        sent = out.count("\x1b_Ga=T,f=100,")  # the picture (PNG), placed at once
        assert sent >= 1 and out.count("\x1b_Ga=d,d=I,") == sent - 1  # each freed after
        assert "U=1" not in out and "\U0010eeee" not in out  # no placeholders (kitty 0.28+)
        assert ",C=1,z=-1073741825," in out  # beneath the text and the backgrounds
        first = view.renderer.kitty_image
        assert first is not None
        painted.clear()
        view.show([5, 0], (), current=1)
        await settle(pilot)
        again = "".join(painted)
        assert again.count("\x1b_Ga=T,f=100,") == 1  # the new frame, sent once
        assert view.renderer.kitty_image is not None and view.renderer.kitty_image != first
        assert f"\x1b_Ga=d,d=I,i={first}," in again  # the old one freed
        assert "\x1bP" not in out + again  # no Sixel
        painted.clear()
        screen = app.screen
        screen.action_help()  # a dialog: the picture's placement goes, the image stays
        await wait_until(pilot, lambda: app.screen is not screen)
        await settle(pilot)
        shown = view.renderer.kitty_image
        assert f"\x1b_Ga=d,d=i,i={shown}," in "".join(painted)
        painted.clear()
        app.screen.dismiss()
        await wait_until(pilot, lambda: app.screen is screen and not view.renderer.due)
        back = "".join(painted)
        assert f"\x1b_Ga=p,i={shown}," in back and "a=T" not in back  # placed, not sent


async def test_the_editor_draws_its_cursor_heat_and_jump_into_the_picture(make_app) -> None:
    from snl_tui.app import SnlApp
    from snl_tui.core.files.formats import load_board
    from snl_tui.screens.editor import EditorScreen

    board = load_board("classic")
    app = SnlApp.editing(EditorScreen(board, source=None), board)
    app.pixels = "sixel"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.screen.query_one(EditBoard)
        picture = view.renderer
        await wait_until(pilot, lambda: picture.pixels is not None and picture.pixels.jumps)
        await settle(pilot)
        assert view.cursor == 1 and view.renderer.marks().cursor == 1
        encoded = view.renderer.tiles_encoded
        await pilot.press("right")
        await settle(pilot)
        assert view.cursor == 2 and view.renderer.tiles_encoded > encoded  # redrawn where it moved
        await pilot.press("enter", "up")  # a jump from 2, its end following the cursor
        await settle(pilot)
        assert view.renderer.marks().pending == (2, 19)
        assert view.renderer.tiles_encoded > encoded
        await pilot.press("enter")  # the ladder 2 -> 19 is made: the picture follows
        await wait_until(pilot, lambda: view.board.jumps.get(2) == 19)
        await wait_until(pilot, lambda: picture.pixels is not None and picture.picture_key)
        assert view.renderer.marks().pending is None


async def test_no_picture_is_written_beneath_a_dialog_or_over_a_toast(make_app, painted) -> None:
    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await started(pilot)
        view = await picture_ready(pilot, screen.query_one(BoardView))
        assert not view.renderer.due
        painted.clear()
        app.notify("A toast over the board's corner", timeout=30)
        await settle(pilot)
        covered = set(view.renderer.covered)
        assert covered and SIXEL not in "".join(painted)  # nothing sent over the toast
        painted.clear()
        app.clear_notifications()
        await settle(pilot)
        # The tiles the toast lay on are sent again (over what it left), and only they.
        assert not view.renderer.covered and not view.renderer.due
        assert "".join(painted).count(SIXEL) == len(covered)
        painted.clear()
        screen.action_help()  # a dialog: Textual cuts and tints the lines beneath it
        await wait_until(pilot, lambda: app.screen is not screen)
        await settle(pilot)
        assert SIXEL not in "".join(painted)
        picture = view.renderer
        assert picture.due == set(picture.tile_data)  # all sent again when the dialog goes
        app.screen.dismiss()
        await wait_until(pilot, lambda: app.screen is screen and not view.renderer.due)


async def test_quit_does_not_wait_for_the_pictures_thread(make_app, monkeypatch) -> None:
    """A big board's picture takes its thread minutes (routing its jumps): ``q`` and
    ctrl+c end the app at once, and the thread (a daemon) is left behind."""
    import threading

    import snl_tui.core.geometry as geometry

    entered, release = threading.Event(), threading.Event()
    route = geometry.jump_paths

    def slow(board):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "snl-picture":
            entered.set()
            release.wait(60)
        return route(board)

    monkeypatch.setattr(geometry, "jump_paths", slow)
    try:
        for key in ("q", "ctrl+c"):
            entered.clear()
            app = make_app(players=[Player("Ann")])
            app.pixels = "sixel"
            async with app.run_test(size=(80, 24)) as pilot:
                await started(pilot)
                await wait_until(pilot, entered.is_set)
                await pilot.press(key)
                await wait_until(pilot, lambda a=app: not a.is_running)
            busy = [t for t in threading.enumerate() if t.name == "snl-picture"]
            assert busy and all(thread.daemon for thread in busy), key  # still at work
    finally:
        release.set()


def test_the_picture_cache_is_read_through_the_board_files_guard() -> None:
    """A FIFO never blocks, a link to /dev/zero and a huge file are refused before a
    byte is read, and a tile that is not exactly its own size is not used."""
    import json
    import os

    import numpy as np
    from textual.geometry import Region

    from snl_tui.export.sixel import encode
    from snl_tui.widgets.board_picture import load_tiles, save_tiles

    key = (8, 6, (10, 20))
    tile = Region(0, 0, 4, 3)
    good = encode(np.zeros((60, 40), dtype=np.uint8), [(1, 2, 3)])
    save_tiles("good.json", {tile: good})
    assert load_tiles("good.json", key) == {tile: good}
    folder = picture_cache_dir()
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    with open(folder / "huge.json", "wb") as huge:
        huge.truncate(300 << 20)  # sparse: 300 MiB that take no disk
    wrong = encode(np.zeros((600, 400), dtype=np.uint8), [(1, 2, 3)])  # ten times too big
    (folder / "wrong.json").write_text(json.dumps([[*tile, wrong]]))
    for name in ("fifo.json", "zero.json", "huge.json", "wrong.json", "missing.json"):
        assert load_tiles(name, key) is None, name


async def test_help_explains_the_pictures_marks_when_the_picture_shows(make_app) -> None:
    from snl_tui.screens.help import HelpScreen, help_text

    app = make_app(players=[Player("Ann")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        await picture_ready(pilot, screen.query_one(BoardView))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.screen.picture  # type: ignore[attr-defined]
    shown = help_text(picture=True)
    assert "rails and rungs" in shown and "blue, orange, red, teal" in shown
    assert "`j`" in shown and "{" not in shown.split("## Modes")[0]
    assert "▲38" in help_text() and "rails" not in help_text()


async def test_a_big_board_at_80x24_shows_a_readable_part_that_follows(make_app) -> None:
    """everest (20x20) at 80x24 would have 5-pixel numbers: the picture shows a part of
    it at squares whose numbers read, around the player to move; z shows the whole;
    the character board standing in opens at square 1, where the picture does."""
    from snl_tui.core.files.formats import load_board
    from snl_tui.core.geometry import NUMBER_HEIGHT
    from snl_tui.widgets.board_picture import MIN_NUMBER_PIXELS, READABLE_SQUARE

    # The widget's constant (the first frame does not import the geometry) is the
    # geometry's: a number of MIN_NUMBER_PIXELS, with a margin.
    assert math.ceil(MIN_NUMBER_PIXELS * 1.15 / NUMBER_HEIGHT) == READABLE_SQUARE

    app = make_app(board=load_board("everest"), players=[Player("Ann"), Player("Bob")])
    app.pixels = "sixel"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert isinstance(view.renderer, PictureRenderer)
        if not view.renderer.picture_shown:  # the stand-in: at square 1's row, not square 400's
            assert view.scroll_offset.y == view.max_scroll_y > 0
        await picture_ready(pilot, view)
        window = view.renderer._window()
        assert window is not None
        square = window[0]
        assert square * NUMBER_HEIGHT / 1.15 >= MIN_NUMBER_PIXELS
        columns, lines, _, _ = view.renderer.picture_size()
        assert view.square_at_offset(0, lines - 1) == 1  # square 1 at the bottom left
        view.show([390, 5], (), current=0)
        view.follow(390)
        await settle(pilot)
        assert view.renderer._window() != window  # the picture moved to the player to move
        shown = {view.square_at_offset(x, y) for x in range(columns) for y in range(0, lines, 2)}
        assert 390 in shown and 5 not in shown
        assert view.out_of_view() == [(1, 5, "↓")]
        await pilot.press("z")
        await settle(pilot)
        assert view.renderer._window() is None and view.out_of_view() == []  # the whole board
        await pilot.press("z")
        await settle(pilot)
        assert view.renderer._window() is not None
