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
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from snl_tui.core.store import DB_NAME, open_store

pytestmark = pytest.mark.e2e

TMUX = shutil.which("tmux")
SNL = Path(sys.executable).with_name("snl")


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    if not SNL.exists():
        pytest.skip(f"the snl console script is not installed next to {sys.executable}")
    name = f"snl-resume-{uuid.uuid4().hex[:8]}"
    data = tmp_path / "data"
    status = tmp_path / "status"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}
    env.update({"TERM": "xterm-256color", "SNL_DATA_DIR": str(data)})
    # The first snl is killed; the second one starts by itself and is asked to resume.
    command = (
        f"'{SNL}' play --seed 5 --no-animation --players You,cpu; "
        f"'{SNL}' --no-animation; echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    subprocess.run(
        [TMUX, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", command],
        check=True,
        env=env,
        timeout=10,
    )
    try:
        yield name, data
    finally:
        subprocess.run([TMUX, "kill-session", "-t", name], capture_output=True, timeout=10)


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


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


def test_killed_mid_game_then_resumed_in_a_real_terminal(session: tuple[str, Path]) -> None:
    name, data = session
    wait_for(lambda: "press r or space to roll" in screen(name))
    for round_number in range(1, 4):
        tmux("send-keys", "-t", name, "r")
        wait_for(lambda n=round_number: f"{n}. CPU rolled" in screen(name) and your_turn(name))
    before = shown_squares(screen(name))
    games = games_json(data)
    assert len(games) == 1 and games[0]["status"] == "playing" and games[0]["turns"] == 3
    first_pid = snl_pid(name)
    os.kill(first_pid, signal.SIGKILL)

    wait_for(lambda: "Resume your game?" in screen(name))
    dialog = screen(name)
    assert f"You: {before['You']}" in dialog and f"CPU: {before['CPU']}" in dialog
    tmux("send-keys", "-t", name, "r")
    wait_for(lambda: "Resume your game?" not in screen(name) and your_turn(name))
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
