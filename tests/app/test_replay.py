"""The replay goes back as well as forward, jumps to a move, and opens from the winner
dialog (issue 18, item 10)."""

from __future__ import annotations

from textual.widgets import Input

from snl_tui.app import SnlApp
from snl_tui.core.engine import Game
from snl_tui.core.store.games import open_store
from snl_tui.screens.game import GameScreen
from snl_tui.screens.replay import ReplayScreen
from snl_tui.screens.winner import GameOverScreen
from snl_tui.widgets.move_log import MoveLog

from .helpers import SIZE, started, wait_until
from .test_saved_games import PLAYERS, quiet, replay_app


def positions_after(replay: ReplayScreen, moves: int) -> list[int]:
    game = Game(replay.game.board, replay.game.players, replay.game.seed)
    for die in replay.rolls[:moves]:
        game.play(die)
    return list(game.positions)


async def test_back_and_go_to_show_the_game_as_it_stood():
    session, app, replay = replay_app(open_store(), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: replay.finished)
        total = len(session.game.rolls)
        await pilot.press("b")
        assert replay.shown == total - 1 and replay.paused and not replay.finished
        assert list(replay.game.positions) == positions_after(replay, total - 1)
        await pilot.press("left", "left")
        assert replay.shown == total - 3
        assert len(replay.query_one(MoveLog).move_texts) == total - 3
        await pilot.press("g")
        move_input = replay.query_one("#move-input", Input)
        assert move_input.display and move_input.has_focus
        await pilot.press("4", "enter")
        assert replay.shown == 4 and list(replay.game.positions) == positions_after(replay, 4)
        await pilot.press("g", "9", "9", "enter")  # out of range: said, nothing moves
        assert replay.shown == 4 and "from 0 to" in str(replay.query_one("#status").render())
        await pilot.press("n")
        await wait_until(pilot, lambda: replay.shown == 5)
        await pilot.press("space")
        await wait_until(pilot, lambda: replay.finished)
        assert replay.game.positions == session.game.positions
        await pilot.press("g", "0", "enter")
        assert replay.shown == 0 and "At the start" not in str(replay.query_one("#status").render())
        await pilot.press("b")
        assert "At the start" in str(replay.query_one("#status").render())


async def test_the_winner_dialog_replays_the_game_and_q_comes_back():
    app = quiet(SnlApp(players=PLAYERS[1:], seed=2, animate=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), limit=20_000)
        rolls = list(screen.session.game.rolls)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.rolls == rolls
        await wait_until(pilot, lambda: replay.finished, limit=20_000)
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.is_running and list(screen.session.game.rolls) == rolls


async def test_escape_or_a_click_elsewhere_leaves_go_to_and_q_quits_again():
    """``g`` asks for a move; a player who changes their mind presses Escape (or
    clicks the board) and ``q`` quits again: it once went into the forgotten input
    for good (issue 40)."""
    _, app, replay = replay_app(open_store(), animate=False)
    replay.running.clear()
    async with app.run_test(size=SIZE) as pilot:
        move_input = replay.query_one("#move-input", Input)
        await pilot.press("g")
        assert move_input.display and move_input.has_focus
        await pilot.press("escape")
        assert not move_input.display and not move_input.has_focus
        await pilot.press("g")
        await pilot.click("#board", offset=(2, 2))
        assert not move_input.display
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running and app.return_code == 0
