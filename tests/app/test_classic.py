"""Pilot tests of classic mode: rolling, computer turns, the winner dialog, animation."""

from __future__ import annotations

from textual.widgets import Static

from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze, luck
from snl_tui.core.odds.report import luck_text
from snl_tui.core.session import game_seed
from snl_tui.screens.game import GameScreen
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.screens.winner import GameOverScreen, wins
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.move_log import MoveLog

from .helpers import SIZE, cpu, game_screen, record_notes, settle, started, wait_until


async def test_starts_on_the_classic_board_with_you_and_cpu(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        assert isinstance(app.screen, GameScreen)
        assert screen.game.board.goal == 100
        assert [p.name for p in screen.game.players] == ["You", "CPU"]
        assert screen.game.positions == [0, 0]  # classic starts off the board
        board = app.screen.query_one(BoardView)
        assert board.off_board == (0, 1)
        status = str(app.screen.query_one("#status", Static).render())
        assert "press r" in status


async def test_r_rolls_then_the_computer_rolls_by_itself(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) == 2)
        first, second = screen.game.history
        assert first.player == 0 and second.player == 1
        # The same seed replays the same dice in the core alone.
        replay = Game(screen.game.board, screen.game.players, seed=7)
        assert [replay.roll().move.die, replay.roll().move.die] == screen.game.rolls
        log = app.screen.query_one(MoveLog)
        assert log.line_count == 2
        assert "You rolled" in log.lines[0]
        assert "CPU rolled" in log.lines[1]


async def test_space_rolls_too_and_roll_waits_for_the_computer(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        screen.computer_delay = 30  # the computer "thinks" for the whole test
        await pilot.press("space")
        await settle(pilot)
        assert len(screen.game.history) == 1
        assert screen.game.current == 1
        await pilot.press("r")  # not the human's turn: ignored
        await settle(pilot)
        assert len(screen.game.history) == 1
        assert not screen.can_move()


async def test_a_seeded_two_player_game_is_played_to_a_winner(make_app) -> None:
    app = make_app(seed=11)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        for _ in range(2000):
            if screen.game.over:
                break
            if screen.can_move():
                screen.action_roll()
            await pilot.pause()
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        game = screen.game
        assert game.winner is not None
        assert game.positions[game.winner] == 100
        winner = game.players[game.winner].name
        lines = [str(w.render()) for w in app.screen.query(Static)]
        text = "\n".join(lines)
        assert wins(winner) in text
        assert f"won in {game.turns_taken[game.winner]} turns" in text
        # The luck line: the one definition (analysis.luck), worded for quick or long.
        turns = game.turns_taken[game.winner]
        share = luck(analyze(game.board), 2, turns)
        assert luck_text(share, 2, turns) in text
        assert ("A quick game" in text) == (share <= 0.5)
        # The log has every move; the same seed replays the same game in the core.
        assert app.game_screen.query_one(MoveLog).line_count == len(game.history)
        replay = Game(game.board, game.players, seed=11)
        while not replay.over:
            replay.roll()
        assert replay.rolls == game.rolls
        # "New game" from the dialog opens the new-game dialog (as n does); starting
        # there begins the session's next game on the same board: its own seed (derived
        # from 11), and the human (seat 0) rolls first.
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert screen.session.game_index == 1
        assert screen.game.history == []
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) >= 1)
        next_game = Game(game.board, game.players, seed=game_seed(11, 1))
        assert screen.game.history[0].player == 0
        assert screen.game.history[0].move.die == next_game.roll().move.die
        assert game_seed(11, 1) != 11


async def test_computer_players_play_a_whole_game_alone_and_quit_from_the_dialog(
    make_app,
) -> None:
    app = make_app(players=[cpu("Ada"), cpu("Bob"), cpu("Cy")], seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.game_screen.game.over
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


async def test_winner_dialog_escape_closes_it_and_shows_the_final_board(make_app) -> None:
    app = make_app(players=[cpu("Ada")], seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")
        await settle(pilot)
        screen = game_screen(app)
        assert app.screen is screen
        assert screen.game.over
        assert screen.check_action("roll", ()) is False  # gone from the footer
        board = screen.query_one(BoardView)
        assert board.cell_states[100].tokens == (0,)


async def test_animation_steps_the_token_then_jumps(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, players=[Player("You")], seed=1, animate=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        seen: list[int] = []
        view = screen.query_one(BoardView)
        original = view.show

        def spy(positions, route=(), current=None):  # type: ignore[no-untyped-def]
            seen.append(positions[0])
            original(positions, route, current)

        view.show = spy  # type: ignore[method-assign]
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) == 1 and not screen.busy)
        turn = screen.game.history[0]
        # Every counted step was shown, in order, then the end square.
        shown = [s for s in seen if s != 0]
        for square in turn.move.steps:
            assert square in shown
        assert shown[-1] == turn.move.end


async def test_a_toggles_animation(make_app) -> None:
    app = make_app(animate=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.animation_on
        await pilot.press("a")
        assert not screen.animation_on
        await pilot.press("r")
        await settle(pilot)
        assert not screen.busy and len(screen.game.history) >= 1


async def test_six_again_gives_the_same_player_another_roll(make_app) -> None:
    board = load_board("classic", {"six_again": True})
    app = make_app(board=board, players=[Player("You"), cpu()], seed=19)  # seed 19: a 6 first
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        await settle(pilot)
        first = screen.game.history[0]
        assert first.move.die == 6 and first.again
        assert screen.game.current == 0  # still the human's turn
        assert screen.check_action("roll", ()) is True
        assert "again" in str(screen.query_one("#status", Static).render())
        assert "(rolls again)" in screen.query_one(MoveLog).lines[0]


async def test_q_quits_with_exit_code_zero(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


async def test_keys_and_computer_players_wait_while_the_terminal_is_too_small(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.resize_terminal(70, 20)
        await settle(pilot)
        assert screen.has_class("too-small")
        await pilot.press("r")
        await settle(pilot)
        assert screen.game.history == []  # the hidden board did not move
        await pilot.resize_terminal(*SIZE)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) == 2)  # Ann, then Bot
        await pilot.resize_terminal(70, 20)  # Ann's turn again: nothing moves meanwhile
        await settle(pilot, 6)
        assert len(screen.game.history) == 2


async def test_the_status_says_whose_roll_the_die_shows(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) == 2)
        await settle(pilot)
        status = str(screen.query_one("#status", Static).render())
        bot_die = screen.game.history[-1].move.die
        assert status.startswith(f"Bot rolled {bot_die}. Ann:")


async def test_the_rules_are_shown_under_the_board(make_app) -> None:
    app = make_app(board=load_board("bounce-back"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert view.border_subtitle == screen.game.board.rules.describe()
        assert "bounce back" in str(view.border_subtitle)


async def test_an_unwinnable_board_is_announced(make_app, tmp_path) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_text("3 3\n" + "".join(f"{square} 1\n" for square in range(2, 8)))
    app = make_app(board=load_board(str(wall)), players=[Player("Ann")])
    notes = record_notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await settle(pilot)
        assert any("cannot be reached" in note for note in notes)
