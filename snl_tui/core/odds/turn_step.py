"""One turn of the chain applied to a vector of values (``TurnOperator``): a dense
matrix on small boards, sliding sums over the squares (``Window``) or gathers along the
turn table (``Gather``) on large ones, with pointer doubling for the rolls that continue a
turn."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import tuning


class TurnOperator:
    """Applies one turn to a vector of values on positions: ``out = T @ values``.

    T = (I - A)^-1 B, where A holds the rolls that continue the turn (``continues``,
    from ``TurnTable.continues_turn``) and B every roll that ends it (when none
    continues, A = 0 and T is the per-roll matrix).

    Small boards use T as a dense matrix. Larger ones never form it: B is a sparse
    matrix (``faces`` entries a row), and since A has at most one entry per row (the
    engine's die has one face that rolls again), (I - A)^-1 y = sum_k (1/f)^k y(succ^k) is
    summed by pointer doubling, a handful of gathers per turn, exact far below double
    precision.
    """

    def __init__(
        self,
        dest: np.ndarray,
        goal: int,
        faces: int,
        continues: np.ndarray,
        dense: bool | None = None,
        window: Window | None = None,
    ) -> None:
        size = dest.shape[0]
        self.size = size
        self.scale = 1.0 / faces
        self.window = window
        self.dense: np.ndarray | None = None
        self.gather: Gather | None = None
        self.levels: list[tuple[np.ndarray, float]] = []
        if window is not None:  # every position, in square order: sliding sums
            return
        sink = size  # an extra entry that always holds 0: "this roll does not end here"
        ending = dest.copy()
        succ = np.full(size + 1, sink, dtype=np.intp)
        again = bool(continues.any())
        if again:
            going_on = continues.any(axis=1)
            if (continues.sum(axis=1) > 1).any():  # pragma: no cover - one face rolls again
                raise AssertionError("more than one outcome of a roll continues the turn")
            ending[continues] = sink
            succ[:size][going_on] = dest[continues]
        if dense if dense is not None else size <= tuning.DENSE_TURN_LIMIT:
            rows = np.repeat(np.arange(size), faces)
            b = np.zeros((size, size + 1))
            np.add.at(b, (rows, ending.ravel()), self.scale)
            if again:
                a = np.zeros((size, size + 1))
                np.add.at(a, (np.arange(size), succ[:size]), self.scale)
                b = np.linalg.solve(np.eye(size) - a[:, :size], b[:, :size])
            self.dense = np.ascontiguousarray(b[:, :size])
            return
        self.gather = Gather(ending, self.scale, goal)
        if again:
            weight = self.scale
            while True:  # until the next block of terms weighs below 1e-18
                self.levels.append((succ, weight))
                if weight * weight < 1e-18:
                    break
                succ = succ[succ]
                weight *= weight

    def _product(self, values: np.ndarray) -> np.ndarray:
        """B @ values."""
        assert self.gather is not None
        out = np.empty(self.size)
        self.gather(values, out)
        return out

    @property
    def step(self) -> Callable[[np.ndarray, np.ndarray], object]:
        """``step(values, out)``: one turn, ``out = T @ values``."""
        if self.dense is not None:
            return self.dense.dot
        if self.window is not None:
            return self.window
        if self.levels or self.gather is None:
            return self.apply
        return self.gather

    def apply(self, values: np.ndarray, out: np.ndarray) -> None:
        if self.dense is not None:
            np.dot(self.dense, values, out=out)
            return
        if not self.levels:
            out[:] = self._product(values)
            return
        partial = np.append(self._product(values), 0.0)  # plus the sink, always 0
        for succ, weight in self.levels:
            partial += weight * partial[succ]
        out[:] = partial[: self.size]


class Window:
    """``window(values, out)``: one turn, out = R @ values, over every position in square
    order (the goal last), for a roll table that is the plain walk with jumps: every roll
    reaching square q on the board ends where every other roll reaching q ends (q itself,
    or the end of q's jump), and a roll past the goal either ends where the others reaching
    that square do (``bounce``, ``finish``) or stays put (``stay``). Then
    (R v)(p) = (w(p + 1) + ... + w(p + f)) / f + stay(p) v(p), with w(q) the value where a
    roll reaching q ends: a copy of v with the jump squares redirected, summed by sliding
    windows (sums of 2, 4, ... squares: about log2(f) additions of the whole vector),
    against ``f`` gathers of it. The shape is read off the roll table (``of``), so no
    rule is restated here; where the table has another shape, None."""

    def __init__(
        self,
        size: int,
        faces: int,
        redirected: np.ndarray,
        redirect_to: np.ndarray,
        beyond: np.ndarray,
        staying: np.ndarray,
        stay: np.ndarray,
    ) -> None:
        self.goal = size - 1  # positions 0..goal
        self.scale = 1.0 / faces
        # w holds each value already divided by f (w[q - 1] for square q), so the slots a
        # redirected square or one past the goal reads are w slots too: position p >= 1
        # is slot p - 1 (a roll never ends on the off-board position 0).
        self.redirected = redirected - 1  # w slots of squares whose rolls end elsewhere
        self.redirect_from = redirect_to - 1
        rows = np.flatnonzero(stay)  # stay: per position, the share of its rolls that stay put
        # The rows with rolls that stay put: the last few before the goal, as one slice.
        self.stay_rows = slice(int(rows[0]), int(rows[-1]) + 1) if len(rows) else slice(0, 0)
        self.stay_weights = stay[self.stay_rows]
        # Past the goal: where each square's rolls end (a w slot), or 0 where they stay
        # put; the squares that read a slot are one run (the rest stay zero) or not.
        moving = np.flatnonzero(~staying)
        self.beyond_from = beyond[moving] - 1
        run = len(moving) and moving[-1] - moving[0] + 1 == len(moving)
        start = self.goal + (int(moving[0]) if len(moving) else 0)
        self.beyond_run = slice(start, start + len(moving)) if run else None
        self.beyond_to = self.goal + moving
        # w(q) for q = 1 .. goal + f - 1 (as far as a roll from goal - 1 reaches), and
        # the window sums of 2, 4, 8, ... squares of it.
        length = self.goal + faces - 1
        self.w = np.zeros(length)
        self.sums = [self.w]
        width = 1
        while 2 * width <= faces:
            self.sums.append(np.empty(length - 2 * width + 1))
            width *= 2
        # The window of f squares: the doubled sums for f's binary digits, in a row.
        self.parts: list[tuple[int, int]] = []  # (level, offset)
        offset, level = 0, len(self.sums) - 1
        remaining = faces
        while remaining:
            width = 1 << level
            if remaining >= width:
                self.parts.append((level, offset))
                offset += width
                remaining -= width
            level -= 1
        self.stay_spare = np.empty(len(self.stay_weights))

    @classmethod
    def of(cls, dest: np.ndarray, faces: int) -> Window | None:
        """The window of the roll table ``dest`` (``dest[p, d - 1]``, the goal row last
        and looping onto itself), or None when the table is not of that shape."""
        size = dest.shape[0]
        goal = size - 1
        if dest.ndim != 2 or dest.shape[1] != faces or goal < 1:
            return None
        if (dest[goal] != goal).any() or (dest < 0).any() or (dest > goal).any():
            return None
        rows = np.arange(goal)[:, None]
        reach = rows + np.arange(1, faces + 1)  # the square each roll reaches
        target = dest[:goal]
        length = goal + faces  # squares 0 .. goal + f - 1
        landing = np.full(length, -1, dtype=np.int64)
        landing[reach.ravel()] = target.ravel()  # any one roll's end per square
        odd = landing[reach] != target
        # A square whose rolls disagree: past the goal, where each stays put, only.
        mixed = np.zeros(length, dtype=bool)
        mixed[reach[odd]] = True
        at_mixed = mixed[reach]
        if (at_mixed & ((reach <= goal) | (target != rows))).any():
            return None
        squares = np.arange(size)
        inside = landing[:size]
        redirected = np.flatnonzero(inside[1:] != squares[1:]) + 1  # square 0: no roll
        beyond = landing[size:].copy()
        staying = mixed[size:]
        beyond[staying] = goal
        stay = np.zeros(size)
        stay[:goal] = at_mixed.sum(axis=1) / faces
        if (beyond < 0).any():  # pragma: no cover - every square past the goal is reached
            return None
        # w's slots start at square 1: a square whose rolls end off the board (none do
        # under the engine's rules; position 0 only ever stays put) would need another.
        if (inside[redirected] < 1).any() or (beyond[~staying] < 1).any():
            return None  # pragma: no cover
        return cls(
            size,
            faces,
            redirected.astype(np.intp),
            inside[redirected].astype(np.intp),
            beyond.astype(np.intp),
            staying,
            stay,
        )

    def __call__(self, values: np.ndarray, out: np.ndarray) -> None:
        w, goal = self.w, self.goal
        # w[q - 1] holds the value where a roll reaching square q ends, divided by f.
        np.multiply(values[1:], self.scale, out=w[:goal])
        # (Both reads below take the slots before any of them is overwritten: a jump or
        # a bounce may end on another jump's start, which stops there.)
        if self.beyond_run is not None:
            w.take(self.beyond_from, out=w[self.beyond_run])
        elif len(self.beyond_from):
            w[self.beyond_to] = w.take(self.beyond_from)
        if len(self.redirected):
            w[self.redirected] = w.take(self.redirect_from)
        sums = self.sums
        for level in range(1, len(sums)):
            half, below, above = 1 << (level - 1), sums[level - 1], sums[level]
            np.add(below[: len(above)], below[half : half + len(above)], out=above)
        parts = self.parts
        level, offset = parts[0]
        rows = out[:goal]  # the goal's own row is set below
        if len(parts) == 1:
            rows[...] = sums[level][offset : offset + goal]
        else:
            second, start = parts[1]
            np.add(
                sums[level][offset : offset + goal], sums[second][start : start + goal], out=rows
            )
            for level, offset in parts[2:]:
                rows += sums[level][offset : offset + goal]
        if len(self.stay_weights):
            spare = self.stay_spare
            np.multiply(values[self.stay_rows], self.stay_weights, out=spare)
            out[self.stay_rows] += spare
        out[goal] = values[goal]


class Gather:
    """``gather(values, out)``: out = B @ values for B given by its roll table (``ending``:
    per position and face where the roll ends the turn, or the sink ``size``), by numpy
    gathers along the table, one face at a time (rows contiguous).

    The sink reads position ``zero`` instead (the goal), whose value is 0 in every
    vector the chain steps: the unresolved and the doomed mass, and the tail bounds'
    vectors built from them. So no padded copy of ``values`` is made per turn."""

    def __init__(self, ending: np.ndarray, scale: float, zero: int) -> None:
        size = ending.shape[0]
        sinkless = np.where(ending >= size, zero, ending)
        self.columns = np.ascontiguousarray(sinkless.T, dtype=np.intp)
        self.scale = scale
        self.gathered = np.empty(self.columns.shape)

    def __call__(self, values: np.ndarray, out: np.ndarray) -> None:
        np.take(values, self.columns, out=self.gathered, mode="clip")  # no bounds buffer
        np.add.reduce(self.gathered, axis=0, out=out)
        out *= self.scale
