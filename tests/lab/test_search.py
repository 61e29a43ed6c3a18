"""The search as data: it agrees with the solver on every board and rule, each step's
queue and distances are the textbook search's, and the route read back is a real route.
The mistakes' models and the shrinker's candidates are checked here too."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.engine import next_position
from snl_tui.core.files.formats import load_board
from snl_tui.core.solver import solve
from snl_tui.lab.boards import expected_answer, jumps_of, leetcode_problem, matrix_of
from snl_tui.lab.judge import smaller
from snl_tui.lab.mistakes import MISTAKES, bfs, flat
from snl_tui.lab.search import breadth_first, forward_distances
from tests.unit.reference import leetcode_909
from tests.unit.strategies import boards


@st.composite
def leetcode_matrices(draw: st.DrawFn, max_side: int = 7) -> list[list[int]]:
    side = draw(st.integers(2, max_side))
    goal = side * side
    pairs = draw(st.lists(st.tuples(st.integers(2, goal - 1), st.integers(1, goal))))
    return matrix_of(side, {a: b for a, b in pairs if a != b})


@settings(max_examples=150, deadline=None)
@given(boards(max_side=6))
def test_the_search_agrees_with_the_solver(board: Board) -> None:
    found = breadth_first(board)
    assert found.answer == solve(board).moves
    full = forward_distances(board)
    for square, distance in found.distance.items():
        assert full[square] == distance
    route = found.route
    if found.answer >= 0:
        assert len(route) == found.answer + 1 and route[-1] == board.goal
        for before, after in itertools.pairwise(route):
            _, die, _ = found.parent[after]
            assert next_position(board, before, die) == after
    else:
        assert route == [] and set(found.distance) == set(full)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5))
def test_every_step_shows_the_textbook_queue(board: Board) -> None:
    found = breadth_first(board)
    for index in range(len(found.steps)):
        view = found.view(index)
        step = view.step
        levels = [view.distances[square] for square in view.queue]
        assert levels == sorted(levels)
        if levels:
            assert levels[-1] - levels[0] <= 1
        if step.here is not None and not view.route:
            assert view.distances[step.here] == step.level
        if step.end is not None:
            assert step.end in view.distances
        assert all(label in {line.label for line in found.code} for label in step.labels)


def test_leetcode_1_levels() -> None:
    found = breadth_first(load_board("leetcode-1"))
    starts = found.level_starts()
    assert [found.steps[i].level for i in starts] == [0, 1, 2, 3]
    assert found.view(starts[1]).queue == (3, 4, 5, 6, 7)  # 15 was taken out
    assert found.route == [1, 15, 13, 35, 36]
    read_back = [step.text for step in found.steps if step.labels == ("route",)]
    assert read_back[0] == "Read the route back from the goal: 36."
    assert "35 was first reached from square 13 with a 1 (on 14, a ladder to 35)." in read_back


def test_the_one_jump_rule_is_shown() -> None:
    # Square 2's ladder ends on 5, where another ladder starts: the move stops on 5.
    board = Board(3, 3, [(2, 5), (5, 9)])
    found = breadth_first(board)
    step = next(s for s in found.steps if s.landed == 2)
    assert step.one_jump == 5 and step.end == 5 and "one jump only" in step.text


@settings(max_examples=200, deadline=None)
@given(leetcode_matrices())
def test_the_models_without_a_mistake_are_leetcode(matrix: list[list[int]]) -> None:
    answer, squares = bfs(flat(matrix))
    expected = expected_answer(matrix)
    assert answer == expected == leetcode_909(matrix)
    if answer is not None and answer > 0:
        board = Board.from_matrix(matrix)
        assert squares[0] == 1 and squares[-1] == board.goal
    # Every model ends (an answer, or None for a search that would never end), and a
    # mistake is a mistake: on some boards only.
    for mistake in MISTAKES:
        for _, model in mistake.variants:
            got, _ = model(matrix, expected)
            assert got is None or isinstance(got, int)


@settings(max_examples=100, deadline=None)
@given(leetcode_matrices())
def test_shrinking_candidates_are_simpler_leetcode_boards(matrix: list[list[int]]) -> None:
    side, jumps = len(matrix), len(jumps_of(matrix))
    for candidate in smaller(matrix):
        assert leetcode_problem(candidate) is None
        assert len(candidate) < side or len(jumps_of(candidate)) < jumps


def test_the_first_step_says_where_the_search_starts() -> None:
    off = breadth_first(load_board("classic")).steps[0].text
    assert off.startswith("The search starts off the board (square 0), distance 0"), off
    on = breadth_first(load_board("leetcode-1")).steps[0].text
    assert on.startswith("The search starts on square 1, distance 0"), on
