"""Hands over every screen (issue 40, SPEC 17): the pointer moved, clicks, drags, the
wheel, keys and resizes (80x24, larger, smaller) over the dialogs, the editor and its
side form, the learn screen and the replay, with the picture (Sixel) under them. A
crash fails ``run_test``; the screen is still there after. The long run over every
screen, protocol and seed: ``scripts/pilot_hands.py``."""

from __future__ import annotations

import pytest

from .hands import SCREENS, hands

SIZES = ((80, 24), (131, 41), (60, 18))
CHEAP = ("winner", "editor form", "replay")


@pytest.mark.parametrize("name", CHEAP)
async def test_every_screen_survives_the_pointer_keys_and_resizes(name: str) -> None:
    screen = next(s for s in SCREENS if s.name == name)
    app = screen.app()
    app.pixels = "sixel"
    async with app.run_test(size=SIZES[0], notifications=True, tooltips=True) as pilot:
        done = await hands(pilot, screen.opening, SIZES, seed=40, actions=18, keys=screen.keys)
        assert done > 0
        assert not app.is_running or app.screen is not None


async def test_a_press_on_a_toast_as_it_goes_does_nothing() -> None:
    """A toast whose time ran out is removed, but for a moment the screen's map still
    has it under the pointer: a press there started Textual's text selection in its
    parent, which was gone (AttributeError: the game crashed; found in tmux)."""
    from textual import events

    screen = next(s for s in SCREENS if s.name == "game")
    app = screen.app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("a notice")
        toast, at = None, (0, 0)
        for _ in range(100):
            await pilot.pause()
            spots = ((x, y) for y in range(24) for x in range(40, 80))
            for x, y in spots:
                found, _ = app.screen.get_widget_at(x, y)
                if type(found).__name__ == "Toast":
                    toast, at = found, (x, y)
                    break
            if toast is not None:
                break
        assert toast is not None and toast.parent is not None
        await toast.parent.remove()  # as the toast rack does when its time runs out
        x, y = at
        press = events.MouseDown(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        app.post_message(press)
        await pilot.pause()
        assert app.is_running
