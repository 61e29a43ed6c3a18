"""What each snake and ladder does to the expected game length (``snl check``'s notes).

For every jump: the expected turns from the start with the board minus that jump, and
the difference. One shared factorisation serves all of them: removing a jump changes the
per-roll matrix in a couple of columns, so each jump costs a low-rank (Woodbury) update,
not a fresh solve of the whole board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..board import Board, JumpKind
from ..engine import count_to, idle_jumps, resolve_landing
from ..odds.markov import _Chain, chain_of, expected_from_rows, expected_turns, sorted_distinct

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as the jumps are worked through."""


@dataclass(frozen=True)
class JumpImpact:
    """How one snake or ladder changes the expected game length from the start.

    ``delta`` = expected turns with the jump minus without it: negative means the jump
    shortens the game. A ladder can lengthen it (it may skip past a better ladder or
    land next to a snake); ``lengthens`` says so. ``nan`` when the game may never end
    with or without the jump.
    """

    start: int
    end: int
    kind: JumpKind
    expected_turns_without: float
    delta: float
    fires: bool = True
    """False when no game from the start ever lands on the jump's start."""

    @property
    def lengthens(self) -> bool:
        return self.delta > 0

    def describe(self) -> str:
        """'ladder 80->100 shortens the game by 3.21 turns' and the like."""
        name = f"{self.kind} {self.start}->{self.end}"
        delta = self.delta
        if not self.fires:
            return f"{name} never fires in a game: removing it changes nothing"
        if math.isnan(delta):
            return f"{name}: the game may never end, with or without it"
        if delta == math.inf:
            return f"{name} can make the game endless (without it every game ends)"
        if delta == -math.inf:
            return f"{name} rescues the game: without it some games never end"
        if abs(delta) < 0.005:
            return f"{name} barely changes the game length ({delta:+.4f} turns)"
        # Capitals mark the surprise: a ladder that lengthens, a snake that shortens.
        if delta < 0:
            verb = "SHORTENS" if self.kind == "snake" else "shortens"
            return f"{name} {verb} the game by {-delta:.2f} turns"
        verb = "LENGTHENS" if self.kind == "ladder" else "lengthens"
        return f"{name} {verb} the game by {delta:.2f} turns"


def jump_impacts(board: Board, progress: Progress | None = None) -> list[JumpImpact]:
    """For each jump in square order, the expected game length without it.

    The board minus one jump lands as the engine says (``resolve_landing``: chains and
    overshoot behave as in play). Removing a jump changes the per-roll matrix in a few
    columns (rolls that landed on its start now stay there instead of reaching its end),
    so with the base system factorised once each jump is a small Woodbury update. Where
    the update does not apply (the jump's removal lets a game reach a square the base
    board never finishes from, or the start does not finish surely) the expectation is
    solved directly over the squares a game can reach.
    """
    chain = chain_of(board)
    rules = board.rules
    start = rules.start_position
    with_all = float(chain.expected[start])
    by_rolls = math.isfinite(with_all) and not rules.three_sixes
    base = _WoodburyBase(chain, start) if by_rolls else None
    counted, forfeit = _counted(board)
    jumps = board.jumps
    idle = {jump.start for jump in idle_jumps(board)}
    impacts = []
    for number, (origin, end) in enumerate(jumps.items()):
        if rules.three_sixes:
            # A turn's end depends on where it began: the chain works on whole turns
            # (the engine's turn table), so each board without a jump is solved anew.
            others = [(a, b) for a, b in jumps.items() if a != origin]
            without = expected_turns(board.with_jumps(others))
        else:
            cells = list(board.cells)
            cells[origin] = -1
            landing = np.array(resolve_landing(cells, rules.chain), dtype=np.intp)
            dest = np.where(forfeit, np.arange(board.goal + 1)[:, None], landing[counted])
            updated = base.expected_turns(dest) if base is not None else None
            if updated is None:
                rows = dest[: board.goal].tolist()
                updated = expected_from_rows(rows, board.goal, rules.faces, rules.six_again, start)
            without = updated
        delta = math.nan if math.isinf(with_all) and math.isinf(without) else with_all - without
        kind: JumpKind = "ladder" if end > origin else "snake"
        impacts.append(JumpImpact(origin, end, kind, without, delta, origin not in idle))
        if progress is not None:
            progress(number + 1, len(jumps))
    return impacts


