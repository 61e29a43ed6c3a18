"""The game screen over the session: dialogs dismissed once whatever the keys, text from
files and players shown literally, keys in prose that follow the command table, and
heavy work that never makes a key wait."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.widgets import Static

from snl_tui import commands
from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.screens.game import GameScreen
from snl_tui.screens.help import help_text
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.screens.winner import GameOverScreen, button_label
from snl_tui.widgets.title_bar import TitleBar

from .helpers import SIZE, computed, cpu, settle, started, wait_until


@pytest.mark.parametrize("keys", [("l", "enter", "enter"), ("n", "enter", "enter")])
async def test_enter_twice_in_a_dialog_dismisses_it_once(make_app, keys) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press(*keys)  # one burst, as a fast typist does
        await computed(pilot)
        assert app.screen is screen  # the game screen stays: only the dialog went
        assert len(app.screen_stack) == 1
        await pilot.press("question_mark", "question_mark", "question_mark")
        await settle(pilot)
        assert len(app.screen_stack) == 2  # help opened, closed once, opened again


async def test_the_winner_dialog_is_dismissed_once(make_app) -> None:
    app = make_app(players=[cpu("Ada")], seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1


@pytest.mark.parametrize("name", ["[/]", "[b]ok", "[red]x[/red]"])
async def test_board_and_player_names_are_shown_literally(make_app, name) -> None:
    board = Board(3, 3, [(2, 8)], name=name, description=f"about {name}")
    app = make_app(board=board, players=[Player(name), cpu(f"{name}2")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await computed(pilot)
        title = screen.query_one("#board").border_title
        assert title is not None and name in title.replace("\\[", "[")
        assert name not in str(screen.query_one(TitleBar).render())  # said once: on the board
        screen.action_toggle_hint()
        await computed(pilot)
        hint = "\n".join(str(w.render()) for w in screen.query("#hint Static").results(Static))
        assert name in hint
        # Loading it again through the dialog's path (the title is redrawn).
        screen.restart(screen.settings.with_changes(board=board))
        await computed(pilot)
        assert app.screen is screen


async def test_prose_follows_a_rebinding(monkeypatch) -> None:
    table = tuple(
        replace(command, keys="x,enter") if command.action == "roll" else command
        for command in commands.GAME_COMMANDS
    )
    table = tuple(
        replace(command, keys="k") if command.action == "choose_die" else command
        for command in table
    )
    monkeypatch.setattr(commands, "GAME_COMMANDS", table)
    assert commands.keys_of("roll") == "x or enter"
    text = help_text()
    assert "`x` or `Enter`" in text  # the prose about classic mode
    assert "press `k` and type any value" in text
    bindings = {b.action: b for b in commands.game_bindings() if not isinstance(b, tuple)}
    assert bindings["choose_die"].key_display == "1-9/k"
    assert "k asks for 10-20" in (bindings["choose_die"].tooltip or "")


async def test_the_status_line_names_the_bound_keys(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        status = str(screen.query_one("#status", Static).render())
        assert status == f"Ann: press {commands.keys_of('roll')} to roll."


def test_winner_buttons_are_labelled_from_the_dialogs_bindings(monkeypatch) -> None:
    assert button_label("retry") == "Try again (t)"
    bindings = [
        replace(b, key="y") if b.action == "choose('retry')" else b
        for b in GameOverScreen.BINDINGS
        if not isinstance(b, tuple)
    ]
    monkeypatch.setattr(GameOverScreen, "BINDINGS", bindings)
    assert button_label("retry") == "Try again (y)"


async def test_keys_do_not_wait_for_the_hint(make_app) -> None:
    """The odds run in a worker: a roll right after h is applied at once."""
    app = make_app(players=[Player("Ann"), Player("Bob")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        screen.action_toggle_hint()
        screen.action_roll()  # no await between: the hint's worker may still be running
        assert len(screen.game.history) == 1
        await computed(pilot)
        text = "\n".join(str(w.render()) for w in screen.query("#hint Static").results(Static))
        assert "Bob" in text and "Computing" not in text


async def test_the_new_game_dialog_keeps_the_empty_name_error(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#players-input").value = "Ann,,Bob"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog  # refused, not silently two players
        assert "empty name" in str(dialog.query_one("#new-game-error", Static).render())
        assert screen.game.players == (Player("Ann"),)
