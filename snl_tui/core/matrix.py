"""A LeetCode 909 matrix read into cells in square order, and checked: its size, its
shape, every cell a whole number on the board; a bad one is named (row, column and
square), the first in square order. Squares are numbered here (``cell_of``).

Two checks with the same answers: ``checked_cells`` scans Python lists (a small
board), ``checked_array`` reads a large one into numpy with no Python step per cell
(CPython lists: their item pointers, a cell that is not the shared -1 read in Python;
otherwise through ``marshal``). A property test holds them to the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

from .errors import BoardError
from .text import quote

if TYPE_CHECKING:
    import numpy as np

MAX_SIDE = 1000
"""The longest side of a board (1000 x 1000: a million squares)."""


def check_dimensions(rows: object, cols: object, where: str | None = None) -> tuple[int, int]:
    """Validate a board's size; returns it as ints or raises BoardError."""
    for label, value in (("rows", rows), ("cols", cols)):
        if type(value) is not int:
            raise BoardError(f"{label} must be a whole number, not {quote(value)}", where=where)
        if value < 1:
            raise BoardError(f"{label} must be at least 1, not {quote(value)}", where=where)
        if value > MAX_SIDE:
            raise BoardError(
                f"board is too large: {label} = {quote(value)} (at most {MAX_SIDE} x {MAX_SIDE})",
                where=where,
            )
    if rows * cols < 2:  # type: ignore[operator]
        raise BoardError("a board needs at least 2 squares", where=where)
    return rows, cols  # type: ignore[return-value]


def matrix_shape(matrix: object) -> tuple[int, int]:
    """(rows, cols) of a matrix whose every row is a list of ``cols`` cells, or the
    BoardError for the first row (from the bottom, in square order) that is not."""
    if not isinstance(matrix, Sequence) or isinstance(matrix, str | bytes):
        raise BoardError("a board matrix must be a list of rows")
    rows = len(matrix)
    if rows == 0:
        raise BoardError("the board matrix is empty")
    first = matrix[0]
    if not isinstance(first, Sequence) or isinstance(first, str | bytes):
        raise BoardError("row 0 is not a list of cells", where="row 0")
    cols = len(first)
    if cols == 0:
        raise BoardError("row 0 is empty", where="row 0")
    check_dimensions(rows, cols)
    for r in range(rows - 1, -1, -1):
        row = matrix[r]
        if not isinstance(row, Sequence) or isinstance(row, str | bytes):
            raise BoardError(f"row {r} is not a list of cells", where=f"row {r}")
        if len(row) != cols:
            raise BoardError(
                f"ragged matrix: row {r} has {len(row)} cells, row 0 has {cols}",
                where=f"row {r}",
            )
    return rows, cols


def _flat_cells(matrix: Sequence[Sequence[object]], rows: int) -> list[object]:
    """The cells in square order: index s holds the cell of square s (index 0, "off
    the board", holds -1: no jump)."""
    flat: list[object] = [-1]
    for level in range(rows):
        row = matrix[rows - 1 - level]
        flat.extend(row if level % 2 == 0 else reversed(row))
    return flat


def checked_cells(matrix: Sequence[Sequence[object]], rows: int, cols: int) -> tuple[int, ...]:
    """The cells in square order, checked with C-level scans over their types and
    values; only when they find a problem does a Python loop look for the first bad
    cell (``_raise_first_bad_cell``)."""
    flat = _flat_cells(matrix, rows)
    if set(map(type, flat)) != {int}:
        _raise_first_bad_cell(flat, rows, cols)
    values: set[int] = set(flat)  # type: ignore[arg-type]  # all ints (the line above)
    if min(values) < -1 or max(values) > rows * cols or 0 in values:
        _raise_first_bad_cell(flat, rows, cols)
    return tuple(flat)  # type: ignore[arg-type]  # all ints: checked


MARSHAL_INT = ord("i")
"""marshal's tag for an int that fits in 32 bits (format version 2: no back-references)."""
MARSHAL_SEQUENCES = (b"[", b"(")
"""marshal's tags for a list and a tuple (a matrix or a row), each followed by its
length in 4 bytes."""
MARSHAL_ROW_TAGS = [ord(tag) for tag in MARSHAL_SEQUENCES]


