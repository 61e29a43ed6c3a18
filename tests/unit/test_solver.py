"""The solver against LeetCode 909's traps, an independent BFS and a brute force.

Every route the solver returns is replayed through the engine.
"""

import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snl_tui.core import solver as solver_module
from snl_tui.core.board import Board
from snl_tui.core.engine import landing_table, legal_dice, next_position
from snl_tui.core.errors import MoveError
from snl_tui.core.rules import Rules
from snl_tui.core.solver import (
    _search_arrays,
    distances_to_goal,
    least_rolls_from,
    optimal_dice,
    optimal_route,
    solve,
)

from .reference import LEETCODE_1, LLD_RESOLVED, brute_force_least_rolls, leetcode_909
from .strategies import boards


def replay(board: Board, start: int, rolls: list[int]) -> list[int]:
    squares, position = [], start
    for die in rolls:
        assert die in legal_dice(board, position), (position, die)
        position = next_position(board, position, die)
        squares.append(position)
    return squares


def assert_route_is_sound(board: Board, solution, start: int) -> None:
    assert len(solution.rolls) == len(solution.squares) == max(solution.moves, 0)
    if solution.moves > 0:
        assert replay(board, start, solution.rolls) == solution.squares
        assert solution.squares[-1] == board.goal
        assert board.goal not in solution.squares[:-1]


def test_leetcode_examples():
    assert solve(Board.from_matrix(LEETCODE_1)).moves == 4
    assert solve(Board.from_matrix([[-1, -1], [-1, 3]])).moves == 1
    sol = solve(Board.from_matrix(LEETCODE_1))
    assert_route_is_sound(Board.from_matrix(LEETCODE_1), sol, 1)


def test_lld_resolved_matrix_needs_three_rolls_not_the_four_its_text_claims():
    board = Board.from_matrix(LLD_RESOLVED)
    sol = solve(board)
    assert sol.moves == 3
    assert_route_is_sound(board, sol, 1)


def test_no_chaining_trap_from_the_problem_statement():
    # [[4,-1],[-1,3]]: rolling to 2 climbs to 3 and stops there. (Square 4's cell holds
    # its own number: no jump, as in the resolved-board convention.)
    board = Board.from_matrix([[4, -1], [-1, 3]])
    assert board.jumps == {2: 3}
    assert next_position(board, 1, 1) == 3
    assert solve(board).moves == 1 == leetcode_909([[4, -1], [-1, 3]])
    # A ladder into a ladder: without chain the second one does not fire in the same move.
    chained = Board(4, 4, [(2, 10), (10, 16)])
    assert next_position(chained, 1, 1) == 10
    assert solve(chained).moves == 2
    assert solve(chained.with_rules(Rules(chain=True))).moves == 1


def test_a_jump_destination_that_starts_a_jump_is_a_resting_square():
    # Square 3's ladder goes to 10, which starts a snake to 2. From 10 the token moves on.
    board = Board(4, 4, [(3, 10), (10, 2)])
    assert solve(board, 10).moves == 1  # 10 + 6 = 16
    assert solve(board).moves == 2  # 1 -> 3 (ladder 10) -> 16
    assert landing_table(Board(4, 4, [(3, 10), (10, 2)], rules=Rules(chain=True)))[3] == 2


def test_ladder_ending_on_the_goal_and_odd_rows():
    matrix = [[-1] * 5 for _ in range(5)]
    matrix[4][2] = 25  # square 3 -> goal
    board = Board.from_matrix(matrix)
    assert solve(board).moves == 1 == leetcode_909(matrix)
    assert solve(board).rolls == [2]


def test_unreachable_goal_gives_minus_one_and_no_route():
    # Every square 2..7 snakes back to 1: a wall.
    board = Board(3, 4, [(s, 1) for s in range(2, 8)])
    sol = solve(board)
    assert (sol.moves, sol.rolls, sol.squares) == (-1, [], [])
    assert least_rolls_from(board, 1) == -1
    assert optimal_dice(board, 1) == ()
    assert optimal_route(board, 1).moves == -1


def test_rectangular_boards():
    board = Board(2, 9, [(4, 17)])
    assert solve(board).moves == 2  # 1 -> 4 -> 17 -> 18
    assert solve(Board(1, 2)).moves == 1
    assert solve(Board(3, 1)).moves == 1


def test_from_a_square_and_from_the_goal():
    board = Board.from_matrix(LEETCODE_1)
    assert solve(board, 36).moves == 0
    sol = solve(board, 30)
    assert sol.moves == 1 and sol.start == 30
    with pytest.raises(MoveError):
        solve(board, 37)


def test_start_off_the_board_lets_square_1_jump_fire():
    board = Board(5, 5, [(1, 24)], rules=Rules(start=0))
    assert solve(board).moves == 2  # off -> 1 -> ladder 24 -> 25
    assert solve(board.with_rules(Rules(start=1))).moves == 4  # 1 -> 7 -> 13 -> 19 -> 25


