"""Fixtures for every test: nothing ever reads or writes the real user's saved games, and
a ``TERM=dumb`` around the tests does not turn on the screen-reader mode."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from snl_tui.core.store.games import DATA_DIR_ENV


@pytest.fixture(autouse=True)
def private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """``SNL_DATA_DIR`` points to a fresh folder for each test (the store lives there)."""
    folder = tmp_path_factory.mktemp("snl-data")
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    if os.environ.get("TERM") == "dumb":  # a CI runner's: it would turn on plain play
        monkeypatch.setenv("TERM", "xterm-256color")
    return folder
