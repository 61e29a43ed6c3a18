"""Where the snakes and ladders run: one geometry for the terminal drawing and the print.

Coordinates are in squares: x from the left edge of the grid, y down from its top edge,
so the square in matrix cell (row, col) covers x in [col, col + 1] and y in [row, row + 1].
The board widget scales this to braille dots, the export and the picture to points and
pixels; all draw the same shapes. Each jump runs between two anchors, points on its own
two squares: usually in the right half (``anchors``: square numbers, labels and tokens
sit at the left), spread apart when several jumps meet on one square.

The routing (``jump_paths``) lays every jump so that none hides another jump's end (a
circle of ``END_RADIUS`` round its anchor), a square's number, or runs off the board. It
chooses, jump by jump and the longest first, among curves (``SHAPES``: a bow, an S and a
three-hump wave across the straight way, least bent first) and among places on its two
squares for its ends (``SPOTS``); a square's number may sit in any corner of its square
(``CORNERS``), so a jump may cross the usual top-left corner as long as another corner
stays clear. Each choice is scored at once for every curve with numpy: what it hides
(which no cost outweighs), then how near it runs to where jumps not yet laid will end,
how many numbers it moves, how bent it is (a ladder's bend counts more: ladders stay
straight where they can), how far its ends slid. A jump still hiding something is laid
again once all the others are, and ``overlaps`` names what no choice avoided (``snl
check`` warns). A ladder is two rails along its curve from its foot to its top with
rungs between; a snake is a wave along its curve from its head (the jump's start) to its
tail, thinning towards the tail. Jumps alternate between two "lanes" (0 and 1, by their
order along the board): the drawing gives the lanes different shades and the snakes
opposite wave phases, so crossing and side-by-side jumps stay apart even without colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from typing import TYPE_CHECKING, Any

from .board import Board, Jump, JumpKind

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]

Point = tuple[float, float]
Polyline = tuple[Point, ...]
Box = tuple[float, float, float, float]
Shape = tuple[float, float, float]

ANCHOR_X, ANCHOR_Y = 0.68, 0.55
"""Where a jump usually meets a square it starts or ends on (fractions of the square)."""
ANCHOR_SPREAD = 0.2
"""How far apart the anchors of jumps meeting on one square are (in squares)."""
SPOTS: tuple[Point, ...] = tuple(
    sorted(
        product((0.3, 0.5, 0.68, 0.84), (0.4, 0.55, 0.76)),
        key=lambda spot: math.dist(spot, (ANCHOR_X, ANCHOR_Y)),
    )
)
"""Where else on its square a jump's end may go (fractions of the square), the nearest
to the usual place first."""
SPOT_CHOICES = 4
"""How many places for each end are tried (the best placed first)."""
LADDER_HALF_WIDTH = 0.15
RUNG_SPACING = 0.42
SNAKE_AMPLITUDE = 0.16
SNAKE_WAVELENGTH = 0.9
SAMPLES_PER_SQUARE = 8
NUMBER_LEFT, NUMBER_TOP = 0.05, 0.04
"""Where a square's number box starts (fractions of the square, from its top-left)."""
NUMBER_HEIGHT = 0.28
NUMBER_DIGIT_WIDTH = 0.15
"""A digit's width in squares (the number's font is ``NUMBER_HEIGHT`` / 1.15 high)."""
END_RADIUS = 0.16
"""The circle round a jump's anchor that no other jump may cross (a snake's head, a
ladder's foot or top, a snake's tail)."""
HEAD_RADIUS = 0.12
"""A snake's drawn head (the export's and the picture's), which no number may lie under."""
STROKE_HALF_WIDTH = {"ladder": 0.03, "snake": 0.06}
"""Half the drawn line's width, in squares (the export's and the picture's)."""
EDGE = 0.05
"""How close to the board's edge a drawn line may come (in squares)."""
BOWS = (0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6, 0.9, -0.9, 1.3, -1.3, 1.8, -1.8)
WAVES = (0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6)
THIRDS = (0.0, 0.25, -0.25)


