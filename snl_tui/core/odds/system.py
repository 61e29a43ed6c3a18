"""I - R solved for the chain's figures: the two float algorithms, the plain walk with
corrections (``band``) and one SuperLU factorisation, chosen by the system's size and
shape (``System``)."""

from __future__ import annotations

import math
import warnings
from functools import cached_property
from typing import Any

import numpy as np

from .band import PlainSolver
from .walk import pays, plain_structure

MAX_RELATIVE_ERROR = 1e-6
"""A solve whose error bound (``System.relative_error``) exceeds this is not shown: the
figure is "finite, but too large to compute"."""


class System:
    """I - R over ``states`` (per-roll matrix R restricted to them), solved as the plain
    walk of a ``die``-sided die plus corrections (``band``) while their rank pays, else
    factorised once (SuperLU); either for any number of right-hand sides."""

    def __init__(
        self,
        dest: np.ndarray,
        states: np.ndarray,
        faces: int,
        die: int | None = None,
        plain: bool = True,
    ) -> None:
        size = dest.shape[0]
        self.states = states
        self.index = np.full(size, -1, dtype=np.intp)
        self.index[states] = np.arange(len(states))
        self.faces = faces
        self._lu: Any = None
        self._plain: PlainSolver | None = None
        self._failed = False
        count = len(states)
        if not count:
            return
        every = count == size - 1 and bool((states == np.arange(count)).all())
        ascending = every or bool((states[1:] > states[:-1]).all())
        if plain and ascending and pays(size - 1 - count, size - 1):
            # The positions left out are row corrections too (``band``).
            structure = plain_structure(dest, faces, die, None if every else states)
            if structure is not None:
                self._plain = PlainSolver(dest, structure)
                return
        # faces * (I - R), one row per state: the diagonal, then one entry per face (a
        # face leaving the states, for the goal or outside, adds 0 to the diagonal), so
        # every row has faces + 1 slots and the CSR arrays are built without sorting.
        if every:
            sub = dest[:count].astype(np.int32)  # every position but the goal: itself
            sub[sub == count] = -1
        else:
            sub = self.index[dest[states]].astype(np.int32)  # column in the system, or -1
        indices = np.empty((count, faces + 1), dtype=np.int32)
        indices[:, 0] = np.arange(count, dtype=np.int32)
        indices[:, 1:] = sub
        values = np.empty((count, faces + 1))
        values[:, 0] = float(faces)
        values[:, 1:] = -1.0
        rows, slots = np.nonzero(sub < 0)
        indices[rows, slots + 1] = rows
        values[rows, slots + 1] = 0.0
        from scipy.sparse import csr_matrix
        from scipy.sparse.linalg import splu

        indptr = np.arange(0, count * (faces + 1) + 1, faces + 1, dtype=np.int32)
        matrix = csr_matrix((values.ravel(), indices.ravel(), indptr), shape=(count, count))
        matrix.sum_duplicates()  # faces sharing a destination, self-loops
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                # Minimum degree on A^T + A keeps the fill low on boards whose snakes
                # reach far back (COLAMD took four times as long on 1000 x 1000).
                self._lu = splu(matrix.tocsc(), permc_spec="MMD_AT_PLUS_A")
            except RuntimeError:  # exactly singular in floating point: too large
                self._failed = True

    @cached_property
    def relative_error(self) -> float:
        """A bound on the relative error of a solve: 8 eps cond(I - R) (a factor 4 over
        the backward-stable bound). For I - R with R sub-stochastic, ||I - R|| <= 2 and
        ||(I - R)^-1|| (max row sum) is the largest expected number of rolls, one more
        solve away; on a board whose games last ~2^667 turns that solve comes out far
        too large or not finite, and the figures are "too large to compute"."""
        if not len(self.states):
            return 0.0
        if self._plain is not None:
            return self._plain.relative_error
        rolls = self.solve(np.ones(len(self.states)))
        largest = float(np.max(np.abs(rolls)))
        if not math.isfinite(largest):
            return math.inf
        return 8.0 * float(np.finfo(float).eps) * max(largest, 1.0)

    def solve(self, rhs: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R)^-1 rhs (or its transpose); nan everywhere when the factorisation
        failed (a figure finite in theory but too large for floating point)."""
        if self._plain is not None:
            return self._plain.solve(rhs, transposed)
        if self._lu is None:
            return np.full(len(self.states), math.nan)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            # The matrix is faces * (I - R): scale the right-hand side to match.
            solution: np.ndarray = self._lu.solve(
                np.ascontiguousarray(rhs, dtype=float) * self.faces,
                trans="T" if transposed else "N",
            )
        return solution
