"""The board model: squares, their numbering, and the jumps (snakes and ladders).

Squares are numbered 1..rows*cols boustrophedonically from the bottom-left cell; in a
matrix given as a list of rows, row 0 is the TOP row. Position 0 means "off the board"
(the token before its first roll when ``Rules.start == 0``).

A ``Board`` is immutable and validated on construction: a bad board raises ``BoardError``
with a message naming the entry (``where``) and the square. The file loaders in
``formats`` add the file name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress, repeat
from operator import is_not
from typing import Literal

from .errors import BoardError
from .rules import Rules

MAX_SIDE = 1000
JumpKind = Literal["ladder", "snake"]


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


def check_dimensions(rows: object, cols: object, where: str | None = None) -> tuple[int, int]:
    """Validate a board's size; returns it as ints or raises BoardError."""
    for label, value in (("rows", rows), ("cols", cols)):
        if type(value) is not int:
            raise BoardError(f"{label} must be a whole number, not {value!r}", where=where)
        if value < 1:
            raise BoardError(f"{label} must be at least 1, not {value}", where=where)
        if value > MAX_SIDE:
            raise BoardError(
                f"board is too large: {label} = {value} (at most {MAX_SIDE} x {MAX_SIDE})",
                where=where,
            )
    if rows * cols < 2:  # type: ignore[operator]
        raise BoardError("a board needs at least 2 squares", where=where)
    return rows, cols  # type: ignore[return-value]


class Board:
    """An immutable rows x cols board with its jumps and rules."""

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
        self.rows, self.cols = check_dimensions(rows, cols)
        self.rules = rules if rules is not None else Rules()
        if not isinstance(self.rules, Rules):
            raise TypeError("rules must be a Rules value")
        self.name = name
        self.description = description
        goal = self.rows * self.cols
        table: dict[int, int] = {}
        for item in jumps:
            spec = item if isinstance(item, JumpSpec) else JumpSpec(*item)
            _check_jump(spec, goal, table)
            table[spec.start] = spec.end
        self._jumps = dict(sorted(table.items()))
        if self.rules.chain:
            _check_no_cycle(self._jumps)

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
        # Flatten in square order: index s holds the cell of square s (index 0, "off the
        # board", holds -1: no jump).
        flat: list[object] = [-1]
        for level in range(rows):
            r = rows - 1 - level
            row = matrix[r]
            if not isinstance(row, Sequence) or isinstance(row, str | bytes):
                raise BoardError(f"row {r} is not a list of cells", where=f"row {r}")
            if len(row) != cols:
                raise BoardError(
                    f"ragged matrix: row {r} has {len(row)} cells, row 0 has {cols}",
                    where=f"row {r}",
                )
            flat.extend(row if level % 2 == 0 else reversed(row))
        goal = rows * cols
        # Validate with C-level scans over the cell types and the distinct values; only
        # when they find a problem does a Python loop look for the first bad cell.
        values = set(flat)
        if (
            set(map(type, flat)) != {int}
            or min(values) < -1  # type: ignore[type-var]
            or max(values) > goal  # type: ignore[type-var]
            or 0 in values
        ):
            _raise_first_bad_cell(flat, rows, cols)
        if flat[goal] not in (-1, goal):
            raise BoardError(
                f"a jump cannot start on the goal (square {goal})",
                where=_cell_where(rows, cols, goal),
            )
        board = cls.__new__(cls)
        board.rows, board.cols = rows, cols
        board.rules = rules if rules is not None else Rules()
        board.name, board.description = name, description
        board._cells = flat  # type: ignore[assignment]
        if board.rules.chain:
            _check_no_cycle(board._jumps)
        else:
            # The cells already are a jump table (-1 or the square's own number: no jump),
            # so a big board is solved without building another million-entry list.
            board.__dict__["jump_table"] = flat
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
        return Board(
            self.rows,
            self.cols,
            self._jumps.items(),
            rules=rules,
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
        return _cell_of(self.rows, self.cols, square)

    def square_at(self, row: int, col: int) -> int:
        """The square number of a matrix cell (row 0 is the top row)."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"cell ({row}, {col}) is not on the board")
        level = self.rows - 1 - row
        offset = col if level % 2 == 0 else self.cols - 1 - col
        return level * self.cols + offset + 1

    # -- jumps -------------------------------------------------------------------------

    @cached_property
    def _jumps(self) -> dict[int, int]:
        """start -> destination; boards read from a matrix derive it on first use."""
        cells = self._cells
        marked = compress(range(len(cells)), map(is_not, cells, repeat(-1)))
        return {s: v for s in marked if (v := cells[s]) != s and v != -1}

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

    @cached_property
    def jump_table(self) -> list[int]:
        """Index t: where a token landing on t is sent, or -1 (or t itself) for no jump.

        Chains are followed under ``chain``. This is the solver's inner-loop table (a
        list, because indexing a list is fastest); read-only by convention.
        """
        table = [-1] * (self.goal + 1)
        jumps = self._jumps
        for start, end in jumps.items():
            if self.rules.chain:
                while end in jumps:
                    end = jumps[end]
            table[start] = end
        return table

    @cached_property
    def landing_table(self) -> list[int]:
        """Index t: the square a token ends on after landing on t (jumps applied).

        Index 0 is 0 (off the board). Honours ``chain``. The engine, the solver and the
        analysis all read it (or ``jump_table``), so every consumer agrees on what a
        landing does. Read-only by convention.
        """
        return [t if v < 0 else v for t, v in enumerate(self.jump_table)]

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
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<Board{label} {self.rows}x{self.cols} ladders={len(self.ladders)} "
            f"snakes={len(self.snakes)} {self.rules}>"
        )


def _cell_of(rows: int, cols: int, square: int) -> tuple[int, int]:
    """(row, col) of a square, row 0 on top: the one place the numbering is decoded."""
    level, offset = divmod(square - 1, cols)
    col = offset if level % 2 == 0 else cols - 1 - offset
    return rows - 1 - level, col


def _cell_where(rows: int, cols: int, square: int) -> str:
    row, col = _cell_of(rows, cols, square)
    return f"row {row}, col {col} (square {square})"


def _raise_first_bad_cell(flat: list[object], rows: int, cols: int) -> None:
    goal = rows * cols
    for s in range(1, goal + 1):
        value = flat[s]
        where = _cell_where(rows, cols, s)
        if type(value) is not int:
            raise BoardError(f"cell is not a whole number: {value!r}", where=where)
        if value != -1 and not 1 <= value <= goal:
            raise BoardError(f"destination {value} is outside the board (1..{goal})", where=where)
    raise AssertionError("no bad cell found")  # pragma: no cover - callers checked first


def _check_jump(spec: JumpSpec, goal: int, seen: dict[int, int]) -> None:
    start, end, where = spec.start, spec.end, spec.where
    for value in (start, end):
        if type(value) is not int:
            raise BoardError(f"jump squares must be whole numbers, not {value!r}", where=where)
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
    """Under ``chain = true`` a cycle of jumps would never stop: reject it."""
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
