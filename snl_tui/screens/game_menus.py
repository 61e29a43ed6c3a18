"""The game's menus and dialogs: new game, load, switch mode, saved games, stats, help,
the editor, the end-of-game report and what follows it; the box for a die value without
a key, and the optimal route shown or hidden.

``GameMenus`` is a helper the game screen (``screens/game.py``) holds, not a part of its
class: the screen's actions and messages call it, and it calls back only what
``GameHost`` names (the session, the saver, the table, a new game).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from textual.screen import Screen
from textual.widgets import Input

from ..core.board import Board
from ..core.session import GameSession, GameSettings, players_text, puzzle_player
from ..core.store.saving import GameSaver
from ..messages import EditRequested, ResumeRequested, SettingChanged
from ..widgets.board import BoardView
from ..widgets.dice import COMPUTING
from ..widgets.game_side import GameSide
from .background import in_background
from .game_solver import GameSolver
from .table import Table

__all__ = ["GameHost", "GameMenus"]

WINNER_PAUSE = 1.0
"""Seconds the winning move stays in sight before the end-of-game dialog covers it."""


class GameHost(Protocol):
    """What the menus need of the game screen besides Textual's ``Screen``."""

    session: GameSession
    saver: GameSaver
    table: Table
    animation_on: bool
    solver: GameSolver

    @property
    def settings(self) -> GameSettings: ...

    @property
    def mode(self) -> str: ...

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None: ...

    @property
    def side(self) -> GameSide: ...

    def show_status(self, message: str | None = None) -> None: ...

    def action_pick(self, die: int) -> None: ...

    def action_quit(self) -> None: ...


