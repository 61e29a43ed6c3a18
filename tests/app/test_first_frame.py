"""The first frame: the board comes first, the panels right after, and nothing moves."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Footer, Static

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.screens.game import GameScreen
from snl_tui.widgets.board import BoardView
from snl_tui.widgets.move_log import MoveLog
from snl_tui.widgets.players import PlayersPanel
from snl_tui.widgets.title_bar import TitleBar

from .helpers import SIZE, cpu, settle, started, wait_until


class FirstFrameApp(SnlApp):
    """Keeps the board lines drawn for the first frame, and the board's state then.

    Textual's ``Ready`` event is its public signal that "the DOM is ready and the first
    frame has been displayed": every line the board rendered before it went into that
    frame (the last rendering of each row wins).
    """

    def __init__(self, **options: object) -> None:
        options.setdefault("seed", 7)
        options.setdefault("animate", False)
        super().__init__(**options)  # type: ignore[arg-type]
        self.game_screen.computer_delay = 0
        self.frame_lines: dict[int, str] = {}
        self.first: dict[str, object] = {}

    def on_ready(self) -> None:
        board = self.game_screen.query_one(BoardView)
        self.first.update(
            text="\n".join(self.frame_lines[y] for y in sorted(self.frame_lines)),
            region=board.region,
            cell_width=board.cell_width,
            scroll_y=board.scroll_offset.y,
            max_scroll_y=board.max_scroll_y,
        )


@pytest.fixture
def first_frame_app(monkeypatch: pytest.MonkeyPatch) -> Callable[..., FirstFrameApp]:
    """``first_frame_app(**options)``: an app whose first frame's board lines are kept."""
    apps: list[FirstFrameApp] = []
    render_line = BoardView.render_line

    def recording(view: BoardView, y: int) -> Strip:
        strip = render_line(view, y)
        app = view.app
        if isinstance(app, FirstFrameApp) and not app.first:
            app.frame_lines[y] = strip.text
        return strip

    monkeypatch.setattr(BoardView, "render_line", recording)

    def factory(**options: object) -> FirstFrameApp:
        apps.append(FirstFrameApp(**options))
        return apps[-1]

    return factory


async def test_the_first_frame_shows_the_board_where_it_stays(first_frame_app) -> None:
    app = first_frame_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        first = app.first
        text = str(first["text"])
        assert "100" in text and "GOAL" in text and "▲38" in text and "▼6" in text
        board = screen.query_one(BoardView)
        assert board.region == first["region"]  # the panels arrive around it
        assert board.cell_width == first["cell_width"]  # squares fitted from frame one
        assert board.region == Region(0, 1, 74, 38)
        assert screen.query(TitleBar) and screen.query(Footer) and screen.query(PlayersPanel)
        assert not screen.has_class("-loading")
        assert board.has_focus


