"""The chain's linear systems I - R solved as the plain walk plus one correction per jump.

Without jumps and away from the goal, one roll from square c goes to c + d (d = 1..f,
each 1/f): the per-roll matrix of this *plain walk*, R0, is a band that looks the same
from every square, so (I - R0)^-1 is known in closed form: its entry (c, q) is u(q - c),
the renewal sequence (u(0) = 1, u(m) = (u(m - 1) + ... + u(m - f)) / f: the expected
visits of a square m ahead), which settles at 2 / (f + 1) within a few hundred terms.
Applying it to a vector is a back-substitution, done here a block at a time with the
block's Toeplitz inverse (numpy, no Python loop per square).

A board is that walk plus its jumps and the overshoot rule near the goal. Every jump
changes R by a rank-one matrix (the rolls that reach its start go to its end instead),
the overshoot rule changes the last few rows, so R = R0 + U V^T with one column in U
and V per jump (and per changed row near the goal), and the Woodbury identity turns
I - R into one dense k x k system K = I - V^T (I - R0)^-1 U, whose entries are read off
the renewal sequence. For a board with k jumps the work is a k x k factorisation and a
few passes over the squares: a 1000 x 1000 board with 2,000 jumps in a fraction of a
second, where a sparse factorisation of I - R fills in to millions of entries.

``plain_structure`` reads the structure off the chain's roll array (the engine's own
table, so no rule is re-derived here) and returns None when the array is not of this
shape (``three_sixes`` turn tables, positions left out of the system): the caller then
factorises I - R directly. Every solve checks its residual against the roll array and
refines it until it is as small as a backward-stable solve's, so the error bound of
the caller (``8 eps cond``) holds for this solver too.

numpy only (no scipy import) below ``tuning.LAPACK_SQUARES``; from there on LAPACK through
scipy: the banded back-substitution, and K factorised once for every solve (the 1000 x
1000 boards of ``benchmarks/analysis.py``, where either takes about twice as long in
numpy).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from . import tuning
from .blas import one_thread

REFINEMENTS = 3
"""Most steps of iterative refinement after a solve whose residual is too large."""


@dataclass(frozen=True)
class PlainStructure:
    """The roll array as the plain walk plus corrections (see the module docstring)."""

    squares: int
    """N: the system's positions are 0..N - 1 (every position but the goal)."""
    faces: int
    starts: np.ndarray
    """Squares a roll is redirected from (jump starts reached by a roll)."""
    ends: np.ndarray
    """Where each of them leads (N for the goal, which is not in the system)."""
    rows: np.ndarray
    """Positions near the goal whose overshooting rolls stay in the system."""
    row_targets: list[np.ndarray]
    """Per such row: where those rolls end (one entry per roll, weight 1/f each)."""

    @property
    def rank(self) -> int:
        return len(self.starts) + len(self.rows)


def plain_structure(dest: np.ndarray, faces: int) -> PlainStructure | None:
    """The roll array (``dest[p, d - 1]``, goal row last) as the plain walk plus
    corrections, or None when it is not of that shape."""
    if dest.ndim != 2 or dest.shape[1] != faces:
        return None
    n = dest.shape[0] - 1
    if n < 1:
        return None
    table = dest[:n]
    squares = np.arange(n)
    reach = squares[:, None] + np.arange(1, faces + 1)  # the square each roll counts onto
    inside = reach < n
    # Rolls that stay inside the system but do not end on the square they count onto:
    # each redirects that square (a jump start) to where it ends.
    moved = inside & (table != reach)
    redirect = np.full(n + 1, -1, dtype=np.int64)
    redirect[reach[moved]] = table[moved]
    # A jump is a property of its square: every roll reaching a redirected square must
    # end where the others do, and every other roll inside must move plainly.
    expected = np.where(redirect[:n] >= 0, redirect[:n], squares)
    if (table[inside] != expected[reach[inside]]).any():
        return None
    if (table < 0).any() or (table > n).any():
        return None
    starts = np.flatnonzero(redirect >= 0)
    # Rolls past the goal (or onto it) that stay in the system: the overshoot rule.
    tail = max(0, n - faces)
    beyond = (squares[tail:, None] + np.arange(1, faces + 1, dtype=np.int64) >= n) & (
        table[tail:] < n
    )
    rows = tail + np.flatnonzero(beyond.any(axis=1))
    row_targets = [table[p][beyond[p - tail]].astype(np.int64) for p in rows.tolist()]
    return PlainStructure(n, faces, starts, redirect[starts], rows, row_targets)