class GameMenus:
    """The game screen's dialogs: each pushes a screen and acts on its answer."""

    def __init__(self, screen: Screen[None], host: GameHost) -> None:
        """``screen`` and ``host`` are the one game screen: as Textual's screen (to push
        dialogs, notify, time) and as the game it drives."""
        self.screen = screen
        self.host = host

    def game_ended(self) -> None:
        """The end-of-game report (the classic one asks the analysis: seconds on big
        boards) in a worker, then its dialog, unless a new game began meanwhile."""
        from .winner import GameOverScreen, GameReport, puzzle_solved, winner_report

        host, screen = self.host, self.screen
        session, game, optimal = host.session, host.session.game, host.solver.optimal_moves

        def report() -> GameReport:
            return puzzle_solved(game, optimal) if session.puzzle else winner_report(game)

        generation = session.generation

        def push(result: GameReport) -> None:
            if host.session.generation == generation and screen.is_attached:
                screen.app.push_screen(GameOverScreen(result), self.after_game_over)

        def show(result: GameReport) -> None:
            # The winning move stays in sight a moment before the dialog covers it.
            if host.animation_on:
                screen.set_timer(WINNER_PAUSE, partial(push, result))
            else:
                push(result)

        in_background(
            screen, "report", key=lambda: host.session.generation, compute=report, show=show
        )

    def game_started(self) -> None:
        """Say who plays a puzzle when someone asked for sits out."""
        notice = self.host.session.puzzle_notice()
        if notice is not None:
            self.screen.notify(notice, markup=False)

    def after_game_over(self, choice: str | None) -> None:
        host = self.host
        if choice in ("retry", "new") and host.table.again():
            return  # a room's host starts the next game, in the same seats
        if choice == "retry":
            host.restart(again=True)
        elif choice == "new":
            self.new_game()  # the same dialog as n: players, mode and board
        elif choice == "replay":
            from .replay import ReplayScreen

            replay = ReplayScreen(host.session, animate=host.animation_on, pushed=True)
            self.screen.app.push_screen(replay)
        elif choice == "quit":
            host.action_quit()

    async def choose_die(self) -> None:
        """Ask for any die value in a box (faces above 9 have no key of their own)."""
        faces = self.host.session.board.rules.faces
        if faces <= 9:  # every value has its key: no box for values the die cannot roll
            self.host.show_status(f"A {faces}-sided die: press 1-{faces} to play a value.")
            return
        await self.host.side.open_die_box()

    def die_entered(self, event: Input.Submitted) -> None:
        """The die box's value, played (or why it is not a die value)."""
        die_input = event.input
        die_input.display = False
        self.screen.query_one(BoardView).focus()
        text = event.value.strip()
        if not text:
            return
        try:
            die = int(text)
        except ValueError:
            self.host.show_status(f"{text!r} is not a die value.")
            return
        self.host.action_pick(die)

    def toggle_route(self) -> None:
        """Show or hide the optimal route on the board (once the solver has answered)."""
        session = self.host.session
        if session.route_on:
            session.hide_route()
        elif not self.host.solver.ready:
            self.screen.notify(f"{COMPUTING} the optimal routes: try again in a moment.")
            return
        elif (problem := session.show_route()) is not None:
            over = session.game.over
            self.screen.notify(problem, severity="information" if over else "warning", markup=False)
        game = session.game
        current = None if game.over else game.current
        self.screen.query_one(BoardView).show(game.positions, session.route, current)

    def learn(self) -> None:
        """Puzzle mode: the breadth-first search on this board, step by step."""
        from ..lab.search import MAX_SQUARES
        from .learn import LearnScreen

        board = self.host.session.board
        if board.goal > MAX_SQUARES:
            self.host.show_status(
                f"The search is shown on boards of up to {MAX_SQUARES:,} squares."
            )
            return
        self.screen.app.push_screen(LearnScreen(board, pushed=True))

    def saved_games(self) -> None:
        """The unfinished saved games, to pick one and continue it."""
        from .saved_games import SavedGamesScreen

        store = self.host.saver.store
        if store is None or not store.enabled:
            self.host.show_status("Not saving games: there are no saved games to open here.")
            return

        def chosen(game_id: int | None) -> None:
            if game_id is not None and game_id != self.host.saver.game_id:
                self.screen.post_message(ResumeRequested(game_id))

        self.screen.app.push_screen(
            SavedGamesScreen(store, current=self.host.saver.game_id), chosen
        )

    def in_progress(self) -> bool:
        """A game with moves and no winner yet: replacing it asks first."""
        game = self.host.session.game
        return bool(game.history) and not game.over

    def confirm_then(self, question: str, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after a yes when it would replace a game in progress."""
        if not self.in_progress():
            proceed()
            return
        from .confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                proceed()

        self.screen.app.push_screen(ConfirmScreen(question), answered)

    def switch_mode(self) -> None:
        mode = "puzzle" if self.host.mode == "classic" else "classic"

        def switch() -> None:
            self.host.restart(self.host.settings.with_changes(mode=mode))
            self.screen.notify(f"{mode.capitalize()} mode.")

        self.confirm_then(f"Switch to {mode} mode? The game in progress ends.", switch)

    def new_game(self) -> None:
        if self.host.table.again():
            return
        from .new_game import NewGameScreen

        self.screen.app.push_screen(NewGameScreen(self.host.settings), self.new_game_chosen)

    def new_game_chosen(self, settings: GameSettings | None) -> None:
        if settings is not None:
            self.host.restart(settings)
            self.screen.post_message(SettingChanged("players", players_text(settings.players)))

    def load_board(self) -> None:
        from .load_board import LoadBoardScreen

        self.screen.app.push_screen(LoadBoardScreen(), self.board_chosen)

    def board_chosen(self, board: Board | None) -> None:
        if board is None:
            return

        def play() -> None:
            self.host.restart(self.host.settings.with_changes(board=board))
            name = f"{board.name or 'board'} ({board.rows}x{board.cols})"
            self.screen.notify(f"Loaded {name}.", markup=False)

        self.confirm_then(
            f"Play {board.name or 'the loaded board'}? The game in progress ends.", play
        )

    def stats(self) -> None:
        from .stats import StatsScreen

        you = puzzle_player(self.host.settings.players).name  # the first human seat
        self.screen.app.push_screen(
            StatsScreen(self.host.saver.store, self.host.session.board, you)
        )

    def help(self) -> None:
        from .help import HelpScreen

        picture = self.screen.query_one(BoardView).renderer.picture_shown
        self.screen.app.push_screen(HelpScreen(picture=picture))

    def edit(self) -> None:
        """Edit this board (SPEC 7); an edited board is played when the editor closes."""
        self.screen.post_message(EditRequested(self.host.settings.board, self.edited))

    def edited(self, board: Board | None) -> None:
        if board is not None and board != self.host.settings.board:
            settings = self.host.settings
            self.host.restart(settings.with_changes(board=board))
            self.screen.notify("Playing the edited board.")
