"""Expected turns after a small change of a board, from the solved board (Woodbury).

Over positions S that finish surely, the expected turns still to start are X = M^-1 b
with M = I - R (R: one outcome of the turn table, ``model.TurnTable``) and b its turn
cost (``TurnTable.turn_cost``). Moving, adding or removing a jump changes the table in a
few rows (those that count onto the squares involved), so M' = M - E D with E selecting
those k rows and D their change, and Woodbury's identity gives

    X' = y + A S^-1 D y,   y = X + A db,   A = M^-1 E,   S = I - D A,

a k x k system read off k columns of M^-1 at the few positions D touches. The jump
effects read those entries with the chain's factorisation (``RowUpdate``); the
generator keeps M^-1 dense and updates it when it accepts a step (``DenseUpdate``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .blas import one_thread
from .model import TurnModel, TurnTable, finishes_surely
from .system import MAX_RELATIVE_ERROR, System

SINGULAR = 1e10
"""A change whose k x k system is worse conditioned than this closed a loop the game can
never leave (a doomed class inside S): the caller solves the new board directly."""


@dataclass(frozen=True)
class Change:
    """How a new turn table differs from the base one, over the states S."""

    rows: np.ndarray
    """States whose rows changed (k)."""
    columns: np.ndarray
    """States those rows reach, before or after (m)."""
    delta: np.ndarray
    """(k, m): R' - R on those rows and columns."""
    cost: np.ndarray
    """(k,): b' - b on those rows."""


def change_between(old: TurnTable, new: TurnTable, index: np.ndarray) -> Change | None:
    """The change from ``old`` to ``new`` over the states with ``index`` >= 0 (a state
    index per position, -1 outside S), or None when a changed row now leaves S for a
    position other than the goal (the update is exact only while S stays closed)."""
    goal = old.goal
    changed = np.flatnonzero((new.dest != old.dest).any(axis=1) & (index >= 0))
    after, before = new.dest[changed], old.dest[changed]
    if ((index[after] < 0) & (after != goal)).any():
        return None
    reached = np.zeros(goal + 1, dtype=bool)
    reached[after.ravel()] = True
    reached[before.ravel()] = True
    reached[goal] = False
    columns = np.flatnonzero(reached)
    slot = np.full(goal + 1, len(columns), dtype=np.intp)  # the goal: a dropped slot
    slot[columns] = np.arange(len(columns))
    k, m = len(changed), len(columns) + 1
    cells = np.arange(k)[:, None] * m  # each changed row's run of m slots
    counts = np.bincount((cells + slot[after]).ravel(), minlength=k * m) / new.width
    counts -= np.bincount((cells + slot[before]).ravel(), minlength=k * m) / old.width
    delta = counts.reshape(k, m)[:, :-1]
    cost = new.turn_cost(changed) - old.turn_cost(changed)
    return Change(index[changed], index[columns], delta, cost)


def _solve_small(change: Change, a_columns: np.ndarray, y_columns: np.ndarray) -> np.ndarray | None:
    """S^-1 D y (k,) with S = I - D A_C, or None when S is (nearly) singular."""
    k = len(change.rows)
    inner = np.eye(k) - change.delta @ a_columns
    if np.linalg.cond(inner) > SINGULAR:
        return None
    solved: np.ndarray = np.linalg.solve(inner, change.delta @ y_columns)
    return solved


class RowUpdate:
    """X' at one state after a change, reading rows of M^-1 through ``rows_of``
    (``rows_of(picked)``: M^-1[picked, :], say by transposed solves; kept, since
    changes share squares)."""

    def __init__(
        self,
        table: TurnTable,
        index: np.ndarray,
        solution: np.ndarray,
        rows_of: Callable[[np.ndarray], np.ndarray],
    ) -> None:
        self.table, self.index, self.x = table, index, solution
        self.rows_of = rows_of
        self._rows: dict[int, np.ndarray] = {}

    def _inverse_rows(self, picked: np.ndarray) -> np.ndarray:
        new = [int(i) for i in dict.fromkeys(picked.tolist()) if i not in self._rows]
        if new:
            solved = self.rows_of(np.array(new, dtype=np.intp))
            for row, i in enumerate(new):
                self._rows[i] = solved[row]
        return np.array([self._rows[int(i)] for i in picked])

    def expected_turns(self, new: TurnTable, start: int) -> float | None:
        """1 + X'(start) under the table ``new``, or None when the update does not apply
        (then solve the new board directly)."""
        at = int(self.index[start])
        if at < 0:
            return None
        change = change_between(self.table, new, self.index)
        if change is None:
            return None
        if not len(change.rows):
            return 1.0 + float(self.x[at])
        picked = np.concatenate(([at], change.columns))
        a = self._inverse_rows(picked)[:, change.rows]  # M^-1[picked, rows]
        y = self.x[picked] + a @ change.cost
        solved = _solve_small(change, a[1:], y[1:])
        if solved is None:
            return None
        value = 1.0 + float(y[0] + a[0] @ solved)
        return value if math.isfinite(value) and value >= 1.0 else None


