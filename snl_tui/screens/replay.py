"""``snl replay ID``: a saved game again, move by move, read-only.

The screen rebuilds the game from the start in the engine (``Game`` with the saved
board, players and seed) and plays the saved die values one at a time, showing each with
the game's widgets (board, players, die, move log) and the game's animation. ``space``
pauses and resumes, ``n`` (or ``right``) shows one more move and holds there, ``b`` (or
``left``) goes one move back, ``g`` asks for a move number to go to, ``+`` and ``-``
change the speed, ``q`` leaves (back to the game when the winner dialog opened it).
Nothing is rolled and nothing is saved. The keys the status line names come from the
screen's bindings, so they never go stale.
"""

from __future__ import annotations

import asyncio

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ..core.engine import Game
from ..core.session import GameSession
from ..core.text import parse_whole
from ..widgets.board import BoardView
from ..widgets.board_choice import board_widget
from ..widgets.dice import DiceFace
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel, token_letters
from ..widgets.title_bar import TitleBar
from .widths import CRAMPED_WIDTH, NARROW_WIDTH

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
        Binding("b", "back", "Back a move"),
        Binding("left", "back", "Back a move", show=False),
        Binding("g", "go_to", "Go to move"),
        Binding("plus", "speed(1)", "Faster", key_display="+"),
        Binding("minus", "speed(-1)", "Slower", key_display="-"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "close_go_to", "Close", show=False),
    ]

    def __init__(self, saved: GameSession, *, animate: bool = True, pushed: bool = False) -> None:
        """``pushed``: over the game (the winner dialog's Replay), so ``q`` goes back."""
        super().__init__()
        self.pushed = pushed
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
        pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's picture protocol
        yield board_widget(game.board, token_letters(game.players), pixels)
        with Vertical(id="side"):
            players = PlayersPanel(id="players")
            players.border_title = "Players"
            yield players
            with Horizontal(id="dice-row"):
                yield DiceFace(id="dice")
                yield Static(id="status", markup=False)
            move_input = Input(
                id="move-input", placeholder=f"go to move 0-{len(self.rolls)}, Enter"
            )
            move_input.display = False
            yield move_input
            log = MoveLog(id="log")
            log.border_title = "Moves"
            yield log
        yield Footer()

    def on_resize(self, event: Resize) -> None:
        # The game's side column widths (snl.tcss): the board gets the same room.
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        self.set_class(event.size.width < CRAMPED_WIDTH, "-cramped")

    def on_mount(self) -> None:
        game = self.game
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
        while self.shown < len(self.rolls):
            await self.running.wait()
            # Always a real wait (sleep(0) too): each move lets keys and repaints in. A
            # move asked for with the step key comes at once.
            await asyncio.sleep(0 if self.one_more else self.move_delay)
            await self.running.wait()  # a pause pressed during the wait holds here
            if self.one_more:  # this is the one move: hold after it
                self.one_more = False
                self.running.clear()
            if self.shown >= len(self.rolls):
                break  # gone to the end while waiting
            turn = self.game.play(self.rolls[self.shown])
            self.query_one(DiceFace).value = turn.move.die
            if self.animation_on:
                await board_view.walk(self.game.positions, turn, self.speed)
            board_view.follow(turn.move.end)
            log.catch_up(self.game.history, self.game.players)
            self._show_state()
        self.finished = True
        self._show_status()

    def go_to(self, move: int) -> None:
        """Show the game as it stood after ``move`` saved moves (0: the start), and
        hold there: the engine replays them from the start at once."""
        move = max(0, min(move, len(self.rolls)))
        self.running.clear()
        self.one_more = False
        game = Game(self.game.board, self.game.players, self.game.seed)
        for die in self.rolls[:move]:
            game.play(die)
        self.game = game
        self.query_one(DiceFace).value = game.history[-1].move.die if game.history else None
        self.query_one(MoveLog).show_history(game.history, game.players)
        if game.history:
            self.query_one(BoardView).follow(game.history[-1].move.end)
        if self.finished and move < len(self.rolls):  # the replay's loop had ended
            self.finished = False
            self.run_worker(self._play(), group="replay", exclusive=True)
        self._show_state()

    def action_back(self) -> None:
        """One move back (pausing the replay)."""
        if self.shown == 0:
            self.query_one("#status", Static).update("At the start: no move to go back to.")
            return
        self.go_to(self.shown - 1)

    def action_go_to(self) -> None:
        """Ask for a move number to go to."""
        move_input = self.query_one("#move-input", Input)
        move_input.display = True
        move_input.value = ""
        move_input.focus()

    def action_close_go_to(self) -> None:
        """Escape: the move number is not asked for any more (q quits again)."""
        self._hide_move_input()

    @on(Input.Blurred, "#move-input")
    def _move_input_left(self) -> None:
        # A click elsewhere leaves the question: hidden, so that it never holds the keys
        # (q typed into a forgotten input would not quit).
        self._hide_move_input()

    def _hide_move_input(self) -> None:
        move_input = self.query_one("#move-input", Input)
        if move_input.display:
            move_input.display = False
            self.query_one(BoardView).focus()

    @on(Input.Submitted, "#move-input")
    def _move_entered(self, event: Input.Submitted) -> None:
        event.input.display = False
        self.query_one(BoardView).focus()
        move = parse_whole(event.value)
        if move is None or not 0 <= move <= len(self.rolls):
            self.query_one("#status", Static).update(
                f"Go to a move from 0 to {len(self.rolls)}, not {event.value.strip()!r}."
            )
            return
        self.go_to(move)

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
        if self.pushed:
            self.app.pop_screen()
            return
        self.app.exit(return_code=0)
