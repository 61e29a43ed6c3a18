"""Where snl keeps its files: the one rule for the data folder.

The saved-games store and ``settings.toml`` both live there. A module of its own, so that
reading the settings (before a game's first frame) does not load the store's module and
SQLite with it.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "SNL_DATA_DIR"


def default_dir() -> Path:
    """``$SNL_DATA_DIR`` when set, else the user data directory for snl."""
    configured = os.environ.get(DATA_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    import platformdirs  # only when needed: tests and scripts set SNL_DATA_DIR

    return Path(platformdirs.user_data_dir("snl", appauthor=False))