class DenseUpdate:
    """X over every position below the goal with M^-1 kept dense, for a search that
    tries many small changes and accepts some (the generator). ``None`` figures: M is
    singular (some game never ends)."""

    REFRESH = 64
    """Accepted changes between fresh inversions (bounds rounding drift)."""

    def __init__(self, table: TurnTable) -> None:
        self.reset(table)

    def reset(self, table: TurnTable) -> None:
        goal = table.goal
        self.table = table
        self.index = np.append(np.arange(goal, dtype=np.intp), -1)
        self.accepted = 0
        self.inverse: np.ndarray | None = None
        # M^-1 from the chain's own solver (``system.System``: the plain walk with
        # corrections, or SuperLU), one right-hand side per position; only where every
        # position finishes surely (else M is singular and some game never ends).
        if not finishes_surely(table.dest, goal).all():
            return
        system = System(table.dest, np.arange(goal), table.width, table.die)
        inverse = system.solve(np.eye(goal))
        if not np.isfinite(inverse).all() or system.relative_error > MAX_RELATIVE_ERROR:
            return
        self.inverse = inverse
        self.x = inverse @ table.turn_cost(slice(0, goal))

    def value(self, start: int, x: np.ndarray | None = None) -> float:
        """1 + X(start) (``math.inf`` when it is not a finite expectation)."""
        if self.inverse is None:
            return math.inf
        x = self.x if x is None else x
        value = 1.0 + float(x[start]) if start < self.table.goal else 0.0
        return value if math.isfinite(value) and value >= 1.0 - 1e-9 else math.inf

    def trial(self, new: TurnTable) -> tuple[np.ndarray, Change, np.ndarray, np.ndarray] | None:
        """X' under ``new`` and what ``accept`` needs, or None (singular: reset)."""
        if self.inverse is None:
            return None
        change = change_between(self.table, new, self.index)
        assert change is not None  # every position below the goal is a state
        a = self.inverse[:, change.rows]
        y = self.x + a @ change.cost
        if not len(change.rows):
            return y, change, a, np.zeros(0)
        k = len(change.rows)
        inner = np.eye(k) - change.delta @ a[change.columns]
        try:
            coefficients = np.linalg.solve(
                inner, np.column_stack((change.delta @ y[change.columns], change.delta))
            )
        except np.linalg.LinAlgError:
            return None
        return y + a @ coefficients[:, 0], change, a, coefficients[:, 1:]

    def accept(
        self, new: TurnTable, trial: tuple[np.ndarray, Change, np.ndarray, np.ndarray] | None
    ) -> None:
        """Make ``new`` the base, from its ``trial`` (a fresh inversion now and then)."""
        self.accepted += 1
        if trial is None or self.accepted >= self.REFRESH or self.inverse is None:
            self.reset(new)
            return
        x, change, a, solved_delta = trial
        if len(change.rows):
            # N' = N + A S^-1 D_C N[C, :]: one BLAS thread (a second one stalls on a
            # busy machine, and gains nothing at this size: ``blas``).
            with one_thread():
                self.inverse += a @ (solved_delta @ self.inverse[change.columns])
        self.table, self.x = new, x


Token = tuple[TurnTable, "tuple[np.ndarray, Change, np.ndarray, np.ndarray] | None"]


class Candidates:
    """Expected turns of a search's candidate boards (one size and rules: ``model``),
    each a low-rank update of the last one accepted (``DenseUpdate``): what the board
    generator steers by, the same figure as the analysis under every rule."""

    def __init__(self, model: TurnModel, start: int) -> None:
        self.model, self.start = model, start
        self.update: DenseUpdate | None = None

    def table(self, jumps: dict[int, int]) -> TurnTable:
        return self.model.table(self.model.landing_of_jumps(jumps))

    def reset(self, jumps: dict[int, int]) -> float:
        """Expected turns of ``jumps``, solved afresh; it becomes the base."""
        self.update = DenseUpdate(self.table(jumps))
        return self.update.value(self.start)

    def trial(self, jumps: dict[int, int]) -> tuple[float, Token | None]:
        """Expected turns of ``jumps`` and a token for ``accept``."""
        if self.update is None:
            return self.reset(jumps), None
        table = self.table(jumps)
        trial = self.update.trial(table)
        if trial is None:
            return math.inf, (table, None)
        return self.update.value(self.start, trial[0]), (table, trial)

    def accept(self, token: Token | None, jumps: dict[int, int]) -> None:
        """Make ``jumps`` (tried with ``token``) the base."""
        if token is None or self.update is None:
            self.reset(jumps)
            return
        self.update.accept(*token)
