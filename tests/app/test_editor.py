"""Pilot tests of the board editor (``snl edit``): keys, mouse, refusals, undo, files."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from snl_tui.app import SnlApp
from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.files.formats import dump_board, load_board
from snl_tui.core.studio.board_file import BoardSource, open_for_editing
from snl_tui.core.studio.edit import AddJump
from snl_tui.screens.editor import EditorScreen
from snl_tui.screens.game import GameScreen
from snl_tui.screens.studio_dialogs import ChoiceScreen, SaveAsScreen
from snl_tui.widgets.edit_board import EditBoard

from .helpers import SIZE, settle, wait_until


def editor_app(spec: str | Path | None, size: int | None = 6) -> tuple[SnlApp, EditorScreen]:
    board, source, note = open_for_editing(None if spec is None else str(spec), size, size)
    editor = EditorScreen(board, source, exit_on_leave=True, note=note)
    return SnlApp.editing(editor, board, animate=False), editor


def status(editor: EditorScreen) -> str:
    return str(editor.query_one("#editor-status").render())


async def ready(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


def above(board: Board, square: int, rows: int = 1) -> int:
    row, col = board.position_of(square)
    return board.square_at(row - rows, col)


async def test_build_a_board_with_the_keys(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "keys.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        board = editor.board
        assert editor.cursor == 1
        await pilot.press("right", "enter")  # square 2
        assert editor.pending == ("new", 2)
        await pilot.press("up", "up", "enter")
        ladder_end = above(board, 2, 2)
        assert editor.board.jumps == {2: ladder_end}
        assert editor.board.jump_at(2).kind == "ladder"  # type: ignore[union-attr]
        # A snake: start two rows up from the ladder's end, come down one row.
        await pilot.press("up", "enter", "down", "enter")
        snake_start = above(board, ladder_end)
        assert editor.board.jumps[snake_start] == ladder_end
        assert editor.board.jump_at(snake_start).kind == "snake"  # type: ignore[union-attr]
        # Back down on 2: pick the ladder up and drop its end on square 3.
        await pilot.press("down", "down", "enter")
        assert editor.cursor == 2 and editor.pending == ("move", 2)
        await pilot.press("right", "enter")
        assert editor.board.jumps == {2: 3, snake_start: ladder_end}
        assert editor.editing.dirty


async def test_moving_a_ladder_end_and_removing_from_its_end(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "move.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        editor.set_cursor(3)
        await pilot.press("enter", "up", "enter")
        first_end = above(editor.board, 3)
        assert editor.board.jumps == {3: first_end}
        editor.set_cursor(3)
        await pilot.press("enter", "up", "enter")  # picked up: its end moves a row up
        assert editor.board.jumps == {3: above(editor.board, 3)}
        # On the end of the only jump ending there, x removes that jump.
        end = above(editor.board, 3)
        editor.set_cursor(end)
        await pilot.press("x")
        assert editor.board.jumps == {}
        assert f"Removed the ladder 3 -> {end}" in status(editor)  # named, from its end


def click_offset(view: EditBoard, square: int) -> tuple[int, int]:
    """Where to click (relative to the widget, border included) to hit ``square``."""
    row, col = view.board.position_of(square)
    pad_x, pad_y = view._offsets()
    inset = view.content_region.offset - view.region.offset
    x = inset.x + pad_x + col * view.cell_width + 2 - round(view.scroll_offset.x)
    y = inset.y + pad_y + row * view.cell_height + 1 - round(view.scroll_offset.y)
    return x, y


async def test_build_a_board_with_the_mouse(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "mouse.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        view = editor.query_one(EditBoard)
        assert await pilot.click(EditBoard, offset=click_offset(view, 4))
        assert editor.cursor == 4
        await pilot.press("enter")
        assert await pilot.click(EditBoard, offset=click_offset(view, 29))
        await pilot.press("enter")
        assert editor.board.jumps == {4: 29}


async def test_a_click_maps_to_its_square_when_scrolled(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "big.toml", size=20)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        view = editor.query_one(EditBoard)
        assert view.scroll_offset.y > 0  # a 20x20 board scrolls: the cursor on 1 is in view
        target = 45  # the third row from the bottom, well inside the view
        assert await pilot.click(EditBoard, offset=click_offset(view, target))
        assert editor.cursor == target


async def test_a_refused_edit_shows_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "refused.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = editor.board
        await pilot.press("right", "enter", "enter")  # a jump from 2 to 2
        assert "goes nowhere" in status(editor)
        assert editor.board is before and len(editor.editing.history) == 1
        await pilot.press("escape")
        assert editor.pending is None
        # A size that cannot hold a jump: the core's words, and the form shows the board.
        assert editor.apply_edit(AddJump(30, 2))
        rows = editor.query_one("#f-rows", Input)
        rows.focus()
        rows.value = "4"
        await pilot.press("enter")
        await settle(pilot)
        assert "no room for" in status(editor)
        assert rows.value == "6" and editor.board.rows == 6
        rows.value = "0"
        await pilot.press("enter")
        await settle(pilot)
        assert "rows must be at least 1" in status(editor)
        assert rows.value == "6"
        # Past what the game opens (``core.limits``): refused in play's words.
        cols = editor.query_one("#f-cols", Input)
        rows.value, cols.value = "101", "100"
        rows.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "Refused: the board is too large to edit: 101 x 100" in status(editor)
        assert (rows.value, editor.board.rows, editor.board.cols) == ("6", 6, 6)


async def test_undo_and_redo_every_kind_of_edit(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "undo.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = editor.board
        await pilot.press("right", "enter", "up", "enter")
        name = editor.query_one("#f-name", Input)
        name.focus()
        name.value = "Kids"
        await pilot.press("enter")
        await settle(pilot)
        assert editor.board.name == "Kids"
        editor.query_one("#f-chain").value = True  # type: ignore[attr-defined]
        await settle(pilot)
        assert editor.board.rules.chain
        editor.query_one(EditBoard).focus()
        await pilot.press("ctrl+z")
        assert not editor.board.rules.chain
        assert editor.query_one("#f-chain").value is False  # type: ignore[attr-defined]
        await pilot.press("ctrl+z", "ctrl+z")
        assert editor.board is first and name.value == first.name
        await pilot.press("ctrl+y", "ctrl+y")
        assert editor.board.name == "Kids" and editor.board.jumps
        assert "Redid" in status(editor)


async def test_save_reload_and_compare(tmp_path: Path) -> None:
    path = tmp_path / "saved.toml"
    app, editor = editor_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("right", "enter", "up", "up", "enter", "ctrl+s")
        await settle(pilot)
        assert path.exists() and not editor.editing.dirty
        loaded = load_board(path)
        assert loaded == editor.board and loaded.name == "saved"
        assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed


@pytest.mark.parametrize(("suffix", "check"), [(".json", "size"), (".txt", "6 6")])
async def test_save_as_picks_the_format_by_extension(
    tmp_path: Path, suffix: str, check: str
) -> None:
    app, editor = editor_app(tmp_path / "first.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("right", "enter", "up", "enter", "f2")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAsScreen))
        target = tmp_path / f"other{suffix}"
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
        text = target.read_text()
        assert check in (json.loads(text) if suffix == ".json" else text)
        assert load_board(target) == editor.board
        assert editor.editing.source.path == target and editor.editing.source.fmt == suffix[1:]


async def test_a_matrix_file_stays_a_matrix(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(dump_board(Board(4, 4, [(2, 11)]), "matrix"))
    app, editor = editor_app(path, size=None)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("up", "enter", "up", "enter", "ctrl+s")
        await settle(pilot)
        assert isinstance(json.loads(path.read_text()), list)
        assert load_board(path) == editor.board and len(editor.board.jumps) == 2


async def test_a_file_changed_on_disk_is_not_overwritten_without_asking(tmp_path: Path) -> None:
    path = tmp_path / "disk.toml"
    path.write_text(dump_board(Board(6, 6, name="disk"), "toml"))
    app, editor = editor_app(path, size=None)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        other = dump_board(Board(6, 6, [(5, 20)], name="someone else"), "toml")
        path.write_text(other)
        await pilot.press("right", "enter", "up", "enter", "ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")
        await settle(pilot)
        assert path.read_text() == other and editor.editing.dirty
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")
        await settle(pilot)
        assert load_board(path) == editor.board and not editor.editing.dirty


async def test_leaving_with_unsaved_changes_asks(tmp_path: Path) -> None:
    path = tmp_path / "leave.toml"
    app, editor = editor_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("right", "enter", "up", "enter", "q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")
        await settle(pilot)
        assert app.screen is editor and app.is_running
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")
        await settle(pilot)
    assert app.return_code == 0
    assert load_board(path).jumps == {2: above(Board(6, 6), 2)}


async def test_a_built_in_board_is_read_only(tmp_path: Path) -> None:
    app, editor = editor_app("classic", size=None)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert editor.editing.source == BoardSource(builtin="classic")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveAsScreen))


async def test_play_the_board_and_come_back(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "play.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("right", "enter", "up", "up", "enter", "p")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        assert isinstance(game, GameScreen)
        await wait_until(pilot, lambda: game.ready)
        assert game.game.board == editor.board  # the unsaved board is the one played
        await pilot.press("q")
        await wait_until(pilot, lambda: app.screen is editor)
        assert app.is_running and "Back from the game" in status(editor)


async def test_edit_from_the_game_and_back(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(board=Board(6, 6, name="six"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.game_screen.ready)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        await ready(pilot)
        await pilot.press("right", "enter", "up", "enter", "q")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")  # discarded: the game keeps its board
        await wait_until(pilot, lambda: app.screen is app.game_screen)
        assert app.game_screen.game.board.jumps == {}


async def test_heat_map_shades_squares_and_writes_the_cursor_figure(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "heat.toml")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("v")
        await ready(pilot)
        view = editor.query_one(EditBoard)
        assert view.heat and set(view.heat.values()) <= {1, 2, 3, 4}
        assert editor.visits is not None
        line = str(editor.query_one("#editor-cursor").render())
        assert f"{editor.visits[1]:.2f} expected visits" in line
        await pilot.press("v")
        assert view.heat == {}


def test_a_bad_board_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file snl cannot read as a board at all (a jump that breaks the rules opens, to be
    # fixed: tests/app/test_studio_defects.py).
    bad = tmp_path / "bad.toml"
    bad.write_text("size = 6\nladders = [[3, 40]]\nbogus = 1\n")
    assert main(["edit", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown key 'bogus'" in err
    assert main(["edit", str(tmp_path / "x.csv")]) == 2
    assert main(["edit", "--size", "4", "--rows", "3"]) == 2


def test_the_heat_maps_scale_is_each_shades_range_palest_first() -> None:
    """Issue 33: the heat map's colours were unexplained. The status line names each
    shade's range of expected visits and the cursor line the square's shade."""
    from snl_tui.core.odds.analysis import analyze
    from snl_tui.widgets.heat_map import heat_ranges, heat_scale, heat_shades

    board = load_board("classic")
    visits = list(analyze(board).visits() or [])
    ranges = heat_ranges(visits, board.goal)
    assert list(ranges) == [1, 2, 3, 4]
    bounds = list(ranges.values())
    assert all(low <= high for low, high in bounds)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(bounds))
    for square, shade in heat_shades(visits, board.goal).items():
        low, high = ranges[shade]
        assert low <= visits[square] <= high
    assert heat_scale(visits, board.goal).count(" · ") == 3


async def test_the_editor_warns_when_a_drawn_jump_hides_something(tmp_path: Path) -> None:
    # A ladder along one row has no room to pass a snake's ends (snl check warns): the
    # editor adds the same warnings once the jumps are routed, in a thread.
    from snl_tui.core.studio.checks import drawing_findings

    path = tmp_path / "row.txt"
    path.write_text("1 10\n2 9\n6 5\n")
    app, editor = editor_app(str(path), None)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_until(pilot, lambda: "no route misses them" in warnings_text(editor))
        findings = drawing_findings(load_board(str(path)))
        assert findings
        for finding in findings:
            assert finding.message in warnings_text(editor)


def warnings_text(editor: EditorScreen) -> str:
    return str(editor.query_one("#editor-warnings").render())


async def test_at_80_columns_every_column_shows_while_the_board_has_the_keys(
    tmp_path: Path,
) -> None:
    """A 10x10 board at 80x24: the side narrows so that the board shows all ten columns;
    tab into the form and it takes its width back; escape narrows it again."""
    app, editor = editor_app(tmp_path / "narrow.toml", 10)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        view = editor.query_one(EditBoard)
        side = editor.query_one("#editor-side")

        def columns_shown() -> int:
            room = view.size.width
            return min(editor.board.cols, room // view.cell_width)

        assert editor.has_class("-narrow")
        assert columns_shown() == 10 and view.scroll_offset.x == 0
        assert side.size.width < 30
        await pilot.press("tab")
        await settle(pilot)
        assert editor.query_one("#f-name", Input).has_focus
        assert side.size.width == 46
        await pilot.press("escape")
        await settle(pilot)
        assert side.size.width < 30 and columns_shown() == 10
    # Where the side fits beside the whole board, it never narrows.
    app, editor = editor_app(tmp_path / "wide.toml", 10)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert not editor.has_class("-narrow")
        assert editor.query_one("#editor-side").size.width == 46
