"""Where the snakes and ladders run: one geometry for the terminal drawing and the print.

Coordinates are in squares: x from the left edge of the grid, y down from its top edge,
so the square in matrix cell (row, col) covers x in [col, col + 1] and y in [row, row + 1].
The board widget scales this to braille dots, the export to points; both draw the same
shapes. Each jump runs between two anchors: points in the right half of its squares
(square numbers, labels and tokens sit at the left), spread apart when several jumps
meet on one square so that their ends stay apart.

A jump runs along a curve (``route``): straight when nothing is in its way, else bent to
one side so that it misses every square's number (``number_box``) and every other jump's
head and foot (circles of ``END_RADIUS`` round their anchors); the least bend that misses
them all is taken, and when none does the one that hits least, and ``overlaps`` names what
is still hidden (``snl check`` warns). A ladder is two rails along its curve from its
foot to its top with rungs between; a snake is a wave along its curve from its head (the
jump's start) to its tail, thinning towards the tail. Jumps alternate
between two "lanes" (0 and 1, by their order along the board): the drawing gives the
lanes different shades and the snakes opposite wave phases, so crossing and side-by-side
jumps stay apart even without colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from .board import Board, Jump, JumpKind

Point = tuple[float, float]
Polyline = tuple[Point, ...]

ANCHOR_X, ANCHOR_Y = 0.68, 0.55
"""Where a jump meets a square it starts or ends on (fractions of the square)."""
ANCHOR_SPREAD = 0.2
"""How far apart the anchors of jumps meeting on one square are (in squares)."""
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
STROKE_HALF_WIDTH = {"ladder": 0.03, "snake": 0.06}
"""Half the drawn line's width, in squares (the export's and the picture's)."""
BOWS = (0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6, 0.9, -0.9, 1.3, -1.3, 1.8, -1.8)
WAVES = (0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6)
SHAPES = sorted(
    ((bow, wave) for bow in BOWS for wave in WAVES), key=lambda shape: abs(shape[0]) + abs(shape[1])
)
"""The curves tried for a jump, least bent first: ``bow`` squares to one side at the
middle (one arc) plus ``wave`` squares either way at a quarter and three quarters of
the way (an S): together they thread a jump between numbers and other jumps' ends."""
CHECKED = 3
"""How many of the best-screened curves are checked stroke by stroke."""


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
    """What this jump's drawn lines still cross: other jumps' ends and square numbers
    that no bend avoided (``overlaps``)."""

    @property
    def kind(self) -> JumpKind:
        return self.jump.kind

    def strokes(self) -> tuple[Polyline, ...]:
        """Every line to draw: the rails and rungs of a ladder, the body of a snake."""
        if self.jump.kind == "snake":
            return (self.body,)
        return (*self.rails, *((a, b) for a, b in self.rungs))


def anchors(board: Board) -> dict[tuple[int, int], Point]:
    """(jump start, square) -> anchor point, for both squares of every jump. Jumps that
    meet on one square are spread across it (in the order of their other ends, so that
    jumps leaving a square side by side do not cross at once)."""
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


def _jump_paths(board: Board) -> tuple[JumpPath, ...]:
    ends = anchors(board)
    obstacles = _Obstacles(board, ends)
    paths: list[JumpPath] = []
    lanes = {"ladder": 0, "snake": 0}
    for jump in sorted(jumps_of(board), key=lambda jump: jump.kind != "ladder"):
        lane = lanes[jump.kind] % 2
        lanes[jump.kind] += 1
        start, end = ends[jump.start, jump.start], ends[jump.start, jump.end]
        best: JumpPath | None = None
        for bow, wave in _screened(board, jump, start, end, ends)[:CHECKED]:
            path = _shaped(jump, lane, start, end, bow, wave)
            hits = obstacles.hits(path, len(best.hits) if best is not None else 1 << 30)
            if best is None or len(hits) < len(best.hits):
                best = JumpPath(jump, lane, start, end, path.rails, path.rungs, path.body, hits)
            if not hits:
                break
        assert best is not None
        paths.append(best)
    return tuple(paths)


