"""The command palette survives PageDown/PageUp arriving in the same burst as ctrl+p
(issue 10, item 3): Textual 8.2.8's option list raised ``KeyError: 0`` when a page key
reached the palette before its list was laid out.

The keys are posted back to back, as a terminal delivers a paste or a fast typist's
keys; ``pilot.press`` would wait for each key to be handled and never hit the bug.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from .helpers import SIZE, settle, started, wait_until


def burst(app, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Queue every key at once, before the app has handled the first."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


@pytest.mark.parametrize(
    "keys",
    [
        ("ctrl+p", "pagedown"),
        ("ctrl+p", "pageup"),
        ("ctrl+p", "pagedown", "pageup", "pagedown"),
        ("ctrl+p", "down", "pagedown"),
        ("ctrl+p", "t", "pagedown", "pageup"),
        ("ctrl+p", "ctrl+p", "ctrl+p", "pagedown"),
    ],
)
async def test_page_keys_in_the_same_burst_as_ctrl_p_do_not_crash(make_app, keys) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        burst(app, *keys)
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await settle(pilot)
        palette = app.screen
        # The palette still works: its list pages, and a command runs.
        palette.query_one(Input).value = "toggle hint"
        await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 0)
        await pilot.press("pagedown", "pageup", "enter")
        await wait_until(pilot, lambda: app.screen is game)
        assert game.hint_visible
    assert app.return_code in (None, 0)


async def test_a_page_key_after_the_list_is_gone_does_nothing(make_app) -> None:
    # While the palette closes its list is removed before the screen is: a page key
    # queued behind the Escape then found no list (the key-mashing test: 'No nodes match
    # CommandList', snl exited 1). Here the list is removed by hand, then the key comes.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await settle(pilot)
        palette = app.screen
        await palette.query_one(CommandList).remove()
        await pilot.press("pagedown", "pageup")
        await settle(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(game.game.history) > 0)
    assert app.return_code in (None, 0)


async def test_the_theme_list_guards_its_page_keys_too(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        app.search_themes()  # the palette's "Theme" command
        burst(app, "pagedown", "pageup")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await settle(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)


async def test_enter_twice_in_one_burst_runs_one_command_and_keeps_the_game(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        palette = app.screen
        palette.query_one(Input).value = "toggle hint"
        await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 0)
        await pilot.press("down")
        burst(app, "enter", "enter")
        await wait_until(pilot, lambda: app.screen is game)
        await settle(pilot)
        assert app.screen is game and game.hint_visible


async def test_a_dismiss_while_a_screen_is_above_waits_and_escape_still_closes(make_app) -> None:
    # A dismiss that reached the palette while another screen lay above it popped that
    # screen instead and marked the palette closed, so Escape never closed it again
    # (the key-mashing test: a palette that stayed open through every Escape).
    from textual.screen import ModalScreen

    class Above(ModalScreen[None]):
        pass

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await settle(pilot)
        palette = app.screen
        above = Above()
        await app.push_screen(above)
        palette.dismiss()  # queued behind the screen above: it is not popped instead
        await settle(pilot)
        assert app.screen is above
        above.dismiss()
        await wait_until(pilot, lambda: app.screen is game)  # the palette went when on top
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        await pilot.press("escape", "escape")
        await wait_until(pilot, lambda: app.screen is game)
    assert app.return_code in (None, 0)


async def test_the_palettes_screenshot_saves_and_says_where(
    make_app, tmp_path, monkeypatch
) -> None:
    """Issue 33: "Screenshot" said "Failed to save screenshot" (Textual saved into a
    Downloads folder that did not exist). It now saves in the first writable folder and
    the notification names the file."""
    from snl_tui import palette

    missing = tmp_path / "no-downloads"
    folder = tmp_path / "shots"
    folder.mkdir()
    monkeypatch.setattr(palette, "screenshot_folders", lambda: [missing, folder])
    app = make_app()
    notes: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        real_notify = app.notify

        def recording(message: str, **options: object) -> None:
            notes.append(message)
            real_notify(message, **options)  # type: ignore[arg-type]

        app.notify = recording  # type: ignore[method-assign]
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app))
        palette_screen = app.screen
        palette_screen.query_one(Input).value = "screenshot"
        await wait_until(pilot, lambda: palette_screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is game and bool(notes))
        (saved,) = list(folder.iterdir())
        assert saved.suffix == ".svg" and saved.read_text(encoding="utf-8").startswith("<svg")
        assert notes == [f"Saved to {saved}"]
        assert not missing.exists()
