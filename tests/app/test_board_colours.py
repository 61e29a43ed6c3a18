"""Every square's number and label stays readable in every built-in theme."""

from __future__ import annotations

from rich.color import Color

from snl_tui.widgets.board import CELL_HEIGHT, BoardView

from .helpers import SIZE, settle, started


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        value_ = value / 255
        return value_ / 12.92 if value_ <= 0.03928 else ((value_ + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast(one: Color, other: Color) -> float:
    """WCAG contrast ratio, 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_numbers_and_labels_contrast_with_their_squares_in_every_theme(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        # Tokens on a ladder square, a route over a ladder's end and the goal.
        view.show([28, 28], [84, 90, 100], current=0)
        themes = sorted(name for name in app.available_themes if not name.startswith("ansi"))
        assert len(themes) > 10
        for theme in themes:
            app.theme = theme
            await settle(pilot)
            view.render_line(0)  # picks up the new palette
            numbers, labels = [], []
            for line in range(CELL_HEIGHT * view.board.rows):
                for segment in view.paint_line(line):
                    style = segment.style
                    if not segment.text.strip() or style is None:
                        continue
                    assert style.color is not None and style.bgcolor is not None
                    ratio = contrast(style.color, style.bgcolor)
                    kind = numbers if segment.text.strip()[0].isdigit() else labels
                    kind.append((ratio, segment.text))
            assert min(numbers)[0] >= 3.0, (theme, min(numbers))
            assert min(labels)[0] >= 2.0, (theme, min(labels))


async def test_each_seat_has_one_colour_on_the_board_and_in_the_players_panel(make_app) -> None:
    from snl_tui.core.colours import SEAT_COLOURS
    from snl_tui.core.engine import Player
    from snl_tui.widgets.players import PlayersPanel

    players = [Player(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    app = make_app(players=players)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        panel = screen.query_one(PlayersPanel)
        for theme in ("textual-dark", "textual-light", "nord"):
            app.theme = theme
            await settle(pilot)
            for seat, colour in enumerate(SEAT_COLOURS):
                fill, letter = Color.parse(colour.fill), Color.parse(colour.letter)
                on_board = view._token_style(seat, view.rich_style)
                in_panel = panel.get_component_rich_style(f"board--token-{seat + 1}")
                for style in (on_board, in_panel):
                    assert (style.bgcolor, style.color) == (fill, letter), (theme, seat)


async def test_the_move_log_names_each_mover_in_their_seats_colour(make_app) -> None:
    from snl_tui.core.colours import SEAT_COLOURS
    from snl_tui.core.engine import Player
    from snl_tui.widgets.move_log import MoveLog

    app = make_app(players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        for _ in range(2):
            screen.action_roll()
            await settle(pilot)
        log = screen.query_one(MoveLog)
        for row, (seat, name) in ((0, (0, "Ann")), (1, (1, "Bob"))):
            strip = log.row_strip(row, log.rich_style)
            named = [segment for segment in strip if segment.text == name]
            assert named, (row, [segment.text for segment in strip])
            assert named[0].style is not None
            assert named[0].style.bgcolor == Color.parse(SEAT_COLOURS[seat].fill)
