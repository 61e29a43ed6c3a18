"""The solver's answer for the game on screen: asked for in a thread worker, kept with
the board it is about.

The solver's first answer can take seconds on big boards; until the board on screen has
it, puzzle moves, the route and the hint wait, saying so ("computing..."), and no key
waits on it. ``GameSolver`` is a helper the game screen (``screens/game.py``) holds: it
asks the session (the core caches the answer per board) and shows the state.
"""

from __future__ import annotations

from typing import Protocol

from textual.screen import Screen

from ..core.board import Board
from ..core.session import GameSession
from .background import in_background

__all__ = ["GameSolver", "SolverHost"]


class SolverHost(Protocol):
    """What the solver's answer needs of the game screen besides Textual's ``Screen``."""

    session: GameSession
    panels_mounted: bool

    def show_state(self) -> None: ...


class GameSolver:
    """The solver's answer for the session's board, once its worker is done."""

    def __init__(self, screen: Screen[None], host: SolverHost) -> None:
        """``screen`` and ``host`` are the one game screen (its workers, its toasts, its
        session, the state it shows)."""
        self.screen = screen
        self.host = host
        self.solved_board: Board | None = None
        """The board the solver has answered for (its worker is done): until then puzzle
        moves, the route and the hint wait, saying so."""
        self.optimal_moves = -1

    @property
    def ready(self) -> bool:
        """The solver has answered for the session's board."""
        return self.solved_board is self.host.session.board

    def solve(self, board: Board) -> None:
        """The solver's answer for every square (cached per board by the core), in a
        worker; shown if the board is still the session's."""
        host, session = self.host, self.host.session
        in_background(
            self.screen,
            "solver",
            key=lambda: id(host.session.board),
            compute=lambda: session.optimal_moves,
            show=lambda optimal: self.solved(board, optimal),
        )

    def solved(self, board: Board, optimal: int) -> None:
        self.solved_board = board
        self.optimal_moves = optimal
        if optimal < 0:
            self.screen.notify(
                "The goal cannot be reached on this board: no one can win.",
                severity="warning",
                timeout=8,
            )
        if self.host.panels_mounted:  # else mount_panels shows the state
            self.host.show_state()
