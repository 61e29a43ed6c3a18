"""Every input path under attack (issue 10 items 4, 5, 7, 8, 12; "Tests and proof").

The hostile corpus (``hostile.py``, built in a temporary folder) goes through every
reader: ``snl check/solve/analyze/convert FILE`` in-process, a few through a real
``python -m snl_tui`` with a time and memory limit, and ``looks_like_board`` /
``is_board_file`` (the load dialog's listing). Each file must end in exit 2 and exactly
one line on stderr of at most ~200 characters, with no control character and no
traceback. Bad argument lists get the same treatment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.files.formats import (
    MAX_FILE_BYTES,
    dump_board,
    is_board_file,
    load_board,
    looks_like_board,
    parse_board,
)
from snl_tui.core.text import LINE_LIMIT, is_unsafe_char, quote, safe_line

from .hostile import build_corpus, build_tricky_valid, hostile_texts

COMMANDS = (["check"], ["solve"], ["analyze"], ["convert", "--to", "toml"])
ROOT = Path(__file__).resolve().parents[2]
CORPUS_NAMES = [
    *hostile_texts(),
    "twenty-mb.txt",
    "directory.toml",
    "loop-a.toml",
    "dangling.toml",
    "esc-name.toml",
    "missing-esc",
    "long-missing",
]
if hasattr(os, "mkfifo"):
    CORPUS_NAMES.append("fifo.txt")
CORPUS_NAMES += [device for device in ("/dev/zero", "/dev/urandom") if os.path.exists(device)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_corpus(tmp_path_factory.mktemp("hostile"))


def assert_one_clean_line(stderr: str, command: str | None) -> str:
    """stderr is exactly one line, short, starting 'snl COMMAND: ' (or just 'snl' for
    the top-level parser's errors), with no control character."""
    assert stderr.endswith("\n") and stderr.count("\n") == 1, repr(stderr[:500])
    line = stderr[:-1]
    assert line.startswith(f"snl {command}: " if command else "snl"), line
    assert len(line) <= LINE_LIMIT, len(line)
    assert "Traceback" not in line
    assert not [char for char in line if is_unsafe_char(char)], line
    return line


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS_NAMES) >= 60
    for suffix in (".json", ".toml", ".txt"):
        assert sum(name.endswith(suffix) for name in CORPUS_NAMES) >= 20


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_every_command_refuses_a_hostile_file_in_one_line(
    name: str, corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(corpus[name])
    for command in COMMANDS:
        status = main([command[0], path, *command[1:]])
        out, err = capsys.readouterr()
        assert status == 2, (command, out, err)
        assert out == ""
        assert_one_clean_line(err, command[0])


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_listing_a_hostile_file_never_raises(name: str, corpus: dict[str, Path]) -> None:
    # The load dialog lists a folder with these two: they must answer, whatever is there.
    assert isinstance(looks_like_board(corpus[name]), bool)
    assert isinstance(is_board_file(corpus[name]), bool)


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_load_board_raises_only_board_error(name: str, corpus: dict[str, Path]) -> None:
    # The one function the load dialog calls (in a worker): a Board or a BoardError.
    with pytest.raises(BoardError) as caught:
        load_board(corpus[name])
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 400
    assert not [char for char in message if is_unsafe_char(char)]


def test_looks_like_board_says_no_to_devices_fifos_and_loops(corpus: dict[str, Path]) -> None:
    for name in ("directory.toml", "loop-a.toml", "dangling.toml", "fifo.txt", "/dev/zero"):
        if name in corpus:
            assert looks_like_board(corpus[name]) is False, name
            assert is_board_file(corpus[name]) is False, name
    assert looks_like_board(corpus["deep-list.json"]) in (True, False)


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("deep-list.json", "nested too deeply"),
        ("cell-list.json", "cell is not a whole number: [1]"),
        ("cell-dict.json", "cell is not a whole number: {'a': 1}"),
        ("cell-bigint.json", "far too large (5000 digits)"),
        ("doc-bigint-size.json", "far too large (5000 digits)"),
        ("bigint-size.toml", "far too large"),
        ("bigint-size.txt", "line 1: the board size is far too large (5000 digits)"),
        ("bigint-jump.txt", "line 2: a jump's destination is far too large"),
        ("deep-array.toml", "nested too deeply"),
        ("deep-table.toml", "nested too deeply"),
        ("twenty-mb.txt", "too large for a board"),
        ("directory.toml", "is a directory"),
        ("loop-a.toml", "symlink loop"),
        ("dangling.toml", "broken symbolic link"),
        ("fifo.txt", "not a regular file"),
        ("/dev/zero", "not a regular file"),
        ("name-esc.toml", "the name contains a control character ('\\x1b')"),
        ("name-esc.txt", "the name contains a control character ('\\x1b')"),
        ("name-c1.txt", "the name contains a control character ('\\x9b')"),
        ("name-del.toml", "control character ('\\x7f')"),
        ("name-bidi.toml", "control character ('\\u202e')"),
        ("name-newline.toml", "control character ('\\n')"),
        ("name-padded.toml", "the name starts or ends with a space"),
        ("description-esc.toml", "the description contains a control character"),
        ("rules-start-string.toml", "'start' must be a number without quotes"),
        ("rules-chain-string.toml", "'chain' must be true or false without quotes"),
        ("size-float.toml", "'size' must be a whole number, not 3.0"),
        ("arabic-digits.txt", "must be a whole number"),
        ("fullwidth-digits.txt", "must be a whole number"),
        ("utf16.txt", "UTF-16"),
        ("doc-ladders-100k.json", "expected a [from, to] pair, not [1, 1, 1, 1, 1, 1, ...]"),
    ],
)
def test_the_message_names_the_problem(name: str, fragment: str, corpus: dict[str, Path]) -> None:
    if name not in corpus:
        pytest.skip(f"{name} does not exist here")
    with pytest.raises(BoardError) as caught:
        load_board(corpus[name])
    assert fragment in str(caught.value)


