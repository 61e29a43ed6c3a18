"""One turn of random play, read off the engine's tables: the model every odds figure uses.

The engine (``core/engine.py``) is the one place a rule lives: where counting a die lands
(``count_to``), what landing on a square does (``jump_table``, ``resolve_landing``) and,
under ``three_sixes``, what a whole turn does (``turn_outcomes``). ``TurnModel`` reads
those once per board size and rules into numpy arrays, and ``TurnTable`` is what one turn
does on one board: the chain (``markov``), the exact fractions, the jump effects and the
generator all build on it, so a new rule changes the engine and ``Rules``, nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import engine
from ..board import Board
from ..rules import Rules


@dataclass(frozen=True, eq=False)
class TurnTable:
    """What one turn does on one board: ``dest[p, i]`` (positions 0..goal, the goal row
    looping onto itself) is one of ``width`` equally likely outcomes from ``p``.

    ``again``: the last outcome of a row (the die's top face) does not end the turn
    unless it wins: the token rolls again (``six_again``). Without it every outcome
    ends the turn; under ``three_sixes`` each outcome is a whole turn already."""

    dest: np.ndarray
    goal: int
    width: int
    again: bool

    def ends_turn(self, states: np.ndarray | slice | int = slice(None)) -> np.ndarray:
        """Per outcome of the rows ``states``: does it end the turn without winning?"""
        ends: np.ndarray = self.dest[states] != self.goal
        if self.again:
            ends[..., -1] = False
        return ends

    def turn_cost(self, states: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Per row of ``states``: the chance that one outcome ends the turn without
        winning (the right-hand side of the expected turns still to start)."""
        share: np.ndarray = self.ends_turn(states).sum(axis=1) / self.width
        return share

    def continuing(self) -> np.ndarray:
        """Per position: does its top outcome continue the turn (``again``, not won)?"""
        if not self.again:
            return np.zeros(self.goal + 1, dtype=bool)
        continues: np.ndarray = self.dest[:, -1] != self.goal
        continues[self.goal] = False
        return continues


class TurnModel:
    """A board size and rules, read off the engine: ``table(landing)`` is the turn
    table of any board of that size and rules, from its landing table."""

    def __init__(self, goal: int, rules: Rules, blank: Board) -> None:
        self.goal = goal
        self.rules = rules
        self.faces = faces = rules.faces
        # Counting d from p: p + d while on the board (count_to's own first case), the
        # engine's count_to for the last ``faces`` positions (overshoot, forfeits).
        # int32 (a million squares fit): half the memory traffic of the default integers.
        counted = np.arange(goal + 1, dtype=np.int32)[:, None] + np.arange(
            1, faces + 1, dtype=np.int32
        )
        np.minimum(counted, goal, out=counted)
        forfeits: list[tuple[int, int]] = []
        for here in range(max(0, goal - faces + 1), goal):
            for die in range(goal - here + 1, faces + 1):
                target = engine.count_to(blank, here, die)
                if target is None:
                    forfeits.append((here, die - 1))
                    counted[here, die - 1] = here
                else:
                    counted[here, die - 1] = target
        counted[goal] = goal
        self.counted = counted
        self.forfeits = tuple(np.array(forfeits, dtype=np.intp).reshape(-1, 2).T)
        """(positions, faces) of the rolls that are forfeited: the token stays put."""

    @classmethod
    def of(cls, board: Board) -> TurnModel:
        return cls(board.goal, board.rules, board)

    @classmethod
    def blank(cls, rows: int, cols: int, rules: Rules) -> TurnModel:
        board = Board(rows, cols, rules=rules)
        return cls(board.goal, rules, board)

    @property
    def width(self) -> int:
        """Equally likely outcomes of one turn (``faces**3`` under ``three_sixes``)."""
        return self.faces**3 if self.rules.three_sixes else self.faces

    def landing_of(self, board: Board) -> np.ndarray:
        """The board's landing table (the engine's jump table, chains followed)."""
        jumps = np.fromiter(engine.jump_table(board), dtype=np.int32, count=self.goal + 1)
        squares = np.arange(self.goal + 1, dtype=np.int32)
        landing: np.ndarray = np.where(jumps < 0, squares, jumps)
        return landing

    def landing_of_jumps(self, jumps: dict[int, int] | Sequence[tuple[int, int]]) -> np.ndarray:
        """The landing table of a board of this size and rules with ``jumps``."""
        cells = [-1] * (self.goal + 1)
        for start, end in dict(jumps).items():
            cells[start] = end
        landing = engine.resolve_landing(cells, self.rules.chain)
        return np.fromiter(landing, dtype=np.int32, count=self.goal + 1)

    def rolls(self, landing: np.ndarray) -> np.ndarray:
        """``dest[p, d - 1]``: where rolling d from p ends (a forfeit stays put), the
        goal row looping onto itself."""
        dest: np.ndarray = landing[self.counted]
        rows, faces = self.forfeits
        dest[rows, faces] = rows
        dest[self.goal] = self.goal
        return dest

    def table(self, landing: np.ndarray) -> TurnTable:
        """What one turn does on the board with this landing table."""
        rolls = self.rolls(landing)
        if not self.rules.three_sixes:
            return TurnTable(rolls, self.goal, self.faces, self.rules.six_again)
        turns = engine.turn_outcomes(rolls[: self.goal].tolist(), self.goal, self.faces)
        width = self.width
        dest = np.array([*turns, [self.goal] * width], dtype=np.int32).reshape(-1, width)
        return TurnTable(dest, self.goal, width, False)


def turn_matrix(table: TurnTable, states: np.ndarray) -> np.ndarray:
    """The one-turn transition matrix over ``states`` (positions, every outcome of which
    stays among them; the goal among them), dense: T = (I - A)^-1 B with A the top
    outcomes that continue the turn and B the ones that end it."""
    n = len(states)
    index = np.full(table.goal + 1, -1, dtype=np.intp)
    index[states] = np.arange(n)
    sub = index[table.dest[states]]
    rows = np.repeat(np.arange(n), table.width)
    share = 1.0 / table.width
    continues = table.continuing()[states]
    ends = np.ones(sub.shape, dtype=bool)
    ends[continues, -1] = False
    turn: np.ndarray = np.zeros((n, n))
    np.add.at(turn, (rows[ends.ravel()], sub.ravel()[ends.ravel()]), share)
    if continues.any():
        a = np.zeros((n, n))
        a[np.flatnonzero(continues), sub[continues, -1]] = share
        turn = np.linalg.solve(np.eye(n) - a, turn)
    return turn


def reachable_positions(dest: np.ndarray, goal: int, starts: Sequence[int]) -> list[int]:
    """The positions a game from ``starts`` can reach, the goal left out, in the order
    first met."""
    seen = set(starts)
    order = [p for p in starts if p != goal]
    for here in order:
        for there in dest[here].tolist():
            if there not in seen:
                seen.add(there)
                if there != goal:
                    order.append(there)
    return order
