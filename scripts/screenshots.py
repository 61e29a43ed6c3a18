"""Save SVG screenshots of the game into docs/ for the README and the docs site.

Run: ``python scripts/screenshots.py``. Seeded, 120x40, textual-dark, no animation, so
the pictures only change when the game's look does.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.pop("NO_COLOR", None)  # screenshots are in colour whatever the terminal says

from snl_tui.app import SnlApp  # noqa: E402
from snl_tui.core.engine import Player  # noqa: E402
from snl_tui.core.solver import optimal_route  # noqa: E402

DOCS = ROOT / "docs"
SIZE = (120, 40)


async def classic_with_hint_and_route() -> Path:
    app = SnlApp(players=[Player("Ann"), Player("Bot", computer=True)], seed=7, animate=False)
    app.theme = "textual-dark"
    app.game_screen.computer_delay = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.game_screen
        for _ in range(3):
            screen.action_roll()
            for _ in range(5):
                await pilot.pause()
        screen.action_toggle_hint()
        screen.action_toggle_route()
        await pilot.pause()
        return Path(app.save_screenshot("snl-classic.svg", path=str(DOCS)))


async def puzzle_mode() -> Path:
    app = SnlApp(mode="puzzle", seed=7, animate=False)
    app.theme = "textual-dark"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.game_screen
        for die in optimal_route(screen.game.board, screen.game.position).rolls[:3]:
            screen.action_pick(die)
            await pilot.pause()
        screen.action_toggle_hint()
        screen.action_toggle_route()
        await pilot.pause()
        return Path(app.save_screenshot("snl-puzzle.svg", path=str(DOCS)))


async def main() -> None:
    DOCS.mkdir(exist_ok=True)
    for shot in (classic_with_hint_and_route, puzzle_mode):
        print(await shot())


if __name__ == "__main__":
    asyncio.run(main())
