"""The board model: numbering, matrices (plain and resolved), jumps and their validation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snl_tui.core.board import Board, JumpSpec
from snl_tui.core.engine import jump_table, landing_table
from snl_tui.core.errors import BoardError
from snl_tui.core.rules import Rules
from snl_tui.core.solver import solve

from .reference import LEETCODE_1, LLD_RESOLVED, matrix_cell
from .strategies import boards


def test_numbering_runs_boustrophedon_from_the_bottom_left():
    board = Board(3, 4)
    # Drawn as the board looks: row 0 on top.
    drawn = [[board.square_at(r, c) for c in range(4)] for r in range(3)]
    assert drawn == [[9, 10, 11, 12], [8, 7, 6, 5], [1, 2, 3, 4]]
    assert board.position_of(1) == (2, 0)
    assert board.position_of(12) == (0, 3)
    assert board.goal == 12


def test_odd_square_board_ends_top_right():
    board = Board(5, 5)
    assert board.position_of(25) == (0, 4)
    assert board.position_of(21) == (0, 0)
    assert board.position_of(20) == (1, 0)


@given(st.integers(1, 40), st.integers(1, 40), st.data())
def test_square_and_cell_are_inverse(rows, cols, data):
    if rows * cols < 2:
        return
    board = Board(rows, cols)
    square = data.draw(st.integers(1, rows * cols))
    row, col = board.position_of(square)
    assert (row, col) == matrix_cell(rows, cols, square)
    assert board.square_at(row, col) == square


def test_leetcode_matrix_reads_jumps_at_the_right_squares():
    board = Board.from_matrix(LEETCODE_1)
    assert board.jumps == {2: 15, 14: 35, 17: 13}
    assert [j.kind for j in board.ladders] == ["ladder", "ladder"]
    assert [(j.start, j.end) for j in board.snakes] == [(17, 13)]
    assert board.to_matrix() == LEETCODE_1


def test_resolved_matrix_means_the_same_as_the_minus_one_form():
    resolved = Board.from_matrix(LLD_RESOLVED)
    assert resolved.jumps == {
        6: 18,
        11: 14,
        15: 22,
        16: 2,
        20: 5,
        21: 28,
        23: 35,
        25: 12,
        31: 20,
        34: 22,
    }
    assert Board.from_matrix(resolved.to_matrix()) == resolved
    assert Board.from_matrix(resolved.to_matrix(resolved=True)) == resolved


def test_rectangular_matrix():
    matrix = [[-1, -1, -1], [-1, 2, -1]]  # 2 rows x 3 cols; square 2 is bottom middle
    board = Board.from_matrix(matrix)
    assert (board.rows, board.cols, board.goal) == (2, 3, 6)
    assert board.jumps == {}  # a cell holding its own number is no jump
    board = Board.from_matrix([[-1, 1, -1], [-1, -1, -1]])  # square 5 (top middle) -> 1
    assert board.jumps == {5: 1}


@pytest.mark.parametrize(
    ("matrix", "fragment"),
    [
        ([], "empty"),
        ([[]], "row 0 is empty"),
        ("[[1]]", "list of rows"),
        ([[-1, -1], [-1]], "ragged matrix: row 1 has 1 cells, row 0 has 2"),
        ([[-1, -1], [-1, "x"]], "row 1, col 1 (square 2): cell is not a whole number: 'x'"),
        ([[-1, -1], [-1, True]], "row 1, col 1 (square 2): cell is not a whole number"),
        ([[-1, -1], [-1, 2.0]], "cell is not a whole number"),
        ([[-1, -1], [-1, 9]], "row 1, col 1 (square 2): destination 9 is outside the board"),
        ([[-1, -1], [-1, 0]], "destination 0 is outside the board (1..4)"),
        ([[1, -1], [-1, -1]], "row 0, col 0 (square 4): a jump cannot start on the goal"),
        ([[-1]], "at least 2 squares"),
    ],
)
def test_bad_matrices_name_the_place(matrix, fragment):
    with pytest.raises(BoardError) as caught:
        Board.from_matrix(matrix)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("jumps", "rules", "fragment"),
    [
        ([JumpSpec(3, 9, "snake", "snakes entry 1")], Rules(), "snakes entry 1: 3 -> 9 goes up"),
        (
            [JumpSpec(9, 3, "ladder", "ladders entry 2")],
            Rules(),
            "ladders entry 2: 9 -> 3 goes down",
        ),
        ([(3, 9), (3, 5)], Rules(), "two jumps start on square 3 (to 9 and to 5)"),
        ([(3, 30)], Rules(), "destination 30 is outside the board (1..16)"),
        ([(0, 5)], Rules(), "jump start 0 is outside the board"),
        ([(16, 2)], Rules(), "a jump cannot start on the goal (square 16)"),
        ([(4, 4)], Rules(), "jump 4 -> 4 goes nowhere"),
        (
            [(3, 9), (9, 5), (5, 3)],
            Rules(chain=True),
            "jump cycle under chain = true: 3 -> 9 -> 5 -> 3",
        ),
    ],
)
def test_bad_jumps_are_refused(jumps, rules, fragment):
    with pytest.raises(BoardError) as caught:
        Board(4, 4, jumps, rules=rules)
    assert fragment in str(caught.value)


def test_a_cycle_is_fine_without_chaining_but_not_after_switching_chain_on():
    board = Board(4, 4, [(3, 9), (9, 3)])
    assert landing_table(board)[3] == 9 and landing_table(board)[9] == 3
    with pytest.raises(BoardError, match="jump cycle"):
        board.with_rules(Rules(chain=True))


@pytest.mark.parametrize(("rows", "cols"), [(0, 5), (5, 0), (1001, 2), (2, 1001), (1, 1)])
def test_board_size_limits(rows, cols):
    with pytest.raises(BoardError):
        Board(rows, cols)


def test_largest_board_is_accepted():
    assert Board(1000, 1000).goal == 1_000_000
    assert Board(1, 2).goal == 2


def test_landing_table_follows_chains_only_under_chain():
    jumps = [(2, 5), (5, 11), (11, 7)]
    assert landing_table(Board(4, 4, jumps))[2] == 5
    assert landing_table(Board(4, 4, jumps, rules=Rules(chain=True)))[2] == 7


def test_boards_compare_by_squares_jumps_and_rules():
    a = Board.from_jumps(4, 4, ladders=[(2, 9)], snakes=[(12, 3)])
    b = Board(4, 4, [(12, 3), (2, 9)], name="other name")
    assert a == b and hash(a) == hash(b)
    assert a != a.with_rules(Rules(start=0))
    assert a != Board(4, 4, [(2, 9)])


@given(boards(max_side=8), st.booleans())
def test_matrix_boards_equal_the_same_board_built_from_jumps(board, resolved):
    # from_matrix keeps the cells as its jump table and derives the jumps lazily: every
    # view of it must match the board built from the jump list.
    again = Board.from_matrix(board.to_matrix(resolved=resolved), rules=board.rules)
    assert again == board and hash(again) == hash(board)
    assert landing_table(again) == landing_table(board)
    assert [t if v < 0 else v for t, v in enumerate(jump_table(again))] == list(
        landing_table(board)
    )
    assert again.jumps == board.jumps


def test_a_board_cannot_be_changed_after_construction():
    board = Board(4, 4, [(2, 9)])
    with pytest.raises(AttributeError):
        board.rows = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        board.extra = 1  # type: ignore[attr-defined]
    assert board.rows == 4 and board.jumps == {2: 9}


def test_a_long_chain_resolves_in_linear_time():
    # Every square jumps to the next one: following each chain again from every square
    # (the old jump table) is quadratic and never finished at 300 x 300.
    side = 300
    goal = side * side
    board = Board(side, side, [(s, s + 1) for s in range(2, goal - 1)], rules=Rules(chain=True))
    table = landing_table(board)
    assert table[2] == goal - 1 and table[goal - 2] == goal - 1 and table[1] == 1
    # 1 -> 2, chained all the way to goal - 1; then one more roll of 1.
    assert solve(board).moves == 2
    assert Board.from_matrix(board.to_matrix(), rules=board.rules) == board
