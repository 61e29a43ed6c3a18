"""The main screen: the board, the players, the die, the hint panel and the move log.

The screen drives one ``GameSession`` (``core.session``) and renders from it: the session
applies every move in the engine, judges puzzle moves, follows the route and words the
status; the screen shows the die face, the token stepping through ``Move.steps``, then
the jump. Computer players roll by themselves after a short pause. The solver's first
answer and the hint's odds can take seconds on big boards: they run in thread workers and
the screen says "computing..." meanwhile, so no key ever waits on them.

The first frame shows the board alone, in the place it keeps; the header, the footer and
the side panels mount right after it (``mount_panels``), and only then does the game
begin (solver, status, computer turn). A player sees the board about as soon as a
minimal Textual app shows anything (``benchmarks/tui.py``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Static

from ..commands import game_bindings, keys_of
from ..core.board import Board
from ..core.engine import Game, Turn
from ..core.seats import Driver
from ..core.session import (
    GameSession,
    GameSettings,
)
from ..core.store.saving import GameSaver
from ..messages import (
    GameEnded,
    GameStarted,
    TurnPlayed,
)
from ..widgets.board import BoardView
from ..widgets.dice import DiceFace
from ..widgets.hint_panel import HintPanel
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel, token_letters
from ..widgets.title_bar import TitleBar
from .background import in_background
from .dialog import DismissOnce
from .game_input import GameInput

__all__ = ["GameScreen"]

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Below this the screen shows a short message instead of the game."""
NARROW_WIDTH, CRAMPED_WIDTH = 110, 90
"""Narrower terminals get a narrower side column, so the board keeps room (snl.tcss)."""
SHORT_HEIGHT, TINY_HEIGHT = 34, 28
"""Shorter terminals get no odds chart; the shortest show the hint instead of the moves."""
ROLL_FRAMES, ROLL_DELAY = 4, 0.05
COMPUTER_DELAY = 0.6


