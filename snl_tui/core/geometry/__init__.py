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

from dataclasses import dataclass

from ..board import Board, Jump
from .closeness import CLOSE_LIMIT, CloseRun, close_runs, numbers_too_close
from .routing import Router, Routing
from .shapes import (
    ANCHOR_SPREAD,
    ANCHOR_X,
    ANCHOR_Y,
    CORNERS,
    EDGE,
    END_RADIUS,
    HEAD_RADIUS,
    LADDER_HALF_WIDTH,
    NUMBER_DIGIT_WIDTH,
    NUMBER_HEIGHT,
    NUMBER_LEFT,
    NUMBER_TOP,
    RUNG_SPACING,
    SAMPLES_PER_SQUARE,
    SHAPES,
    SNAKE_AMPLITUDE,
    SNAKE_WAVELENGTH,
    STROKE_HALF_WIDTH,
    Box,
    JumpPath,
    Point,
    Polyline,
    Shape,
    anchors,
    jumps_of,
    number_box,
)
from .stored import stored_routing

__all__ = [
    "ANCHOR_SPREAD",
    "ANCHOR_X",
    "ANCHOR_Y",
    "CLOSE_LIMIT",
    "CORNERS",
    "EDGE",
    "END_RADIUS",
    "HEAD_RADIUS",
    "LADDER_HALF_WIDTH",
    "NUMBER_DIGIT_WIDTH",
    "NUMBER_HEIGHT",
    "NUMBER_LEFT",
    "NUMBER_TOP",
    "RUNG_SPACING",
    "SAMPLES_PER_SQUARE",
    "SHAPES",
    "SNAKE_AMPLITUDE",
    "SNAKE_WAVELENGTH",
    "STROKE_HALF_WIDTH",
    "Box",
    "CloseRun",
    "JumpPath",
    "Overlap",
    "Point",
    "Polyline",
    "Shape",
    "anchors",
    "close_runs",
    "close_runs_of",
    "crowded_numbers",
    "jump_paths",
    "jump_paths_known",
    "jumps_of",
    "number_box",
    "number_boxes",
    "overlaps",
]


def jump_paths(board: Board) -> tuple[JumpPath, ...]:
    """The shape of every jump of ``board``, ladders first (drawn beneath the snakes);
    cached on the board."""
    return board.derived("jump_paths", lambda board: routing_of(board).paths)


def jump_paths_known(board: Board) -> bool:
    """Whether ``jump_paths(board)`` is at hand (routing a big board takes a while: the
    widgets route it in a thread and draw the jumps once it is)."""
    return board.has_derived("jump_paths")


def number_boxes(board: Board) -> dict[int, Box]:
    """Each square's number box, in squares: top-left, or the first other corner of its
    square that no jump is drawn across when one crosses it there (cached)."""
    return board.derived("number_boxes", lambda board: routing_of(board).boxes)


@dataclass(frozen=True)
class Overlap:
    """A jump whose drawn lines still hide something: ``hidden`` names each."""

    jump: Jump
    hidden: tuple[str, ...]


def overlaps(board: Board) -> list[Overlap]:
    """The jumps whose drawing hides another jump's end, a square's number (in every
    corner of its square) or runs off the board: no route the routing tried avoids it."""
    return [Overlap(path.jump, path.hits) for path in jump_paths(board) if path.hits]


def close_runs_of(board: Board, limit: float = CLOSE_LIMIT) -> list[CloseRun]:
    """The pairs of ``board``'s drawn jumps that run close (``closeness``) for more than
    ``limit`` squares (to a tenth: 1.04 squares is about a square), the longest first."""
    return [run for run in close_runs(jump_paths(board)) if round(run.length, 1) > limit]


def crowded_numbers(board: Board) -> list[tuple[int, int]]:
    """The pairs of squares whose drawn numbers sit side by side too close to read apart
    (``closeness.numbers_too_close``)."""
    return numbers_too_close(board, number_boxes(board))


def routing_of(board: Board) -> Routing:
    """The routing of ``board``: stored ahead of time for a built-in board (``stored``),
    else worked out; cached on the board."""
    return board.derived("routing", lambda board: stored_routing(board) or Router(board).run())