def checked_array(matrix: Sequence[Sequence[object]], rows: int, cols: int) -> np.ndarray:
    """The cells in square order as a read-only int32 array, or the BoardError for the
    first bad cell: the same answer as ``checked_cells``, without a Python step per cell.

    A matrix of plain lists whose cells are good is read by identity first
    (``_read_by_identity``). Otherwise ``marshal`` writes the matrix in one C pass, an
    exact ``int`` of 32 bits as the tag ``i`` and 4 bytes, anything else otherwise (a
    bool, a float, a long int, text, ...; a subclass or an object it does not know
    refuses). So when the bytes are exactly the
    rows of ``cols`` five-byte ``i`` records, every cell is a whole number and the
    records are the array, read in place by numpy; then a bad value is found in numpy
    too. Anything else goes to the plain check, which names the first bad cell."""
    import marshal

    import numpy as np

    by_identity = _read_by_identity(matrix, rows, cols)
    if by_identity is not None:
        return by_identity
    try:
        data = marshal.dumps(matrix, 2)  # type: ignore[arg-type]  # refused: ValueError
    except ValueError:  # a row or a cell marshal refuses (a subclass, another sequence)
        data = b""
    stride = 5 + 5 * cols  # a row: its tag and length, then its cells' records
    if len(data) == 5 + rows * stride:

        def field(
            offset: int, dtype: str, shape: tuple[int, ...], steps: tuple[int, ...]
        ) -> np.ndarray:
            return np.ndarray(shape, dtype, buffer=data, offset=offset, strides=steps)

        row_tags = field(5, "u1", (rows,), (stride,))
        row_lengths = field(6, "<u4", (rows,), (stride,))
        tags = field(10, "u1", (rows, cols), (stride, 5))
        if (
            data[:1] in MARSHAL_SEQUENCES
            and np.isin(row_tags, MARSHAL_ROW_TAGS).all()
            and (row_lengths == cols).all()
            and (tags == MARSHAL_INT).all()
        ):
            grid = field(11, "<i4", (rows, cols), (stride, 5))
            return _checked_squares(grid, rows, cols)
    flat = _flat_cells(matrix, rows)
    _raise_first_bad_cell(flat, rows, cols)  # a row marshal refused may be all good
    array = np.array(flat, dtype=np.int32)
    array.flags.writeable = False
    return array


