"""Pilot tests of the hint panel (h), the route overlay (o) and the board widget."""

from __future__ import annotations

from textual.widgets import Static

from snl_tui.core.board import Board
from snl_tui.core.engine import Player, next_position
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.rules import Rules
from snl_tui.core.solver import optimal_route
from snl_tui.widgets.board import CELL_HEIGHT, BoardView
from snl_tui.widgets.hint_panel import HintPanel, OddsChart

from .helpers import SIZE, computed, cpu, game_screen, settle, started


async def hint_text(pilot) -> str:  # type: ignore[no-untyped-def]
    """The hint panel's text once its workers are done."""
    await computed(pilot)
    panel = pilot.app.screen.query_one(HintPanel)
    return "\n".join(str(w.render()) for w in panel.query(Static))


async def test_h_toggles_the_hint_panel_with_solver_and_odds(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, players=[Player("Ann"), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        panel = app.screen.query_one(HintPanel)
        assert not panel.display
        await pilot.press("h")
        assert panel.display
        text = await hint_text(pilot)
        route = optimal_route(board, 0)
        assert "Least rolls left: 7" in text
        # Classic mode: the dice are random, so the next roll's jumps, not "optimal dice"
        # (issue 33: "Optimal dice: 1, 2, 3, 4, 5, 6" meant nothing there).
        assert "Optimal dice" not in text
        assert "Next roll: ladder 1 (to 38), ladder 4 (to 14), ladder 9" not in text
        assert "Next roll: ladder 1 (to 38), ladder 4 (to 14)" in text
        assert f"{route.rolls[0]}→{route.squares[0]}" in text
        odds = analyze(board, players=2)
        assert f"Expected turns left: {odds.expected_turns:.1f}" in text  # 39.2 on classic
        assert "Finish in 5 / 10 turns: " in text and "% / " in text
        assert "Win chances: Ann" in text and "Bot" in text
        chart = panel.query_one(OddsChart)
        assert chart.display and chart.distribution and chart.label.startswith("Finishing turn")
        await pilot.press("h")
        assert not panel.display


async def test_hint_follows_every_move(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("h", "r")
        await settle(pilot, 5)
        assert len(screen.game.history) == 2  # Ann and Bot rolled
        square = screen.game.positions[0]
        text = await hint_text(pilot)
        where = "off the board" if square == 0 else f"on {square}"
        assert f"Ann {where}" in text
        chances = analyze(
            screen.game.board, players=2, positions=screen.game.positions, to_move=0
        ).win_chances
        assert f"Ann {chances[0]:.0%}" in text


async def test_hint_says_unreachable(make_app) -> None:
    # A two-sided die from square 1 lands on 2 or 3, and both snakes lead back to 1.
    board = Board.from_jumps(1, 4, snakes=[(2, 1), (3, 1)], rules=Rules(faces=2))
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        text = await hint_text(pilot)
        assert "Goal unreachable from here." in text
        assert "Expected turns left: never" in text
        await pilot.press("o")
        await settle(pilot)
        assert not game_screen(app).session.route_on


async def test_o_shows_the_route_with_step_numbers_and_follows_the_player(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        view = screen.query_one(BoardView)
        await pilot.press("o")
        route = optimal_route(board, 0)
        steps = {s: view.cell_states[s].route_step for s in route.squares}
        assert steps == {s: i for i, s in enumerate(route.squares, start=1)}
        # Staying on the route: the overlay keeps the remaining steps, renumbered.
        await pilot.press(str(route.rolls[0]))
        await settle(pilot)
        assert screen.session.route_on
        remaining = route.squares[1:]
        assert [view.cell_states[s].route_step for s in remaining] == list(
            range(1, len(remaining) + 1)
        )
        assert view.cell_states.get(route.squares[0]).route_step is None  # type: ignore[union-attr]
        # Leaving it: the overlay turns itself off.
        here = screen.game.position
        off_route = next(
            d
            for d in screen.game.legal_dice()
            if next_position(board, here, d) not in remaining
            and next_position(board, here, d) != here
        )
        await pilot.press(str(off_route))
        await settle(pilot)
        assert not screen.session.route_on
        assert all(state.route_step is None for state in view.cell_states.values())
        # And o toggles it back on, from the new square.
        await pilot.press("o")
        assert screen.session.route_on
        assert screen.session.route == optimal_route(board, screen.game.position).squares
        await pilot.press("o")
        assert not screen.session.route_on


async def test_board_draws_numbers_jumps_goal_tokens_and_route(make_app) -> None:
    app = make_app(players=[Player("Ann"), Player("Bob")], mode="classic")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        view.jumps_drawn = False  # the squares' own text, without the drawn jumps
        view.show([28, 28], [84, 90], current=0)
        await settle(pilot)
        board = screen.game.board

        def cell(square: int, part: int) -> str:
            row, col = board.position_of(square)
            line = view.paint_line(row * CELL_HEIGHT + part).text
            return line[col * view.cell_width : (col + 1) * view.cell_width]

        assert cell(28, 0).strip() == "28"
        assert cell(28, 1).strip() == "▲84"
        assert cell(28, 2).strip() == "AB"  # two tokens on one square, both visible
        assert cell(16, 1).strip() == "▼6"
        assert cell(84, 1).strip() == "△"  # a ladder ends here
        assert cell(84, 0).split() == ["84", "»1"]
        assert cell(90, 0).split() == ["90", "»2"]
        assert cell(100, 1).strip().startswith("GOAL")
        # Every square's number is on the board.
        for square in range(1, 101):
            assert cell(square, 0).split()[0] == str(square)


async def test_a_move_repaints_only_the_rows_that_changed(make_app) -> None:
    app = make_app(board=load_board("everest"), players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        view = screen.query_one(BoardView)
        await settle(pilot)
        before = view.lines_painted
        assert before > 0
        screen.action_roll()
        await settle(pilot)
        # Old and new square's rows plus the off-board line: a handful of lines.
        assert 0 < view.lines_painted - before <= 2 * CELL_HEIGHT + 1


async def test_large_board_scrolls_to_follow_the_token(make_app) -> None:
    board = load_board("everest")
    app = make_app(board=board, players=[Player("Ann")], mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        view = screen.query_one(BoardView)
        assert view.virtual_size.width > view.size.width  # 20x20 does not fit: it scrolls
        route = optimal_route(board, 1)
        for die in route.rolls[:5]:
            screen.action_pick(die)
            await settle(pilot)
        square = screen.game.position
        row, col = board.position_of(square)
        top = row * CELL_HEIGHT
        assert view.scroll_offset.y <= top < view.scroll_offset.y + view.size.height
        left = col * view.cell_width
        assert view.scroll_offset.x <= left < view.scroll_offset.x + view.size.width


def test_hint_route_text_spells_out_a_short_route_and_elides_a_long_one():
    from snl_tui.core.board import Board
    from snl_tui.widgets.hint_panel import ROUTE_SHOWN, route_text

    assert route_text(Board(1, 13), 1) == "6→7, 6→13"
    long_text = route_text(Board(1, 300), 1)
    assert long_text.count("→") == ROUTE_SHOWN
    assert long_text.endswith(f", … {50 - ROUTE_SHOWN} more")
