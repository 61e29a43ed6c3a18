"""Snapshot of the statistics screen over a fixed, seeded store (120x40, textual-dark).

The store is filled by playing seeded games through the autosave coordinator, so its
content (not its times, which the screen does not show) is the same on every run.
Update with ``pytest tests/snapshots/test_stats_snapshot.py --snapshot-update``.
"""

from __future__ import annotations

from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.solver import optimal_dice
from snl_tui.core.store.games import Store, open_store
from snl_tui.core.store.saving import GameSaver
from snl_tui.screens.stats import StatsScreen

from .test_snapshots import SIZE, computed, started

PLAYERS = (Player("You"), Player("CPU", computer=True))


def seeded_store() -> Store:
    """Twelve classic games and one puzzle (one move off the optimum) on classic."""
    store = open_store()  # in the test's own SNL_DATA_DIR (tests/conftest.py)
    board = load_board("classic")
    session = GameSession(GameSettings(board, PLAYERS, 11))
    saver = GameSaver(store)
    for _ in range(12):
        while not session.game.over:
            session.move()
            saver.moved(session)
        session.new_game()
    session.new_game(GameSettings(board, PLAYERS, 5, "puzzle"))
    session.move(2)
    saver.moved(session)
    while not session.game.over:
        session.move(optimal_dice(board, session.game.position)[0])
        saver.moved(session)
    return store


def test_statistics_screen(snap_compare) -> None:
    app = SnlApp(players=PLAYERS, seed=7, animate=False, store=seeded_store())
    app.theme = "textual-dark"
    app.game_screen.computer_delay = 0

    async def run_before(pilot: Pilot) -> None:
        await started(pilot)
        await pilot.press("s")
        for _ in range(200):
            if isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.text:
                break
            await computed(pilot)
        assert isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.text
        await computed(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
