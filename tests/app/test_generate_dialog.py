"""Pilot tests of the Generate dialog, pushed over a small host app."""

from __future__ import annotations

import threading

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from snl_tui.core.board import Board
from snl_tui.core.rules import Rules
from snl_tui.core.studio import generate as generate_module
from snl_tui.core.studio.generate import Targets, generate
from snl_tui.screens.generate_dialog import SEARCHING, GenerateScreen

SIZE = (100, 40)
UNSET = object()


class HostApp(App[None]):
    def __init__(self, screen: GenerateScreen) -> None:
        super().__init__()
        self.dialog = screen
        self.results: list[object] = []

    def compose(self) -> ComposeResult:
        yield Static("host")

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


async def fill(pilot: Pilot[None], screen: GenerateScreen, **values: str) -> None:
    for key, value in values.items():
        screen.query_one(f"#gen-{key}", Input).value = value
    await pilot.pause()


async def until(pilot: Pilot[None], condition: object, limit: int = 2000) -> None:
    for _ in range(limit):
        if condition():  # type: ignore[operator]
            return
        await pilot.pause()
    raise AssertionError("condition never held")


def status(screen: GenerateScreen) -> str:
    return str(screen.query_one("#generate-status", Static).render())


async def test_generates_the_seeded_board_and_returns_it() -> None:
    rules = Rules(overshoot="bounce")
    screen = GenerateScreen(rows=6, cols=6, rules=rules, max_steps=2000)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill(pilot, screen, expected="10", tolerance="1", seed="3")
        await pilot.press("enter")
        await until(pilot, lambda: app.results)
        await pilot.press("enter")  # a second Enter after the dismiss must not crash
        await pilot.pause()
    board = app.results[0]
    assert isinstance(board, Board)
    assert len(app.results) == 1
    direct = generate(
        Targets(rows=6, cols=6, expected_turns=10, tolerance=1, rules=rules),
        seed=3,
        max_steps=2000,
    )
    assert direct.board == board  # same seed and targets, same board
    assert board.rules == rules and (board.rows, board.cols) == (6, 6)


async def test_failure_stays_open_with_the_closest_figures() -> None:
    screen = GenerateScreen(rows=4, cols=4, max_steps=50)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill(pilot, screen, ladders="0", snakes="0", expected="200", seed="1")
        await pilot.press("enter")
        await until(pilot, lambda: screen.result is not None and not screen.searching)
        await pilot.pause()
        line = status(screen)
        assert line.startswith("no board meets the targets")
        assert "closest reached: expected turns" in line
        assert "\n" not in line
        assert app.screen is screen and app.results == []
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


async def test_a_failed_search_offers_the_closest_board() -> None:
    """Issue 33: the closest board was lost; the dialog now offers it (enter takes it)."""
    screen = GenerateScreen(rows=4, cols=4, max_steps=50)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill(pilot, screen, ladders="1", snakes="1", expected="200", seed="1")
        await pilot.press("enter")
        await until(pilot, lambda: screen.result is not None and not screen.searching)
        await pilot.pause()
        result = screen.result
        assert result is not None and result.closest is not None
        listing = screen.query_one("#generate-candidates", OptionList)
        assert listing.option_count == 1
        prompt = str(listing.get_option_at_index(0).prompt)
        assert prompt.startswith("take the closest board: expected turns")
        listing.focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.results)
    assert app.results == [result.closest]


async def test_bad_input_gets_one_line_and_no_search() -> None:
    screen = GenerateScreen(rows=10, cols=10)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill(pilot, screen, players="9")
        await pilot.press("enter")
        await pilot.pause()
        assert "players" in status(screen) and not screen.searching
        assert app.screen is screen


async def test_escape_stops_a_running_search_and_closes(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search is held until escape has been handled, so it is surely running."""
    started = threading.Event()
    real = generate_module.generate
    seen_stop: list[float] = []

    def slow(targets: Targets, **options: object):  # type: ignore[no-untyped-def]
        clock = options["clock"]
        started.set()
        while clock() != float("inf"):  # runs until the dialog's clock says "stop"
            threading.Event().wait(0.001)
        seen_stop.append(clock())
        return real(targets, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("snl_tui.screens.generate_dialog.generate", slow)
    screen = GenerateScreen(rows=10, cols=10, max_steps=10)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, started.is_set)
        assert status(screen) == SEARCHING
        await pilot.press("escape")
        await until(pilot, lambda: bool(seen_stop))  # the search saw its clock run out
        await pilot.pause()
        assert app.results == [None]
        assert app.screen is not screen
        assert seen_stop == [float("inf")]


async def test_ctrl_c_stops_a_running_search_and_keeps_the_dialog(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """ctrl+c while the generator searches stops it (its clock runs out) and the dialog
    stays with what the search reached; with no search running, ctrl+c is the field's
    copy (Textual's), nothing stops or closes."""
    started = threading.Event()
    real = generate_module.generate
    seen_stop: list[float] = []

    def slow(targets: Targets, **options: object):  # type: ignore[no-untyped-def]
        clock = options["clock"]
        started.set()
        while clock() != float("inf"):  # runs until the dialog's clock says "stop"
            threading.Event().wait(0.001)
        seen_stop.append(clock())
        return real(targets, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("snl_tui.screens.generate_dialog.generate", slow)
    screen = GenerateScreen(rows=10, cols=10, max_steps=5)
    app = HostApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fill(pilot, screen, expected="60", tolerance="0.1")  # out of reach in 5 steps
        await pilot.press("ctrl+c")  # no search: the field's copy, nothing else
        await pilot.pause()
        assert app.screen is screen and not screen.stopped and not started.is_set()
        await pilot.press("enter")
        await until(pilot, started.is_set)
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not screen.searching)
        assert seen_stop == [float("inf")]
        assert app.screen is screen and app.results == []  # still open, nothing returned
        assert status(screen).startswith("Stopped (ctrl+c).")
        assert not screen.query_one("#generate-go").disabled  # a new search can start
