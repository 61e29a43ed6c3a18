"""The chain's linear systems I - R solved as the plain walk plus corrections.

Without jumps and away from the goal, one roll from square c goes to c + d (d = 1..f,
each 1/f): the per-roll matrix of this *plain walk*, R0, is a band that looks the same
from every square, so (I - R0)^-1 is known in closed form: its entry (c, q) is u(q - c),
the renewal sequence (u(0) = 1, u(m) = (u(m - 1) + ... + u(m - f)) / f: the expected
visits of a square m ahead), which settles at 2 / (f + 1) within a few hundred terms.
Applying it to a vector is a back-substitution, done here a block at a time with the
block's Toeplitz inverse (numpy, no Python loop per square); a system smaller than one
block has that inverse as a matrix outright.

Every system the chain solves is that walk plus corrections, each of rank one:

* a **jump**: the rolls that reach its start go to its end instead (R0's column moves);
* a **row correction** for every row that is not the walk's with those jumps: R's row
  minus the walk's (``m_p - r_p``, what both share cancelling exactly). These are the
  rows the overshoot rule changes near the goal, every row of a ``three_sixes`` table
  (a whole turn is the die's walk plus some twenty entries), a row whose rolls disagree
  about a square (a rule no jump explains), and every position left out of the system
  (a board with traps solves over the positions that finish surely): its row becomes 0,
  so its unknown is 0 and the kept ones solve the system over the kept positions alone.

So R = R0 + U V^T with k columns, and the Woodbury identity turns I - R into one dense
k x k system K = I - V^T (I - R0)^-1 U, whose entries are read off the renewal sequence,
plus a few passes over the squares per solve: a 1000 x 1000 board with 2,000 jumps in a
fraction of a second, where a sparse factorisation of I - R fills in to millions of
entries; classic under ``three_sixes`` (a correction per row) with no scipy import.

``walk.plain_structure`` reads the structure off the turn table (the engine's own, so no rule
is re-derived here), and the rank decides (``pays``): while k (and the rows' entries)
stay small against the size, this path; else None, and the caller factorises I - R
with SuperLU. Every solve checks its residual against the turn table and refines it
until it is as small as a backward-stable solve's, so the error bound of the caller
(``8 eps cond``) holds for this solver too.

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
from .walk import PlainStructure, outcomes

REFINEMENTS = 3
"""Most steps of iterative refinement after a solve whose residual is too large."""
EPS = float(np.finfo(float).eps)


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
def _settling(faces: int) -> np.ndarray:
    """u(0), u(1), ... up to where it settles (``Renewal``): the same for every board
    with this die, so worked out once (read-only)."""
    limit = 2.0 / (faces + 1)
    values = [1.0]
    near = 0
    while near < faces:
        value = math.fsum(values[-faces:]) / faces
        values.append(value)
        near = near + 1 if abs(value - limit) <= SETTLED * limit else 0
    array = np.array(values)
    array.flags.writeable = False
    return array


SETTLED = 4 * float(np.finfo(float).eps)
"""How close to its limit the renewal sequence must stay to be taken as settled."""


@lru_cache(maxsize=32)
def _blocks(faces: int) -> tuple[np.ndarray, np.ndarray]:
    """The back-substitution's two constant matrices for a die (read-only, shared): the
    Toeplitz inverse of one block of ``tuning.BLOCK`` squares, u(q - c) for q >= c (a smaller
    block is its upper left corner), and the coupling between blocks: a block's last f
    rows reach the next block's first f squares (row i of those, square j: j <= i)."""
    block = tuning.BLOCK
    # Row c is u(0..) shifted right by c: windows of B zeros then u, read backwards.
    padded = np.zeros(2 * block - 1)
    padded[block - 1 :] = Renewal.of(faces, block).values
    windows = np.lib.stride_tricks.sliding_window_view(padded, block)
    toeplitz = np.ascontiguousarray(windows[block - 1 :: -1])
    face = np.arange(faces)
    reach = np.where(face[:, None] >= face, 1.0 / faces, 0.0)
    toeplitz.flags.writeable = False
    reach.flags.writeable = False
    return toeplitz, reach


