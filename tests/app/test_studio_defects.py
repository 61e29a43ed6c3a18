"""What designers had to work around in the studio (issue 22, defects): generating keeps
the board's name and description, each press gives a new board unless a seed is typed,
and a name's capitals survive the status line."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from snl_tui.core.studio.edit import SetDescription, SetName
from snl_tui.screens.generate_dialog import GenerateScreen

from .helpers import SIZE, wait_until
from .test_editor import editor_app, status


async def generate_once(pilot, editor, seed: str = "") -> None:  # type: ignore[no-untyped-def]
    before = editor.board
    await pilot.press("g")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, GenerateScreen))
    dialog = pilot.app.screen
    dialog.query_one("#gen-expected", Input).value = "12"
    dialog.query_one("#gen-tolerance", Input).value = "3"
    dialog.query_one("#gen-seed", Input).value = seed
    await pilot.pause()
    dialog.query_one("#generate-go").press()
    await wait_until(
        pilot, lambda: pilot.app.screen is editor and editor.board is not before, 20_000
    )


async def test_generating_keeps_the_name_and_gives_a_new_board_each_time(tmp_path: Path) -> None:
    app, editor = editor_app(tmp_path / "mia.toml", 6)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: editor.is_mounted)
        editor.apply_edit(SetName("Short game for Mia"))
        assert "Renamed to 'Short game for Mia'" in status(editor)  # capitals kept
        editor.apply_edit(SetDescription("Ladders early, no long snakes."))
        await generate_once(pilot, editor)
        first = editor.board
        assert first.name == "Short game for Mia"
        assert first.description == "Ladders early, no long snakes."
        said = status(editor)
        assert said.startswith("Generated 6x6: ") and "seed " in said
        seed = said.split("seed ")[1].split(":")[0]
        await generate_once(pilot, editor)
        second = editor.board
        assert second.jumps != first.jumps  # a fresh seed: another board
        await generate_once(pilot, editor, seed=seed)
        assert editor.board.jumps == first.jumps  # the seed said gives it again


async def test_the_first_tab_lands_in_the_name_field_and_letters_stay_there(
    tmp_path: Path,
) -> None:
    """Tab, then a name with p, g and q in each text field: typed, nothing else happens
    (no generator, no game, no quit), and the field being edited shows."""
    app, editor = editor_app(tmp_path / "trap.toml", 6)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: editor.is_mounted)
        await pilot.press("tab")
        name = editor.query_one("#f-name", Input)
        assert app.focused is name
        await pilot.pause()
        label = name.parent.query_one(".field-label")  # type: ignore[union-attr]
        assert label.rich_style.reverse  # visible without colour too
        for field_id in ("f-name", "f-description"):
            field = editor.query_one(f"#{field_id}", Input)
            field.focus()
            await pilot.pause()
            field.value = ""
            await pilot.press(*"pgq Tom")
            assert field.value == "pgq Tom"
            assert app.screen is editor and app.is_running
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is editor and app.is_running
        assert editor.board.name == "pgq Tom"
        assert editor.board.description == "pgq Tom"
        assert editor.board.jumps == {}  # nothing was generated


async def test_escape_clears_and_never_leaves(tmp_path: Path) -> None:
    """Escape after a refusal (changes unsaved) used to open "Save your changes...?"."""
    app, editor = editor_app(tmp_path / "esc.toml", 6)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: editor.is_mounted)
        editor.apply_edit(SetName("Mine"))  # unsaved changes
        await pilot.press("enter", "enter")  # a jump from square 1 to itself: refused
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()
        assert app.screen is editor and app.is_running
        assert "leaves the editor" in status(editor)


async def test_an_invalid_file_opens_to_be_fixed_and_saving_asks(tmp_path: Path) -> None:
    """Issue 22 (7): `snl edit` refused a file with two jumps from one square, so it could
    not be fixed in the editor. It opens with what was left out named; saving asks."""
    from snl_tui.screens.studio_dialogs import ChoiceScreen

    path = tmp_path / "broken.toml"
    text = 'name = "Broken"\nsize = 6\nladders = [[3, 20], [3, 30]]\nsnakes = [[25, 4]]\n'
    path.write_text(text)
    app, editor = editor_app(path, None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: editor.is_mounted)
        assert editor.board.jumps == {3: 20, 25: 4}
        said = status(editor)
        assert "breaks the board rules" in said and "two jumps start on square 3" in said
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("c")
        await wait_until(pilot, lambda: app.screen is editor)
        assert path.read_text() == text  # nothing written
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("s")
        await wait_until(pilot, lambda: path.read_text() != text)
        assert "[3, 30]" not in path.read_text() and "Saved" in status(editor)
