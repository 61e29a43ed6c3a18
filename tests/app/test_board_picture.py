"""Pilot tests of the board as a picture: drawn jumps, every token in view, fit zoom,
widths in terminal cells, and every player listed at 80x24."""

from __future__ import annotations

from rich.segment import Segment

from snl_tui.core.cells import cell_width
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.players import PlayersPanel

from .helpers import settle, started

FOUR = [Player("Ann"), Player("Bob"), Player("Cat"), Player("Dan")]


def board_text(view: BoardView) -> list[str]:
    """Every line the widget shows, as text."""
    return [view.render_line(y).text for y in range(view.size.height)]


def square_lines(view: BoardView, square: int) -> list[str]:
    row, col = view.board.position_of(square)
    width = view.cell_width
    lines = []
    for part in range(view.cell_height):
        text = view.paint_line(row * view.cell_height + part).text
        lines.append(text[col * width : (col + 1) * width])
    return lines


async def test_four_tokens_on_one_square_are_all_drawn(make_app) -> None:
    app = make_app(board=load_board("river"), players=FOUR)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.show([1, 1, 1, 1], (), current=0)
        await settle(pilot)
        assert any("ABCD" in line for line in square_lines(view, 1))


async def test_tokens_that_do_not_fit_are_counted_and_named_below(make_app) -> None:
    app = make_app(board=load_board("river"), players=FOUR)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.show([5, 5, 5, 5], (), current=0)
        view.fit_zoom = True
        view.styles.width = 3 * view.board.cols + 2  # squares of three cells: "A+3"
        await settle(pilot)
        assert view.cell_width == 3
        assert any("A+3" in line for line in square_lines(view, 5))
        assert any("on 5: A B C D" in line for line in board_text(view))


async def test_every_player_is_listed_on_one_line_at_80x24(make_app) -> None:
    app = make_app(board=load_board("river"), players=FOUR)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        for turn in range(6):
            screen.action_roll()
            await settle(pilot)
            panel = screen.query_one(PlayersPanel)
            region = panel.region.reset_offset
            lines = [strip.text for strip in panel.render_lines(region)][1:-1]  # in the border
            shown = [line for line in lines if line.strip("│ ")]
            assert len(shown) == 4, (turn, lines)
            for player, line in zip(FOUR, shown, strict=True):
                assert player.name in line
            assert panel.region.bottom <= 24


async def test_a_wide_letter_name_keeps_every_board_line_the_widgets_width(make_app) -> None:
    players = [Player("小明"), Player("Ann")]
    app = make_app(players=players)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert all(cell_width(letter) == 1 for letter in view.letters)
        view.show([17, 17], (), current=0)
        await settle(pilot)
        for y in range(view.size.height):
            strip = view.render_line(y)
            cells = sum(cell_width(segment.text) for segment in strip)
            assert cells == view.size.width == strip.cell_length, y
            assert Segment.get_line_length(list(strip)) == view.size.width


async def test_jumps_are_drawn_and_j_switches_to_markers(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert view.draws_jumps
        drawn = "".join(board_text(view))
        assert any(0x2800 < ord(char) <= 0x28FF for char in drawn)  # braille dots
        assert "▲38" in drawn and "▼6" in drawn  # the labels stay
        await pilot.press("j")
        await settle(pilot)
        plain = "".join(board_text(view))
        assert not any(0x2800 <= ord(char) <= 0x28FF for char in plain)
        assert "▲38" in plain and "▼6" in plain
        await pilot.press("j")
        await settle(pilot)
        assert view.jumps_drawn


async def test_the_smallest_squares_show_markers_only(make_app) -> None:
    app = make_app(board=load_board("everest"))
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.fit_zoom = True
        await settle(pilot)
        assert view.cell_width == len(str(view.board.goal)) + 1
        assert not view.draws_jumps
        assert not any(0x2800 <= ord(char) <= 0x28FF for char in "".join(board_text(view)))


async def test_fit_zoom_shows_a_whole_20x20_board_at_140x45(make_app) -> None:
    app = make_app(board=load_board("everest"))
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert view.max_scroll_x > 0 or view.max_scroll_y > 0  # too big without the zoom
        await pilot.press("z")
        await settle(pilot)
        assert view.fit_zoom
        assert view.max_scroll_x == 0 and view.max_scroll_y == 0
        text = "\n".join(board_text(view))
        for square in (1, 20, 381, 400):
            assert str(square) in text


async def test_a_whole_10x10_board_fits_at_80x24_zoomed_out_too(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        for _ in range(2):
            assert view.max_scroll_x == 0 and view.max_scroll_y == 0
            await pilot.press("z")
            await settle(pilot)


async def test_tokens_out_of_view_are_named_with_the_way_to_them(make_app) -> None:
    app = make_app(board=load_board("everest"), players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.show([1, 400], (), current=0)
        view.follow(1)
        await settle(pilot)
        assert view.out_of_view() == [(1, 400, "↑")]
        assert any("out of view: ↑B400" in line for line in board_text(view))


async def test_a_move_makes_only_the_squares_that_changed_afresh(make_app) -> None:
    app = make_app(board=load_board("classic"), players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.show([12, 30], (), current=0)
        await settle(pilot)
        made, painted = view.squares_painted, view.lines_painted
        view.show([16, 30], (), current=1)  # Ann 12 -> 16 (one row), Bob to move on 30
        await settle(pilot)
        # The rows of 12 and 16 (one row) and of 30 (Bob's token is underlined now): of
        # their 20 squares, only the three that changed are made afresh.
        assert view.lines_painted - painted == 2 * view.cell_height
        assert view.squares_painted - made == 3
        assert any("A" in line for line in square_lines(view, 16))
        assert not any("A" in line for line in square_lines(view, 12))


async def test_the_turn_passing_between_two_tokens_on_one_square_moves_the_underline(
    make_app,
) -> None:
    app = make_app(board=load_board("classic"), players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)

        def underlined() -> str:
            """The underlined token letters the board shows (the player to move's)."""
            return "".join(
                segment.text
                for y in range(view.size.height)
                for segment in view.render_line(y)
                if segment.style is not None and segment.style.underline and segment.text.strip()
            )

        view.show([7, 7], (), current=0)
        await settle(pilot)
        assert underlined() == "A"
        view.show([7, 7], (), current=1)
        await settle(pilot)
        assert underlined() == "B"


async def test_the_players_panel_repaints_only_the_lines_that_changed(make_app) -> None:
    app = make_app(board=load_board("classic"), players=FOUR)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await started(pilot)
        panel = screen.query_one(PlayersPanel)
        panel.show(FOUR, [3, 5, 8, 13], current=0)
        await settle(pilot)
        asked: list[tuple[object, ...]] = []
        original = panel.refresh

        def recording(*regions, **options):  # type: ignore[no-untyped-def]
            asked.append(regions)
            return original(*regions, **options)

        panel.refresh = recording  # type: ignore[method-assign]
        panel.show(FOUR, [9, 5, 8, 13], current=1)  # Ann 3 -> 9, Bob to move
        await settle(pilot)
        rows = sorted(region.y for regions in asked for region in regions)  # type: ignore[attr-defined]
        assert rows == [0, 1] and all(asked)  # never the whole panel (its border, its title)
        lines = str(panel.render()).splitlines()
        assert "Ann: square 9" in lines[0] and "to move" not in lines[0]
        assert "Bob: square 5" in lines[1] and "to move" in lines[1]