class PlainSolver:
    """(I - R)^-1 for a system of ``PlainStructure``: ``solve(rhs, transposed)`` over its
    kept positions, with the interface of the chain's other solver."""

    def __init__(self, dest: np.ndarray, structure: PlainStructure) -> None:
        self.dest = dest
        self.structure = structure
        n, faces = structure.squares, structure.faces
        self.n = n
        self.faces = faces
        self.width = structure.width
        toeplitz, self._reach = _blocks(faces)
        block = min(tuning.BLOCK, n)
        self._toeplitz = toeplitz[:block, :block]
        self._left_out: np.ndarray | None = None
        self._ones = np.ones(n)
        if structure.kept is not None:
            self._left_out = np.ones(n, dtype=bool)
            self._left_out[structure.kept] = False
            self._ones[self._left_out] = 0.0
        self._wide: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if self.width > tuning.FACE_BY_FACE:
            self._wide = outcomes(dest[:n])
        self._band: np.ndarray | None = None
        self._lu: tuple[np.ndarray, np.ndarray] | None = None
        if n >= tuning.LAPACK_SQUARES:
            # LAPACK's band storage of the upper triangle: row f - d holds diagonal d.
            band = np.zeros((faces + 1, n), order="F")
            for d in range(1, faces + 1):
                band[faces - d, d:] = -1.0 / faces
            band[faces] = 1.0
            self._band = band
        # A system smaller than a block has (I - R0)^-1 as a matrix already (the block's
        # upper left corner, with a row of zeros for the goal): U and V are then small
        # dense matrices, and K and every solve are a few products.
        self._explicit: tuple[np.ndarray, np.ndarray] | None = None
        if n < tuning.BLOCK:
            self._explicit = self._dense_corrections(toeplitz[: n + 1, :n])
            self._k = np.eye(structure.rank) - self._explicit[1] @ self._explicit[0]
        else:
            self._k = self._correction_matrix()

    # -- the plain walk ----------------------------------------------------------------

    def plain(self, values: np.ndarray) -> np.ndarray:
        """(I - R0)^-1 values: y(c) = values(c) + (y(c + 1) + ... + y(c + f)) / f."""
        if self._band is not None:
            return self._lapack(values, "N")
        n, faces = self.n, self.faces
        toeplitz, reach = self._toeplitz, self._reach
        block = toeplitz.shape[0]
        if n <= block:  # one block: a product
            single: np.ndarray = toeplitz @ values
            return single
        y = np.empty_like(values)
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
        toeplitz, reach = self._toeplitz, self._reach
        block = toeplitz.shape[0]
        if n <= block:
            single: np.ndarray = toeplitz.T @ values
            return single
        y = np.empty_like(values)
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
        """``_g(above[:, None], below[None, :])``. For many jumps without a gather per
        entry: u(m) is its limit for every m from ``_settled`` on, so the matrix is that
        limit where below >= above, with the few entries of a smaller gap (found by
        sorting) overwritten by u itself: the same values, in a third of the time at
        1,000 jumps. For a few, the gathers (fewer numpy calls)."""
        if len(above) * len(below) <= tuning.OUTER_GATHER:
            return self._g(above[:, None], below[None, :])
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
    def _padded(self) -> np.ndarray:
        """u(0..N), then a 0 (the entry ``_g`` reads for a negative gap)."""
        padded = np.empty(self.n + 2)
        padded[: self.n + 1] = Renewal.of(self.faces, self.n + 1).values
        padded[self.n + 1] = 0.0
        return padded

    @property
    def renewal(self) -> np.ndarray:
        """u(0..N): the plain walk's expected visits of the square m ahead."""
        return self._padded[: self.n + 1]

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
            if k:
                product[:k, k:] = self._g_outer(ends, rows) - self._g_outer(starts, rows)
                product[k:, :k] = self._row_sums(starts, True)
            product[k:, k:] = self._row_sums(rows, False)
        np.negative(product, out=product)  # K = I - product, in place
        product.flat[:: size + 1] += 1.0
        return product

    def _row_sums(self, columns: np.ndarray, past_start: bool) -> np.ndarray:
        """Per row correction i and column j: v_i^T G e_j (``past_start``: v_i^T (G - I)
        e_j), summed over the row's entries, a bounded number of cells at a time."""
        s = self.structure
        bounds = np.append(s.first, len(s.targets))
        result = np.empty((len(s.rows), len(columns)))
        share = max(1, tuning.ROW_CELLS // max(1, len(columns)))
        row = 0
        while row < len(s.rows):
            stop = max(row + 1, int(np.searchsorted(bounds, bounds[row] + share, "right")) - 1)
            low, high = bounds[row], bounds[stop]
            targets = s.targets[low:high, None]
            values = self._g(targets, columns[None, :])
            if past_start:
                values -= targets == columns[None, :]
            values *= s.weights[low:high, None]
            result[row:stop] = np.add.reduceat(values, bounds[row:stop] - low, axis=0)
            row = stop
        return result

    def _solve_k(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        """K^-1 rhs (or K^-T rhs). Below ``tuning.LAPACK_SQUARES`` one numpy solve per
        call: a board's analysis makes a handful (the expectation, the spread, the
        visits, a refinement now and then), and the jump effects keep to small K
        (``tuning.REPEATED_SOLVES_RANK``). From there on, where the back-substitution
        imports scipy's LAPACK anyway, K is factorised once (``lu_factor``) and every
        solve reuses it: K has thousands of rows there, and each numpy solve would
        factorise it again."""
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

    def _dense_corrections(self, inverse: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(W, V^T): W = (I - R0)^-1 U (n x k) and V^T (k x n) as matrices, from the
        walk's inverse ``inverse`` (rows 0..N, the goal's 0)."""
        s = self.structure
        n, k = self.n, len(s.starts)
        columns = np.concatenate((s.starts, s.rows))
        w = inverse[:n, columns]  # (I - R0)^-1 e_row; a jump's U is R0 e_start
        w[s.starts, np.arange(k)] -= 1.0  # (I - R0)^-1 R0 e_start = (G - I) e_start
        vt = np.zeros((s.rank, n + 1))
        vt[np.arange(k), s.ends] = 1.0  # the goal's column is dropped below
        vt[np.arange(k), s.starts] = -1.0  # a jump never ends where it starts
        vt[k + s.owner, s.targets] = s.weights  # each (row, target) once
        return w, vt[:, :n]

    def _raw_solve(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        if self._explicit is not None:
            w_matrix, vt = self._explicit
            if not transposed:
                y = self.plain(rhs)
                result: np.ndarray = y + w_matrix @ self._solve_k(vt @ y, False)
                return result
            small = self._solve_k(w_matrix.T @ rhs, True)
            return self.plain_transposed(rhs + vt.T @ small)
        s = self.structure
        k = len(s.starts)
        tail = rhs.shape[1:]
        weights = s.weights.reshape(-1, *(1,) * len(tail))
        if not transposed:
            y = self.plain(rhs)
            # V^T y: per jump y(end) - y(start); per row correction v . y
            ext = np.concatenate((y, np.zeros((1, *tail))))
            small = np.empty((s.rank, *tail))
            small[:k] = ext[s.ends] - ext[s.starts]
            if len(s.rows):
                small[k:] = np.add.reduceat(ext[s.targets] * weights, s.first, axis=0)
            w = self._solve_k(small, False)
            jumps = np.zeros((self.n, *tail))
            jumps[s.starts] = w[:k]  # distinct squares
            spread = jumps.copy()
            spread[s.rows] += w[k:]  # distinct rows
            # (I - R0)^-1 U w = (I - R0)^-1 (jumps + rows) - jumps
            result = y + self.plain(spread) - jumps
            return result
        y = self.plain_transposed(rhs)
        # U^T y: per jump (R0 e_start)^T y = (y(start - f) + ... + y(start - 1)) / f;
        # per row correction y(row)
        small = np.empty((s.rank, *tail))
        if k:
            prefix = np.concatenate((np.zeros((1, *tail)), np.cumsum(y, axis=0)))
            low = np.maximum(s.starts - self.faces, 0)
            small[:k] = (prefix[s.starts] - prefix[low]) / self.faces
        small[k:] = y[s.rows]
        w = self._solve_k(small, True)
        # (I - R0)^-T V w: V w = sum_j w_j (e_end - e_start) + sum_z w_z v_z
        vw = np.zeros((self.n + 1, *tail))
        np.add.at(vw, s.ends, w[:k])
        vw[s.starts] -= w[:k]  # distinct squares
        if len(s.rows):
            np.add.at(vw, s.targets, w[k:][s.owner] * weights)
        transposed_result: np.ndarray = y + self.plain_transposed(vw[: self.n])
        return transposed_result

    # -- checked solves ----------------------------------------------------------------

    def apply(self, x: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R) x (or its transpose) over every position but the goal, from the turn
        table itself (the rows left out are 0 in R)."""
        n, width = self.n, self.width
        table = self.dest[:n]
        columns = x.reshape(n, -1)
        left = self._left_out
        wide = self._wide
        if not transposed:
            if wide is not None:
                rows, targets, weights = wide
                total = np.empty_like(columns)
                for index in range(columns.shape[1]):
                    product = weights * columns[targets, index]
                    total[:, index] = np.bincount(rows, product, minlength=n)
                result: np.ndarray = columns - total
            else:
                ext = np.concatenate((columns, np.zeros((1, columns.shape[1]))))
                if table.size * columns.shape[1] <= tuning.GATHER_CELLS:
                    summed = ext[table].sum(axis=1)
                else:
                    summed = ext[table[:, 0]]
                    for face in range(1, width):
                        summed += ext[table[:, face]]
                result = columns - summed / width
            if left is not None:
                result[left] = columns[left]
            return result.reshape(x.shape)
        result = np.empty_like(columns)
        for index in range(columns.shape[1]):
            share = columns[:, index].copy()
            if left is not None:
                share[left] = 0.0
            spread: np.ndarray
            if wide is not None:
                rows, targets, weights = wide
                spread = np.bincount(targets, weights * share[rows], minlength=n + 1)
            elif table.size <= tuning.GATHER_CELLS:
                spread = np.bincount(table.ravel(), np.repeat(share / width, width), n + 1)
            else:
                share /= width
                spread = np.zeros(n + 1)
                for face in range(width):
                    spread += np.bincount(table[:, face], share, minlength=n + 1)
            result[:, index] = columns[:, index] - spread[:n]
        return result.reshape(x.shape)

    def solve(self, rhs: np.ndarray, transposed: bool = False) -> np.ndarray:
        """(I - R)^-1 rhs (or its transpose) over the kept positions, refined until its
        residual is as small as a backward-stable solve's; nan where it cannot be (a
        figure too large for floating point). The first solve of one column also solves
        the all-ones one beside it, for ``relative_error`` (one factorisation of K for
        both)."""
        kept = self.structure.kept
        if kept is not None:
            full = np.zeros((self.n, *rhs.shape[1:]))
            full[kept] = rhs
            solved: np.ndarray = self._solve_all(full, transposed)[kept]
            return solved
        return self._solve_all(rhs, transposed)

    def _solve_all(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        if not transposed and rhs.ndim == 1 and "relative_error" not in self.__dict__:
            both = self._checked_solve(np.column_stack((rhs, self._ones)), False)
            self.__dict__["relative_error"] = self._error_of(both[:, 1])
            first: np.ndarray = np.ascontiguousarray(both[:, 0])
            return first
        return self._checked_solve(rhs, transposed)

    def _checked_solve(self, rhs: np.ndarray, transposed: bool) -> np.ndarray:
        eps = EPS
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
                scale = np.abs(b.reshape(n, -1)).max(axis=0)
                scale += 2.0 * np.abs(x.reshape(n, -1)).max(axis=0)
                if (np.abs(residual.reshape(n, -1)).max(axis=0) <= 4.0 * eps * scale).all():
                    return x
                x = x + self._raw_solve(residual, transposed)
        return np.full(b.shape, math.nan)

    @cached_property
    def relative_error(self) -> float:
        """8 eps cond(I - R), as the chain's other solver gives it (see ``system.System``)."""
        return self._error_of(self._checked_solve(self._ones, False))

    @staticmethod
    def _error_of(rolls: np.ndarray) -> float:
        """``relative_error`` from the expected rolls (I - R)^-1 1 (0 where left out)."""
        largest = float(np.max(np.abs(rolls)))
        if not math.isfinite(largest):
            return math.inf
        return 8.0 * EPS * max(largest, 1.0)
