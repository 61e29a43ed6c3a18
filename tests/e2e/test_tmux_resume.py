"""End to end: kill ``snl`` with SIGKILL mid-game, start it again, resume (SPEC 8).

A detached 120x40 tmux session runs ``snl play --seed 5`` with ``SNL_DATA_DIR`` in a
temporary folder, then plain ``snl`` once the first is gone. The test rolls three times,
kills the first process (found as the child of the pane's shell, ``#{pane_pid}``) with
SIGKILL, chooses Resume in the second and checks the positions on screen and in
``snl games --json``. Only the session this test started is killed. Skipped without tmux.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from snl_tui.core.store.games import DB_NAME, open_store

from .terminal import SNL, screen, tmux, tmux_session, wait_until

pytestmark = pytest.mark.e2e

TIMEOUT = 20.0
"""Seconds to wait for a screen condition."""


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    data = tmp_path / "data"
    status = tmp_path / "status"
    # The first snl is killed; the second one starts by itself and is asked to resume.
    command = (
        f"'{SNL}' play --seed 5 --no-animation --players You,cpu; "
        f"'{SNL}' --no-animation; echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    with tmux_session("snl-resume", command, env={"SNL_DATA_DIR": str(data)}) as name:
        yield name, data


def snl_pid(name: str) -> int:
    """The snl process: the child of the pane's shell."""
    shell = tmux("list-panes", "-t", name, "-F", "#{pane_pid}").split()[0]
    children = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True, timeout=10
    ).stdout.split()
    assert len(children) == 1, children
    return int(children[0])


def shown_squares(text: str) -> dict[str, str]:
    """'You' -> 'square 24' (or 'start (off the board)') from the players panel."""
    found = {}
    for player in ("You", "CPU (cpu)"):
        match = re.search(rf"[YC]  {re.escape(player)}: (square \d+|start)", text)
        assert match is not None, text
        found[player.split()[0]] = match[1]
    return found


def games_json(data: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        [str(SNL), "games", "--json"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "SNL_DATA_DIR": str(data)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def your_turn(name: str) -> bool:
    return any("You:" in line and "◀ to move" in line for line in screen(name).splitlines())


def round_over(name: str, number: int) -> bool:
    """Round ``number`` is in the log and it is the human's turn again."""
    return f"{number}. CPU rolled" in screen(name) and your_turn(name)


def test_killed_mid_game_then_resumed_in_a_real_terminal(session: tuple[str, Path]) -> None:
    name, data = session
    wait_until(
        lambda: "press r or space to roll" in screen(name), TIMEOUT, "the first frame", session=name
    )
    for round_number in range(1, 4):
        tmux("send-keys", "-t", name, "r")
        wait_until(
            partial(round_over, name, round_number),
            TIMEOUT,
            f"round {round_number} to end",
            session=name,
        )
    before = shown_squares(screen(name))
    games = games_json(data)
    assert len(games) == 1 and games[0]["status"] == "playing" and games[0]["turns"] == 3
    first_pid = snl_pid(name)
    os.kill(first_pid, signal.SIGKILL)

    wait_until(
        lambda: "Resume your game?" in screen(name), TIMEOUT, "the Resume dialog", session=name
    )
    dialog = screen(name)
    assert f"You: {before['You']}" in dialog and f"CPU: {before['CPU']}" in dialog
    tmux("send-keys", "-t", name, "c")
    wait_until(
        lambda: "Resume your game?" not in screen(name) and your_turn(name),
        TIMEOUT,
        "the resumed game",
        session=name,
    )
    assert snl_pid(name) != first_pid
    resumed = screen(name)
    assert shown_squares(resumed) == before
    assert "3. CPU rolled" in resumed  # the move log came back too

    with open_store(data / DB_NAME, create=False) as store:
        saved = store.load_game(int(games[0]["id"]))  # type: ignore[call-overload]
    positions = [f"square {p}" if p else "start" for p in saved.data["positions"]]
    assert positions == [before["You"], before["CPU"]]
    tmux("send-keys", "-t", name, "q")
    games = games_json(data)
    assert [g["status"] for g in games] == ["playing"] and games[0]["turns"] == 3
