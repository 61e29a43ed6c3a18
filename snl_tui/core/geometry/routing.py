"""The routing: lays every jump of a board so that none hides another jump's end, a
square's number or runs off the board, nor runs along another jump (see
``core.geometry``'s docstring for the method); ``Obstacles`` says what the jumps as laid
still hide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..board import Board, Jump
from .scoring import (
    BATCHES,
    CLOSE_CELLS,
    EFFORT,
    EFFORT_PER_JUMP,
    HIDES,
    LADDER_BEND,
    RANKED,
    REPAIRS,
    RETRIES,
    SLIDES,
    Scene,
    least_taken,
    near_cells,
    sample_lines,
    straight_line,
)
from .shapes import (
    ANCHOR_SPREAD,
    CORNERS,
    DENSE_STEP,
    EDGE,
    END_RADIUS,
    HEAD_RADIUS,
    NUMBER_GAP,
    SHAPES,
    SPOT_CHOICES,
    SPOTS,
    STROKE_HALF_WIDTH,
    Box,
    JumpPath,
    Point,
    Polyline,
    Shape,
    anchors,
    bend,
    end_name,
    jumps_of,
    number_box,
    shaped_path,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]


@dataclass(frozen=True)
class Routing:
    paths: tuple[JumpPath, ...]
    boxes: dict[int, Box]
    shapes: tuple[Shape, ...] = ()
    """The curve of each of ``paths`` (``SHAPES``): with its ends, all it takes to draw it
    again (``stored``)."""


@dataclass
class _Laid:
    """A jump as the routing laid it, with what it takes from the board."""

    path: JumpPath
    shape: Shape
    xs: Floats
    ys: Floats
    reach: Floats
    """The drawn lines' sample points and how far the lines reach from each (``sample_lines``)."""
    bounds: tuple[float, float, float, float]
    """The least and most of ``xs``, then of ``ys``."""
    corners: list[tuple[int, int]]
    """(square, corner) of every number place its lines or its head cover."""
    near_cells: Any
    """The cells of ``Router.near`` its centre line runs close to (``near_cells``)."""


