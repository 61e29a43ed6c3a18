"""One turn of random play, read off the engine's tables: the model every odds figure uses.

The engine (``core/engine.py``) is the one place a rule lives: where counting a die lands
(``count_to``), what landing on a square does (``jump_table``, ``resolve_landing``) and
what the rules make of a turn (``TurnShape``: which faces roll again, when a run of them
cancels the turn, and then what a whole turn does: ``turn_outcomes``). ``TurnModel`` reads
those once per board size and rules into numpy arrays, and ``TurnTable`` is what one turn
does on one board: the chain (``markov``), the exact fractions, the jump effects and the
generator all build on it, so a new rule changes the engine and ``Rules``, nothing here.

The one graph search on those tables lives here too (``reaching``): which positions a
game can reach, which can still finish, which jumps ever fire. The chain, the exact
fractions, the generator and the board checks all ask it. (The solver's own search is
the puzzle's: the player chooses the die, the least rolls, not what random play reaches.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .. import engine
from ..board import Board, Jump
from ..errors import SnlError
from ..rules import Rules
from . import tuning


class AnalysisError(SnlError, ValueError):
    """A board that cannot be analysed exactly (too large)."""


@dataclass(frozen=True, eq=False)
class TurnTable:
    """What one turn does on one board: ``dest[p, i]`` (positions 0..goal, the goal row
    looping onto itself) is one of ``width`` equally likely outcomes from ``p``.

    ``again[i]``: outcome i (a die face) does not end the turn unless it wins: the token
    rolls again. Which faces do is the engine's ``TurnShape``; where a turn's end depends
    on where it began (``whole_turns``), each outcome is a whole turn already."""

    dest: np.ndarray
    goal: int
    width: int
    again: np.ndarray
    """Per outcome (a bool per column of ``dest``): rolls again unless it wins."""
    die: int
    """The die's faces: ``width``, unless each outcome is a whole turn."""
    whole_turns: bool = False
    """Each outcome is a whole turn of up to a few rolls (``engine.turn_outcomes``)."""

    @property
    def rolls_again(self) -> bool:
        """Does some outcome roll again (so a turn may take several rolls)?"""
        return bool(self.again.any())

    def ends_turn(self, states: np.ndarray | slice | int = slice(None)) -> np.ndarray:
        """Per outcome of the rows ``states``: does it end the turn without winning?"""
        ends: np.ndarray = (self.dest[states] != self.goal) & ~self.again
        return ends

    def continues_turn(self, states: np.ndarray | slice | int = slice(None)) -> np.ndarray:
        """Per outcome of the rows ``states``: does the same turn go on (a roll again that
        does not win)?"""
        goes_on: np.ndarray = (self.dest[states] != self.goal) & self.again
        return goes_on

    def turn_cost(self, states: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Per row of ``states``: the chance that one outcome ends the turn without
        winning (the right-hand side of the expected turns still to start)."""
        share: np.ndarray = self.ends_turn(states).sum(axis=1) / self.width
        return share


class TurnModel:
    """A board size and rules, read off the engine: ``table(landing)`` is the turn
    table of any board of that size and rules, from its landing table."""

    def __init__(self, goal: int, rules: Rules, blank: Board) -> None:
        self.goal = goal
        self.rules = rules
        self.faces = faces = rules.faces
        self.shape = engine.turn_shape(rules)
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
        """Equally likely outcomes of one entry of the turn table (``TurnShape.width``)."""
        return self.shape.width

    def landing_of(self, board: Board) -> np.ndarray:
        """The board's landing table (the engine's, chains followed; read-only)."""
        return engine.landing_array(board)

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
        shape = self.shape
        if not shape.whole_turns:
            again = np.array(shape.again, dtype=bool)
            return TurnTable(rolls, self.goal, self.faces, again, self.faces)
        turns = engine.turn_outcomes(rolls[: self.goal].tolist(), self.goal, shape)
        width = shape.width
        dest = np.array([*turns, [self.goal] * width], dtype=np.int32).reshape(-1, width)
        never = np.zeros(width, dtype=bool)
        return TurnTable(dest, self.goal, width, never, self.faces, whole_turns=True)


def reaching(here: np.ndarray, there: np.ndarray, size: int, seeds: np.ndarray) -> np.ndarray:
    """Per position (0..size - 1): can it reach a seed along the edges ``here -> there``?

    Swap ``here`` and ``there`` to ask which positions the seeds can reach instead."""
    if size > tuning.SEARCH_IN_NUMPY:
        return _reaching_in_scipy(here, there, size, seeds)
    # Breadth-first, backwards from the seeds, a level at a time: the edges grouped by
    # their end (a stable sort), each level's predecessors gathered at once.
    order = np.argsort(there, kind="stable")
    sources = np.asarray(here)[order]
    bounds = np.searchsorted(np.asarray(there)[order], np.arange(size + 1))
    seen = np.asarray(seeds, dtype=bool).copy()
    frontier = np.flatnonzero(seen)
    slot = np.zeros(size, dtype=np.intp)  # for keeping one copy of each position found
    while len(frontier):
        starts, ends = bounds[frontier], bounds[frontier + 1]
        lengths = ends - starts
        total = int(lengths.sum())
        if not total:
            break
        offsets = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
        found = sources[np.arange(total) + offsets]
        found = found[~seen[found]]
        seen[found] = True
        # One copy of each: the last write to a slot wins, so one index per position.
        order = np.arange(len(found))
        slot[found] = order
        frontier = found[slot[found] == order]
    return seen


def _reaching_in_scipy(
    here: np.ndarray, there: np.ndarray, size: int, seeds: np.ndarray
) -> np.ndarray:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    # Reversed edges (there -> here), plus one extra node leading to every seed.
    source = size
    seed_list = np.flatnonzero(seeds)
    rows = np.concatenate((there, np.full(len(seed_list), source)))
    cols = np.concatenate((here, seed_list))
    graph = csr_matrix((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(size + 1,) * 2)
    order = breadth_first_order(graph, source, directed=True, return_predecessors=False)
    seen = np.zeros(size + 1, dtype=bool)
    seen[order] = True
    return seen[:size]


def moves_of(dest: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The move graph of a table (``dest[p, i]``, goal row last): its edges as (here,
    there) arrays, the goal's own row left out (the goal absorbs)."""
    goal = dest.shape[0] - 1
    here = np.repeat(np.arange(goal), dest.shape[1])
    return here, dest[:goal].ravel()


