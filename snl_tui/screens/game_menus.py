"""The game's menus and dialogs: new game, load, switch mode, saved games, stats, help,
the editor, the end-of-game report and what follows it.

A part of ``GameScreen`` (``screens/game.py``), on the state and display of ``GameDisplay``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import on

from ..core.board import Board
from ..core.session import GameSettings, players_text, puzzle_player
from ..messages import EditRequested, GameEnded, GameStarted, ResumeRequested, SettingChanged
from ..widgets.board import BoardView
from .background import in_background
from .game_display import COMPUTING, GameDisplay

__all__ = ["GameMenus"]

WINNER_PAUSE = 1.0
"""Seconds the winning move stays in sight before the end-of-game dialog covers it."""


class GameMenus(GameDisplay):
    """The game screen's dialogs and switches."""

    @on(GameEnded)
    def _game_ended(self) -> None:
        """The end-of-game report (the classic one asks the analysis: seconds on big
        boards) in a worker, then its dialog, unless a new game began meanwhile."""
        from .winner import GameOverScreen, GameReport, puzzle_solved, winner_report

        session, game, optimal = self.session, self.session.game, self.optimal_moves

        def report() -> GameReport:
            return puzzle_solved(game, optimal) if session.puzzle else winner_report(game)

        generation = self.session.generation

        def push(result: GameReport) -> None:
            if self.session.generation == generation and self.is_attached:
                self.app.push_screen(GameOverScreen(result), self._after_game_over)

        def show(result: GameReport) -> None:
            # The winning move stays in sight a moment before the dialog covers it.
            if self.animation_on:
                self.set_timer(WINNER_PAUSE, partial(push, result))
            else:
                push(result)

        in_background(
            self, "report", key=lambda: self.session.generation, compute=report, show=show
        )

    @on(GameStarted)
    def _game_started(self) -> None:
        """Say who plays a puzzle when someone asked for sits out."""
        notice = self.session.puzzle_notice()
        if notice is not None:
            self.notify(notice, markup=False)

    # -- dialogs and switches ----------------------------------------------------------

    def _after_game_over(self, choice: str | None) -> None:
        if choice in ("retry", "new") and self.table.again():
            return  # a room's host starts the next game, in the same seats
        if choice == "retry":
            self.restart(again=True)
        elif choice == "new":
            self.action_new_game()  # the same dialog as n: players, mode and board
        elif choice == "replay":
            from .replay import ReplayScreen

            replay = ReplayScreen(self.session, animate=self.animation_on, pushed=True)
            self.app.push_screen(replay)
        elif choice == "quit":
            self.action_quit()

    def action_toggle_hint(self) -> None:
        self.hint_visible = not self.hint_visible
        self._show_hint()

    def action_toggle_route(self) -> None:
        session = self.session
        if session.route_on:
            session.hide_route()
        elif not self.solver_ready:
            self.notify(f"{COMPUTING} the optimal routes: try again in a moment.")
            return
        elif (problem := session.show_route()) is not None:
            over = session.game.over
            self.notify(problem, severity="information" if over else "warning", markup=False)
        game = session.game
        current = None if game.over else game.current
        self.query_one(BoardView).show(game.positions, session.route, current)

    def action_learn(self) -> None:
        """Puzzle mode: the breadth-first search on this board, step by step."""
        from ..lab.search import MAX_SQUARES
        from .learn import LearnScreen

        board = self.session.board
        if board.goal > MAX_SQUARES:
            self._show_status(f"The search is shown on boards of up to {MAX_SQUARES:,} squares.")
            return
        self.app.push_screen(LearnScreen(board, pushed=True))

    def action_toggle_jumps(self) -> None:
        self.notify(self.query_one(BoardView).toggle_jumps())

    def action_toggle_fit(self) -> None:
        self.notify(self.query_one(BoardView).toggle_fit())

    def action_toggle_animation(self) -> None:
        self.animation_on = not self.animation_on
        self.notify(f"Animation {'on' if self.animation_on else 'off'}.")
        self.post_message(SettingChanged("animation", self.animation_on))

    def action_saved_games(self) -> None:
        """The unfinished saved games, to pick one and continue it."""
        from .saved_games import SavedGamesScreen

        store = self.saver.store
        if store is None or not store.enabled:
            self._show_status("Not saving games: there are no saved games to open here.")
            return

        def chosen(game_id: int | None) -> None:
            if game_id is not None and game_id != self.saver.game_id:
                self.post_message(ResumeRequested(game_id))

        self.app.push_screen(SavedGamesScreen(store, current=self.saver.game_id), chosen)

    def in_progress(self) -> bool:
        """A game with moves and no winner yet: replacing it asks first."""
        game = self.session.game
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

        self.app.push_screen(ConfirmScreen(question), answered)

    def action_switch_mode(self) -> None:
        mode = "puzzle" if self.mode == "classic" else "classic"

        def switch() -> None:
            self.restart(self.settings.with_changes(mode=mode))
            self.notify(f"{mode.capitalize()} mode.")

        self.confirm_then(f"Switch to {mode} mode? The game in progress ends.", switch)

    def action_new_game(self) -> None:
        if self.table.again():
            return
        from .new_game import NewGameScreen

        self.app.push_screen(NewGameScreen(self.settings), self._new_game_chosen)

    def _new_game_chosen(self, settings: GameSettings | None) -> None:
        if settings is not None:
            self.restart(settings)
            self.post_message(SettingChanged("players", players_text(settings.players)))

    def action_load_board(self) -> None:
        from .load_board import LoadBoardScreen

        self.app.push_screen(LoadBoardScreen(), self._board_chosen)

    def _board_chosen(self, board: Board | None) -> None:
        if board is None:
            return

        def play() -> None:
            self.restart(self.settings.with_changes(board=board))
            name = f"{board.name or 'board'} ({board.rows}x{board.cols})"
            self.notify(f"Loaded {name}.", markup=False)

        self.confirm_then(
            f"Play {board.name or 'the loaded board'}? The game in progress ends.", play
        )

    def action_stats(self) -> None:
        from .stats import StatsScreen

        you = puzzle_player(self.settings.players).name  # the first human seat
        self.app.push_screen(StatsScreen(self.saver.store, self.session.board, you))

    def action_help(self) -> None:
        from .help import HelpScreen

        picture = self.query_one(BoardView).renderer.picture_shown
        self.app.push_screen(HelpScreen(picture=picture))

    def action_quit(self) -> None:
        if self.table.quit():
            return
        if self.pushed:
            self.dismiss(None)
            return
        self.app.exit(return_code=0)

    def action_edit(self) -> None:
        """Edit this board (SPEC 7); an edited board is played when the editor closes."""
        self.post_message(EditRequested(self.settings.board, self._edited))

    def _edited(self, board: Board | None) -> None:
        if board is not None and board != self.settings.board:
            settings = self.settings
            self.restart(settings.with_changes(board=board))
            self.notify("Playing the edited board.")