def _bend(shape: Shape) -> float:
    bow, wave, third = shape
    return abs(bow) + 1.5 * abs(wave) + 2 * abs(third)


SHAPES: tuple[Shape, ...] = tuple(sorted(product(BOWS, WAVES, THIRDS), key=_bend))
WIDEST = max(BOWS) + max(WAVES) + max(THIRDS)
"""The farthest any of ``SHAPES`` strays from the straight way (in squares)."""
"""The curves tried for a jump, least bent first: ``bow`` squares to one side at the
middle (one arc), ``wave`` squares either way at a quarter and three quarters of the way
(an S) and ``third`` squares at a sixth, a half and five sixths (three humps), added."""

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
TABLE_CELLS = 2
"""The routing lists the obstacles near each half square (each way)."""


@dataclass(frozen=True)
class JumpPath:
    """The shape of one jump, in squares (see the module's coordinates)."""

    jump: Jump
    lane: int
    """0 or 1: alternate jumps get the other shade (and, for snakes, the other phase)."""
    start: Point
    """The anchor on the jump's start square (a ladder's foot, a snake's head)."""
    end: Point
    rails: tuple[Polyline, ...]
    """A ladder's two rails, foot to top (empty for a snake)."""
    rungs: tuple[tuple[Point, Point], ...]
    """A ladder's rungs (empty for a snake)."""
    body: Polyline
    """A snake's body from head to tail; a ladder's centre line from foot to top."""
    hits: tuple[str, ...] = ()
    """What this jump's drawn lines still cross: other jumps' ends, square numbers and
    the board's edge that no route avoided (``overlaps``)."""

    @property
    def kind(self) -> JumpKind:
        return self.jump.kind

    def strokes(self) -> tuple[Polyline, ...]:
        """Every line to draw: the rails and rungs of a ladder, the body of a snake."""
        if self.jump.kind == "snake":
            return (self.body,)
        return (*self.rails, *((a, b) for a, b in self.rungs))


def anchors(board: Board) -> dict[tuple[int, int], Point]:
    """(jump start, square) -> the usual anchor, for both squares of every jump (the
    routing may slide an end elsewhere on its square: ``JumpPath.start`` and ``end``).
    Jumps that meet on a square are spread across it (in the order of their other ends,
    so that jumps leaving a square side by side do not cross at once)."""
    meeting: dict[int, list[tuple[float, int]]] = {}
    for jump in jumps_of(board):
        for here, there in ((jump.start, jump.end), (jump.end, jump.start)):
            _, col = board.position_of(there)
            meeting.setdefault(here, []).append((col, jump.start))
    points: dict[tuple[int, int], Point] = {}
    for square, others in meeting.items():
        row, col = board.position_of(square)
        others.sort()
        count = len(others)
        for index, (_, start) in enumerate(others):
            shift = (index - (count - 1) / 2) * ANCHOR_SPREAD
            x = col + min(0.92, max(0.4, ANCHOR_X + shift))
            points[start, square] = (x, row + ANCHOR_Y)
    return points


def jumps_of(board: Board) -> list[Jump]:
    """Every jump in board order (by start square)."""
    return sorted((*board.ladders, *board.snakes), key=lambda jump: jump.start)


def jump_paths(board: Board) -> tuple[JumpPath, ...]:
    """The shape of every jump of ``board``, ladders first (drawn beneath the snakes);
    cached on the board."""
    return board.derived("jump_paths", _jump_paths)


def jump_paths_known(board: Board) -> bool:
    """Whether ``jump_paths(board)`` is at hand (routing a big board takes a while: the
    widgets route it in a thread and draw the jumps once it is)."""
    return board.has_derived("jump_paths")


