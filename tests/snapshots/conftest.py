"""One environment for every snapshot: colours on (no ``NO_COLOR``), Textual's default
theme, and the working folder whose board files the load dialog lists."""

from __future__ import annotations

from pathlib import Path

import pytest

WORKDIR = Path(__file__).with_name("workdir")


@pytest.fixture(autouse=True)
def fixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Snapshots must not depend on the terminal they were taken from."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    monkeypatch.chdir(WORKDIR)
