"""Playtest fixes in the dialogs: unique player names, the load dialog at 80x24 and the
files it lists, the new-game dialog's stale error and puzzle note, the help's key table
and the winner's grammar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Markdown, OptionList, Select, Static

from snl_tui.commands import GAME_COMMANDS
from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board, looks_like_board
from snl_tui.screens.help import HelpScreen, game_over_keys_table, keys_table
from snl_tui.screens.load_board import LoadBoardScreen, file_choices
from snl_tui.screens.new_game import NewGameScreen, parse_players, puzzle_note
from snl_tui.screens.winner import winner_report
from snl_tui.widgets.move_log import describe_turn

from .helpers import SIZE, game_screen, settle, wait_until

SMALL = (80, 24)
"""The app's minimum size."""


def fully_shown(widget: Widget, dialog: Widget) -> bool:
    """The widget is on screen, inside the dialog's content area (not clipped away)."""
    region = widget.region
    return bool(region) and dialog.content_region.contains_region(region)


# -- 1. unique names -------------------------------------------------------------------------


def test_the_new_game_dialog_numbers_repeated_names() -> None:
    names = [p.name for p in parse_players("You, cpu, cpu:Zed, cpu")]
    assert names == ["You", "CPU", "Zed", "CPU 2"]
    assert [p.name for p in parse_players("Ann, ann")] == ["Ann", "ann 2"]


