"""Helpers for tests that watch child processes."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs: a zombie (ended, not yet reaped) is dead, and
    so is one that ends between the signal and the read of its status."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        status = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return status.split(") ")[1][0] != "Z"
