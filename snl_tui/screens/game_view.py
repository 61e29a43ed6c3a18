"""How the game screen shows the session: titles, tokens, players, die, hint, status and
the footer's keys. The state it reads is declared here and kept by ``GameScreen``."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ..commands import keys_of
from ..core.board import Board
from ..core.engine import Player
from ..core.odds.standing import compute_odds, odds_at_hand
from ..core.session import (
    GameSession,
    GameSettings,
)
from ..core.store.saving import GameSaver
from ..widgets.board import BoardView
from ..widgets.dice import DiceFace
from ..widgets.hint_panel import HintPanel
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel
from .background import in_background

COMPUTING = "Computing…"
"""What a panel says while a worker finds its figures."""


class GameView(Screen[None]):
    """Shows the session; ``GameScreen`` drives it."""

    # What the display and the actions read; ``GameScreen`` sets and drives it.
    session: GameSession
    saver: GameSaver
    animation_on: bool
    busy: bool
    hint_visible: bool
    solved_board: Board | None
    optimal_moves: int
    footer_keys: tuple[bool | None, ...]
    panels_mounted: bool
    pushed: bool

    @property
    def settings(self) -> GameSettings:
        return self.session.settings

    @property
    def mode(self) -> str:
        return self.session.mode

    @property
    def solver_ready(self) -> bool:
        return self.solved_board is self.session.board

    def restart(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        raise NotImplementedError  # GameScreen's

    def can_move(self) -> bool:
        raise NotImplementedError  # GameScreen's

    async def mount_panels(self) -> None:
        raise NotImplementedError  # GameScreen's

    def _start_move(self, die: int | None) -> None:
        raise NotImplementedError  # GameScreen's

    def action_pick(self, die: int) -> None:
        raise NotImplementedError  # GameScreen's

    def shown_players(self) -> Sequence[Player]:
        """The players as the players panel lists them (a room's screen adds who is you,
        who is away and which seats are free)."""
        return self.session.game.players

    def hint_seat(self) -> int:
        """The seat the hint, the odds and the route are about (a room's screen: its own)."""
        return self.session.hint_seat

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

    def _show_die_values(self) -> None:
        """Puzzle mode: the legal die values as links that play them when clicked."""
        values = self.query_one("#die-values", Static)
        legal = self.session.game.legal_dice() if self.session.puzzle else ()
        values.display = bool(legal)
        links = " ".join(f"[@click=screen.pick({die})]{die}[/]" for die in legal)
        text = f"Play: {links}" if legal else ""
        if values.content != text:  # one line high: never a new layout
            values.update(text, layout=False)

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
        # The odds from the analysis (0.4 s on classic the first time, seconds on big
        # boards) in a worker; shown if the game has not moved on meanwhile. Once the
        # board's analysis is complete they are lookups, shown at once: in the same
        # frame as the move (a worker's answer often came a frame later).
        game = self.session.game
        board, positions, seat = game.board, tuple(game.positions), self.hint_seat()
        if odds_at_hand(board):
            odds = compute_odds(board, positions, seat)
            panel.show_hint(board, game.players, positions, seat, odds=odds, mode=self.mode)
            return
        in_background(
            self,
            "hint",
            key=self._hint_key,
            compute=lambda: compute_odds(board, positions, seat),
            show=lambda odds: self.query_one(HintPanel).show_hint(
                board, game.players, positions, seat, odds=odds, mode=self.mode
            ),
        )

    def _hint_key(self) -> tuple[int, tuple[int, ...], int]:
        game = self.session.game
        return self.session.generation, tuple(game.positions), self.hint_seat()

    def _show_status(self, message: str | None = None) -> None:
        status = self.query_one("#status", Static)
        status.set_class(message is not None, "-error")
        if message is None:
            if self.session.puzzle and not self.solver_ready:
                message = f"{COMPUTING} (the puzzle's optimum)"
            else:
                message = self.session.status(keys_of)
        if status.content != message:  # a fixed height (snl.tcss): never a new layout
            status.update(message, layout=False)

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
