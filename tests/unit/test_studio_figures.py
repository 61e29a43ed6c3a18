"""The board studio's figures (core/studio.py) against independent computations.

Standard deviation, most likely length and expected visits are checked against exact
rationals on small boards (a chain built from the engine's ``next_position`` with
``Fraction``s and solved by Gaussian elimination), and, under ``six_again`` (where a turn
is a run of rolls), against a seeded Monte Carlo of real games with a tolerance from its
standard error.
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import Game, next_position
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.rules import Rules
from snl_tui.core.studio.figures import (
    compute_figures,
    effect_line,
    figure_lines,
    figure_values,
    jump_effects,
    visits_line,
)

from .strategies import boards

# -- an exact reference chain ---------------------------------------------------------


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Gauss-Jordan elimination with exact rationals (partial pivoting on non-zero)."""
    n = len(rhs)
    a = [[*row, value] for row, value in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[r][n] for r in range(n)]


class ExactChain:
    """One-roll-per-turn chain (no six_again) over the squares reachable from the start."""

    def __init__(self, board: Board) -> None:
        assert not board.rules.six_again
        self.board = board
        self.start = board.rules.start_position
        faces = board.rules.faces
        seen, todo = {self.start}, [self.start]
        while todo:
            here = todo.pop()
            if here == board.goal:
                continue
            for die in range(1, faces + 1):
                there = next_position(board, here, die)
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
        self.states = sorted(seen - {board.goal})
        index = {s: i for i, s in enumerate(self.states)}
        n = len(self.states)
        self.q = [[Fraction(0)] * n for _ in range(n)]
        for i, here in enumerate(self.states):
            for die in range(1, faces + 1):
                there = next_position(board, here, die)
                if there != board.goal:
                    self.q[i][index[there]] += Fraction(1, faces)
        self.index = index

    def _i_minus_q(self, transpose: bool = False) -> list[list[Fraction]]:
        n = len(self.states)
        m = [[(1 if i == j else 0) - self.q[i][j] for j in range(n)] for i in range(n)]
        return [list(col) for col in zip(*m, strict=True)] if transpose else m

    def moments(self) -> tuple[Fraction, Fraction]:
        """(E[T], E[T^2]) from the start: (I-Q) m1 = 1, (I-Q) m2 = 1 + 2 Q m1."""
        n = len(self.states)
        m1 = _solve(self._i_minus_q(), [Fraction(1)] * n)
        rhs = [1 + 2 * sum(self.q[i][j] * m1[j] for j in range(n)) for i in range(n)]
        m2 = _solve(self._i_minus_q(), rhs)
        s = self.index[self.start]
        return m1[s], m2[s]

    def visits(self) -> dict[int, Fraction]:
        """Square -> expected turns beginning on it: e_start (I - Q)^-1."""
        n = len(self.states)
        unit = [Fraction(int(i == self.index[self.start])) for i in range(n)]
        values = _solve(self._i_minus_q(transpose=True), unit)
        return dict(zip(self.states, values, strict=True))

    def pmf(self, turns: int) -> list[Fraction]:
        """P(finishing at exactly turn t), t = 0..turns, by forward iteration."""
        n = len(self.states)
        dist = [Fraction(int(i == self.index[self.start])) for i in range(n)]
        out = [Fraction(0)]
        for _ in range(turns):
            nxt = [sum(dist[i] * self.q[i][j] for i in range(n)) for j in range(n)]
            out.append(sum(dist) - sum(nxt))
            dist = nxt
        return out


SMALL = Board(3, 4, [(2, 9), (7, 3), (10, 5), (4, 8)], rules=Rules(faces=4))


