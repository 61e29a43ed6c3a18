"""Share codes (SPEC 12, issue 22): a board as one line, and every command that takes a
BOARD takes a code; anything that is not a whole, undamaged code is one clear line."""

from __future__ import annotations

import base64
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.files.share import PREFIX, board_code
from snl_tui.core.studio.board_file import open_for_editing

from .strategies import boards


def same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a, a.name, a.description, a.rules) == (b, b.name, b.description, b.rules)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_every_board_comes_back_from_its_code(board) -> None:  # type: ignore[no-untyped-def]
    code = board_code(board)
    assert code.startswith(PREFIX) and "\n" not in code and " " not in code
    assert same(load_board(code), board)


@pytest.mark.parametrize("name", builtin_names())
def test_the_built_in_boards_travel(name: str) -> None:
    board = load_board(name)
    assert same(load_board(board_code(board)), board)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80).map(lambda t: "snl1-" + t) | st.text(max_size=80))
def test_random_text_is_refused_cleanly(text: str) -> None:
    if not text.startswith("snl"):
        text = "snl1-" + text
    with pytest.raises(BoardError) as caught:
        load_board(text)
    assert "\n" not in str(caught.value) and "share code" in str(caught.value)


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_a_damaged_code_is_never_read_as_another_board(board, data) -> None:  # type: ignore[no-untyped-def]
    code = board_code(board)
    index = data.draw(st.integers(len(PREFIX), len(code) - 1))
    replacement = data.draw(st.sampled_from("Aa0_-zZ9"))
    damaged = code[:index] + replacement + code[index + 1 :]
    cut = code[: data.draw(st.integers(0, len(code) - 1))]
    for text in (damaged, cut):
        if text == code:
            continue
        try:
            found = load_board(text)
        except BoardError as error:
            assert "\n" not in str(error)
        else:
            assert same(found, board)  # only a change the check cannot see: none so far


def test_versions_sizes_and_bombs() -> None:
    board = load_board("leetcode-2")
    code = board_code(board)
    with pytest.raises(BoardError, match="newer snl"):
        load_board("snl2-" + code.removeprefix(PREFIX))
    with pytest.raises(BoardError, match="far too long"):
        load_board(PREFIX + "A" * 200_000 + "-00000000")
    packed = zlib.compress(b"[" + b" " * 50_000_000 + b"]", 9)  # a zip bomb of spaces
    data = base64.urlsafe_b64encode(packed).decode().rstrip("=")
    with pytest.raises(BoardError, match="too large"):
        load_board(f"{PREFIX}{data}-{zlib.crc32(packed):08x}")


def test_every_command_takes_a_code(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert main(["share", "classic"]) == 0
    code = capsys.readouterr().out.strip()
    assert main(["solve", "classic", "--json"]) == 0
    by_name = capsys.readouterr().out
    assert main(["solve", code, "--json"]) == 0
    assert capsys.readouterr().out == by_name
    board, source, note = open_for_editing(code)
    assert same(board, load_board("classic")) and source.path is None and note is None
    assert main([code]) == 2
    assert "share code" in capsys.readouterr().err
    assert main(["check", code[:-1] + ("0" if code[-1] != "0" else "1")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "check does not match" in err
