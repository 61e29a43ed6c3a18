"""Every figure ``snl analyze`` writes, read off an ``Analysis`` in one go.

The report (``report.py``) is text only: it formats a ``Summary`` and never asks the
analysis anything, so the figures flow one way, analysis -> summary -> words, and each
is computed once whichever way it is written (text or JSON). A figure the analysis
leaves out (``left_out``) is not asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..board import Board
    from .analysis import Analysis, Bars, FigureAccuracy

REPORT_TURNS = (10, 20, 30, 50, 100)
"""The P(finished within k turns) the report shows."""
REPORT_PERCENTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
HISTOGRAM_ROWS = 12


@dataclass(frozen=True)
class Summary:
    """The figures of one analysis as plain values (see ``Analysis`` for each)."""

    board: Board
    start: int
    players: int
    expected_turns: float
    finite: bool
    too_large: bool
    std_turns: float
    least_rolls: int
    never_finishes: float
    no_winner: float
    left_out: str | None
    truncated: bool
    horizon: int
    """The distribution's last turn computed (0 when it is left out)."""
    accuracy: tuple[FigureAccuracy, ...]
    game_rounds: float | None
    """None when left out (several seats and no distribution)."""
    median_turns: int
    mode_turns: int
    percentiles: dict[float, float]
    """q -> ``percentile_turns(q)`` for the median and ``REPORT_PERCENTILES``."""
    finish_within: dict[int, float]
    win_chances: list[float]
    bars: Bars | None
    visits: list[float] | None
    """Expected turns begun on each square, when asked for and finite."""


def summarize(analysis: Analysis, *, visits: bool = False, bars: bool = True) -> Summary:
    """The figures ``report`` writes (``bars``: the histogram's too; ``visits``: the
    expected turns begun on each square), asked in the order the report shows them."""
    distribution = analysis.left_out is None
    players = analysis.players
    expected, finite, too_large = analysis.expected_turns, analysis.finite, analysis.too_large
    std, least = analysis.std_turns, analysis.least_rolls
    never, no_winner = analysis.never_finishes, analysis.no_winner
    shown = (0.5, *REPORT_PERCENTILES) if distribution else ()
    percentiles = {q: analysis.percentile_turns(q) for q in shown}
    median = analysis.median_turns if distribution else -1
    mode = analysis.mode_turns if distribution else -1
    within = {k: analysis.finish_within(k) for k in REPORT_TURNS if distribution}
    wins = analysis.win_chances if distribution else []
    rounds = analysis.game_rounds if players == 1 or distribution else None
    truncated, horizon = (analysis.truncated, analysis.horizon) if distribution else (False, 0)
    accuracy = analysis.accuracy
    return Summary(
        board=analysis.board,
        start=analysis.start,
        players=players,
        expected_turns=expected,
        finite=finite,
        too_large=too_large,
        std_turns=std,
        least_rolls=least,
        never_finishes=never,
        no_winner=no_winner,
        left_out=analysis.left_out,
        truncated=truncated,
        horizon=horizon,
        accuracy=accuracy,
        game_rounds=rounds,
        median_turns=median,
        mode_turns=mode,
        percentiles=percentiles,
        finish_within=within,
        win_chances=wins,
        bars=analysis.finish_bars(HISTOGRAM_ROWS) if bars and distribution else None,
        visits=analysis.visits() if visits else None,
    )
