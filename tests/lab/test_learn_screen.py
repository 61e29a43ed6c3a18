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
    monkeypatch.setattr(learn, "RUN_DELAYS", (0.001,) * len(learn.RUN_DELAYS))
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
    # 1 roll where 2 are needed: the squares 1 roll reaches are the facts shown.
    failure = Failure("wrong", made.rows(), made.expected, Outcome("answer", 1), "test", 3)
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
        assert "No sequence of 1 roll reaches square 9" in text_of(screen, "#learn-judged")
        await pilot.press("space")
        assert screen.position == 0
        await pilot.press("b", "b")
        assert screen.position == INTRO


async def test_a_judged_board_the_goal_cannot_be_reached_on_names_no_route() -> None:
    rows = [[1, 1, -1], [1, 1, 1], [-1, -1, 1]]  # every roll from 1 lands on a snake to 1
    outcome = Outcome("timeout", text="no answer within 2 s of CPU time", cpu=2.0)
    explained = explain(Failure("timeout", rows, -1, outcome, "test", 3))
    assert explained.route == []
    app, screen = learning(explained.board, judged=explained)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        step = text_of(screen, "#learn-step")
        assert step.startswith("Expected -1, your solution: no answer. No roll sequence ")
        assert "optimal route" not in step


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


# -- at 80x24 (the smallest terminal people use) --------------------------------------


async def test_the_whole_classic_board_shows_at_80x24_beside_the_words() -> None:
    board = load_board("classic")
    app, screen = learning(board)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l", "l", "l")
        await settle(pilot)
        view = screen.query_one(LearnBoard)
        room = view.size.width  # inside the border, as the squares are laid out
        assert view.cell_width * board.cols <= room and view.scroll_offset == (0, 0)
        assert view.cell_height * board.rows <= view.size.height
        assert screen.query_one("#learn-side").size.width >= 20  # the words beside it


async def test_the_view_follows_the_square_being_expanded() -> None:
    """On a board too large for the screen, a step that takes a square off the queue
    (no die moved yet) brings that square into view, not only the squares moved to."""
    board = load_board("everest")
    app, screen = learning(board)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = screen.query_one(LearnBoard)
        pops = [i for i, step in enumerate(screen.search.steps) if step.labels == ("pop",)]
        checked = 0
        for position in pops[1:40:3]:
            screen.go(position)
            await settle(pilot)
            assert screen.view is not None and screen.view.step.here is not None
            assert view.out_of_view() == [], (position, view.out_of_view())
            checked += 1
        assert checked >= 10


async def test_the_code_scrolls_to_its_current_lines_when_the_side_is_short() -> None:
    board = load_board("classic")
    app, screen = learning(board)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l", "l", "space", "space")
        await settle(pilot)
        code = screen.query_one(CodePanel)
        scroll = screen.query_one("#learn-code-scroll")
        assert code.current and scroll.size.height < len(code.lines)  # it must scroll
        top = round(scroll.scroll_offset.y)
        shown = range(top, top + scroll.size.height)
        assert all(line in shown for line in code.current), (code.current, shown)


@pytest.mark.parametrize(("size", "shown"), [((80, 24), True), (SIZE, False)])
async def test_the_marks_are_told_beside_a_board_without_its_legend(
    size: tuple[int, int], shown: bool
) -> None:
    """At 80x24 the board has no room for its legend: the side says what »n, @ and +
    mean; where the legend shows, the side does not repeat it."""
    app, screen = learning(load_board("classic"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        board = screen.query_one(LearnBoard)
        key = screen.query_one("#learn-key", Static)
        assert bool(board.legend) is not shown
        assert key.display is shown
        assert text_of(screen, "#learn-key").startswith("»n reached in n rolls, @ ")


async def test_the_run_has_a_speed_control() -> None:
    board = load_board("leetcode-1")
    app, screen = learning(board)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        start = screen.speed
        await pilot.press("minus", "minus")
        assert screen.speed == start - 2 and screen.runner is None
        await pilot.press("r")
        assert screen.runner is not None
        assert f"running: {learn.RUN_DELAYS[start - 2]:g} s a step" in text_of(
            screen, "#learn-title"
        )
        await pilot.press("plus")
        assert screen.speed == start - 1 and screen.runner is not None
        await pilot.press("r")
        assert screen.runner is None and "running" not in text_of(screen, "#learn-title")
        for _ in range(len(learn.RUN_DELAYS) + 1):
            await pilot.press("plus")
        assert screen.speed == len(learn.RUN_DELAYS) - 1


async def test_the_code_defines_cell_and_each_die_says_where_it_lands() -> None:
    board = load_board("leetcode-1")
    app, screen = learning(board)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = [line.text for line in screen.search.code]
        assert code[0].startswith("def cell(board, s):")
        assert "            r, c = cell(board, s2)" in code
        for step in screen.search.steps:
            if step.labels[0] == "die":
                assert step.landed is not None
                row, col = board.position_of(step.landed)
                assert f"(cell({step.landed}) = row {row}, column {col})" in step.text
        shading = text_of(screen, "#learn-shading")
        assert shading.splitlines()[:3] == [
            "Shading:",
            "     reached (»n: in n rolls)",
            "     in the queue",
        ]


async def test_queued_squares_stand_out_at_256_colours() -> None:
    """The queue's shade maps to a 256-colour index no unqueued square has (it shared
    one with the odd squares before)."""
    from rich.color import ColorSystem

    board = load_board("leetcode-1")
    app, screen = learning(board)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen.go(9)  # square 1 expanded: 3..7 wait in the queue
        await settle(pilot)
        view = screen.query_one(LearnBoard)
        queued = {s for s, mark in view.marks.items() if mark == "queued"}
        assert queued
        shades: dict[str, set[int]] = {"queued": set(), "other": set()}
        for y in range(view.size.height):
            for segment in view.render_line(y):
                text, style = segment.text.strip(), segment.style
                if not text.isdigit() or style is None or style.bgcolor is None:
                    continue
                index = style.bgcolor.downgrade(ColorSystem.EIGHT_BIT).number
                square = int(text)
                if square in queued:
                    shades["queued"].add(index)  # type: ignore[arg-type]
                elif square not in view.marks and square <= board.goal:
                    shades["other"].add(index)  # type: ignore[arg-type]
        assert shades["queued"] and shades["other"]
        assert not shades["queued"] & shades["other"], shades