@dataclass(frozen=True)
class Renewal:
    """u(m), the plain walk's expected visits of the square m ahead, for m < ``length``.

    u settles at 2 / (f + 1) geometrically; once ``faces`` values in a row lie within
    ``SETTLED`` (relative) of it, every later one does too (each is the mean of the
    ``faces`` before it), and the rest are that limit: the difference is rounding, and
    every solve's residual is checked anyway (``PlainSolver.solve``)."""

    values: np.ndarray

    @classmethod
    def of(cls, faces: int, length: int) -> Renewal:
        limit = 2.0 / (faces + 1)
        settling = _settling(faces)
        array = np.full(length, limit)
        array[: len(settling)] = settling[:length]
        return cls(array)


@lru_cache(maxsize=32)
def _settling(faces: int) -> tuple[float, ...]:
    """u(0), u(1), ... up to where it settles (``Renewal``): the same for every board
    with this die, so worked out once."""
    limit = 2.0 / (faces + 1)
    values = [1.0]
    near = 0
    while near < faces:
        value = math.fsum(values[-faces:]) / faces
        values.append(value)
        near = near + 1 if abs(value - limit) <= SETTLED * limit else 0
    return tuple(values)


SETTLED = 4 * float(np.finfo(float).eps)
"""How close to its limit the renewal sequence must stay to be taken as settled."""


@lru_cache(maxsize=32)
def _blocks(faces: int) -> tuple[np.ndarray, np.ndarray]:
    """The back-substitution's two constant matrices for a die (read-only, shared): the
    Toeplitz inverse of one block of ``tuning.BLOCK`` squares, u(q - c) for q >= c (a smaller
    block is its upper left corner), and the coupling between blocks: a block's last f
    rows reach the next block's first f squares (row i of those, square j: j <= i)."""
    renewal = Renewal.of(faces, tuning.BLOCK).values
    index = np.arange(tuning.BLOCK)
    offsets = index[None, :] - index[:, None]
    toeplitz = np.where(offsets >= 0, renewal[np.clip(offsets, 0, None)], 0.0)
    reach = np.tril(np.full((faces, faces), 1.0 / faces))
    toeplitz.flags.writeable = False
    reach.flags.writeable = False
    return toeplitz, reach


