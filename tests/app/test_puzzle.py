"""Pilot tests of puzzle mode: chosen dice, refusals with reasons, undo, the score."""

from __future__ import annotations

from textual.widgets import Button, Input, Static

from snl_tui.core.engine import Player, move
from snl_tui.core.files.formats import load_board
from snl_tui.core.rules import Rules
from snl_tui.core.solver import least_rolls_from, optimal_dice, optimal_route
from snl_tui.core.text import plural
from snl_tui.screens.game import GameScreen
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.screens.winner import GameOverScreen
from snl_tui.widgets.move_log import MoveLog

from .helpers import SIZE, game_screen, record_notes, settle, started, wait_until


def status_text(screen: GameScreen) -> str:
    return str(screen.query_one("#status", Static).render())


def dialog_text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


async def test_puzzle_solved_optimally_with_the_number_keys(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert len(screen.game.players) == 1
        assert screen.check_action("roll", ()) is False  # no random roll in puzzle mode
        route = optimal_route(board, 0)
        for die in route.rolls:
            await pilot.press(str(die))
            await settle(pilot, 2)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        text = dialog_text(app)
        assert f"Solved in {route.moves} moves (optimal: {route.moves})" in text
        assert "optimal solution" in text
        assert screen.game.positions == [100]


async def test_puzzle_solved_sub_optimally_is_scored_against_the_optimum(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)  # the puzzle waits for its optimum
        optimal = least_rolls_from(board, 0)
        # A first die that is not optimal, then the optimal route from there on.
        detour = next(d for d in range(1, 7) if d not in optimal_dice(board, 0))
        screen.action_pick(detour)
        await settle(pilot)
        rest = optimal_route(board, screen.game.position)
        for die in rest.rolls:
            screen.action_pick(die)
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        moves = 1 + rest.moves
        assert moves > optimal
        assert f"Solved in {moves} moves (optimal: {optimal})" in dialog_text(app)


async def test_an_overshooting_die_is_refused_with_the_reason(make_app) -> None:
    board = load_board("leetcode-2")  # 2x2: from square 1 only 1..3 reach the goal exactly
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("6")
        await settle(pilot)
        assert screen.game.history == []
        assert status_text(screen) == "6 would overshoot the goal: exact finish needed."
        assert screen.query_one("#status", Static).has_class("-error")


async def test_a_die_value_beyond_the_faces_is_refused(make_app) -> None:
    app = make_app(mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("9")
        await settle(pilot)
        assert screen.game.history == []
        assert "6-sided die cannot roll 9" in status_text(screen)


async def test_u_undoes_the_last_move(make_app) -> None:
    app = make_app(mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.check_action("undo", ()) is None  # nothing to undo yet
        await pilot.press("4")  # 0 -> 4, ladder to 14
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert screen.game.positions == [16 - 10]  # 14 + 2 = 16, snake to 6
        await pilot.press("u")
        await settle(pilot)
        assert screen.game.positions == [14]
        assert screen.query_one("MoveLog").line_count == 1  # type: ignore[attr-defined]
        await pilot.press("u")
        await settle(pilot)
        assert screen.game.positions == [0]


async def test_d_asks_for_die_values_above_nine(make_app) -> None:
    board = load_board("classic").with_rules(Rules(start=0, faces=12))
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("d")
        die_input = screen.query_one("#die-input", Input)
        assert die_input.display and die_input.has_focus
        await pilot.press("1", "2", "enter")
        await settle(pilot)
        assert screen.game.rolls == [12]
        assert not die_input.display
        await pilot.press("d", "x", "enter")  # the integer input refuses letters
        await settle(pilot)
        assert screen.game.rolls == [12]


async def test_m_switches_between_classic_and_puzzle(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("m")
        await settle(pilot)
        assert screen.mode == "puzzle" and len(screen.game.players) == 1
        assert screen.game.players[0].name == "You"
        await pilot.press("m")
        await settle(pilot)
        assert screen.mode == "classic" and len(screen.game.players) == 2


async def test_a_move_off_the_optimal_route_says_so(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)

        def detours(square: int) -> list[int]:
            return [d for d in range(1, 7) if d not in optimal_dice(board, square)]

        # An optimal first move after which a non-optimal die exists.
        best = next(d for d in optimal_dice(board, 0) if detours(move(board, 0, d).end))
        screen.action_pick(best)
        await settle(pilot)
        assert "Not optimal" not in status_text(screen)
        square = screen.game.position
        least = least_rolls_from(board, square)
        detour = detours(square)[0]
        screen.action_pick(detour)
        await settle(pilot)
        now = least_rolls_from(board, screen.game.position)
        best = " or ".join(str(d) for d in optimal_dice(board, square))
        assert status_text(screen).startswith(
            f"Not optimal: {plural(now, 'roll')} left now; rolling a {best} would have left "
            f"{plural(least - 1, 'roll')}. Move 3:"
        )
        await pilot.press("u")  # taking the move back takes the note away
        await settle(pilot)
        assert "Not optimal" not in status_text(screen)


async def test_try_again_restarts_the_same_puzzle(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        detour = next(d for d in range(1, 7) if d not in optimal_dice(board, 0))
        screen.action_pick(detour)
        await settle(pilot)
        for die in optimal_route(board, screen.game.position).rolls:
            screen.action_pick(die)
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert "more than the optimum: try again?" in dialog_text(app)
        assert app.screen.query_one("#retry", Button).has_focus
        await pilot.press("t")
        await settle(pilot)
        assert app.screen is screen
        assert screen.game.board is board and screen.mode == "puzzle"
        assert screen.game.history == [] and screen.game.positions == [0]
        assert screen.query_one(MoveLog).line_count == 0


async def test_new_game_after_a_puzzle_asks_what_to_play(make_app) -> None:
    board = load_board("leetcode-2")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        for die in optimal_route(board, screen.game.position).rolls:
            screen.action_pick(die)
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


async def test_the_classic_winner_dialog_has_no_try_again(make_app) -> None:
    app = make_app(board=load_board("leetcode-2"), players=[Player("Ann")], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        while not screen.game.over:
            screen.action_roll()
            await settle(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert not app.screen.query("#retry")
        await pilot.press("t")  # not offered: nothing happens
        await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)


async def test_undo_after_the_solved_dialog_reopens_the_puzzle(make_app) -> None:
    board = load_board("leetcode-1")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        route = optimal_route(board, 1)
        for die in route.rolls:
            await pilot.press(str(die))
            await settle(pilot, 2)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")  # look at the board instead of choosing
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert not screen.game.over and screen.game.positions == [route.squares[-2]]
        assert "reached the goal" not in status_text(screen)
        players = screen.query_one("#players")
        assert "winner" not in str(players.render())
        await pilot.press(str(route.rolls[-1]))  # and it can be finished again
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))


async def test_a_finishing_die_missed_is_named(make_app) -> None:
    board = load_board("leetcode-2")  # 2x2: from square 1 a 3 finishes at once
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        assert 3 in optimal_dice(board, 1)
        detour = next(d for d in range(1, 7) if d in screen.game.legal_dice() and d != 3)
        screen.action_pick(detour)
        await settle(pilot)
        best = " or ".join(str(d) for d in optimal_dice(board, 1))
        assert status_text(screen).startswith(f"Not optimal: rolling a {best} would have finished;")


async def test_a_puzzle_names_its_player_only_when_a_human_sits_out(make_app) -> None:
    quiet = make_app(players=[Player("You"), Player("CPU", computer=True)], mode="puzzle")
    quiet_notes = record_notes(quiet)
    async with quiet.run_test(size=SIZE) as pilot:
        await started(pilot)
        await settle(pilot)
        assert not any("puzzle has one" in note for note in quiet_notes)
    told = make_app(players=[Player("Ann"), Player("Bob")], mode="puzzle")
    told_notes = record_notes(told)
    async with told.run_test(size=SIZE) as pilot:
        await started(pilot)
        await settle(pilot)
        assert "A puzzle has one player: Ann. Bob sits out." in told_notes
