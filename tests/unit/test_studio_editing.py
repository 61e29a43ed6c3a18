"""The editing session both editors hold (``core.studio.editing``): the board is the
history's, it has changes exactly while it differs from what its file holds, and a save
that fails changes nothing."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import load_board
from snl_tui.core.studio.board_file import BoardSource
from snl_tui.core.studio.edit import AddJump, SetName
from snl_tui.core.studio.editing import EditingSession, content

STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(2, 35), st.integers(2, 35)),
        st.tuples(st.just("name"), st.sampled_from(["", "A", "B"]), st.just(0)),
        st.tuples(st.sampled_from(["undo", "redo", "save"]), st.just(0), st.just(0)),
    ),
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_dirty_means_not_what_the_file_holds(steps: list[tuple[str, object, int]]) -> None:
    editing = EditingSession(load_board("leetcode-1"), BoardSource())
    held = content(editing.board)
    for step, first, second in steps:
        if step == "add":
            with contextlib.suppress(BoardError):  # a refused edit changes nothing
                editing.apply(AddJump(int(str(first)), second))
        elif step == "name":
            editing.apply(SetName(str(first)))
        elif step == "undo":
            editing.history.undo()
        elif step == "redo":
            editing.history.redo()
        else:  # a save, as the file would then hold it (no disk in the property)
            editing.saved = content(editing.board)
            held = editing.saved
        assert editing.board is editing.history.current
        assert editing.dirty == (content(editing.board) != held)


def test_a_save_is_the_file_and_a_failed_one_changes_nothing(tmp_path: Path) -> None:
    editing = EditingSession(load_board("leetcode-1"))
    editing.apply(AddJump(3, 20))
    assert editing.dirty and editing.source.path is None
    with pytest.raises((OSError, BoardError)):
        editing.write(tmp_path / "no-folder" / "b.toml", "toml")
    assert editing.dirty and editing.source.path is None
    target = tmp_path / "b.toml"
    editing.write(target, "toml")
    assert not editing.dirty and editing.source.path == target and editing.source.fmt == "toml"
    assert load_board(str(target)) == editing.board
