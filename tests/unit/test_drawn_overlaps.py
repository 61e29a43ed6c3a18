"""Printed and drawn jumps never hide another jump's head or foot or a square's number,
or ``snl check`` warns (issue 35): checked on every built-in board (which hide nothing)
and on random boards, stroke by stroke, independently of the routing's own model."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from hypothesis import given, settings

from snl_tui.core.board import Board
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.geometry import (
    END_RADIUS,
    STROKE_HALF_WIDTH,
    jump_paths,
    number_box,
    number_boxes,
)
from snl_tui.core.limits import CHECK_DRAWING_MAX_JUMPS
from snl_tui.core.studio.checks import check_board, drawing_findings
from snl_tui.export.svg import board_svg

from .strategies import boards

ONE_ROW = Board(1, 10, [(2, 9), (6, 5)])
"""A ladder along a one-square-high row over a snake's head and tail: no room for it."""


def crossings(board: Board) -> set[tuple[int, int, str]]:
    """(start, end, what) for every drawn stroke that comes within its half width of a
    square's number box (where the page prints it), of another jump's end circle (where
    the drawing put that end; not on the stroke's own squares) or off the board."""
    paths = jump_paths(board)
    near: dict[tuple[int, int], list[tuple[str, int, tuple[float, ...]]]] = {}
    for square, box in number_boxes(board).items():
        row, col = board.position_of(square)
        near.setdefault((row, col), []).append((f"number {square}", 0, box))
    for path in paths:
        for square, point in ((path.jump.start, path.start), (path.jump.end, path.end)):
            row, col = board.position_of(square)
            near.setdefault((row, col), []).append(
                (f"end {path.jump.start}@{square}", square, point)
            )
    found = set()
    for path in paths:
        half = STROKE_HALF_WIDTH[path.kind] * 0.9
        own = (path.jump.start, path.jump.end)
        for stroke in path.strokes():
            for (x0, y0), (x1, y1) in itertools.pairwise(stroke):
                steps = max(1, math.ceil(math.dist((x0, y0), (x1, y1)) / 0.03))
                for k in range(steps + 1):
                    px, py = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
                    if not (0 < px < board.cols and 0 < py < board.rows):
                        found.add((*own, "the board's edge"))
                    row, col = math.floor(py), math.floor(px)
                    for key in itertools.product((row - 1, row, row + 1), (col - 1, col, col + 1)):
                        for what, square, shape in near.get(key, ()):
                            if square == 0:
                                bx0, by0, bx1, by1 = shape
                                dx, dy = max(bx0 - px, 0, px - bx1), max(by0 - py, 0, py - by1)
                                hit = dx * dx + dy * dy < half * half
                            else:
                                reach = END_RADIUS * 0.9 + half
                                hit = square not in own and math.dist((px, py), shape) < reach
                            if hit:
                                found.add((*own, what))
    return found


def warned(board: Board) -> set[tuple[int, int]]:
    """The jumps ``snl check`` says are drawn over something."""
    pairs = set()
    for finding in drawing_findings(board):
        found = re.search(r"(\d+) -> (\d+)", finding.message)
        assert found is not None
        pairs.add(tuple(sorted((int(found.group(1)), int(found.group(2))))))
    return pairs  # type: ignore[return-value]


@pytest.mark.parametrize("name", builtin_names())
def test_no_built_in_board_hides_a_number_or_an_end(name: str) -> None:
    board = load_board(name)
    assert crossings(board) == set()
    assert drawing_findings(board) == []
    assert not [w for w in check_board(board, drawing=True).warnings if w.kind == "jump-hides"]


@settings(max_examples=25, deadline=None)
@given(boards(max_side=6))
def test_what_a_drawing_hides_is_what_check_warns_about(board: Board) -> None:
    hidden = {tuple(sorted((start, end))) for start, end, _ in crossings(board)}
    assert hidden <= warned(board)


def test_check_warns_when_no_route_avoids_an_overlap() -> None:
    assert crossings(ONE_ROW)  # the stroke-by-stroke check sees it too: it can fail
    report = check_board(ONE_ROW, drawing=True)
    hides = [w for w in report.warnings if w.kind == "jump-hides"]
    assert [w.message for w in hides] == [f.message for f in drawing_findings(ONE_ROW)]
    assert hides and hides[0].squares == (2, 9)
    assert "the ladder 2 -> 9 is drawn over" in hides[0].message
    assert "no route misses them" in hides[0].message
    # Without the drawing (what the generator's boards are held to), no such warning.
    assert not [w for w in check_board(ONE_ROW).warnings if w.kind == "jump-hides"]


def test_the_drawing_is_checked_only_within_its_bound() -> None:
    jumps = [(square, square + 1) for square in range(2, 2 * CHECK_DRAWING_MAX_JUMPS + 6, 2)]
    board = Board(20, 20, jumps)
    assert drawing_findings(board) == []
    notes = [note for note in check_board(board, drawing=True).notes if "drawing" in note]
    assert len(notes) == 1 and "left out" in notes[0]
    assert f"at most {CHECK_DRAWING_MAX_JUMPS} jumps" in notes[0]


def test_the_page_and_the_picture_draw_numbers_where_the_geometry_put_them() -> None:
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


@pytest.mark.parametrize("marks", ["route", "tokens"])
def test_route_steps_and_tokens_leave_every_number_whole(marks: str) -> None:
    """Wherever the routing moved a number, a route step or a token on its square sits
    elsewhere in the square: the number's pixels are the board's own."""
    from snl_tui.export.picture import Marks, board_image, frame_image

    board = load_board("classic")
    squares = tuple(range(1, board.goal + 1))
    laid = (
        Marks(route=squares)
        if marks == "route"
        else Marks(tokens={square: (0,) for square in squares}, letters=("A",))
    )
    plain = board_image(board, 1000, 1000)
    frame = frame_image(board, 1000, 1000, laid)
    changed = 0
    for square, box in number_boxes(board).items():
        x0, y0, x1, y1 = (round(v * 100) for v in box)
        before, after = plain.crop((x0, y0, x1, y1)), frame.crop((x0, y0, x1, y1))
        assert before.tobytes() == after.tobytes(), square
    for square in squares:  # and the marks were drawn at all
        x0, y0, x1, y1 = (round(v * 100) for v in board_square(board, square))
        changed += plain.crop((x0, y0, x1, y1)) != frame.crop((x0, y0, x1, y1))
    assert changed == board.goal


def board_square(board: Board, square: int) -> tuple[float, float, float, float]:
    row, col = board.position_of(square)
    return col, row, col + 1, row + 1
