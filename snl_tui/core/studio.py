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

import numpy as np

from .analysis import Analysis, AnalysisError, analyze, histogram, jump_impacts
from .board import Board
from .engine import roll_table
from .errors import SnlError

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
        one = analyze(board, players=1)
        edges = {
            players: analyze(board, players=players).win_chances[0] - 1.0 / players
            for players in EDGE_PLAYERS
        }
    except AnalysisError as error:
        return StudioFigures(problem=f"no figures: {error}")
    except SnlError as error:  # any other refusal of the analysis: one line, no traceback
        return StudioFigures(problem=f"no figures: {error}")
    expected = one.expected_turns
    never = one.never_finishes
    finite = math.isfinite(expected)
    return StudioFigures(
        expected_turns=expected,
        least_rolls=one.least_rolls,
        median_turns=one.percentile_turns(0.5),
        std_turns=std_turns(one),
        mode_turns=mode_turns(one),
        p90_turns=one.percentile_turns(0.9),
        within={turns: one.finish_within(turns) for turns in WITHIN_TURNS},
        longer_than=1.0 - one.finish_within(LONG_GAME),
        edges=edges,
        never_finishes=never if never > NEVER_SHARE else 0.0,
        histogram=tuple(histogram(one, rows=HISTOGRAM_ROWS, width=HISTOGRAM_WIDTH)),
        visits=expected_visits(board) if finite else [],
    )


# -- provisional helpers ---------------------------------------------------------------
# They read the Analysis distribution and the engine's roll table until the analysis
# split lands with these figures built in.


def std_turns(analysis: Analysis) -> float:
    """Standard deviation of the finishing turn; ``inf`` when some games never end.

    # provisional: becomes Analysis.std_turns once the analysis split lands.
    """
    if analysis.never_finishes > NEVER_SHARE or not math.isfinite(analysis.expected_turns):
        return math.inf
    pmf = np.asarray(analysis.distribution)
    turns = np.arange(len(pmf), dtype=float)
    mass = pmf.sum()
    mean = float(turns @ pmf) / mass
    variance = float(((turns - mean) ** 2) @ pmf) / mass
    return math.sqrt(max(variance, 0.0))


def mode_turns(analysis: Analysis) -> int:
    """The most likely finishing turn (the first one on a tie); -1 when none finishes.

    # provisional: becomes Analysis.mode_turns once the analysis split lands.
    """
    pmf = analysis.distribution
    best = max(pmf, default=0.0)
    if best <= 0.0:
        return -1
    return pmf.index(best)


def expected_visits(board: Board) -> list[float]:
    """Expected number of turns that BEGIN on each square in a one-player game.

    Index 0 is off the board; the values sum to the expected turns. Only meaningful when
    every game from the start ends (the caller checks): then the turn chain restricted
    to the squares reachable from the start is transient and ``I - T`` is invertible.

    # provisional: becomes Analysis.visits once the analysis split lands.
    """
    goal, faces = board.goal, board.rules.faces
    start = board.rules.start_position
    dest = np.array(roll_table(board), dtype=np.intp)  # (goal, faces): positions 0..goal-1
    # Squares a turn can begin on, reachable from the start (a breadth-first search).
    seen = np.zeros(goal + 1, dtype=bool)
    seen[start] = True
    frontier = [start]
    while frontier:
        rows = dest[frontier].ravel()
        fresh = np.unique(rows[~seen[rows]])
        seen[fresh] = True
        frontier = [int(q) for q in fresh if q != goal]
    states = np.flatnonzero(seen[:goal])
    index = np.full(goal + 1, -1, dtype=np.intp)
    index[states] = np.arange(len(states))
    n = len(states)
    # Per roll: B = rolls that end the turn, A = top rolls that continue it (six_again,
    # not winning). Per turn: T = (I - A)^-1 B, restricted to non-goal states.
    a = np.zeros((n, n))
    b = np.zeros((n, n))
    scale = 1.0 / faces
    for row, p in enumerate(states):
        for face, q in enumerate(dest[p].tolist(), start=1):
            if q == goal:
                continue
            target = a if board.rules.six_again and face == faces else b
            target[row, index[q]] += scale
    turn = np.linalg.solve(np.eye(n) - a, b) if board.rules.six_again else b
    unit = np.zeros(n)
    unit[index[start]] = 1.0
    row_visits = np.linalg.solve((np.eye(n) - turn).T, unit)
    visits = [0.0] * (goal + 1)
    for square, value in zip(states.tolist(), row_visits.tolist(), strict=True):
        visits[square] = max(value, 0.0)
    return visits


def jump_effects(board: Board) -> dict[int, float]:
    """Jump start -> expected turns without that jump (``inf`` when games may then never
    end). One call covers every jump, so the cursor line is a lookup.

    # provisional: ``analysis.jump_impacts`` (rank-2 updates of one inverted system) until
    # the analysis split brings its fast ``expected_turns``.
    """
    try:
        return {impact.start: impact.expected_turns_without for impact in jump_impacts(board)}
    except SnlError:
        return {}


# -- text ------------------------------------------------------------------------------


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
    """A share in percent with one decimal; never rounds a possibility to 0% or 100%."""
    if math.isnan(value):
        return "n/a"
    if 0 < value < 0.0005:
        return "<0.1%"
    if 0.9995 < value < 1:
        return ">99.9%"
    return f"{value * 100:.1f}%"


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


def visits_line(figures: StudioFigures, square: int) -> str:
    """The heat map's figure for the cursor square, written out."""
    if not figures.visits or not 0 <= square < len(figures.visits):
        return f"square {square}: visits n/a"
    return f"square {square}: {figures.visits[square]:.2f} expected visits"
