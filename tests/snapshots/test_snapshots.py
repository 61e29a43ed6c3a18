"""Snapshot tests (pytest-textual-snapshot) at 120x40, textual-dark, seeded, no animation.

Update after an intended visual change with ``pytest tests/snapshots --snapshot-update``
and look at the SVGs in ``__snapshots__`` before committing them.
"""

from __future__ import annotations

from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from tests.app.helpers import computed

SIZE = (120, 40)


def quiet_app(**options: object) -> SnlApp:
    options.setdefault("seed", 7)
    app = SnlApp(animate=False, **options)  # type: ignore[arg-type]
    app.theme = "textual-dark"
    app.game_screen.computer_delay = 0
    return app


async def settle(pilot: Pilot, rounds: int = 5) -> None:
    for _ in range(rounds):
        await pilot.pause()


PAUSES = 2000
"""How many pauses ``started`` waits for the game before it gives up (a failed test, not
a hang)."""


async def started(pilot: Pilot) -> None:
    """Wait until the game is on screen and the solver has answered for its board."""
    screen = pilot.app.game_screen  # type: ignore[attr-defined]
    for _ in range(PAUSES):
        if screen.ready:
            await computed(pilot)
            return
        await pilot.pause()
    raise AssertionError("the game screen never became ready")


def pressing(*keys: str):  # type: ignore[no-untyped-def]
    """A ``run_before`` that starts the game, presses ``keys`` and waits for the workers."""

    async def run_before(pilot: Pilot) -> None:
        await started(pilot)
        await pilot.press(*keys)
        await computed(pilot)

    return run_before


def test_classic_with_hint_and_route(snap_compare) -> None:
    app = quiet_app(players=[Player("Ann"), Player("Bot", computer=True)])

    async def run_before(pilot: Pilot) -> None:
        screen = app.game_screen
        await started(pilot)
        for _ in range(3):  # three rounds: Ann rolls, Bot answers
            screen.action_roll()
            await settle(pilot)
        screen.action_toggle_hint()
        screen.action_toggle_route()
        await computed(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_puzzle_mode_after_three_moves(snap_compare) -> None:
    app = quiet_app(mode="puzzle")
    assert snap_compare(app, terminal_size=SIZE, run_before=pressing("4", "2", "9", "h"))


def test_large_board_scrolled_to_the_token(snap_compare) -> None:
    app = quiet_app(board=load_board("everest"), players=[Player("Ann")], mode="puzzle")
    assert snap_compare(app, terminal_size=SIZE, run_before=pressing("6", "6", "o"))


def test_load_dialog_showing_an_error(snap_compare) -> None:
    app = quiet_app()

    async def run_before(pilot: Pilot) -> None:
        await started(pilot)
        await pilot.press("l")
        await settle(pilot)
        path = app.screen.query_one("#board-path")
        path.focus()
        path.value = "broken.json"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_too_small_terminal(snap_compare) -> None:
    assert snap_compare(quiet_app(), terminal_size=(60, 16))