def number_box(
    board: Board,
    square: int,
    digits: int | None = None,
    corner: tuple[float, float] = (0.0, 0.0),
) -> Box:
    """(left, top, right, bottom) of ``square``'s number in its ``corner`` (see
    ``CORNERS``), in squares. Where it is drawn: ``number_boxes``."""
    row, col = board.position_of(square)
    digits = len(str(square)) if digits is None else digits
    width = digits * NUMBER_DIGIT_WIDTH + 0.04
    x = col + NUMBER_LEFT + corner[0] * (1 - 2 * NUMBER_LEFT - width)
    y = row + NUMBER_TOP + corner[1] * (1 - 2 * NUMBER_TOP - NUMBER_HEIGHT)
    return x, y, x + width, y + NUMBER_HEIGHT


CORNERS = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
"""Where a square's number may sit: top-left (the usual place), then top-right, bottom-
left and bottom-right, as fractions of the room the number leaves in its square."""


def number_boxes(board: Board) -> dict[int, Box]:
    """Each square's number box, in squares: top-left, or the first other corner of its
    square that no jump is drawn across when one crosses it there (cached)."""
    return board.derived("number_boxes", lambda board: _routing(board).boxes)


@dataclass(frozen=True)
class Overlap:
    """A jump whose drawn lines still hide something: ``hidden`` names each."""

    jump: Jump
    hidden: tuple[str, ...]


def overlaps(board: Board) -> list[Overlap]:
    """The jumps whose drawing hides another jump's end, a square's number (in every
    corner of its square) or runs off the board: no route the routing tried avoids it."""
    return [Overlap(path.jump, path.hits) for path in jump_paths(board) if path.hits]


# -- the routing --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Routing:
    paths: tuple[JumpPath, ...]
    boxes: dict[int, Box]


def _routing(board: Board) -> _Routing:
    return board.derived("routing", lambda board: _Router(board).run())


def _jump_paths(board: Board) -> tuple[JumpPath, ...]:
    return _routing(board).paths


@dataclass
class _Laid:
    """A jump as the routing laid it, with what it takes from the board."""

    path: JumpPath
    shape: Shape
    xs: Floats
    ys: Floats
    reach: Floats
    """The drawn lines' sample points and how far the lines reach from each (``_lines``)."""
    bounds: tuple[float, float, float, float]
    """The least and most of ``xs``, then of ``ys``."""
    corners: list[tuple[int, int]]
    """(square, corner) of every number place its lines or its head cover."""


