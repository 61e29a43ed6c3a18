"""``snl replay ID``: a saved game again, move by move, read-only.

The screen rebuilds the game from the start in the engine (``Game`` with the saved
board, players and seed) and plays the saved die values one at a time, showing each with
the game's widgets (board, players, die, move log) and the game's animation. ``space``
pauses and resumes, ``n`` (or ``right``) shows one more move and holds there, ``+`` and
``-`` change the speed, ``q`` leaves. Nothing is rolled and nothing is saved. The keys
the status line names come from the screen's bindings, so they never go stale.
"""

from __future__ import annotations

import asyncio

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..core.engine import Game
from ..core.session import GameSession
from ..widgets.board import BoardView
from ..widgets.dice import DiceFace
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel, token_letters
from ..widgets.title_bar import TitleBar

MOVE_DELAY = 0.5
"""Seconds between two moves of a replay (with animation on) at normal speed."""
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""The replay's speeds, as multiples of the game's own pace (``+`` and ``-`` step)."""


class ReplayScreen(Screen[None]):
    """Shows a saved session's moves one by one."""

    AUTO_FOCUS = "#board"
    CSS_PATH = "saves.tcss"
    BINDINGS = [
        Binding("space", "toggle_pause", "Pause/resume"),
        Binding("n", "step", "Next move"),
        Binding("right", "step", "Next move", show=False),
        Binding("plus", "speed(1)", "Faster", key_display="+"),
        Binding("minus", "speed(-1)", "Slower", key_display="-"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, saved: GameSession, *, animate: bool = True) -> None:
        super().__init__()
        played = saved.game
        self.rolls = list(played.rolls)
        """The die values to show, in order (the saved game's whole history)."""
        self.game = Game(played.board, played.players, played.seed)
        """The replay's own game, from the start: the engine applies each saved die."""
        self.title_text = f"Replay · {saved.title()}"
        self.animation_on = animate
        self.speed = 1.0
        """How fast the replay runs, one of ``SPEEDS`` (2.0: twice the game's pace)."""
        self.running = asyncio.Event()
        self.running.set()
        self.one_more = False
        """Show one more move, then hold (the ``step`` key while paused)."""
        self.finished = False

    @property
    def move_delay(self) -> float:
        """Seconds between two moves at the current speed (none without animation)."""
        return MOVE_DELAY / self.speed if self.animation_on else 0.0

    def key(self, action: str) -> str:
        """The key the footer shows for ``action`` (its first binding here)."""
        binding = next(b for b in self.BINDINGS if isinstance(b, Binding) and b.action == action)
        return self.app.get_key_display(binding)

    @property
    def paused(self) -> bool:
        return not self.running.is_set()

    @property
    def shown(self) -> int:
        """How many saved moves have been shown so far."""
        return len(self.game.history)

    def compose(self) -> ComposeResult:
        game = self.game
        yield TitleBar()
        yield BoardView(game.board, letters=token_letters(game.players), id="board")
        with Vertical(id="side"):
            players = PlayersPanel(id="players")
            players.border_title = "Players"
            yield players
            with Horizontal(id="dice-row"):
                yield DiceFace(id="dice")
                yield Static(id="status", markup=False)
            log = MoveLog(id="log")
            log.border_title = "Moves"
            yield log
        yield Footer()

    def on_mount(self) -> None:
        game = self.game
        self.sub_title = self.title_text
        board_view = self.query_one(BoardView)
        board_view.border_title = Content(self.title_text)
        board_view.border_subtitle = Content(game.board.rules.describe())
        self.query_one(DiceFace).faces = game.board.rules.faces
        self._show_state()
        self.run_worker(self._play(), group="replay", exclusive=True)

    def _show_state(self) -> None:
        game = self.game
        current = None if game.over else game.current
        self.query_one(PlayersPanel).show(game.players, game.positions, current, game.winner)
        self.query_one(BoardView).show(game.positions, (), current)
        self._show_status()

    def _show_status(self) -> None:
        total = len(self.rolls)
        pause, step, leave = self.key("toggle_pause"), self.key("step"), self.key("quit")
        if self.finished:
            end = (
                f"{self.game.players[self.game.winner].name} won. "
                if self.game.winner is not None
                else "The game was left here. "
            )
            text = f"Replay over: {end}{leave} leaves."
        elif self.paused:
            text = (
                f"Paused at move {self.shown} of {total}: {pause} goes on, "
                f"{step} shows the next move, {leave} leaves."
            )
        else:
            faster, slower = self.key("speed(1)"), self.key("speed(-1)")
            text = (
                f"Move {self.shown} of {total} at {self.speed:g}x speed: {pause} pauses, "
                f"{faster}/{slower} faster/slower, {leave} leaves."
            )
        self.query_one("#status", Static).update(text)

    async def _play(self) -> None:
        board_view = self.query_one(BoardView)
        log = self.query_one(MoveLog)
        for die in self.rolls:
            await self.running.wait()
            # Always a real wait (sleep(0) too): each move lets keys and repaints in. A
            # move asked for with the step key comes at once.
            await asyncio.sleep(0 if self.one_more else self.move_delay)
            await self.running.wait()  # a pause pressed during the wait holds here
            if self.one_more:  # this is the one move: hold after it
                self.one_more = False
                self.running.clear()
            turn = self.game.play(die)
            self.query_one(DiceFace).value = turn.move.die
            if self.animation_on:
                await board_view.walk(self.game.positions, turn, self.speed)
            board_view.follow(turn.move.end)
            log.catch_up(self.game.history, self.game.players)
            self._show_state()
        self.finished = True
        self._show_status()

    def action_toggle_pause(self) -> None:
        if self.running.is_set():
            self.running.clear()
        else:
            self.running.set()
        self._show_status()

    def action_step(self) -> None:
        """Show the next move and hold there (pausing a running replay first)."""
        if self.finished:
            return
        self.one_more = True
        self.running.set()
        self._show_status()

    def action_speed(self, change: int) -> None:
        """One speed faster (1) or slower (-1), within ``SPEEDS``."""
        index = SPEEDS.index(self.speed) + change
        self.speed = SPEEDS[max(0, min(index, len(SPEEDS) - 1))]
        self._show_status()

    def action_quit(self) -> None:
        self.app.exit(return_code=0)
