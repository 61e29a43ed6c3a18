"""Pilot tests of what the hint panel says: at the goal, on boards that never finish,
and how it writes percentages."""

from __future__ import annotations

import re

import pytest
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import Static

from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.rules import Rules
from snl_tui.core.solver import optimal_route
from snl_tui.screens.winner import GameOverScreen
from snl_tui.widgets.hint_panel import HintPanel, OddsChart, _show_text, percent

from .helpers import SIZE, computed, cpu, game_screen, settle, started, wait_until

PERCENT = re.compile(r"(\S*)%")


async def panel_text(pilot) -> str:  # type: ignore[no-untyped-def]
    """What the panel shows once its workers are done: its visible lines, top to bottom."""
    await computed(pilot)
    panel = game_screen(pilot.app).query_one(HintPanel)
    lines = [str(w.render()) for w in panel.query(Static) if w.display]
    chart = panel.query_one(OddsChart)
    if chart.display:
        lines.append(chart.label)
    return "\n".join(lines)


async def chart_shown(pilot) -> bool:  # type: ignore[no-untyped-def]
    await computed(pilot)
    return game_screen(pilot.app).query_one(HintPanel).query_one(OddsChart).display


async def test_at_the_goal_the_panel_says_so_without_odds_or_chart(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("h")
        assert await chart_shown(pilot)
        for die in optimal_route(board, 0).rolls:
            await pilot.press(str(die))
            await settle(pilot, 2)
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert screen.game.positions == [100]
        text = await panel_text(pilot)
        assert "At the goal." in text
        assert "Finish in" not in text and "%" not in text
        assert "Expected turns" not in text and "Finishing turn" not in text
        assert not await chart_shown(pilot)


async def test_the_winner_of_a_classic_game_is_shown_at_the_goal(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")], seed=3)  # a 21-move game
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("h")
        while not screen.game.over:
            await wait_until(pilot, lambda: screen.can_move() or screen.game.over)
            if not screen.game.over:
                await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        winner = screen.game.players[screen.game.winner].name  # type: ignore[index]
        text = await panel_text(pilot)
        assert f"{winner} on 100\nAt the goal." in text
        assert "%" not in text and not await chart_shown(pilot)


async def test_a_board_that_never_finishes_shows_no_chart(make_app) -> None:
    # 3x3: every square a die can reach from square 1 (2..7) is a snake back to 1.
    board = Board.from_jumps(3, 3, snakes=[(s, 1) for s in range(2, 8)])
    app = make_app(board=board, players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        await settle(pilot)
        text = await panel_text(pilot)
        assert "Goal unreachable from here." in text
        assert "Expected turns left: never" in text
        assert "Random play never reaches the goal." in text
        assert "Finishing turn" not in text and "1-1000" not in text
        assert "Finish in 5 / 10 turns" not in text  # 0% / 0%: the line above says it
        assert not await chart_shown(pilot)


async def test_a_board_with_a_trap_charts_the_games_that_finish(make_app) -> None:
    # A two-sided die: from 2 a roll may land on 4, and 4 can only reach snakes back to
    # 4; the ladder 3 -> 8 escapes. A quarter of the games never finish.
    board = Board.from_jumps(1, 10, snakes=[(5, 4), (6, 4)], ladders=[(3, 8)], rules=Rules(faces=2))
    app = make_app(board=board, players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        await settle(pilot)
        text = await panel_text(pilot)
        assert "Expected turns left: infinite" in text
        assert "Never finishes: 25%" in text
        assert await chart_shown(pilot)
        label = game_screen(app).query_one(OddsChart).label
        span = int(re.search(r"Finishing turn, 1-(\d+)", label).group(1))  # type: ignore[union-attr]
        assert span < 1000  # the finishing games end within a few turns: no flat tail


async def test_percentages_follow_one_rule(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, players=[Player("Ann"), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("h")
        await settle(pilot)
        text = await panel_text(pilot)
        # From the start of classic: 7 rolls at least, so none within 5 turns.
        assert "Finish in 5 / 10 turns: 0% / 2%" in text
        shown = PERCENT.findall(text)
        assert len(shown) == 4  # 5 turns, 10 turns, Ann, Bot
        assert all(re.fullmatch(r"<1|>99|\d{1,3}", value) for value in shown), shown

    app = make_app(board=board, mode="puzzle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("h", "1", "1")  # 0 -> 1, ladder to 38; then 39
        await settle(pilot)
        assert screen.game.positions == [39]
        # 0.27% within 5 turns: not "0%", and not a lone decimal beside whole numbers.
        assert "Finish in 5 / 10 turns: <1% / 8%" in (await panel_text(pilot))


def test_percent_is_whole_with_small_and_near_certain_values_marked() -> None:
    assert percent(None) == "n/a"
    assert percent(0.0) == "0%"
    assert percent(1e-12) == "0%"
    assert percent(0.004) == "<1%"
    assert percent(0.0099) == "<1%"
    assert percent(0.01) == "1%"
    assert percent(0.426) == "43%"
    assert percent(0.99) == "99%"
    assert percent(0.995) == ">99%"
    assert percent(0.9999) == ">99%"
    assert percent(1.0) == "100%"
    assert percent(1.0 - 1e-12) == "100%"


async def test_new_hint_text_gets_its_height_with_or_without_a_layout() -> None:
    """A text as tall as the one before is painted without a layout of the screen; a
    taller or shorter one is laid out again (the panel never cuts or pads a line)."""

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("one line", id="text", markup=False)

    app = One()
    async with app.run_test(size=(20, 10)) as pilot:
        view = app.query_one("#text", Static)
        view.styles.width = 20
        await pilot.pause()
        assert view.size.height == 1
        layouts: list[bool] = []
        original = view.refresh

        def counting_refresh(*regions, **options):  # type: ignore[no-untyped-def]
            layouts.append(bool(options.get("layout")))
            return original(*regions, **options)

        view.refresh = counting_refresh  # type: ignore[method-assign]
        _show_text(view, Text("another line"))
        await pilot.pause()
        assert view.size.height == 1 and not any(layouts)
        _show_text(view, Text("a text that takes three rows at twenty cells"))
        await pilot.pause()
        assert any(layouts)
        assert view.size.height == 3
        assert "rows" in " ".join(view.render_line(y).text for y in range(3))
        layouts.clear()
        _show_text(view, Text("short"))
        await pilot.pause()
        assert any(layouts) and view.size.height == 1


@pytest.mark.parametrize(
    "data",
    [
        [0.0, 0.1, 0.5, 0.2, 0.05, 0.0],  # fewer values than bars: bars repeat
        [((n * 37) % 101) / 101 for n in range(493)],  # many values a bar
        [0.3],  # one value: full bars
        [0.2, 0.2, 0.2],  # no extent
    ],
)
async def test_the_odds_chart_draws_what_textuals_sparkline_draws(data: list[float]) -> None:
    """Same bars, same colours, in every cell: the chart replaced a Sparkline (and the
    Static of its label) and the screen must not change."""
    from textual.widgets import Sparkline

    class Both(App[None]):
        CSS = """
        Sparkline, OddsChart { width: 42; height: 2; }
        OddsChart > .chart--max-color { color: $primary; }
        OddsChart > .chart--min-color { color: $primary 30%; }
        """

        def compose(self) -> ComposeResult:
            yield Sparkline(data)
            yield OddsChart()

    app = Both()
    async with app.run_test(size=(50, 6)) as pilot:
        chart = app.query_one(OddsChart)
        chart.show(data, "")
        await pilot.pause()
        sparkline = app.query_one(Sparkline)
        for y in range(2):
            expected = sparkline.render_line(y)
            drawn = chart.render_line(y)
            assert cells(drawn) == cells(expected)


def cells(strip: Strip) -> list[tuple[str, Style | None]]:
    """Each cell of ``strip``: its character and style (however the segments split)."""
    return [(char, segment.style) for segment in strip for char in segment.text]
