"""JSON boards parsed without the per-integer hook: the same boards, and the same
errors for bad files, as the careful parse (the hook on every integer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.files import json_board
from snl_tui.core.files.formats import dump_board, load_board


def load_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """(fast path, careful path) outcome of loading ``path``: a board's cells and name,
    or the error's text."""

    def outcome() -> object:
        try:
            board = load_board(str(path))
        except BoardError as error:
            return f"error: {error}"
        return board.cells, board.rows, board.cols, board.rules, board.name

    fast = outcome()
    with monkeypatch.context() as patch:
        patch.setattr(json_board, "parse", json_board._careful)  # always careful
        careful = outcome()
    return fast, careful


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.integers(1, 9),
    st.integers(2, 9),
    st.lists(st.tuples(st.integers(2, 80), st.integers(1, 81)), max_size=8),
    st.sampled_from(["matrix", "json"]),
)
def test_boards_load_the_same(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    rows: int,
    cols: int,
    pairs: list[tuple[int, int]],
    fmt: str,
) -> None:
    goal = rows * cols
    jumps = {}
    for start, end in pairs:
        if start < goal and end <= goal and start != end and start not in jumps:
            jumps[start] = end
    try:
        board = Board(rows, cols, jumps.items())
    except BoardError:
        return
    path = tmp_path / "board.json"
    path.write_text(dump_board(board, fmt))
    fast, careful = load_both(path, monkeypatch)
    assert fast == careful
    assert fast[0] == board.cells  # type: ignore[index]


BAD_FILES = {
    "cell-25-digits.json": "[[-1, " + "9" * 25 + "], [-1, -1]]",
    "cell-negative-25-digits.json": "[[-1, -" + "9" * 25 + "], [-1, -1]]",
    "cell-5000-digits.json": "[[-1, " + "7" * 5000 + "], [-1, -1]]",
    "cell-21-digits-ok-range.json": "[[-1, 000000000000000000001], [-1, -1]]",
    "cell-out-of-range.json": "[[-1, 99], [-1, -1]]",
    "cell-string.json": '[[-1, "3"], [-1, -1]]',
    "cell-float.json": "[[-1, 3.0], [-1, -1]]",
    "cell-bool.json": "[[-1, true], [-1, -1]]",
    "row-not-list.json": "[[-1, -1], 5]",
    "ragged.json": "[[-1, -1], [-1]]",
    "empty.json": "[]",
    "empty-row.json": "[[]]",
    "not-json.json": "[[-1, -1], [-1, -1]",
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "scalar.json": "5",
    "doc-big.json": '{"size": [2, ' + "9" * 30 + "]}",
    "doc-duplicate.json": '{"size": [2, 2], "size": [3, 3]}',
    "matrix-duplicate-key-inside.json": '[[-1, -1], [-1, {"a": 1, "a": 2}]]',
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_get_the_same_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / name
    path.write_text(BAD_FILES[name])
    fast, careful = load_both(path, monkeypatch)
    assert fast == careful
    if "digits" in name and "ok-range" not in name:
        assert isinstance(fast, str) and "far too large" in fast
