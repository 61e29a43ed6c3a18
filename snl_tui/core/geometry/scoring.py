"""What a curve costs the routing (``routing``): the scene one jump's curves may run
across (the numbers' boxes in every corner, the ends of the jumps laid and to be laid,
the laid jumps' centre lines it should not run along), scored for many curves at once
with numpy, through a table of obstacles by cell (``obstacles_table``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any, Protocol

from ..board import Board, Jump, JumpKind
from .closeness import END_CLEAR, NEAR
from .obstacles_table import ObstacleTable
from .shapes import (
    BOWS,
    CORNERS,
    EDGE,
    END_RADIUS,
    LADDER_HALF_WIDTH,
    SAMPLES_PER_SQUARE,
    SHAPES,
    SNAKE_AMPLITUDE,
    SNAKE_WAVELENGTH,
    STROKE_HALF_WIDTH,
    THIRDS,
    WAVES,
    WIDEST,
    Point,
    bend,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]

# What a choice costs (see the module's docstring); hiding something outweighs the rest.
HIDES = 100.0
CROWDS = 4.0
"""Running across the usual place of the end of a jump not yet laid."""
MOVES_NUMBER = 0.15
SLIDES = 1.0
"""An end moved from its usual place, per square."""
LADDER_BEND = 1.5
"""How much more a ladder's bend counts than a snake's."""
KINKED = 10 * HIDES
"""A curve bent tighter than ``TIGHTEST``: never, while anything else will do."""
TIGHTEST = {"ladder": 0.5, "snake": 0.3}
"""The tightest bend of a jump's curve (a circle's radius, in squares)."""
BATCHES = ((0, 1), (1, 24), (24, 96), (96, len(SHAPES)))
"""The curves scored together (``SHAPES`` indices), least bent first."""
RANKED = 4
"""How many of the best curves for the usual ends are tried with the other places."""
REPAIRS = 2
"""How many times the jumps still hiding something are laid again, the others in place."""
RETRIES = 1
"""How many times the routing starts again with the jumps still hiding something first."""
EFFORT = 2_000_000
EFFORT_PER_JUMP = 150_000
"""The sample points the routing scores for a board (``EFFORT``, and this many more a
jump) before it stops looking harder for what hides nothing (every curve for every
place, laying again, starting again): a crowded board gets what the quick search finds,
in bounded time."""
SAMPLE_STEP = 0.1
"""How far apart the routing's sample points are (in squares); the drawn lines' reach
is widened by ``SAMPLE_SLACK`` so that nothing slips between two of them."""
SAMPLE_SLACK = 0.02
CLOSE = 10.0
"""Running close to a laid jump (``closeness``), per square past ``CLOSE_FREE``."""
ANTICIPATE = 0.5 * CLOSE
"""Running close to the straight way of a jump not laid yet, per square past
``CLOSE_FREE`` (it will bend, or not: leave it room)."""
CLOSE_FREE = 0.8
"""How far a curve may run close to laid jumps for free (crossing one steeply does)."""
CLOSE_MOST = 0.4 * HIDES
"""Running close never costs as much as hiding something."""
CLOSE_CELLS = 8
"""The grid of where laid jumps run (``near_cells``): this many cells a square each way."""


class RouterState(Protocol):
    """What a ``Scene`` reads of the routing so far (``routing.Router``)."""

    work: int
    """How many sample points have been scored so far (the scene adds its own)."""

    @property
    def np(self) -> Any: ...
    @property
    def board(self) -> Board: ...
    @property
    def ends(self) -> Mapping[tuple[int, int], Point]: ...
    @property
    def usual(self) -> Mapping[tuple[int, int], Point]: ...
    @property
    def laid(self) -> Mapping[int, object]: ...
    @property
    def lanes(self) -> Mapping[int, int]: ...
    @property
    def corner_boxes(self) -> Any: ...
    @property
    def taken(self) -> Any: ...
    @property
    def near(self) -> Any: ...
    @property
    def future(self) -> Any: ...
    def disc_covers(self, square: int, point: Point) -> Any: ...


class Scene:
    """What one jump's curves may run across: the numbers' boxes in every corner, the
    ends of the jumps laid so far, the usual places of the ends of those not yet laid,
    in a table by square (each sample point is tested against its own square's list)."""

    def __init__(self, router: RouterState, jump: Jump, pairs: list[tuple[Point, Point]]) -> None:
        np = router.np
        board = router.board
        self.np = np
        self.router = router
        self.jump = jump
        # The most any sample point of ``sample_lines`` reaches.
        self.reach = SAMPLE_SLACK + (
            LADDER_HALF_WIDTH if jump.kind == "ladder" else STROKE_HALF_WIDTH["snake"]
        )
        widest = WIDEST + 1
        xs = [x for pair in pairs for x, _ in pair]
        ys = [y for pair in pairs for _, y in pair]
        row0 = max(0, math.floor(min(ys) - widest))
        row1 = min(board.rows - 1, math.floor(max(ys) + widest))
        col0 = max(0, math.floor(min(xs) - widest))
        col1 = min(board.cols - 1, math.floor(max(xs) + widest))
        self.region = (row0, row1, col0, col1)
        self.squares = [
            board.square_at(row, col)
            for row in range(row0, row1 + 1)
            for col in range(col0, col1 + 1)
        ]
        own = (jump.start, jump.end)

        def inside(x: float, y: float) -> bool:
            return row0 <= y < row1 + 1 and col0 <= x < col1 + 1

        hidden = [
            [x, y, x, y, END_RADIUS]
            for (other, square), (x, y) in router.ends.items()
            if other != jump.start and square not in own and inside(x, y)
        ]
        crowd = [
            [x, y, x, y, END_RADIUS]
            for (other, square), (x, y) in router.usual.items()
            if other not in router.laid and other != jump.start and square not in own
            and inside(x, y)
        ]  # fmt: skip
        boxes = router.corner_boxes[self.squares].reshape(-1, 4)
        numbers = np.concatenate([boxes, np.zeros((len(boxes), 1))], axis=1)
        self.numbers, self.hidden = len(numbers), len(hidden)
        obstacles = np.concatenate([numbers, np.array(hidden + crowd).reshape(-1, 5)])
        self.table = ObstacleTable(np, obstacles, self.region, self.reach)
        self.free = least_taken(router.taken[self.squares])
        self.head = self.squares.index(jump.start) if jump.kind == "snake" else -1

    def costs(
        self,
        pairs: list[tuple[Point, Point]],
        shapes: Any,
        bound: float = math.inf,
        ends_costs: Any = None,
    ) -> Floats:
        """What each of ``shapes`` (rows of ``SHAPES``) costs between each pair of ends:
        (pairs, shapes). A curve whose least cost (how bent it is, too tight, off the
        board), with its pair's ``ends_costs`` added, is ``bound`` or more is not
        looked at further: it gets that least cost (the caller wants none of them)."""
        np = self.np
        router, jump = self.router, self.jump
        count = len(pairs) * len(shapes)
        tight = _too_tight(jump.kind, pairs, shapes)
        bends = np.tile(_bends(shapes), len(pairs)) * (
            LADDER_BEND if jump.kind == "ladder" else 1.0
        )
        # The least each curve can cost, added up in the order of the whole cost below
        # (the rest are all 0 or more): never more than the whole. First without
        # running off the board (its sample points are not worked out yet), then with.
        least = KINKED * tight + bends
        extra = np.repeat(np.zeros(len(pairs)) if ends_costs is None else ends_costs, len(shapes))
        live = np.arange(count) if bound == math.inf else np.flatnonzero(least + extra < bound)
        xs, ys, reach, centre_xs, centre_ys = sample_lines(
            jump, router.lanes[jump.start], pairs, shapes, live
        )
        router.work += count * reach.size
        board = router.board
        off: Any = (
            (xs < EDGE) | (xs > board.cols - EDGE) | (ys < EDGE) | (ys > board.rows - EDGE)
        ).any(axis=1)
        cost: Floats = least.copy()
        cost[live] = HIDES * off + KINKED * tight[live] + bends[live]
        keep = np.arange(len(live))
        if bound < math.inf:
            keep = np.flatnonzero(cost[live] + extra[live] < bound)
        if len(keep):
            live = live[keep]
            cost[live] = self._full_costs(
                pairs, len(shapes), live, xs[keep], ys[keep], reach,
                centre_xs[keep], centre_ys[keep], off[keep], tight[live], bends[live],
            )  # fmt: skip
        result: Floats = cost.reshape(len(pairs), len(shapes))
        return result

    def _full_costs(
        self,
        pairs: list[tuple[Point, Point]],
        shapes: int,
        live: Any,
        xs: Floats,
        ys: Floats,
        reach: Floats,
        centre_xs: Floats,
        centre_ys: Floats,
        off: Any,
        tight: Any,
        bends: Floats,
    ) -> Floats:
        """What the curves ``live`` (indices of rows: pair by pair, ``shapes`` a pair)
        cost, given their sample points and their least cost's parts."""
        np = self.np
        router, jump = self.router, self.jump
        hits = self.table.hits(xs, ys, reach)
        rows, count = len(xs), len(self.squares)
        at_corner = hits[:, : self.numbers].reshape(rows, count, len(CORNERS))
        free = np.broadcast_to(self.free, at_corner.shape).copy()
        if self.head >= 0:  # the head covers corners of its own square
            heads = np.array([router.disc_covers(jump.start, a) for a, _ in pairs])
            free[:, self.head] &= ~heads[live // shapes]
        lost = (at_corner | ~free).all(axis=2).sum(axis=1)
        first = free.argmax(axis=2)
        moved = np.take_along_axis(at_corner, first[..., None], 2)[..., 0].sum(axis=1)
        ends_hidden = hits[:, self.numbers : self.numbers + self.hidden].sum(axis=1)
        crowded = hits[:, self.numbers + self.hidden :].sum(axis=1)
        ends = np.array([(*a, *b) for a, b in pairs], dtype=float)[live // shapes]
        cost: Floats = (
            HIDES * (lost + ends_hidden + off)
            + KINKED * tight
            + CROWDS * crowded
            + MOVES_NUMBER * moved
            + self.close(ends, centre_xs, centre_ys)
            + bends
        )
        return cost

    def close(self, ends: Floats, xs: Floats, ys: Floats) -> Floats:
        """What each curve (its centre points: rows of ``xs``, ``ys``; its ends: x0, y0,
        x1, y1 a row of ``ends``) costs for running close to the laid jumps
        (``close_runs``): ``CLOSE`` a square past ``CLOSE_FREE``, at most ``CLOSE_MOST``."""
        np = self.np
        cost: Floats = np.zeros(len(xs))
        for grid, weight in ((self.router.near, CLOSE), (self.router.future, ANTICIPATE)):
            if grid.any():
                runs = close_runs(grid, xs, ys, ends)
                cost += np.minimum(weight * np.maximum(0.0, runs - CLOSE_FREE), CLOSE_MOST)
        return cost

    def corners_covered(
        self, a: Point, xs: Floats, ys: Floats, reach: Floats
    ) -> list[tuple[int, int]]:
        """(square, corner) of each number place the curve (one row of ``xs``, ``ys``)
        or, for a snake, its head at ``a`` covers."""
        np = self.np
        hits = self.table.hits(xs, ys, reach)[0, : self.numbers]
        found = [
            (self.squares[index // len(CORNERS)], index % len(CORNERS))
            for index in np.flatnonzero(hits).tolist()
        ]
        if self.head >= 0:
            start = self.jump.start
            found += [
                (start, corner)
                for corner in np.flatnonzero(self.router.disc_covers(start, a)).tolist()
            ]
        return found


def least_taken(taken: Any) -> Any:
    """Which corners of each square (a row of ``taken``: how many jumps cover each) the
    fewest jumps cover: the free ones, or where none is free, the ones a number would
    be hidden least under. A curve covering all of them hides the number (or keeps it
    hidden)."""
    least: Any = taken == taken.min(axis=-1, keepdims=True)
    return least


@lru_cache(maxsize=64)
def _shape_bends(shapes: bytes) -> Any:
    import numpy as np

    rows = np.frombuffer(shapes).reshape(-1, 3).tolist()
    return np.array([bend((bow, wave, third)) for bow, wave, third in rows])


def _bends(shapes: Any) -> Any:
    """``bend`` of each of ``shapes`` (rows of ``SHAPES``), kept for each batch."""
    import numpy as np

    return _shape_bends(np.ascontiguousarray(shapes, dtype=float).tobytes())


def _too_tight(kind: JumpKind, pairs: list[tuple[Point, Point]], shapes: Any) -> Any:
    """Whether each shape, between each pair of ends (a row each, pair by pair), bends
    anywhere tighter than a circle of ``TIGHTEST[kind]`` squares across: a ladder's inner
    rail would fold back on itself, a snake's waves bunch up."""
    import numpy as np

    t = np.linspace(0.0, 1.0, 65)
    harmonics = np.arange(1, 4)[:, None] * np.pi
    slope = shapes @ (harmonics * np.cos(harmonics * t))  # d offset / dt
    turn = shapes @ (-(harmonics**2) * np.sin(harmonics * t))  # d2 offset / dt2
    lengths = np.array([math.dist(a, b) or 1.0 for a, b in pairs])[:, None, None]
    # The curve is the chord (length L) plus the offset across it: its curvature is
    # L |offset''| / (L^2 + offset'^2)^1.5.
    curvature = lengths * np.abs(turn) / (lengths**2 + slope**2) ** 1.5
    tight: Any = curvature.max(axis=2).reshape(-1) > 1 / TIGHTEST[kind]
    return tight


@lru_cache(maxsize=4096)
def _sample_count(length: float) -> int:
    """How many steps the routing's sample points take along a curve of any of
    ``SHAPES`` across a chord of ``length``: at most ``SAMPLE_STEP`` apart on the
    longest (a curve's length is convex in its shape's figures, so the longest is one
    of the most bent in every figure)."""
    import numpy as np

    t = np.linspace(0.0, 1.0, 257)
    extremes = np.array(list(product(*((-max(f), max(f)) for f in (BOWS, WAVES, THIRDS)))))
    offset = extremes @ np.sin(np.arange(1, 4)[:, None] * np.pi * t)
    longest = float(np.hypot(np.diff(offset, axis=1), length / 256).sum(axis=1).max())
    return max(8, math.ceil(longest * 1.05 / SAMPLE_STEP))


def sample_lines(
    jump: Jump, lane: int, pairs: list[tuple[Point, Point]], shapes: Any, rows: Any = None
) -> tuple[Floats, Floats, Floats, Floats, Floats]:
    """Sample points of the drawn lines of ``jump`` for each pair of ends and each shape
    (a row each, pair by pair), about ``SAMPLE_STEP`` apart, and how far the lines reach
    from each (one figure a column): a snake's body (as ``_snake`` waves it); a ladder's
    two rails, then its centre line standing for the rungs between them (short of its
    ends by half the ladder's width: the rails end square there). Last, the points of
    the centre curve alone (the same rows), for ``close_runs``. With ``rows`` (indices,
    ascending), only those rows (each row's figures as without)."""
    import numpy as np

    harmonics = np.arange(1, 4)[:, None] * np.pi
    counts = [_sample_count(round(math.dist(a, b), 2)) for a, b in pairs]
    most = max(counts)
    all_xs, all_ys, centre_xs, centre_ys = [], [], [], []
    kinds = len(shapes)
    if rows is not None:
        firsts = np.searchsorted(rows, np.arange(len(pairs) + 1) * kinds)
    for index, (((x0, y0), (x1, y1)), count) in enumerate(zip(pairs, counts, strict=True)):
        # Each pair's shapes as ever (the products below are the same with any rows).
        picked = slice(None)
        if rows is not None:
            picked = rows[firsts[index] : firsts[index + 1]] - index * kinds
            if not len(picked):
                continue
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        # The same points for a pair whatever else is scored with it (the last one
        # repeated to fill the row): a curve's score never depends on its company.
        t = np.minimum(np.arange(most + 1) / count, 1.0)
        offset = (shapes @ np.sin(harmonics * t))[picked]  # (shapes, samples)
        xs = x0 + (x1 - x0) * t + nx * offset
        ys = y0 + (y1 - y0) * t + ny * offset
        centre_xs.append(xs)
        centre_ys.append(ys)
        slope = (shapes @ (harmonics * np.cos(harmonics * t)))[picked]
        dx, dy = (x1 - x0) + nx * slope, (y1 - y0) + ny * slope
        norm = np.hypot(dx, dy)
        norm[norm == 0] = 1.0
        across_x, across_y = -dy / norm, dx / norm  # to the left of the way
        if jump.kind == "snake":  # the body's wave across the curve, as ``_snake`` draws it
            # The drawn polyline (``curve``): its length sets the snake's waves.
            coarse_t = np.linspace(0.0, 1.0, max(8, math.ceil(length * SAMPLES_PER_SQUARE)) + 1)
            coarse = (shapes @ np.sin(harmonics * coarse_t))[picked]
            cx = x0 + (x1 - x0) * coarse_t + nx * coarse
            cy = y0 + (y1 - y0) * coarse_t + ny * coarse
            lengths = np.hypot(np.diff(cx, axis=1), np.diff(cy, axis=1)).sum(axis=1)
            waves = np.maximum(1.0, np.round(2 * lengths / SNAKE_WAVELENGTH) / 2)
            envelope = np.minimum(1.0, 6 * t) * np.sqrt(1 - t)
            phase = math.pi if lane else 0.0
            wave = SNAKE_AMPLITUDE * envelope * np.sin(2 * np.pi * waves[:, None] * t + phase)
            all_xs.append(xs + across_x * wave)
            all_ys.append(ys + across_y * wave)
            continue
        half = LADDER_HALF_WIDTH
        along = np.concatenate(
            [np.zeros((len(xs), 1)), np.hypot(np.diff(xs, axis=1), np.diff(ys, axis=1)).cumsum(1)],
            axis=1,
        )
        inside = (along >= half) & (along <= along[:, -1:] - half)
        first = np.where(inside.any(axis=1), inside.argmax(axis=1), len(t) // 2)
        last = np.where(inside.any(axis=1), len(t) - 1 - inside[:, ::-1].argmax(axis=1), first)
        middle = np.clip(np.arange(len(t)), first[:, None], last[:, None])
        all_xs.append(
            np.concatenate(
                [xs + across_x * half, xs - across_x * half, np.take_along_axis(xs, middle, 1)],
                axis=1,
            )
        )
        all_ys.append(
            np.concatenate(
                [ys + across_y * half, ys - across_y * half, np.take_along_axis(ys, middle, 1)],
                axis=1,
            )
        )
    t = np.arange(most + 1)
    slack = SAMPLE_SLACK
    if jump.kind == "snake":
        reach = np.full(len(t), STROKE_HALF_WIDTH["snake"] + slack)
    else:
        rail = STROKE_HALF_WIDTH["ladder"] + slack
        reach = np.concatenate(
            [np.full(2 * len(t), rail), np.full(len(t), LADDER_HALF_WIDTH + slack)]
        )
    if not all_xs:  # no rows asked for
        lines, centre = np.zeros((0, len(reach))), np.zeros((0, len(t)))
        return lines, lines, reach, centre, centre
    return (
        np.concatenate(all_xs),
        np.concatenate(all_ys),
        reach,
        np.concatenate(centre_xs),
        np.concatenate(centre_ys),
    )


def close_runs(near: Any, xs: Floats, ys: Floats, ends: Floats) -> Floats:
    """For each curve (a row of the centre points ``xs``, ``ys``), the longest stretch (in
    squares) through cells of ``near`` that laid jumps run close to (a count a cell, by
    ``CLOSE_CELLS`` a square), its points within ``END_CLEAR`` of its own ends (``ends``:
    x0, y0, x1, y1 a row) left out: ``closeness``'s measure, against every laid jump."""
    import numpy as np

    height, width = near.shape
    cols = np.clip((xs * CLOSE_CELLS).astype(np.int64), 0, width - 1)
    rows = np.clip((ys * CLOSE_CELLS).astype(np.int64), 0, height - 1)
    close = near[rows, cols] > 0
    for x, y in ((ends[:, 0:1], ends[:, 1:2]), (ends[:, 2:3], ends[:, 3:4])):
        close &= (xs - x) ** 2 + (ys - y) ** 2 >= END_CLEAR**2
    both = close[:, 1:] & close[:, :-1]
    steps = np.hypot(np.diff(xs, axis=1), np.diff(ys, axis=1)) * both
    total = np.cumsum(steps, axis=1)
    base = np.maximum.accumulate(np.where(both, 0.0, total), axis=1)
    longest: Floats = (total - base).max(axis=1, initial=0.0)
    return longest


def straight_line(a: Point, b: Point) -> list[Point]:
    """Points from ``a`` to ``b`` at most ``SAMPLE_STEP`` apart."""
    count = max(1, math.ceil(math.dist(a, b) / SAMPLE_STEP))
    return [
        (a[0] + (b[0] - a[0]) * k / count, a[1] + (b[1] - a[1]) * k / count)
        for k in range(count + 1)
    ]


def near_cells(np: Any, centre: Any, ends: tuple[Point, Point], shape: tuple[int, int]) -> Any:
    """The cells (flat indices into a grid of ``shape``, ``CLOSE_CELLS`` a square) within
    ``NEAR`` of the polyline ``centre`` (points ``SAMPLE_STEP`` apart or closer), its
    parts within ``END_CLEAR`` of ``ends`` left out: where a laid jump runs."""
    points = np.asarray(centre, dtype=float).reshape(-1, 2)
    for x, y in ends:
        points = points[(points[:, 0] - x) ** 2 + (points[:, 1] - y) ** 2 >= END_CLEAR**2]
    if not len(points):
        return np.zeros(0, dtype=np.int64)
    reach = math.ceil(NEAR * CLOSE_CELLS)
    span = np.arange(-reach, reach + 1)
    dx, dy = np.meshgrid(span, span)
    # A cell counts when its centre is within NEAR of a point.
    cx = np.floor(points[:, 0] * CLOSE_CELLS).astype(np.int64)[:, None] + dx.ravel()
    cy = np.floor(points[:, 1] * CLOSE_CELLS).astype(np.int64)[:, None] + dy.ravel()
    gap = np.hypot(
        (cx + 0.5) / CLOSE_CELLS - points[:, :1], (cy + 0.5) / CLOSE_CELLS - points[:, 1:]
    )
    height, width = shape
    keep = (gap < NEAR) & (cx >= 0) & (cx < width) & (cy >= 0) & (cy < height)
    return np.unique(cy[keep] * width + cx[keep])