def test_an_echoed_file_name_has_its_control_characters_escaped(
    corpus: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("esc-name.toml", "missing-esc"):
        assert main(["solve", str(corpus[name])]) == 2
        line = assert_one_clean_line(capsys.readouterr().err, "solve")
        assert "\\x1b" in line


def test_tricky_but_valid_files_still_load(tmp_path: Path) -> None:
    for name, path in build_tricky_valid(tmp_path).items():
        board = load_board(path)
        assert board.goal >= 4, name
    crlf = load_board(tmp_path / "crlf.toml")
    assert crlf.description == "two\nlines"
    assert load_board(tmp_path / "plus-sign.txt").jumps == {2: 50}


def test_builtin_boards_pass_the_name_rules() -> None:
    # Names are one line without edge spaces: every shipped board keeps loading.
    from snl_tui.core.files.formats import builtin_boards

    for entry in builtin_boards():
        assert entry.board.name == entry.board.name.strip()


def test_names_round_trip_through_every_format() -> None:
    # Issue 10 item 12: convert --to txt dropped newlines and edge spaces of names; such
    # names are now refused, and every accepted name survives every format.
    for name in ("Chutes  and\u00a0Ladders", "é 🐍 [b]x[/]", "# not a comment", "a=b"):
        board = Board(3, 3, [(2, 5)], name=name, description="one\n\ttwo")
        for fmt, suffix in (("toml", ".toml"), ("json", ".json"), ("txt", ".txt")):
            back = parse_board(dump_board(board, fmt), suffix=suffix)
            assert (back.name, back.description) == (board.name, board.description), fmt
    for bad in (" lead", "trail ", "two\nlines", "tab\tname"):
        with pytest.raises(BoardError):
            Board(3, 3, name=bad)


def test_quote_bounds_any_value() -> None:
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    assert len(quote(deep)) <= 60
    assert len(quote("x" * 300_000)) <= 60
    assert "digits" in quote(10**5000)
    assert quote("\x1b[2J") == "'\\x1b[2J'"
    assert safe_line("a\x1b\x07\x9b\n" + "b" * 1000).startswith("a\\x1b\\x07\\x9b b")
    assert len(safe_line("b" * 1000)) == LINE_LIMIT


def test_size_cap_is_generous_enough_for_the_largest_board(tmp_path: Path) -> None:
    # A 1000x1000 matrix (the largest board) is under the cap and loads.
    row = "[" + ",".join(["-1"] * 1000) + "]"
    path = tmp_path / "big.json"
    path.write_text("[" + ",\n".join([row] * 1000) + "]")
    assert path.stat().st_size < MAX_FILE_BYTES
    assert load_board(path).goal == 1_000_000


# -- a real process: time and memory bounded ------------------------------------------------


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_snl(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    return subprocess.run(
        [sys.executable, "-m", "snl_tui", *args],
        text=True,
        timeout=20,  # a hang fails the test instead of blocking CI
        preexec_fn=_limit_memory if sys.platform != "win32" else None,
        env=env,
        **streams,  # type: ignore[arg-type]
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX files and rlimits")
@pytest.mark.parametrize(
    "name",
    [
        "fifo.txt",
        "/dev/zero",
        "/dev/urandom",
        "deep-list.json",
        "bigint-size.toml",
        "deep-array.toml",
        "twenty-mb.txt",
        "name-esc.toml",
        "loop-a.toml",
    ],
)
def test_a_real_process_refuses_in_bounded_time_and_memory(
    name: str, corpus: dict[str, Path]
) -> None:
    if name not in corpus:
        pytest.skip(f"{name} does not exist here")
    done = run_snl("check", str(corpus[name]))
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == ""
    assert_one_clean_line(done.stderr, "check")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = run_snl("solve", "classic", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    line = assert_one_clean_line(done.stderr, "solve")
    assert "No space left" in line


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_a_reader_that_leaves_early_causes_no_traceback() -> None:
    # `snl convert everest --to json | head -1`, with a pipe that closes after one read.
    process = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "analyze", "classic", "--visits"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(1)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait(timeout=20)
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
    assert process.returncode in (0, 1)


# -- bad arguments --------------------------------------------------------------------------

HUGE = "9" * 5000
BAD_ARGUMENTS = [
    ["frobnicate"],
    ["solve"],
    ["check", "a.toml", "b.toml"],
    ["--bogus"],
    ["boards", "--bogus"],
    ["solve", "classic", "--faces", "0"],
    ["solve", "classic", "--faces", "1"],
    ["solve", "classic", "--faces", "x"],
    ["solve", "classic", "--faces", "99"],
    ["solve", "classic", "--faces", HUGE],
    ["solve", "classic", "--start", "2"],
    ["solve", "classic", "--overshoot", "maybe"],
    ["solve", "classic", "--from", "x"],
    ["solve", "classic", "--from", "100000"],
    ["solve", "classic", "--from", HUGE],
    ["solve", "classic", "--faces", "\x1b[2J"],
    ["solve", "\x1b]0;pwned\x07"],
    ["solve", "x" * 100_000],
    ["solve", "/nonexistent/" + "x" * 300 + ".toml"],
    ["play", "--players", ""],
    ["play", "--players", ","],
    ["play", "--players", "a,b,c,d,e"],
    ["play", "--players", "\x1b]0;x\x07"],
    ["play", "--seed", "x"],
    ["play", "--mode", "hard"],
    ["analyze", "classic", "--players", "0"],
    ["analyze", "classic", "--players", HUGE],
    ["convert", "classic"],
    ["convert", "classic", "--to", "yaml"],
    ["convert", "classic", "--to", "matrix"],
    ["generate", "--size", "x"],
    ["generate", "--rows", "5"],
    ["generate", "--time-limit", "0"],
    ["generate", "-o", "board.yaml"],
    ["generate", "--name", "\x1b]0;x\x07", "--size", "3"],
    ["generate", "--expected-turns", "nan"],
]


@pytest.mark.parametrize("argv", BAD_ARGUMENTS, ids=lambda argv: safe_line(" ".join(argv), 40))
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    line = assert_one_clean_line(err, None)
    assert "Traceback" not in line and "usage:" not in line


def test_files_opened_to_be_fixed_fail_as_cleanly(tmp_path: Path) -> None:
    """``load_board_to_fix`` (the editor's way in) reads the same hostile files: one
    BoardError naming the file, never another exception."""
    from snl_tui.core.files.formats import load_board_to_fix

    for index, content in enumerate(
        ["[" * 100_000, "{" * 50_000, "\x00" * 10, "size = 6\nladders = [[3, 1e999]]\n"]
    ):
        path = tmp_path / f"h{index}.json"
        path.write_text(content)
        with pytest.raises(BoardError) as caught:
            load_board_to_fix(path)
        assert str(path) in str(caught.value) and "\n" not in str(caught.value)
