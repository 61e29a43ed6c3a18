"""What the game screen shows: its state, the solver's answer, the status, the save.

The base of ``GameScreen`` (``screens/game.py``): the session it drives, the solver's worker,
and every ``_show_*`` that puts the session's state into the widgets (players, board
tokens and route, hint, status, die). The game's menus (``game_menus.py``) and its keys and
clicks (``game_keys.py``) build on it; the screen adds the layout, the moves and new games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer

from ..commands import keys_of
from ..core.board import Board
from ..core.engine import Game, Player
from ..core.session import GameSession, GameSettings
from ..core.store.saving import GameSaver
from ..widgets.board import BoardView
from ..widgets.dice import DiceFace, DieValues, StatusLine
from ..widgets.hint_panel import HintPanel
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel
from .background import in_background
from .dialog import DismissOnce
from .table import Table

__all__ = ["COMPUTING", "GameDisplay"]

COMPUTER_DELAY = 0.6

COMPUTING = "Computing…"
"""What a panel says while a worker finds its figures."""


class GameDisplay(DismissOnce[None], Screen[None]):
    """The game screen's state and how it is shown (``GameScreen`` is the screen)."""

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

    if TYPE_CHECKING:  # the game screen's own (screens/game.py), used by its parts

        async def mount_panels(self) -> None: ...

        def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None: ...

        def can_move(self) -> bool: ...

        def action_pick(self, die: int) -> None: ...

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

    @property
    def settings(self) -> GameSettings:
        return self.session.settings

    @property
    def mode(self) -> str:
        return self.session.mode

    @property
    def solver_ready(self) -> bool:
        return self.solved_board is self.session.board

    def shown_players(self) -> Sequence[Player]:
        """The players as the players panel lists them (a room's table adds who is you,
        who is away and which seats are free)."""
        return self.table.shown_players(self.session)

    def hint_seat(self) -> int:
        """The seat the hint, the odds and the route are about (a room's table: its own)."""
        return self.table.hint_seat(self.session)

    def _show_titles(self) -> None:
        """The game's name above the board, the rules below it (once: the header says
        what the program is, "snl — Snakes & Ladders", not the game's name again)."""
        session = self.session
        board_view = self.query_one(BoardView)
        # Text from a board file is shown literally: a name like "[/]" is not markup.
        board_view.border_title = Content(session.title())
        board_view.border_subtitle = Content(session.board.rules.describe())

    def _show_tokens(self) -> None:
        """The tokens and the route on the board, the view on the current player (the
        winner, once there is one: the view follows them to the goal)."""
        game = self.session.game
        current = None if game.over else game.current
        board_view = self.query_one(BoardView)
        board_view.show(game.positions, self.session.route, current)
        followed = current if current is not None else game.winner
        if followed is not None:
            board_view.follow(game.positions[followed])

    def _show_everything(self) -> None:
        game = self.session.game
        self._show_titles()
        self.query_one(DiceFace).faces = game.board.rules.faces
        self._show_die(game.history[-1].move.die if game.history else None)
        log = self.query_one(MoveLog)
        log.chosen = self.session.puzzle
        log.show_history(game.history, game.players)
        self.table.everything_shown()
        self._show_state()

    def _show_state(self) -> None:
        """Players, board tokens, route, hint and status from the session."""
        game = self.session.game
        current = None if game.over else game.current
        players = self.shown_players()
        self.query_one(PlayersPanel).show(players, game.positions, current, game.winner)
        self._show_tokens()
        self._show_hint()
        self._show_status()
        self._show_die_values()
        self._refresh_footer()
        self.table.state_shown()

    def _show_die_values(self) -> None:
        """Puzzle mode: the legal die values as links that play them when clicked."""
        legal = self.session.game.legal_dice() if self.session.puzzle else ()
        self.query_one(DieValues).show(legal)

    def _show_hint(self) -> None:
        panel = self.query_one(HintPanel)
        panel.display = self.hint_visible
        self.set_class(self.hint_visible, "-hint-on")
        if not self.hint_visible:
            return
        panel.compact = self.has_class("-short")
        if not self.solver_ready:
            panel.show_message(COMPUTING)
            return
        game = self.session.game
        seat = self.hint_seat()
        panel.show_odds_of(game.board, game.players, game.positions, seat, mode=self.mode)

    def _show_status(self, message: str | None = None) -> None:
        if message is None:
            message = self.table.status()
        error = message is not None
        if message is None:
            if self.session.puzzle and not self.solver_ready:
                message = f"{COMPUTING} (the puzzle's optimum)"
            else:
                message = self.session.status(keys_of)
        self.query_one(StatusLine).say(message, error=error)

    def _show_die(self, value: int | None) -> None:
        self.query_one(DiceFace).value = value

    def _refresh_footer(self) -> None:
        """Refresh the footer's keys only when what it offers changed."""
        keys = tuple(self.check_action(action, ()) for action in ("roll", "pick", "undo"))
        if keys != self.footer_keys:
            self.footer_keys = keys
            self.refresh_bindings()

    def _say_save_notice(self) -> None:
        """Say once, in the status line and a toast, that the game is not being saved
        (or that a damaged store was moved aside)."""
        notice = self.saver.notice()
        if notice is None:
            return
        self._show_status(notice)
        self.notify(notice, severity="warning", timeout=10, markup=False)

    # -- saving --------------------------------------------------------------------------

    def _save(self) -> None:
        """One transaction after each move (about a millisecond; a locked store waits
        at most ``GAME_TIMEOUT`` once, then saving stops for the session)."""
        self.saver.moved(self.session)
