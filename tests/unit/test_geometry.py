"""The shared jump geometry and its braille drawing: every jump runs between its own
squares, ladders have parallel rails, and the terminal drawing reaches both ends."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

from snl_tui.core.board import Board
from snl_tui.core.cells import cell_width, cut_cells, pad_cells
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.geometry import LADDER_HALF_WIDTH, jump_paths
from snl_tui.widgets.jump_art import draw_jumps

from .strategies import boards


def inside(board: Board, square: int, point: tuple[float, float]) -> bool:
    row, col = board.position_of(square)
    x, y = point
    return col <= x <= col + 1 and row <= y <= row + 1


def check_paths(board: Board) -> None:
    paths = jump_paths(board)
    assert sorted((p.jump.start, p.jump.end) for p in paths) == sorted(board.jumps.items())
    for path in paths:
        jump = path.jump
        assert inside(board, jump.start, path.start) and inside(board, jump.end, path.end)
        assert path.body[0] == pytest.approx(path.start, abs=1e-9)
        assert path.body[-1] == pytest.approx(path.end, abs=1e-9)
        if path.kind == "ladder":
            left, right = path.rails
            assert len(left) == len(right) == len(path.body)
            for a, b, centre in zip(left, right, path.body, strict=True):
                # Parallel rails, either side of the curve, the ladder's width apart.
                assert math.dist(a, b) == pytest.approx(2 * LADDER_HALF_WIDTH, abs=1e-9)
                assert math.dist(a, centre) == pytest.approx(LADDER_HALF_WIDTH, abs=1e-9)
        else:
            assert not path.rails and len(path.body) > 8  # a curve, not a line
    # Jumps meeting on a square meet it at different points.
    ends = [(p.jump.start, p.start) for p in paths] + [(p.jump.end, p.end) for p in paths]
    by_square: dict[int, list[tuple[float, float]]] = {}
    for square, point in ends:
        by_square.setdefault(square, []).append(point)
    for points in by_square.values():
        assert len(set(points)) == len(points)


@pytest.mark.parametrize("name", builtin_names())
def test_builtin_boards(name: str) -> None:
    check_paths(load_board(name))


@settings(max_examples=40, deadline=None)
@given(boards())
def test_any_board(board: Board) -> None:
    check_paths(board)


@pytest.mark.parametrize("name", ["classic", "everest", "river"])
@pytest.mark.parametrize(("width", "height"), [(9, 3), (5, 2)])
def test_the_braille_drawing_reaches_both_squares_of_every_jump(
    name: str, width: int, height: int
) -> None:
    board = load_board(name)
    art = draw_jumps(board, width, height)
    owned: dict[int, set[tuple[int, int]]] = {}
    for line, columns in art.items():
        for column, (char, index) in columns.items():
            assert 0x2800 < ord(char) <= 0x28FF
            owned.setdefault(index, set()).add((line // height, column // width))
    for index, path in enumerate(jump_paths(board)):
        cells = owned.get(index, set())
        for square in (path.jump.start, path.jump.end):
            assert board.position_of(square) in cells, (path.jump, square)


def test_cell_widths() -> None:
    assert cell_width("abc") == 3
    assert cell_width("小明") == 4
    assert cell_width("e\u0301") == 1  # a combining accent takes no cell
    assert cut_cells("小明x", 3) == "小"
    assert pad_cells("小", 4) == "小  " and pad_cells("7", 3, right=True) == "  7"