class _Router:
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
        bends = np.array([_bend(shape) for shape in SHAPES])
        self.bends = {"snake": bends, "ladder": bends * LADDER_BEND}
        # Every number's box in each corner, by square (row 0 unused).
        self.corner_boxes = np.zeros((board.goal + 1, len(CORNERS), 4))
        for square in range(1, board.goal + 1):
            for index, corner in enumerate(CORNERS):
                self.corner_boxes[square, index] = number_box(board, square, corner=corner)
        self.taken = np.zeros((board.goal + 1, len(CORNERS)), dtype=np.int32)
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

    def run(self) -> _Routing:
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
            self.ends.clear()
            self.laid.clear()
            latest = self._attempt(order)
            if _hidden(latest) < _hidden(best):
                best = latest
        return best

    def _attempt(self, order: list[Jump]) -> _Routing:
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
            saved = (self.taken.copy(), dict(self.ends), dict(self.laid))
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
                self.taken, self.ends, self.laid = saved
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

    def _result(self) -> _Routing:
        """The jumps as laid, with what each still hides, and the numbers' boxes."""
        boxes = self._boxes()
        obstacles = _Obstacles(self.board, self.ends, boxes)
        self.end_names = obstacles.ends
        paths = []
        for jump in sorted(self.jumps, key=lambda jump: jump.kind != "ladder"):
            path = self.laid[jump.start].path
            paths.append(
                JumpPath(
                    jump, path.lane, path.start, path.end, path.rails, path.rungs, path.body,
                    obstacles.hits(path),
                )
            )  # fmt: skip
        return _Routing(tuple(paths), boxes)

    def _boxes(self) -> dict[int, Box]:
        """Each square's number box: in its first free corner (or, where none is, the
        one the fewest jumps cover)."""
        boxes: dict[int, Box] = {}
        for square in range(1, self.board.goal + 1):
            corner = CORNERS[int(self.np.argmin(self.taken[square]))]
            boxes[square] = number_box(self.board, square, corner=corner)
        return boxes

    def _lay(self, jump: Jump) -> None:
        """Lay ``jump``: the cheapest curve between the cheapest places for its ends. The
        curves for the best-placed ends first; then the best few of them for every pair
        of places; then every curve again for the pair that won, if another did. When
        that still hides something: every curve for every pair of places."""
        np = self.np
        starts = self._spots(jump, jump.start)
        ends = self._spots(jump, jump.end)
        pairs = sorted(
            ((a_cost + b_cost, a, b) for a, a_cost in starts for b, b_cost in ends),
            key=lambda pair: pair[0],
        )
        scene = _Scene(self, jump, [(a, b) for _, a, b in pairs])
        best_cost, shape, ranked = self._best_shape(scene, pairs[0], math.inf)
        best = (pairs[0][1], pairs[0][2], shape)
        rest = pairs[1:]
        if rest and best_cost > rest[0][0]:
            shapes = np.array([SHAPES[index] for index in ranked])
            costs = scene.costs([(a, b) for _, a, b in rest], shapes)
            costs += np.array([cost for cost, _, _ in rest])[:, None]
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
                costs = scene.costs([(a, b) for _, a, b in live], self.shapes[low:high])
                costs += np.array([cost for cost, _, _ in live])[:, None]
                which, index = divmod(int(np.argmin(costs)), high - low)
                if costs[which, index] < best_cost:
                    best_cost = float(costs[which, index])
                    best = (live[which][1], live[which][2], SHAPES[low + index])
                if best_cost < HIDES:
                    break  # it hides nothing: good enough for a hard one
        self._commit(jump, *best, scene)

    def _best_shape(
        self, scene: _Scene, pair: tuple[float, Point, Point], bound: float
    ) -> tuple[float, Any, list[int]]:
        """The cheapest of ``SHAPES`` between ``pair``'s ends (None when none costs less
        than ``bound``), what it costs, and the indices of the best few. The curves are
        scored a batch at a time, least bent first, until the rest cannot do better."""
        np = self.np
        ends_cost, a, b = pair
        bends = self.bends[scene.jump.kind]
        best_cost, best, ranked = bound, None, []
        scored: list[tuple[float, int]] = []
        for low, high in BATCHES:
            if ends_cost + bends[low] >= best_cost:
                break  # every curve left is more bent than the best costs
            costs = scene.costs([(a, b)], self.shapes[low:high])[0] + ends_cost
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
        free = _least_taken(self.taken[square])
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

    def _commit(self, jump: Jump, a: Point, b: Point, shape: Shape, scene: _Scene) -> None:
        np = self.np
        lane = self.lanes[jump.start]
        path = _shaped(jump, lane, a, b, shape)
        xs, ys, reach = _lines(jump, lane, [(a, b)], np.array([shape]))
        corners = scene.corners_covered(a, xs, ys, reach)
        for square, corner in corners:
            self.taken[square, corner] += 1
        bounds = (float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max()))
        self.laid[jump.start] = _Laid(path, shape, xs[0], ys[0], reach, bounds, corners)
        self.ends[jump.start, jump.start] = a
        self.ends[jump.start, jump.end] = b

    def _lift(self, jump: Jump) -> None:
        laid = self.laid.pop(jump.start)
        for square, corner in laid.corners:
            self.taken[square, corner] -= 1
        del self.ends[jump.start, jump.start]
        del self.ends[jump.start, jump.end]