def test_std_mode_and_visits_match_exact_rationals() -> None:
    exact = ExactChain(SMALL)
    m1, m2 = exact.moments()
    figures = compute_figures(SMALL)
    assert figures.expected_turns == pytest.approx(float(m1), rel=1e-9)
    assert figures.std_turns == pytest.approx(math.sqrt(float(m2 - m1 * m1)), rel=1e-6)
    pmf = exact.pmf(40)
    best = max(pmf)
    assert 1 - sum(pmf) < best  # the tail cannot hide a likelier turn
    assert figures.mode_turns == pmf.index(best)
    visits = exact.visits()
    assert len(figures.visits) == SMALL.goal + 1
    for square, value in enumerate(figures.visits):
        assert value == pytest.approx(float(visits.get(square, 0)), abs=1e-9), square
    assert sum(figures.visits) == pytest.approx(figures.expected_turns, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(boards(max_side=4, max_faces=6))
def test_visits_match_exact_rationals_on_random_boards(board: Board) -> None:
    figures = compute_figures(board)
    if not math.isfinite(figures.expected_turns):
        assert figures.visits == []
        assert any("never end" in line for line in figure_lines(figures))
        return
    exact = ExactChain(board)
    reference = exact.visits()
    for square, value in enumerate(figures.visits):
        assert value == pytest.approx(float(reference.get(square, 0)), abs=1e-7), square


def test_six_again_visits_and_std_match_a_monte_carlo() -> None:
    board = Board(4, 4, [(3, 11), (9, 4), (14, 6)], rules=Rules(six_again=True))
    figures = compute_figures(board)
    games = 3000
    counts = [[0] * (board.goal + 1) for _ in range(games)]
    lengths = []
    for g in range(games):
        game = Game(board, seed=1000 + g)
        again = False
        while not game.over:
            if not again:  # a new turn begins on this square
                counts[g][game.position] += 1
            again = game.roll().again
        lengths.append(game.turns_taken[0])
    for square in range(board.goal + 1):
        column = [c[square] for c in counts]
        mean = statistics.fmean(column)
        error = statistics.pstdev(column) / math.sqrt(games)
        assert abs(mean - figures.visits[square]) <= 5 * error + 1e-9, square
    sample_std = statistics.stdev(lengths)
    # The sample std's standard error is about std / sqrt(2 (n - 1)).
    assert abs(sample_std - figures.std_turns) <= 5 * sample_std / math.sqrt(2 * (games - 1))
    assert abs(statistics.fmean(lengths) - figures.expected_turns) <= 5 * sample_std / math.sqrt(
        games
    )


@pytest.mark.parametrize("name", builtin_names())
def test_visits_sum_to_the_expected_turns_on_builtin_boards(name: str) -> None:
    board = load_board(name)
    figures = compute_figures(board)
    if figures.ok and math.isfinite(figures.expected_turns):
        assert sum(figures.visits) == pytest.approx(figures.expected_turns, rel=1e-8)
        assert figures.visits[board.goal] == 0.0
        # A turn never begins on a jump's start, except the start square itself and
        # (without chain) the end of another jump.
        ends = set(board.jumps.values())
        resting = [j for j in board.jumps if j != board.rules.start_position and j not in ends]
        assert all(figures.visits[jump] == 0.0 for jump in resting)


def test_changed_figures_read_old_arrow_new() -> None:
    classic = load_board("classic")
    snake = next(j for j in classic.snakes)
    fewer = Board(
        classic.rows,
        classic.cols,
        [(a, b) for a, b in classic.jumps.items() if a != snake.start],
        rules=classic.rules,
    )
    before, after = compute_figures(classic), compute_figures(fewer)
    lines = figure_lines(after, before)
    old_values = dict(figure_values(before))
    for (label, value), line in zip(figure_values(after), lines, strict=False):
        assert line.startswith(label)
        if old_values[label] == value:
            assert "->" not in line
        else:
            assert line.endswith(f"{old_values[label]} -> {value}")
    expected_line = next(line for line in lines if line.startswith("expected"))
    assert f"{before.expected_turns:.1f} -> {after.expected_turns:.1f}" in expected_line
    # Without a previous board there are no arrows at all.
    assert not any("->" in line for line in figure_lines(after))


def test_jump_effects_agree_with_analysing_the_board_without_the_jump() -> None:
    classic = load_board("classic")
    effects = jump_effects(classic)
    assert set(effects) == set(classic.jumps)
    for start in list(classic.jumps)[:4]:
        reduced = Board(
            classic.rows,
            classic.cols,
            [(a, b) for a, b in classic.jumps.items() if a != start],
            rules=classic.rules,
        )
        assert effects[start] == pytest.approx(compute_figures(reduced).expected_turns, rel=1e-9)
    expected = compute_figures(classic).expected_turns
    start = next(iter(classic.jumps))
    kind = classic.jump_at(start).kind  # type: ignore[union-attr]
    line = effect_line(classic, start, effects, expected)
    assert line == f"removing this {kind}: {expected:.1f} -> {effects[start]:.1f}"
    empty = next(s for s in range(2, classic.goal) if s not in classic.jumps)
    assert "no jump" in effect_line(classic, empty, effects, expected)
    assert "computing" in effect_line(classic, start, None, expected)


def test_too_big_board_says_why_in_one_line() -> None:
    figures = compute_figures(Board(201, 201))  # past the distribution's limit
    assert not figures.ok
    lines = figure_lines(figures)
    assert len(lines) == 1 and "40,401" in lines[0]
    assert figures.visits == []
    assert visits_line(figures, 5) == "square 5: visits n/a"


def test_a_board_that_never_finishes_says_so() -> None:
    # From 2 and 3 every roll of a 2-sided die leads back to 2 or 3: the goal is unreachable.
    trap = Board(2, 4, [(4, 2), (5, 3)], rules=Rules(faces=2))
    figures = compute_figures(trap)
    assert figures.expected_turns == math.inf
    assert figures.never_finishes == pytest.approx(1.0)
    assert figures.visits == []
    values = dict(figure_values(figures))
    assert values["expected"] == "infinite"
    assert values["least rolls"] == "unreachable"
    assert any("may never end" in line for line in figure_lines(figures))


@given(st.integers(0, 100))
def test_visits_line_writes_the_square_figure(square: int) -> None:
    figures = compute_figures(load_board("classic"))
    assert visits_line(figures, square) == (
        f"square {square}: {figures.visits[square]:.2f} expected visits"
    )


def test_a_jumps_start_says_why_it_has_no_visits() -> None:
    board = load_board("classic")
    figures = compute_figures(board)
    assert figures.visits[1] == 0.0  # the ladder 1 -> 38: no turn begins on square 1
    assert visits_line(figures, 1, board) == (
        "square 1: 0 expected visits (the ladder moves every token on at once)"
    )
    assert visits_line(figures, 2, board).endswith("expected visits")
