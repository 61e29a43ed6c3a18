"""What snl remembers between runs: animation, theme, the last players, drawn jumps,
screen-reader mode.

A small TOML file, ``settings.toml``, in the same data folder as the saved-games store
(``$SNL_DATA_DIR`` when set). Reading never fails: a missing file gives the defaults, and
a bad or foreign value (a hand edit, another version's file) falls back to its default
with one notice naming it. Writing is atomic (a temporary file, then a rename) and a
failure to write is a notice too, never an error: forgetting a setting loses no game.
No Textual here.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..text import quote
from .data_dir import default_dir

FILE_NAME = "settings.toml"
GRAPHICS = ("auto", "pixels", "text")
CHOICES: dict[str, tuple[str, ...]] = {"graphics": GRAPHICS}
"""The settings that take one of a few words."""


@dataclass(frozen=True)
class Settings:
    """The remembered settings; the defaults are what a first run uses."""

    animation: bool = True
    theme: str = ""
    """A Textual theme's name ("" = Textual's default)."""
    players: str = ""
    """The players of the last game started, as ``--players`` takes them ("" = You,cpu)."""
    drawn_jumps: bool = True
    """Snakes and ladders drawn end to end, or markers only (the board's ``j``)."""
    graphics: str = "auto"
    """The board as a picture ("pixels"), as characters ("text"), or a picture where the
    terminal shows one ("auto"); ``--graphics`` overrides it for one run."""
    turn_bell: bool = True
    """A room rings the bell (and notifies) when it becomes your turn."""
    screen_reader: bool = False
    """Play in plain lines for a screen reader or a braille display (``--screen-reader``)."""

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def settings_path(folder: Path | None = None) -> Path:
    return (folder if folder is not None else default_dir()) / FILE_NAME


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The settings in ``path`` (default: the data folder's), and one notice per value
    that was refused (its default is used instead)."""
    path = path if path is not None else settings_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
        return Settings(), [f"settings: {path.name} cannot be read ({reason}); using defaults"]
    notices = []
    values: dict[str, Any] = {}
    defaults = Settings()
    for field in fields(Settings):
        if field.name not in data:
            continue
        value = data[field.name]
        expected = type(getattr(defaults, field.name))
        chosen = CHOICES.get(field.name)
        if (
            type(value) is not expected
            or (isinstance(value, str) and len(value) > 200)
            or (chosen is not None and value not in chosen)
        ):
            kind = " or ".join(chosen) if chosen is not None else _kind(expected)
            notices.append(
                f"settings: {field.name} = {quote(value)} is not {kind}; using the default"
            )
            continue
        values[field.name] = value
    unknown = sorted(set(data) - {field.name for field in fields(Settings)})
    if unknown:
        notices.append(f"settings: ignored unknown {', '.join(quote(u) for u in unknown)}")
    return Settings(**values), notices


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write ``settings`` atomically; returns a notice when it could not be written."""
    import tomli_w

    path = path if path is not None else settings_path()
    text = "# snl's remembered settings (written by snl; safe to delete)\n"
    text += tomli_w.dumps(asdict(settings))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".settings-", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        return f"settings not saved: {error.strerror or error}"
    return None


def _kind(expected: type) -> str:
    return {bool: "true or false", str: "text", int: "a whole number"}.get(expected, "valid")


__all__ = ["FILE_NAME", "Settings", "load_settings", "save_settings", "settings_path"]