def reachable(dest: np.ndarray, starts: Sequence[int]) -> np.ndarray:
    """Per position: can a game from ``starts`` be there (the goal too, when reached)?"""
    size = dest.shape[0]
    here, there = moves_of(dest)
    seeds = np.zeros(size, dtype=bool)
    seeds[list(starts)] = True
    return reaching(there, here, size, seeds)


def reachable_positions(dest: np.ndarray, goal: int, starts: Sequence[int]) -> list[int]:
    """The positions a game from ``starts`` can reach, the goal left out, ascending."""
    seen = reachable(dest, starts)
    seen[goal] = False
    return [int(p) for p in np.flatnonzero(seen)]


def resting_positions(board: Board) -> set[int]:
    """Every position a token can rest on after a roll in a game from the rules' start
    (the goal too, when reached): the engine's rolls, one at a time."""
    model = TurnModel.of(board)
    seen = reachable(model.rolls(model.landing_of(board)), [board.rules.start_position])
    return {int(p) for p in np.flatnonzero(seen)}


def idle_jumps(board: Board) -> list[Jump]:
    """Jumps that can never fire in a game from the start: no roll from a position a game
    reaches counts onto the jump's start, nor (under ``chain``) onto a jump leading to
    it along a chain (the engine's ``move`` fires them in that order)."""
    model = TurnModel.of(board)
    goal = board.goal
    seen = reachable(model.rolls(model.landing_of(board)), [board.rules.start_position])
    seen[goal] = False
    counted = model.counted[seen]  # the squares the rolls from there count onto
    kept = np.ones(counted.shape, dtype=bool)
    rows, faces = model.forfeits
    forfeited = np.zeros(model.counted.shape, dtype=bool)
    forfeited[rows, faces] = True
    kept &= ~forfeited[seen]
    cells = np.asarray(board.cells, dtype=np.int64)
    squares = np.arange(goal + 1)
    is_start = (cells >= 0) & (cells != squares)
    fired = np.zeros(goal + 1, dtype=bool)
    fired[counted[kept]] = True
    fired &= is_start
    if board.rules.chain and fired.any():
        # A fired jump ending on another jump's start fires that one too, and so on.
        starts = np.flatnonzero(is_start)
        fired = reaching(cells[starts], starts, goal + 1, fired) & is_start
    return [Jump(a, b) for a, b in board.jumps.items() if not fired[a]]


def reachability(dest: np.ndarray, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """(can reach the goal, finishes surely) per position, from the move graph alone.

    A position finishes with probability 1 exactly when no position it can reach is
    doomed (a finite chain then ends in its only closed class, the goal). Deciding this
    on the graph makes infinite expectations exact and instant.
    """
    size = goal + 1
    squares = np.arange(goal)
    if (dest[:goal] > squares[:, None]).any(axis=1).all():
        # Every position has a move forward, so by induction from the top every one
        # can reach the goal, and none is doomed: no search needed (most boards).
        every = np.ones(size, dtype=bool)
        return every, every.copy()
    here, there = moves_of(dest)
    seeds = np.zeros(size, dtype=bool)
    seeds[goal] = True
    can_finish = reaching(here, there, size, seeds)
    if can_finish.all():
        return can_finish, np.ones(size, dtype=bool)
    safe = ~reaching(here, there, size, ~can_finish)
    return can_finish, safe


def finishes_surely(dest: np.ndarray, goal: int) -> np.ndarray:
    """Per position: does a game from there end with probability 1 (``reachability``)?"""
    return reachability(dest, goal)[1]