def _screened(
    board: Board, jump: Jump, start: Point, end: Point, ends: dict[tuple[int, int], Point]
) -> list[tuple[float, float]]:
    """Every shape in ``SHAPES``, the ones whose curve (widened to the drawn jump's
    reach) crosses the fewest numbers, other jumps' ends and board edges first, the
    least bent first among equals: all at once, with numpy."""
    import numpy as np

    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    t = np.linspace(0.0, 1.0, max(16, math.ceil(length * 12)))
    shapes = np.array(SHAPES)
    offset = shapes[:, :1] * np.sin(np.pi * t) + shapes[:, 1:] * np.sin(2 * np.pi * t)
    px = x0 + (x1 - x0) * t + nx * offset  # (shapes, samples)
    py = y0 + (y1 - y0) * t + ny * offset
    if jump.kind == "ladder":
        reach = np.full_like(t, LADDER_HALF_WIDTH + STROKE_HALF_WIDTH["ladder"])
    else:
        envelope = np.minimum(1.0, 6 * t) * np.sqrt(1 - t)
        reach = STROKE_HALF_WIDTH["snake"] + SNAKE_AMPLITUDE * envelope
    low_x, high_x = px.min() - 1, px.max() + 1
    low_y, high_y = py.min() - 1, py.max() + 1
    boxes = [
        box
        for square in range(1, board.goal + 1)
        for box in (number_box(board, square),)
        if box[2] > low_x and box[0] < high_x and box[3] > low_y and box[1] < high_y
    ]
    score = (
        ((px < 0.05) | (px > board.cols - 0.05) | (py < 0.05) | (py > board.rows - 0.05))
        .any(axis=1)
        .astype(int)
    )
    if boxes:
        b = np.array(boxes)
        dx = np.maximum(np.maximum(b[:, 0] - px[..., None], 0.0), px[..., None] - b[:, 2])
        dy = np.maximum(np.maximum(b[:, 1] - py[..., None], 0.0), py[..., None] - b[:, 3])
        score += ((dx * dx + dy * dy) < (reach * reach)[None, :, None]).any(axis=1).sum(axis=1)
    own = (jump.start, jump.end)
    circles = [
        point
        for (other, square), point in ends.items()
        if square not in own
        and other != jump.start
        and low_x < point[0] < high_x
        and low_y < point[1] < high_y
    ]
    if circles:
        c = np.array(circles)
        gap = (px[..., None] - c[:, 0]) ** 2 + (py[..., None] - c[:, 1]) ** 2
        near = (END_RADIUS + reach) ** 2
        score += (gap < near[None, :, None]).any(axis=1).sum(axis=1)
    order = np.argsort(score, kind="stable")  # SHAPES are least bent first
    return [SHAPES[index] for index in order]


def _shaped(jump: Jump, lane: int, start: Point, end: Point, bow: float, wave: float) -> JumpPath:
    centre = _curve(start, end, bow, wave)
    if jump.kind == "ladder":
        rails, rungs = _ladder(centre)
        return JumpPath(jump, lane, start, end, rails, rungs, centre)
    return JumpPath(jump, lane, start, end, (), (), _snake(centre, lane))


def _curve(start: Point, end: Point, bow: float, wave: float) -> Polyline:
    """From ``start`` to ``end``, bowed ``bow`` squares to the left of the way at its
    middle (negative: to the right), plus an S of ``wave`` squares; sampled
    ``SAMPLES_PER_SQUARE`` times a square."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    samples = max(8, math.ceil(length * SAMPLES_PER_SQUARE))
    points = []
    for index in range(samples + 1):
        t = index / samples
        offset = bow * math.sin(math.pi * t) + wave * math.sin(2 * math.pi * t)
        points.append((x0 + (x1 - x0) * t + nx * offset, y0 + (y1 - y0) * t + ny * offset))
    return tuple(points)


def number_box(
    board: Board,
    square: int,
    digits: int | None = None,
    corner: tuple[float, float] = (0.0, 0.0),
) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of ``square``'s number in its ``corner`` (see
    ``CORNERS``), in squares. Where it is drawn: ``number_boxes``."""
    row, col = board.position_of(square)
    digits = len(str(square)) if digits is None else digits
    width = digits * NUMBER_DIGIT_WIDTH + 0.04
    x = col + NUMBER_LEFT + corner[0] * (1 - 2 * NUMBER_LEFT - width)
    y = row + NUMBER_TOP + corner[1] * (1 - 2 * NUMBER_TOP - NUMBER_HEIGHT)
    return x, y, x + width, y + NUMBER_HEIGHT


