"""Big dense boards answer or refuse in bounded time and memory, and a long analysis
says what it is doing."""

from __future__ import annotations

import random
import time

import pytest

from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds import tuning
from snl_tui.core.odds.analysis import AnalysisError, analyze, clear_cache
from snl_tui.core.odds.markov import MAX_LARGE_BOARD_JUMPS, SMALL_BOARD_SQUARES, expected_turns


def random_board(side: int, jumps: int) -> Board:
    rng = random.Random(side * jumps)
    goal = side * side
    table: dict[int, int] = {}
    while len(table) < jumps:
        start, end = rng.randrange(2, goal), rng.randrange(1, goal)
        if start != end and start not in table and end not in table:
            table[start] = end
    return Board(side, side, table.items())


def test_a_big_board_with_too_many_jumps_is_refused_at_once() -> None:
    board = random_board(300, MAX_LARGE_BOARD_JUMPS + 1)
    assert board.goal > SMALL_BOARD_SQUARES
    started = time.perf_counter()
    for work in (lambda: analyze(board), lambda: expected_turns(board)):
        with pytest.raises(AnalysisError, match=f"{MAX_LARGE_BOARD_JUMPS:,}"):
            work()
    assert time.perf_counter() - started < 5  # no solve was attempted (about 0.01 s)


def test_a_small_board_takes_any_number_of_jumps() -> None:
    board = random_board(50, MAX_LARGE_BOARD_JUMPS // 3)
    assert board.goal <= SMALL_BOARD_SQUARES
    assert analyze(board).expected_turns > 1


def test_a_long_analysis_says_what_it_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "PROGRESS_SQUARES", 0)  # classic counts as big
    monkeypatch.setattr(tuning, "PROGRESS_EVERY", 0.0)  # and every stretch as long
    clear_cache()
    notes: list[str] = []
    analysis = analyze(load_board("classic"), players=2, progress=notes.append)
    assert analysis.win_chances and analysis.expected_turns > 1
    assert "solving for the expected turns over 100 squares" in notes
    assert any(note.endswith("turns so far") for note in notes)
    clear_cache()
    quiet: list[str] = []
    monkeypatch.undo()
    assert analyze(load_board("classic"), players=2, progress=quiet.append).win_chances
    assert quiet == []  # a short analysis on a small board is silent
    clear_cache()
