"""The hint's odds: worked out in a worker the first time, lookups after (computed on
the UI thread then); the same figures either way."""

from __future__ import annotations

import pytest

from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.markov import MAX_DISTRIBUTION_SQUARES, chain_of, clear_cache
from snl_tui.core.odds.standing import Odds, compute_odds, odds_at_hand
from snl_tui.core.rules import Rules


def same(one: Odds, other: Odds) -> bool:
    """The same figures, to rounding (a finished table sums in another order)."""
    figures = ("expected_turns", "within_5", "within_10", "never_finishes")
    return (
        all(getattr(one, f) == pytest.approx(getattr(other, f), abs=1e-12) for f in figures)
        and one.win_chances == pytest.approx(other.win_chances, abs=1e-12)
        and one.distribution == pytest.approx(other.distribution, abs=1e-12)
    )


def test_odds_are_at_hand_once_computed_and_the_same_after() -> None:
    board = load_board("classic")
    clear_cache()
    assert not odds_at_hand(board)
    first = compute_odds(board, [0, 17], 1)
    assert odds_at_hand(board)
    table = chain_of(board).table
    assert table.complete
    turns = table.t
    again = compute_odds(board, [0, 17], 1)
    assert same(again, first)
    # Any other square and seat: read from the finished table, which does not grow.
    other = compute_odds(board, [55, 3, 90], 0)
    assert chain_of(board).table.t == turns
    clear_cache()
    assert same(compute_odds(board, [55, 3, 90], 0), other)


def test_a_board_whose_table_cannot_finish_keeps_its_odds_in_the_worker() -> None:
    # 60 x 60 squares: the table's memory cap holds fewer turns than the games need.
    board = Board(60, 60, [(3, 3000), (3500, 40)], rules=Rules())
    assert board.goal <= MAX_DISTRIBUTION_SQUARES
    clear_cache()
    odds = compute_odds(board, [1], 0)
    assert odds.expected_turns is not None
    assert not chain_of(board).table.complete
    assert not odds_at_hand(board)
    clear_cache()