class Router:
    """Lays the jumps of one board (see the module's docstring)."""

    def __init__(self, board: Board) -> None:
        import numpy as np

        self.np = np
        self.board = board
        self.jumps = jumps_of(board)
        self.lanes: dict[int, int] = {}
        counts = {"ladder": 0, "snake": 0}
        for jump in sorted(self.jumps, key=lambda jump: jump.kind != "ladder"):
            self.lanes[jump.start] = counts[jump.kind] % 2
            counts[jump.kind] += 1
        self.usual = anchors(board)
        self.shapes = np.array(SHAPES)
        bends = np.array([bend(shape) for shape in SHAPES])
        self.bends = {"snake": bends, "ladder": bends * LADDER_BEND}
        # Every number's box in each corner, by square (row 0 unused).
        self.corner_boxes = np.zeros((board.goal + 1, len(CORNERS), 4))
        for square in range(1, board.goal + 1):
            for index, corner in enumerate(CORNERS):
                self.corner_boxes[square, index] = number_box(board, square, corner=corner)
        self.taken = np.zeros((board.goal + 1, len(CORNERS)), dtype=np.int32)
        self.near = np.zeros((board.rows * CLOSE_CELLS, board.cols * CLOSE_CELLS), dtype=np.int32)
        """How many laid jumps run close to each cell (``scoring.near_cells``)."""
        self.straight = {
            jump.start: near_cells(
                np,
                straight_line(self.usual[jump.start, jump.start], self.usual[jump.start, jump.end]),
                (self.usual[jump.start, jump.start], self.usual[jump.start, jump.end]),
                self.near.shape,
            )
            for jump in self.jumps
        }
        """Each jump's straight way between its usual anchors, as cells of ``near``."""
        self.future = self.near.copy()
        """How many jumps not laid yet (the one being laid aside) would run close to each
        cell if laid straight: set by ``_lay`` for its scene."""
        self.ends: dict[tuple[int, int], Point] = {}
        """(jump start, square) -> anchor, of the jumps laid so far."""
        self.laid: dict[int, _Laid] = {}
        self.work = 0
        """How many sample points have been scored so far."""
        self.effort = EFFORT + EFFORT_PER_JUMP * len(self.jumps)
        """Past this much work, no more second tries: each jump is laid once, quickly."""
        self.end_names: dict[str, int] = {}
        """The name of each end (as ``JumpPath.hits`` gives it) -> its jump's start."""

    # -- the plan --------------------------------------------------------------------

    def run(self) -> Routing:
        """Lay every jump, the longest first; while some still hide something, start
        again with those first (they had the least room left), and keep the best."""
        usual = self.usual
        longest = sorted(
            self.jumps,
            key=lambda jump: -math.dist(usual[jump.start, jump.start], usual[jump.start, jump.end]),
        )
        best = self._attempt(longest)
        latest = best
        for _ in range(RETRIES):
            if not _hidden(best) or self.work >= self.effort:
                break
            # Those in the way of what was hidden, the jumps whose ends were hidden and
            # those hiding them, first.
            first: list[int] = []
            for path in latest.paths:
                if path.hits:
                    hidden, blocking = self._involved(path)
                    first += [*sorted(blocking), *sorted(hidden), path.jump.start]
            first = list(dict.fromkeys(first))
            by_start = {jump.start: jump for jump in self.jumps}
            order = [by_start[start] for start in first]
            order += [jump for jump in longest if jump.start not in first]
            self.taken[:] = 0
            self.near[:] = 0
            self.ends.clear()
            self.laid.clear()
            latest = self._attempt(order)
            if _hidden(latest) < _hidden(best):
                best = latest
        return best

    def _attempt(self, order: list[Jump]) -> Routing:
        """Lay the jumps in ``order``; then, while it helps, lay again what still hides
        something, the others in place, and with it the jumps whose ends it hid and
        those covering the other corners of the numbers it hid (laid after it, they
        keep clear of it)."""
        for jump in order:
            self._lay(jump)
        best = self._result()
        for _ in range(REPAIRS):
            hiding = [path for path in best.paths if path.hits]
            if not hiding or self.work >= self.effort:
                break
            saved = (self.taken.copy(), self.near.copy(), dict(self.ends), dict(self.laid))
            for path in hiding:
                jump = path.jump
                if jump.start not in self.laid:
                    continue  # laid again already, with another
                hidden, blocking = self._involved(path)
                # The jumps whose ends it hid first (it keeps clear of their ends), those
                # in the way of the numbers after it (they keep clear of its lines).
                again = [
                    *(other for other in order if other.start in hidden),
                    jump,
                    *(other for other in order if other.start in blocking),
                ]
                for other in again:
                    self._lift(other)
                for other in again:
                    self._lay(other)
            result = self._result()
            if _hidden(result) >= _hidden(best):
                self.taken, self.near, self.ends, self.laid = saved
                break
            best = result
        return best

    def _involved(self, path: JumpPath) -> tuple[set[int], set[int]]:
        """The starts of the jumps whose ends ``path`` hides, and of the others that
        cover corners of the numbers it hides."""
        names, jump = self.end_names, path.jump
        numbers = {int(name.split()[1]) for name in path.hits if name.startswith("number ")}
        hidden = {names[name] for name in path.hits if name in names} - {jump.start}
        blocking = (
            {
                start
                for start, laid in self.laid.items()
                if any(square in numbers for square, _ in laid.corners)
            }
            - hidden
            - {jump.start}
        )
        return hidden, blocking

    def _result(self) -> Routing:
        """The jumps as laid, with what each still hides, and the numbers' boxes."""
        boxes = self._boxes()
        obstacles = Obstacles(self.board, self.ends, boxes)
        self.end_names = obstacles.ends
        paths, shapes = [], []
        for jump in sorted(self.jumps, key=lambda jump: jump.kind != "ladder"):
            path = self.laid[jump.start].path
            shapes.append(self.laid[jump.start].shape)
            paths.append(
                JumpPath(
                    jump, path.lane, path.start, path.end, path.rails, path.rungs, path.body,
                    obstacles.hits(path), path.centre,
                )
            )  # fmt: skip
        return Routing(tuple(paths), boxes, tuple(shapes))

    def _boxes(self) -> dict[int, Box]:
        """Each square's number box: top-left where that corner is free; else, of the
        free corners (or, where none is, those the fewest jumps cover), the first that
        keeps ``NUMBER_GAP`` from the numbers beside it (a number moved to the top right
        against its neighbour's, "2 3", reads as one pair), else the first."""
        board, taken = self.board, self.taken
        boxes: dict[int, Box] = {}
        moved = []
        for square in range(1, board.goal + 1):
            least = taken[square] == taken[square].min()
            if least[0]:
                boxes[square] = number_box(board, square)
            else:
                moved.append((square, [CORNERS[i] for i in range(len(CORNERS)) if least[i]]))
        free = dict(moved)
        for square, corners in moved:
            boxes[square] = self._apart_box(boxes, square, corners)
        # A moved number still against its neighbour's: the neighbour moves, where one of
        # its own free corners keeps clear of both sides.
        for square, _ in moved:
            row, col = board.position_of(square)
            for other_col in (col - 1, col + 1):
                if not 0 <= other_col < board.cols:
                    continue
                other = board.square_at(row, other_col)
                if _apart(boxes[square], boxes[other]):
                    continue
                corners = free.get(other) or [
                    CORNERS[i] for i in range(len(CORNERS)) if taken[other, i] == taken[other].min()
                ]
                box = self._apart_box(boxes, other, corners, strict=True)
                if box is not None:
                    boxes[other] = box
        return boxes

    def _apart_box(
        self,
        boxes: dict[int, Box],
        square: int,
        corners: list[tuple[float, float]],
        strict: bool = False,
    ) -> Any:
        """``square``'s number box in the first of ``corners`` that keeps clear of the
        numbers beside it in ``boxes`` (else the first corner's, or None if ``strict``)."""
        board = self.board
        row, col = board.position_of(square)
        beside = [
            boxes[board.square_at(row, other)]
            for other in (col - 1, col + 1)
            if 0 <= other < board.cols and board.square_at(row, other) in boxes
        ]
        choices = [number_box(board, square, corner=corner) for corner in corners]
        for box in choices:
            if all(_apart(box, other) for other in beside):
                return box
        return None if strict else choices[0]

    def _lay(self, jump: Jump) -> None:
        """Lay ``jump``: the cheapest curve between the cheapest places for its ends. The
        curves for the best-placed ends first; then the best few of them for every pair
        of places; then every curve again for the pair that won, if another did. When
        that still hides something: every curve for every pair of places."""
        np = self.np
        self.future[:] = 0
        flat = self.future.ravel()
        for other in self.jumps:
            if other.start not in self.laid and other.start != jump.start:
                flat[self.straight[other.start]] += 1
        starts = self._spots(jump, jump.start)
        ends = self._spots(jump, jump.end)
        pairs = sorted(
            ((a_cost + b_cost, a, b) for a, a_cost in starts for b, b_cost in ends),
            key=lambda pair: pair[0],
        )
        scene = Scene(self, jump, [(a, b) for _, a, b in pairs])
        best_cost, shape, ranked = self._best_shape(scene, pairs[0], math.inf, rank=True)
        best = (pairs[0][1], pairs[0][2], shape)
        rest = pairs[1:]
        if rest and best_cost > rest[0][0]:
            shapes = np.array([SHAPES[index] for index in ranked])
            ends_costs = np.array([cost for cost, _, _ in rest])
            costs = scene.costs([(a, b) for _, a, b in rest], shapes, best_cost, ends_costs)
            costs += ends_costs[:, None]
            which, index = divmod(int(np.argmin(costs)), len(ranked))
            if costs[which, index] < best_cost:
                pair = rest[which]
                best_cost, shape, _ = self._best_shape(scene, pair, float(costs[which, index]))
                best = (pair[1], pair[2], shape if shape is not None else SHAPES[ranked[index]])
        if best_cost >= HIDES and rest and self.work < self.effort:
            bends = self.bends[jump.kind]
            for low, high in BATCHES:
                live = [pair for pair in rest if pair[0] + bends[low] < best_cost]
                if not live:
                    break  # every curve left costs more than the best
                ends_costs = np.array([cost for cost, _, _ in live])
                costs = scene.costs(
                    [(a, b) for _, a, b in live], self.shapes[low:high], best_cost, ends_costs
                )
                costs += ends_costs[:, None]
                which, index = divmod(int(np.argmin(costs)), high - low)
                if costs[which, index] < best_cost:
                    best_cost = float(costs[which, index])
                    best = (live[which][1], live[which][2], SHAPES[low + index])
                if best_cost < HIDES:
                    break  # it hides nothing: good enough for a hard one
        self._commit(jump, *best, scene)

    def _best_shape(
        self, scene: Scene, pair: tuple[float, Point, Point], bound: float, rank: bool = False
    ) -> tuple[float, Any, list[int]]:
        """The cheapest of ``SHAPES`` between ``pair``'s ends (None when none costs less
        than ``bound``), what it costs, and (with ``rank``) the indices of the best few.
        The curves are scored a batch at a time, least bent first, until the rest cannot
        do better; in a batch, those that cannot beat the best (with ``rank``: the best
        few) of the batches before are not scored in full (``Scene.costs``)."""
        np = self.np
        ends_cost, a, b = pair
        bends = self.bends[scene.jump.kind]
        best_cost, best, ranked = bound, None, []
        scored: list[tuple[float, int]] = []
        for low, high in BATCHES:
            if ends_cost + bends[low] >= best_cost:
                break  # every curve left is more bent than the best costs
            limit = best_cost
            if rank:  # what the best few of the batches before cost, the last of them
                limit = sorted(scored)[RANKED - 1][0] if len(scored) >= RANKED else math.inf
            costs = scene.costs([(a, b)], self.shapes[low:high], limit, [ends_cost])[0]
            costs += ends_cost
            index = int(np.argmin(costs))
            if costs[index] < best_cost:
                best_cost, best = float(costs[index]), SHAPES[low + index]
            scored += [(float(cost), low + k) for k, cost in enumerate(costs.tolist())]
        scored.sort()
        ranked = [index for _, index in scored[:RANKED]]
        return best_cost, best, ranked

    def _spots(self, jump: Jump, square: int) -> list[tuple[Point, float]]:
        """The best places for ``jump``'s end on ``square``, with what each costs: how
        far it slid, and what it would hide or be hidden by."""
        row, col = self.board.position_of(square)
        usual = self.usual[jump.start, square]
        taken = [
            point for (other, where), point in self.ends.items() if where == square
        ]  # other jumps' ends on this square: keep apart
        candidates = [usual, *((col + fx, row + fy) for fx, fy in SPOTS)]
        head = jump.kind == "snake" and square == jump.start
        free = least_taken(self.taken[square])
        lines = self._lines_near(square, exclude=jump.start)
        found: list[tuple[Point, float]] = []
        for point in candidates:
            if any(math.dist(point, other) < ANCHOR_SPREAD - 1e-9 for other in taken):
                continue
            if found and point == usual:
                continue
            cost = SLIDES * math.dist(point, usual)
            for xs, ys, reach in lines:  # a laid jump's line across this end
                near = (xs - point[0]) ** 2 + (ys - point[1]) ** 2
                if bool((near < (END_RADIUS + reach) ** 2).any()):
                    cost += HIDES
            if head:
                covered = self.disc_covers(square, point)
                if not (free & ~covered).any():
                    cost += HIDES  # the head would cover the number in every corner left
            found.append((point, cost))
        found.sort(key=lambda spot: spot[1])
        return found[:SPOT_CHOICES] if found else [(usual, 0.0)]

    def disc_covers(self, square: int, point: Point) -> Any:
        """Which corners' number boxes of ``square`` a snake's head at ``point`` covers."""
        np = self.np
        boxes = self.corner_boxes[square]
        dx = np.maximum(np.maximum(boxes[:, 0] - point[0], point[0] - boxes[:, 2]), 0.0)
        dy = np.maximum(np.maximum(boxes[:, 1] - point[1], point[1] - boxes[:, 3]), 0.0)
        return dx * dx + dy * dy < HEAD_RADIUS**2

    def _lines_near(self, square: int, exclude: int) -> list[tuple[Floats, Floats, Floats]]:
        """The sample points of the laid jumps that may cross an end on ``square`` (not
        the jump ``exclude`` itself, nor jumps with an end there: they meet there)."""
        row, col = self.board.position_of(square)
        found = []
        for start, laid in self.laid.items():
            if start == exclude or square in (laid.path.jump.start, laid.path.jump.end):
                continue
            low_x, high_x, low_y, high_y = laid.bounds
            if low_x > col + 2 or high_x < col - 1 or low_y > row + 2 or high_y < row - 1:
                continue
            found.append((laid.xs, laid.ys, laid.reach))
        return found

    def _commit(self, jump: Jump, a: Point, b: Point, shape: Shape, scene: Scene) -> None:
        np = self.np
        lane = self.lanes[jump.start]
        path = shaped_path(jump, lane, a, b, shape)
        xs, ys, reach, _, _ = sample_lines(jump, lane, [(a, b)], np.array([shape]))
        corners = scene.corners_covered(a, xs, ys, reach)
        for square, corner in corners:
            self.taken[square, corner] += 1
        bounds = (float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max()))
        cells = near_cells(np, path.centre, (a, b), self.near.shape)
        self.near.ravel()[cells] += 1
        self.laid[jump.start] = _Laid(path, shape, xs[0], ys[0], reach, bounds, corners, cells)
        self.ends[jump.start, jump.start] = a
        self.ends[jump.start, jump.end] = b

    def _lift(self, jump: Jump) -> None:
        laid = self.laid.pop(jump.start)
        for square, corner in laid.corners:
            self.taken[square, corner] -= 1
        self.near.ravel()[laid.near_cells] -= 1
        del self.ends[jump.start, jump.start]
        del self.ends[jump.start, jump.end]


