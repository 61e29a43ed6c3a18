"""The main screen: the board, the players, the die, the hint panel and the move log.

The screen holds one ``Game`` from the core and renders from it. A move is always the
engine's (``Game.roll`` / ``Game.play``); the screen only shows it: the die face, the
token stepping through ``Move.steps``, then the jump. Computer players roll by
themselves after a short pause.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, Static

from ..commands import game_bindings
from ..core.board import Board
from ..core.engine import Game, Player, Turn, move
from ..core.errors import MoveError
from ..core.solver import least_rolls_from, optimal_dice, optimal_route
from ..messages import GameEnded, GameStarted, TurnPlayed
from ..widgets.board import BoardView
from ..widgets.dice import DiceFace
from ..widgets.hint_panel import HintPanel, compute_odds
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel, token_letters

MODES = ("classic", "puzzle")
MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Below this the screen shows a short message instead of the game."""
NARROW_WIDTH, CRAMPED_WIDTH = 110, 90
"""Narrower terminals get a narrower side column, so the board keeps room (snl.tcss)."""
SHORT_HEIGHT, TINY_HEIGHT = 34, 28
"""Shorter terminals get no odds chart; the shortest show the hint instead of the moves."""
STEP_DELAY = 0.06
ROLL_FRAMES, ROLL_DELAY = 4, 0.05
JUMP_DELAY = 0.18
COMPUTER_DELAY = 0.6
PANELS_CSS = Path(__file__).resolve().parent.parent / "panels.tcss"
"""The side panels' styles: read when the panels mount, after the board's first frame."""


@dataclass
class GameSettings:
    """Everything needed to start a game."""

    board: Board
    players: list[Player] = field(default_factory=lambda: [Player("You")])
    seed: int | None = None
    mode: str = "classic"


def puzzle_player(players: Sequence[Player]) -> Player:
    """The one player of a puzzle: the first human seat, else 'You'."""
    return next((p for p in players if not p.computer), Player("You"))


