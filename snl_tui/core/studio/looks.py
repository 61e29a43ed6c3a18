"""How a board looks to a person (issue 45): the rules a drawn board is read by, as
findings for ``snl check``, the editor and the generator.

* A jump that stays within one row (``sideways``) reads as a slide, not a snake or a
  ladder: every jump should cross at least one row (a one-row board has no other kind).
* Twin jumps (``twins``): two jumps from neighbouring squares to neighbouring squares
  (neighbours: squares sharing a side, beside or above each other) are drawn side by
  side, or crossing as an X; a player cannot tell which foot leads to which top. (Squares
  touching at a corner are not counted: classic's ladder 4 -> 14 and snake 16 -> 6 would
  be, and the generator's short games, crowded with ladders, would find few boards.)
* A dull board (``dull_findings``): no jumps, or every jump shorter than a roll's reach
  (``tiny_length``): the game is the plain walk.

Each test is on squares alone (no drawing): cheap enough for every step of the
generator and every edit in the editor.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board import Board, Jump
from .findings import Finding

Pair = tuple[int, int]


def is_sideways(board: Board, start: int, end: int) -> bool:
    """Whether the jump ``start`` -> ``end`` stays within one row (never on a board of
    one row: every jump there does)."""
    if board.rows < 2:
        return False
    return (start - 1) // board.cols == (end - 1) // board.cols


def _touch(board: Board, a: int, b: int) -> bool:
    """Whether squares ``a`` and ``b`` share a side (beside or above each other)."""
    (ra, ca), (rb, cb) = board.position_of(a), board.position_of(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def twin_kind(board: Board, first: Pair, second: Pair) -> str | None:
    """'cross' or 'side' when the jumps ``first`` and ``second`` ((start, end) each) are
    twins (each end of one is a neighbour of an end of the other, no square shared): 'cross' when
    their straight lines cross (an X), 'side' when they run side by side; else None."""
    (a, b), (c, d) = first, second
    if len({a, b, c, d}) < 4:
        return None
    if not (
        (_touch(board, a, c) and _touch(board, b, d))
        or (_touch(board, a, d) and _touch(board, b, c))
    ):
        return None
    return "cross" if _cross(*(_centre(board, s) for s in (a, b, c, d))) else "side"


def _centre(board: Board, square: int) -> tuple[float, float]:
    row, col = board.position_of(square)
    return col + 0.5, row + 0.5


def _cross(
    p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]
) -> bool:
    """Whether the segments p-q and r-s cross at a point inside both."""

    def side(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = side(r, s, p), side(r, s, q)
    d3, d4 = side(p, q, r), side(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


def twins(board: Board, jumps: Iterable[Pair] | None = None) -> list[tuple[Pair, Pair, str]]:
    """Every pair of twin jumps (``twin_kind``), each pair once, in board order. Linear in
    the jumps: a twin has an end on one of the four squares beside each of this one's."""
    items = sorted(board.jumps.items() if jumps is None else jumps)
    by_square: dict[int, list[Pair]] = {}
    for jump in items:
        for square in jump:
            by_square.setdefault(square, []).append(jump)
    found = set()
    for first in items:
        for square in _beside(board, first[0]):
            for second in by_square.get(square, ()):
                if second != first:
                    pair = (min(first, second), max(first, second))
                    if pair not in found and twin_kind(board, *pair) is not None:
                        found.add(pair)
    return [
        (first, second, twin_kind(board, first, second) or "") for first, second in sorted(found)
    ]


def _beside(board: Board, square: int) -> list[int]:
    """The squares sharing a side with ``square``."""
    row, col = board.position_of(square)
    return [
        board.square_at(r, c)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        if 0 <= r < board.rows and 0 <= c < board.cols
    ]


LOOKS_MAX_JUMPS = 2_500
"""Past this many jumps a board is no drawing a person reads: its looks are not checked
(``check_board`` says so in a note)."""


def looks_fit(board: Board) -> bool:
    return len(board.jumps) <= LOOKS_MAX_JUMPS


def look_findings(board: Board) -> list[Finding]:
    """The jumps that stay within a row and the twins, one finding each (none past
    ``LOOKS_MAX_JUMPS`` jumps)."""
    if not looks_fit(board):
        return []
    findings = []
    for start, end in sorted(board.jumps.items()):
        if is_sideways(board, start, end):
            jump = Jump(start, end)
            row = (start - 1) // board.cols + 1
            findings.append(
                Finding(
                    "sideways-jump",
                    tuple(sorted((start, end))),
                    f"the {jump.kind} {start} -> {end} stays in row {row}: it reads as a "
                    "slide along the row; let it cross a row at least",
                )
            )
    for first, second, kind in twins(board):
        one, other = Jump(*first), Jump(*second)
        if one.kind == other.kind:
            names = f"the {one.kind}s {one.start} -> {one.end} and {other.start} -> {other.end}"
        else:
            names = (
                f"the {one.kind} {one.start} -> {one.end} and the {other.kind} "
                f"{other.start} -> {other.end}"
            )
        what = "cross as an X" if kind == "cross" else "run side by side"
        findings.append(
            Finding(
                "twin-jumps",
                tuple(sorted({*first, *second})),
                f"{names} {what} (from neighbouring squares to neighbouring squares): "
                "players cannot tell which end leads where; move one of them",
            )
        )
    return findings


def tiny_length(board: Board) -> int:
    """A jump shorter than this is tiny: less than a roll's reach, and less than a tenth
    of the board (on a small board a short jump still matters)."""
    return max(2, min(board.rules.faces, board.goal // 10))


def dull_findings(board: Board) -> list[Finding]:
    """A board with no jumps, or whose every jump is tiny: one finding, else none."""
    jumps = board.jumps
    if board.goal < 4:
        return []  # no room for a jump worth the name
    if not jumps:
        return [
            Finding(
                "dull-board",
                (),
                "no snakes and no ladders: the game is a plain walk to the goal",
            )
        ]
    tiny = tiny_length(board)
    if all(abs(end - start) < tiny for start, end in jumps.items()):
        return [
            Finding(
                "dull-board",
                tuple(sorted(jumps)),
                f"every jump is shorter than {tiny} squares: the game is nearly a plain "
                "walk; make some jumps longer",
            )
        ]
    return []


def drawn_look_findings(board: Board) -> list[Finding]:
    """Drawn jumps that run close to each other for more than about a square
    (``geometry.closeness``): a snake along or inside a ladder's rails cannot be
    followed by eye. None for a board past ``limits.check_drawing_fits``."""
    from ..limits import check_drawing_fits

    if not check_drawing_fits(board):
        return []
    from ..geometry import close_runs_of  # the routing loads only for a full check

    return [
        Finding(
            "jumps-run-close",
            tuple(sorted({run.first.start, run.first.end, run.second.start, run.second.end})),
            f"{run.describe()} in the drawing: hard to follow by eye (move an end)",
        )
        for run in close_runs_of(board)
    ]
