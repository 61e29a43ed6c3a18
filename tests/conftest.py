"""Fixtures for every test: nothing ever reads or writes the real user's saved games, and
a ``TERM=dumb`` around the tests does not turn on the screen-reader mode. Under
``PYTHONDONTWRITEBYTECODE`` the run and its children share one bytecode cache."""

from __future__ import annotations

import os
import sys
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


def pytest_configure(config: pytest.Config) -> None:
    """Under ``PYTHONDONTWRITEBYTECODE`` (container images set it) every ``snl`` the
    tests start, every xdist worker and every fresh interpreter compiled all of snl_tui
    again, about a second each, a few hundred times a run. Their bytecode goes to one
    folder in pytest's cache instead (``PYTHONPYCACHEPREFIX``), never next to the
    sources, which is what the setting asks for. Set here, before xdist starts its
    workers, so they and every child inherit it; nothing a test asserts depends on it."""
    cache = getattr(config, "cache", None)
    if cache is None or "PYTHONPYCACHEPREFIX" in os.environ:
        return
    if not (sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE")):
        return  # Python writes __pycache__ next to the sources already
    prefix = str(cache.mkdir("pycache"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
