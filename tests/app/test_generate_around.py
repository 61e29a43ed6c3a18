"""Generate around what the designer placed (issue 22): ``l`` locks the jump under the
editor's cursor (underlined on the board), "Generate" keeps the locked jumps and fills in
the rest, "3 candidates" lists three boards with their figures to choose one, the name
stays, and undo brings back the board from before."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList

from snl_tui.app import SnlApp
from snl_tui.core.studio.board_file import open_for_editing
from snl_tui.screens.editor import EditorScreen
from snl_tui.screens.generate_dialog import CANDIDATES, GenerateScreen
from snl_tui.widgets.edit_board import EditBoard

from .helpers import SIZE, settle, wait_until

BOARD = 'name = "Mia"\nsize = 8\nladders = [[5, 30]]\nsnakes = [[50, 12]]\n'


def editor_app(path: Path) -> tuple[SnlApp, EditorScreen]:
    board, source, note = open_for_editing(str(path), None, None)
    editor = EditorScreen(board, source, exit_on_leave=True, note=note)
    return SnlApp.editing(editor, board, animate=False), editor


def status_of(dialog: GenerateScreen) -> str:
    return str(dialog.query_one("#generate-status").render())


def status(editor: EditorScreen) -> str:
    return str(editor.query_one("#editor-status").render())


async def test_locked_jumps_are_kept_by_three_candidates_and_undo_restores(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mia.toml"
    path.write_text(BOARD)
    app, editor = editor_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)
        editor.set_cursor(5)
        await pilot.press("l")
        assert "Locked the ladder 5 -> 30" in status(editor)
        assert editor.query_one(EditBoard).locked == frozenset({5})
        editor.set_cursor(12)
        await pilot.press("l")  # the end of a snake is no jump's start: nothing to lock
        assert "No jump starts here" in status(editor)
        before = editor.board
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GenerateScreen))
        dialog = app.screen
        assert isinstance(dialog, GenerateScreen) and dialog.keep == ((5, 30),)
        dialog.query_one("#gen-expected", Input).value = "12"
        dialog.query_one("#gen-seed", Input).value = "4"
        await pilot.click("#generate-three")
        listing = dialog.query_one("#generate-candidates", OptionList)
        for _ in range(2400):  # bounded: three searches of a few tenths of a second each
            if listing.option_count or "none" in status_of(dialog):
                break
            await pilot.pause(0.05)
        assert listing.option_count == len(dialog.candidates) <= CANDIDATES
        assert all(
            "expected turns" in str(listing.get_option_at_index(i).prompt)
            for i in range(listing.option_count)
        )
        await pilot.press("down", "enter")  # the second candidate
        await wait_until(pilot, lambda: app.screen is editor)
        board = editor.board
        assert board is not before and board.jumps[5] == 30  # the locked ladder
        assert board.name == "Mia"
        chosen = dialog.candidates[1]
        assert chosen.board is not None and board.jumps == chosen.board.jumps
        assert chosen.figures is not None and abs(chosen.figures.expected_turns - 12) <= 0.5
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert editor.board == before
