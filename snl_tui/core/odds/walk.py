"""The structure of a system I - R as the plain walk of a die plus rank-one corrections
(``PlainStructure``), read off the turn table (``plain_structure``), and whether solving
it that way pays (``pays``). ``band.PlainSolver`` solves such a system; ``band``'s
docstring explains the method."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import tuning


@dataclass(frozen=True)
class PlainStructure:
    """A system I - R as the plain walk plus corrections (see the module docstring)."""

    squares: int
    """N: the positions 0..N - 1 (every position but the goal)."""
    faces: int
    """The plain walk's die (one step of R0 moves 1..faces squares)."""
    width: int
    """Outcomes per row of the turn table (``faces``, or ``faces**3`` for whole turns)."""
    starts: np.ndarray
    """Squares a roll is redirected from (jump starts reached by a roll)."""
    ends: np.ndarray
    """Where each of them leads (N for the goal, which is not in the system)."""
    rows: np.ndarray
    """Rows with a correction of their own (ascending): R's row minus what the walk and
    the jumps give it there."""
    first: np.ndarray
    """Per such row: where its entries start in ``targets`` and ``weights``."""
    targets: np.ndarray
    """Per entry of the row corrections: its column (below N)."""
    weights: np.ndarray
    """Per entry: its value (never 0)."""
    owner: np.ndarray
    """Per entry: which row correction (0..len(rows) - 1) it is of."""
    kept: np.ndarray | None
    """The positions of the system, ascending (None: all of 0..N - 1). The others are
    left out: their rows are corrected to 0, so their unknowns are 0 and the kept ones
    solve the system over the kept positions alone."""

    @property
    def rank(self) -> int:
        return len(self.starts) + len(self.rows)


def pays(rank: int, squares: int, entries: int = 0) -> bool:
    """Is a system of ``squares`` positions with ``rank`` corrections (``entries``
    entries in its row corrections) solved as the plain walk plus corrections?

    While k is at most ``tuning.PLAIN_RANK`` (and the rows' entries keep the k x k
    matrix's set-up small), or k^3 stays below ``tuning.PLAIN_RANK_WORK`` times the
    squares: past that a sparse factorisation of I - R costs less than K's."""
    if entries * rank > tuning.PLAIN_ENTRY_WORK:
        return False
    return rank <= tuning.PLAIN_RANK or rank**3 <= tuning.PLAIN_RANK_WORK * squares


def plain_structure(
    dest: np.ndarray, width: int, faces: int | None = None, kept: np.ndarray | None = None
) -> PlainStructure | None:
    """The turn table (``dest[p, i]``, goal row last, ``width`` outcomes a row) as the
    plain walk of a ``faces``-sided die (default ``width``) plus corrections, over the
    positions ``kept`` (ascending; default every one but the goal); None when the
    corrections are too many to pay (``pays``) or the table is not of that width.

    Every system has this form: a row that is not the plain walk's (the overshoot rule
    near the goal, a whole turn under ``three_sixes``, a position left out) is a row
    correction, so only its rank decides."""
    walk = width if faces is None else faces
    if dest.ndim != 2 or dest.shape[1] != width or walk < 1:
        return None
    n = dest.shape[0] - 1
    if n < 1:
        return None
    table = dest[:n]  # entries 0..N, as the turn model makes them
    left_out: np.ndarray | None = None
    if kept is not None and len(kept) < n:
        left_out = np.ones(n, dtype=bool)
        left_out[kept] = False
    if width == walk:
        redirect, irregular = _jumps(table, walk, left_out)
    else:  # whole turns: no row is the walk's
        redirect = np.arange(n + 1)
        irregular = np.ones(n, dtype=bool)
    if left_out is not None:
        irregular |= left_out
    starts = np.flatnonzero(redirect[:n] != np.arange(n))
    candidates = np.flatnonzero(irregular)
    if not pays(len(starts) + len(candidates), n):
        return None
    rows, first, targets, weights, owner = _row_corrections(
        table, candidates, redirect, walk, left_out
    )
    if not pays(len(starts) + len(rows), n, len(targets)):
        return None
    return PlainStructure(
        n,
        walk,
        width,
        starts,
        redirect[starts],
        rows,
        first,
        targets,
        weights,
        owner,
        None if left_out is None else np.flatnonzero(~left_out),
    )


def _counted(squares: int, faces: int) -> tuple[np.ndarray, np.ndarray]:
    """(counted, inside): ``min(p + d, N)`` for p < N and d = 1..faces, where the plain
    walk counts (N past the last square), and whether that is below N (shared and
    read-only on boards of up to ``tuning.SHARED_COUNTS`` cells)."""
    if squares * faces <= tuning.SHARED_COUNTS:
        return _shared_counted(squares, faces)
    counted = np.arange(squares, dtype=np.int64)[:, None] + np.arange(1, faces + 1)
    np.minimum(counted, squares, out=counted)
    return counted, counted < squares


@lru_cache(maxsize=16)
def _shared_counted(squares: int, faces: int) -> tuple[np.ndarray, np.ndarray]:
    counted = np.arange(squares, dtype=np.int64)[:, None] + np.arange(1, faces + 1)
    np.minimum(counted, squares, out=counted)
    inside = counted < squares
    counted.flags.writeable = False
    inside.flags.writeable = False
    return counted, inside