def _counted(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(square counted to, forfeited) for every position and face; the goal's row is
    the goal (it absorbs). Jumps are applied afterwards, through a landing table."""
    goal, faces = board.goal, board.rules.faces
    counted = np.minimum(np.arange(goal + 1)[:, None] + np.arange(1, faces + 1), goal)
    forfeit = np.zeros(counted.shape, dtype=bool)
    for here in range(max(0, goal - faces), goal):
        for die in range(1, faces + 1):
            target = count_to(board, here, die)
            if target is None:
                forfeit[here, die - 1] = True
            else:
                counted[here, die - 1] = target
    counted[goal] = goal
    return counted, forfeit


class _WoodburyBase:
    """The factorised per-roll system of a board, for expectations after small changes.

    Over the safe positions S (all of them, not only the kept ones, since a removed
    jump's start becomes a landing square), X = M^-1 b with M = I - R_SS (see
    ``_Chain.expected``). A changed roll table gives M' = M - U E_C^T, with C the
    columns that changed, and Woodbury's identity gives X'(start) from a few rows of
    M^-1, each one transposed solve with the chain's sparse factorisation (never the
    whole inverse).
    """

    def __init__(self, chain: _Chain, start: int) -> None:
        self.chain, self.start = chain, start
        self.system = chain.factorised_system  # the chain's factorisation of M
        self.states, self.index = self.system.states, self.system.index
        ends_turn = chain.dest[self.states] != chain.goal
        if chain.six_again:
            ends_turn[:, -1] = False
        self.b = ends_turn.sum(axis=1) / chain.faces
        self.y = chain._extra_rolls[self.states]  # X on S: the base board's answer
        self._rows: dict[int, np.ndarray] = {}

    def inverse_rows(self, picked: np.ndarray) -> np.ndarray:
        """Rows ``picked`` of M^-1 (each a transposed solve with the one factorisation,
        the new ones in one batch; cached: jumps share squares)."""
        new = [int(i) for i in dict.fromkeys(picked.tolist()) if i not in self._rows]
        if new:
            unit = np.zeros((len(self.states), len(new)))
            unit[new, np.arange(len(new))] = 1.0
            solved = self.system.solve(unit, transposed=True)
            for column, i in enumerate(new):
                self._rows[i] = solved[:, column]
        return np.array([self._rows[int(i)] for i in picked])

    def expected_turns(self, dest: np.ndarray) -> float | None:
        """E(start) under a new roll table, or None when the update does not apply."""
        chain, start, index = self.chain, self.start, self.index
        if index[start] < 0:
            return None
        changed = np.flatnonzero((dest != chain.dest).any(axis=1) & (index >= 0))
        if not len(changed):
            return 1.0 + float(self.y[index[start]])
        new = dest[changed]
        # The update is exact only while S stays closed: a changed roll that now leaves
        # S (for a square the base board may never finish from) needs a direct solve.
        if ((index[new] < 0) & (new != chain.goal)).any():
            return None
        old = chain.dest[changed]
        columns = sorted_distinct(np.concatenate((new.ravel(), old.ravel())))
        columns = columns[columns != chain.goal]
        # U[p, j] = change of R[p, columns[j]] (rows outside ``changed`` stay zero), in
        # the changed rows only.
        counts = (new[:, :, None] == columns).sum(axis=1) - (old[:, :, None] == columns).sum(axis=1)
        update = counts / chain.faces  # (changed, k)
        ends_turn = new != chain.goal
        if chain.six_again:
            ends_turn[:, -1] = False
        b_change = ends_turn.sum(axis=1) / chain.faces - self.b[index[changed]]
        rows = index[changed]
        picked = np.concatenate(([index[start]], index[columns]))
        inverse_cols = self.inverse_rows(picked)[:, rows]  # M^-1[picked, changed rows]
        # X' = M'^-1 b' with b' = b + db and M' = M - U E_C^T (U sparse in ``rows``).
        y = self.y[picked] + inverse_cols @ b_change
        z = inverse_cols @ update
        correction = 0.0
        k = len(columns)
        if k:
            inner = np.eye(k) - z[1:]
            # A singular inner matrix means the change closed a loop the game can never
            # leave (a doomed class inside S): the direct solve decides.
            if np.linalg.cond(inner) > 1e10:
                return None
            correction = float(z[0] @ np.linalg.solve(inner, y[1:]))
        value = 1.0 + float(y[0]) + correction
        return value if math.isfinite(value) and value >= 1.0 else None
