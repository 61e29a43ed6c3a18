"""Pilot tests of the dialogs (load board, new game, help), the palette and small terminals."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, Markdown, OptionList, Select, Static

from snl_tui.core.engine import Player
from snl_tui.screens.game import GameScreen
from snl_tui.screens.help import HelpScreen
from snl_tui.screens.load_board import LoadBoardScreen, file_choices
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.widgets.board import BoardView

from .helpers import SIZE, cpu, game_screen, settle, wait_until


@pytest.fixture
def board_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with a good and a bad board file (and a boards/ folder)."""
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.txt").write_text("2 3\n2 5\n4 1\n", encoding="utf-8")
    (tmp_path / "broken.json").write_text(
        '{"name": "broken", "size": 3, "snakes": [[4, 8]]}', encoding="utf-8"
    )
    (tmp_path / "notes.md").write_text("not a board", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_file_choices_lists_board_files_in_boards_and_here(board_folder: Path) -> None:
    labels = [choice.label for choice in file_choices()]
    assert labels == ["boards/tiny.txt", "broken.json"]


async def test_load_dialog_lists_builtins_and_files_and_loads_one(make_app, board_folder) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LoadBoardScreen)
        options = app.screen.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        classic = next(p for p in prompts if p.startswith("classic"))
        assert "10x10" in classic and "least rolls 7" in classic
        assert any(p.startswith("everest") and "20x20" in p for p in prompts)
        # Board files are listed at once, then checked: size and least rolls, or the error.
        tiny = next(i for i, p in enumerate(prompts) if p.startswith("boards/tiny.txt "))
        assert any(p.startswith("broken.json ") for p in prompts)
        options.highlighted = tiny
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)  # loaded by a worker
        assert (screen.game.board.rows, screen.game.board.cols) == (2, 3)
        assert screen.game.board.jumps == {2: 5, 4: 1}
        assert screen.query_one(BoardView).board is screen.game.board


async def test_a_bad_board_file_shows_the_error_and_the_game_carries_on(
    make_app, board_folder
) -> None:
    app = make_app(players=[Player("Ann"), cpu()])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.game.history) == 2)
        game_before, history_before = screen.game, list(screen.game.history)
        await pilot.press("l")
        await settle(pilot)
        dialog = app.screen
        path_input = dialog.query_one("#board-path", Input)
        path_input.focus()
        path_input.value = "broken.json"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog.pending_source is None)  # the worker's answer
        assert app.screen is dialog  # still open, showing why
        error = dialog.query_one("#load-error", Static)
        assert error.display
        assert str(error.render()) == (
            "broken.json: snakes entry 1: 4 -> 8 goes up: that is a ladder, not a snake"
        )
        path_input.value = "no-such-board"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog.pending_source is None)
        assert "no such file or built-in board" in str(error.render())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert screen.game is game_before and screen.game.history == history_before
        assert screen.game.board.name != "broken"


async def test_new_game_dialog_sets_players_mode_and_board(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        dialog.query_one("#players-input", Input).value = "Ann, Bob, cpu:Robo"
        dialog.query_one("#board-select", Select).value = "throws-30"
        await pilot.click("#start")
        await settle(pilot)
        assert app.screen is screen
        assert [p.name for p in screen.game.players] == ["Ann", "Bob", "Robo"]
        assert screen.game.players[2].computer
        assert (screen.game.board.rows, screen.game.board.cols) == (5, 6)
        assert screen.game.history == []


async def test_new_game_dialog_refuses_five_players_and_escape_cancels(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        game = screen.game
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#players-input", Input).value = "a, b, c, d, e"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        assert "At most 4 players" in str(dialog.query_one("#new-game-error", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.game is game


async def test_question_mark_opens_help_with_every_key(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.query_one(Markdown)
        source = markdown.source
        for key in ("`r`/`Space`", "`h`", "`o`", "`l`", "`n`", "`m`", "`u`", "`?`", "`t`"):
            assert key in source
        assert "▲38" in source
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize(
    ("query", "check"),
    [
        ("route", lambda s: s.session.route_on),
        ("hint", lambda s: s.hint_visible),
        ("switch mode", lambda s: s.mode == "puzzle"),
        ("animation", lambda s: not s.animation_on),
    ],
)
async def test_command_palette_runs_the_same_actions(make_app, query, check) -> None:
    app = make_app(animate=True, players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*query)
        await settle(pilot, 5)
        await pilot.press("enter")
        await settle(pilot, 5)
        assert app.screen is screen
        assert check(screen)


async def test_command_palette_opens_load_and_new_game(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for query, dialog in (("load board", LoadBoardScreen), ("new game", NewGameScreen)):
            await pilot.press("ctrl+p")
            await settle(pilot)
            await pilot.press(*query)
            await settle(pilot, 5)
            await pilot.press("enter")
            await settle(pilot, 5)
            assert isinstance(app.screen, dialog)
            await pilot.press("escape")
            await settle(pilot)


async def test_a_too_small_terminal_shows_a_short_message(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        screen = game_screen(app)
        assert screen.has_class("too-small")
        message = screen.query_one("#too-small", Static)
        assert message.display
        assert str(message.render()).startswith("Terminal too small: need at least 80x24")
        assert not screen.query_one("#board").display
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert not screen.has_class("too-small")
        assert screen.query_one("#board").display


async def test_load_dialog_lists_each_board_once_in_aligned_columns(
    make_app, board_folder: Path
) -> None:
    """Issue 33: from a checkout every built-in board was listed twice (``classic`` and
    ``boards/classic.toml``) and a long path pushed its columns out of line."""
    shipped = Path(__file__).resolve().parents[2] / "boards"
    (board_folder / "boards" / "classic.toml").write_text(
        (shipped / "classic.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (board_folder / "boards" / "a-long-board-name.txt").write_text("3 3\n2 8\n")
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoadBoardScreen)
        options = dialog.query_one(OptionList)

        def prompts() -> list[str]:
            found = (options.get_option_at_index(i) for i in range(options.option_count))
            return [str(option.prompt) for option in found if option.id]

        await wait_until(pilot, lambda: not any("checking" in p for p in prompts()))
        shown = prompts()
        assert sum("classic" in prompt for prompt in shown) == 1  # once, by its name
        columns = {prompt.index("least rolls") for prompt in shown if "least rolls" in prompt}
        assert len(columns) == 1  # the size and least rolls line up on every line
        long_line = next(p for p in shown if p.startswith("boards/a-long-board-name"))
        assert "3x3" in long_line
