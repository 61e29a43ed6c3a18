"""Saved games in the app: autosave, the resume dialog, q/n/m, statistics and replay.

Each test has its own store in a temporary folder (``tests/conftest.py`` points
``SNL_DATA_DIR`` there); the CLI's default path is what passes ``store``/``offer``.
"""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Static

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import Store, open_store
from snl_tui.core.store.saving import GameSaver
from snl_tui.screens.confirm import ConfirmScreen
from snl_tui.screens.game import GameScreen
from snl_tui.screens.replay import SPEEDS, ReplayScreen
from snl_tui.screens.resume import ResumeScreen
from snl_tui.screens.stats import StatsScreen
from snl_tui.widgets.board import BoardView

from .helpers import SIZE, computed, cpu, started, wait_until

PLAYERS = (Player("You"), cpu())


def quiet(app: SnlApp) -> SnlApp:
    app.game_screen.computer_delay = 0
    return app


def saved_session(store: Store, moves: int = 6, seed: int = 21) -> tuple[GameSession, int]:
    """A game of ``moves`` rolls saved in ``store`` as the CLI's game would have."""
    session = GameSession(GameSettings(load_board("classic"), PLAYERS, seed))
    saver = GameSaver(store)
    for _ in range(moves):
        session.move()
        saver.moved(session)
    assert saver.game_id is not None
    return session, saver.game_id


def human_can_roll(screen: GameScreen) -> bool:
    return screen.can_move() and screen.session.human_to_move


async def test_each_move_is_saved_and_q_keeps_the_game_resumable():
    store = open_store()
    app = quiet(SnlApp(players=PLAYERS, seed=3, animate=False, store=store))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        for _ in range(3):
            await wait_until(pilot, lambda: human_can_roll(screen))
            await pilot.press("r")
        await wait_until(pilot, lambda: human_can_roll(screen))
        game = screen.session.game
        saved = store.load_game(screen.saver.game_id)
        assert saved.data["game"]["rolls"] == game.rolls and len(game.rolls) == 6
        assert saved.data["positions"] == game.positions
        await pilot.press("q")
    assert app.return_code == 0
    last = store.last_unfinished()
    assert last is not None and last.id == saved.id and last.status == "playing"


async def test_switching_mode_or_a_new_game_marks_the_game_abandoned():
    store = open_store()
    app = quiet(SnlApp(players=PLAYERS, seed=3, animate=False, store=store))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: human_can_roll(screen))
        first = screen.saver.game_id
        await pilot.press("m")  # puzzle mode: the classic game is left, once confirmed
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await started(pilot)
        assert store.load_game(first).status == "abandoned"
        assert store.last_unfinished() is None  # the new game has no moves: not stored
        await pilot.press("1")
        await wait_until(pilot, lambda: screen.saver.game_id not in (None, first))
        second = screen.saver.game_id
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is not screen)
        await pilot.click("#start")
        await wait_until(pilot, lambda: app.screen is screen)
        assert store.load_game(second).status == "abandoned"
        assert [g.status for g in store.list_games().games] == ["abandoned", "abandoned"]


async def test_the_resume_dialog_resumes_the_saved_game_exactly():
    store = open_store()
    session, game_id = saved_session(store)
    offer = store.last_unfinished()
    assert offer is not None
    app = quiet(SnlApp(players=PLAYERS, animate=False, store=store, offer=offer))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert "You: square" in " ".join(str(s.render()) for s in app.screen.query(".resume-line"))
        await pilot.press("c")
        screen = await started(pilot)
        assert screen.session.game.rolls == session.game.rolls
        assert screen.session.game.positions == session.game.positions
        # The next rolls are the ones the uninterrupted game would have made.
        while len(session.game.history) < 10:
            session.move()
        for _ in range(2):
            await wait_until(pilot, lambda: human_can_roll(screen))
            await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.session.game.history) >= 10)
        await wait_until(pilot, lambda: not screen.busy)
        assert screen.session.game.rolls[:10] == session.game.rolls
        assert screen.saver.game_id == game_id
    assert store.load_game(game_id).data["game"]["rolls"][:10] == session.game.rolls


async def test_choosing_a_new_game_abandons_the_offered_one():
    store = open_store()
    _, game_id = saved_session(store)
    offer = store.last_unfinished()
    app = quiet(SnlApp(players=PLAYERS, seed=5, animate=False, store=store, offer=offer))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("escape")
        screen = await started(pilot)
        assert screen.session.game.history == []
        assert store.load_game(game_id).status == "abandoned"
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.saver.game_id is not None)
        assert screen.saver.game_id != game_id


