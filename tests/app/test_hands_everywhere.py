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
    async with app.run_test(size=SIZES[0]) as pilot:
        done = await hands(pilot, screen.opening, SIZES, seed=40, actions=18, keys=screen.keys)
        assert done > 0
        assert not app.is_running or app.screen is not None
