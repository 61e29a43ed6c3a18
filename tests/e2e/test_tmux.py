"""End to end: the real ``snl`` console script in a real terminal (tmux).

Starts ``snl play`` from this virtualenv in a detached 120x40 tmux session, rolls, shows
the route, quits with ``q``, reads the screen with ``capture-pane`` and checks the exit
status. Only the session this test started is killed. Skipped when tmux is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

TMUX = shutil.which("tmux")
SNL = Path(sys.executable).with_name("snl")


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    if not SNL.exists():
        pytest.skip(f"the snl console script is not installed next to {sys.executable}")
    name = f"snl-e2e-{uuid.uuid4().hex[:8]}"
    status = tmp_path / "status"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}
    # Keep the pane open after snl exits so the test can read the exit status.
    command = (
        f"'{SNL}' play --seed 5 --no-animation --players You,cpu; "
        f"echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    subprocess.run(
        [TMUX, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", command],
        check=True,
        env={**env, "TERM": "xterm-256color"},
        timeout=10,
    )
    try:
        yield name, status
    finally:
        subprocess.run([TMUX, "kill-session", "-t", name], capture_output=True, timeout=10)


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_roll_route_and_quit_in_a_real_terminal(session: tuple[str, Path]) -> None:
    name, status = session
    wait_for(lambda: "press r or space to roll" in screen(name) and "q Quit" in screen(name))
    first = screen(name)
    assert "Chutes and Ladders 10x10" in first
    assert "▲38" in first and "▼6" in first and "GOAL" in first
    assert "r Roll" in first and "q Quit" in first

    tmux("send-keys", "-t", name, "r")
    wait_for(lambda: "CPU rolled" in screen(name))
    after_roll = screen(name)
    assert "You rolled" in after_roll

    # The CPU's move has been shown: it is the human's turn again.
    wait_for(
        lambda: any("You:" in line and "◀ to move" in line for line in screen(name).splitlines())
    )
    tmux("send-keys", "-t", name, "o")
    wait_for(lambda: "»1" in screen(name))

    tmux("send-keys", "-t", name, "q")
    wait_for(status.exists)
    assert status.read_text().strip() == "snl exited 0"
