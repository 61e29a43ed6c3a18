"""The snakes and ladders drawn in terminal cells, from the shared geometry.

``draw_jumps`` turns ``core.geometry.jump_paths`` into characters on the board's grid of
terminal cells: each square is ``cell_width`` columns by ``cell_height`` lines, each cell
2x4 braille dots (U+2800..U+28FF), so diagonals and the snakes' waves are smooth; a
snake's head is a solid blot of dots. (Box-drawing lines, one of ``│ ─ / \\`` per cell, were
tried too: on slopes they step, and a ladder's rungs turned into a tangle.)

The result is a sparse map: grid line -> column -> (character, which jump). The board
widget paints it beneath the squares' text, so numbers, labels and tokens stay on top.
No Textual here: a pure function of the board and the cell size, cached by the widget.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import pairwise

from ..core.board import Board
from ..core.geometry import JumpPath, jump_paths

ArtCell = tuple[str, int]
"""A drawn character and the index (in ``jump_paths``) of the jump it belongs to."""
Art = dict[int, dict[int, ArtCell]]
"""Grid line -> column -> drawn cell."""

BRAILLE_BASE = 0x2800
BRAILLE_BITS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
"""The bit of dot (x, y) of a braille cell, as BRAILLE_BITS[x][y]."""
HEAD_RADIUS = 1.6
"""A snake head's radius, in braille dots."""


def draw_jumps(board: Board, cell_width: int, cell_height: int) -> Art:
    """Every jump of ``board`` in braille, squares ``cell_width`` x ``cell_height``."""
    return _braille_art(board, jump_paths(board), cell_width, cell_height)


def _braille_art(board: Board, paths: Iterable[JumpPath], cell_width: int, cell_height: int) -> Art:
    scale_x, scale_y = 2 * cell_width, 4 * cell_height  # dots per square
    cells: dict[tuple[int, int], list[int]] = {}  # (line, column) -> [bits, jump]
    radius = math.ceil(HEAD_RADIUS)
    blot = [
        (dx, dy)
        for dy in range(-radius, radius + 1)
        for dx in range(-radius, radius + 1)
        if dx * dx + dy * dy <= HEAD_RADIUS * HEAD_RADIUS
    ]
    ends: dict[tuple[int, int], set[int]] = {}  # (row, col) of a square -> jumps ending there
    paths = list(paths)
    for index, path in enumerate(paths):
        for square in (path.jump.start, path.jump.end):
            ends.setdefault(board.position_of(square), set()).add(index)
    for index, path in enumerate(paths):
        dots: set[tuple[int, int]] = set()
        for stroke in path.strokes():
            scaled = [(x * scale_x, y * scale_y) for x, y in stroke]
            for (x0, y0), (x1, y1) in pairwise(scaled):
                steps = max(1, math.ceil(max(abs(x1 - x0), abs(y1 - y0))))
                dx, dy = (x1 - x0) / steps, (y1 - y0) / steps
                dots.update((int(x0 + dx * step), int(y0 + dy * step)) for step in range(steps + 1))
        if path.kind == "snake":
            hx, hy = int(path.start[0] * scale_x), int(path.start[1] * scale_y)
            dots.update((hx + dx, hy + dy) for dx, dy in blot)
        for x, y in dots:
            if x < 0 or y < 0:
                continue
            cell = cells.get((y >> 2, x >> 1))
            if cell is None:
                cell = cells[y >> 2, x >> 1] = [0, index]
            cell[0] |= BRAILLE_BITS[x & 1][y & 3]
            # The jump drawn last owns the cell (snakes over ladders), except on a
            # square where the owner starts or ends: there the jump's own end shows.
            mine = ends.get(((y >> 2) // cell_height, (x >> 1) // cell_width), set())
            if cell[1] not in mine or index in mine:
                cell[1] = index
    art: Art = {}
    for (line, column), (bits, index) in cells.items():
        art.setdefault(line, {})[column] = (chr(BRAILLE_BASE + bits), index)
    return art