def _checked_squares(grid: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The whole-number ``grid`` (row 0 on top) in square order as a read-only int32
    array, or the BoardError for its first cell off the board."""
    import numpy as np

    goal = rows * cols
    array = np.empty(goal + 1, dtype=np.int32)
    array[0] = -1
    squares = array[1:].reshape(rows, cols)
    grid = grid[::-1]  # bottom row first
    squares[0::2] = grid[0::2]
    squares[1::2] = grid[1::2, ::-1]  # every other row runs right to left
    if array.min() < -1 or array.max() > goal or not array[1:].all():
        bad = (array < -1) | (array > goal) | (array == 0)
        square = int(np.argmax(bad[1:])) + 1
        raise _bad_cell(int(array[square]), square, rows, cols)
    array.flags.writeable = False
    return array


NO_JUMP = int("-1")
"""-1 as CPython keeps it (one shared object for every small int): the cell most of a
matrix holds, recognised by identity in ``_read_by_identity``."""


def _list_items_offset() -> int | None:
    """Where a CPython list keeps the address of its item pointers (``ob_item``, just
    after the variable-size object header, which is all of a tuple's fixed part), or
    None where that does not hold: another interpreter, a free-threaded build (another
    thread could move the items while they are read), another layout (then the probe,
    two known objects read back by address, disagrees)."""
    import ctypes
    import sys
    import sysconfig

    pointer = ctypes.sizeof(ctypes.c_void_p)
    if (
        sys.implementation.name != "cpython"
        or sysconfig.get_config_var("Py_GIL_DISABLED")
        or list.__basicsize__ != tuple.__basicsize__ + 2 * pointer
        or tuple.__itemsize__ != pointer
    ):
        return None
    offset = tuple.__basicsize__
    probe = [object(), object()]
    items = ctypes.c_void_p.from_address(id(probe) + offset).value
    if items is None:
        return None
    read = (ctypes.c_void_p * 2).from_address(items)
    return offset if (read[0], read[1]) == (id(probe[0]), id(probe[1])) else None


ODD_CELLS_READ = 0.03
"""``_read_by_identity`` reads at most this share of the cells one by one (each ~0.3 µs,
mostly a cache miss, where ``marshal`` of the whole matrix takes ~0.015 µs a cell)."""

_ITEMS_OFFSET: list[int | None] = []
"""``_list_items_offset()``, found on first use."""


def _read_by_identity(
    matrix: Sequence[Sequence[object]], rows: int, cols: int
) -> np.ndarray | None:
    """``checked_array``'s answer for a matrix of plain lists, read at the speed of a
    memory scan, or None (then the ``marshal`` check decides).

    Most cells of a board are -1, and in CPython every -1 int is one shared object. So
    each row's item pointers are seen in place by numpy (a view, no copy, no Python
    step per cell) and compared with that object's address: the cells at another
    address (a row's in one ``itemgetter`` call) go through ``marshal`` and must be
    plain ``int``s on the board. Only a matrix whose every such cell is good is
    answered here: any other (a float -1.0, a bool, an int subclass, a value off the
    board) returns None and the exact check names it."""
    import ctypes
    import marshal

    import numpy as np

    if not _ITEMS_OFFSET:
        _ITEMS_OFFSET.append(_list_items_offset())
    offset = _ITEMS_OFFSET[0]
    if offset is None:
        return None
    items_of = ctypes.c_void_p.from_address
    row_items = ctypes.c_char * (cols * ctypes.sizeof(ctypes.c_void_p))
    other = np.empty((rows, cols), dtype=bool)  # a cell that is not the shared -1
    no_jump = np.uintp(id(NO_JUMP))
    sample = min(rows, 32)  # after these rows, a dense matrix leaves for marshal
    for r in range(rows):
        if r == sample and np.count_nonzero(other[:r]) > r * cols * ODD_CELLS_READ:
            return None
        row = matrix[r]
        if type(row) is not list or len(row) != cols:
            return None
        items = items_of(id(row) + offset).value
        if items is None:
            return None
        pointers = np.frombuffer(memoryview(row_items.from_address(items)), np.uintp)
        np.not_equal(pointers, no_jump, out=other[r])
    per_row = np.count_nonzero(other, axis=1)
    if int(per_row.sum()) > rows * cols * ODD_CELLS_READ:
        return None  # many cells to read one by one: marshal's pass is quicker
    at_row, at_col = np.nonzero(other)
    columns = at_col.tolist()
    values: list[object] = []
    done = 0
    for r, odd in enumerate(per_row.tolist()):  # each row's odd cells in one C call
        if odd == 1:
            values.append(matrix[r][columns[done]])
        elif odd:
            values.extend(itemgetter(*columns[done : done + odd])(matrix[r]))
        done += odd
    # The odd cells through marshal (as in checked_array): each a five-byte record
    # tagged ``i`` exactly when each is a plain int of 32 bits.
    goal, count = rows * cols, len(values)
    try:
        data = marshal.dumps(values or [-1], 2)
    except ValueError:  # an int subclass, an object marshal does not know
        return None
    if len(data) != 5 + 5 * max(count, 1):
        return None
    tags = np.ndarray((count,), "u1", buffer=data, offset=5, strides=(5,))
    if not (tags == MARSHAL_INT).all():
        return None
    cells = np.ndarray((count,), "<i4", buffer=data, offset=6, strides=(5,))
    if count and (cells.min() < -1 or cells.max() > goal or not cells.all()):
        return None
    level = rows - 1 - at_row  # counted from the bottom row
    along = np.where(level % 2 == 0, at_col, cols - 1 - at_col)  # odd levels run leftwards
    array = np.full(goal + 1, -1, dtype=np.int32)
    array[level * cols + along + 1] = cells
    array.flags.writeable = False
    return array


def cell_of(rows: int, cols: int, square: int) -> tuple[int, int]:
    """(row, col) of a square, row 0 on top: the one place the numbering is decoded."""
    level, offset = divmod(square - 1, cols)
    col = offset if level % 2 == 0 else cols - 1 - offset
    return rows - 1 - level, col


def cell_where(rows: int, cols: int, square: int) -> str:
    row, col = cell_of(rows, cols, square)
    return f"row {row}, col {col} (square {square})"


def _raise_first_bad_cell(flat: list[object], rows: int, cols: int) -> None:
    """The BoardError for the first cell (in square order) that is not a whole number
    or is off the board; returns when there is none."""
    for s in range(1, rows * cols + 1):
        value = flat[s]
        if type(value) is not int or (value != -1 and not 1 <= value <= rows * cols):
            raise _bad_cell(value, s, rows, cols)


def _bad_cell(value: object, square: int, rows: int, cols: int) -> BoardError:
    where = cell_where(rows, cols, square)
    if type(value) is not int:
        return BoardError(f"cell is not a whole number: {quote(value)}", where=where)
    goal = rows * cols
    return BoardError(f"destination {quote(value)} is outside the board (1..{goal})", where=where)
