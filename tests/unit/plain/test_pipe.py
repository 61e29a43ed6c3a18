"""``snl play --screen-reader`` as a person (or a screen reader) meets it: the real command,
through a pipe with no terminal and in a pseudo-terminal.

A whole game against the computer by ``roll`` lines: every line plain, each move said
once and in the engine's order, the winner named, the game saved; a game left half-way
goes on with ``snl resume --screen-reader`` exactly as it would have gone on.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from snl_tui.core.engine import Game, Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import open_store

from .plainness import unplain

LIMIT = 120.0
"""Seconds a command may take at most on a loaded machine (it takes about one)."""
MOVE = re.compile(r"^(You|CPU) rolled (\d+): ")


def snl(
    *args: str, given: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real ``snl`` with ``given`` on its standard input (a pipe, no terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "snl_tui", *args],
        input=given,
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env={**os.environ, **(env or {})},
        check=False,
    )


def moves(out: str) -> list[tuple[str, int]]:
    return [(m[1], int(m[2])) for line in out.splitlines() if (m := MOVE.match(line))]


def test_a_whole_game_through_a_pipe_is_plain_saved_and_said_once(private_data_dir: Path) -> None:
    result = snl("play", "--screen-reader", "--seed", "5", given="roll\n" * 200)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert unplain(out) == []
    said = moves(out)
    with open_store() as store:
        (summary,) = store.list_games().games
        saved = store.load_game(summary.id)
    assert saved.status == "won" and saved.winner == "You"
    rolls = saved.data["game"]["rolls"]
    # Each move once, in the engine's order (the same seed gives the same game here).
    assert [die for _, die in said] == rolls
    game = Game.replay(load_board("classic"), (Player("You"), Player("CPU", True)), rolls)
    assert [seat for seat, _ in said] == [game.players[t.player].name for t in game.history]
    assert f"You win in {game.turns_taken[0]} turns!" in out
    assert f"Saved as game {summary.id}." in out
    assert out.rstrip().endswith("Goodbye.")


def test_a_game_left_half_way_resumes_where_it_stood(private_data_dir: Path) -> None:
    whole = snl("play", "--screen-reader", "--seed", "11", "--no-save", given="r\n" * 200)
    first = snl("play", "--screen-reader", "--seed", "11", given="r\n" * 5)  # then EOF
    assert first.returncode == 0, first.stderr
    assert "Goodbye. Game 1 is saved: snl resume 1 goes on from here." in first.stdout
    rest = snl("resume", "--screen-reader", given="where\n" + "r\n" * 200)
    assert rest.returncode == 0, rest.stderr
    assert "Game 1 resumed after " in rest.stdout
    assert unplain(first.stdout + rest.stdout) == []
    # The moves before and after the break are the uninterrupted game's moves.
    assert moves(first.stdout) + moves(rest.stdout) == moves(whole.stdout)
    with open_store() as store:
        assert store.load_game(1).status == "won"


def test_term_dumb_plays_in_plain_lines_and_eof_ends_cleanly(private_data_dir: Path) -> None:
    result = snl("play", "--seed", "3", "--no-save", given="", env={"TERM": "dumb"})
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Chutes and Ladders: 10 by 10")
    assert lines[-1] == "Goodbye."
    assert "\x1b" not in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_in_a_pseudo_terminal_too(private_data_dir: Path) -> None:
    import pty

    parent, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "play", "--screen-reader", "--seed", "5", "--no-save"],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    seen = b""

    def read_until(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + LIMIT
        while text not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            try:
                chunk = os.read(parent, 4096)
            except OSError:  # the other end closed
                break
            seen += chunk

    try:
        read_until(b"Type help for the commands.")
        os.write(parent, b"roll\n")
        read_until(b"CPU rolled")
        os.write(parent, b"\x04")  # Ctrl+D: the end of the input
        read_until(b"Goodbye.")
        assert process.wait(LIMIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(parent)
    text = seen.decode()
    assert "You rolled " in text
    # The terminal echoes what was typed; nothing else but plain lines comes back.
    assert "\x1b" not in text
    assert unplain(text.replace("\r", "").replace("^D", "")) == []