def _jumps(
    table: np.ndarray, faces: int, left_out: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """(redirect, irregular): where landing on each square (0..N, N the goal) leads, as
    the rows read it, and which rows are not the walk's with those jumps.

    A jump is a property of its square: every roll counting onto it ends where it leads.
    Each square's jump is the one most of the rolls onto it (from rows not left out)
    agree on; a row whose rolls disagree, or which keeps a roll past the goal on the
    board (the overshoot rule), is irregular: it gets a row correction."""
    n = table.shape[0]
    counted, voting = _counted(n, faces)
    if left_out is not None:
        voting = voting & ~left_out[:, None]
    redirect = np.arange(n + 1)
    moved = voting & (table != counted)
    redirect[counted[moved]] = table[moved]
    mismatch = table != redirect[counted]
    if (mismatch & voting).any():
        _settle_disputes(table, counted, voting, redirect, mismatch & voting)
        mismatch = table != redirect[counted]
    return redirect, mismatch.any(axis=1)


def _settle_disputes(
    table: np.ndarray,
    counted: np.ndarray,
    voting: np.ndarray,
    redirect: np.ndarray,
    disputed: np.ndarray,
) -> None:
    """Set ``redirect`` of each square whose rolls disagree to the end most of them
    reach (the fewest row corrections)."""
    n, faces = table.shape
    squares = np.flatnonzero(np.bincount(counted[disputed], minlength=n + 1))
    # The rolls onto each such square: face d from square - d.
    face = np.arange(1, faces + 1)
    source = squares[:, None] - face
    valid = source >= 0
    source = np.where(valid, source, 0)
    votes = np.where(valid & voting[source, face - 1], table[source, face - 1], -1)
    same = (votes[:, :, None] == votes[:, None, :]) & (votes[:, :, None] >= 0)
    best = same.sum(axis=2).argmax(axis=1)
    redirect[squares] = votes[np.arange(len(squares)), best]


def _row_corrections(
    table: np.ndarray,
    candidates: np.ndarray,
    redirect: np.ndarray,
    faces: int,
    left_out: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rows, first, targets, weights, owner): per candidate row p, R's row minus the
    walk's with its jumps, ``m_p - r_p``, in exact integer units (1 / lcm(width, faces))
    so that what both rows share cancels to 0; the rows where nothing is left drop out
    (``PlainStructure`` says what each array is)."""
    n, width = table.shape
    count = len(candidates)
    if not count:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, np.zeros(0), empty
    unit = math.lcm(width, faces)
    plus = table[candidates]
    if left_out is not None:
        plus[left_out[candidates]] = n  # a row left out is 0: every outcome dropped
    minus = redirect[_counted(n, faces)[0][candidates]]
    span = n + 1
    base = np.arange(count, dtype=np.int64)[:, None] * span
    bins = count * span
    if bins <= 4 * (plus.size + minus.size) + 4096:  # by counting, in a (row, square) grid
        sums = np.bincount((base + plus).ravel(), minlength=bins) * (unit // width)
        sums -= np.bincount((base + minus).ravel(), minlength=bins) * (unit // faces)
        grid = sums.reshape(count, span)[:, :n]
        owner, targets = np.nonzero(grid)
        totals = grid[owner, targets].astype(float)
    else:  # by sorting
        keys = np.concatenate(((base + plus).ravel(), (base + minus).ravel()))
        values = np.concatenate(
            (
                np.full(plus.size, unit // width, dtype=np.int64),
                np.full(minus.size, -(unit // faces)),
            )
        )
        cells, totals = _grouped(keys, values, bins)
        owner, targets = np.divmod(cells, span)
        inside = targets < n
        owner, targets, totals = owner[inside], targets[inside], totals[inside]
    fresh = np.empty(len(owner), dtype=bool)  # the first entry of each row
    fresh[:1] = True
    np.not_equal(owner[1:], owner[:-1], out=fresh[1:])
    first = np.flatnonzero(fresh)
    return candidates[owner[first]], first, targets, totals / unit, np.cumsum(fresh) - 1


def _grouped(keys: np.ndarray, values: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """(cells, totals): the distinct ``keys`` (below ``bins``), ascending, with the sum of
    their ``values`` where it is not 0 (by counting when the bins are few, else sorting)."""
    if bins <= 4 * len(keys) + 4096:
        sums = np.bincount(keys, values, minlength=bins)
        cells = np.flatnonzero(sums)
        return cells, sums[cells]
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    totals = np.add.reduceat(values[order], starts).astype(float)
    present = totals != 0
    return ordered[starts][present], totals[present]


def outcomes(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, targets, weights): R's entries off a wide turn table, each distinct
    (row, target) once with its share of the row's outcomes (the goal dropped)."""
    n, width = table.shape
    span = n + 1
    keys = (np.arange(n, dtype=np.int64)[:, None] * span + table).ravel()
    cells, totals = _grouped(keys, np.ones(len(keys)), n * span)
    rows, targets = np.divmod(cells, span)
    inside = targets < n
    return rows[inside], targets[inside], totals[inside] / width
