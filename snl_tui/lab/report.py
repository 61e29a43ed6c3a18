"""A judge's failure as a person reads it: the board drawn, the answers, an optimal
route, what is known of the wrong answer (a mistake only when the judge proved it), what
the solution printed, and, for a slow one, its CPU time by board size.

Every text comes in two forms: the usual one (``6▼2``, ``1 -(3)-> 3``) and plain words
for a screen reader (``square 6, snake down to 2``, ``from 1 roll 3 to 3``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.board import Board
from ..core.solver import solve
from ..core.text import escape_controls, plural
from .judge import MEASURE_TIMES, Failure
from .mistakes import answer_of
from .runner import DEFAULT_TIME_LIMIT
from .search import forward_distances

LADDER, SNAKE = "▲", "▼"
GROWS = 0.5
"""An exponent below which a CPU time is said not to grow with the board's side."""
PRINTED_LINES = 8
"""Lines of what a solution printed shown from the start (and two from the end)."""


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
    """Squares the solution's answer could come from (facts, not a guess)."""
    reason: str
    """What is known of the answer: the proven mistake, or the facts."""
    mistakes: list[str]
    """The key of the proven mistake (empty: none is proven)."""
    details: list[str] = field(default_factory=list)
    """More lines: CPU time by size, where the routes part."""
    printed: list[str] = field(default_factory=list)
    """What the solution printed on the board (escaped, bounded)."""


def explain(
    failure: Failure, time_limit: float = DEFAULT_TIME_LIMIT, *, words: bool = False
) -> Explained:
    """``failure`` in words; ``words``: no arrows (a screen reader's)."""
    board = Board.from_matrix(failure.matrix, name="failing board")
    solution = solve(board)
    route = [solution.start, *solution.squares] if solution.reachable else []
    outcome = failure.outcome
    suspects: list[int] = []
    mistakes: list[str] = []
    details: list[str] = []
    size = f"{failure.side}x{failure.side}"
    if failure.fresh is not None:
        got = outcome.shown()
        fresh = failure.fresh
        right = fresh.kind == "answer" and fresh.value == failure.expected
        reason = (
            "Your answer depends on earlier boards: state kept between calls? After the "
            f"boards before it your solution answers {got} here; alone, in a fresh process, "
            f"it answers {fresh.shown()}" + (" (right)" if right else "") + ". A class "
            "attribute, a global or a default argument (memo={}) lives on between calls: "
            "make every board start from nothing."
        )
    elif outcome.kind == "answer" and outcome.value is not None:
        got = str(outcome.value)
        proof = failure.proof
        if proof is not None and proof.mistake is not None:
            mistake = proof.mistake
            mistakes = [mistake.key]
            variant = ""
            if mistake.key == "depth-cap":
                variant = f" (the boards tried fit a cap of {plural(int(proof.variant), 'roll')})"
            reason = (
                f"Your solution {mistake.title}{variant}: a reference with exactly that "
                f"mistake gives your answers on all {proof.boards} boards tried, the "
                f"{proof.wrong_boards} it gets wrong included. What is right: {mistake.why}."
            )
            pair = (mistake.key, proof.variant)
            squares = answer_of(pair, failure.matrix, failure.expected)[1]
            if squares and route and squares != route:
                suspects = squares
                part = next(
                    (i for i, (a, b) in enumerate(zip(squares, route, strict=False)) if a != b),
                    min(len(squares), len(route)),
                )
                details.append(
                    f"Its route: {(', ' if words else ' -> ').join(map(str, squares))}; they "
                    "part after square "
                    f"{route[max(0, part - 1)]}."
                )
            if not suspects:
                suspects = reached_in(board, outcome.value)
        else:
            reason = f"Your answer is {got}, the least is {failure.expected}."
            reason += " " + facts(board, failure.expected, outcome.value, route)
            suspects = reached_in(board, outcome.value)
            if proof is not None and len(proof.fitting) > 1:
                reason += (
                    " Several known mistakes give these answers and the boards tried do not "
                    "tell them apart, so none is named."
                )
    elif outcome.kind == "other":
        got = outcome.text
        if outcome.text.startswith("nothing"):
            reason = "It printed no answer: print the least number of rolls, one whole number."
        else:
            reason = f"The answer was {got}, not a whole number."
    elif outcome.kind == "timeout":
        got = "no answer"
        cpu = outcome.cpu if outcome.cpu is not None else time_limit
        if outcome.stalled:
            reason = f"It gave {outcome.text}."
        elif failure.overall is not None:
            got = str(failure.expected)
            reason = (
                f"Every answer was right, but together they took {failure.overall:.1f} s of "
                f"CPU (limit {failure.overall_limit:g} s for the whole run); each board within "
                f"its {time_limit:g} s, the slowest, a {size} board, {cpu:.2f} s. A breadth-first "
                "search looks at each square once, with six rolls from each: it answers "
                "1,000 boards in a few seconds."
            )
            details.append(growth_text(failure))
        elif failure.slow:
            measured = failure.scaled.get(failure.side)
            took = (
                f"{measured:.1f} s of CPU"
                if measured is not None
                else f"more than {time_limit * MEASURE_TIMES if failure.scaled else cpu:g} s of CPU"
            )
            reason = (
                f"Too slow: {took} on this {size} board (limit {time_limit:g} s). A "
                "breadth-first search looks at each square once, with six rolls from each: "
                "it answers a 20x20 board in a millisecond or two."
            )
            details.append(growth_text(failure))
        else:
            reason = (
                f"No answer within {time_limit:g} s of CPU on this {size} board, where a "
                "search takes microseconds: a search that never ends? "
                + (
                    "The goal cannot be reached here: does the search stop when its queue "
                    "empties, and does it remember the squares it has seen?"
                    if failure.expected < 0
                    else "Does it remember the squares it has seen?"
                )
            )
    else:
        got = "an error"
        reason = f"It crashed: {outcome.text}."
    return Explained(
        board,
        failure.expected,
        got,
        route,
        solution.rolls,
        suspects,
        reason,
        mistakes,
        details,
        printed_lines(outcome.stdout, outcome.stderr, merged=outcome.merged),
    )


