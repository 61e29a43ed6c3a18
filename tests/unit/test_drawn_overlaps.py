"""Printed and drawn jumps never hide another jump's head or foot or a square's number,
or ``snl check`` warns (issue 35): checked on every built-in board, stroke by stroke,
independently of the routing's own bookkeeping."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from snl_tui.core.board import Board
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.geometry import (
    END_RADIUS,
    STROKE_HALF_WIDTH,
    anchors,
    jump_paths,
    number_boxes,
)
from snl_tui.core.studio.checks import check_board, drawing_findings
from snl_tui.export.svg import board_svg


def crossings(board: Board) -> set[tuple[int, int, str]]:
    """(start, end, what) for every drawn stroke that comes within its half width of a
    square's number box or of another jump's end circle (not on its own squares)."""
    near: dict[tuple[int, int], list[tuple[str, int, tuple[float, ...]]]] = {}
    for square, box in number_boxes(board).items():
        row, col = board.position_of(square)
        near.setdefault((row, col), []).append((f"number {square}", 0, box))
    for (start, square), point in anchors(board).items():
        row, col = board.position_of(square)
        near.setdefault((row, col), []).append((f"end {start}@{square}", start, point))
    found = set()
    for path in jump_paths(board):
        half = STROKE_HALF_WIDTH[path.kind] * 0.9
        own = (path.jump.start, path.jump.end)
        for stroke in path.strokes():
            for (x0, y0), (x1, y1) in itertools.pairwise(stroke):
                steps = max(1, math.ceil(math.dist((x0, y0), (x1, y1)) / 0.03))
                for k in range(steps + 1):
                    px, py = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
                    row, col = math.floor(py), math.floor(px)
                    for key in itertools.product((row - 1, row, row + 1), (col - 1, col, col + 1)):
                        for what, start, shape in near.get(key, ()):
                            if start == 0:
                                bx0, by0, bx1, by1 = shape
                                dx, dy = max(bx0 - px, 0, px - bx1), max(by0 - py, 0, py - by1)
                                hit = dx * dx + dy * dy < half * half
                            else:
                                mine = start == path.jump.start or int(what.split("@")[1]) in own
                                reach = END_RADIUS * 0.9 + half
                                hit = not mine and math.dist((px, py), shape) < reach
                            if hit:
                                found.add((*own, what))
    return found


@pytest.mark.parametrize("name", builtin_names())
def test_no_drawn_jump_hides_a_number_or_an_end_unless_check_says_so(name: str) -> None:
    board = load_board(name)
    warned = {
        tuple(sorted((int(a), int(b))))
        for finding in drawing_findings(board)
        for a, b in [re.search(r"(\d+) -> (\d+)", finding.message).groups()]  # type: ignore[union-attr]
    }
    for start, end, what in crossings(board):
        assert tuple(sorted((start, end))) in warned, f"{name}: {start}->{end} hides {what}"


def test_check_notes_what_the_classic_page_still_hides() -> None:
    board = load_board("classic")
    report = check_board(board, drawing=True)
    assert not [w for w in report.warnings if w.kind == "jump-hides"]
    hides = [note for note in report.notes if note.startswith("drawing: ")]
    assert hides == [f"drawing: {finding.message}" for finding in drawing_findings(board)]
    assert crossings(board)  # the stroke-by-stroke check sees them too: it can fail
    assert hides and all("no route misses them" in note for note in hides)


def test_the_page_and_the_picture_draw_numbers_where_the_geometry_put_them() -> None:
    from snl_tui.core.geometry import number_box
    from snl_tui.export.picture import board_image

    board = load_board("classic")
    boxes = number_boxes(board)
    moved = [square for square, box in boxes.items() if box != number_box(board, square)]
    assert moved  # classic has some: jumps cross their usual corner
    svg = board_svg(board)
    # The page: the squares' rectangles (in square order), and each number's text at
    # the left of its box.
    squares = re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*stroke-width', svg)
    for square in moved:
        rect_x, width = map(float, squares[square - 1])
        _, col = board.position_of(square)
        found = re.search(rf'class="number" x="([\d.]+)"[^>]*>{square}</text>', svg)
        assert found is not None
        expected = rect_x + (boxes[square][0] - col + 0.02) * width
        assert float(found.group(1)) == pytest.approx(expected, abs=0.05)
    # The picture: digits in each moved number's new box.
    image = board_image(board, 1000, 1000)
    for square in moved:
        x0, y0, x1, y1 = (round(v * 100) for v in boxes[square])
        colours = image.crop((x0, y0, x1, y1)).getcolors(maxcolors=1 << 16) or []
        assert len(colours) > 8, square
