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

The screen keeps Textual's mechanics (bindings, actions, ``check_action``, ``on_key``,
message handlers) and composes the rest: its widgets, the side column
(``widgets/game_side``, whose panels show the session themselves: ``update_from``) and
the board (``widgets/game_board`` says what it shows); the helpers it holds: the solver's
answer (``game_solver``), the moves and the computer's turns (``game_turns``), the menus
and dialogs (``game_menus``), a game beginning (``game_rounds``) and the layout
(``game_layout``); what a key or a click says (``game_keys``); and who sits at the
table, its ``Table`` (a room's is ``RoomSession``). Keys, footer labels, palette entries
and help come from one table (``commands``); the rules are the session's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.events import Click, Key, Resize
from textual.screen import Screen
from textual.widgets import Input

from ..commands import game_bindings
from ..core.board import Board
from ..core.engine import Game, Player
from ..core.seats import Driver
from ..core.session import GameSession, GameSettings
from ..core.store.saving import GameSaver
from ..messages import (
    GameEnded,
    GameStarted,
    MoveArrived,
    SessionReplaced,
    SettingChanged,
    StateChanged,
    StatusSaid,
    TurnPlayed,
)
from ..widgets.board import BoardView
from ..widgets.board_choice import board_widget
from ..widgets.game_board import clicked_square, show_titles, show_tokens
from ..widgets.game_side import GameSide
from ..widgets.players import token_letters
from .background import in_background
from .dialog import DismissOnce
from .game_keys import key_refusal, square_odds_text
from .game_layout import GameLayout
from .game_menus import GameMenus
from .game_rounds import GameRounds
from .game_solver import GameSolver
from .game_turns import COMPUTER_DELAY, GameTurns
from .table import Table

__all__ = ["GameScreen"]


class GameScreen(DismissOnce[None], Screen[None]):
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
        table: Table | None = None,
    ) -> None:
        """``pushed``: over another screen (the editor's ``p``), so quitting goes back to
        it. ``saver`` saves after every move (None: nothing is saved); ``session`` with
        ``game_id`` continues a saved game instead of starting one from ``settings``.
        ``before_game`` runs once after the first frame, before the game begins (the app
        offers a saved game there). ``table``: who sits at it (None: everyone here;
        a room's ``RoomSession``)."""
        # ``-loading`` keeps the header's and the footer's rows until they mount (snl.tcss).
        super().__init__(classes="-loading")
        self.session = session if session is not None else GameSession(settings)
        self.pushed = pushed
        self.saver = saver if saver is not None else GameSaver(None)
        if session is not None and game_id is not None:
            self.saver.resumed(session, game_id)
        self.table = table if table is not None else Table()
        self.animation_on = animate
        self.computer_delay = COMPUTER_DELAY
        self.busy = False
        """A move is being shown: new moves wait until it is done."""
        self.hint_visible = False
        self.solver = GameSolver(self, self)
        """The solver's answer for the session's board (``game_solver``)."""
        self.before_game = before_game
        self.turns = GameTurns(self, self)
        """The moves, shown one at a time, and the computer's turns (``game_turns``)."""
        self.menus = GameMenus(self, self)
        """The dialogs and what follows them (``game_menus``)."""
        self.rounds = GameRounds(self, self)
        """A game begins: the first, the next, a saved one, a room's (``game_rounds``)."""
        self.frame = GameLayout(self, self)
        """The panels after the first frame, the shape for the terminal (``game_layout``)."""
        self.panels_mounted = False
        """The header, footer and side panels are up and the game has begun: until then
        (one frame) no action runs, and a key or a click mounts them first."""

    # -- the session, for tests and the benchmark ----------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def side(self) -> GameSide:
        """The side column: players, die, status, hint and moves (``widgets/game_side``)."""
        return self.query_one(GameSide)

    @property
    def ready(self) -> bool:
        """The game is on screen: the panels are mounted, and the solver has answered
        for its board."""
        return self.panels_mounted and self.solver.ready

    # -- showing the state -------------------------------------------------------------

    @property
    def settings(self) -> GameSettings:
        return self.session.settings

    @property
    def mode(self) -> str:
        return self.session.mode

    def shown_players(self) -> Sequence[Player]:
        """The players as the players panel lists them (a room's table adds who is you,
        who is away and which seats are free)."""
        return self.table.shown_players(self.session)

    def hint_seat(self) -> int:
        """The seat the hint, the odds and the route are about (a room's table: its own)."""
        return self.table.hint_seat(self.session)

    def show_everything(self) -> None:
        show_titles(self.query_one(BoardView), self.session)
        self.side.show_game(self.session)
        self.table.everything_shown()
        self.show_state()

    def show_state(self) -> None:
        """Players, board tokens, route, hint, status and die values from the session."""
        show_tokens(self.query_one(BoardView), self.session)
        self.side.show_state(self.session, self.shown_players())
        self.show_hint()
        self.show_status()
        self.frame.refresh_footer()
        self.table.state_shown()

    def show_hint(self) -> None:
        self.set_class(self.hint_visible, "-hint-on")
        visible, compact = self.hint_visible, self.has_class("-short")
        seat, ready = self.hint_seat(), self.solver.ready
        self.side.show_hint(self.session, seat, visible=visible, compact=compact, ready=ready)

    def show_status(self, message: str | None = None) -> None:
        """``message`` in the status line as an error (a refusal, a warning), or what
        the table or the session says now."""
        says = self.table.status() if message is None else None
        self.side.show_status(self.session, message, ready=self.solver.ready, table_says=says)

    def say_save_notice(self) -> None:
        """Say once, in the status line and a toast, that the game is not being saved
        (or that a damaged store was moved aside)."""
        notice = self.saver.notice()
        if notice is None:
            return
        self.show_status(notice)
        self.notify(notice, severity="warning", timeout=10, markup=False)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Only what the first frame needs: the board, and the side column empty (its
        # width comes from snl.tcss) so that nothing moves when the panels arrive.
        game = self.session.game
        pixels = getattr(self.app, "pixels", None)  # SnlApp's: the terminal's picture protocol
        yield board_widget(game.board, token_letters(game.players), pixels)
        yield GameSide(id="side")

    def on_mount(self) -> None:
        # The side column's width for this terminal from the first frame, not from the
        # first Resize (after it): the board, and its picture, are sized once.
        self.frame.set_widths(self.app.size.width)
        self.table.mounted()
        show_titles(self.query_one(BoardView), self.session)
        show_tokens(self.query_one(BoardView), self.session)
        # Under a millisecond on the built-in boards, in a worker: it has answered by the
        # time the panels mount, so they show the game's state once (no "computing").
        self.solver.solve(self.session.board)
        # Public Textual API: the callback runs once the first frame has been drawn.
        self.call_after_refresh(self.mount_panels)

    async def mount_panels(self) -> None:
        """Mount the header, the side panels and the footer, then begin the game (once:
        the first of the refresh callback, a key and a click does it)."""
        if await self.frame.mount_panels():
            self.rounds.shown()
            self.say_save_notice()

    async def on_screen_suspend(self) -> None:
        """A dialog over the game before its first frame (the command palette lists the
        game's actions): the panels first."""
        await self.mount_panels()

    def on_resize(self, event: Resize) -> None:
        self.frame.resize(*event.size)

    # -- moves -------------------------------------------------------------------------

    @on(TurnPlayed)
    def _turn_played(self, event: TurnPlayed) -> None:
        self.turns.played(event.turn)

    # -- what the table sent (a room: its host) ------------------------------------------

    @on(SessionReplaced)
    def _session_replaced(self, message: SessionReplaced) -> None:
        self.rounds.replaced(message.session)

    @on(MoveArrived)
    def _move_arrived(self, message: MoveArrived) -> None:
        """A move made elsewhere (the session has it already): shown as a move here is."""
        if not self.panels_mounted:
            return  # mount_panels shows the state as it is
        self.turns.show(message.turn)

    @on(StateChanged)
    def _state_changed(self) -> None:
        if self.panels_mounted and not self.busy:  # else the move's end shows it
            self.show_state()

    @on(StatusSaid)
    def _status_said(self, message: StatusSaid) -> None:
        if self.panels_mounted:  # a host may answer before the screen is up
            self.show_status(message.text)

    # -- keys and clicks ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys the footer offers (the session decides; a hidden board offers
        nothing but quit and help). Whose turn it is and whether a move is still being
        shown are checked by ``can_move``."""
        if self.has_class("too-small") and action not in ("quit", "help"):
            return False  # nothing happens on a board the player cannot see
        if action == "room" and parameters:
            action = str(parameters[0])
        if (offered := self.table.allows(action, self.session)) is not None:
            return offered
        available = self.session.available(action)
        if available and not self.panels_mounted and action not in ("quit", "help"):
            return None  # the game begins once the panels are up (a key mounts them)
        return available

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The footer's keys, with the die choice as this board's die has it: '1-6' on a
        die of up to 9 faces (each value has its key), '1-9/d' on a bigger one."""
        bindings = super().active_bindings
        faces = self.session.board.rules.faces
        for key, active in bindings.items():
            if active.binding.action == "choose_die" and faces <= 9:
                binding = replace(active.binding, key_display=f"1-{faces}")
                bindings[key] = active._replace(binding=binding)
        return bindings

    async def on_key(self, event: Key) -> None:
        """A key whose action is hidden now (``r`` after the game, ``u`` in classic mode)
        says why in the status line instead of doing nothing. A key typed before the
        first frame (the terminal's type-ahead) mounts the panels first: the app checks
        its bindings only after this, as the key bubbles up to it."""
        await self.mount_panels()
        if self.has_class("too-small"):
            return
        refusal = key_refusal(
            self.session,
            event.key,
            event.character,
            printable=event.is_printable,
            bound=self.active_bindings,
        )
        if refusal is not None:
            self.show_status(refusal)

    @on(Click, "#board")
    async def _board_clicked(self, event: Click) -> None:
        """A click on a square says what it holds in the status line."""
        await self.mount_panels()  # a click before the first frame: the panels first
        if (square := clicked_square(self.query_one(BoardView), event)) is not None:
            self.show_status(self.session.square_text(square))
            session, board = self.session, self.session.board
            in_background(
                self,
                "square",
                key=lambda: id(self.session.board),
                compute=lambda: square_odds_text(session, board, square),
                show=self.show_status,
            )

    async def action_choose_die(self) -> None:
        """Ask for any die value in a box (faces above 9 have no key of their own)."""
        if self.check_action("choose_die", ()) is True and self.can_move():
            await self.menus.choose_die()

    @on(Input.Submitted, "#die-input")
    def _die_entered(self, event: Input.Submitted) -> None:
        self.menus.die_entered(event)

    # -- actions -----------------------------------------------------------------------

    def can_move(self) -> bool:
        """A human may move now: no move is being shown and it is a human's turn (and a
        puzzle's optimum is known, to judge the move)."""
        if self.busy or self.session.driver_to_move is not Driver.LOCAL:
            return False
        return (self.solver.ready or not self.session.puzzle) and self.table.may_move()

    def action_roll(self) -> None:
        if self.check_action("roll", ()) is True and not self.table.roll() and self.can_move():
            self.turns.start(None)

    def action_room(self, order: str) -> None:
        """A key only a room offers (chat, the bell, the host's powers): its table's."""
        self.table.order(order)

    def action_pick(self, die: int) -> None:
        """Puzzle mode: play the chosen die value if it is legal, else say why not."""
        if self.check_action("pick", ()) is not True or not self.can_move():
            return
        problem = self.session.why_not(die)
        if problem is None:
            self.turns.start(die)
        else:
            self.show_status(problem)

    def action_undo(self) -> None:
        if self.check_action("undo", ()) is True and not self.busy:
            self.turns.undo()

    def action_toggle_hint(self) -> None:
        self.hint_visible = not self.hint_visible
        self.show_hint()

    def action_toggle_route(self) -> None:
        self.menus.toggle_route()

    def action_toggle_jumps(self) -> None:
        self.notify(self.query_one(BoardView).toggle_jumps())

    def action_toggle_fit(self) -> None:
        self.notify(self.query_one(BoardView).toggle_fit())

    def action_toggle_animation(self) -> None:
        self.animation_on = not self.animation_on
        self.notify(f"Animation {'on' if self.animation_on else 'off'}.")
        self.post_message(SettingChanged("animation", self.animation_on))

    def action_quit(self) -> None:
        if self.table.quit():
            return
        if self.pushed:
            self.dismiss(None)
            return
        self.app.exit(return_code=0)

    # -- menus and dialogs (``game_menus``) ---------------------------------------------

    @on(GameEnded)
    def _game_ended(self) -> None:
        self.menus.game_ended()

    @on(GameStarted)
    def _game_started(self) -> None:
        self.menus.game_started()

    def action_learn(self) -> None:
        self.menus.learn()

    def action_saved_games(self) -> None:
        self.menus.saved_games()

    def action_switch_mode(self) -> None:
        self.menus.switch_mode()

    def action_new_game(self) -> None:
        self.menus.new_game()

    def action_load_board(self) -> None:
        self.menus.load_board()

    def _board_chosen(self, board: Board | None) -> None:
        self.menus.board_chosen(board)

    def action_stats(self) -> None:
        self.menus.stats()

    def action_help(self) -> None:
        self.menus.help()

    def action_edit(self) -> None:
        self.menus.edit()

    # -- new games ---------------------------------------------------------------------

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        """The session's next game (``again``: the same one once more) (``game_rounds``)."""
        self.rounds.restart(settings, again=again)

    def resume(self, session: GameSession, game_id: int) -> bool:
        """Continue saved game ``game_id``: False when another snl is playing it."""
        return self.rounds.resume(session, game_id)