def test_overshoot_rules_change_the_answer():
    board = Board(1, 8, [(6, 2), (7, 2)])
    # stay: from 1 only the exact 8 finishes: 1 -> 8? needs 7 (faces 6): 1 -> 5 -> 8 ... 2 rolls
    assert solve(board).moves == 2
    assert solve(board.with_rules(Rules(overshoot="finish", faces=6))).moves == 2
    three_sided = Board(1, 8, [(6, 2), (7, 2)], rules=Rules(faces=3))
    assert solve(three_sided).moves == brute_force_least_rolls(three_sided.to_matrix(), faces=3)


def _random_matrix(rng: random.Random, rows: int, cols: int, density: float) -> list[list[int]]:
    goal = rows * cols
    matrix = [[-1] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if rng.random() < density:
                matrix[r][c] = rng.randint(1, goal)
    # LeetCode: squares 1 and the goal carry no jump.
    matrix[rows - 1][0] = -1
    top_level = rows - 1
    matrix[0][cols - 1 if top_level % 2 == 0 else 0] = -1
    return matrix


def test_hundreds_of_random_square_boards_agree_with_the_textbook_bfs():
    rng = random.Random(909)
    checked = 0
    for _ in range(600):
        n = rng.randint(2, 12)
        matrix = _random_matrix(rng, n, n, rng.choice([0.05, 0.2, 0.5, 0.9]))
        board = Board.from_matrix(matrix)
        sol = solve(board)
        assert sol.moves == leetcode_909(matrix), matrix
        assert distances_to_goal(board)[1] == sol.moves
        assert_route_is_sound(board, sol, 1)
        checked += 1
    assert checked == 600


def test_adversarial_boards():
    cases = {
        # a snake on every square but one path of ladders
        "maze": [[-1, -1, -1], [1, 1, 1], [-1, 9, 1]],
        # ladders into snake heads (no chaining)
        "ladder_to_snake": [[-1, -1, -1, -1], [-1, -1, -1, -1], [-1, 2, -1, -1], [-1, 10, -1, -1]],
        # resolved-style cells mixed with -1
        "mixed_resolved": [[7, 8, -1], [4, 5, 6], [1, 9, 3]],
    }
    for matrix in cases.values():
        board = Board.from_matrix(matrix)
        assert solve(board).moves == leetcode_909(matrix)


square_boards = st.integers(2, 9).flatmap(
    lambda n: st.lists(
        st.lists(
            st.one_of(st.just(-1), st.just(-1), st.integers(1, n * n)), min_size=n, max_size=n
        ),
        min_size=n,
        max_size=n,
    )
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(square_boards)
def test_property_square_boards_match_leetcode(matrix):
    n = len(matrix)
    matrix[n - 1][0] = -1
    matrix[0][n - 1 if (n - 1) % 2 == 0 else 0] = -1
    board = Board.from_matrix(matrix)
    sol = solve(board)
    assert sol.moves == leetcode_909(matrix)
    assert_route_is_sound(board, sol, 1)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_property_any_rules_match_the_brute_force_and_routes_replay(board, data):
    rules = board.rules
    start = data.draw(st.integers(0, board.goal))
    expected = brute_force_least_rolls(
        board.to_matrix(), start, rules.faces, rules.overshoot, rules.chain
    )
    sol = solve(board, start)
    assert sol.moves == expected
    assert least_rolls_from(board, start) == expected
    assert_route_is_sound(board, sol, start)
    route = optimal_route(board, start)
    assert route.moves == expected
    assert_route_is_sound(board, route, start)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_property_optimal_dice_are_exactly_the_values_that_stay_optimal(board, data):
    position = data.draw(st.integers(0, board.goal - 1))
    best = least_rolls_from(board, position)
    chosen = set(optimal_dice(board, position))
    for die in legal_dice(board, position):
        after = least_rolls_from(board, next_position(board, position, die))
        stays = best > 0 and after == best - 1
        assert (die in chosen) == stays
    assert chosen <= set(legal_dice(board, position))
    if best > 0:
        assert chosen  # some die value always continues an optimal route


def test_large_board_is_solved_with_a_sound_route():
    rng = random.Random(5)
    matrix = _random_matrix(rng, 300, 300, 0.02)
    board = Board.from_matrix(matrix)
    sol = solve(board)
    assert sol.moves == leetcode_909(matrix)
    assert_route_is_sound(board, sol, 1)


def test_optimal_route_limit_keeps_the_full_count_and_the_same_start():
    board = Board(1, 300)  # 50 rolls, no jumps
    full = optimal_route(board, 1)
    short = optimal_route(board, 1, limit=5)
    assert full.moves == short.moves == 50
    assert short.rolls == full.rolls[:5] and short.squares == full.squares[:5]


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5, max_faces=4))
def test_count_optimal_routes_against_every_die_sequence(board) -> None:  # type: ignore[no-untyped-def]
    """The number of optimal routes (issue 22: is the puzzle's answer unique?) equals
    the die-value sequences of the least length that reach the goal, enumerated."""
    from itertools import product

    from snl_tui.core.engine import next_position
    from snl_tui.core.solver import count_optimal_routes

    least = solve(board).moves
    counted = count_optimal_routes(board)
    if least < 0:
        assert counted == 0
        return
    if board.rules.faces**least > 20_000:
        return  # too many sequences to enumerate
    start = board.rules.start_position
    found = 0
    for dice in product(range(1, board.rules.faces + 1), repeat=least):
        here = start
        for die in dice:
            here = next_position(board, here, die)
        found += here == board.goal
    assert counted == found


