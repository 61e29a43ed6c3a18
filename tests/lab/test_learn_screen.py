"""The learn screen (Pilot): the distances on the board and the queue beside it are the
search's, keys step a square or a level, run and go back; a judged board opens on the
route and the suspected squares; puzzle mode's key opens it over the game."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from snl_tui.app import SnlApp
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.lab.boards import case
from snl_tui.lab.judge import Failure
from snl_tui.lab.report import explain
from snl_tui.lab.runner import Outcome
from snl_tui.lab.search import forward_distances
from snl_tui.screens import learn
from snl_tui.screens.learn import INTRO, LEARN_CSS, LearnScreen
from snl_tui.widgets.code_panel import CURRENT, CodePanel
from snl_tui.widgets.learn_board import LearnBoard
from tests.app.helpers import SIZE, settle, wait_until


def learning(board: Board, **options: object) -> tuple[SnlApp, LearnScreen]:
    screen = LearnScreen(board, **options)  # type: ignore[arg-type]
    return SnlApp(board=board, animate=False, front=screen, front_css=LEARN_CSS), screen


def labels(screen: LearnScreen) -> dict[int, int]:
    """Each square's distance label as the board draws it."""
    cells = screen.query_one(LearnBoard).cell_states
    return {s: state.route_step for s, state in cells.items() if state.route_step is not None}


def text_of(screen: LearnScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_levels_on_leetcode_1_match_the_solver() -> None:
    board = load_board("leetcode-1")
    app, screen = learning(board)
    distances = forward_distances(board)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert labels(screen) == {1: 0}
        for level in (1, 2):
            await pilot.press("l")
            await settle(pilot)
            view = screen.view
            assert view is not None and view.step.level == level
            shown = labels(screen)
            assert shown and all(distances[s] == d for s, d in shown.items())
            queue = text_of(screen, "#learn-queue").splitlines()[0]
            squares = [int(w) for w in queue.split(":")[1].split() if w.isdigit()]
            assert squares == list(view.queue)
            assert all(distances[s] in (level, level + 1) for s in squares)
        code = str(screen.query_one(CodePanel).render())
        assert f"{CURRENT}        s = queue.popleft()" in code
        before = screen.position
        await pilot.press("space")
        assert screen.position == before + 1
        await pilot.press("b", "b")
        assert screen.position == before - 1


async def test_running_to_the_end_reads_the_route_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learn, "RUN_DELAY", 0.001)
    board = load_board("leetcode-1")
    app, screen = learning(board)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.position == len(screen.search.steps) - 1)
        assert screen.runner is None
        assert text_of(screen, "#learn-step") == "The route: 1 -> 15 -> 13 -> 35 -> 36, 4 rolls."
        marks = screen.query_one(LearnBoard).marks
        assert {s for s, m in marks.items() if m == "route"} == {1, 15, 13, 35, 36}
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_judged_board_opens_on_the_route_and_the_suspects() -> None:
    made = case("test", 3, {4: 1, 5: 1, 6: 1})
    failure = Failure("wrong", made.rows(), made.expected, Outcome("answer", 3), "test", 3)
    explained = explain(failure)
    app, screen = learning(explained.board, judged=explained)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert screen.position == INTRO
        view = screen.query_one(LearnBoard)
        route = explained.route
        assert labels(screen) == {s: i for i, s in enumerate(route) if i}
        suspected = {s for s, state in view.cell_states.items() if 2 in state.tokens}
        assert suspected == set(explained.suspects) and suspected
        assert "rolls 1 to 5" in text_of(screen, "#learn-judged")
        await pilot.press("space")
        assert screen.position == 0
        await pilot.press("b", "b")
        assert screen.position == INTRO


async def test_puzzle_mode_key_opens_the_search_over_the_game() -> None:
    board = load_board("leetcode-1")
    app = SnlApp(board=board, animate=False, mode="puzzle", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, LearnScreen) and app.screen.board == board
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is app.game_screen


async def test_classic_mode_says_the_key_is_for_puzzles() -> None:
    app = SnlApp(board=load_board("leetcode-1"), animate=False, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert not isinstance(app.screen, LearnScreen)
        assert "puzzle mode" in str(app.game_screen.query_one("#status", Static).render())
