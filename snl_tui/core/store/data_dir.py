"""Where snl keeps its files: the one rule for the data folder.

The saved-games store and ``settings.toml`` both live there. A module of its own, so that
reading the settings (before a game's first frame) does not load the store's module and
SQLite with it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DATA_DIR_ENV = "SNL_DATA_DIR"


def default_dir() -> Path:
    """``$SNL_DATA_DIR`` when set, else the user data directory for snl."""
    configured = os.environ.get(DATA_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    plain = _plain_xdg_dir()
    if plain is not None:
        return Path(plain)
    import platformdirs  # only when needed: tests and scripts set SNL_DATA_DIR

    return Path(platformdirs.user_data_dir("snl", appauthor=False))


def _plain_xdg_dir() -> str | None:
    """platformdirs' answer on a plain Linux, without importing it (with tempfile and
    shutil, a tenth of a quick command's start, which reads the settings): the XDG
    rule, ``$XDG_DATA_HOME/snl`` when that is absolute, else ``~/.local/share/snl``
    with an absolute ``$HOME``. None anywhere else (another system, Android, a relative
    or missing home): platformdirs decides. A test holds the two to the same answers."""
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel"):
        return None
    if os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system":
        return None
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "snl")
    if not os.environ.get("HOME", "").startswith("/"):
        return None
    return os.path.join(os.path.expanduser("~/.local/share"), "snl")
