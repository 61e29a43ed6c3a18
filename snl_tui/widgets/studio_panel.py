"""PLACEHOLDER for the board studio's live-numbers panel (editor branch only).

The studio-panel branch owns this module: its ``NumbersPanel`` (every figure of SPEC 7,
the change since the last edit, the histogram) replaces this file whole at merge time.
This stand-in has the same interface, so the editor is written against it:

- ``panel.show_board(board, cursor)`` after every edit (computed in a worker);
- ``panel.show_cursor(square)`` when the cursor moves;
- it posts ``NumbersPanel.Computed(board, figures)``, ``figures.visits[s]`` being the
  expected visits of square ``s`` (index 0: off the board) for the heat map.

Its only figures are the expected visits and expected rolls, from the engine's own
``move`` (no rule is re-implemented) and one linear solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from textual import work
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from ..core.board import Board
from ..core.engine import move


@dataclass(frozen=True)
class Figures:
    """What the placeholder computes: expected visits per square and rolls to finish."""

    visits: list[float]
    expected_rolls: float | None


def expected_visits(board: Board) -> Figures:
    """Expected landings per square before the goal (index 0: off the board)."""
    goal, faces = board.goal, board.rules.faces
    start = board.rules.start
    step = np.zeros((goal, goal))  # transient squares 0..goal-1; the goal absorbs
    for square in range(goal):
        for die in range(1, faces + 1):
            end = move(board, square, die).end
            if end != goal:
                step[square, end] += 1.0 / faces
    try:
        visits = np.linalg.solve(np.eye(goal) - step.T, np.eye(goal)[start])
    except np.linalg.LinAlgError:  # the goal cannot be reached: no finite figures
        return Figures([0.0] * (goal + 1), None)
    values = [max(0.0, float(v)) for v in visits] + [1.0]
    return Figures(values, float(sum(values[:-1])))


class NumbersPanel(Static):
    """Stand-in for the live-numbers panel (see the module's docstring)."""

    @dataclass
    class Computed(Message):
        """The figures of ``board`` are ready."""

        board: Board
        figures: Figures

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.figures: Figures | None = None
        self.cursor = 1

    def show_board(self, board: Board, cursor: int) -> None:
        self.cursor = cursor
        self._compute(board)

    def show_cursor(self, square: int) -> None:
        self.cursor = square
        self._show()

    @work(thread=True, exclusive=True, group="numbers")
    def _compute(self, board: Board) -> None:
        figures = expected_visits(board)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._computed, board, figures)

    def _computed(self, board: Board, figures: Figures) -> None:
        self.figures = figures
        self._show()
        self.post_message(self.Computed(board, figures))

    def _show(self) -> None:
        figures = self.figures
        if figures is None:
            self.update("computing...")
        elif figures.expected_rolls is None:
            self.update("The goal cannot be reached.")
        else:
            self.update(f"Expected rolls to finish: {figures.expected_rolls:.1f}")
