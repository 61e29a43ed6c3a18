"""Where the snakes and ladders run: one geometry for the terminal drawing and the print.

Coordinates are in squares: x from the left edge of the grid, y down from its top edge,
so the square in matrix cell (row, col) covers x in [col, col + 1] and y in [row, row + 1].
The board widget scales this to braille dots, the export to points; both draw the same
shapes. Each jump runs between two anchors: points in the right half of its squares
(square numbers, labels and tokens sit at the left), spread apart when several jumps
meet on one square so that their ends stay apart.

A ladder is two rails from its foot to its top with rungs between; a snake is a wave
from its head (the jump's start) to its tail, thinning towards the tail. Jumps alternate
between two "lanes" (0 and 1, by their order along the board): the drawing gives the
lanes different shades and the snakes opposite wave phases, so crossing and side-by-side
jumps stay apart even without colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def _jump_paths(board: Board) -> tuple[JumpPath, ...]:
    ends = anchors(board)
    paths: list[JumpPath] = []
    lanes = {"ladder": 0, "snake": 0}
    for jump in sorted(jumps_of(board), key=lambda jump: jump.kind != "ladder"):
        lane = lanes[jump.kind] % 2
        lanes[jump.kind] += 1
        start, end = ends[jump.start, jump.start], ends[jump.start, jump.end]
        if jump.kind == "ladder":
            rails, rungs = _ladder(start, end)
            paths.append(JumpPath(jump, lane, start, end, rails, rungs, (start, end)))
        else:
            paths.append(JumpPath(jump, lane, start, end, (), (), _snake(start, end, lane)))
    return tuple(paths)


def _ladder(
    foot: Point, top: Point
) -> tuple[tuple[Polyline, ...], tuple[tuple[Point, Point], ...]]:
    (x0, y0), (x1, y1) = foot, top
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    # The unit normal: the rails sit either side of the centre line.
    nx, ny = -(y1 - y0) / length * LADDER_HALF_WIDTH, (x1 - x0) / length * LADDER_HALF_WIDTH
    left = ((x0 + nx, y0 + ny), (x1 + nx, y1 + ny))
    right = ((x0 - nx, y0 - ny), (x1 - nx, y1 - ny))
    count = max(1, round(length / RUNG_SPACING))
    rungs = []
    for index in range(1, count):
        t = index / count
        cx, cy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        rungs.append(((cx + nx, cy + ny), (cx - nx, cy - ny)))
    return (left, right), tuple(rungs)


def _snake(head: Point, tail: Point, lane: int) -> Polyline:
    (x0, y0), (x1, y1) = head, tail
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    waves = max(1.0, round(2 * length / SNAKE_WAVELENGTH) / 2)  # whole half-waves
    phase = math.pi if lane else 0.0
    samples = max(8, math.ceil(length * SAMPLES_PER_SQUARE))
    points = []
    for index in range(samples + 1):
        t = index / samples
        # Full width just behind the head, thinning to nothing at the tail.
        envelope = min(1.0, 6 * t) * (1 - t) ** 0.5
        offset = SNAKE_AMPLITUDE * envelope * math.sin(2 * math.pi * waves * t + phase)
        points.append((x0 + (x1 - x0) * t + nx * offset, y0 + (y1 - y0) * t + ny * offset))
    return tuple(points)
