"""The board studio's live numbers (SPEC 7): every figure the editor's side panel shows.

``compute_figures(board)`` gathers, from the exact analysis, what the numbers panel shows
after each edit: least rolls, expected turns, median, standard deviation, most likely
length, 90th percentile, P(finished within 10 / 20 / 50 turns), P(longer than 100
turns), the first seat's edge in 2- and 4-player games, a histogram of game lengths and
the expected visits of every square (the heat map). ``jump_effects(board)`` gives, for
every jump at once, the expected turns without it, so the panel's cursor line is a
lookup. ``figure_lines`` turns two sets of figures into the panel's text, each figure
with its change since the previous edit ("expected 39.2 -> 35.1").

A board that cannot be analysed (too large) or whose games may never end gets figures
that say why in one line (``problem`` / ``never_finishes``), never an exception.

No Textual here: the panel only runs these functions in a worker and shows the text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import text
from ..board import Board
from ..errors import SnlError
from ..odds import report
from ..odds.analysis import AnalysisError, analyze
from ..solver import count_optimal_routes
from .impacts import jump_impacts

WITHIN_TURNS = (10, 20, 50)
LONG_GAME = 100
EDGE_PLAYERS = (2, 4)
HISTOGRAM_ROWS, HISTOGRAM_WIDTH = 10, 16
NEVER_SHARE = 1e-12
"""A never-finishing share below this is the analysis's own tail tolerance, not a trap."""


@dataclass(frozen=True)
class StudioFigures:
    """What the numbers panel shows for one board.

    ``problem`` is set (and every other figure left empty) when the board cannot be
    analysed. Turn counts that are never reached are ``math.inf``.
    """

    problem: str | None = None
    expected_turns: float = math.nan
    least_rolls: int = -1
    routes: int = 0
    """How many optimal routes (distinct die-value sequences): 1 is a unique answer."""
    median_turns: float = math.nan
    std_turns: float = math.nan
    mode_turns: int = -1
    p90_turns: float = math.nan
    within: dict[int, float] = field(default_factory=dict)
    longer_than: float = math.nan
    """P(not finished within ``LONG_GAME`` turns), never-ending games included."""
    edges: dict[int, float] = field(default_factory=dict)
    """Players -> first seat's win chance minus 1 / players."""
    never_finishes: float = 0.0
    histogram: tuple[str, ...] = ()
    visits: list[float] = field(default_factory=list)
    """Expected turns beginning on each square in a one-player game (index 0 = off the
    board); empty when they are not finite (a game may never end) or not computed."""

    @property
    def ok(self) -> bool:
        return self.problem is None


def compute_figures(board: Board) -> StudioFigures:
    """All the panel's figures for ``board`` (one analysis, cached per board)."""
    try:
        return _figures(board)
    except AnalysisError as error:  # too large, or the distribution left out
        return StudioFigures(problem=f"no figures: {error}")
    except SnlError as error:  # any other refusal of the analysis: one line, no traceback
        return StudioFigures(problem=f"no figures: {error}")


def _figures(board: Board) -> StudioFigures:
    one = analyze(board, players=1)
    edges = {
        players: analyze(board, players=players).win_chances[0] - 1.0 / players
        for players in EDGE_PLAYERS
    }
    expected = one.expected_turns
    never = one.never_finishes
    finite = math.isfinite(expected)
    return StudioFigures(
        expected_turns=expected,
        least_rolls=one.least_rolls,
        routes=count_optimal_routes(board),
        median_turns=one.percentile_turns(0.5),
        std_turns=one.std_turns,
        mode_turns=one.mode_turns,
        p90_turns=one.percentile_turns(0.9),
        within={turns: one.finish_within(turns) for turns in WITHIN_TURNS},
        longer_than=1.0 - one.finish_within(LONG_GAME),
        edges=edges,
        never_finishes=never if never > NEVER_SHARE else 0.0,
        histogram=tuple(report.histogram(one.finish_bars(HISTOGRAM_ROWS), HISTOGRAM_WIDTH)),
        visits=(one.visits() or []) if finite else [],
    )