def reached_in(board: Board, rolls: int) -> list[int]:
    """The squares whose least number of rolls is ``rolls``."""
    return sorted(s for s, d in forward_distances(board).items() if d == rolls)


def facts(board: Board, expected: int, got: int, route: list[int]) -> str:
    """What is known of a wrong whole number, without a guess."""
    goal = board.goal
    if expected < 0:
        return "No sequence of rolls reaches the goal here: the answer is -1."
    if got < 0:
        return f"The goal can be reached: the route below takes {plural(expected, 'roll')}."
    if got < expected:
        distances = forward_distances(board)
        reached = sorted(s for s, d in distances.items() if d == got)
        where = (
            f": after {plural(got, 'roll')} the token can be on {_list(reached)}" if reached else ""
        )
        return f"No sequence of {plural(got, 'roll')} reaches square {goal}{where}."
    return f"The route shown reaches square {goal} in {plural(expected, 'roll')}."


def growth_text(failure: Failure) -> str:
    """'CPU time on this board scaled down: 10x10 0.02 s, 13x13 0.31 s, 20x20 3.1 s; it
    grows about as n^5.0 (a breadth-first search: n^2).'"""
    if failure.scaled:
        head = "CPU time on this board scaled down"
        times = failure.scaled
    else:
        head = "CPU time by board size (the slowest board of each)"
        times = dict(failure.cpu_by_side)
    shown = [
        f"{side}x{side} " + ("too slow" if seconds is None else f"{seconds:.2f} s")
        for side, seconds in sorted(times.items())
    ][-5:]
    text = f"{head}: " + ", ".join(shown)
    power = failure.growth()
    if power is not None and power >= GROWS:
        text += f"; it grows about as n^{power:.1f} (a breadth-first search: n^2)"
    elif power is not None:
        text += "; it hardly grows with the board: the time goes elsewhere"
    return text + "."


def printed_lines(stdout: bytes, stderr: bytes, *, merged: bool = False) -> list[str]:
    """What the solution printed, escaped: the first lines and the last two of each
    stream (a command's error is at its start, the runtime's notes at its end);
    ``merged``: stderr holds both streams, in the order they were written."""
    lines: list[str] = []
    second = "stdout and stderr" if merged else "stderr"
    for name, data in (("stdout", stdout), (second, stderr)):
        text = data.decode("utf-8", "replace").rstrip("\n")
        if not text.strip():
            continue
        rows = [escape_controls(row)[:200] for row in text.split("\n")]
        if len(rows) > PRINTED_LINES + 2:
            skipped = len(rows) - PRINTED_LINES - 2
            rows = [*rows[:PRINTED_LINES], f"... ({plural(skipped, 'line')} more)", *rows[-2:]]
        lines.append(f"{name}:")
        lines.extend("  | " + row for row in rows)
    return lines


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


def draw_words(board: Board) -> list[str]:
    """The board in words, one line a row from the top: its squares in reading order and
    each jump ('square 6, snake down to 2')."""
    lines = []
    for row in range(board.rows):
        squares = [board.square_at(row, col) for col in range(board.cols)]
        words = []
        for square in squares:
            jump = board.jump_at(square)
            if jump is not None:
                way = "ladder up" if jump.kind == "ladder" else "snake down"
                words.append(f"square {square}, {way} to {jump.end}")
        if row == 0:
            where = "top row"
        elif row == board.rows - 1:
            where = "bottom row"
        else:
            where = f"row {row + 1} from the top"
        low, high = min(squares), max(squares)
        way = "left to right" if squares[0] < squares[-1] else "right to left"
        head = f"{where}, squares {low} to {high}, {way}"
        lines.append(head + (": " + "; ".join(words) if words else ", no jumps") + ".")
    return lines


ROUTE_MOVES = 12
"""Moves of a route shown whole; a longer one shows its first and last few."""


def route_text(route: list[int], rolls: list[int], *, words: bool = False) -> str:
    """'1 -(1)-> 15 -(2)-> 13': the squares, each move's die value on its arrow; in
    ``words``: 'from 1 roll 1 to 15, roll 2 to 13'. A route of more than
    ``ROUTE_MOVES`` moves shows its first six and last three, and how many in all."""
    if not route:
        return "none: the goal cannot be reached"
    moves = list(zip(rolls, route[1:], strict=True))
    shown: list[tuple[int, int] | None] = list(moves)
    if len(moves) > ROUTE_MOVES:
        shown = [*moves[:6], None, *moves[-3:]]
    if words:
        parts = [f"roll {m[0]} to {m[1]}" if m else "..." for m in shown]
        text = f"from {route[0]} " + ", ".join(parts)
    else:
        text = " ".join([str(route[0])] + [f"-({m[0]})-> {m[1]}" if m else "..." for m in shown])
    return text + (f" ({len(moves)} rolls)" if len(moves) > ROUTE_MOVES else "")
