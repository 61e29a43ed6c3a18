"""End to end: ``snl edit`` in a real terminal (tmux).

Opens ``snl edit tmp.toml --size 6`` (a new board) in a detached 120x40 tmux session, adds
a ladder with the keys, saves with ctrl+s, quits with ``q``, and reads the file back.
Only the session this test started is killed. Skipped when tmux is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from snl_tui.core.formats import load_board

pytestmark = pytest.mark.e2e

TMUX = shutil.which("tmux")
SNL = Path(sys.executable).with_name("snl")
TIMEOUT = 30.0
"""Seconds to wait for a screen condition (a loaded machine is slow, not broken)."""


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def wait_for(name: str, condition: Callable[[str], bool]) -> str:
    """Poll the pane until ``condition(screen)`` holds (bounded), return the screen."""
    deadline = time.monotonic() + TIMEOUT
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", name)
        if condition(screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"screen never matched; last screen:\n{screen}")


def test_edit_add_a_ladder_save_and_read_back(tmp_path: Path) -> None:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    if not SNL.exists():
        pytest.skip(f"the snl console script is not installed next to {sys.executable}")
    name = f"snl-e2e-edit-{uuid.uuid4().hex[:8]}"
    board_file = tmp_path / "tmp.toml"
    status = tmp_path / "status"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}
    command = (
        f"cd '{tmp_path}' && '{SNL}' edit tmp.toml --size 6; "
        f"echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    subprocess.run(
        [TMUX, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", command],
        check=True,
        env={**env, "TERM": "xterm-256color"},
        timeout=10,
    )
    try:
        wait_for(name, lambda s: "Square 1" in s and "tmp 6x6" in s)
        tmux("send-keys", "-t", name, "Right", "Enter")
        wait_for(name, lambda s: "New jump from square 2" in s)
        tmux("send-keys", "-t", name, "Up", "Up", "Enter")
        wait_for(name, lambda s: "Added the ladder 2 -> 14" in s)
        tmux("send-keys", "-t", name, "C-s")
        wait_for(name, lambda s: "Saved tmp.toml" in s)
        tmux("send-keys", "-t", name, "q")
        deadline = time.monotonic() + TIMEOUT
        while not status.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status.read_text().strip() == "snl exited 0"
        board = load_board(board_file)
        assert (board.rows, board.cols, board.jumps, board.name) == (6, 6, {2: 14}, "tmp")
    finally:
        subprocess.run([TMUX, "kill-session", "-t", name], capture_output=True, timeout=10)
