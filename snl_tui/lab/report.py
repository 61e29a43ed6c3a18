"""A judge's failure as a person reads it: the board drawn, the answers, an optimal
route, what the wrong answer suggests, and the squares it could come from."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.board import Board
from ..core.solver import solve
from ..core.text import plural
from .judge import Failure
from .mistakes import diagnose
from .search import forward_distances

LADDER, SNAKE = "▲", "▼"


@dataclass(frozen=True)
class Explained:
    """What the learn screen and the report show of a failure."""

    board: Board
    expected: int
    got: str
    """The solution's answer as text ('3', "'3'", 'no answer')."""
    route: list[int]
    """One optimal route's squares, the start first (empty: unreachable)."""
    rolls: list[int]
    suspects: list[int]
    """Squares the solution's answer could come from."""
    reason: str
    """One or two sentences: what the answer suggests."""
    mistakes: list[str]
    """The keys of the typical mistakes that give the same answer."""


def explain(failure: Failure) -> Explained:
    board = Board.from_matrix(failure.matrix, name="failing board")
    solution = solve(board)
    route = [solution.start, *solution.squares] if solution.reachable else []
    outcome = failure.outcome
    suspects: list[int] = []
    mistakes: list[str] = []
    if outcome.kind == "answer" and outcome.value is not None:
        got = str(outcome.value)
        found = diagnose(failure.matrix, failure.expected, outcome.value)
        if len(found) > 1 and failure.first is not None:
            # Several mistakes give this answer here: those that also give the solution's
            # answer on the board where it first failed come first.
            matrix, expected, seen = failure.first
            if seen.kind == "answer" and seen.value is not None:
                also = {d.mistake.key for d in diagnose(matrix, expected, seen.value)}
                found.sort(key=lambda d: d.mistake.key not in also)
        if found:
            mistakes = [d.mistake.key for d in found]
            first = found[0]
            suspects = first.squares
            reason = (
                f"{got} is what a solution gets that {first.mistake.title}: {first.mistake.why}."
            )
            if len(found) > 1:
                reason += " (Also: " + "; ".join(d.mistake.title for d in found[1:]) + ".)"
        else:
            distances = forward_distances(board)
            suspects = sorted(s for s, d in distances.items() if d == outcome.value)
            reason = f"No typical mistake gives {got} here."
            if suspects:
                reason += f" {plural(outcome.value, 'roll')} reach squares {_list(suspects)}."
            elif outcome.value >= 0:
                reason += f" No square is first reached in {plural(outcome.value, 'roll')}."
    elif outcome.kind == "other":
        got = outcome.text
        reason = f"The method returned {got}, not a whole number."
    elif outcome.kind == "timeout":
        got = "no answer"
        reason = f"It gave {outcome.text}: a search that never ends? " + (
            "The goal cannot be reached here: does the search stop when its queue empties, "
            "and does it remember the squares it has seen?"
            if failure.expected < 0
            else "Does it remember the squares it has seen?"
        )
    else:
        got = "an error"
        reason = f"It crashed: {outcome.text}."
    return Explained(
        board, failure.expected, got, route, solution.rolls, suspects, reason, mistakes
    )


def _list(squares: list[int], limit: int = 12) -> str:
    shown = ", ".join(map(str, squares[:limit]))
    return shown + (", ..." if len(squares) > limit else "")


def draw(board: Board) -> list[str]:
    """The board as text, row 0 on top: each square's number, and ``▲15``/``▼6`` after a
    jump's start."""
    labels = {}
    for square in range(1, board.goal + 1):
        jump = board.jump_at(square)
        mark = "" if jump is None else f"{LADDER if jump.kind == 'ladder' else SNAKE}{jump.end}"
        labels[square] = f"{square}{mark}"
    width = max(len(label) for label in labels.values()) + 2
    return [
        "".join(
            labels[board.square_at(row, col)].ljust(width) for col in range(board.cols)
        ).rstrip()
        for row in range(board.rows)
    ]


def route_text(route: list[int], rolls: list[int]) -> str:
    """'1 -(1)-> 15 -(2)-> 13': the squares, each move's die value on its arrow."""
    if not route:
        return "none: the goal cannot be reached"
    parts = [str(route[0])]
    for die, square in zip(rolls, route[1:], strict=True):
        parts.append(f"-({die})-> {square}")
    return " ".join(parts)
