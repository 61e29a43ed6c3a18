"""Plain mode beyond the game: ``learn``, ``edit`` and the printing commands, as a person
with a screen reader meets them: through a pipe, in a pseudo-terminal, and in words.

Every line is plain (no escape, no box-drawing, block or braille character, no arrow);
the search's steps are said in the lab's order; an ``edit`` session typed into a pipe
adds a ladder and saves a file that loads again.
"""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from datetime import UTC
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.studio.board_file import BoardSource, open_for_editing
from snl_tui.lab.search import breadth_first
from snl_tui.plain.console import Console, strip_escapes
from snl_tui.plain.edit import PlainEditor
from snl_tui.plain.learn import PlainLearn, StepWords
from snl_tui.plain.speech import date_words, spoken

from .plainness import unplain

LIMIT = 120.0
"""Seconds a command may take at most on a loaded machine (it takes about one)."""


def snl(*args: str, given: str = "", env: dict[str, str] | None = None) -> str:
    """The real ``snl`` through pipes; its standard output (stderr must stay empty)."""
    result = subprocess.run(
        [sys.executable, "-m", "snl_tui", *args],
        input=given,
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert result.stderr == "", result.stderr
    return result.stdout


def run_main(*args: str) -> str:
    out = io.StringIO()
    sys_stdout = sys.stdout
    try:
        sys.stdout = out
        status = main(list(args))
    finally:
        sys.stdout = sys_stdout
    assert status in (0, 1), status
    return out.getvalue()


# -- words for glyphs ------------------------------------------------------------------


def test_arrows_bars_sizes_and_ranges_are_said_in_words() -> None:
    assert spoken("  ladder 1->38 shortens the game by 0.82 turns") == (
        "ladder from 1 up to 38 shortens the game by 0.82 turns"
    )
    assert spoken("snake 16 -> 6") == "snake from 16 down to 6"
    assert spoken("std deviation: 25.2250") == "standard deviation: 25.2250"  # not 'S T D'
    assert spoken("90th pct 44") == "90th percentile 44"
    assert spoken("  2. Rolled 1: 38 -> 39") == "2. Rolled 1: from 38 to 39"
    assert spoken("The route: 1 -> 15 -> 13 -> 36, 3 rolls.") == (
        "The route: 1, 15, 13 and 36, 3 rolls."
    )
    assert spoken("   7-17   \u2588\u2588\u2588\u258c    15.1%") == "turns 7 to 17: 15.1% of games"
    assert spoken("  later                 0.6%") == "later: 0.6% of games"
    assert (
        spoken("classic: 10x10, dice 1..6, <0.1%") == "classic: 10 by 10, dice 1 to 6, under 0.1%"
    )
    assert spoken("  expected turns    39.2251") == "expected turns: 39.2251"
    assert unplain(spoken("\u2554\u2550\u2557 \u2800\u28ff \u2192 \u00b7")) == []


def test_dates_are_read_as_dates() -> None:
    from datetime import datetime

    moment = datetime(2026, 11, 28, 21, 50, tzinfo=UTC).astimezone()
    said = date_words(moment)
    assert said.endswith(f"{moment.year} at {moment:%H:%M}")
    assert "November" in said or "December" in said  # a far time zone's midnight


def test_printing_commands_speak_in_plain_words() -> None:
    solved = run_main("solve", "classic", "--screen-reader")
    assert "Roll 1. A 1: from off the board to 1, a ladder up to 38." in solved
    assert "Roll 2. A 1: from 38 to 39." in solved
    analysed = run_main("analyze", "classic", "--screen-reader")
    assert "turns 7 to 17: 15.1% of games" in analysed
    checked = run_main("check", "classic", "--screen-reader")
    assert "ladder from 1 up to 38 shortens the game" in checked
    for text in (solved, analysed, checked):
        assert unplain(text) == [] and "->" not in text and "  " not in text
    # Without the flag, the reports are as they were.
    assert "\u2588" in run_main("analyze", "classic")
    assert "ladder 1->38" in run_main("check", "classic")


# -- learn -------------------------------------------------------------------------------


def test_learn_says_every_step_in_the_searchs_order() -> None:
    board = load_board("leetcode-1")
    search = breadth_first(board)
    said = StepWords(search).lines
    assert len(said) == len(search.steps)
    count = len(search.steps)
    console = Console(io.StringIO(), io.StringIO("\n" * count + "next\nquit\n"))
    assert PlainLearn(board, console).run() == 0
    spoken_steps = console.said[console.said.index(said[0]) :]
    assert spoken_steps[:count] == said
    assert said[1] == "Take 1 off the queue, at distance 0. Try the dice 1 to 6."
    assert said[2] == (
        "Die 1: from 1 to 2, a ladder up to 15. 15 is new: distance 1, into the queue."
    )
    assert said[-1].startswith("The route, 4 rolls: roll 1, from 1 to 2, a ladder up to 15;")
    assert "The search is over: type route, back, start or quit." in console.said
    assert unplain("\n".join(console.said)) == []


def test_learn_tells_the_queue_by_levels_and_goes_back() -> None:
    board = load_board("leetcode-1")
    given = "11\nqueue\nwhere\nback\nrun\nroute\nq\n"
    console = Console(io.StringIO(), io.StringIO(given))
    PlainLearn(board, console).run()
    text = "\n".join(console.said)
    assert (
        "The queue, front first, 7 squares: at distance 1: 3, 4, 5, 6, 7; at distance 2: 16, 13."
        in text
    )
    assert "Step 11 of 142, level 1. Expanding 15." in text
    assert "Back to step 10." in text
    assert "Skipped " in text and text.count("The route, 4 rolls") == 2
    assert console.said[-1] == "Goodbye."


def test_learn_through_a_pipe_and_with_term_dumb_is_plain() -> None:
    out = snl("learn", "--screen-reader", given="\n" * 30 + "level\nqueue\nrun\n")
    assert out.splitlines()[0].startswith("leetcode-1: 6 by 6, goal 36")
    assert unplain(out) == [] and out.rstrip().endswith("Goodbye.")
    dumb = snl("learn", "[[-1,-1],[-1,3]]", given="run\n", env={"TERM": "dumb"})
    assert "\x1b" not in dumb and "The route" in dumb and unplain(dumb) == []


# -- edit --------------------------------------------------------------------------------


def test_an_edit_session_through_a_pipe_adds_a_ladder_and_saves(tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    given = (
        "ladder 3 19\nladder 30 10\nsnake 45 27\nsquare 45\nnumbers\nundo\nredo\ncheck\n"
        f"quit\nsave as {target}\nquit\n"
    )
    out = snl("edit", "--screen-reader", "--size", "8", given=given)
    assert unplain(out) == [] and "->" not in out
    assert "Added a ladder from 3 up to 19." in out
    assert "Not added: from 30 to 10 goes down: that is a snake, not a ladder." in out
    assert "Square 45: a snake starts here, down to 27." in out
    assert "The board has changes that are not saved" in out
    assert f"Saved {target}, as toml." in out
    board = load_board(str(target))
    assert board.jumps == {3: 19, 45: 27} and (board.rows, board.cols) == (8, 8)


def test_edit_asks_before_overwriting_and_before_leaving(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text("size = 6\nladders = [[2, 20]]\n", encoding="utf-8")
    board, source, note = open_for_editing(str(path))
    given = f"remove 2\nsave as {path}\nno\nsave\nquit\n"
    console = Console(io.StringIO(), io.StringIO(given))
    path.write_text("size = 6\nladders = [[2, 21]]\n", encoding="utf-8")  # changed on disk
    os.utime(path, ns=(1, 1))
    PlainEditor(board, source, console, note).run()
    text = "\n".join(console.said)
    assert "changed on disk since it was opened. Overwrite it?" in text
    assert "Not saved." in text
    assert "The input ended: leaving without saving the changes." in text
    assert load_board(str(path)).jumps == {2: 21}  # never overwritten without a yes


def test_edit_refusals_are_the_boards_own_words() -> None:
    console = Console(io.StringIO(), io.StringIO("ladder 1 99\nremove 7\nsize 0 0\nladder x\n"))
    PlainEditor(Board(5, 5), BoardSource(), console).run()
    text = "\n".join(console.said)
    assert "Not changed: " in text and "outside the board" in text
    assert "no jump starts on square 7" in text
    assert "Type ladder, the square it starts on and where it ends: ladder 3 19." in text
    assert unplain(text) == []


def test_edit_by_ear_answers_where_board_and_say_and_speaks_its_rules(tmp_path: Path) -> None:
    """What a blind player trips on when listening (espeak-ng): no answer to ``where``,
    'six_again' read with its underscore, 'within 10 0.0%', the undo of a removal
    named only by its square, ``say 2`` saying one line."""
    path = tmp_path / "b.toml"
    given = (
        "where\nsnake 20 4\nremove 20\nundo\nrule six again on\nrule bogus 1\n"
        f"numbers\nsave as {path}\nwhere\nboard\nsay 2\n"
    )
    console = Console(io.StringIO(), io.StringIO(given))
    PlainEditor(Board(5, 5), BoardSource(), console).run()
    said = console.said
    assert "Editing a new board, not saved yet; save as PATH keeps it." in said
    assert any(line.startswith("Undone: removed the snake from 20 down to 4.") for line in said)
    assert any(line.startswith("Rule six again is now on.") for line in said)
    assert any("known rules: start, overshoot, chain, faces, six again," in x for x in said)
    assert not any("_" in line.replace(str(tmp_path), "") for line in said)
    numbers = next(line for line in said if line.startswith("least rolls: "))
    assert "within 10 turns: " in numbers and "standard deviation: " in numbers
    assert f"Editing {path}; it has no unsaved changes." in said
    assert said[-3:-1] == said[-5:-3]  # say 2: the last two lines again (the jumps)
    assert said[-5:-3] == ["Ladders: none.", "Snakes: 20 down to 4."]
    assert unplain("\n".join(said)) == []


# -- a terminal: the line editor -----------------------------------------------------------


def read_pty(parent: int, until: bytes, seen: bytes) -> bytes:
    deadline = time.monotonic() + LIMIT
    while until not in seen:
        assert time.monotonic() < deadline, seen.decode(errors="replace")
        ready, _, _ = select.select([parent], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(parent, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_in_a_terminal_lines_are_edited_and_nothing_raw_arrives() -> None:
    import pty

    parent, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "learn", "--screen-reader"],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    seen = b""
    try:
        seen = read_pty(parent, b"type help for the commands.", seen)
        os.write(parent, b"next\r")
        seen = read_pty(parent, b"The search starts", seen)
        plain_part = seen
        # Left twice, then a letter: the line editor puts it in place ("nxt" -> "next").
        os.write(parent, b"nxt\x1b[D\x1b[De\r")
        seen = read_pty(parent, b"Take 1 off the queue", seen)
        os.write(parent, b"\x1b[A\r")  # Up: the line typed before, again
        seen = read_pty(parent, b"Die 1: from 1 to 2", seen)
        os.write(parent, b"\x04")
        seen = read_pty(parent, b"Goodbye.", seen)
        assert process.wait(LIMIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(parent)
    text = seen.decode()
    assert "is not a command" not in text
    assert "\x1b" not in plain_part.decode()
    assert unplain(plain_part.decode().replace("\r", "")) == []


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_a_line_typed_before_the_editor_starts_is_shown_once() -> None:
    """Typed while snl starts (the terminal echoes it then, in its line mode): the
    editor must not show it again, or a screen reader says it twice."""
    import pty

    parent, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "learn", "--screen-reader"],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.write(parent, b"next\rne")  # long before Python has started: a line and a part
    seen = b""
    try:
        seen = read_pty(parent, b"The search starts", seen)
        os.write(parent, b"xt\r")  # the part typed before is the editor's: 'next'
        seen = read_pty(parent, b"Take 1 off the queue", seen)
        os.write(parent, b"\x04")
        seen = read_pty(parent, b"Goodbye.", seen)
        assert process.wait(LIMIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(parent)
        os.close(child)
    text = seen.decode().replace("\r", "")
    assert text.startswith("next\nne\nleetcode-1: ")  # the echo, then a line of its own
    # The line typed first is not shown again; the part typed then is the editor's.
    assert text.split("commands.\n")[1].startswith("The search starts on square 1"), text
    assert "\nnext\nTake 1 off the queue" in text


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_the_terminal_echoes_only_while_the_editor_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A key typed while the game speaks is not echoed by the terminal, then again by
    the editor when it reads the line: it is shown once, by the editor."""
    import atexit
    import pty
    import signal
    import termios

    from snl_tui.plain.console import keys_as_typed

    monkeypatch.setattr(atexit, "register", lambda *args: None)  # this test's terminal
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # and this process's
    parent, child = pty.openpty()
    try:
        echo = keys_as_typed(child)
        assert echo is not None
        assert not termios.tcgetattr(child)[3] & (termios.ECHO | termios.ICANON)
        echo(True)  # the editor starts: GNU readline echoes only if the terminal does
        assert termios.tcgetattr(child)[3] & termios.ECHO
        echo(False)
        assert not termios.tcgetattr(child)[3] & termios.ECHO
    finally:
        os.close(parent)
        os.close(child)


def test_escapes_never_reach_a_command() -> None:
    assert strip_escapes("ro\x1b[Dll\x1b[A") == "roll"
    console = Console(io.StringIO(), io.StringIO("\x1b[t\x1b[a\n"))
    assert console.read() == ""  # two whole key sequences: nothing typed


def run_in_pty(args: list[str], typed: bytes = b"") -> str:
    """``snl ARGS`` in a pseudo-terminal (stdin, stdout and stderr), ``typed`` after its
    first line; everything it wrote, until it exits."""
    import pty

    parent, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", *args],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    seen = b""
    try:
        if typed:
            seen = read_pty(parent, b"\n", seen)
            os.write(parent, typed)
        deadline = time.monotonic() + LIMIT
        while process.poll() is None or select.select([parent], [], [], 0)[0]:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([parent], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(parent, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
        assert process.wait(LIMIT) in (0, 1)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(parent)
    return seen.decode().replace("\r", "")


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_reports_and_the_editor_in_a_terminal_are_plain_text() -> None:
    wrong = Path(__file__).parents[2] / "lab" / "solutions" / "wrong_no_snakes.py"
    runs = [
        (["analyze", "classic", "--screen-reader"], b"", "turns 7 to 17: 15.1% of games"),
        (["check", "classic", "--screen-reader"], b"", "ladder from 1 up to 38 shortens"),
        (["solve", "classic", "--screen-reader"], b"", "Roll 1. A 1: from off the board"),
        (
            ["judge", str(wrong), "--boards", "20", "--screen-reader"],
            b"",
            "square 3, snake down to 1",
        ),
        (["edit", "--screen-reader"], b"jumps\n\x04", "Ladders: none."),
    ]
    for args, typed, expected in runs:
        text = run_in_pty(args, typed)
        assert expected in text, (args, text)
        assert "\x1b" not in text and unplain(text) == [], (args, unplain(text))


def test_the_list_of_boards_in_words() -> None:
    said = run_main("boards", "--screen-reader")
    assert said.startswith("classic: 10 by 10, least rolls 7. ")
    assert "ladders 2 to 15 and 14 to 35 and a snake 17 to 13." in said
    assert unplain(said) == [] and "  " not in said