async def test_a_new_game_with_two_cpus_logs_two_names(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("n")
        await settle(pilot)
        app.screen.query_one("#players-input", Input).value = "cpu, cpu, Ann"
        await pilot.click("#start")
        await wait_until(pilot, lambda: len(screen.game.history) == 2)  # Ann's turn now
        assert app.screen is screen
        assert [p.name for p in screen.game.players] == ["CPU", "CPU 2", "Ann"]
        log = [describe_turn(turn, screen.game.players) for turn in screen.game.history]
        assert log[0].startswith("  1. CPU rolled") and log[1].startswith("  1. CPU 2 rolled")


# -- 2a. the load dialog fits 80x24 ------------------------------------------------------------


@pytest.fixture
def many_boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with a long list of boards and one broken board."""
    (tmp_path / "boards").mkdir()
    for index in range(30):
        (tmp_path / "boards" / f"board-{index:02}.txt").write_text("3 3\n2 8\n", "utf-8")
    (tmp_path / "broken.json").write_text(
        '{"name": "broken", "size": 3, "snakes": [[4, 8]]}', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_the_load_dialog_shows_input_and_error_at_any_size(
    make_app, many_boards, size
) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=size) as pilot:
        screen = game_screen(app)
        game = screen.game
        await pilot.press("l")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoadBoardScreen)
        box = dialog.query_one("#load-board")
        path_input = dialog.query_one("#board-path", Input)
        board_list = dialog.query_one("#board-list", OptionList)
        hint = dialog.query_one(".dialog-hint", Static)
        for widget in (path_input, board_list, hint):
            assert fully_shown(widget, box), widget
        # The list shrinks and scrolls rather than pushing the rest off.
        assert board_list.option_count > board_list.size.height
        path_input.focus()
        path_input.value = "broken.json"
        await pilot.press("enter")
        await wait_until(pilot, lambda: dialog.pending_source is None)  # the worker's answer
        error = dialog.query_one("#load-error", Static)
        assert "4 -> 8 goes up" in str(error.render())
        for widget in (path_input, error, hint):
            assert fully_shown(widget, box), widget
        assert not board_list.region.overlaps(path_input.region)
        # Scrolling the list reaches its last entry.
        board_list.focus()
        await pilot.press("end")
        await settle(pilot)
        assert board_list.highlighted == board_list.option_count - 1
        assert fully_shown(board_list, box)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.game is game


async def test_a_short_load_list_leaves_no_blank_rows(make_app, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # no board files: only the built-in boards
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        await settle(pilot)
        board_list = app.screen.query_one("#board-list", OptionList)
        # Every option shows, with only the list's border around them.
        assert board_list.size.height == board_list.option_count
        box = app.screen.query_one("#load-board")
        bottom = app.screen.query_one("#load-bottom")
        assert board_list.region.bottom == bottom.region.y
        assert bottom.region.bottom == box.content_region.bottom


# -- 2b. which files the load dialog lists --------------------------------------------------


@pytest.fixture
def project_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory like a project's: boards among other .toml/.json/.txt files."""
    here = tmp_path
    (here / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\n\n[project]\nname = "x"\nsize = 3\n',
        encoding="utf-8",
    )
    (here / "package.json").write_text('{"name": "x", "files": {"size": 3}}', "utf-8")
    (here / "requirements.txt").write_text("textual>=8\nrich\n", encoding="utf-8")
    (here / "numbers.json").write_text("[1, 2, 3]", encoding="utf-8")
    (here / "empty.txt").write_text("# only a comment\n", encoding="utf-8")
    (here / "config.toml").write_text('title = "not a board"\n', encoding="utf-8")
    # Boards in every format, and one that looks like a board but is broken.
    (here / "matrix.json").write_text("[[-1, -1], [-1, -1]]", encoding="utf-8")
    (here / "doc.json").write_text('{"name": "d", "rows": 2, "cols": 3}', encoding="utf-8")
    (here / "doc.toml").write_text(
        '# a board\nname = "t"\ndescription = """\n[not a table]\n"""\nsize = 3\n', "utf-8"
    )
    (here / "jumps.txt").write_text("# name: j\n\n2 3  # rows cols\n2 5\n", encoding="utf-8")
    (here / "square.txt").write_text("4\n", encoding="utf-8")
    (here / "broken.toml").write_text("size = 3\nladders = [[2, 5]\n", encoding="utf-8")
    # In ./boards every candidate is listed, even one that is not a board.
    (here / "boards").mkdir()
    (here / "boards" / "notes.toml").write_text('title = "oops"\n', encoding="utf-8")
    (here / "boards" / "tiny.txt").write_text("2 3\n2 5\n", encoding="utf-8")
    monkeypatch.chdir(here)
    return here


def test_the_working_directory_lists_only_files_that_look_like_boards(project_folder) -> None:
    labels = [choice.label for choice in file_choices()]
    assert labels == [
        "boards/notes.toml",
        "boards/tiny.txt",
        "broken.toml",
        "doc.json",
        "doc.toml",
        "jumps.txt",
        "matrix.json",
        "square.txt",
    ]
    # Every listed board of the working directory but the broken one loads.
    for label in labels[2:]:
        if label != "broken.toml":
            load_board(label)


def test_big_files_are_judged_by_their_start(tmp_path: Path) -> None:
    size = 200  # a 200x200 matrix is well over the 64 KiB read
    matrix = tmp_path / "big.json"
    matrix.write_text(json.dumps([[-1] * size for _ in range(size)]), encoding="utf-8")
    document = tmp_path / "big-doc.json"
    ladders = [[n, n + 1] for n in range(2, 39_000, 3)]
    document.write_text(json.dumps({"size": size, "ladders": ladders}), encoding="utf-8")
    toml = tmp_path / "big.toml"
    toml.write_text("size = 200\nladders = " + json.dumps(ladders) + "\n", encoding="utf-8")
    other = tmp_path / "data.json"
    other.write_text(json.dumps({"items": list(range(30_000))}), encoding="utf-8")
    for path in (matrix, document, toml, other):
        assert path.stat().st_size > 64 * 1024
    assert looks_like_board(matrix) and looks_like_board(document) and looks_like_board(toml)
    assert not looks_like_board(other)


async def test_the_load_dialog_leaves_out_pyproject(make_app, project_folder) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        prompts = [
            str(options.get_option_at_index(i).prompt).split()[0]  # the file, not its check
            for i in range(options.option_count)
        ]
        assert "pyproject.toml" not in prompts and "package.json" not in prompts
        assert "boards/notes.toml" in prompts and "doc.toml" in prompts
        # A listed broken board still says why it does not load.
        options.highlighted = prompts.index("boards/notes.toml")
        await pilot.press("enter")
        await settle(pilot)
        error = app.screen.query_one("#load-error", Static)
        assert "unknown key 'title'" in str(error.render())


# -- 3. the new-game dialog --------------------------------------------------------------------


async def test_an_old_error_goes_when_the_players_change(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        players = dialog.query_one("#players-input", Input)
        players.value = "a, b, c, d, e"
        await pilot.press("enter")
        await settle(pilot)
        error = dialog.query_one("#new-game-error", Static)
        assert error.display and "At most 4 players" in str(error.render())
        await pilot.press("end")  # moving the cursor is no edit
        await settle(pilot)
        assert error.display
        await pilot.press("backspace", "backspace", "backspace")  # the user edits
        await settle(pilot)
        assert players.value == "a, b, c, d"
        assert not error.display
        await pilot.press("comma", "e", "enter")
        await settle(pilot)
        assert app.screen is dialog and error.display
        dialog.query_one("#mode-select", Select).value = "puzzle"  # any change clears it
        await settle(pilot)
        assert not error.display


def test_the_puzzle_note_names_the_one_player() -> None:
    assert puzzle_note("Ann") == "A puzzle has one player: Ann."
    assert puzzle_note("cpu, Ann, Bob") == "A puzzle has one player: Ann. CPU and Bob sit out."
    assert puzzle_note("Ann, Bob, Cy, cpu") == (
        "A puzzle has one player: Ann. Bob, Cy and CPU sit out."
    )
    assert puzzle_note("cpu:Robo") == "A puzzle has one human player: You. Robo sits out."
    assert "one player" in puzzle_note("a, b, c, d, e")


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_puzzle_mode_says_who_plays_before_starting(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = game_screen(app)
        await pilot.press("n")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        note = dialog.query_one("#puzzle-note", Static)
        assert not note.display  # classic mode: everyone plays
        dialog.query_one("#players-input", Input).value = "Ann, Bob, cpu:Robo"
        dialog.query_one("#mode-select", Select).value = "puzzle"
        await settle(pilot)
        assert note.display
        assert str(note.render()) == "A puzzle has one player: Ann. Bob and Robo sit out."
        dialog.query_one("#players-input", Input).value = "cpu:Robo"
        await settle(pilot)
        assert str(note.render()) == "A puzzle has one human player: You. Robo sits out."
        # At 80x24 the whole dialog fits, note and an error included.
        dialog.query_one("#players-input", Input).value = "a, b, c, d, e"
        await pilot.press("enter")
        await settle(pilot)
        box = dialog.query_one("#new-game")
        for selector in ("#players-input", "#mode-select", "#board-select", "#puzzle-note"):
            assert fully_shown(dialog.query_one(selector), box), selector
        for selector in ("#new-game-error", "#start", "#cancel"):
            assert fully_shown(dialog.query_one(selector), box), selector
        dialog.query_one("#players-input", Input).value = "Ann, Bob, cpu:Robo"
        await pilot.click("#start")
        await settle(pilot)
        assert app.screen is screen and screen.mode == "puzzle"
        assert screen.game.players == (Player("Ann"),)  # as the note said


# -- 4. the help screen ------------------------------------------------------------------------


def table_rows(table: str) -> list[list[str]]:
    lines = table.splitlines()[2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_key_tables_list_each_key_once_in_two_columns() -> None:
    rows = table_rows(keys_table()) + table_rows(game_over_keys_table())
    assert all(len(row) == 2 for row in rows)
    game_keys = [row[0] for row in table_rows(keys_table())]
    assert len(game_keys) == len(set(game_keys))
    assert sum("1-9" in keys for keys in game_keys) == 1
    assert game_keys[0] == "`r`/`Space`"
    over = {row[0]: row[1] for row in table_rows(game_over_keys_table())}
    assert over["`t`"].startswith("**Try again.**")
    assert set(over) == {"`t`", "`n`", "`p`", "`q`", "`Escape`"}
    # Generated from GAME_COMMANDS: every command's title is there, once.
    text = keys_table()
    for command in GAME_COMMANDS:
        assert text.count(f"**{command.title}.**") == 1


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_the_help_table_reads_well(make_app, size) -> None:
    """No key list and no title breaks over two lines; the text column is wide."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.query_one(Markdown)
        assert "`t`" in markdown.source and "Try again" in markdown.source
        cells = list(markdown.query(".cell"))
        assert len(cells) >= 2 * (len(GAME_COMMANDS) + 4)

        def first_line(cell: Widget) -> str:
            strips = cell.render_lines(Region(0, 0, *cell.outer_size))
            return strips[0].text.strip()

        titles = 0
        for key_cell, text_cell in zip(cells[::2], cells[1::2], strict=True):
            assert text_cell.size.width >= 40
            keys = str(key_cell.render()).strip()
            assert first_line(key_cell) == keys
            title = str(text_cell.render()).split(".")[0] + "."
            assert first_line(text_cell).startswith(title)
            titles += 1
        assert titles >= len(GAME_COMMANDS)


# -- 5. the winner -----------------------------------------------------------------------------


def test_you_win_and_ann_wins() -> None:
    board = load_board("leetcode-2")
    for name, title in (("You", "You win!"), ("Ann", "Ann wins!")):
        game = Game(board, (Player(name),), seed=1)
        while not game.over:
            game.roll()
        report = winner_report(game)
        assert report.title == title
        assert report.lines[0].startswith(f"{name} won in ")
