"""Shared helpers for the real-terminal tests: snl in a detached tmux session.

``tmux_session`` starts one session running a shell command in a clean terminal
environment and kills only that session afterwards; ``tmux`` runs one tmux command;
``screen`` reads the pane; ``wait_for`` / ``wait_until`` poll a condition with a bound
(never a sleep that guesses how long snl takes on a loaded machine).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
SOCKET = f"snl-tests-{os.getpid()}"
"""This test process's own tmux server (``tmux -L``): tests running at once in several
processes (pytest-xdist) never race to start one server, and the user's tmux sessions are
never touched. The server ends with its last session."""
SNL = Path(sys.executable).with_name("snl")
"""The ``snl`` console script of this virtualenv (the one under test)."""


def require_tmux_and_snl() -> None:
    """Skip the calling test when tmux or the ``snl`` script is missing."""
    if TMUX is None:
        pytest.skip("tmux is not installed")
    if not SNL.exists():
        pytest.skip(f"the snl console script is not installed next to {sys.executable}")


def tmux(*args: str) -> str:
    """Run ``tmux *args`` and return its output; a failing tmux command raises."""
    assert TMUX is not None
    done = subprocess.run([TMUX, "-L", SOCKET, *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def screen(name: str) -> str:
    """The text the pane of session ``name`` shows now."""
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Poll ``check`` until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def wait_until(
    check: Callable[[], bool], timeout: float, what: str, *, session: str | None = None
) -> None:
    """Like ``wait_for``, but a timeout fails the test, saying what never happened and,
    given a ``session``, what its pane shows instead."""
    if wait_for(check, timeout):
        return
    message = f"timed out after {timeout:g} s waiting for {what}"
    if session is not None:
        message += f"; last screen:\n{screen(session)}"
    raise AssertionError(message)


def exit_line(status: Path, timeout: float, *, session: str | None = None) -> str:
    """The line ``echo "snl exited $?" > status`` writes, once it is whole: the shell
    creates the file (empty) before ``echo`` writes to it, so the file's existence alone
    is not the end of the line (a loaded machine read it empty)."""
    wait_until(
        lambda: status.exists() and status.read_text().endswith("\n"),
        timeout,
        "snl to exit",
        session=session,
    )
    return status.read_text().strip()


@contextmanager
def tmux_session(
    prefix: str,
    command: str,
    *,
    width: int = 120,
    height: int = 40,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Run ``command`` (a shell command line) in a new detached tmux session of
    ``width`` x ``height`` and yield the session's name (``prefix-<random>``).

    Skips when tmux or snl is missing. The terminal is xterm-256color without
    ``NO_COLOR`` (it would change what snl draws), with a data folder of its own (no
    saved game of the player's or of another test offers to resume), and the tmux client
    runs without ``TMUX`` (the tests may themselves run inside tmux); ``env`` adds or
    overrides variables. Only this session is killed at the end, never the user's
    other sessions.
    """
    require_tmux_and_snl()
    assert TMUX is not None
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    # COLUMNS and LINES (pytest-xdist's workers set 80x24) would override the pane's size.
    unset = ("NO_COLOR", "TMUX", "COLUMNS", "LINES")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    with tempfile.TemporaryDirectory(prefix="snl-e2e-data-") as data:
        variables = {"TERM": "xterm-256color", "SNL_DATA_DIR": data, **(env or {})}
        # A tmux server that is already running (another test's, the user's) starts a
        # new session with the server's environment, not this process's: the variables
        # go on the session's command line, where every server honours them.
        assigned = [f"{key}={value}" for key, value in variables.items()]
        dropped = [arg for name in unset for arg in ("-u", name)]
        line = shlex.join(["env", *dropped, *assigned, "sh", "-c", command])
        size = ["-x", str(width), "-y", str(height)]
        # The tests' tmux server exits when its last session ends: a session started
        # just then meets a server on its way out ("server exited unexpectedly"). Start
        # again, a bounded number of times: a new server comes up.
        for attempt in range(5):
            started = subprocess.run(
                [TMUX, "-L", SOCKET, "new-session", "-d", "-s", name, *size, line],
                env={**clean, **variables},
                capture_output=True,
                text=True,
                timeout=10,
            )
            if started.returncode == 0:
                break
            if "server exited" not in started.stderr or attempt == 4:
                raise RuntimeError(f"tmux new-session: {started.stderr.strip()}")
            time.sleep(0.2)
        try:
            yield name
        finally:
            subprocess.run(
                [TMUX, "-L", SOCKET, "kill-session", "-t", name], capture_output=True, timeout=10
            )
