"""What a player named on the command line is what starts (issue 18, item 6); the saved
games screen (``g``) continues any unfinished game; settings are remembered (item 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from snl_tui.app import SnlApp
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import open_store
from snl_tui.core.store.settings import Settings, load_settings, save_settings
from snl_tui.screens.resume import ResumeScreen
from snl_tui.screens.saved_games import SavedGamesScreen
from snl_tui.widgets.board import BoardView

from ..unit.test_live_games import other_snl
from .helpers import SIZE, started, wait_until
from .test_saved_games import PLAYERS, quiet, saved_session


def offering_app(**options: object) -> SnlApp:
    """The app as ``snl play`` makes it: the store opens after the first frame."""
    return quiet(
        SnlApp(
            players=PLAYERS,
            seed=5,
            animate=False,
            open_store=open_store,
            offer_last=True,
            **options,
        )  # type: ignore[arg-type]
    )


async def test_a_named_board_starts_that_board_without_offering_another_game():
    with open_store() as store:
        saved_session(store)  # an unfinished classic game
    puzzle = load_board("leetcode-1")
    app = offering_app(
        board=puzzle, mode="puzzle", offer_only=lambda s: s.board == puzzle and s.mode == "puzzle"
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.pause()
        assert not isinstance(app.screen, ResumeScreen)
        assert screen.session.board == puzzle and screen.mode == "puzzle"
        await pilot.press("r")  # what a player presses to roll: it is not "resume" here
        assert screen.session.board == puzzle


async def test_a_named_board_offers_its_own_unfinished_game():
    with open_store() as store:
        _, game_id = saved_session(store)
    classic = load_board("classic")
    app = offering_app(
        board=classic, offer_only=lambda s: s.board == classic and s.mode == "classic"
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert app.screen.saved.id == game_id  # type: ignore[attr-defined]


async def test_the_saved_games_screen_continues_a_picked_game():
    with open_store() as store:
        first, first_id = saved_session(store, moves=4, seed=1)
        _, second_id = saved_session(store, moves=6, seed=2)
    app = quiet(SnlApp(players=PLAYERS, seed=5, animate=False, store=open_store()))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        options = app.screen.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == [str(second_id), str(first_id)]  # the most recent first
        options.highlighted = 1
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.saver.game_id == first_id)
        assert screen.session.game.rolls == first.game.rolls
        await pilot.press("g")  # the game being played is marked, not offered twice
        await wait_until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        options = app.screen.query_one(OptionList)
        current = options.get_option(str(first_id))
        assert current.disabled and "(this game)" in str(current.prompt)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SavedGamesScreen))
        assert screen.saver.game_id == first_id


async def test_animation_and_theme_are_remembered(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    app = quiet(SnlApp(players=PLAYERS, seed=5, animate=True, settings=Settings()))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("a")
        await wait_until(pilot, lambda: load_settings()[0].animation is False)
        app.theme = "nord"
        await wait_until(pilot, lambda: load_settings()[0].theme == "nord")
    remembered, notices = load_settings()
    assert notices == [] and remembered == Settings(animation=False, theme="nord")
    again = quiet(SnlApp(players=PLAYERS, seed=5, settings=remembered))
    async with again.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert again.theme == "nord"


async def test_drawn_jumps_are_remembered_and_every_board_follows_j(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    app = quiet(SnlApp(players=PLAYERS, seed=5, settings=Settings(drawn_jumps=False)))
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await started(pilot)
        view = screen.query_one(BoardView)
        assert not view.jumps_drawn  # the remembered choice, from the first frame
        await pilot.press("j")
        await wait_until(pilot, lambda: load_settings()[0].drawn_jumps is True)
        assert view.jumps_drawn and app.jumps_drawn
        await pilot.press("j")
        await wait_until(pilot, lambda: load_settings()[0].drawn_jumps is False)
    again = quiet(SnlApp(players=PLAYERS, seed=5, settings=load_settings()[0]))
    async with again.run_test(size=(140, 45)) as pilot:
        screen = await started(pilot)
        assert not screen.query_one(BoardView).jumps_drawn


def test_bad_settings_fall_back_to_defaults_with_one_notice_each(tmp_path: Path):
    path = tmp_path / "settings.toml"
    path.write_text('animation = "yes"\ntheme = "nord"\nplayers = 7\nfuture = 1\n')
    settings, notices = load_settings(path)
    assert settings == Settings(theme="nord")
    assert len(notices) == 3 and all("\n" not in n for n in notices)
    path.write_text("not = [toml")
    assert load_settings(path)[0] == Settings() and len(load_settings(path)[1]) == 1
    assert save_settings(Settings(players="Ann, cpu:Robo"), path) is None
    assert load_settings(path) == (Settings(players="Ann, cpu:Robo"), [])
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]  # no temporary left


async def test_the_games_keys_do_not_answer_the_resume_offer():
    """``r`` (roll), Space, Enter, ``n`` or a die value pressed by habit leave the offer
    open (``r`` used to resume it): ``c`` continues, Escape starts a new game."""
    with open_store() as store:
        _, game_id = saved_session(store)
    app = offering_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        for key in ("r", "space", "enter", "n", "1", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen), key
        assert app.game_screen.session.game.history == []
        await pilot.press("c")
        await wait_until(pilot, lambda: app.game_screen.saver.game_id == game_id)
        assert not isinstance(app.screen, ResumeScreen)


async def test_a_game_played_in_another_snl_is_not_offered():
    with open_store() as store:
        _, game_id = saved_session(store)
        path = store.path
    with other_snl(path, game_id):
        app = offering_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = await started(pilot)
            await wait_until(pilot, lambda: app.store is not None)
            await pilot.pause()
            assert not isinstance(app.screen, ResumeScreen)
            await pilot.press("r")  # a new game of its own, saved under a new id
            await wait_until(pilot, lambda: screen.saver.game_id is not None)
            assert screen.saver.game_id != game_id


async def test_a_rooms_game_is_told_with_its_command_never_offered_or_picked():
    from ..unit.test_room_games_saved import saved

    with open_store() as store:
        _, alone = saved_session(store, moves=4, seed=1)
        store.live.release(alone)
        room = saved(store, ("Ann", "Bo"), room=True)
    app = offering_app()
    told: list[str] = []
    notify = app.notify

    def heard(message: str, **options: Any) -> None:
        told.append(message)
        notify(message, **options)

    app.notify = heard  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert app.screen.saved.id == alone  # type: ignore[attr-defined]
        assert any(f"snl host --resume {room} reopens the room" in line for line in told)
        await pilot.press("c")
        await wait_until(pilot, lambda: not isinstance(app.screen, ResumeScreen))
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        line = app.screen.query_one(OptionList).get_option(str(room))
        assert line.disabled and f"(a room: snl host --resume {room})" in str(line.prompt)
