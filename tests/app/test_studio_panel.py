"""Pilot tests of the studio's live numbers panel, mounted alone in a small app."""

from __future__ import annotations

import threading

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, Static

from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.studio.figures import (
    StudioFigures,
    compute_figures,
    effect_line,
    figure_lines,
    jump_effects,
)
from snl_tui.widgets import studio_panel
from snl_tui.widgets.studio_panel import COMPUTING, NumbersPanel

SIZE = (100, 50)


class PanelApp(App[None]):
    """The panel beside an input, recording every Computed message."""

    def __init__(self) -> None:
        super().__init__()
        self.computed: list[NumbersPanel.Computed] = []

    def compose(self) -> ComposeResult:
        yield NumbersPanel(id="numbers")
        yield Input(id="typing")

    def on_numbers_panel_computed(self, message: NumbersPanel.Computed) -> None:
        self.computed.append(message)


def text(app: App[None], selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def settled(pilot: Pilot[None], panel: NumbersPanel, limit: int = 5000) -> None:
    """Pause until the latest board's figures and jump effects are on screen.

    (``workers.wait_for_complete`` raises for a superseded, cancelled computation.)
    """
    for _ in range(limit):
        if not panel.computing and panel.effects is not None:
            await pilot.pause()
            return
        await pilot.pause()
    raise AssertionError("the panel never settled")


def without(board: Board, start: int) -> Board:
    jumps = [(a, b) for a, b in board.jumps.items() if a != start]
    return Board(board.rows, board.cols, jumps, rules=board.rules)


async def test_figures_appear_after_the_worker() -> None:
    app = PanelApp()
    classic = load_board("classic")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        panel.show_board(classic, 1)
        assert text(app, "#numbers-status") == COMPUTING
        await settled(pilot, panel)
        assert panel.shown_board is classic
        assert text(app, "#numbers-figures") == "\n".join(figure_lines(compute_figures(classic)))
        assert "->" not in text(app, "#numbers-figures")
        assert "game lengths" in text(app, "#numbers-histogram")
        assert len(app.computed) == 1
        message = app.computed[0]
        assert message.board is classic
        assert len(message.figures.visits) == classic.goal + 1


async def test_second_board_shows_the_changes() -> None:
    app = PanelApp()
    classic = load_board("classic")
    snake = classic.snakes[0].start
    fewer = without(classic, snake)
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        panel.show_board(classic, 1)
        await settled(pilot, panel)
        panel.show_board(fewer, 1)
        await settled(pilot, panel)
        before, after = compute_figures(classic), compute_figures(fewer)
        shown = text(app, "#numbers-figures")
        assert shown == "\n".join(figure_lines(after, before))
        assert f"{before.expected_turns:.1f} -> {after.expected_turns:.1f}" in shown
        assert [m.board for m in app.computed] == [classic, fewer]


async def test_cursor_line_is_a_lookup_of_the_jump_effects() -> None:
    app = PanelApp()
    classic = load_board("classic")
    ladder = classic.ladders[0]
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        panel.show_board(classic, 1)
        await settled(pilot, panel)
        assert panel.effects is not None
        workers_before = len(app.workers)
        panel.show_cursor(ladder.start)
        await pilot.pause()
        assert len(app.workers) == workers_before  # no new computation for a cursor move
        expected = compute_figures(classic).expected_turns
        line = effect_line(classic, ladder.start, jump_effects(classic), expected)
        assert line.startswith("removing this ladder:")
        cursor = text(app, "#numbers-cursor")
        assert line in cursor
        visits = panel.figures.visits  # type: ignore[union-attr]
        panel.show_cursor(ladder.end)
        await pilot.pause()
        assert f"square {ladder.end}: {visits[ladder.end]:.2f} expected visits" in text(
            app, "#numbers-cursor"
        )


async def test_too_big_board_says_why() -> None:
    app = PanelApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        panel.show_board(Board(201, 201), 1)  # past the distribution's limit
        await settled(pilot, panel)
        shown = text(app, "#numbers-figures")
        assert shown.startswith("no figures:") and "40,401" in shown
        assert "\n" not in shown
        assert app.computed[-1].figures.visits == []


async def test_keys_are_answered_while_the_panel_computes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computation is held until a key has been handled: the key cannot wait on it."""
    release = threading.Event()
    real = studio_panel.compute_figures

    def held(board: Board) -> StudioFigures:
        release.wait(timeout=60)
        return real(board)

    monkeypatch.setattr(studio_panel, "compute_figures", held)
    app = PanelApp()
    classic = load_board("classic")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        app.query_one("#typing", Input).focus()
        panel.show_board(classic, 1)
        await pilot.press("a", "b")
        assert app.query_one("#typing", Input).value == "ab"
        assert panel.computing and text(app, "#numbers-status") == COMPUTING
        release.set()
        await settled(pilot, panel)
        assert panel.shown_board is classic


async def test_only_the_latest_board_is_shown() -> None:
    app = PanelApp()
    classic = load_board("classic")
    boards = [classic, without(classic, classic.snakes[0].start), without(classic, 80)]
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(NumbersPanel)
        for board in boards:
            panel.show_board(board, 1)
        await settled(pilot, panel)
        assert panel.shown_board is boards[-1]
        assert app.computed[-1].board is boards[-1]
        assert all(m.board is boards[-1] for m in app.computed)


def test_the_histogram_fits_a_narrow_side_with_every_share_on_its_line() -> None:
    """At 80 or 100 columns the side is narrow: the bars shrink in proportion and each
    range keeps its share on its own line (it once wrapped, one figure a line)."""
    from snl_tui.widgets.studio_panel import fit_histogram

    lines = compute_figures(load_board("classic")).histogram
    assert studio_panel.fit_histogram(lines, 80) == list(lines)
    for width in (30, 22, 18):
        fitted = fit_histogram(lines, width)
        assert all(len(line) <= width for line in fitted)
        assert [line.split()[-1] for line in fitted] == [line.split()[-1] for line in lines]
    bars = [line.count("█") for line in fit_histogram(lines, 22)]
    assert max(bars) == bars[[line.count("█") for line in lines].index(16)]


def test_a_figure_too_wide_for_the_side_puts_its_value_under_its_label() -> None:
    """A changed figure ('expected     40.5 -> 39.2') in a narrow side once wrapped in
    the middle of its numbers; its value now goes whole on the next line."""
    from dataclasses import replace

    from snl_tui.widgets.studio_panel import fit_figures

    figures = compute_figures(load_board("classic"))
    lines = figure_lines(figures, replace(figures, expected_turns=40.5))
    assert fit_figures(lines, 40) == lines
    fitted = fit_figures(lines, 22)
    assert all(len(line) <= 22 for line in fitted)
    at = fitted.index("expected")
    assert fitted[at + 1].strip() == "40.5 -> 39.2"
    assert [line for line in fitted if line.strip()] == fitted
