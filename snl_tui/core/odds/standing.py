"""The odds of random play from where the players stand: what the hint panel shows.

``compute_odds`` asks the analysis for the seat to move (expected turns left, the chance
to finish within 5 and 10 turns, each seat's chance of winning, and the finishing-turn
distribution up to a horizon that shows the games that do finish) and turns an analysis
that cannot be made into a reason, never an exception. No Textual: the game screen runs
it in a worker and hands the result to the panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..board import Board
from ..errors import SnlError
from .ready import SETTLED

CHART_MIN_TURNS, CHART_MAX_TURNS = 30, 1000
"""The sparkline covers turns 1..(99th percentile of the games that finish), clamped to
this range."""

CERTAIN = 1e-9
"""A probability this close to 0 or 1 is shown as exactly 0% or 100%."""


@dataclass
class Odds:
    """The analysis figures the panel shows (None when the analysis is unavailable)."""

    expected_turns: float | None = None
    within_5: float | None = None
    within_10: float | None = None
    win_chances: list[float] = field(default_factory=list)
    distribution: list[float] = field(default_factory=list)
    """P(finishing at exactly turn t) for t = 1, 2, ...; empty when it never finishes."""
    never_finishes: float | None = None
    """P(random play from the square never reaches the goal)."""
    finished: bool = False
    """The player is on the goal already: there are no odds to show."""
    why_unavailable: str | None = None
    """Why there are no odds (e.g. too many squares for the exact analysis)."""

    @property
    def never(self) -> bool:
        """Random play from the square never reaches the goal."""
        if self.never_finishes is not None:
            return self.never_finishes >= 1.0 - CERTAIN
        expected = self.expected_turns
        return expected is not None and math.isinf(expected) and not any(self.distribution)


def odds_at_hand(board: Board) -> bool:
    """Are the odds on ``board`` lookups now (its analysis done and complete), so that
    ``compute_odds`` takes well under a millisecond and may run on the UI thread? False
    until the first ``compute_odds`` on it has run (in a worker)."""
    return board in SETTLED


def compute_odds(
    board: Board, positions: Sequence[int], to_move: int, *, players: int | None = None
) -> Odds:
    """Ask ``core.odds.analysis`` for the odds from the current position (cached per board)."""
    from .analysis import MAX_DISTRIBUTION_SQUARES, analyze
    from .markov import settle

    square = positions[to_move]
    if square >= board.goal:  # nothing left to estimate (and no flat chart to draw)
        return Odds(0.0, 1.0, 1.0, never_finishes=0.0, finished=True)
    seats = players if players is not None else len(positions)
    try:
        analysis = analyze(board, players=seats, positions=list(positions), to_move=to_move)
        settle(board)  # once: then the odds of every later move are lookups
    except SnlError as error:
        return Odds(why_unavailable=str(error))
    never = analysis.never_finishes  # from ``square``, the seat to move's square
    if analysis.left_out is not None:
        limit = MAX_DISTRIBUTION_SQUARES
        # A board past the distribution's limit: the expectation only, and why.
        return Odds(
            expected_turns=analysis.expected_turns_from(square),
            never_finishes=never,
            why_unavailable=f"chances left out: {board.goal:,} squares > {limit:,}",
        )
    finishing = 1.0 - never
    distribution: list[float] = []
    if finishing > CERTAIN:
        # The chart spans the games that do finish: on a board with a trap, the 99th
        # percentile of all games is "never", which would stretch it to the clamp.
        tail = analysis.percentile_turns(0.99 * finishing)
        horizon = CHART_MAX_TURNS if math.isinf(tail) else int(tail)
        horizon = min(max(horizon, CHART_MIN_TURNS), CHART_MAX_TURNS)
        # pmf is indexed by turn from the player's square; turn 0 is always 0 here.
        distribution = [float(p) for p in analysis.pmf(horizon)[1:]]
    return Odds(
        expected_turns=analysis.expected_turns_from(square),
        within_5=analysis.finish_within_from(square, 5),
        within_10=analysis.finish_within_from(square, 10),
        win_chances=list(analysis.win_chances),
        distribution=distribution,
        never_finishes=never,
    )
