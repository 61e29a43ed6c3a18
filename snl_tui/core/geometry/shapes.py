"""The shapes of the drawn jumps, in squares: the constants every drawing shares, a
jump's path (``JumpPath``: a ladder's rails and rungs, a snake's waved body, both along
a centre curve), the usual anchors of its ends and a square's number box in each corner.
Coordinates: see ``core.geometry``. No numpy here: the routing (``routing``) chooses
the curves, this module draws them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise, product

from ..board import Board, Jump, JumpKind

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
NUMBER_GAP = 0.3
"""The least room between two numbers side by side (in squares): closer, "23 24" reads
as one pair. Two numbers in their usual top-left corners are 0.6 squares or more
apart; a number moved to its square's top right is 0.1 from its right neighbour's."""
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


def bend(shape: Shape) -> float:
    bow, wave, third = shape
    return abs(bow) + 1.5 * abs(wave) + 2 * abs(third)


SHAPES: tuple[Shape, ...] = tuple(sorted(product(BOWS, WAVES, THIRDS), key=bend))
WIDEST = max(BOWS) + max(WAVES) + max(THIRDS)
"""The farthest any of ``SHAPES`` strays from the straight way (in squares)."""
"""The curves tried for a jump, least bent first: ``bow`` squares to one side at the
middle (one arc), ``wave`` squares either way at a quarter and three quarters of the way
(an S) and ``third`` squares at a sixth, a half and five sixths (three humps), added."""


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
    centre: Polyline = ()
    """The curve the jump is drawn along (a ladder's ``body``; a snake's body waves
    across it): what ``closeness`` measures."""

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


def shaped_path(jump: Jump, lane: int, start: Point, end: Point, shape: Shape) -> JumpPath:
    centre = curve(start, end, shape)
    if jump.kind == "ladder":
        rails, rungs = _ladder(centre)
        return JumpPath(jump, lane, start, end, rails, rungs, centre, centre=centre)
    return JumpPath(jump, lane, start, end, (), (), _snake(centre, lane), centre=centre)


def curve(start: Point, end: Point, shape: Shape) -> Polyline:
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


def end_name(jump: Jump, square: int) -> str:
    if jump.kind == "snake":
        return "head" if square == jump.start else "tail"
    return "foot" if square == jump.start else "top"


DENSE_STEP = 0.025
"""How far apart ``dense_points`` are at most (in squares)."""


def dense_points(stroke: Polyline, step: float = DENSE_STEP) -> list[Point]:
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
