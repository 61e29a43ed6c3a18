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

The screen is one class in four modules, by section: its state and how it is shown
(``game_display.py``), its menus and dialogs (``game_menus.py``), its keys and clicks
(``game_keys.py``), and here the layout, the moves, what a room's table sends and new
games. Keys, footer labels, palette entries and help come from one table (``commands``);
the drawing is the widgets' (board, players, dice, hint, move log); the rules are the
session's.
"""

from __future__ import annotations

import asyncio
from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widget import Widget
from textual.widgets import Footer, Static

from ..commands import game_bindings, keys_of
from ..core.engine import Turn
from ..core.seats import Driver
from ..core.session import GameSession, GameSettings
from ..messages import (
    GameEnded,
    GameStarted,
    MoveArrived,
    SessionReplaced,
    StateChanged,
    StatusSaid,
    TurnPlayed,
)
from ..widgets.board import BoardView
from ..widgets.board_picture import board_widget
from ..widgets.dice import DiceFace, DieValues, StatusLine
from ..widgets.hint_panel import HintPanel
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel, token_letters
from ..widgets.title_bar import TitleBar
from .game_keys import GameKeys
from .game_menus import GameMenus
from .widths import CRAMPED_WIDTH, NARROW_WIDTH

__all__ = ["GameScreen"]

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Below this the screen shows a short message instead of the game."""
SHORT_HEIGHT, TINY_HEIGHT = 34, 28
"""Shorter terminals get no odds chart; the shortest show the hint instead of the moves."""
ROLL_FRAMES, ROLL_DELAY = 4, 0.05


class GameScreen(GameKeys, GameMenus):
    """Where the game is played."""

    BINDINGS = [
        *game_bindings(),
        # A room's keys (its table offers them; a local game hides them).
        Binding("c", "room('chat')", "Chat"),
        Binding("b", "room('toggle_bell')", "Bell", show=False),
        Binding("x", "room('host_powers')", "Host"),
    ]
    AUTO_FOCUS = "#board"
    HELP = "Roll with r (classic) or pick die values with 1-9 (puzzle). Press ? for help."

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Only what the first frame needs: the board, and the side column empty (its
        # width comes from snl.tcss) so that nothing moves when the panels arrive.
        game = self.session.game
        pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's picture protocol
        yield board_widget(game.board, token_letters(game.players), pixels)
        yield Vertical(id="side")

    def _side_panels(self) -> list[Widget]:
        players = PlayersPanel(id="players")
        players.border_title = "Players"
        hint = HintPanel(id="hint")
        hint.border_title = "Hint"
        hint.display = False
        log = MoveLog(id="log")
        log.border_title = "Moves"
        status = StatusLine(id="status", markup=False)
        dice_row = Horizontal(DiceFace(id="dice"), status, id="dice-row")
        die_values = DieValues(id="die-values")  # puzzle mode: the legal values, to click
        return [players, dice_row, *self.table.side_panels(), die_values, hint, log]

    def on_mount(self) -> None:
        # The side column's width for this terminal from the first frame, not from the
        # first Resize (after it): the board, and its picture, are sized once.
        width = self.app.size.width
        self.set_class(width < NARROW_WIDTH, "-narrow")
        self.set_class(width < CRAMPED_WIDTH, "-cramped")
        self.table.mounted()
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
        if not self.query(DiceFace):
            return  # the app began to close meanwhile: Textual refused the side panels
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

    # -- what the table sent (a room: its host) ------------------------------------------

    @on(SessionReplaced)
    def _session_replaced(self, message: SessionReplaced) -> None:
        """The whole game, sent anew (joining, rejoining, a new game): show it."""
        if message.session is self.session:
            return
        self.workers.cancel_group(self, "animation")
        self.session = message.session
        self.busy = False
        if self.is_mounted:
            game = self.session.game
            self.query_one(BoardView).set_board(game.board, token_letters(game.players))
            self._game_begins()

    @on(MoveArrived)
    def _move_arrived(self, message: MoveArrived) -> None:
        """A move made elsewhere (the session has it already): shown as a move here is."""
        if not self.panels_mounted:
            return  # mount_panels shows the state as it is
        self.busy = True
        if self.animation_on:
            self.run_worker(self.show_move(message.turn), group="animation", exclusive=True)
        else:
            self.post_message(TurnPlayed(message.turn))

    @on(StateChanged)
    def _state_changed(self) -> None:
        if self.panels_mounted and not self.busy:  # else the move's end shows it
            self._show_state()

    @on(StatusSaid)
    def _status_said(self, message: StatusSaid) -> None:
        if self.panels_mounted:  # a host may answer before the screen is up
            self._show_status(message.text)

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
        return (self.solver_ready or not self.session.puzzle) and self.table.may_move()

    def action_roll(self) -> None:
        if self.check_action("roll", ()) is True and not self.table.roll() and self.can_move():
            self._start_move(None)

    def action_room(self, order: str) -> None:
        """A key only a room offers (chat, the bell, the host's powers): its table's."""
        self.table.order(order)

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
