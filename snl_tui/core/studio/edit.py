"""Editing a board as pure functions: board + edit -> new board, or a ``BoardError``.

The board studio (``snl edit``) and the generator build boards through these edits. Every
edit makes its new board through ``Board``'s own constructor, so a refused edit carries
the very words a bad board file would get (one set of checks, never a second copy). An
undo ``History`` is simply a list of boards and an index into it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..board import Board, JumpSpec, check_text
from ..errors import BoardError
from ..limits import PLAY_MAX_SQUARES, check_size
from ..matrix import check_dimensions
from ..rules import Rules

__all__ = [
    "AddJump",
    "Edit",
    "History",
    "MoveJump",
    "MoveJumpStart",
    "RemoveJump",
    "Resize",
    "SetDescription",
    "SetName",
    "SetRules",
    "check_text",
    "empty_board",
]


class Edit(Protocol):
    """One change to a board: ``apply`` returns the new board or raises BoardError."""

    def apply(self, board: Board) -> Board: ...

    def describe(self) -> str: ...


def empty_board(
    rows: int = 10, cols: int = 10, name: str = "", rules: Rules | None = None
) -> Board:
    """A board with no jumps (a designer's blank page); bad sizes raise BoardError."""
    return Board(rows, cols, rules=rules, name=check_text(name, "the name"))


def _rebuild(
    board: Board,
    jumps: dict[int, int] | None = None,
    *,
    rows: int | None = None,
    cols: int | None = None,
    rules: Rules | None = None,
    name: str | None = None,
    description: str | None = None,
) -> Board:
    """A new board through the constructor (its validation is the only one)."""
    table = board.jumps if jumps is None else jumps
    return Board(
        board.rows if rows is None else rows,
        board.cols if cols is None else cols,
        table.items(),
        rules=board.rules if rules is None else rules,
        name=board.name if name is None else name,
        description=board.description if description is None else description,
    )


def _jump_label(board: Board, start: int) -> str:
    jump = board.jump_at(start)
    return f"the {jump.kind} {jump.start} -> {jump.end}" if jump else f"square {start}"


@dataclass(frozen=True)
class AddJump:
    """A new jump ``start -> end``: a ladder when it goes up, a snake when down."""

    start: int
    end: int

    def apply(self, board: Board) -> Board:
        if board.jump_at(self.start) is not None:
            # The constructor would say "two jumps start on square N"; same words.
            existing = board.jumps
            existing_end = existing[self.start]
            raise BoardError(
                f"two jumps start on square {self.start} (to {existing_end} and to {self.end})"
            )
        jumps = board.jumps
        # A JumpSpec without a kind: the direction decides ladder or snake.
        return Board(
            board.rows,
            board.cols,
            [*(JumpSpec(a, b) for a, b in jumps.items()), JumpSpec(self.start, self.end)],
            rules=board.rules,
            name=board.name,
            description=board.description,
        )

    def describe(self) -> str:
        kind = "ladder" if self.end > self.start else "snake"
        return f"added the {kind} {self.start} -> {self.end}"


@dataclass(frozen=True)
class RemoveJump:
    """Remove the jump starting on ``square`` (``end``, when given, names it in the
    description: 'removed the snake 30 -> 15')."""

    square: int
    end: int | None = None

    def apply(self, board: Board) -> Board:
        jumps = board.jumps
        if self.square not in jumps:
            raise BoardError(f"no jump starts on square {self.square}")
        del jumps[self.square]
        return _rebuild(board, jumps)

    def describe(self) -> str:
        if self.end is None:
            return f"removed the jump on square {self.square}"
        kind = "ladder" if self.end > self.square else "snake"
        return f"removed the {kind} {self.square} -> {self.end}"


@dataclass(frozen=True)
class MoveJump:
    """Move the destination of the jump starting on ``start`` to ``end``.

    A ladder whose destination moves below its start becomes a snake (and the reverse):
    the designer dragged the end there, so that is what they meant.
    """

    start: int
    end: int

    def apply(self, board: Board) -> Board:
        jumps = board.jumps
        if self.start not in jumps:
            raise BoardError(f"no jump starts on square {self.start}")
        jumps[self.start] = self.end
        return _rebuild(board, jumps)

    def describe(self) -> str:
        return f"moved the jump on {self.start} to end on {self.end}"


@dataclass(frozen=True)
class MoveJumpStart:
    """Move the start of the jump on ``start`` to ``new_start``, keeping its destination."""

    start: int
    new_start: int

    def apply(self, board: Board) -> Board:
        jumps = board.jumps
        if self.start not in jumps:
            raise BoardError(f"no jump starts on square {self.start}")
        end = jumps.pop(self.start)
        if self.new_start in jumps:
            raise BoardError(
                f"two jumps start on square {self.new_start} "
                f"(to {jumps[self.new_start]} and to {end})"
            )
        jumps[self.new_start] = end
        return _rebuild(board, jumps)

    def describe(self) -> str:
        return f"moved the jump on {self.start} to start on {self.new_start}"


@dataclass(frozen=True)
class Resize:
    """Change the board's size. Jumps keep their square numbers.

    A jump that would no longer fit (a square past the new goal, or a start on it) makes
    the edit refused, naming those jumps: silently dropping a designer's snakes is worse
    than asking them to remove the jumps first.
    """

    rows: int
    cols: int

    def apply(self, board: Board) -> Board:
        # Bad sizes first, in the constructor's words; then what the editor (and the
        # game its "play" opens) takes, in their words.
        rows, cols = check_dimensions(self.rows, self.cols)
        check_size(rows, cols, PLAY_MAX_SQUARES, "to edit")
        goal = rows * cols
        lost = [start for start, end in board.jumps.items() if start >= goal or end > goal]
        if lost:
            names = ", ".join(_jump_label(board, s) for s in lost[:4])
            more = f" and {len(lost) - 4} more" if len(lost) > 4 else ""
            raise BoardError(
                f"a {rows}x{cols} board (goal {goal}) has no room for "
                f"{names}{more}: remove or move them first"
            )
        return _rebuild(board, rows=self.rows, cols=self.cols)

    def describe(self) -> str:
        return f"resized to {self.rows}x{self.cols}"


@dataclass(frozen=True)
class SetRules:
    """Change rule options: ``SetRules({"start": 0})`` (names and values as in a file)."""

    changes: tuple[tuple[str, Any], ...]

    def __init__(self, changes: dict[str, Any] | Rules) -> None:
        items = changes.to_dict() if isinstance(changes, Rules) else dict(changes)
        object.__setattr__(self, "changes", tuple(sorted(items.items())))

    def apply(self, board: Board) -> Board:
        rules = Rules.from_mapping(dict(self.changes), base=board.rules)
        return _rebuild(board, rules=rules)

    def describe(self) -> str:
        text = ", ".join(f"{k} = {_value_text(v)}" for k, v in self.changes)
        return f"rules: {text}"


def _value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class SetName:
    name: str

    def apply(self, board: Board) -> Board:
        return _rebuild(board, name=check_text(self.name, "the name"))

    def describe(self) -> str:
        return f"renamed to {self.name!r}"


@dataclass(frozen=True)
class SetDescription:
    description: str

    def apply(self, board: Board) -> Board:
        text = check_text(self.description, "the description", multiline=True)
        return _rebuild(board, description=text)

    def describe(self) -> str:
        return "changed the description"


class History:
    """Undo/redo over whole boards: ``boards[index]`` is the current one.

    A refused edit changes nothing (the BoardError goes to the caller). A new edit after
    an undo drops the redo tail, as every editor does.
    """

    def __init__(self, board: Board) -> None:
        self._boards: list[Board] = [board]
        self._edits: list[Edit] = []
        self._index = 0

    @property
    def current(self) -> Board:
        return self._boards[self._index]

    @property
    def can_undo(self) -> bool:
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        return self._index < len(self._boards) - 1

    def apply(self, edit: Edit) -> Board:
        """Apply ``edit`` to the current board; raises BoardError and keeps it if refused."""
        board = edit.apply(self.current)
        del self._boards[self._index + 1 :]
        del self._edits[self._index :]
        self._boards.append(board)
        self._edits.append(edit)
        self._index += 1
        return board

    def undo(self) -> Edit | None:
        """Step back one edit; returns the edit undone (None when there is none)."""
        if not self.can_undo:
            return None
        self._index -= 1
        return self._edits[self._index]

    def redo(self) -> Edit | None:
        """Step forward again; returns the edit redone (None when there is none)."""
        if not self.can_redo:
            return None
        self._index += 1
        return self._edits[self._index - 1]

    def __len__(self) -> int:
        return len(self._boards)
