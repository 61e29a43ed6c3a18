"""Properties of plain mode's words: whatever a report, a board or a page sends, what is
said or read is plain, and the search on any board is said step for step."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.cli.serve_plain import plain_command, typed_line, wants_plain
from snl_tui.core.board import Board
from snl_tui.lab.search import breadth_first
from snl_tui.plain.console import INPUT_LIMIT, Console, strip_escapes
from snl_tui.plain.learn import StepWords
from snl_tui.plain.speech import SpokenOut, spoken
from snl_tui.plain.words import plain_name, square_line

from ..strategies import boards
from .plainness import unplain

ANY_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200
) | st.from_regex(r"( ?(ladder|snake)? ?\d{1,3} ?-> ?\d{1,3}| \d+x\d+| \d+\.\.\d+| <\d%|  +)+")


@given(ANY_TEXT)
def test_a_spoken_line_is_always_plain(text: str) -> None:
    said = spoken(text)
    assert unplain(said) == []
    assert "\n" not in said and not said.startswith(" ") and not said.endswith(" ")


@settings(max_examples=40)
@given(st.lists(ANY_TEXT, max_size=5))
def test_a_spoken_report_keeps_every_line_and_nothing_else(lines: list[str]) -> None:
    out = io.StringIO()
    spoken_out = SpokenOut(out)  # type: ignore[arg-type]
    for line in lines:
        spoken_out.write(line.replace("\n", " ") + "\n")
    spoken_out.flush()
    said = [spoken(line.replace("\n", " ")) for line in lines]
    assert out.getvalue().splitlines() == [line for line in said if line]


@given(ANY_TEXT)
def test_what_is_typed_never_carries_an_escape(text: str) -> None:
    assert "\x1b" not in strip_escapes(text)
    line = typed_line(text)
    assert len(line) <= INPUT_LIMIT and "\n" not in line and "\x1b" not in line
    console = Console(io.StringIO(), io.StringIO(text.replace("\n", " ") + "\n"))
    read = console.read()
    assert read is not None and "\x1b" not in read


@given(st.text(max_size=30), st.integers(0, 5))
def test_a_name_is_said_or_is_its_seat(text: str, seat: int) -> None:
    said = plain_name(text, seat)
    # A name keeps its punctuation (a middle dot in "Col·lecció", an arrow): said as is.
    assert [code for code in unplain(said) if code not in ("U+00B7", "U+2192")] == []
    assert said == f"seat {seat + 1}" or any(char.isalnum() for char in said)


@given(boards(max_side=6))
def test_every_step_of_the_search_is_said_in_plain_words(board: Board) -> None:
    search = breadth_first(board)
    lines = StepWords(search).lines
    assert len(lines) == len(search.steps)
    assert unplain("\n".join(lines)) == [] and "->" not in "".join(lines)
    for square in (0, 1, board.goal, board.goal + 1):
        assert unplain(square_line(board, square)) == []


def test_the_page_query_and_command() -> None:
    assert wants_plain({"screenreader": "1"}) and wants_plain({"screenreader": " On "})
    assert not wants_plain({"screenreader": "terminal"}) and not wants_plain({})
    command = "ulimit -d 1 && exec python -m snl_tui play classic --no-screen-reader --mode x"
    assert plain_command(command).endswith("play classic --screen-reader --mode x")