class _Scene:
    """What one jump's curves may run across: the numbers' boxes in every corner, the
    ends of the jumps laid so far, the usual places of the ends of those not yet laid,
    in a table by square (each sample point is tested against its own square's list)."""

    def __init__(self, router: _Router, jump: Jump, pairs: list[tuple[Point, Point]]) -> None:
        np = router.np
        board = router.board
        self.np = np
        self.router = router
        self.jump = jump
        # The most any sample point of ``_lines`` reaches.
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
        self.table = _Table(np, obstacles, self.region, self.reach)
        self.free = _least_taken(router.taken[self.squares])
        self.head = self.squares.index(jump.start) if jump.kind == "snake" else -1

    def costs(self, pairs: list[tuple[Point, Point]], shapes: Any) -> Floats:
        """What each of ``shapes`` (rows of ``SHAPES``) costs between each pair of ends:
        (pairs, shapes)."""
        np = self.np
        router, jump = self.router, self.jump
        xs, ys, reach = _lines(jump, router.lanes[jump.start], pairs, shapes)
        router.work += xs.size
        hits = self.table.hits(xs, ys, reach)
        rows, count = len(xs), len(self.squares)
        at_corner = hits[:, : self.numbers].reshape(rows, count, len(CORNERS))
        free = np.broadcast_to(self.free, at_corner.shape).copy()
        if self.head >= 0:  # the head covers corners of its own square
            heads = np.array([router.disc_covers(jump.start, a) for a, _ in pairs])
            free[:, self.head] &= ~np.repeat(heads, len(shapes), axis=0)
        lost = (at_corner | ~free).all(axis=2).sum(axis=1)
        first = free.argmax(axis=2)
        moved = np.take_along_axis(at_corner, first[..., None], 2)[..., 0].sum(axis=1)
        ends_hidden = hits[:, self.numbers : self.numbers + self.hidden].sum(axis=1)
        crowded = hits[:, self.numbers + self.hidden :].sum(axis=1)
        board = router.board
        off = ((xs < EDGE) | (xs > board.cols - EDGE) | (ys < EDGE) | (ys > board.rows - EDGE)).any(
            axis=1
        )
        cost = (
            HIDES * (lost + ends_hidden + off)
            + KINKED * _too_tight(jump.kind, pairs, shapes)
            + CROWDS * crowded
            + MOVES_NUMBER * moved
            + np.tile(np.array([_bend(shape) for shape in shapes.tolist()]), len(pairs))
            * (LADDER_BEND if jump.kind == "ladder" else 1.0)
        )
        result: Floats = cost.reshape(len(pairs), len(shapes))
        return result

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


def _hidden(routing: _Routing) -> int:
    return sum(len(path.hits) for path in routing.paths)


def _least_taken(taken: Any) -> Any:
    """Which corners of each square (a row of ``taken``: how many jumps cover each) the
    fewest jumps cover: the free ones, or where none is free, the ones a number would
    be hidden least under. A curve covering all of them hides the number (or keeps it
    hidden)."""
    least: Any = taken == taken.min(axis=-1, keepdims=True)
    return least


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