async def test_a_large_board_opens_at_the_tokens(first_frame_app) -> None:
    app = first_frame_app(board=load_board("everest"), players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        first = app.first
        # Off the board: the bottom rows (square 1 and the off-board line) from frame one.
        assert first["scroll_y"] == first["max_scroll_y"] > 0
        text = str(first["text"])
        assert "off the board: A" in text
        assert " 1 " in text and " 400" not in text


class PanelsHeld(GameScreen):
    """A game screen whose panels come only with the first key or click: its request
    for them after the first frame is held back, so a test's key surely comes first."""

    held = False

    def call_after_refresh(self, callback: Callable[..., object], *args, **kwargs) -> bool:  # type: ignore[no-untyped-def]
        if callback == self.mount_panels:
            self.held = True
            return True
        return super().call_after_refresh(callback, *args, **kwargs)


async def test_a_key_typed_before_the_panels_mounts_them_and_acts(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")])
    screen = app.game_screen = PanelsHeld(app.settings, animate=False)
    screen.computer_delay = 0
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: screen.held)  # the first frame is out
        assert screen.query_one(BoardView).lines_painted > 0
        assert not screen.query(PlayersPanel) and screen.has_class("-loading")
        assert screen.check_action("roll", ()) is None  # shown, not run: e.g. by the palette
        screen.action_roll()
        assert screen.game.history == []
        await pilot.press("r")  # typed ahead: the panels come first, then the roll
        await wait_until(pilot, lambda: len(screen.game.history) >= 2)  # Ann, then Bot
        await started(pilot)
        await settle(pilot)
        assert not screen.has_class("-loading")
        assert screen.game.history[0].player == 0  # Ann's roll
        assert screen.query_one(MoveLog).line_count == len(screen.game.history)
        assert len(screen.query(PlayersPanel)) == 1
        assert screen.query_one(PlayersPanel).positions == tuple(screen.game.positions)
        await screen.mount_panels()  # the held request, late: nothing is mounted twice
        assert len(screen.query(PlayersPanel)) == 1 and len(screen.query(TitleBar)) == 1


async def test_a_click_before_the_panels_mounts_them(make_app) -> None:
    app = make_app()
    screen = app.game_screen = PanelsHeld(app.settings, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: screen.held)
        await pilot.click(BoardView, offset=(10, 10))  # a square: its text needs the status
        await started(pilot)
        assert screen.query_one("#status", Static).is_mounted


async def test_a_restyle_that_changes_nothing_keeps_the_painted_lines(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await settle(pilot)
        board = screen.query_one(BoardView)
        painted = board.lines_painted
        board.blur()  # :focus restyles the board (its border), not its squares
        await settle(pilot)
        board.focus()
        await settle(pilot)
        assert board.lines_painted == painted
        app.theme = "textual-light"  # a new palette: every line is painted again
        await settle(pilot)
        assert board.lines_painted == painted + board.grid_lines  # the status line is live


async def test_a_narrow_terminal_gives_the_board_more_room(make_app) -> None:
    widths = {}
    for size in ((80, 24), SIZE):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            screen = await started(pilot)
            await settle(pilot)
            widths[size] = (
                screen.query_one("#side").size.width,
                screen.query_one(BoardView).size.width,
            )
    narrow_side, narrow_board = widths[(80, 24)]
    wide_side, _ = widths[SIZE]
    assert narrow_side < wide_side
    assert narrow_board >= 80 - narrow_side - 2  # the board takes the rest of the row


async def test_the_panel_styles_arrive_with_the_panels_and_survive_a_theme_change(
    make_app,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        players = screen.query_one(PlayersPanel)
        log = screen.query_one(MoveLog)
        # panels.tcss gives both a round border (Textual's defaults give none).
        assert players.styles.border_top[0] == "round"
        assert log.styles.border_top[0] == "round"
        before = players.styles.border_top[1]
        app.theme = "textual-light"  # the CSS is parsed again, panels.tcss with it
        await settle(pilot)
        assert players.styles.border_top[0] == "round"
        assert log.styles.border_top[0] == "round"
        assert players.styles.border_top[1] != before  # now from the light theme's $primary


async def test_a_short_terminal_keeps_the_side_column_on_screen(make_app) -> None:
    from snl_tui.widgets.hint_panel import HintPanel

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await started(pilot)
        await pilot.press("h")
        await settle(pilot)
        hint = screen.query_one(HintPanel)
        side = screen.query_one("#side").region
        assert hint.display and not hint.query_one("#hint-chart").display  # no chart
        assert not screen.query_one(MoveLog).display  # the hint takes the log's place
        assert side.contains_region(hint.region)  # bottom border included, on screen
        await pilot.press("h")
        await settle(pilot)
        assert screen.query_one(MoveLog).display
        assert side.contains_region(screen.query_one(MoveLog).region)


FIRST_FRAME_MODULES = """
import os, sys
import snl_tui.app
from snl_tui.cli.main import main
from snl_tui.widgets.board import BoardView

loaded = []
render_line = BoardView.render_line

def recording(view, y):
    if not loaded:  # the first board line of the first frame
        loaded.extend(sys.modules)
    return render_line(view, y)

class FirstFrame(snl_tui.app.SnlApp):
    def on_ready(self):
        print("LOADED", *sorted(loaded), flush=True)
        os._exit(0)  # nothing after the frame matters here

    def run(self, *args, **kwargs):
        return super().run(headless=True, size=(120, 40))

BoardView.render_line = recording
snl_tui.app.SnlApp = FirstFrame
main(["play", "classic", "--no-animation"])
"""


def test_snl_play_draws_its_first_frame_without_what_it_does_not_draw(
    tmp_path: Path,
) -> None:
    """What the first frame does not need loads after it: the saved-games store (and
    SQLite) opens in ``mount_panels``, TOML is only read (``tomllib``), and the drawn
    jumps (their geometry and braille) come in the frame after the first."""
    env = {**os.environ, "SNL_DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_MODULES],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("LOADED")]
    assert lines, result.stderr
    loaded = set(lines[0].split()[1:])
    assert "snl_tui.widgets.board" in loaded  # the probe saw the real first frame
    assert "snl_tui.core.store.settings" in loaded  # the settings were read before it
    early = {"snl_tui.core.store.games", "sqlite3", "tomlkit"}
    early |= {"snl_tui.core.geometry", "snl_tui.widgets.jump_art"}
    assert early & loaded == set()