async def test_the_command_lines_store_opens_after_the_first_frame_and_offers_first():
    # ``snl play`` passes ``open_store``: the store opens once the board has been drawn,
    # and the last unfinished game is offered before the game begins.
    with open_store() as store:
        session, game_id = saved_session(store)
    drawn_when_opened: list[int] = []
    app: SnlApp

    def opener() -> Store:
        drawn_when_opened.append(app.game_screen.query_one(BoardView).lines_painted)
        return open_store()

    app = quiet(SnlApp(players=PLAYERS, seed=5, animate=False, open_store=opener, offer_last=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert len(drawn_when_opened) == 1 and drawn_when_opened[0] > 0
        assert app.game_screen.session.game.history == []  # no move before the answer
        await pilot.press("c")
        screen = await started(pilot)
        assert screen.session.game.rolls == session.game.rolls
        assert screen.saver.game_id == game_id
    assert len(drawn_when_opened) == 1
    assert app.store is not None and app.store.load_game(game_id).status == "playing"


async def test_without_a_store_the_app_offers_nothing_and_saves_nothing(tmp_path: Path):
    app = quiet(SnlApp(players=PLAYERS, seed=3, animate=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: human_can_roll(screen))
        assert not isinstance(app.screen, ResumeScreen)
        assert screen.saver.game_id is None


def seed_history(store: Store) -> None:
    """Finished classic games on the classic board, seeded."""
    session = GameSession(GameSettings(load_board("classic"), PLAYERS, 11))
    saver = GameSaver(store)
    for _ in range(8):
        while not session.game.over:
            session.move()
            saver.moved(session)
        session.new_game()


async def test_the_statistics_screen_shows_the_store_beside_the_exact_odds():
    store = open_store()
    seed_history(store)
    record = next(p for p in store.stats().boards[0].players if p.player == "You")
    assert record.lengths  # the seed gives You some wins to draw
    app = quiet(SnlApp(players=PLAYERS, seed=3, animate=False, store=store))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen))
        stats = app.screen
        await computed(pilot)
        await wait_until(pilot, lambda: stats.text is not None)
        text = stats.text
        assert text is not None
        row = re.search(r"^You\s+(\d+)\s+(\d+)\s+([\d.]+)", text, re.M)
        assert row is not None
        assert (int(row[1]), int(row[2])) == (record.games, record.wins)
        assert float(row[3]) == round(record.average_length, 1)
        assert "exact: 39.2 turns expected" in text  # the classic board's exact figure
        assert "Your game lengths on Chutes and Ladders" in text
        counts = re.findall(r"(\d+) \(\d+%\)$", text, re.M)
        assert sum(map(int, counts)) == len(record.lengths)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))


async def test_the_statistics_screen_opens_on_the_current_board():
    """Issue 33: opened on everest, the screen showed the classic table. Now everest's
    line comes first (no games on it yet) and classic's table under "Other boards"."""
    store = open_store()
    seed_history(store)
    everest = load_board("everest")
    app = quiet(SnlApp(board=everest, players=PLAYERS, seed=3, animate=False, store=store))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen))
        stats = app.screen
        await wait_until(pilot, lambda: stats.text is not None)
        text = stats.text
        assert text is not None
        lines = text.splitlines()
        assert lines[0] == f"{everest.name}: no finished games on this board yet."
        assert lines.index("Other boards") < text.splitlines().index(
            next(line for line in lines if line.startswith("Chutes and Ladders (exact"))
        )
        assert f"no classic game won by You on {everest.name} yet" in text


def replay_app(store: Store, *, animate: bool) -> tuple[GameSession, SnlApp, ReplayScreen]:
    """A saved 14-move game, and an app that replays it from its saved form."""
    session, _ = saved_session(store, moves=14)
    app = SnlApp.replaying(GameSession.from_dict(session.to_dict()), animate=animate)
    replay = app.front_screen
    assert isinstance(replay, ReplayScreen)
    return session, app, replay


async def test_a_replay_shows_every_move_and_space_pauses_it():
    store = open_store()
    session, app, replay = replay_app(store, animate=False)
    # Paused before it starts: without animation a replay can end before a key arrives.
    replay.running.clear()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "n", "n")  # three moves, each shown and held
        await wait_until(pilot, lambda: replay.shown == 3 and replay.paused)
        for _ in range(20):
            await pilot.pause()
        assert replay.shown == 3 < len(session.game.rolls)  # paused: nothing more
        await pilot.press("space")
        assert not replay.paused
        await wait_until(pilot, lambda: replay.finished)
        assert replay.game.rolls == session.game.rolls
        assert replay.game.positions == session.game.positions
        await pilot.press("q")
    assert app.return_code == 0
    assert len(store.list_games().games) == 1  # nothing saved by the replay


async def test_a_replay_steps_one_move_at_a_time_and_changes_speed():
    session, app, replay = replay_app(open_store(), animate=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # paused before (or just after) the first move
        assert replay.paused
        status = replay.query_one("#status", Static)
        assert f"{replay.key('step')} shows the next move" in str(status.render())
        for expected in range(replay.shown + 1, replay.shown + 4):
            await pilot.press("n")
            await wait_until(pilot, lambda n=expected: replay.shown == n and replay.paused)
        held = replay.shown
        for _ in range(20):
            await pilot.pause()
        assert replay.shown == held  # each step shows one move, then holds
        # Speed: one step per key, within the bounds, and the moves' wait follows it.
        normal = replay.move_delay
        await pilot.press("plus")
        assert replay.speed == 2.0 and replay.move_delay == normal / 2
        await pilot.press(*["minus"] * 10)
        assert replay.speed == SPEEDS[0] and replay.move_delay == normal / SPEEDS[0]
        await pilot.press(*["plus"] * 10)
        assert replay.speed == SPEEDS[-1]
        await pilot.press("space")
        assert f"at {SPEEDS[-1]:g}x speed: space pauses, +/- faster/slower" in str(status.render())
        await wait_until(pilot, lambda: replay.finished, limit=20_000)
        assert replay.game.rolls == session.game.rolls
        await pilot.press("q")
    assert app.return_code == 0


def test_an_app_builds_only_the_screen_it_shows() -> None:
    """``snl replay`` (and ``snl edit``, ``snl join``) build no hidden game screen; the
    app holds the store itself."""
    store = open_store()
    _, app, replay = replay_app(store, animate=False)
    assert app.game_screen is None and app.get_default_screen() is replay
    assert app.store is None  # nothing saved by a replay
    played = SnlApp(animate=False, store=store)
    assert played.game_screen is not None and played.store is store
    assert played.game_screen.saver is played.saver
