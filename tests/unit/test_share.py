"""Share codes (SPEC 12, issue 22): a board as one line, and every command that takes a
BOARD takes a code; anything that is not a whole, undamaged code is one clear line."""

from __future__ import annotations

import base64
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.files.share import (
    PREFIX,
    PREFIX_V1,
    _pack,
    _unpack,
    board_code,
    board_code_v1,
)
from snl_tui.core.studio.board_file import open_for_editing

from .strategies import boards


def same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a, a.name, a.description, a.rules) == (b, b.name, b.description, b.rules)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_every_board_comes_back_from_its_code(board) -> None:  # type: ignore[no-untyped-def]
    code = board_code(board, with_text=True)
    assert code.startswith(PREFIX) and "\n" not in code and " " not in code
    assert same(load_board(code), board)
    bare = load_board(board_code(board))  # without text: the same game, no name
    assert (bare, bare.rules, bare.name) == (board, board.rules, "")
    assert same(load_board(board_code_v1(board)), board)  # old codes still open


THROWS_30_V1 = (
    "snl1-eNpljj1vwyAQhnf_ilfMxDJ27dQeunRtt262BwJUQeEjBVuVUvW_F0iHSp2457jn7v2qAOK4VWQCedVO2"
    "91CaqGwnYP_jITmAamiCPq6ae_y3NtZoWsO8WPnQeHkeZDw78lQEIbHqAUWYv8vWwiu--1m1LS4HrmTtQH3RbHGs"
    "9H2hA6HJ7QtzQsd2qbg-IvBGwMOVuNF8bgVjujqe9ASeUJfQHiTYShguJQqZJ4TAnNH042VYu4pHvPLWOoMuWqbV"
    "I1rmluLGx2_qD8qO1I8FCWlOhYjuWMp0hcrZvVd_QB3WmCO-fe1c94e0"
)
"""``snl share throws-30`` as snl wrote it before version 2 (a literal: old codes open)."""


def test_a_code_made_before_version_2_still_opens() -> None:
    assert same(load_board(THROWS_30_V1), load_board("throws-30"))


def test_codes_are_short() -> None:
    """Classic's code is its jumps and one rule: well under 100 characters (it was 537
    with the whole document); its text comes only when asked for."""
    classic = load_board("classic")
    code = board_code(classic, with_name=False)
    assert len(code) < 90
    # Its name ("Chutes and Ladders") costs a few more: the code opens under it.
    assert len(board_code(classic)) < 110
    assert len(board_code(classic, with_text=True)) > len(code) + len(classic.description)
    assert len(board_code(load_board("leetcode-1"), with_name=False)) < 30


@pytest.mark.parametrize("name", builtin_names())
def test_the_built_in_boards_travel(name: str) -> None:
    board = load_board(name)
    assert same(load_board(board_code(board, with_text=True)), board)


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=80).map(lambda t: "snl1-" + t)
    | st.text(max_size=80).map(lambda t: "snl2-" + t)
    | st.text(max_size=80)
)
def test_random_text_is_refused_cleanly(text: str) -> None:
    if not text.startswith("snl"):
        text = "snl1-" + text
    with pytest.raises(BoardError) as caught:
        load_board(text)
    assert "\n" not in str(caught.value) and "share code" in str(caught.value)


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_a_damaged_code_is_never_read_as_another_board(board, data) -> None:  # type: ignore[no-untyped-def]
    code = data.draw(st.sampled_from((board_code(board, with_text=True), board_code_v1(board))))
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
    code = board_code_v1(board)
    with pytest.raises(BoardError, match="newer snl"):
        load_board("snl3-" + code.removeprefix(PREFIX_V1))
    with pytest.raises(BoardError, match="far too long"):
        load_board(PREFIX_V1 + "A" * 200_000 + "-00000000")
    packed = zlib.compress(b"[" + b" " * 50_000_000 + b"]", 9)  # a zip bomb of spaces
    data = base64.urlsafe_b64encode(packed).decode().rstrip("=")
    with pytest.raises(BoardError, match="too large"):
        load_board(f"{PREFIX_V1}{data}-{zlib.crc32(packed):08x}")


def test_every_command_takes_a_code(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert main(["share", "classic", "--with-text"]) == 0
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
    assert main(["share", "classic", "--no-name"]) == 0
    bare = load_board(capsys.readouterr().out.strip())
    assert bare == load_board("classic") and bare.name == ""


def test_a_code_opens_under_the_name_it_was_shared_under(capsys) -> None:  # type: ignore[no-untyped-def]
    """Issue 45: `snl play CODE` showed "board 10x10"; the name now travels by default
    (as a text field with no description: every snl2 reader takes it), `--no-name`
    leaves it out, `--with-text` adds the description."""
    classic = load_board("classic")
    assert load_board(board_code(classic)).name == classic.name
    assert load_board(board_code(classic)).description == ""
    assert load_board(board_code(classic, with_name=False)).name == ""
    assert main(["share", "classic"]) == 0
    code = capsys.readouterr().out.strip()
    assert load_board(code).name == classic.name
    assert main(["share", "classic", "--with-name"]) == 0
    assert capsys.readouterr().out.strip() == code
    assert main(["share", "classic", "--no-name"]) == 0
    assert load_board(capsys.readouterr().out.strip()).name == ""
    assert main(["share", "classic", "--with-text"]) == 0
    assert load_board(capsys.readouterr().out.strip()).description == classic.description


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.data())
def test_packed_fields_come_back_as_they_went(width: int, data: st.DataObject) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << width) - 1), max_size=60))
    packed = _pack(values, width)
    assert len(packed) == (len(values) * width + 7) // 8
    assert _unpack(packed, len(values), width) == values


def test_a_board_with_many_jumps_travels() -> None:
    """Thousands of jumps (packing is linear now: 142k jumps in 0.1 s, were 18.7 s)."""
    board = Board.from_jumps(
        100, 100, ladders=[(2 * i + 2, 2 * i + 3 + 100) for i in range(4000)], snakes=[]
    )
    assert load_board(board_code(board)).jumps == board.jumps