class PlainSolver:
    """(I - R)^-1 for a board of ``PlainStructure``: ``solve(rhs, transposed)``, with
    the interface of the chain's other solvers."""

    def __init__(self, dest: np.ndarray, structure: PlainStructure) -> None:
        self.dest = dest
        self.structure = structure
        n, faces = structure.squares, structure.faces
        self.n = n
        self.faces = faces
        self.renewal = Renewal.of(faces, n + 1).values
        self._padded = np.append(self.renewal, 0.0)
        toeplitz, self._reach = _blocks(faces)
        block = min(tuning.BLOCK, n)
        self._toeplitz = toeplitz[:block, :block]
        self._band: np.ndarray | None = None
        self._lu: tuple[np.ndarray, np.ndarray] | None = None
        if n >= tuning.LAPACK_SQUARES:
            # LAPACK's band storage of the upper triangle: row f - d holds diagonal d.
            band = np.zeros((faces + 1, n), order="F")
            for d in range(1, faces + 1):
                band[faces - d, d:] = -1.0 / faces
            band[faces] = 1.0
            self._band = band
        self._k = self._correction_matrix()

    # -- the plain walk ----------------------------------------------------------------

    def plain(self, values: np.ndarray) -> np.ndarray:
        """(I - R0)^-1 values: y(c) = values(c) + (y(c + 1) + ... + y(c + f)) / f."""
        if self._band is not None:
            return self._lapack(values, "N")
        n, faces = self.n, self.faces
        y = np.empty_like(values)
        toeplitz, reach = self._toeplitz, self._reach
        block = toeplitz.shape[0]
        end = n
        while end > 0:
            start = max(0, end - block)
            size = end - start
            part = values[start:end].copy()
            ahead = min(faces, n - end)
            if ahead:
                # rows end - f .. end - 1 reach squares end .. end + f - 1
                rows = min(faces, size)
                part[size - rows :] += reach[faces - rows :, :ahead] @ y[end : end + ahead]
            y[start:end] = toeplitz[:size, :size] @ part
            end = start
        return y

    def plain_transposed(self, values: np.ndarray) -> np.ndarray:
        """(I - R0)^-T values: y(q) = values(q) + (y(q - 1) + ... + y(q - f)) / f."""
        if self._band is not None:
            return self._lapack(values, "T")
        n, faces = self.n, self.faces
        y = np.empty_like(values)
        toeplitz, reach = self._toeplitz, self._reach
        block = toeplitz.shape[0]
        start = 0
        while start < n:
            end = min(n, start + block)
            size = end - start
            part = values[start:end].copy()
            behind = min(faces, start)
            if behind:
                # squares start - f .. start - 1 reach rows start .. start + f - 1
                rows = min(faces, size)
                part[:rows] += reach.T[:rows, faces - behind :] @ y[start - behind : start]
            y[start:end] = toeplitz[:size, :size].T @ part
            start = end
        return y

    def _lapack(self, values: np.ndarray, trans: str) -> np.ndarray:
        from scipy.linalg.lapack import dtbtrs

        matrix = values.reshape(self.n, -1)
        solution, info = dtbtrs(self._band, matrix, uplo="U", trans=trans, diag="U")
        if info != 0:  # pragma: no cover - a unit diagonal is never singular
            return np.full(values.shape, math.nan)
        result: np.ndarray = solution.reshape(values.shape)
        return result

    def _g_outer(self, above: np.ndarray, below: np.ndarray) -> np.ndarray:
        """``_g(above[:, None], below[None, :])`` without a gather per entry: u(m) is its
        limit for every m from ``_settled`` on, so the matrix is that limit where
        below >= above, with the few entries of a smaller gap (found by sorting)
        overwritten by u itself: the same values, in a third of the time at 1,000 jumps."""
        renewal, settled = self.renewal, self._settled
        result: np.ndarray = np.multiply(np.less_equal.outer(above, below), renewal[-1])
        order = np.argsort(below, kind="stable")
        ordered = below[order]
        low = np.searchsorted(ordered, above, "left")
        high = np.searchsorted(ordered, above + settled, "left")
        counts = high - low
        total = int(counts.sum())
        if total:
            rows = np.repeat(np.arange(len(above)), counts)
            first = np.cumsum(counts) - counts
            columns = order[np.arange(total) - np.repeat(first - low, counts)]
            result[rows, columns] = renewal[below[columns] - above[rows]]
        return result

    @cached_property
    def _settled(self) -> int:
        """The least m from which u(m) is its limit (``Renewal``)."""
        renewal = self.renewal
        moving = np.flatnonzero(renewal != renewal[-1])
        return int(moving[-1]) + 1 if len(moving) else 0

    def _g(self, above: np.ndarray, below: np.ndarray) -> np.ndarray:
        """(I - R0)^-1 entries (a, b), broadcast: u(b - a) for b >= a, else 0 (so 0
        where a is the goal, past every square of the system)."""
        gap = np.subtract(below, above, dtype=np.int64)
        gap[gap < 0] = self.n + 1  # the entry after the sequence holds 0
        values: np.ndarray = self._padded.take(gap)
        return values

    # -- the corrections ---------------------------------------------------------------

    def _correction_matrix(self) -> np.ndarray:
        """K = I - V^T (I - R0)^-1 U (see the module docstring)."""
        s = self.structure
        starts, ends, rows = s.starts, s.ends, s.rows
        k = len(starts)
        size = s.rank
        product = np.empty((size, size))  # every entry is written below
        if k:
            # jump row i: (e_end - e_start)^T (G - I) e_start_j
            block = product[:k, :k]
            block[...] = self._g_outer(ends, starts)
            block -= self._g_outer(starts, starts)
            block[np.arange(k), np.arange(k)] += 1.0  # start_i == start_j: i == j
            jump_at = np.full(self.n + 1, -1, dtype=np.int64)
            jump_at[starts] = np.arange(k)
            onto = jump_at[ends]  # a jump ending where another starts (chain off)
            hit = np.flatnonzero(onto >= 0)
            block[hit, onto[hit]] -= 1.0
        if len(rows):
            z_col = rows[None, :]
            if k:
                product[:k, k:] = self._g(ends[:, None], z_col) - self._g(starts[:, None], z_col)
            # Every row's targets at once (each row has some, all inside the system),
            # summed row by row.
            targets = np.concatenate(s.row_targets)[:, None]
            first = np.cumsum([0, *(len(t) for t in s.row_targets[:-1])])
            scale = 1.0 / self.faces
            if k:
                onto_starts = self._g(targets, starts[None, :]) - (targets == starts[None, :])
                product[k:, :k] = scale * np.add.reduceat(onto_starts, first, axis=0)
            product[k:, k:] = scale * np.add.reduceat(self._g(targets, z_col), first, axis=0)
        np.negative(product, out=product)  # K = I - product, in place
        product.flat[:: size + 1] += 1.0
        return product

    def _solve_k(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        """K^-1 rhs (or K^-T rhs). Below ``tuning.LAPACK_SQUARES`` one numpy solve per
        call: a board's analysis makes a handful (the expectation, the spread, the
        visits, a refinement now and then), and the jump effects keep to small K
        (``tuning.REPEATED_SOLVES_RANK``). From there on, where the back-substitution
        imports scipy's LAPACK anyway, K is factorised once (``lu_factor``) and every
        solve reuses it: K has thousands of rows there, and each numpy solve would
        factorise it again (``snl analyze`` on 1000 x 1000 with 2,000 jumps took a third
        longer)."""
        k = self._k
        if not len(k):
            return rhs
        if self._band is None:
            try:
                solution: np.ndarray = np.linalg.solve(k.T if transposed else k, rhs)
            except np.linalg.LinAlgError:  # singular in floating point: too large
                return np.full(rhs.shape, math.nan)
            return solution
        from scipy.linalg import lu_factor, lu_solve

        if self._lu is None:
            self._lu = lu_factor(k, check_finite=False)
        factored: np.ndarray = lu_solve(
            self._lu, rhs, trans=1 if transposed else 0, check_finite=False
        )
        return factored

    def _raw_solve(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        s = self.structure
        k = len(s.starts)
        if not transposed:
            y = self.plain(rhs)
            # V^T y: per jump y(end) - y(start); per row near the goal m_z . y
            ext = np.concatenate((y, np.zeros((1, *y.shape[1:]))))
            small = np.empty((s.rank, *y.shape[1:]))
            small[:k] = ext[s.ends] - ext[s.starts]
            for index, targets in enumerate(s.row_targets):
                small[k + index] = ext[targets].sum(axis=0) / self.faces
            w = self._solve_k(small, False)
            jumps = np.zeros((self.n, *y.shape[1:]))
            np.add.at(jumps, s.starts, w[:k])
            spread = jumps.copy()
            np.add.at(spread, s.rows, w[k:])
            # (I - R0)^-1 U w = (I - R0)^-1 (jumps + rows) - jumps
            result: np.ndarray = y + self.plain(spread) - jumps
            return result
        y = self.plain_transposed(rhs)
        # U^T y: per jump (R0 e_start)^T y = (y(start - f) + ... + y(start - 1)) / f
        small = np.empty((s.rank, *y.shape[1:]))
        prefix = np.concatenate((np.zeros((1, *y.shape[1:])), np.cumsum(y, axis=0)))
        low = np.maximum(s.starts - self.faces, 0)
        small[:k] = (prefix[s.starts] - prefix[low]) / self.faces
        small[k:] = y[s.rows]
        w = self._solve_k(small, True)
        # (I - R0)^-T V w: V w = sum_j w_j (e_end - e_start) + sum_z w_z m_z
        vw = np.zeros((self.n + 1, *y.shape[1:]))
        np.add.at(vw, s.ends, w[:k])
        np.subtract.at(vw, s.starts, w[:k])
        for index, targets in enumerate(s.row_targets):
            np.add.at(vw, targets, w[k + index] / self.faces)
        transposed_result: np.ndarray = y + self.plain_transposed(vw[: self.n])
        return transposed_result

    # -- checked solves ----------------------------------------------------------------

    def apply(self, x: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R) x (or its transpose), from the roll array itself."""
        n, faces = self.n, self.faces
        table = self.dest[:n]
        columns = x.reshape(n, -1)
        if not transposed:
            ext = np.concatenate((columns, np.zeros((1, columns.shape[1]))))
            total = ext[table[:, 0]]
            for face in range(1, faces):
                total += ext[table[:, face]]
            result: np.ndarray = columns - total / faces
            return result.reshape(x.shape)
        result = np.empty_like(columns)
        for index in range(columns.shape[1]):
            spread = np.zeros(n + 1)
            share = columns[:, index] / faces
            for face in range(faces):
                spread += np.bincount(table[:, face], share, minlength=n + 1)
            result[:, index] = columns[:, index] - spread[:n]
        return result.reshape(x.shape)

    def solve(self, rhs: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R)^-1 rhs (or its transpose), refined until its residual is as small as
        a backward-stable solve's; nan where it cannot be (a figure too large for
        floating point). The first solve of one column also solves the all-ones one
        beside it, for ``relative_error`` (one factorisation of K for both)."""
        if not transposed and rhs.ndim == 1 and "relative_error" not in self.__dict__:
            both = self._checked_solve(np.column_stack((rhs, np.ones(self.n))), False)
            self.__dict__["relative_error"] = self._error_of(both[:, 1])
            first: np.ndarray = np.ascontiguousarray(both[:, 0])
            return first
        return self._checked_solve(rhs, transposed)

    def _checked_solve(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        eps = float(np.finfo(float).eps)
        b = np.ascontiguousarray(rhs, dtype=float)
        # One BLAS thread: the block products and the k x k solve are small (``blas``).
        with warnings.catch_warnings(), np.errstate(all="ignore"), one_thread():
            warnings.simplefilter("ignore")
            x = self._raw_solve(b, transposed)
            for _ in range(REFINEMENTS + 1):
                if not np.isfinite(x).all():
                    return np.full(b.shape, math.nan)
                residual = b - self.apply(x, transposed)
                # Column by column: each right-hand side against its own size.
                n = self.n
                scale = np.max(np.abs(b.reshape(n, -1)), axis=0, initial=0.0) + 2.0 * np.max(
                    np.abs(x.reshape(n, -1)), axis=0, initial=0.0
                )
                if (
                    np.max(np.abs(residual.reshape(n, -1)), axis=0, initial=0.0)
                    <= 4.0 * eps * scale
                ).all():
                    return x
                x = x + self._raw_solve(residual, transposed)
        return np.full(b.shape, math.nan)

    @cached_property
    def relative_error(self) -> float:
        """8 eps cond(I - R), as the chain's other solvers give it (see ``_System``)."""
        return self._error_of(self._checked_solve(np.ones(self.n), False))

    @staticmethod
    def _error_of(rolls: np.ndarray) -> float:
        """``relative_error`` from the expected rolls (I - R)^-1 1."""
        largest = float(np.max(np.abs(rolls)))
        if not math.isfinite(largest):
            return math.inf
        return 8.0 * float(np.finfo(float).eps) * max(largest, 1.0)
