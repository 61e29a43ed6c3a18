"""Board edits (SPEC 7's editor, in the core): pure board + edit -> board, with undo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import dump_board, parse_board
from snl_tui.core.rules import Rules
from snl_tui.core.studio.edit import (
    AddJump,
    History,
    MoveJump,
    MoveJumpStart,
    RemoveJump,
    Resize,
    SetDescription,
    SetName,
    SetRules,
    empty_board,
)

from .strategies import boards

SQUARES = st.integers(-2, 60)

edits = st.one_of(
    st.builds(AddJump, SQUARES, SQUARES),
    st.builds(RemoveJump, SQUARES),
    st.builds(MoveJump, SQUARES, SQUARES),
    st.builds(MoveJumpStart, SQUARES, SQUARES),
    st.builds(Resize, st.integers(0, 9), st.integers(0, 9)),
    st.builds(
        SetRules,
        st.fixed_dictionaries(
            {},
            optional={
                "start": st.sampled_from([0, 1, 2]),
                "chain": st.booleans(),
                "faces": st.integers(1, 21),
                "overshoot": st.sampled_from(["stay", "bounce", "finish", "wrap"]),
                "six_again": st.booleans(),
            },
        ),
    ),
    st.builds(SetName, st.text(max_size=8)),
    st.builds(SetDescription, st.text(max_size=8)),
)


def _same_board(a: Board, b: Board) -> bool:
    return a == b and a.name == b.name and a.description == b.description


@settings(max_examples=150, deadline=None)
@given(boards(max_side=6), edits)
def test_an_edit_gives_a_valid_board_or_a_board_error(board: Board, edit) -> None:
    try:
        new = edit.apply(board)
    except BoardError as error:
        assert str(error)  # refused, with a reason
        return
    # The new board is valid: it survives a round trip through a board file.
    assert _same_board(parse_board(dump_board(new, "toml"), suffix=".toml"), new)
    assert edit.describe()


@settings(max_examples=80, deadline=None)
@given(boards(max_side=6), st.lists(edits, max_size=12))
def test_undo_all_returns_the_original_and_redo_all_the_final(board: Board, steps) -> None:
    history = History(board)
    applied = 0
    for edit in steps:
        before = history.current
        try:
            history.apply(edit)
            applied += 1
        except BoardError:
            assert history.current is before  # a refused edit changes nothing
    final = history.current
    for _ in range(applied):
        assert history.can_undo
        history.undo()
    assert not history.can_undo
    assert _same_board(history.current, board)
    for _ in range(applied):
        assert history.can_redo
        history.redo()
    assert not history.can_redo
    assert _same_board(history.current, final)


def test_a_new_edit_after_undo_drops_the_redo_tail() -> None:
    history = History(empty_board(5, 5))
    history.apply(AddJump(3, 12))
    history.apply(AddJump(20, 4))
    assert history.undo() == AddJump(20, 4)
    history.apply(AddJump(7, 2))
    assert not history.can_redo
    assert history.current.jumps == {3: 12, 7: 2}
    assert history.redo() is None


def test_add_move_and_remove_jumps() -> None:
    board = AddJump(3, 12).apply(empty_board(5, 5, "b"))
    assert [(j.start, j.end) for j in board.ladders] == [(3, 12)]
    board = AddJump(20, 4).apply(board)
    assert [(j.start, j.end) for j in board.snakes] == [(20, 4)]
    # Moving a ladder's end below its start makes it a snake.
    board = MoveJump(3, 2).apply(board)
    assert board.jump_at(3) is not None and board.jump_at(3).kind == "snake"
    board = MoveJumpStart(20, 22).apply(board)
    assert board.jumps == {3: 2, 22: 4}
    board = RemoveJump(3).apply(board)
    assert board.jumps == {22: 4}
    assert board.name == "b"


def test_refusals_use_the_board_files_words() -> None:
    board = AddJump(3, 12).apply(empty_board(5, 5))
    with pytest.raises(BoardError, match="two jumps start on square 3"):
        AddJump(3, 15).apply(board)
    with pytest.raises(BoardError, match="cannot start on the goal"):
        AddJump(25, 3).apply(board)
    with pytest.raises(BoardError, match="outside the board"):
        AddJump(4, 26).apply(board)
    with pytest.raises(BoardError, match="goes nowhere"):
        MoveJump(3, 3).apply(board)
    with pytest.raises(BoardError, match="no jump starts on square 9"):
        RemoveJump(9).apply(board)
    chained = AddJump(12, 3).apply(board)
    with pytest.raises(BoardError, match="jump cycle"):
        SetRules({"chain": True}).apply(chained)
    with pytest.raises(BoardError, match="faces"):
        SetRules({"faces": 1}).apply(board)
    with pytest.raises(BoardError, match="unknown rule"):
        SetRules({"colour": "red"}).apply(board)


def test_resize_refuses_naming_the_jumps_that_would_not_fit() -> None:
    board = AddJump(20, 4).apply(AddJump(3, 12).apply(empty_board(5, 5)))
    with pytest.raises(BoardError, match="snake 20 -> 4") as caught:
        Resize(3, 4).apply(board)
    assert "ladder 3 -> 12" not in str(caught.value)
    grown = Resize(6, 7).apply(board)
    assert (grown.rows, grown.cols, grown.jumps) == (6, 7, board.jumps)
    with pytest.raises(BoardError, match="at least 2 squares"):
        Resize(1, 1).apply(board)


def test_set_rules_name_and_description() -> None:
    board = SetRules(Rules(start=0, six_again=True)).apply(empty_board(4, 4))
    assert board.rules == Rules(start=0, six_again=True)
    board = SetRules({"overshoot": "bounce"}).apply(board)
    assert board.rules.overshoot == "bounce" and board.rules.start == 0
    board = SetDescription("two\nlines").apply(SetName("Kid's board").apply(board))
    assert (board.name, board.description) == ("Kid's board", "two\nlines")


@pytest.mark.parametrize("text", ["evil\x1b]0;title\x07", "bell\x07", "cr\r", "nl\n"])
def test_names_with_control_characters_are_refused(text: str) -> None:
    with pytest.raises(BoardError, match="control character"):
        SetName(text).apply(empty_board(3, 3))
    with pytest.raises(BoardError, match="control character"):
        empty_board(3, 3, text)
    if "\n" not in text:
        with pytest.raises(BoardError, match="control character"):
            SetDescription(text).apply(empty_board(3, 3))
