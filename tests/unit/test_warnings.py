"""`board_warnings`: legal boards that are probably not what their author meant (SPEC 2)."""

from __future__ import annotations

import pytest

from snl_tui import Board, Rules, load_board
from snl_tui.core.studio.checks import board_warnings


def test_a_clean_board_has_no_warnings() -> None:
    assert board_warnings(load_board("classic")) == []
    assert board_warnings(Board(2, 2)) == []


def test_goal_unreachable() -> None:
    # Every roll from square 1 lands on a snake back to square 1.
    board = Board(1, 10, [(s, 1) for s in range(2, 8)])
    warnings = board_warnings(board)
    assert any("goal (square 10) cannot be reached" in w and "square 1" in w for w in warnings)


def test_goal_unreachable_from_off_the_board() -> None:
    board = Board(1, 10, [(s, 1) for s in range(2, 8)], rules=Rules(start=0))
    assert any("off the board" in w for w in board_warnings(board))


def test_jump_on_square_one_with_start_one() -> None:
    board = Board(3, 3, [(1, 7)])
    (warning,) = board_warnings(board)
    assert "ladder on square 1 (to 7) can never fire" in warning
    assert board_warnings(board.with_rules(Rules(start=0))) == []


@pytest.mark.parametrize(("faces", "heads"), [(6, range(40, 46)), (4, range(40, 44))])
def test_a_wall_of_snake_heads(faces: int, heads: range) -> None:
    board = Board(10, 10, [(s, 30) for s in heads], rules=Rules(faces=faces))
    walls = [w for w in board_warnings(board) if "wall" in w]
    assert walls == [
        f"snake heads on squares {heads[0]}-{heads[-1]} ({len(heads)} in a row) form a wall: "
        f"no roll of a {faces}-sided die gets past it without a ladder"
    ]


def test_five_snake_heads_are_no_wall() -> None:
    board = Board(10, 10, [(s, 30) for s in range(40, 45)])
    assert board_warnings(board) == []


def test_a_longer_wall_is_reported_once() -> None:
    board = Board(10, 10, [(s, 30) for s in range(40, 49)])
    walls = [w for w in board_warnings(board) if "wall" in w]
    assert len(walls) == 1 and "40-48" in walls[0]


def test_jump_landing_on_another_jump() -> None:
    board = Board(4, 4, [(2, 6), (6, 11), (14, 3)])
    (warning,) = board_warnings(board)
    assert "ladder 2 -> 6 ends where the ladder 6 -> 11 starts" in warning
    assert "stops on 6" in warning


def test_jump_landing_on_another_jump_under_chain() -> None:
    board = Board(4, 4, [(2, 6), (6, 11)], rules=Rules(chain=True))
    (warning,) = board_warnings(board)
    assert "with chain = true the token goes on to 11" in warning


def test_every_finding_is_reported() -> None:
    board = Board(10, 10, [(1, 20), (20, 5), (35, 50)] + [(s, 30) for s in range(40, 46)])
    warnings = board_warnings(board)
    assert len(warnings) == 3
    # Without the ladder 35 -> 50 the wall really blocks the way.
    blocked = Board(10, 10, [(s, 30) for s in range(40, 46)])
    assert "cannot be reached" in board_warnings(blocked)[0]
