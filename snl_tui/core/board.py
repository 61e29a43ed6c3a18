"""The board model: squares, their numbering, and the jumps (snakes and ladders).

Squares are numbered 1..rows*cols boustrophedonically from the bottom-left cell; in a
matrix given as a list of rows, row 0 is the TOP row. Position 0 means "off the board"
(the token before its first roll when ``Rules.start == 0``).

A ``Board`` is immutable and validated on construction: a bad board raises ``BoardError``
with a message naming the entry (``where``) and the square. The file loaders in
``formats`` add the file name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_not
from typing import TYPE_CHECKING, Literal, TypeVar

from .errors import BoardError
from .matrix import MAX_SIDE as MAX_SIDE
from .matrix import (
    cell_of,
    cell_where,
    check_dimensions,
    checked_array,
    checked_cells,
    matrix_shape,
)
from .rules import Rules
from .text import is_unsafe_char, quote

if TYPE_CHECKING:
    import numpy as np

JumpKind = Literal["ladder", "snake"]
_T = TypeVar("_T")


@dataclass(frozen=True)
class Jump:
    """One snake or ladder: landing on ``start`` moves the token to ``end``."""

    start: int
    end: int

    @property
    def kind(self) -> JumpKind:
        return "ladder" if self.end > self.start else "snake"

    @property
    def length(self) -> int:
        """Squares gained (positive, ladder) or lost (negative, snake)."""
        return self.end - self.start


@dataclass(frozen=True)
class JumpSpec:
    """A jump as written in a file, before validation.

    ``kind`` is what the file claims (a ``ladders`` or ``snakes`` list), ``where`` names the
    entry for error messages ("line 4", "ladders entry 2", "row 3, col 1").
    """

    start: int
    end: int
    kind: JumpKind | None = None
    where: str | None = None


def check_text(text: object, what: str, *, multiline: bool = False) -> str:
    """``text`` if it is a string fit for a name (or, ``multiline``, a description).

    A name or description is printed by the CLI and drawn by the TUI: an ESC or BEL in it
    could retitle the window or clear the screen, so control characters (C0, DEL, C1),
    line separators and bidirectional overrides are refused. Descriptions may hold line
    breaks and tabs (a long description in a TOML file). A name is one line without
    spaces at either end: the text format's ``# name:`` line could not carry more, and
    every format must give the same board back.
    """
    if not isinstance(text, str):
        raise BoardError(f"{what} must be text, not {quote(text)}")
    allowed = "\n\t" if multiline else ""
    for char in text:
        if is_unsafe_char(char, allowed):
            raise BoardError(f"{what} contains a control character ({quote(char)})")
    if not multiline and text != text.strip():
        raise BoardError(f"{what} starts or ends with a space: {quote(text)}")
    return text


class Board:
    """An immutable rows x cols board with its jumps and rules.

    One representation: the cells indexed by square (0..goal), each holding the
    destination of the jump starting there, or -1 (or the square's own number, as in a
    "resolved" LeetCode matrix) for none: a tuple (``cells``) or, for a large matrix,
    the int32 array it was checked in (``cell_array``), the other made on first use.
    Everything else (the jump dict, the engine's landing table, the solver's distances)
    is derived from them on first use and kept in a private memo (``derived``);
    attributes cannot be assigned after construction.
    """

    __slots__ = ("__weakref__", "_memo", "cols", "description", "name", "rows", "rules")

    rows: int
    cols: int
    rules: Rules
    name: str
    description: str
    _memo: dict[str, object]

    def __init__(
        self,
        rows: int,
        cols: int,
        jumps: Iterable[JumpSpec | tuple[int, int]] = (),
        *,
        rules: Rules | None = None,
        name: str = "",
        description: str = "",
    ) -> None:
        rows, cols = check_dimensions(rows, cols)
        goal = rows * cols
        table: dict[int, int] = {}
        for item in jumps:
            spec = item if isinstance(item, JumpSpec) else JumpSpec(*item)
            _check_jump(spec, goal, table)
            table[spec.start] = spec.end
        cells = [-1] * (goal + 1)
        for start, end in table.items():
            cells[start] = end
        self._set(rows, cols, tuple(cells), rules, name, description)
        self._memo["jumps"] = dict(sorted(table.items()))
        if self.rules.chain:
            _check_no_cycle(self._jumps)

    def _set(
        self,
        rows: int,
        cols: int,
        cells: tuple[int, ...] | None,
        rules: Rules | None,
        name: str,
        description: str,
    ) -> None:
        rules = rules if rules is not None else Rules()
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a Rules value")
        check_text(name, "the name")
        check_text(description, "the description", multiline=True)
        for attribute, value in (
            ("rows", rows),
            ("cols", cols),
            ("rules", rules),
            ("name", name),
            ("description", description),
            ("_memo", {} if cells is None else {"cells": cells}),
        ):
            object.__setattr__(self, attribute, value)

    def __setattr__(self, attribute: str, value: object) -> None:
        raise AttributeError(f"a Board is immutable: cannot set {attribute!r}")

    def __delattr__(self, attribute: str) -> None:
        raise AttributeError(f"a Board is immutable: cannot delete {attribute!r}")

    def derived(self, key: str, compute: Callable[[Board], _T]) -> _T:
        """``compute(self)``, computed once per board and remembered under ``key``.

        For values that follow from the board alone (the engine's landing table, the
        solver's distances): the board never changes, so neither do they.
        """
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[return-value]
        value = compute(self)
        memo[key] = value
        return value

    @property
    def cells(self) -> tuple[int, ...]:
        """Index s: the destination of the jump on square s, or -1 / s for none."""
        return self.derived("cells", _cells_of_array)

    def cell_array(self) -> np.ndarray:
        """``cells`` as a read-only numpy int32 array (kept; ``from_matrix`` builds it
        while checking a large matrix)."""
        return self.derived("cells.array", _cell_array)

    def has_derived(self, key: str) -> bool:
        """Whether ``derived(key, ...)`` has been computed already (it returns at once)."""
        return key in self._memo

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_matrix(
        cls,
        matrix: Sequence[Sequence[int]],
        rules: Rules | None = None,
        *,
        name: str = "",
        description: str = "",
    ) -> Board:
        """A board from a LeetCode 909 matrix (list of rows, row 0 on top).

        ``-1`` means no jump; so does a cell holding its own square number (the
        "resolved" board, where every cell says where a token landing there ends up).
        """
        rows, cols = matrix_shape(matrix)
        goal = rows * cols
        board = cls.__new__(cls)
        if goal > ARRAY_CHECK_SQUARES:
            # The cells as an int32 array, checked in numpy; the tuple is made from it
            # only if someone asks for ``cells`` (a large board's search reads the array).
            array = checked_array(matrix, rows, cols)
            last = int(array[goal])
            board._set(rows, cols, None, rules, name, description)
            board._memo["cells.array"] = array
        else:
            cells = checked_cells(matrix, rows, cols)
            last = cells[goal]
            board._set(rows, cols, cells, rules, name, description)
        if last not in (-1, goal):
            raise BoardError(
                f"a jump cannot start on the goal (square {goal})",
                where=cell_where(rows, cols, goal),
            )
        if board.rules.chain:
            _check_no_cycle(board._jumps)
        return board

    @classmethod
    def from_jumps(
        cls,
        rows: int,
        cols: int,
        *,
        ladders: Iterable[tuple[int, int]] = (),
        snakes: Iterable[tuple[int, int]] = (),
        rules: Rules | None = None,
        name: str = "",
        description: str = "",
    ) -> Board:
        """A board from ladder and snake lists; a snake listed as a ladder is an error."""
        specs = [
            JumpSpec(a, b, "ladder", f"ladders entry {i + 1}") for i, (a, b) in enumerate(ladders)
        ]
        specs += [
            JumpSpec(a, b, "snake", f"snakes entry {i + 1}") for i, (a, b) in enumerate(snakes)
        ]
        return cls(rows, cols, specs, rules=rules, name=name, description=description)

    def with_rules(self, rules: Rules) -> Board:
        """The same squares and jumps under other rules (re-validated: chains may cycle)."""
        return self.with_jumps(self._jumps.items(), rules=rules)

    def with_jumps(
        self, jumps: Iterable[JumpSpec | tuple[int, int]], *, rules: Rules | None = None
    ) -> Board:
        """A board of the same size, name and description with other jumps (and rules)."""
        return Board(
            self.rows,
            self.cols,
            jumps,
            rules=rules if rules is not None else self.rules,
            name=self.name,
            description=self.description,
        )

    # -- geometry ----------------------------------------------------------------------

    @property
    def goal(self) -> int:
        """The last square: reaching it wins."""
        return self.rows * self.cols

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def position_of(self, square: int) -> tuple[int, int]:
        """(row, col) of a square in matrix terms: row 0 is the top row."""
        if not 1 <= square <= self.goal:
            raise ValueError(f"square {square} is not on the board (1..{self.goal})")
        return cell_of(self.rows, self.cols, square)

    def square_at(self, row: int, col: int) -> int:
        """The square number of a matrix cell (row 0 is the top row)."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"cell ({row}, {col}) is not on the board")
        level = self.rows - 1 - row
        offset = col if level % 2 == 0 else self.cols - 1 - col
        return level * self.cols + offset + 1

    # -- jumps -------------------------------------------------------------------------

    @property
    def _jumps(self) -> dict[int, int]:
        """start -> destination in square order (derived from ``cells`` once)."""
        return self.derived("jumps", _jump_dict)

    @property
    def jumps(self) -> dict[int, int]:
        """A copy of start -> destination for every jump."""
        return dict(self._jumps)

    def jump_at(self, square: int) -> Jump | None:
        end = self._jumps.get(square)
        return None if end is None else Jump(square, end)

    @property
    def ladders(self) -> list[Jump]:
        return [Jump(a, b) for a, b in self._jumps.items() if b > a]

    @property
    def snakes(self) -> list[Jump]:
        return [Jump(a, b) for a, b in self._jumps.items() if b < a]

    def to_matrix(self, resolved: bool = False) -> list[list[int]]:
        """The LeetCode 909 matrix (row 0 on top); ``resolved`` puts own numbers for -1."""
        matrix = []
        for row in range(self.rows):
            cells = []
            for col in range(self.cols):
                s = self.square_at(row, col)
                cells.append(self._jumps.get(s, s if resolved else -1))
            matrix.append(cells)
        return matrix

    # -- value semantics ---------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (self.rows, self.cols, tuple(self._jumps.items()), self.rules)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return self.derived("hash", lambda board: hash(board._key()))

    def __reduce__(self) -> tuple[object, ...]:
        # Slots and a refusing __setattr__: pickle and copy rebuild through __init__.
        return (
            _rebuild,
            (
                self.rows,
                self.cols,
                tuple(self._jumps.items()),
                self.rules,
                self.name,
                self.description,
            ),
        )

    def __repr__(self) -> str:
        label = f" {quote(self.name)}" if self.name else ""
        return (
            f"<Board{label} {self.rows}x{self.cols} ladders={len(self.ladders)} "
            f"snakes={len(self.snakes)} {self.rules}>"
        )


def _rebuild(
    rows: int,
    cols: int,
    jumps: tuple[tuple[int, int], ...],
    rules: Rules,
    name: str,
    description: str,
) -> Board:
    return Board(rows, cols, jumps, rules=rules, name=name, description=description)


def _jump_dict(board: Board) -> dict[int, int]:
    if not board.has_derived("cells"):  # a large matrix's array: no tuple made for this
        import numpy as np

        array = board.cell_array()
        starts = np.flatnonzero((array != -1) & (array != np.arange(len(array))))
        return dict(zip(starts.tolist(), array[starts].tolist(), strict=True))
    cells = board.cells
    marked = compress(range(len(cells)), map(is_not, cells, repeat(-1)))
    return {s: v for s in marked if (v := cells[s]) != s and v != -1}


ARRAY_CHECK_SQUARES = 10_000
"""A matrix of more squares than this is checked in numpy (``matrix.checked_array``)."""


def _cell_array(board: Board) -> np.ndarray:
    import numpy as np

    array = np.array(board.cells, dtype=np.int32)
    array.flags.writeable = False
    return array


def _cells_of_array(board: Board) -> tuple[int, ...]:
    return tuple(board.cell_array().tolist())


def _check_jump(spec: JumpSpec, goal: int, seen: dict[int, int]) -> None:
    start, end, where = spec.start, spec.end, spec.where
    for value in (start, end):
        if type(value) is not int:
            raise BoardError(f"jump squares must be whole numbers, not {quote(value)}", where=where)
    if not 1 <= start <= goal:
        raise BoardError(f"jump start {start} is outside the board (1..{goal})", where=where)
    if not 1 <= end <= goal:
        raise BoardError(
            f"jump {start} -> {end}: destination {end} is outside the board (1..{goal})",
            where=where,
        )
    if start == goal:
        raise BoardError(f"a jump cannot start on the goal (square {goal})", where=where)
    if start == end:
        raise BoardError(f"jump {start} -> {end} goes nowhere", where=where)
    if spec.kind == "ladder" and end < start:
        raise BoardError(f"{start} -> {end} goes down: that is a snake, not a ladder", where=where)
    if spec.kind == "snake" and end > start:
        raise BoardError(f"{start} -> {end} goes up: that is a ladder, not a snake", where=where)
    if start in seen:
        raise BoardError(
            f"two jumps start on square {start} (to {seen[start]} and to {end})", where=where
        )


def _check_no_cycle(jumps: dict[int, int]) -> None:
    """Under ``chain = true`` a cycle of jumps would never stop: reject it.

    Linear: every jump is walked at most once (``done`` holds the squares already known
    to lead out of every chain).
    """
    done: set[int] = set()
    for first in jumps:
        path: list[int] = []
        on_path: set[int] = set()
        square = first
        while square in jumps and square not in done:
            if square in on_path:
                cycle = [*path[path.index(square) :], square]
                raise BoardError(
                    "jump cycle under chain = true: " + " -> ".join(map(str, cycle)),
                    where=f"square {square}",
                )
            on_path.add(square)
            path.append(square)
            square = jumps[square]
        done.update(path)