# -- the array search (boards past ARRAY_SEARCH_SQUARES), on small boards too -----------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(square_boards)
def test_property_the_array_search_matches_leetcode(matrix):
    n = len(matrix)
    matrix[n - 1][0] = -1
    matrix[0][n - 1 if (n - 1) % 2 == 0 else 0] = -1
    board = Board.from_matrix(matrix)
    sol = _search_arrays(board, 1)
    assert sol.moves == leetcode_909(matrix)
    assert_route_is_sound(board, sol, 1)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_side=9, max_faces=20), st.data())
def test_property_the_array_search_matches_the_brute_force_under_any_rules(board, data):
    """Rectangular boards, every overshoot, chains, starts and dice: the array search
    (with its walk over jump-free stretches, narrow and wide levels) against the brute
    force and the list BFS."""
    rules = board.rules
    start = data.draw(st.integers(0, board.goal))
    expected = brute_force_least_rolls(
        board.to_matrix(), start, rules.faces, rules.overshoot, rules.chain
    )
    # Levels of every width (each roll of each square, or the union of their windows),
    # where rolls end read off the cells or off the whole table.
    narrow = data.draw(st.sampled_from([0, 2, solver_module.NARROW_FRONTIER]))
    direct = data.draw(st.sampled_from([0, 3, solver_module.DIRECT_LEVELS, 10**9]))
    # A level's positions put in order by sorting them or by marking the board.
    marked = data.draw(st.sampled_from([0, 1, solver_module.MARKED_LEVEL, 10**9]))
    with (
        mock.patch.object(solver_module, "NARROW_FRONTIER", narrow),
        mock.patch.object(solver_module, "DIRECT_LEVELS", direct),
        mock.patch.object(solver_module, "MARKED_LEVEL", marked),
    ):
        sol = _search_arrays(board, start) if start != board.goal else solve(board, start)
    assert sol.moves == expected
    assert sol.moves == solve(board, start).moves
    assert_route_is_sound(board, sol, start)


def test_the_array_search_walks_long_stretches_and_keeps_the_route() -> None:
    """A 120 x 120 board (past ``ARRAY_SEARCH_SQUARES``): long stretches without jumps,
    a ladder and a snake in them."""
    for jumps, rules in (
        ([], Rules()),
        ([(5_000, 9_000), (11_000, 100)], Rules()),
        ([(4, 14_390), (14_395, 3)], Rules(overshoot="bounce", faces=4)),
        ([(10, 20), (20, 7_000)], Rules(chain=True, start=0)),
    ):
        board = Board(120, 120, jumps, rules=rules)
        sol = solve(board)
        want = brute_force_least_rolls(
            board.to_matrix(), rules.start_position, rules.faces, rules.overshoot, rules.chain
        )
        assert sol.moves == want
        assert_route_is_sound(board, sol, rules.start_position)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (0, "square"),
        (10_202, "square"),
        (-2, "square"),
        (True, "cell is not a whole number"),
        (2.0, "cell is not a whole number"),
        ("x", "cell is not a whole number"),
        (-1.0, "cell is not a whole number"),
        (None, "cell is not a whole number"),
        (2**70, "square"),
    ],
)
def test_a_large_matrix_is_checked_like_a_small_one(cell: object, message: str) -> None:
    """Past ``ARRAY_CHECK_SQUARES`` the cells are checked in numpy: the same errors."""
    from snl_tui.core.board import ARRAY_CHECK_SQUARES
    from snl_tui.core.errors import BoardError

    for n in (4, 101):
        assert (n * n > ARRAY_CHECK_SQUARES) == (n == 101)
        matrix = [[-1] * n for _ in range(n)]
        matrix[1][2] = cell  # type: ignore[call-overload]
        with pytest.raises(BoardError) as small_or_large:
            Board.from_matrix(matrix)
        assert message in str(small_or_large.value)
        assert "row 1, col 2" in str(small_or_large.value)
    matrix = [[-1] * 101 for _ in range(101)]
    matrix[1][2] = 17
    board = Board.from_matrix(matrix)
    assert board.cell_array().tolist() == list(board.cells)
