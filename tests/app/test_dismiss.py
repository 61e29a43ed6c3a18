"""Screens close once, and only themselves (issue 10, found by key mashing in tmux).

Textual's ``dismiss`` pops whatever screen is on top. A choice handled just after
``ctrl+p`` opened the command palette (``l``, Enter, ``ctrl+p`` in one burst: the
dialog's Enter is a message it handles after the palette is pushed) used to pop the
palette instead of the dialog, and the dialog, counting itself closed, then ignored
Escape for good. And a palette closed before it had mounted crashed the app from
its mount handler.

The order of events the terminal produced is made here step by step, so it happens
every run instead of one run in a few.
"""

from __future__ import annotations

from textual.command import CommandPalette

from snl_tui.core.files.formats import load_board
from snl_tui.palette import SnlCommandPalette
from snl_tui.screens.editor import EditorScreen
from snl_tui.screens.load_board import LoadBoardScreen
from snl_tui.screens.new_game import NewGameScreen

from .helpers import SIZE, settle, started, wait_until


async def test_a_choice_handled_after_the_palette_opened_waits_for_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        game.action_load_board()
        await wait_until(pilot, lambda: isinstance(app.screen, LoadBoardScreen))
        dialog = app.screen
        assert isinstance(dialog, LoadBoardScreen)
        await wait_until(pilot, lambda: dialog.is_mounted)
        app.action_command_palette()  # ctrl+p
        palette = app.screen
        assert isinstance(palette, SnlCommandPalette)
        dialog.try_load("leetcode-2")  # the Enter the dialog handles only now
        await settle(pilot)
        # The palette is neither popped nor half-closed, and the dialog still waits.
        assert app.screen is palette and palette.is_attached and not palette.dismissed
        assert app.screen_stack == [game, dialog, palette]
        await pilot.press("escape")  # the palette closes: the dialog's choice goes through
        await wait_until(pilot, lambda: not dialog.is_attached)
        # No move was made yet, so the board is played without a question.
        await wait_until(pilot, lambda: game.settings.board == load_board("leetcode-2"))
        assert app.screen is game
    assert app.return_code in (None, 0)


async def test_escape_still_closes_a_dialog_after_the_palette_over_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        board = game.settings.board
        game.action_new_game()
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        dialog = app.screen
        app.action_command_palette()
        dialog.dismiss(None)  # an Escape handled late: waits for the palette
        dialog.dismiss(None)  # and a second one is still only one
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        assert game.settings.board is board  # cancelled: the same game goes on
        await pilot.press("n")  # and the dialog opens (and closes) again as usual
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)


async def test_a_palette_closed_before_it_mounted_does_not_crash(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        for _ in range(3):
            app.action_command_palette()  # ctrl+p and Escape in one burst: the
            palette = app.screen  # palette closes before it has mounted
            assert isinstance(palette, SnlCommandPalette) and not palette.is_mounted
            palette.dismiss()
            await settle(pilot)
            assert app.screen is game
        # The next ctrl+p gives a palette that works.
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, SnlCommandPalette))
        await pilot.press(*"toggle hint")
        await wait_until(pilot, lambda: app.screen is not game and app.screen.has_class("-ready"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is game and game.hint_visible)
    assert app.return_code in (None, 0)


async def test_the_editor_leaves_only_from_the_top(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        editor = EditorScreen(load_board("classic"))
        results: list[object] = []
        app.push_screen(editor, results.append)
        await wait_until(pilot, lambda: app.screen is editor and editor.is_mounted)
        app.action_command_palette()
        palette = app.screen
        editor.dismiss(None)  # "discard" answered as ctrl+p arrives
        await settle(pilot)
        assert app.screen is palette and results == []
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        assert results == [None]


async def test_dialogs_stay_see_through_over_the_game(make_app) -> None:
    """The mixin must not hide ``ModalScreen`` from Textual's CSS (it takes a screen's
    default CSS from its first Textual base): a dialog dims the game, never blanks it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        game.action_new_game()
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await settle(pilot)
        assert 0 < app.screen.styles.background.a < 1
        assert game.styles.background.a == 1