def _lines(
    jump: Jump, lane: int, pairs: list[tuple[Point, Point]], shapes: Any
) -> tuple[Floats, Floats, Floats]:
    """Sample points of the drawn lines of ``jump`` for each pair of ends and each shape
    (a row each, pair by pair), about ``SAMPLE_STEP`` apart, and how far the lines reach
    from each (one figure a column): a snake's body (as ``_snake`` waves it); a ladder's
    two rails, then its centre line standing for the rungs between them (short of its
    ends by half the ladder's width: the rails end square there)."""
    import numpy as np

    harmonics = np.arange(1, 4)[:, None] * np.pi
    counts = [_sample_count(round(math.dist(a, b), 2)) for a, b in pairs]
    most = max(counts)
    all_xs, all_ys = [], []
    for ((x0, y0), (x1, y1)), count in zip(pairs, counts, strict=True):
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        # The same points for a pair whatever else is scored with it (the last one
        # repeated to fill the row): a curve's score never depends on its company.
        t = np.minimum(np.arange(most + 1) / count, 1.0)
        offset = shapes @ np.sin(harmonics * t)  # (shapes, samples)
        xs = x0 + (x1 - x0) * t + nx * offset
        ys = y0 + (y1 - y0) * t + ny * offset
        slope = shapes @ (harmonics * np.cos(harmonics * t))
        dx, dy = (x1 - x0) + nx * slope, (y1 - y0) + ny * slope
        norm = np.hypot(dx, dy)
        norm[norm == 0] = 1.0
        across_x, across_y = -dy / norm, dx / norm  # to the left of the way
        if jump.kind == "snake":  # the body's wave across the curve, as ``_snake`` draws it
            # The drawn polyline (``_curve``): its length sets the snake's waves.
            coarse_t = np.linspace(0.0, 1.0, max(8, math.ceil(length * SAMPLES_PER_SQUARE)) + 1)
            coarse = shapes @ np.sin(harmonics * coarse_t)
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
    return np.concatenate(all_xs), np.concatenate(all_ys), reach


