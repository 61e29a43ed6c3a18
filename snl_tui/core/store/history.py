"""The history of saved games beside the exact odds: what ``snl stats`` and the game's
statistics screen both show, figured and written once (no Textual)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..cells import cell_width, pad_cells
from ..errors import SnlError
from ..text import safe_line

if TYPE_CHECKING:
    from ..board import Board
    from ..odds.analysis import Analysis
    from .games import BoardRecord


def print_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: set[int],
    out: TextIO,
    *,
    spoken: bool = False,
) -> None:
    """Columns under a header; ``spoken`` (a screen reader) says each row as one line of
    'header value' pairs instead, leaving out the empty ones ('-')."""
    rows = [tuple(safe_line(cell, 60) for cell in row) for row in rows]  # names from the store
    if spoken:
        for row in rows:
            pairs = [
                f"{name} {cell}" for name, cell in zip(header, row, strict=True) if cell != "-"
            ]
            print("; ".join(pairs) + ".", file=out)
        return
    widths = [max(cell_width(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [
            pad_cells(cell, width, right=index in right)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=out)


def exact_odds(board: Board) -> Analysis | None:
    """The exact one-player odds of ``board``, or None for a board too large for them."""
    from ..odds.analysis import analyze  # numpy loads only when there is history to compare

    try:
        return analyze(board)
    except SnlError:
        return None


def board_summary(record: BoardRecord, odds: Analysis | None = None) -> dict[str, Any]:
    """A board's history with the exact odds beside it (JSON-able); ``odds`` when the
    caller has them already (``exact_odds(record.board)``). Used by ``snl stats`` and the
    game's statistics screen, so both show the same figures."""
    from ..odds.analysis import luck
    from ..solver import solve

    if odds is None:
        odds = exact_odds(record.board)
    if odds is not None and odds.left_out is not None:
        # Past the distribution's limit: the expectation only (no median, no luck).
        expected: float | None = odds.expected_turns
        median: int | None = None
        odds = None
    elif odds is not None:
        expected = odds.expected_turns
        median = odds.median_turns
    else:  # a board too large for the exact odds: history without them
        expected, median = None, None
    if expected is not None and not math.isfinite(expected):
        expected = None
    optimum = solve(record.board).moves
    players = []
    for player in record.players:
        seats = player.seats or (1,) * len(player.lengths)
        luck_shares = (
            [luck(odds, count, length) for length, count in zip(player.lengths, seats, strict=True)]
            if odds
            else []
        )
        players.append(
            {
                "player": player.player,
                "games": player.games,
                "wins": player.wins,
                "lengths": list(player.lengths),
                "average_length": player.average_length,
                "luck_percentiles": luck_shares,
                "median_luck": _median(luck_shares),
                "puzzles": player.puzzles,
                "puzzle_best": player.puzzle_best,
                "puzzle_average": player.puzzle_average,
            }
        )
    return {
        "board": record.name,
        "key": record.key,
        "expected_turns": expected,
        "median_turns": median if median is None or median >= 0 else None,
        "optimum": optimum if optimum >= 0 else None,
        "players": players,
    }


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def print_board(board: dict[str, Any], out: TextIO, *, spoken: bool = False) -> None:
    expected = board["expected_turns"]
    exact = (
        f"exact: {expected:.1f} turns expected, median {board['median_turns']}"
        if expected is not None
        else "exact odds not available for this board"
    )
    optimum = board["optimum"]
    if any(player["puzzles"] for player in board["players"]) and optimum is not None:
        exact += f"; puzzle optimum {optimum} rolls"
    print(f"{safe_line(board['board'] or '(unnamed board)')} ({exact})", file=out)
    header = (
        "player",
        "games",
        "wins",
        "avg length",
        "luck",
        "puzzles",
        "puzzle best",
        "puzzle avg",
    )
    rows = [_player_row(player, board) for player in board["players"]]
    print_table(header, rows, {1, 2, 3, 4, 5, 6, 7}, out, spoken=spoken)


PUZZLE_LEGEND = (
    "games, wins: classic games; puzzles: puzzles solved; puzzle best and avg: rolls used "
    "(+ over the optimum)"
)


def _player_row(player: dict[str, Any], board: dict[str, Any]) -> tuple[str, ...]:
    average = player["average_length"]
    median_luck = player["median_luck"]
    optimum = board["optimum"]

    def against(rolls: float | None, digits: int) -> str:
        if rolls is None:
            return "-"
        text = f"{rolls:.{digits}f}"
        if optimum is not None:
            text += f" (+{rolls - optimum:.{digits}f})"
        return text

    return (
        player["player"],
        str(player["games"]),
        str(player["wins"]),
        "-" if average is None else f"{average:.1f}",
        "-" if median_luck is None else f"{median_luck:.0%}",
        str(player["puzzles"]) if player["puzzles"] else "-",
        against(player["puzzle_best"], 0),
        against(player.get("puzzle_average"), 1),
    )
