"""Save screenshots of the game into docs/ for the README and the docs site.

Run: ``python scripts/screenshots.py``. Seeded, 120x40, textual-dark, no animation, so
the pictures only change when the game's look does. ``--xterm`` takes the board as a
picture instead: ``snl play classic`` in a real xterm with Sixel (``-ti vt340``) on a
virtual screen, at 80x24 and 140x45, after a few rolls, as ``docs/picture-80x24.png``
and ``docs/picture-140x45.png``; ``snl edit classic`` at 96x30 with a ladder being made
from 18 to 37, as ``docs/picture-editor.png``; and the character board
(``--graphics text``) at 140x45 with four players, as ``docs/board-terminal.png``
(needs Xvfb, xterm, ImageMagick and xdotool).
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


def xterm_pictures() -> list[Path]:
    """The board as a picture in a real xterm, at the two sizes the docs show."""
    import tempfile
    import time

    from tests.e2e.xterm import missing_programs, xterm_running

    missing = missing_programs()
    if missing:
        raise SystemExit(f"--xterm needs {', '.join(missing)}")
    snl = Path(sys.executable).with_name("snl")
    saved = []
    for columns, lines, rolls in ((80, 24, 3), (140, 45, 5)):
        with tempfile.TemporaryDirectory() as data:
            command = (
                f"env SNL_DATA_DIR='{data}' COLORTERM=truecolor '{snl}' play classic --seed 11 "
                "--no-save "
                "--players Ann,cpu:Bot --graphics pixels"
            )
            with xterm_running(command, columns, lines) as term:
                time.sleep(4)  # the first frame and the panels
                for _ in range(rolls):
                    term.press("r")
                    time.sleep(4)  # the move, then the computer's (each climbs or slides)
                term.press("o")  # the optimal route, drawn into the picture
                time.sleep(2)
                saved.append(term.shot(DOCS / f"picture-{columns}x{lines}.png"))
    with tempfile.TemporaryDirectory() as data:
        command = f"env SNL_DATA_DIR='{data}' COLORTERM=truecolor '{snl}' edit classic"
        with xterm_running(command, 96, 30) as term:
            time.sleep(6)  # the first frame, then the picture with its jumps routed
            # The cursor starts on square 1: up to 20, right to 18, enter starts a jump;
            # up to 23 and 38, right to 37: the ladder being made, 18 -> 37.
            term.press("Up", "Right", "Right", "Return", "Up", "Up", "Right")
            time.sleep(3)
            saved.append(term.shot(DOCS / "picture-editor.png"))
    with tempfile.TemporaryDirectory() as data:
        command = (
            f"env SNL_DATA_DIR='{data}' COLORTERM=truecolor '{snl}' play classic --seed 7 "
            "--no-save --players Ann,cpu:Bob,cpu:Cat,cpu:Dan --graphics text"
        )
        with xterm_running(command, 140, 45) as term:
            time.sleep(4)
            for _ in range(3):
                term.press("r")
                time.sleep(5)  # the move, then the computers' (three of them)
            saved.append(term.shot(DOCS / "board-terminal.png"))
    return saved


async def main() -> None:
    DOCS.mkdir(exist_ok=True)
    if "--xterm" in sys.argv[1:]:
        for path in xterm_pictures():
            print(path)
        return
    for shot in (classic_with_hint_and_route, puzzle_mode):
        print(await shot())


if __name__ == "__main__":
    asyncio.run(main())