def jump_effects(board: Board) -> dict[int, float]:
    """Jump start -> expected turns without that jump (``inf`` when games may then never
    end). One call covers every jump (``jump_impacts``: low-rank updates of one system),
    so the cursor line is a lookup."""
    try:
        return {impact.start: impact.expected_turns_without for impact in jump_impacts(board)}
    except SnlError:
        return {}


# -- text ------------------------------------------------------------------------------


def _routes(count: int) -> str:
    """'1 (unique)', '423', '1.2e+30': the number of optimal routes, short."""
    if count == 1:
        return "1 (unique)"
    return str(count) if count < 10**9 else f"{count:.1e}"


def _turns(value: float, digits: int = 1) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "infinite"
    return f"{value:.{digits}f}"


def _whole_turns(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isinf(value) or value < 0:
        return "never"
    return str(int(value))


def percent(value: float) -> str:
    """A share in percent with one decimal (``text.percent``); 'n/a' for ``nan``."""
    return "n/a" if math.isnan(value) else text.percent(value)


def edge_text(value: float) -> str:
    """The first seat's edge in percentage points: '+1.23 pts'."""
    if math.isnan(value):
        return "n/a"
    return f"{value * 100:+.2f} pts"


def figure_values(figures: StudioFigures) -> list[tuple[str, str]]:
    """(label, value) of every figure, in the panel's order."""
    least = figures.least_rolls
    expected = _turns(figures.expected_turns)
    rows = [
        ("least rolls", str(least) if least >= 0 else "unreachable"),
        ("routes", _routes(figures.routes) if least > 0 else "-"),
        ("expected", expected),
        ("median", _whole_turns(figures.median_turns)),
        ("std dev", _turns(figures.std_turns)),
        ("most likely", _whole_turns(figures.mode_turns)),
        ("90th pct", _whole_turns(figures.p90_turns)),
    ]
    rows += [(f"within {k}", percent(figures.within.get(k, math.nan))) for k in WITHIN_TURNS]
    rows.append((f"over {LONG_GAME}", percent(figures.longer_than)))
    rows += [(f"edge {p}p", edge_text(figures.edges.get(p, math.nan))) for p in EDGE_PLAYERS]
    return rows


LABEL_WIDTH = 13


def figure_lines(figures: StudioFigures, previous: StudioFigures | None = None) -> list[str]:
    """The panel's figure lines; a figure that changed since ``previous`` reads
    'expected     39.2 -> 35.1'. A board with a problem gets its one line."""
    if figures.problem is not None:
        return [figures.problem]
    before = dict(figure_values(previous)) if previous is not None and previous.ok else {}
    lines = []
    for label, value in figure_values(figures):
        old = before.get(label)
        shown = f"{old} -> {value}" if old is not None and old != value else value
        lines.append(f"{label:<{LABEL_WIDTH}}{shown}")
    if math.isinf(figures.expected_turns):
        lines.append(
            f"games may never end: {percent(figures.never_finishes)} never finish, "
            "so the expected length is infinite"
        )
    return lines


def effect_line(
    board: Board, square: int, effects: dict[int, float] | None, expected: float
) -> str:
    """The cursor line: what removing the jump on ``square`` does to the expected turns.

    ``effects`` is ``jump_effects(board)`` (None while it is being computed).
    """
    jump = board.jump_at(square) if 1 <= square <= board.goal else None
    if jump is None:
        return f"square {square}: no jump starts here"
    if effects is None:
        return f"removing this {jump.kind}: computing…"
    without = effects.get(jump.start)
    if without is None:
        return f"removing this {jump.kind}: not computed"
    return f"removing this {jump.kind}: {_turns(expected)} -> {_turns(without)}"


def visits_line(figures: StudioFigures, square: int, board: Board | None = None) -> str:
    """The heat map's figure for the cursor square, written out; on a jump's start (given
    the ``board``) it says why no turn ever begins there."""
    if not figures.visits or not 0 <= square < len(figures.visits):
        return f"square {square}: visits n/a"
    jump = board.jump_at(square) if board is not None else None
    if jump is not None:
        return f"square {square}: 0 expected visits (the {jump.kind} moves every token on at once)"
    return f"square {square}: {figures.visits[square]:.2f} expected visits"
