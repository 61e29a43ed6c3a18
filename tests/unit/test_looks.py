"""A board's looks (issue 45): jumps within one row, twin jumps, dull boards; in `snl
check`, in the generator's boards. Each rule is checked against a plain reference that
reads the squares' places off the boustrophedon numbering itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.studio.checks import check_board
from snl_tui.core.studio.generate import Targets, generate
from snl_tui.core.studio.looks import (
    dull_findings,
    is_sideways,
    look_findings,
    tiny_length,
    twin_kind,
    twins,
)

from .strategies import boards


def _place(cols: int, square: int) -> tuple[int, int]:
    """(row from the bottom, column from the left) of ``square``: odd rows run back."""
    row, along = divmod(square - 1, cols)
    return row, (cols - 1 - along) if row % 2 else along


def _neighbours(cols: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = _place(cols, a), _place(cols, b)
    return abs(ra - rb) + abs(ca - cb) == 1


def _reference_twins(board: Board) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    items = sorted(board.jumps.items())
    found = set()
    for i, (a, b) in enumerate(items):
        for c, d in items[i + 1 :]:
            if len({a, b, c, d}) < 4:
                continue
            if (_neighbours(board.cols, a, c) and _neighbours(board.cols, b, d)) or (
                _neighbours(board.cols, a, d) and _neighbours(board.cols, b, c)
            ):
                found.add(((a, b), (c, d)))
    return found


@settings(max_examples=150, deadline=None)
@given(boards(max_side=9))
def test_twins_are_the_jumps_between_neighbours_at_both_ends(board: Board) -> None:
    found = {(first, second) for first, second, _ in twins(board)}
    assert found == _reference_twins(board)
    for first, second, kind in twins(board):
        # The same pair whichever way round, and whichever way each jump runs.
        assert twin_kind(board, second, first) == kind
        assert twin_kind(board, first[::-1], second[::-1]) == kind


@settings(max_examples=150, deadline=None)
@given(boards(max_side=9))
def test_a_jump_is_sideways_when_it_stays_in_its_row(board: Board) -> None:
    sideways = {f.squares for f in look_findings(board) if f.kind == "sideways-jump"}
    for start, end in board.jumps.items():
        same_row = (start - 1) // board.cols == (end - 1) // board.cols
        assert is_sideways(board, start, end) == (same_row and board.rows > 1)
        assert (tuple(sorted((start, end))) in sideways) == (same_row and board.rows > 1)


@settings(max_examples=100, deadline=None)
@given(boards(max_side=9))
def test_a_board_is_dull_when_it_has_no_jump_worth_the_name(board: Board) -> None:
    tiny = tiny_length(board)
    dull = board.goal >= 4 and all(abs(e - s) < tiny for s, e in board.jumps.items())
    assert bool(dull_findings(board)) == dull
    assert bool([w for w in check_board(board).warnings if w.kind == "dull-board"]) == dull


@pytest.mark.parametrize(
    ("jumps", "words"),
    [
        ([(5, 26), (6, 25)], "the ladders 5 -> 26 and 6 -> 25 cross as an X"),
        ([(14, 57), (15, 58)], "the ladders 14 -> 57 and 15 -> 58 run side by side"),
        ([(5, 26), (25, 4)], "the ladder 5 -> 26 and the snake 25 -> 4 run side by side"),
        ([(5, 26), (25, 6)], "the ladder 5 -> 26 and the snake 25 -> 6 cross as an X"),
        ([(24, 29)], "the ladder 24 -> 29 stays in row 3"),
    ],
)
def test_the_looks_name_the_squares(jumps: list[tuple[int, int]], words: str) -> None:
    board = Board(10, 10, jumps)
    (finding,) = look_findings(board)
    assert finding.message.startswith(words)


def test_check_says_what_looks_wrong_without_failing_the_board(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "x.toml"
    path.write_text("size = 10\nladders = [[5, 26], [6, 25], [40, 80]]\nsnakes = [[98, 12]]\n")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "look: the ladders 5 -> 26 and 6 -> 25 cross as an X" in out
    assert out.splitlines()[-1].endswith("ok (1 note on its looks)")


@pytest.mark.parametrize(
    "text",
    ["size = 10\n", "size = 10\nladders = [[5, 7]]\nsnakes = [[40, 38]]\n"],
    ids=["no jumps", "tiny jumps"],
)
def test_check_warns_about_a_dull_board(capsys, tmp_path, text: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "dull.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "warning:" in out and "plain walk" in out
    if "ladders" not in text:
        # Nothing to list under "what each jump does".
        assert "what each jump does" not in out and "expected game length" in out


@pytest.mark.parametrize("name", ["everest", "octahedron", "river"])
def test_the_drawn_built_in_boards_look_designed(name: str) -> None:
    assert check_board(load_board(name)).looks == ()


def test_kept_twins_stay_as_the_designer_placed_them() -> None:
    keep = ((5, 26), (6, 25))
    result = generate(Targets(expected_turns=30, keep=keep), seed=1, max_steps=30_000)
    assert result.board is not None, result.describe()
    assert [f.kind for f in look_findings(result.board)] == ["twin-jumps"]
    assert {f.squares for f in look_findings(result.board)} == {(5, 6, 25, 26)}


@st.composite
def _steps_and_seed(draw: st.DrawFn) -> tuple[int, int]:
    return draw(st.integers(1, 400)), draw(st.integers(0, 50))


@settings(max_examples=5, deadline=None)
@given(_steps_and_seed())
def test_with_max_steps_no_clock_decides(case: tuple[int, int]) -> None:
    """Issue 43: a clock that leaps an hour at every reading (a loaded machine, in the
    extreme) changes nothing under max_steps."""
    steps, seed = case
    leaps = iter(range(0, 10**9, 3600))
    targets = Targets(ladders=1, snakes=1, expected_turns=4)  # out of reach: the steps run out
    slow = generate(targets, seed=seed, max_steps=steps, clock=lambda: float(next(leaps)))
    quiet = generate(targets, seed=seed, max_steps=steps)
    assert slow.steps == quiet.steps == steps and not slow.timed_out
    assert slow.figures == quiet.figures


def test_a_board_past_the_looks_bound_is_left_out_with_a_note() -> None:
    """142,000 jumps took 33 s of twins before the bound; past 2,500 jumps, none
    (``check_board`` says so in a note)."""
    from snl_tui.core.studio.looks import LOOKS_MAX_JUMPS, looks_fit

    count = LOOKS_MAX_JUMPS + 1
    board = Board.from_jumps(
        80, 80, ladders=[(2 * i + 2, 2 * i + 3) for i in range(count)], snakes=[]
    )
    assert look_findings(board) == [] and not looks_fit(board)
    assert [f.kind for f in dull_findings(board)] == ["dull-board"]
