"""Plain mode on every ``snl`` command (SPEC 17): each subcommand the parser knows takes
``--screen-reader``, and with it, with ``TERM=dumb`` or with the setting, what it prints
(its report, its help, its errors) is words only: no escape, no box-drawing, block or
braille character, no arrow or emoji, no ``->``.

The commands come from the parser itself, so a new command is checked (and needs an
example below) the day it is added. Each runs in this process: about a second for all.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from snl_tui.cli.main import build_parser, main
from snl_tui.core.store.settings import Settings, save_settings

from .plainness import unplain

COMMANDS = sorted(build_parser().subcommands)

EXAMPLES: dict[str, list[str]] = {
    "play": ["--no-save", "--seed", "1"],  # the input ends at once: a start and goodbye
    "resume": [],  # nothing saved: one line saying so
    "replay": ["3"],
    "solve": ["leetcode-1"],
    "analyze": ["leetcode-1"],
    "check": ["classic"],
    "boards": [],
    "convert": ["leetcode-1", "--to", "txt"],
    "share": ["leetcode-1"],
    "generate": ["--size", "4", "--seed", "1"],
    "edit": [],
    "export": ["leetcode-1", "-o", "{tmp}/page.svg", "--force"],
    "games": [],
    "stats": [],
    "serve": ["--allow-origin", "bad"],  # serving runs until Ctrl+C: its first refusal
    "host": ["--resume", "5"],  # likewise: a saved room that is not there
    "join": ["nowhere"],  # and a room address that is none
    "judge": ["no-such-solution.py"],
    "learn": [],
}
"""Arguments that make each command print and end at once (the input is empty)."""

ARROWS = re.compile(r"->|<-|(?<![\w-])\d+x\d+\b")
"""An arrow, or a size such as 10x10 (a name such as lld-6x6 stays as it is)."""
SECONDS = re.compile(r"\d+\.\d+ s\b")


def words_only(text: str) -> list[str]:
    """What in ``text`` a screen reader would spell out instead of saying."""
    return unplain(text) + ARROWS.findall(text)


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(args)
    captured = capsys.readouterr()
    return status, SECONDS.sub("N s", captured.out + captured.err)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_speaks_in_words(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert command in EXAMPLES, f"snl {command}: add an example to EXAMPLES"
    example = [word.replace("{tmp}", str(tmp_path)) for word in EXAMPLES[command]]
    # The option, the terminal that cannot draw, and the setting: each one is enough.
    status, said = run([command, "--screen-reader", *example], capsys, monkeypatch)
    assert said.strip() and words_only(said) == [], (command, said)
    with monkeypatch.context() as term:
        term.setenv("TERM", "dumb")
        status_dumb, said_dumb = run([command, *example], capsys, monkeypatch)
    assert (status_dumb, said_dumb) == (status, said)
    save_settings(Settings(screen_reader=True))
    assert run([command, *example], capsys, monkeypatch) == (status, said)
    # Its help, and a mistake on its command line, in words too.
    status, helped = run([command, "--help"], capsys, monkeypatch)
    assert status == 0 and "--screen-reader" in helped
    assert words_only(helped) == [] and "  " not in helped, helped
    status, refused = run([command, "--no-such-option"], capsys, monkeypatch)
    assert status == 2 and refused.count("\n") == 1 and words_only(refused) == [], refused


def test_without_it_the_report_keeps_its_drawing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The words are plain mode's: ``--no-screen-reader`` beats TERM=dumb and the
    setting, and the report is the one for the eye again."""
    monkeypatch.setenv("TERM", "dumb")
    save_settings(Settings(screen_reader=True))
    status, drawn = run(["solve", "leetcode-1", "--no-screen-reader"], capsys, monkeypatch)
    assert status == 0 and "->" in drawn
    status, helped = run(["solve", "--no-screen-reader", "--help"], capsys, monkeypatch)
    assert "  --json" in helped  # argparse's own columns


def test_errors_before_any_command_are_in_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "dumb")
    status, said = run(["lld-6x6x"], capsys, monkeypatch)
    assert status == 2 and "'snl play lld-6x6'" in said  # a name stays a name
    status, said = run(["--help"], capsys, monkeypatch)
    assert status == 0 and words_only(said) == [] and "  " not in said


def test_serve_in_words_links_to_the_page_for_screen_readers() -> None:
    pytest.importorskip("textual_serve", reason="snl-tui[web] is not installed")
    from snl_tui.cli import serve

    server = serve._server_class()("true", host="127.0.0.1", port=8123, max_sessions=1)
    assert server.link() == "http://127.0.0.1:8123/"
    server.in_words = True
    assert server.link() == "http://127.0.0.1:8123/?screenreader=1"
