"""A large matrix is checked in numpy (``matrix.checked_array``, read off ``marshal``'s
bytes): it must say exactly what the plain check says, cell for cell, message for
message, or build the same board."""

from enum import IntEnum
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core import board as board_module
from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError


class Face(IntEnum):
    BACK = -1
    THREE = 3


class Whole(int):
    """An int subclass: not a plain whole number to the check."""


GOOD = st.one_of(st.just(-1), st.integers(1, 30))
ODD = st.one_of(
    st.integers(-3, 0),
    st.booleans(),
    st.floats(allow_nan=False, width=32) | st.sampled_from([2.0, -1.0, 1.0]),
    st.integers(2**31 - 3, 2**64) | st.integers(-(2**64), -(2**31) + 3),
    st.text(max_size=2),
    st.binary(max_size=2),
    st.none(),
    st.lists(st.integers(-1, 3), max_size=2),
    st.tuples(st.integers(-1, 3)),
    st.sampled_from([Face.THREE, Face.BACK, Whole(2), Whole(-1), 3 + 0j]),
)


@st.composite
def matrices(draw: st.DrawFn) -> list[object]:
    """Mostly well-formed matrices, some with an odd cell or an odd row."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    goal = rows * cols
    cell = st.one_of(st.just(-1), st.integers(1, goal), GOOD) if draw(st.booleans()) else GOOD
    odd = draw(st.integers(0, 3))  # how many odd cells or rows
    matrix: list[object] = [draw(st.lists(cell, min_size=cols, max_size=cols)) for _ in range(rows)]
    for _ in range(odd):
        r = draw(st.integers(0, rows - 1))
        kind = draw(st.sampled_from(["cell", "cell", "cell", "ragged", "tuple", "text", "range"]))
        row = matrix[r]
        if not isinstance(row, list) or len(row) != cols:  # made odd already
            continue
        if kind == "cell":
            row[draw(st.integers(0, cols - 1))] = draw(ODD)
        elif kind == "ragged":
            matrix[r] = [*row, -1] if draw(st.booleans()) else row[:-1]
        elif kind == "tuple":
            matrix[r] = tuple(row)
        elif kind == "text":
            matrix[r] = "-1" * cols
        else:
            matrix[r] = range(-1, -1 + cols)
    return matrix if draw(st.booleans()) else tuple(matrix)  # type: ignore[return-value]


def outcome(matrix: object, array_from: int) -> tuple[object, ...]:
    """What ``Board.from_matrix`` makes of ``matrix`` when the array check starts past
    ``array_from`` squares: the error's text, or the board's cells and jumps."""
    with mock.patch.object(board_module, "ARRAY_CHECK_SQUARES", array_from):
        try:
            board = Board.from_matrix(matrix)  # type: ignore[arg-type]
        except BoardError as error:
            return ("error", str(error))
        return ("board", board.cells, board.jumps, board.cell_array().tolist())


@settings(max_examples=400)
@given(matrices())
def test_the_array_check_says_what_the_plain_check_says(matrix: list[object]) -> None:
    assert outcome(matrix, 0) == outcome(matrix, 10**9)


def test_a_large_matrix_names_its_first_bad_cell_in_square_order() -> None:
    """Two bad cells: the one on the lower square is named, whichever kind it is."""
    n = 120
    for early, late in ((0, "x"), ("x", 0), (2.5, 10**9), (n * n + 1, True)):
        matrix: list[list[object]] = [[-1] * n for _ in range(n)]
        matrix[n - 1][5] = early  # square 6, on the bottom row
        matrix[0][3] = late  # a square on the top row
        plain = outcome(matrix, 10**9)
        assert plain == outcome(matrix, 0) == outcome(matrix, board_module.ARRAY_CHECK_SQUARES)
        assert "row 119, col 5 (square 6)" in str(plain[1])


def test_cells_equal_to_minus_one_but_not_ints_are_refused_on_a_large_board() -> None:
    """A large matrix of lists is read by the identity of its cells (most are the one
    shared -1): a cell equal to -1 that is not a plain int is still named."""
    n = 101
    for odd in (-1.0, Whole(-1), Face.BACK, False, int("-1")):
        matrix: list[list[object]] = [[-1] * n for _ in range(n)]
        matrix[50][7] = odd
        plain = outcome(matrix, 10**9)
        assert plain == outcome(matrix, board_module.ARRAY_CHECK_SQUARES)
        assert (plain[0] == "board") == (type(odd) is int)


def test_a_large_matrix_of_lists_is_read_without_marshal() -> None:
    """The fast read answers a good matrix of lists on its own (``marshal`` sees only
    its odd cells; the whole matrix is the fallback); the same cells as the plain
    check."""
    import marshal

    from snl_tui.core import matrix as matrix_module

    n = 101
    matrix = [
        [(r * n + c) % (n * n) + 1 if (r * n + c) % 50 == 0 else -1 for c in range(n)]
        for r in range(n)
    ]
    matrix[n - 1][0] = matrix[0][n - 1] = -1
    dumps = marshal.dumps

    def cells_only(value: object, version: int) -> bytes:
        assert value is not matrix, "the whole matrix went through marshal"
        return dumps(value, version)

    with mock.patch.object(marshal, "dumps", cells_only):
        fast = matrix_module.checked_array(matrix, n, n)
    assert fast.tolist() == outcome(matrix, 10**9)[3]
    assert not fast.flags.writeable
    with mock.patch.object(matrix_module, "_ITEMS_OFFSET", [None]):  # another Python
        assert matrix_module.checked_array(matrix, n, n).tolist() == fast.tolist()
    dense = [[(r * n + c) % (n * n) + 1 if c % 3 == 0 else -1 for c in range(n)] for r in range(n)]
    dense[n - 1][0] = dense[0][n - 1] = -1  # a third of the cells: marshal reads them
    assert matrix_module.checked_array(dense, n, n).tolist() == outcome(dense, 10**9)[3]