class GameScreen(DismissOnce[None], GameInput):
    """Where the game is played."""

    BINDINGS = game_bindings()
    AUTO_FOCUS = "#board"
    HELP = "Roll with r (classic) or pick die values with 1-9 (puzzle). Press ? for help."

    def __init__(
        self,
        settings: GameSettings,
        *,
        animate: bool = True,
        pushed: bool = False,
        saver: GameSaver | None = None,
        session: GameSession | None = None,
        game_id: int | None = None,
        before_game: Callable[[], object] | None = None,
    ) -> None:
        """``pushed``: over another screen (the editor's ``p``), so quitting goes back to
        it. ``saver`` saves after every move (None: nothing is saved); ``session`` with
        ``game_id`` continues a saved game instead of starting one from ``settings``.
        ``before_game`` runs once after the first frame, before the game begins (the app
        offers a saved game there)."""
        # ``-loading`` keeps the header's and the footer's rows until they mount (snl.tcss).
        super().__init__(classes="-loading")
        self.session = session if session is not None else GameSession(settings)
        self.pushed = pushed
        self.saver = saver if saver is not None else GameSaver(None)
        if session is not None and game_id is not None:
            self.saver.resumed(session, game_id)
        self.animation_on = animate
        self.computer_delay = COMPUTER_DELAY
        self.busy = False
        """A move is being shown: new moves wait until it is done."""
        self.hint_visible = False
        self.solved_board: Board | None = None
        """The board the solver has answered for (its worker is done): until then puzzle
        moves, the route and the hint wait, saying so."""
        self.optimal_moves = -1
        self.computer_timer: Timer | None = None
        self.footer_keys: tuple[bool | None, ...] = ()
        self.cosmetic_random = random.Random(0)
        """Only for the rolling die's flicker: never decides a move."""
        self.before_game = before_game
        self.panels_mounted = False
        """The header, footer and side panels are up and the game has begun: until then
        (one frame) no action runs, and a key or a click mounts them first."""

    # -- the session, for tests and the benchmark ----------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def ready(self) -> bool:
        """The game is on screen: the panels are mounted, and the solver has answered
        for its board."""
        return self.panels_mounted and self.solver_ready

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Only what the first frame needs: the board, and the side column empty (its
        # width comes from snl.tcss) so that nothing moves when the panels arrive.
        game = self.session.game
        yield BoardView(game.board, letters=token_letters(game.players), id="board")
        yield Vertical(id="side")

    def _side_panels(self) -> list[Widget]:
        players = PlayersPanel(id="players")
        players.border_title = "Players"
        hint = HintPanel(id="hint")
        hint.border_title = "Hint"
        hint.display = False
        log = MoveLog(id="log")
        log.border_title = "Moves"
        dice_row = Horizontal(DiceFace(id="dice"), Static(id="status", markup=False), id="dice-row")
        die_values = Static(id="die-values")  # puzzle mode: the legal values, to click
        return [players, dice_row, die_values, hint, log]

    def on_mount(self) -> None:
        self._show_titles()
        self._show_tokens()
        # Under a millisecond on the built-in boards, in a worker: it has answered by the
        # time the panels mount, so they show the game's state once (no "computing").
        self._solve(self.session.board)
        # Public Textual API: the callback runs once the first frame has been drawn.
        self.call_after_refresh(self.mount_panels)

    async def mount_panels(self) -> None:
        """Mount the header, the side panels and the footer, then begin the game (once:
        the first of the refresh callback, a key and a click does it)."""
        if self.panels_mounted or not self.is_attached:
            return  # done already, or closed before its first frame (a quick quit)
        before, self.before_game = self.before_game, None
        if before is not None:
            before()
        mounts = [
            self.mount(TitleBar(), before=0),
            self.query_one("#side").mount_all(self._side_panels()),
            self.mount(Footer()),
        ]
        self.remove_class("-loading")  # in the same refresh as the mounts: nothing moves
        for mounted in mounts:
            await mounted
        self.panels_mounted = True
        self.refresh_bindings()  # the game's keys are offered from now on
        self._game_shown()
        self._say_save_notice()

    async def on_screen_suspend(self) -> None:
        """A dialog over the game before its first frame (the command palette lists the
        game's actions): the panels first."""
        await self.mount_panels()

    def _game_begins(self) -> None:
        """A new game on this screen: ask the solver about its board, show it."""
        self._solve(self.session.board)
        if self.panels_mounted:  # else mount_panels shows it
            self._game_shown()

    def _game_shown(self) -> None:
        """Show the game, let a computer start."""
        self._show_everything()
        self.post_message(GameStarted(self.session.board.name, self.mode))
        self._maybe_computer_turn()

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = self.has_class("too-small")
        self.set_class(small, "too-small")
        if small != was_small:
            self.refresh_bindings()  # the game's keys wait while the game is hidden
            if not small:
                self._maybe_computer_turn()  # a computer's turn waited too
        # Below these widths the side column gives the board room (snl.tcss): at 80
        # columns a 10x10 board's compact squares still fit side by side.
        self.set_class(width < NARROW_WIDTH, "-narrow")
        self.set_class(width < CRAMPED_WIDTH, "-cramped")
        # Below these heights the side column drops the odds chart, then (hint on) the
        # move log, rather than run off the screen.
        self.set_class(height < TINY_HEIGHT, "-tiny")
        if (height < SHORT_HEIGHT) != self.has_class("-short"):
            self.set_class(height < SHORT_HEIGHT, "-short")
            if self.panels_mounted:  # else the hint panel takes it as it mounts
                self._show_hint()
        if small:
            message = (
                f"Terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT} (now {width}x{height})"
            )
            shown = self.query("#too-small").results(Static)
            if (label := next(shown, None)) is not None:
                label.update(message)
            else:  # only a small terminal ever needs it
                self.mount(Static(message, id="too-small", markup=False))

    # -- the solver, off the UI thread ---------------------------------------------------

    def _solve(self, board: Board) -> None:
        """The solver's answer for every square (cached per board by the core), in a
        worker; shown if the board is still the session's."""
        session = self.session
        in_background(
            self,
            "solver",
            key=lambda: id(self.session.board),
            compute=lambda: session.optimal_moves,
            show=lambda optimal: self._solved(board, optimal),
        )

    def _solved(self, board: Board, optimal: int) -> None:
        self.solved_board = board
        self.optimal_moves = optimal
        if optimal < 0:
            self.notify(
                "The goal cannot be reached on this board: no one can win.",
                severity="warning",
                timeout=8,
            )
        if self.panels_mounted:  # else mount_panels shows the state
            self._show_state()

    # -- showing the state -------------------------------------------------------------

    # -- moves -------------------------------------------------------------------------

    def _start_move(self, die: int | None) -> None:
        """Apply one move in the session (the engine's), then show it."""
        name = self.session.game.players[self.session.game.current].name
        outcome = self.session.move(die)
        self._save()
        if outcome.left_route:
            self.notify(self.session.left_route_message(outcome.turn, keys_of), markup=False)
        self.busy = True
        if self.animation_on:
            self._show_status(f"{name}: rolling..." if die is None else f"{name}: playing {die}...")
            self.run_worker(self.show_move(outcome.turn), group="animation", exclusive=True)
        else:
            self.post_message(TurnPlayed(outcome.turn))

    async def show_move(self, turn: Turn) -> None:
        """Die face, then the token through ``Move.steps``, then the jump."""
        board_view = self.query_one(BoardView)
        result = turn.move
        if not self.session.puzzle:  # a random die flickers before it settles
            faces = self.session.board.rules.faces
            for _ in range(ROLL_FRAMES):
                self._show_die(self.cosmetic_random.randint(1, faces))
                await asyncio.sleep(ROLL_DELAY)
        self._show_die(result.die)
        await board_view.walk(self.session.game.positions, turn)
        self.post_message(TurnPlayed(turn))

    @on(TurnPlayed)
    def _turn_played(self, event: TurnPlayed) -> None:
        turn = event.turn
        game = self.session.game
        if game.history[-1:] != [turn]:
            return  # a stale animation from a game that was replaced or undone
        self.busy = False
        self.query_one(MoveLog).catch_up(game.history, game.players)
        self._show_die(turn.move.die)
        self._show_state()
        self._say_save_notice()
        if game.winner is not None:
            self.post_message(GameEnded(game.winner, len(game.history)))
        else:
            self._maybe_computer_turn()

    @on(GameEnded)
    def _game_ended(self) -> None:
        """The end-of-game report (the classic one asks the analysis: seconds on big
        boards) in a worker, then its dialog, unless a new game began meanwhile."""
        from .winner import GameOverScreen, GameReport, puzzle_solved, winner_report

        session, game, optimal = self.session, self.session.game, self.optimal_moves

        def report() -> GameReport:
            return puzzle_solved(game, optimal) if session.puzzle else winner_report(game)

        def show(result: GameReport) -> None:
            self.app.push_screen(GameOverScreen(result), self._after_game_over)

        in_background(
            self, "report", key=lambda: self.session.generation, compute=report, show=show
        )

    @on(GameStarted)
    def _game_started(self) -> None:
        """Say who plays a puzzle when someone asked for sits out."""
        notice = self.session.puzzle_notice()
        if notice is not None:
            self.notify(notice, markup=False)

    def _maybe_computer_turn(self) -> None:
        """The computer rolls for a seat it drives, after a pause; a seat driven
        elsewhere (a room's) is left to its driver: the screen waits for its move."""
        if self.session.driver_to_move is not Driver.COMPUTER:
            return
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None
        roll = partial(self._computer_roll, self.session.generation)
        if self.computer_delay > 0:
            self.computer_timer = self.set_timer(self.computer_delay, roll)
        else:  # tests and the benchmark: no pause, but still one move per message loop turn
            self.call_later(roll)

    def _computer_roll(self, generation: int) -> None:
        self.computer_timer = None
        if generation != self.session.generation or self.busy:
            return  # the game was replaced meanwhile, or a move is still being shown
        if self.has_class("too-small"):
            return  # the board is hidden: on_resize resumes when it is back
        if self.session.driver_to_move is Driver.COMPUTER:
            self._start_move(None)

    # -- actions -----------------------------------------------------------------------

    def can_move(self) -> bool:
        """A human may move now: no move is being shown and it is a human's turn (and a
        puzzle's optimum is known, to judge the move)."""
        if self.busy or self.session.driver_to_move is not Driver.LOCAL:
            return False
        return self.solver_ready or not self.session.puzzle

    def action_roll(self) -> None:
        if self.check_action("roll", ()) is True and self.can_move():
            self._start_move(None)

    def action_pick(self, die: int) -> None:
        """Puzzle mode: play the chosen die value if it is legal, else say why not."""
        if self.check_action("pick", ()) is not True or not self.can_move():
            return
        problem = self.session.why_not(die)
        if problem is None:
            self._start_move(die)
        else:
            self._show_status(problem)

    def action_undo(self) -> None:
        if self.check_action("undo", ()) is not True or self.busy:
            return
        self.session.undo()
        self._save()
        history = self.session.game.history
        self._show_die(history[-1].move.die if history else None)  # not the undone value
        self._show_everything()
        self._say_save_notice()

    # -- new games ---------------------------------------------------------------------

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        """The session's next game (``again``: the same one once more), on this screen:
        stops any animation and pending computer roll."""
        self.workers.cancel_group(self, "animation")
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None
        self.saver.leaving(self.session)  # n, m, another board: the old game is abandoned
        self.session.new_game(settings, again=again)
        self._show_new_session()

    def resume(self, session: GameSession, game_id: int) -> bool:
        """Continue saved game ``game_id`` (rebuilt as ``session``) on this screen; the
        game that was on screen had no moves (it was just started), so it is dropped.
        False, and nothing changes, when another running snl is playing that game."""
        if not self.saver.resumed(session, game_id):
            return False
        self.workers.cancel_group(self, "animation")
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None
        self.session = session
        self._show_new_session()
        return True

    def _show_new_session(self) -> None:
        self.busy = False
        game = self.session.game
        self.query_one(BoardView).set_board(game.board, token_letters(game.players))
        for die_input in self.query("#die-input"):
            die_input.display = False
        self._game_begins()

    # -- saving --------------------------------------------------------------------------

    def _save(self) -> None:
        """One transaction after each move (about a millisecond; a locked store waits
        at most ``GAME_TIMEOUT`` once, then saving stops for the session)."""
        self.saver.moved(self.session)