class _Table:
    """Obstacles (left, top, right, bottom, radius: a box, or a circle when left = right
    and top = bottom) listed by the cells (``TABLE_CELLS`` a square each way) of a region
    (rows and columns of squares, first and last) whose points they may touch from
    ``reach`` away at most: each point is tested against its own cell's list only."""

    def __init__(self, np: Any, obstacles: Any, region: tuple[int, int, int, int], reach: float):
        self.np = np
        self.count = len(obstacles)
        row0, row1, col0, col1 = region
        cells = TABLE_CELLS
        self.origin = (row0 * cells, col0 * cells)
        height, width = (row1 - row0 + 1) * cells, (col1 - col0 + 1) * cells
        self.width, self.height = width, height
        top_row, left_col = self.origin
        boxes = obstacles.reshape(-1, 5)
        grow = boxes[:, 4] + reach
        first_row = np.maximum(0, np.floor((boxes[:, 1] - grow) * cells).astype(int) - top_row)
        last_row = np.minimum(
            height - 1, np.floor((boxes[:, 3] + grow) * cells).astype(int) - top_row
        )
        first_col = np.maximum(0, np.floor((boxes[:, 0] - grow) * cells).astype(int) - left_col)
        last_col = np.minimum(
            width - 1, np.floor((boxes[:, 2] + grow) * cells).astype(int) - left_col
        )
        # Every (cell, obstacle) an obstacle's reach covers, then each cell's list.
        where, which = [], []
        tallest = int((last_row - first_row).max(initial=0)) + 1
        widest = int((last_col - first_col).max(initial=0)) + 1
        for down in range(tallest):
            for across in range(widest):
                row, col = first_row + down, first_col + across
                inside = (row <= last_row) & (col <= last_col)
                where.append((row * width + col)[inside])
                which.append(np.flatnonzero(inside))
        cell_of = np.concatenate(where) if where else np.zeros(0, dtype=int)
        index = np.concatenate(which) if which else np.zeros(0, dtype=int)
        order = np.lexsort((index, cell_of))
        cell_of, index = cell_of[order], index[order]
        counts = np.bincount(cell_of, minlength=height * width)
        most = max(1, int(counts.max(initial=0)))
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        slot = np.arange(len(cell_of)) - starts[cell_of]
        self.table = np.full((height * width, most), self.count, dtype=np.int64)
        self.table[cell_of, slot] = index
        padded = np.concatenate([obstacles.reshape(-1, 5), [[-9.0, -9.0, -9.0, -9.0, 0.0]]]).astype(
            np.float32
        )
        # Each cell's obstacles, field by field: (cells, most).
        self.fields = [padded[:, k][self.table] for k in range(5)]

    def hits(self, xs: Floats, ys: Floats, reach: Floats) -> Any:
        """(curves, obstacles): whether each curve's points (rows of ``xs``, ``ys``),
        widened by ``reach`` (one figure a column), touch each obstacle."""
        np = self.np
        curves = xs.shape[0]
        found = np.zeros((curves, self.count + 1), dtype=bool)
        top_row, left_col = self.origin
        rows = np.clip(np.floor(ys * TABLE_CELLS).astype(np.int64) - top_row, 0, self.height - 1)
        cols = np.clip(np.floor(xs * TABLE_CELLS).astype(np.int64) - left_col, 0, self.width - 1)
        cells = rows * self.width + cols  # (curves, samples)
        xs, ys = xs.astype(np.float32), ys.astype(np.float32)
        widths = reach.astype(np.float32)[None, :, None]
        left, top, right, bottom, radius = self.fields
        most = self.table.shape[1]
        step = max(1, 400_000 // (xs.shape[1] * most))
        for first in range(0, curves, step):
            chunk = cells[first : first + step]
            px, py = xs[first : first + step, :, None], ys[first : first + step, :, None]
            dx = np.maximum(np.maximum(left[chunk] - px, px - right[chunk]), 0.0)
            dy = np.maximum(np.maximum(top[chunk] - py, py - bottom[chunk]), 0.0)
            curve, sample, slot = np.nonzero(dx * dx + dy * dy < (radius[chunk] + widths) ** 2)
            found[curve + first, self.table[chunk[curve, sample], slot]] = True
        return found[:, : self.count]


def _shaped(jump: Jump, lane: int, start: Point, end: Point, shape: Shape) -> JumpPath:
    centre = _curve(start, end, shape)
    if jump.kind == "ladder":
        rails, rungs = _ladder(centre)
        return JumpPath(jump, lane, start, end, rails, rungs, centre)
    return JumpPath(jump, lane, start, end, (), (), _snake(centre, lane))


def _curve(start: Point, end: Point, shape: Shape) -> Polyline:
    """From ``start`` to ``end`` along ``shape`` (see ``SHAPES``: offsets to the left of
    the way, negative to the right); sampled ``SAMPLES_PER_SQUARE`` times a square."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    samples = max(8, math.ceil(length * SAMPLES_PER_SQUARE))
    points = []
    for index in range(samples + 1):
        t = index / samples
        offset = sum(c * math.sin(k * math.pi * t) for k, c in enumerate(shape, start=1))
        points.append((x0 + (x1 - x0) * t + nx * offset, y0 + (y1 - y0) * t + ny * offset))
    return tuple(points)


class _Obstacles:
    """Every square's number box and every jump's end circle, listed for each square
    with its neighbours' (a point is checked against its own square's list only)."""

    def __init__(
        self, board: Board, ends: dict[tuple[int, int], Point], boxes: dict[int, Box]
    ) -> None:
        self.board = board
        near: dict[tuple[int, int], list[tuple[str, int, float, float, float, float]]] = {}

        def add(row: int, col: int, item: tuple[str, int, float, float, float, float]) -> None:
            for r in (row - 1, row, row + 1):
                for c in (col - 1, col, col + 1):
                    near.setdefault((r, c), []).append(item)

        for square, box in boxes.items():
            row, col = board.position_of(square)
            add(row, col, (f"number {square}", 0, *box))
        self.ends: dict[str, int] = {}
        """Each end's name -> its jump's start."""
        for (start, square), (x, y) in ends.items():
            other = board.jump_at(start)
            assert other is not None
            name = f"the {other.kind} {other.start}-{other.end}'s {_end_name(other, square)}"
            self.ends[name] = start
            add(math.floor(y), math.floor(x), (name, square, x, y, x, y))
        self.near = near

    def hits(self, path: JumpPath, enough: int = 1 << 30) -> tuple[str, ...]:
        """What ``path``'s strokes cross: 'number 59', "the snake 46-30's head" and so
        on (other jumps' ends on the path's own squares excepted: they meet there); it
        stops looking once ``enough`` are found."""
        found: dict[str, None] = {}
        half = STROKE_HALF_WIDTH[path.kind]
        reach = (END_RADIUS + half) ** 2
        half *= half
        own = (path.jump.start, path.jump.end)
        near = self.near
        right, bottom = self.board.cols - EDGE, self.board.rows - EDGE
        for stroke in path.strokes():
            for px, py in _dense(stroke):
                if not (EDGE < px < right and EDGE < py < bottom):
                    found["the board's edge"] = None
                for name, square, x0, y0, x1, y1 in near.get((math.floor(py), math.floor(px)), ()):
                    if name in found:
                        continue
                    if square:  # an end circle, centred at (x0, y0)
                        if square not in own and (px - x0) ** 2 + (py - y0) ** 2 < reach:
                            found[name] = None
                    else:
                        dx = max(x0 - px, 0.0, px - x1)
                        dy = max(y0 - py, 0.0, py - y1)
                        if dx * dx + dy * dy < half:
                            found[name] = None
                if len(found) >= enough:
                    return tuple(found)
        return tuple(found)


def _end_name(jump: Jump, square: int) -> str:
    if jump.kind == "snake":
        return "head" if square == jump.start else "tail"
    return "foot" if square == jump.start else "top"


def _dense(stroke: Polyline, step: float = 0.025) -> list[Point]:
    """Points along ``stroke`` at most ``step`` squares apart (close enough that a
    ladder's rail, 0.03 squares either side, cannot slip past a corner between two)."""
    points = [stroke[0]]
    for (x0, y0), (x1, y1) in pairwise(stroke):
        count = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        points += [
            (x0 + (x1 - x0) * k / count, y0 + (y1 - y0) * k / count) for k in range(1, count + 1)
        ]
    return points


def _offset(points: Polyline, distance: float) -> Polyline:
    """``points`` moved ``distance`` squares to their left (a parallel curve)."""
    out = []
    for index, (x, y) in enumerate(points):
        ax, ay = points[max(0, index - 1)]
        bx, by = points[min(len(points) - 1, index + 1)]
        length = math.hypot(bx - ax, by - ay) or 1.0
        out.append((x - (by - ay) / length * distance, y + (bx - ax) / length * distance))
    return tuple(out)


def _ladder(centre: Polyline) -> tuple[tuple[Polyline, ...], tuple[tuple[Point, Point], ...]]:
    left, right = _offset(centre, LADDER_HALF_WIDTH), _offset(centre, -LADDER_HALF_WIDTH)
    lengths = [0.0]
    for (x0, y0), (x1, y1) in pairwise(centre):
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    count = max(1, round(lengths[-1] / RUNG_SPACING))
    rungs = []
    index = 0
    for rung in range(1, count):
        along = lengths[-1] * rung / count
        while lengths[index + 1] < along:
            index += 1
        rungs.append((left[index], right[index]))
    return (left, right), tuple(rungs)


def _snake(centre: Polyline, lane: int) -> Polyline:
    length = sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in pairwise(centre))
    waves = max(1.0, round(2 * length / SNAKE_WAVELENGTH) / 2)  # whole half-waves
    phase = math.pi if lane else 0.0
    last = len(centre) - 1
    points = []
    for index, (x, y) in enumerate(centre):
        t = index / last
        ax, ay = centre[max(0, index - 1)]
        bx, by = centre[min(last, index + 1)]
        norm = math.hypot(bx - ax, by - ay) or 1.0
        # Full width just behind the head, thinning to nothing at the tail.
        envelope = min(1.0, 6 * t) * (1 - t) ** 0.5
        offset = SNAKE_AMPLITUDE * envelope * math.sin(2 * math.pi * waves * t + phase)
        points.append((x - (by - ay) / norm * offset, y + (bx - ax) / norm * offset))
    return tuple(points)
