"""Any crop, any hands (issue 40): the board answers every region Textual asks of it with
exactly that region's lines, in Sixel, Kitty's protocol and text, and the pointer moved,
clicked and wheeled all over the picture leaves the game and the editor running.

Textual asks a Line-API widget for one line when the pointer moves (``get_style_at``),
for the whole widget when it paints, for part of it when it is partly hidden: the
picture once answered a one-line crop with an ``IndexError`` (the crash of the first
minute). The pure line builder is tested over random widget sizes, tiles and crops;
the mounted widget over random crops at two terminal sizes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Offset, Region
from textual.strip import Strip

from snl_tui.core.engine import Player
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.board_picture import PictureRenderer
from snl_tui.widgets.edit_board import EditBoard
from snl_tui.widgets.picture_lines import inside, picture_strips

from .helpers import settle, started, wait_until

QUICK = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def crops(draw: st.DrawFn, width: int, height: int) -> Region:
    """A region of a widget ``width`` x ``height`` (at least a cell)."""
    x = draw(st.integers(0, width - 1))
    y = draw(st.integers(0, height - 1))
    return Region(x, y, draw(st.integers(1, width - x)), draw(st.integers(1, height - y)))


@st.composite
def pictures(draw: st.DrawFn) -> tuple[int, int, list[Region], Region]:
    """(width, height, tiles, crop): a widget whose last line is text, its picture cut
    into tiles of a random size, and a crop of it."""
    width = draw(st.integers(1, 160))
    height = draw(st.integers(1, 60))
    lines = height - 1
    tile_w, tile_h = draw(st.integers(1, 8)), draw(st.integers(1, 6))
    tiles = [
        Region(x, y, min(tile_w, width - x), min(tile_h, lines - y))
        for y in range(0, lines, tile_h)
        for x in range(0, width, tile_w)
    ]
    return width, height, tiles, draw(crops(width, height))


@given(pictures(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_any_crop_gets_exactly_its_lines_and_only_whole_tiles(
    picture: tuple[int, int, list[Region], Region], kitty: bool
) -> None:
    width, height, tiles, crop = picture
    lines = height - 1
    status = Strip([Segment("s" * width)], width)
    data = [(tile, f"<{tile.x},{tile.y}>") for tile in tiles]
    strips = picture_strips(crop, lines, data, Offset(3, 2), status, Style() if kitty else None)
    assert len(strips) == crop.height
    assert all(strip.cell_length == crop.width for strip in strips)
    out = "".join(segment.text for strip in strips for segment in strip)
    for tile, text in data:
        assert (text in out) == inside(tile, crop)
    for index, y in enumerate(range(crop.y, crop.bottom)):
        text = "".join(segment.text for segment in strips[index] if not segment.control)
        if y >= lines:
            assert text == "s" * crop.width  # the status line, cut to the crop
        else:
            assert text == (" " * crop.width if kitty else "")


async def _crops_answered(pilot, view: BoardView) -> None:  # type: ignore[no-untyped-def]
    """Random crops of ``view`` at its size now each get exactly their lines."""
    width, height = view.size

    @QUICK
    @given(crops(width, height))
    def check(crop: Region) -> None:
        strips = view.render_lines(crop)
        assert len(strips) == crop.height
        assert all(strip.cell_length == crop.width for strip in strips)

    check()
    for y in range(height):  # and the pointer's one line, each line of the widget
        assert len(view.render_lines(Region(0, y, width, 1))) == 1


async def _crops_at_sizes(make_app, protocol: str | None) -> None:  # type: ignore[no-untyped-def]
    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = protocol
    async with app.run_test(size=(80, 24)) as pilot:
        view = (await started(pilot)).query_one(BoardView)
        for size in ((80, 24), (131, 41)):
            await pilot.resize_terminal(*size)
            picture = view.renderer
            if isinstance(picture, PictureRenderer):
                await wait_until(pilot, lambda p=picture: p.pixels is not None and p.picture_shown)
            await settle(pilot)
            await _crops_answered(pilot, view)


async def test_the_sixel_picture_answers_any_crop(make_app) -> None:
    await _crops_at_sizes(make_app, "sixel")


async def test_the_kitty_picture_answers_any_crop(make_app) -> None:
    await _crops_at_sizes(make_app, "kitty")


async def test_the_character_board_answers_any_crop(make_app) -> None:
    await _crops_at_sizes(make_app, None)


async def _pointer_all_over(pilot, view: BoardView) -> None:  # type: ignore[no-untyped-def]
    """Hover over each line of the board (across it), click a few squares, drag."""
    width, height = view.size
    for y in range(height):
        await pilot.hover(view, offset=((y * 7) % width, y))
    for x, y in ((2, 2), (width // 2, height // 2), (width - 1, height - 1)):
        await pilot.click(view, offset=(x, y))
    await pilot.mouse_down(view, offset=(1, 1))
    await pilot.hover(view, offset=(width // 2, height // 2))  # a drag
    await pilot.mouse_up(view, offset=(width // 2, height // 2))
    await settle(pilot)


async def test_the_pointer_all_over_the_picture_in_the_game(make_app) -> None:
    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = "sixel"
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        await wait_until(pilot, lambda: view.renderer.picture_shown)
        await _pointer_all_over(pilot, view)
        assert app.is_running and app.screen is screen
        # A click on square 1 says what it holds, as on the character board.
        region = view.content_region
        for y in range(region.height - 1, 0, -1):
            if view.square_at_offset(1, y) == 1:
                break
        await pilot.click(view, offset=(1, y))
        await settle(pilot)
        assert "1" in str(screen.query_one("#status").render())


async def test_the_pointer_all_over_the_picture_in_the_editor(make_app) -> None:
    from snl_tui.app import SnlApp
    from snl_tui.core.files.formats import load_board
    from snl_tui.screens.editor import EditorScreen

    board = load_board("classic")
    app = SnlApp.editing(EditorScreen(board, source=None), board)
    app.pixels = "sixel"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        view = app.screen.query_one(EditBoard)
        await wait_until(pilot, lambda: view.renderer.picture_shown)
        await _pointer_all_over(pilot, view)
        assert app.is_running
        width, height = view.size
        spot = (width // 3, height // 3)
        clicked = view.square_at_offset(*spot)
        assert clicked is not None and clicked != view.cursor
        await pilot.click(view, offset=spot)
        await settle(pilot)
        assert view.cursor == clicked  # the cursor goes to it, as on the character board


def test_a_line_under_another_widget_leaves_the_cursor_where_that_widget_begins() -> None:
    """A full update joins a line's strips without moving the cursor: the picture's
    line ends where a toast over it begins, so the toast is written in its place."""
    status = Strip([Segment("s" * 20)], 20)
    crop = Region(0, 0, 20, 6)
    strips = picture_strips(crop, 5, (), Offset(3, 2), status, None, {1: 12})
    last = [segment.text for segment in strips[1]][-1]
    assert last == "\x1b[4;16H"  # line 1 + 2 + 1, column 12 + 3 + 1 (1-based)
    assert [segment.text for segment in strips[0]][-1] == "\x1b[3;24H"  # the crop's end


@given(pictures(), st.data())
@settings(max_examples=200, deadline=None)
def test_held_back_tiles_are_erased_only_within_the_crop_and_left_of_a_toast(
    picture: tuple[int, int, list[Region], Region], data: st.DataObject
) -> None:
    """A tile held back under a toast, never sent at this place, has its cells erased
    (no text from before shows round the toast): only its own cells, only inside the
    crop, never from where the toast begins; the crop still gets exactly its lines."""
    import re

    erased_at = re.compile(r"\x1b\[(\d+);(\d+)H\x1b\[[0-9;]*m\x1b\[(\d+)X")
    width, height, tiles, crop = picture
    lines = height - 1
    erase = data.draw(st.lists(st.sampled_from(tiles), unique=True)) if tiles else []
    toast_x = data.draw(st.integers(0, width))
    stops = {y: toast_x for y in range(height) if crop.x < toast_x < crop.right}
    status = Strip([Segment("s" * width)], width)
    origin = Offset(3, 2)
    strips = picture_strips(crop, lines, (), origin, status, None, stops, erase, "40")
    assert len(strips) == crop.height
    assert all(strip.cell_length == crop.width for strip in strips)
    erased = set()
    for strip in strips:
        for segment in strip:
            for row, column, count in erased_at.findall(segment.text):
                y, x = int(row) - 1 - origin.y, int(column) - 1 - origin.x
                erased |= {(x + i, y) for i in range(int(count))}
    for x, y in erased:
        assert crop.contains(x, y) and y < lines
        assert any(tile.contains(x, y) for tile in erase)
        assert x < stops.get(y, crop.right)
    for tile in erase:  # every cell of the held back tiles left of the toast, in the crop
        for y in range(max(tile.y, crop.y), min(tile.bottom, crop.bottom)):
            for x in range(max(tile.x, crop.x), min(tile.right, stops.get(y, crop.right))):
                assert (x, y) in erased


async def test_beneath_a_dialog_kittys_picture_goes_only_on_lines_it_leaves_free(
    make_app,  # type: ignore[no-untyped-def]
) -> None:
    """Beneath a dialog Textual's colour filter takes the control mark off a segment and
    cuts the screen's lines at the dialog's edges, measuring an escape as text: riding
    on a line the dialog covers, the escape that takes Kitty's picture away was cut in
    two (kitty 0.26: "0m" or "…424833,q=2" left on the screen, the rest swallowed). It
    rides only on the lines the dialog leaves free, at their end."""
    from textual.widgets import Input

    from snl_tui.export.kitty import hide

    app = make_app(players=[Player("Ann"), Player("Bob")])
    app.pixels = "kitty"
    async with app.run_test(size=(100, 30)) as pilot:
        view = (await started(pilot)).query_one(BoardView)
        await wait_until(pilot, lambda: view.renderer.picture_shown)
        await settle(pilot)
        await pilot.press("l")  # the load dialog: narrower than the screen
        await wait_until(pilot, lambda: bool(app.screen.query(Input)))
        await settle(pilot)
        assert not view.screen.is_active
        escape = hide(view.renderer.kitty_image)
        dialog = [app.screen.find_widget(child).region for child in app.screen.children]
        origin = view.screen.find_widget(view).region.offset
        width, height = view.size
        strips = view.render_lines(Region(0, 0, width, height))
        assert len(strips) == height
        free = 0
        for y, strip in enumerate(strips):
            texts = [segment.text for segment in strip]
            covered = any(r.y <= origin.y + y < r.bottom for r in dialog if r.width)
            if covered:
                assert not any("\x1b" in text for text in texts)
            else:
                free += 1
                assert texts[-1] == escape and not any("\x1b" in t for t in texts[:-1])
        assert free > 0
