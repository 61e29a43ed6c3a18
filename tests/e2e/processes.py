"""Ending what a test started: a process and its whole group (``snl serve`` and the games
it runs), politely first, then for sure, each wait bounded."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to ``process``'s group, then SIGKILL if it is still there after 10 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