class GameScreen(Screen[None]):
    """Where the game is played."""

    BINDINGS = game_bindings()
    AUTO_FOCUS = ""  # no auto focus (None would inherit "*"): the board takes it in _mount_panels
    HELP = "Roll with r (classic) or pick die values with 1-9 (puzzle). Press ? for help."

    def __init__(self, settings: GameSettings, *, animate: bool = True) -> None:
        super().__init__(classes="-loading")
        self.settings = settings
        self.animation_on = animate
        self.computer_delay = COMPUTER_DELAY
        self.game = self._new_game(settings)
        self.busy = False
        """A move is being shown: new moves wait until it is done."""
        self.hint_visible = False
        self.route_on = False
        self.route_owner = 0
        self.route_squares: list[int] = []
        self.optimal_moves = least_rolls_from(settings.board, settings.board.rules.start)
        self.computer_timer: Timer | None = None
        self.footer_keys: tuple[bool | None, ...] = ()
        self.panels_requested = False
        self.move_note: str | None = None
        """Puzzle mode: what the solver says about the last move when it was not optimal."""
        self.ready = False
        """The side panels are mounted: the state can be shown. Moves do not wait for it:
        a move made before is in the engine, and ``_mount_panels`` shows it."""
        self.games_started = 1
        self.cosmetic_random = random.Random(0)
        """Only for the rolling die's flicker: never decides a move."""

    @staticmethod
    def _new_game(settings: GameSettings) -> Game:
        players = settings.players
        if settings.mode == "puzzle":
            players = [puzzle_player(players)]
        return Game(settings.board, tuple(players), settings.seed)

    @property
    def mode(self) -> str:
        return self.settings.mode

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Only what the first frame needs: the board, in the place it keeps. The header,
        # the footer and the side panels mount right after that frame (``_mount_panels``)
        # into the room the ``-loading`` class keeps for them, so nothing moves.
        yield BoardView(self.game.board, letters=token_letters(self.game.players), id="board")

    def _side_panels(self) -> Vertical:
        players = PlayersPanel(id="players")
        players.border_title = "Players"
        hint = HintPanel(id="hint")
        hint.border_title = "Hint"
        hint.display = self.hint_visible
        log = MoveLog(id="log")
        log.border_title = "Moves"
        return Vertical(
            players,
            Horizontal(DiceFace(id="dice"), Static(id="status", markup=False), id="dice-row"),
            hint,
            log,
            id="side",
        )

    def on_mount(self) -> None:
        board_view = self.query_one(BoardView)
        self._show_board_titles()
        board_view.show(self.game.positions, (), self.game.current)
        board_view.follow(self.game.position)

    def on_screen_resume(self) -> None:
        # Textual runs this handler before its own, which lays out and draws the frame;
        # ``call_later`` then mounts the panels as soon as that frame is out, without
        # waiting for the next refresh as ``call_after_refresh`` would.
        if not self.panels_requested:
            self.panels_requested = True
            self.call_later(self._mount_panels)

    async def _mount_panels(self) -> None:
        """Mount the side panels once the board is on screen, then show the game."""
        if not self.is_attached:
            return  # the app quit before its first frame
        self._load_panel_css()
        mounted = self.mount_all([Header(), self._side_panels(), Footer()])
        # In the same refresh as the mount: no frame shows the panels in the kept room.
        self.remove_class("-loading")
        self.query_one(BoardView).focus()  # focus restyles the board: not before the frame
        await mounted
        if not self.app.is_running:
            return  # the app quit while the panels were mounting
        self.ready = True
        self._show_everything()
        self.post_message(GameStarted(self.game.board.name, self.mode))
        self._maybe_computer_turn()

    def _load_panel_css(self) -> None:
        """Add ``panels.tcss`` to the app's stylesheet (once). The rules apply as the
        panels mount; a theme change re-parses it with the other sources."""
        app = self.app
        if app.stylesheet.has_source(str(PANELS_CSS), ""):
            return
        app.stylesheet.read(PANELS_CSS)
        if app.css_monitor is not None:  # `textual run --dev`: live-edit it like snl.tcss
            app.css_monitor.add_paths([PANELS_CSS])

    def _board_title(self) -> str:
        board = self.game.board
        name = board.name or "board"
        return f"{name} {board.rows}x{board.cols} · {self.mode} mode"

    def _show_board_titles(self) -> None:
        """The board's name above it, its rules below it (the border's subtitle)."""
        board_view = self.query_one("#board", BoardView)
        board_view.border_title = self._board_title()
        board_view.border_subtitle = self.game.board.rules.describe()

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

    # -- showing the state -------------------------------------------------------------

    def _show_everything(self) -> None:
        if not self.ready:
            return  # the panels are not mounted yet: _mount_panels shows it all
        game = self.game
        self.sub_title = self._board_title()
        self._show_board_titles()
        self.query_one(DiceFace).faces = game.board.rules.faces
        self._show_die(game.history[-1].move.die if game.history else None)
        self.query_one(MoveLog).show_history(game.history, game.players)
        self._show_state()

    def _show_state(self) -> None:
        """Players, board tokens, route, hint and status from the engine's state."""
        if not self.ready:
            return
        game = self.game
        current = None if game.over else game.current
        self.query_one(PlayersPanel).show(game.players, game.positions, current, game.winner)
        board_view = self.query_one(BoardView)
        board_view.show(game.positions, self.route_squares if self.route_on else (), current)
        if current is not None:
            board_view.follow(game.positions[current])
        self._show_hint()
        self._show_status()
        self._refresh_footer()

    def _show_hint(self) -> None:
        if not self.ready:
            return  # the panels are not mounted yet: _mount_panels shows it all
        panel = self.query_one(HintPanel)
        panel.display = self.hint_visible
        self.set_class(self.hint_visible, "-hint-on")
        if not self.hint_visible:
            return
        panel.compact = self.has_class("-short")
        game = self.game
        seat = game.winner if game.over and game.winner is not None else game.current
        odds = compute_odds(game.board, game.positions, seat)
        panel.show_hint(game.board, game.players, game.positions, seat, odds=odds)

    def _show_status(self, message: str | None = None) -> None:
        if not self.ready:
            return
        status = self.query_one("#status", Static)
        status.set_class(message is not None, "-error")
        if message is None:
            message = self._status_text()
        status.update(message)

    def _status_text(self) -> str:
        game = self.game
        if game.over and game.winner is not None:
            return f"{game.players[game.winner].name} reached the goal!"
        player = game.players[game.current]
        if self.mode == "puzzle":
            faces = game.board.rules.faces
            keys = f"1-9, or d for 10-{faces}" if faces > 9 else f"1-{faces}"
            note = f"{self.move_note} " if self.move_note else ""
            return f"{note}Move {len(game.history) + 1}: choose a die value ({keys}). u undoes."
        if player.computer:
            return f"{player.name} is rolling..."
        if not game.history:
            return f"{player.name}: press r or space to roll."
        last = game.history[-1]
        # The die shows the last roll, which may be another player's: say whose.
        rolled = f"{game.players[last.player].name} rolled {last.move.die}."
        if last.again:
            return f"{rolled} {player.name}: roll again (r or space)."
        return f"{rolled} {player.name}: press r or space to roll."

    # -- moves -------------------------------------------------------------------------

    def _start_move(self, die: int | None) -> None:
        """Apply one move in the engine, then show it (animated or at once)."""
        name = self.game.players[self.game.current].name
        turn = self.game.roll() if die is None else self.game.play(die)
        self.busy = True
        if self.animation_on:
            self._show_status(f"{name} rolls..." if die is None else f"{name} plays {die}...")
            self.run_worker(self.show_move(turn), group="animation", exclusive=True)
        else:
            self.post_message(TurnPlayed(turn))

    async def show_move(self, turn: Turn) -> None:
        """Die face, then the token through ``Move.steps``, then the jump."""
        board_view = self.query_one(BoardView)
        result = turn.move
        if die_is_random := self.mode == "classic":
            faces = self.game.board.rules.faces
            for _ in range(ROLL_FRAMES if die_is_random else 0):
                self._show_die(self.cosmetic_random.randint(1, faces))
                await asyncio.sleep(ROLL_DELAY)
        self._show_die(result.die)
        shown = list(self.game.positions)
        shown[turn.player] = result.start
        for square in result.steps:
            await asyncio.sleep(STEP_DELAY)
            shown[turn.player] = square
            board_view.show(shown, (), turn.player)
            board_view.follow(square)
        if result.jumps:
            await asyncio.sleep(JUMP_DELAY)
            shown[turn.player] = result.end
            board_view.show(shown, (), turn.player)
            board_view.follow(result.end)
        self.post_message(TurnPlayed(turn))

    def _show_die(self, value: int | None) -> None:
        if self.ready:
            self.query_one(DiceFace).value = value

    @on(TurnPlayed)
    def _turn_played(self, event: TurnPlayed) -> None:
        turn = event.turn
        if self.game.history[-1:] != [turn]:
            return  # a stale animation from a game that was replaced or undone
        self.busy = False
        if self.ready:
            self.query_one(MoveLog).catch_up(self.game.history, self.game.players)
        self._show_die(turn.move.die)
        self.move_note = self._optimality_note(turn) if self.mode == "puzzle" else None
        self._follow_route(turn)
        self._show_state()
        if self.game.over and self.game.winner is not None:
            self.post_message(GameEnded(self.game.winner, len(self.game.history)))
        else:
            self._maybe_computer_turn()

    @on(GameEnded)
    def _game_ended(self, event: GameEnded) -> None:
        from .winner import GameOverScreen, puzzle_solved, winner_report

        if self.mode == "puzzle":
            report = puzzle_solved(self.game, self.optimal_moves)
        else:
            report = winner_report(self.game)
        self.app.push_screen(GameOverScreen(report), self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "retry":
            self.restart(self.settings)
        elif choice == "new" and self.mode == "puzzle":
            self.action_new_game()  # the same puzzle again is "retry": let them pick
        elif choice == "new":
            self.restart(self.settings, next_seed=True)
        elif choice == "quit":
            self.app.exit(return_code=0)

    def _optimality_note(self, turn: Turn) -> str | None:
        """Say so when a move leaves every optimal route (the solver's least rolls left
        before and after it), naming the die values that were optimal; None for an
        optimal move."""
        board = self.game.board
        before = least_rolls_from(board, turn.move.start)
        after = least_rolls_from(board, turn.move.end)
        if before < 0 or after == before - 1:
            return None
        best = " or ".join(str(die) for die in optimal_dice(board, turn.move.start))
        if after < 0:
            return f"Not optimal: the goal is out of reach from here ({best} was best)."
        if before == 1:
            return f"Not optimal: {best} would have finished; {after} rolls left now."
        return f"Not optimal: {after} rolls left now; {best} would have left {before - 1}."

    @on(GameStarted)
    def _game_started(self) -> None:
        """Say what a player would not see otherwise: a goal no one can reach, and who
        plays a puzzle when several players were asked for."""
        if self.optimal_moves < 0:
            self.notify(
                "The goal cannot be reached on this board: no one can win.",
                severity="warning",
                timeout=8,
            )
        players = self.settings.players
        chosen = self.game.players[0]
        # Computers sitting a puzzle out go without saying; another human does not.
        dropped = [p for p in players if not p.computer and p is not chosen]
        if self.mode == "puzzle" and (dropped or chosen not in players):
            from .new_game import who_plays_puzzle  # new_game imports this module

            self.notify(who_plays_puzzle(players))

    def _maybe_computer_turn(self) -> None:
        game = self.game
        if game.over or self.mode != "classic" or not game.players[game.current].computer:
            return
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None
        roll = partial(self._computer_roll, game)
        if self.computer_delay > 0:
            self.computer_timer = self.set_timer(self.computer_delay, roll)
        else:  # tests and the benchmark: no pause, but still one move per message loop turn
            self.call_later(roll)

    def _computer_roll(self, game: Game) -> None:
        self.computer_timer = None
        if game is not self.game or self.busy or game.over:
            return  # the game was replaced meanwhile, or a move is still being shown
        if self.has_class("too-small"):
            return  # the board is hidden: on_resize resumes when it is back
        if not game.players[game.current].computer:
            return
        self._start_move(None)

    # -- the route overlay ---------------------------------------------------------------

    def _route_from_here(self) -> bool:
        """Anchor a new route at the player to move; False when there is none."""
        game = self.game
        solution = optimal_route(game.board, game.position)
        if solution.moves <= 0:
            return False
        self.route_owner = game.current
        self.route_squares = list(solution.squares)
        return True

    def _follow_route(self, turn: Turn) -> None:
        """Keep the route while its owner stays on it; hide it when they leave it."""
        if not self.route_on or turn.player != self.route_owner:
            return
        square = turn.move.end
        if square == turn.move.start:
            return
        if square in self.route_squares:
            self.route_squares = self.route_squares[self.route_squares.index(square) + 1 :]
            if not self.route_squares:
                self.route_on = False
            return
        self.route_on = False
        self.route_squares = []
        name = self.game.players[turn.player].name
        self.notify(f"{name} left the optimal route: route hidden (o shows a new one).")

    # -- actions -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys the footer offers. Deliberately coarse (mode, game over, history):
        a footer refresh recomposes every key, so it must not flicker on every move. Whose
        turn it is and whether a move is still being shown are checked by ``can_move``."""
        game = self.game
        if self.has_class("too-small") and action not in ("quit", "help"):
            return False  # nothing happens on a board the player cannot see
        if action == "roll":
            if self.mode != "classic":
                return False
            return None if game.over else True
        if action in ("pick", "choose_die", "undo"):
            if self.mode != "puzzle":
                return False
            if action == "undo":
                return True if game.history else None
            return None if game.over else True
        return True

    def can_move(self) -> bool:
        """A human may move now: no move is being shown and it is a human's turn."""
        game = self.game
        if self.busy or game.over:
            return False
        return not game.players[game.current].computer

    def _refresh_footer(self) -> None:
        """Refresh the footer's keys only when what it offers changed."""
        keys = tuple(self.check_action(action, ()) for action in ("roll", "pick", "undo"))
        if keys != self.footer_keys:
            self.footer_keys = keys
            self.refresh_bindings()

    def action_roll(self) -> None:
        if self.check_action("roll", ()) is True and self.can_move():
            self._start_move(None)

    def action_pick(self, die: int) -> None:
        """Puzzle mode: play the chosen die value if it is legal, else say why not."""
        if self.check_action("pick", ()) is not True or not self.can_move():
            return
        game = self.game
        if die in game.legal_dice():
            self._start_move(die)
            return
        try:
            result = move(game.board, game.position, die)
        except MoveError as error:
            self._show_status(f"{die}: {error}.")
            return
        if result.forfeited:
            self._show_status(f"{die} would overshoot the goal: exact finish needed.")
        else:  # legal_dice and move disagree: trust legal_dice, but say so plainly
            self._show_status(f"{die} is not allowed from here.")

    async def action_choose_die(self) -> None:
        """Ask for any die value in a box (faces above 9 have no key of their own)."""
        if self.check_action("choose_die", ()) is not True or not self.can_move():
            return
        if not self.ready:
            return  # no side column for the box yet
        die_input = next(self.query("#die-input").results(Input), None)
        if die_input is None:  # made on first use: only dice with over 9 faces need it
            die_input = Input(id="die-input", placeholder="die value, Enter", type="integer")
            await self.query_one("#side").mount(die_input, after="#dice-row")
        die_input.display = True
        die_input.value = ""
        die_input.focus()

    @on(Input.Submitted, "#die-input")
    def _die_entered(self, event: Input.Submitted) -> None:
        die_input = event.input
        die_input.display = False
        self.query_one(BoardView).focus()
        text = event.value.strip()
        if not text:
            return
        try:
            die = int(text)
        except ValueError:
            self._show_status(f"{text!r} is not a die value.")
            return
        self.action_pick(die)

    def action_undo(self) -> None:
        if self.check_action("undo", ()) is not True or self.busy:
            return
        self.game.undo()
        self.move_note = None
        if self.route_on and not self._route_from_here():
            self.route_on = False
        self._show_everything()

    def action_toggle_hint(self) -> None:
        self.hint_visible = not self.hint_visible
        self._show_hint()

    def action_toggle_route(self) -> None:
        if self.route_on:
            self.route_on = False
            self.route_squares = []
        elif self.game.over:
            self.notify("The game is over: no route to show.")
        elif self._route_from_here():
            self.route_on = True
        else:
            self.notify("Goal unreachable from here: no route to show.", severity="warning")
        current = None if self.game.over else self.game.current
        self.query_one(BoardView).show(
            self.game.positions, self.route_squares if self.route_on else (), current
        )

    def action_toggle_animation(self) -> None:
        self.animation_on = not self.animation_on
        self.notify(f"Animation {'on' if self.animation_on else 'off'}.")

    def action_switch_mode(self) -> None:
        mode = "puzzle" if self.mode == "classic" else "classic"
        self.restart(
            GameSettings(self.settings.board, self.settings.players, self.settings.seed, mode)
        )
        self.notify(f"{mode.capitalize()} mode.")

    def action_new_game(self) -> None:
        from .new_game import NewGameScreen

        self.app.push_screen(NewGameScreen(self.settings), self._new_game_chosen)

    def _new_game_chosen(self, settings: GameSettings | None) -> None:
        if settings is not None:
            self.restart(settings)

    def action_load_board(self) -> None:
        from .load_board import LoadBoardScreen

        self.app.push_screen(LoadBoardScreen(), self._board_chosen)

    def _board_chosen(self, board: Board | None) -> None:
        if board is None:
            return
        self.restart(
            GameSettings(board, self.settings.players, self.settings.seed, self.settings.mode)
        )
        self.notify(f"Loaded {board.name or 'board'} ({board.rows}x{board.cols}).")

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_quit(self) -> None:
        if not self.ready:  # quitting mid-mount trips Textual's Header: once it is done
            self.call_after_refresh(self.action_quit)
            return
        self.app.exit(return_code=0)

    # -- new games ---------------------------------------------------------------------

    def restart(self, settings: GameSettings, *, next_seed: bool = False) -> None:
        """Replace the game (same screen): stops any animation and pending computer roll."""
        if next_seed and settings.seed is not None:
            settings = GameSettings(
                settings.board, settings.players, settings.seed + 1, settings.mode
            )
        self.workers.cancel_group(self, "animation")
        if self.computer_timer is not None:
            self.computer_timer.stop()
            self.computer_timer = None
        self.settings = settings
        self.game = self._new_game(settings)
        self.games_started += 1
        self.busy = False
        self.move_note = None
        self.route_on = False
        self.route_squares = []
        self.optimal_moves = least_rolls_from(settings.board, settings.board.rules.start)
        self.query_one(BoardView).set_board(settings.board, token_letters(self.game.players))
        for die_input in self.query("#die-input"):
            die_input.display = False
        self._show_everything()
        self.post_message(GameStarted(settings.board.name, settings.mode))
        self._maybe_computer_turn()
