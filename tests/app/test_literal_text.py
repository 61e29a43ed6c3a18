"""Text from a file or a player is shown literally on every screen (issue 10, item 1).

A board named ``[/]`` once crashed the game (``MarkupError``) and ``[b]ok`` was drawn
bold: square brackets in a board's name or description, a player's name or a file name
are text, never Textual markup. The test reads what is really on screen (the
screenshot's characters), so a hostile name that is parsed, dropped or crashes fails it.
"""

from __future__ import annotations

import html
import re

import pytest
from textual.app import App

from snl_tui.app import SnlApp
from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.core.session import GameSession
from snl_tui.core.store.games import open_store
from snl_tui.screens.confirm import ConfirmScreen
from snl_tui.screens.editor import EditorScreen
from snl_tui.screens.game import GameScreen
from snl_tui.screens.generate_dialog import GenerateScreen
from snl_tui.screens.load_board import LoadBoardScreen
from snl_tui.screens.new_game import NewGameScreen
from snl_tui.screens.replay import ReplayScreen
from snl_tui.screens.resume import ResumeScreen
from snl_tui.screens.stats import StatsScreen
from snl_tui.screens.winner import GameOverScreen

from .helpers import SIZE, computed, cpu, started, wait_until

HOSTILE = ["[/]", "[b]ok", "[link=x]y", "[red]Bo[/red", "\\[x]"]
"""Board names (and a computer player's): a bare closing tag, markup that would style,
a link, an unclosed tag and an escaped bracket."""
PLAYER = "[red]Bo"

CELL_WIDTH = 12.2
"""The width of one terminal cell in Rich's SVG export."""
_TEXT = re.compile(
    r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-\d+-line-(\d+)\)">(.*?)</text>',
    re.S,
)


def screen_text(app: App[object]) -> str:
    """The characters on screen, line by line, from the app's screenshot."""
    width, height = app.size
    cells = [[" "] * width for _ in range(height)]
    for x, line, text in _TEXT.findall(app.export_screenshot()):
        column = round(float(x) / CELL_WIDTH)
        for offset, char in enumerate(html.unescape(text).replace("\xa0", " ").rstrip("\n")):
            if int(line) < height and column + offset < width:
                cells[int(line)][column + offset] = char
    return "\n".join("".join(row).rstrip() for row in cells)


def hostile_board(name: str) -> Board:
    return Board.from_jumps(3, 3, ladders=[(2, 7)], snakes=[(8, 3)], name=name, description=name)


async def shown(pilot, *texts: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until every text is on screen, literally (bounded)."""
    await wait_until(pilot, lambda: all(t in screen_text(pilot.app) for t in texts), limit=200)


@pytest.mark.parametrize("name", HOSTILE)
async def test_names_from_files_and_players_are_shown_literally(name: str) -> None:
    board = hostile_board(name)
    players = (Player(PLAYER), cpu(name))
    store = open_store()
    app = SnlApp(board=board, players=players, seed=4, animate=False, store=store)
    app.game_screen.computer_delay = 0

    # The game: header, board title, players panel, status, move log, hint, toasts.
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        game = await started(pilot)
        await shown(pilot, f"{name} 3x3", PLAYER)
        await pilot.press("h")
        await computed(pilot)
        await shown(pilot, f"{PLAYER} on 1")  # the hint panel
        await pilot.press("r")
        await wait_until(pilot, lambda: len(game.session.game.history) >= 2 or game.game.over)
        await shown(pilot, f"1. {PLAYER} rolled", f"1. {name} rolled")  # the move log
        await pilot.press("h")
        # A board chosen in the load dialog is announced in a toast.
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadBoardScreen))
        app.screen.dismiss(hostile_board(name))
        # The game in progress has moves: the board is played once that is confirmed.
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await shown(pilot, f"Play {name}?")
        await pilot.press("y")
        await started(pilot)
        await shown(pilot, f"Loaded {name} (3x3)")
        # Played to the end: the winner dialog names the winner.
        while not game.game.over:
            await wait_until(pilot, lambda: game.can_move() or game.game.over)
            if not game.game.over:
                await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        winner = game.game.players[game.game.winner].name  # type: ignore[index]
        await shown(pilot, winner)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        # The statistics screen: the board and the players from the store.
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen))
        await computed(pilot)
        await shown(pilot, name, PLAYER)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is game)
        # The editor: its board title, side form and status; the generate dialog.
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditorScreen))
        editor = app.screen
        await computed(pilot)
        await shown(pilot, f"{name} 3x3")
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GenerateScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is editor)
        await shown(pilot, f"{name} 3x3")
        await pilot.press("q")
        await wait_until(pilot, lambda: app.screen is game)
        # The new-game dialog lists the players; the new game's first move is saved.
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await shown(pilot, PLAYER)
        await pilot.click("#start")
        await started(pilot)
        await wait_until(pilot, game.can_move)
        await pilot.press("r")
        await wait_until(pilot, lambda: game.saver.game_id is not None and not game.busy)

    # The resume dialog offers the unfinished game with its board and players.
    offer = store.last_unfinished()
    assert offer is not None
    app = SnlApp(players=players, animate=False, store=store, offer=offer)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await shown(pilot, name, PLAYER)
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await shown(pilot, f"{name} 3x3", PLAYER)

    # The replay screen: title, players and log.
    session = GameSession.from_dict(offer.data)
    app = SnlApp.replaying(session, animate=False)
    replay = app.front_screen
    assert isinstance(replay, ReplayScreen)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: replay.finished)
        await shown(pilot, f"{name} 3x3", PLAYER)
