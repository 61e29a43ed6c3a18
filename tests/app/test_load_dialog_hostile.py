"""The load dialog against hostile files, and its loading off the UI thread (issue 10,
items 4 and 5).

The whole hostile corpus (``tests/unit/hostile.py``) sits in the working directory, so
the dialog lists and checks it on opening, and every file is then typed as a path and
submitted (Enter for the first, the action Enter runs for the rest: the pilot's key
waits for an idle process, which the listing keeps busy, and each took 0.1 s to 0.25 s
of the run's 13 s to 44 s): each gives one short, clean line of error inside the
dialog, and the game is never touched.
A load that takes long (a gate the test opens) leaves the keys answering.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from snl_tui.core.board import Board
from snl_tui.core.files import formats
from snl_tui.core.text import LINE_LIMIT, is_unsafe_char
from snl_tui.screens import load_board as load_board_module
from snl_tui.screens.load_board import LoadBoardScreen

from ..unit.hostile import build_corpus
from .helpers import SIZE, soon, started, wait_until


async def open_dialog(app, pilot) -> LoadBoardScreen:  # type: ignore[no-untyped-def]
    await pilot.press("l")
    await wait_until(pilot, lambda: isinstance(app.screen, LoadBoardScreen))
    dialog = app.screen
    await wait_until(pilot, lambda: dialog.is_mounted)
    return dialog


class GatedLoad:
    """``load_board`` in the dialog, held in its worker until the test opens ``gate``."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls: list[str] = []

    def __call__(self, source: str) -> Board:
        self.calls.append(source)
        assert self.gate.wait(60), "the test never opened the gate"
        return formats.load_board(source)


@pytest.fixture
def gated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GatedLoad:
    monkeypatch.chdir(tmp_path)  # no board files to list: only the chosen one loads
    load = GatedLoad()
    monkeypatch.setattr(load_board_module, "load_board", load)
    return load


async def type_and_enter(pilot, dialog: LoadBoardScreen, text: str) -> Input:  # type: ignore[no-untyped-def]
    path_input = dialog.query_one("#board-path", Input)
    path_input.value = text
    path_input.focus()
    await pilot.press("enter")
    return path_input


async def test_every_hostile_file_is_one_clean_line_and_the_game_goes_on(
    make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = build_corpus(tmp_path / "corpus")
    monkeypatch.chdir(tmp_path / "corpus")  # listed (and checked) as the dialog opens
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        session = game.session
        # The action "l" runs (the tests below press it): the pilot's key would wait for
        # an idle process, a second at a time, while the listing checks the corpus.
        await game.run_action("load_board")
        await soon(lambda: isinstance(app.screen, LoadBoardScreen) and app.screen.is_mounted)
        dialog = app.screen
        assert isinstance(dialog, LoadBoardScreen)
        error = dialog.query_one("#load-error", Static)
        path_input = dialog.query_one("#board-path", Input)
        path_input.focus()
        for index, (name, path) in enumerate(corpus.items()):
            error.remove_class("-shown")  # shown again by this file's own result
            path_input.value = str(path)
            if index == 0:
                await pilot.press("enter")
            else:  # what Enter does, without the pilot's waits for an idle process
                await path_input.action_submit()
            await soon(lambda: dialog.pending_source is None and error.has_class("-shown"))
            assert app.screen is dialog, name
            message = str(error.render())
            assert error.has_class("-shown") and message, name
            assert "\n" not in message and len(message) <= LINE_LIMIT, (name, message)
            assert not [char for char in message if is_unsafe_char(char)], (name, message)
        # The listing's worker got through every file too, without failing the app.
        await wait_until(pilot, lambda: not any(w.is_running for w in dialog.workers))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        assert game.session is session
    assert app.return_code in (None, 0)


async def test_a_slow_load_leaves_the_keys_answering_and_escape_cancels_it(
    make_app, gated: GatedLoad
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        board = game.session.board
        dialog = await open_dialog(app, pilot)
        path_input = await type_and_enter(pilot, dialog, "leetcode-2")
        await wait_until(pilot, lambda: gated.calls == ["leetcode-2"])
        hint = str(dialog.query_one("#load-hint", Static).render())
        assert hint.startswith("Loading leetcode-2")
        # The load is stuck in its worker; the dialog still answers keys.
        await pilot.press("end", "x")
        assert path_input.value == "leetcode-2x"
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        gated.gate.set()  # the load finishes after the dialog was cancelled: it is dropped
        await wait_until(pilot, lambda: not any(w.is_running for w in dialog.workers))
        assert game.session.board is board


async def test_a_slow_load_closes_the_dialog_with_its_board_when_done(
    make_app, gated: GatedLoad
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        dialog = await open_dialog(app, pilot)
        await type_and_enter(pilot, dialog, "leetcode-2")
        await wait_until(pilot, lambda: dialog.pending_source == "leetcode-2")
        assert app.screen is dialog
        gated.gate.set()
        await wait_until(pilot, lambda: app.screen is game)
        await wait_until(pilot, lambda: game.session.board == formats.load_board("leetcode-2"))


async def test_a_board_too_large_to_play_is_refused_in_the_dialog(
    make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36, item 10: the Load dialog keeps to ``snl play``'s bound (a 1000 x 1000
    board took the game past 3.5 GB); the message says the bound, the game goes on."""
    from snl_tui.core.limits import PLAY_MAX_SQUARES

    side = int(PLAY_MAX_SQUARES**0.5) + 1
    path = tmp_path / "wide.txt"
    path.write_text(f"{side} {side}\n2 {side * side - 1}\n")
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        game = await started(pilot)
        board = game.session.board
        dialog = await open_dialog(app, pilot)
        await type_and_enter(pilot, dialog, str(path))
        await wait_until(pilot, lambda: dialog.pending_source is None)
        message = str(dialog.query_one("#load-error", Static).render())
        assert app.screen is dialog and "too large to play" in message
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        assert game.session.board is board
