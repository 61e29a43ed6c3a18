"""Pilot tests for the rough edges a new player met (issue 13): asking before a game in
progress is replaced, the winner dialog's new game, the die keys in the footer, keys that
explain themselves, and why the odds are unavailable."""

from __future__ import annotations

from textual.widgets import Footer, Input, Static

from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.rules import Rules
from snl_tui.screens.confirm import ConfirmScreen
from snl_tui.screens.game import GameScreen
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.screens.winner import GameOverScreen
from snl_tui.widgets.board import BoardView

from .helpers import SIZE, computed, cpu, game_screen, settle, started, wait_until


def status_text(screen: GameScreen) -> str:
    return str(screen.query_one("#status", Static).render())


def footer_keys(screen: GameScreen) -> dict[str, str]:
    """What the footer shows: key display -> label, for the enabled keys."""
    footer = screen.query_one(Footer)
    # Footer keys are queried by their CSS type name: their class is private to Textual.
    return {key.key_display: key.description for key in footer.query("FooterKey")}  # type: ignore[attr-defined]


async def test_switching_mode_asks_first_when_the_game_has_moves(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("m")  # no move yet: switches at once
        await settle(pilot)
        assert screen.mode == "puzzle" and app.screen is screen
        screen.action_pick(3)
        await settle(pilot)
        assert len(screen.game.history) == 1
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # no: the game goes on
        await settle(pilot)
        assert app.screen is screen and screen.mode == "puzzle"
        assert len(screen.game.history) == 1
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("enter", "enter")  # yes, twice: one switch and no crash
        await settle(pilot)
        assert app.screen is screen and screen.mode == "classic"
        assert screen.game.history == []


async def test_loading_a_board_asks_first_when_the_game_has_moves(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        screen.action_roll()
        await settle(pilot)
        before = screen.game
        screen._board_chosen(load_board("river"))
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.game is before
        screen._board_chosen(load_board("river"))
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert screen.game.board.name == "River" and screen.game.history == []


async def test_the_winner_dialogs_new_game_opens_the_new_game_dialog(make_app) -> None:
    app = make_app(players=[cpu("Ada"), cpu("Bob")], seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        text = "\n".join(str(w.render()) for w in app.screen.query(Static))
        assert " of 2-player games end within " in text
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


async def test_the_footer_offers_the_die_keys_a_six_sided_die_has(make_app) -> None:
    app = make_app(mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        keys = footer_keys(screen)
        assert "1-6" in keys and "1-9/d" not in keys
        await pilot.press("d")  # no box for values a 6-sided die cannot roll
        await settle(pilot)
        assert not any(box.display for box in screen.query("#die-input"))
        assert "press 1-6" in status_text(screen)


async def test_the_footer_stays_while_the_die_box_is_open(make_app) -> None:
    board = Board.from_jumps(10, 10, rules=Rules(faces=12))
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        assert "1-9/d" in footer_keys(screen)
        await pilot.press("d")
        await settle(pilot)
        assert screen.query_one("#die-input", Input).has_focus
        keys = footer_keys(screen)
        assert "?" in keys and len(keys) >= 3
        await pilot.press("h")  # the game's keys still work while the box is open
        await settle(pilot)
        assert screen.hint_visible
        await pilot.press("1", "2", "enter")  # and digits go into the box
        await wait_until(pilot, lambda: len(screen.game.history) == 1)
        assert screen.game.history[0].move.die == 12


async def test_r_after_the_winner_dialog_explains_instead_of_nothing(make_app) -> None:
    app = make_app(players=[cpu("Ada")], seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")
        await settle(pilot)
        screen = game_screen(app)
        assert "r" not in footer_keys(screen)
        await pilot.press("r")
        await settle(pilot)
        assert "The game is over: n starts a new one." in status_text(screen)


async def test_u_in_classic_mode_explains_instead_of_nothing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        screen.action_roll()
        await wait_until(pilot, lambda: screen.can_move())
        moves = len(screen.game.history)
        await pilot.press("u")
        await settle(pilot)
        assert "Undo is for puzzle mode" in status_text(screen)
        assert len(screen.game.history) == moves


async def test_the_hint_says_why_the_chances_are_left_out(make_app) -> None:
    board = Board.from_jumps(201, 201)  # past the distribution's limit (40,000 squares)
    app = make_app(board=board)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("h")
        await computed(pilot)
        odds = str(screen.query_one("#hint-text", Static).render())
        assert "Expected turns left:" in odds
        assert "(chances left out: 40,401 squares > 40,000)" in odds


def view_text(view: BoardView) -> list[str]:
    return [view.render_line(y).text for y in range(view.size.height)]


async def test_a_board_scrolled_sideways_shows_whole_squares_and_a_fixed_legend(
    make_app,
) -> None:
    board = Board.from_jumps(20, 40)  # 800 squares: wider than the view, and taller
    app = make_app(board=board, players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert view.max_scroll_x > 0 and view.max_scroll_y > 0
        width = view.cell_width
        view.scroll_to(width + 2, 0, animate=False)  # mid-square
        await settle(pilot)
        first_col = 2  # rounded up to the next whole square
        pad_y = view._offsets()[1]
        shown = view.render_line(pad_y).text
        painted = view.paint_line(0).text
        assert shown[:width] == painted[first_col * width : (first_col + 1) * width]
        assert (
            shown.rstrip()
            == painted[first_col * width :][: len(shown)].rstrip()[: len(shown.rstrip())]
        )
        assert len(shown.rstrip()) <= view.size.width // width * width
        # The legend is in view though the board is scrolled to its top, uncut.
        text = view_text(view)
        assert text[-1].startswith("▲ ladder")
        # A click maps to the square drawn under it.
        row_square = board.square_at(0, first_col)
        assert view.square_at_offset(1, pad_y) == row_square


async def test_the_view_follows_the_winner_to_the_goal(make_app) -> None:
    board = Board.from_jumps(30, 30, ladders=[(2, 900)])
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        await settle(pilot)
        assert view.scroll_offset.y > 0  # the start, at the bottom, is in view
        screen.action_pick(1)  # up the ladder to the goal, on the top row
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await settle(pilot)
        assert view.scroll_offset.y == 0


async def test_clicking_a_square_says_what_it_holds(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        row, col = view.board.position_of(28)  # classic: a ladder to 84
        pad_x, pad_y = view._offsets()
        inset = view.content_region.offset - view.region.offset
        x = inset.x + pad_x + col * view.cell_width + 1
        y = inset.y + pad_y + row * view.cell_height + 1
        assert await pilot.click(BoardView, offset=(x, y))
        await computed(pilot)
        text = status_text(screen)
        assert text.startswith("Square 28: ladder to 84;") and "left on average" in text


async def test_clicking_a_die_value_plays_it_in_a_puzzle(make_app) -> None:
    app = make_app(mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        values = screen.query_one("#die-values", Static)
        assert values.display and str(values.render()).startswith("Play: 1 2 3 4 5 6")
        # "Play: " is 6 columns, then "1 2 3 ...": value 4 is at column 6 + 2 * 3.
        assert await pilot.click("#die-values", offset=(1 + 6 + 2 * 3, 0))
        await wait_until(pilot, lambda: len(screen.game.history) == 1)
        assert screen.game.history[0].move.die == 4


async def test_the_load_dialog_checks_each_board_file(make_app, tmp_path) -> None:
    from snl_tui.screens.load_board import LoadBoardScreen

    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "good.json").write_text("[[-1, -1], [-1, -1]]")
    (boards / "broken.toml").write_text("rows = 'many'\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        app.push_screen(LoadBoardScreen(folder=tmp_path))
        await computed(pilot)
        options = app.screen.query_one("#board-list")
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        good = next(p for p in prompts if "good.json" in p)
        broken = next(p for p in prompts if "broken.toml" in p)
        assert "2x2" in good and "least rolls 1" in good
        assert "broken:" in broken and "checking" not in broken


async def test_a_clicked_square_s_odds_are_where_the_engine_lands_the_token(make_app) -> None:
    """Under ``chain`` a token landing on 3 climbs to 10 and slides on to 2: the odds
    shown for square 3 are square 2's, not the first jump's end."""
    from snl_tui.core.odds.markov import expected_turns
    from snl_tui.core.rules import Rules
    from snl_tui.core.text import turns_text

    board = Board(4, 4, [(3, 10), (10, 2)], rules=Rules(chain=True))
    rests, first_end = expected_turns(board, 2), expected_turns(board, 10)
    assert turns_text(rests, 1) != turns_text(first_end, 1)
    app = make_app(board=board, players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        row, col = view.board.position_of(3)
        pad_x, pad_y = view._offsets()
        inset = view.content_region.offset - view.region.offset
        x = inset.x + pad_x + col * view.cell_width + 1
        y = inset.y + pad_y + row * view.cell_height + 1
        assert await pilot.click(BoardView, offset=(x, y))
        await computed(pilot)
        text = status_text(screen)
        assert text.startswith("Square 3: ladder to 10;")
        assert f"{turns_text(rests, 1)} left on average" in text
