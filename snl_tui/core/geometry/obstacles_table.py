"""The routing's table of obstacles by cell (``scoring.Scene``): which numbers' boxes,
jump ends and discs a point of a curve may touch, found by the cell it lies in, so that
each point is tested only against what is near it."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]

TABLE_CELLS = 2
"""The routing lists the obstacles near each half square (each way)."""
LOOKUP_CELLS = 8
"""... and looks them up by the eighth of a square (``ObstacleTable``)."""
LOOKUP_SLACK = 1e-3


class ObstacleTable:
    """Obstacles (left, top, right, bottom, radius: a box, or a circle when left = right
    and top = bottom) listed by the cells (``TABLE_CELLS`` a square each way) of a region
    (rows and columns of squares, first and last) whose points they may touch from
    ``reach`` away at most: each point is tested against its own cell's list only.

    Looked up finer (``LOOKUP_CELLS`` a square each way, for each width a line reaches
    from its points): a fine cell lists an obstacle its own cell lists when the obstacle
    may touch the fine cell from that width away (and ``LOOKUP_SLACK``, far more than
    float32's rounding). Every point that touches an obstacle its cell lists is still
    tested against it, so what touches what is as with the half squares alone; far
    fewer points are tested against obstacles they cannot touch."""

    def __init__(self, np: Any, obstacles: Any, region: tuple[int, int, int, int], reach: float):
        self.np = np
        self.count = len(obstacles)
        row0, row1, col0, col1 = region
        cells = TABLE_CELLS
        self.origin = (row0 * cells, col0 * cells)
        height, width = (row1 - row0 + 1) * cells, (col1 - col0 + 1) * cells
        self.width, self.height = width, height
        top_row, left_col = self.origin
        boxes = self.boxes = obstacles.reshape(-1, 5)
        grow = boxes[:, 4] + reach
        first_row = np.maximum(0, np.floor((boxes[:, 1] - grow) * cells).astype(int) - top_row)
        last_row = np.minimum(
            height - 1, np.floor((boxes[:, 3] + grow) * cells).astype(int) - top_row
        )
        first_col = np.maximum(0, np.floor((boxes[:, 0] - grow) * cells).astype(int) - left_col)
        last_col = np.minimum(
            width - 1, np.floor((boxes[:, 2] + grow) * cells).astype(int) - left_col
        )
        self.listed = (first_row, last_row, first_col, last_col)
        """The cells listing each obstacle (first and last row, first and last column)."""
        self.padded = boxes.astype(np.float32)
        self.lookups: dict[float, tuple[Any, Any, Any, tuple[Any, ...]]] = {}

    def lookup(self, width: float) -> tuple[Any, Any, Any, tuple[Any, ...]]:
        """For lines reaching ``width`` from their points, by fine cell: the obstacles
        listed (their indices, cell after cell), how many each cell lists and where its
        list starts; and each obstacle's left, top, right, bottom and squared reach."""
        if width in self.lookups:
            return self.lookups[width]
        np = self.np
        fine = LOOKUP_CELLS // TABLE_CELLS
        height, width_cells = self.height * fine, self.width * fine
        top_row, left_col = (origin * fine for origin in self.origin)
        boxes = self.boxes
        grow = boxes[:, 4] + width + LOOKUP_SLACK
        first_row, last_row, first_col, last_col = self.listed
        f_first_row = np.maximum(
            first_row * fine,
            np.floor((boxes[:, 1] - grow) * LOOKUP_CELLS).astype(np.int64) - top_row,
        )
        f_last_row = np.minimum(
            last_row * fine + fine - 1,
            np.floor((boxes[:, 3] + grow) * LOOKUP_CELLS).astype(np.int64) - top_row,
        )
        f_first_col = np.maximum(
            first_col * fine,
            np.floor((boxes[:, 0] - grow) * LOOKUP_CELLS).astype(np.int64) - left_col,
        )
        f_last_col = np.minimum(
            last_col * fine + fine - 1,
            np.floor((boxes[:, 2] + grow) * LOOKUP_CELLS).astype(np.int64) - left_col,
        )
        # Every (cell, obstacle) an obstacle may touch, then the lists cell after cell.
        across = np.maximum(0, f_last_col - f_first_col + 1)
        sizes = np.maximum(0, f_last_row - f_first_row + 1) * across
        index = np.repeat(np.arange(len(boxes)), sizes)
        offset = np.arange(len(index)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        across = np.repeat(np.maximum(across, 1), sizes)
        rows = np.repeat(f_first_row, sizes) + offset // across
        cols = np.repeat(f_first_col, sizes) + offset % across
        cell_of = rows * width_cells + cols
        listed = index[np.argsort(cell_of, kind="stable")]
        counts = np.bincount(cell_of, minlength=height * width_cells)
        starts = np.cumsum(counts) - counts
        padded = self.padded
        # The squared reach as the test has it: (radius + width) ** 2 in float32.
        reach = (padded[:, 4] + np.float32(width)) ** 2
        fields = (*(np.ascontiguousarray(padded[:, k]) for k in range(4)), reach)
        found = (listed, counts, starts, fields)
        self.lookups[width] = found
        return found

    def hits(self, xs: Floats, ys: Floats, reach: Floats) -> Any:
        """(curves, obstacles): whether each curve's points (rows of ``xs``, ``ys``),
        widened by ``reach`` (one figure a column), touch each obstacle."""
        np = self.np
        curves = xs.shape[0]
        found = np.zeros((curves, self.count), dtype=bool)
        fine = LOOKUP_CELLS // TABLE_CELLS
        height, width = self.height * fine, self.width * fine
        top_row, left_col = (origin * fine for origin in self.origin)
        rows = np.clip(np.floor(ys * LOOKUP_CELLS).astype(np.int64) - top_row, 0, height - 1)
        cols = np.clip(np.floor(xs * LOOKUP_CELLS).astype(np.int64) - left_col, 0, width - 1)
        cells = rows * width + cols  # (curves, samples)
        xs, ys = xs.astype(np.float32), ys.astype(np.float32)
        widths = reach.astype(np.float32)
        # The columns in runs of one width (a ladder's rails, then its rungs).
        changes = np.flatnonzero(widths[1:] != widths[:-1]) + 1
        for low, high in pairwise([0, *changes.tolist(), len(widths)]):
            listed, counts, starts, fields = self.lookup(float(widths[low]))
            left, top, right, bottom, reach_2 = fields
            # Every (point, obstacle its cell lists), as two flat lists.
            here = cells[:, low:high].ravel()
            many = counts[here]
            point = np.repeat(np.arange(len(here)), many)
            before = np.cumsum(many) - many
            obstacle = listed[np.arange(len(point)) + np.repeat(starts[here] - before, many)]
            px = xs[:, low:high].ravel()[point]
            py = ys[:, low:high].ravel()[point]
            dx = np.maximum(np.maximum(left[obstacle] - px, px - right[obstacle]), 0.0)
            dy = np.maximum(np.maximum(top[obstacle] - py, py - bottom[obstacle]), 0.0)
            touch = np.flatnonzero(dx * dx + dy * dy < reach_2[obstacle])
            found[point[touch] // (high - low), obstacle[touch]] = True
        return found