class _Obstacles:
    """Every square's number box and every jump's end circles, listed for each square
    with its neighbours' (a point is checked against its own square's list only)."""

    def __init__(self, board: Board, ends: dict[tuple[int, int], Point]) -> None:
        self.board = board
        near: dict[tuple[int, int], list[tuple[str, int, float, float, float, float]]] = {}

        def add(row: int, col: int, item: tuple[str, int, float, float, float, float]) -> None:
            for r in (row - 1, row, row + 1):
                for c in (col - 1, col, col + 1):
                    near.setdefault((r, c), []).append(item)

        for square in range(1, board.goal + 1):
            row, col = board.position_of(square)
            add(row, col, (f"number {square}", 0, *number_box(board, square)))
        for (start, square), (x, y) in ends.items():
            other = board.jump_at(start)
            assert other is not None
            name = f"the {other.kind} {other.start}-{other.end}'s {_end_name(other, square)}"
            add(int(y), int(x), (name, square, x, y, x, y))
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
        right, bottom = self.board.cols - 0.05, self.board.rows - 0.05
        for stroke in path.strokes():
            for px, py in _dense(stroke):
                if not (0.05 < px < right and 0.05 < py < bottom):
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


def _dense(stroke: Polyline, step: float = 0.07) -> list[Point]:
    """Points along ``stroke`` at most ``step`` squares apart."""
    points = [stroke[0]]
    for (x0, y0), (x1, y1) in pairwise(stroke):
        count = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        points += [
            (x0 + (x1 - x0) * k / count, y0 + (y1 - y0) * k / count) for k in range(1, count + 1)
        ]
    return points


@dataclass(frozen=True)
class Overlap:
    """A jump whose drawn lines still hide something: ``hidden`` names each."""

    jump: Jump
    hidden: tuple[str, ...]


def overlaps(board: Board) -> list[Overlap]:
    """The jumps that no route took clear of other jumps' ends, and the numbers no
    corner of their square keeps clear of the jumps."""
    boxes = number_boxes(board)
    found = []
    for path in jump_paths(board):
        points: list[Point] | None = None
        hidden = []
        for hit in path.hits:
            if hit.startswith("number "):
                points = points if points is not None else _dense_strokes(path)
                if not _crosses(path, points, boxes[int(hit.split()[1])]):
                    continue  # the number moved to a corner clear of the jumps
            hidden.append(hit)
        if hidden:
            found.append(Overlap(path.jump, tuple(hidden)))
    return found


CORNERS = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
"""Where a square's number may sit: top-left (the usual place), then top-right, bottom-
left and bottom-right, as fractions of the room the number leaves in its square."""


def number_boxes(board: Board) -> dict[int, tuple[float, float, float, float]]:
    """Each square's number box, in squares: top-left, or the first other corner of
    the square that no jump is drawn across when one crosses it there (cached)."""
    return board.derived("number_boxes", _number_boxes)


def _number_boxes(board: Board) -> dict[int, tuple[float, float, float, float]]:
    boxes = {square: number_box(board, square) for square in range(1, board.goal + 1)}
    crossed = sorted(
        {
            int(hit.split()[1])
            for path in jump_paths(board)
            for hit in path.hits
            if hit.startswith("number ")
        }
    )
    if not crossed:
        return boxes
    strokes = []
    for path in jump_paths(board):
        points = _dense_strokes(path)
        xs, ys = [x for x, _ in points], [y for _, y in points]
        strokes.append((path, points, (min(xs), min(ys), max(xs), max(ys))))
    for square in crossed:
        for corner in CORNERS[1:]:
            box = number_box(board, square, corner=corner)
            near = [
                (path, points)
                for path, points, (lx, ly, hx, hy) in strokes
                if lx - 0.1 < box[2]
                and hx + 0.1 > box[0]
                and ly - 0.1 < box[3]
                and hy + 0.1 > box[1]
            ]
            if not any(_crosses(path, points, box) for path, points in near):
                boxes[square] = box
                break
    return boxes


def _dense_strokes(path: JumpPath) -> list[Point]:
    return [point for stroke in path.strokes() for point in _dense(stroke)]


def _crosses(path: JumpPath, points: list[Point], box: tuple[float, float, float, float]) -> bool:
    half = STROKE_HALF_WIDTH[path.kind]
    x0, y0, x1, y1 = box
    for px, py in points:
        dx = max(x0 - px, 0.0, px - x1)
        dy = max(y0 - py, 0.0, py - y1)
        if dx * dx + dy * dy < half * half:
            return True
    return False


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