def _apart(box: Box, other: Box) -> bool:
    """Whether two number boxes side by side keep ``NUMBER_GAP`` between them."""
    if min(box[3], other[3]) <= max(box[1], other[1]):
        return True  # not side by side: one above the other
    return max(other[0] - box[2], box[0] - other[2]) >= NUMBER_GAP


def _hidden(routing: Routing) -> int:
    return sum(len(path.hits) for path in routing.paths)


class Obstacles:
    """Every square's number box and every jump's end circle, listed for each square
    with its neighbours' (a point is checked against its own square's list only)."""

    def __init__(
        self, board: Board, ends: dict[tuple[int, int], Point], boxes: dict[int, Box]
    ) -> None:
        import numpy as np

        self.np = np
        self.board = board
        near: dict[tuple[int, int], list[int]] = {}
        items: list[tuple[str, int, float, float, float, float]] = []

        def add(row: int, col: int, item: tuple[str, int, float, float, float, float]) -> None:
            items.append(item)
            for r in (row - 1, row, row + 1):
                for c in (col - 1, col, col + 1):
                    near.setdefault((r, c), []).append(len(items) - 1)

        for square, box in boxes.items():
            row, col = board.position_of(square)
            add(row, col, (f"number {square}", 0, *box))
        self.ends: dict[str, int] = {}
        """Each end's name -> its jump's start."""
        for (start, square), (x, y) in ends.items():
            other = board.jump_at(start)
            assert other is not None
            name = f"the {other.kind} {other.start}-{other.end}'s {end_name(other, square)}"
            self.ends[name] = start
            add(math.floor(y), math.floor(x), (name, square, x, y, x, y))
        self.names = [item[0] for item in items]
        self.squares = np.array([item[1] for item in items], dtype=np.int64)
        self.boxes = np.array([item[2:] for item in items], dtype=float).reshape(-1, 4)
        # Each square's list (and its neighbours' beyond the board), as one flat list:
        # the cells of rows -1 to ``rows`` and columns -1 to ``cols``.
        self.width = board.cols + 2
        cells = (board.rows + 2) * self.width
        lists = [
            near.get((cell // self.width - 1, cell % self.width - 1), []) for cell in range(cells)
        ]
        self.counts = np.array([len(found) for found in lists], dtype=np.int64)
        self.starts = np.cumsum(self.counts) - self.counts
        self.listed = np.array([index for found in lists for index in found], dtype=np.int64)
        self.longest = int(self.counts.max(initial=0))

    def hits(self, path: JumpPath) -> tuple[str, ...]:
        """What ``path``'s strokes cross: 'number 59', "the snake 46-30's head" and so
        on (other jumps' ends on the path's own squares excepted: they meet there), in
        the order met along the strokes."""
        np = self.np
        half = STROKE_HALF_WIDTH[path.kind]
        reach = (END_RADIUS + half) ** 2
        half *= half
        own = (path.jump.start, path.jump.end)
        xs, ys = _dense_points(np, path.strokes())
        right, bottom = self.board.cols - EDGE, self.board.rows - EDGE
        off = np.flatnonzero(~((xs > EDGE) & (xs < right) & (ys > EDGE) & (ys < bottom)))
        rows, cols = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
        inside = (rows >= -1) & (rows <= self.board.rows) & (cols >= -1) & (cols <= self.board.cols)
        cells = np.where(inside, (rows + 1) * self.width + cols + 1, 0)
        many = np.where(inside, self.counts[cells], 0)
        # Every (point, item its square lists), and where in the list the item is.
        point = np.repeat(np.arange(len(xs)), many)
        place = np.arange(len(point)) - np.repeat(np.cumsum(many) - many, many)
        item = self.listed[np.repeat(self.starts[cells], many) + place]
        px, py = xs[point], ys[point]
        x0, y0, x1, y1 = self.boxes[item].T
        squares = self.squares[item]
        circle = squares != 0
        dx = np.where(circle, px - x0, np.maximum(np.maximum(x0 - px, 0.0), px - x1))
        dy = np.where(circle, py - y0, np.maximum(np.maximum(y0 - py, 0.0), py - y1))
        gap = dx * dx + dy * dy
        touch = np.where(circle, gap < reach, gap < half)
        touch &= ~(circle & ((squares == own[0]) | (squares == own[1])))
        # Python's ``** 2`` (a circle's test, as before) may round apart from ``x * x``
        # in the last place: the few pairs that near the circle's edge are tested so.
        for index in np.flatnonzero(circle & (np.abs(gap - reach) < 1e-9)):
            a, b = float(px[index] - x0[index]), float(py[index] - y0[index])
            touch[index] = bool(squares[index] not in own) and a**2 + b**2 < reach
        # In the order met: point after point, the board's edge first, then the list's.
        met = np.flatnonzero(touch)
        when = point[met] * (self.longest + 2) + place[met] + 1
        order = np.argsort(when, kind="stable")
        found: dict[str, None] = {}
        if len(off):
            edge = int(off[0]) * (self.longest + 2)
            first = np.searchsorted(when[order], edge)
            for index in item[met[order[:first]]].tolist():
                found[self.names[index]] = None
            found["the board's edge"] = None
            order = order[first:]
        for index in item[met[order]].tolist():
            found[self.names[index]] = None
        return tuple(found)


def _dense_points(np: Any, strokes: tuple[Polyline, ...]) -> tuple[Floats, Floats]:
    """``shapes.dense_points`` of each of ``strokes``, one after another (xs, ys): the
    same points, figure for figure."""
    xs: list[Any] = []
    ys: list[Any] = []
    for stroke in strokes:
        points = np.array(stroke, dtype=float)
        x0, y0 = points[:-1, 0], points[:-1, 1]
        dx, dy = points[1:, 0] - x0, points[1:, 1] - y0
        counts = [
            max(1, math.ceil(math.hypot(bx - ax, by - ay) / DENSE_STEP))
            for (ax, ay), (bx, by) in pairwise(stroke)
        ]
        many = np.array(counts, dtype=np.int64)
        segment = np.repeat(np.arange(len(counts)), many)
        k = np.arange(len(segment)) - np.repeat(np.cumsum(many) - many, many) + 1
        count = many[segment]
        xs += [points[:1, 0], x0[segment] + dx[segment] * k / count]
        ys += [points[:1, 1], y0[segment] + dy[segment] * k / count]
    return np.concatenate(xs), np.concatenate(ys)
