"""What snl remembers between runs: animation, theme, the last players, drawn jumps,
screen-reader mode.

A small TOML file, ``settings.toml``, in the same data folder as the saved-games store
(``$SNL_DATA_DIR`` when set). Reading never fails and never blocks: it is read like a
board file (a regular file, at most ``MAX_SETTINGS_BYTES``); a missing file gives the
defaults, a file that cannot be read or parsed gives them with one notice, and a bad or
foreign value (a hand edit, another version's file) falls back to its default with one
notice naming the file and the value. Writing is atomic with the user's umask
(``files.disk``) and a failure to write is a notice too, never an error: forgetting a
setting loses no game.
No Textual here.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..errors import SnlError
from ..files.disk import UnreadableFile, read_user_file, write_atomically
from ..text import escape_controls, is_unsafe_char, quote
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


MAX_SETTINGS_BYTES = 64 * 1024
"""The largest ``settings.toml`` read: snl writes about 150 bytes."""
MAX_TEXT = 200
"""The longest text value kept (a theme's name, the players)."""


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The settings in ``path`` (default: the data folder's), and one notice per value
    that was refused (its default is used instead).

    The file is read like a board file (``disk.read_user_file``): a regular file of at
    most ``MAX_SETTINGS_BYTES`` (a FIFO or a link to ``/dev/zero`` is refused at once);
    a file that cannot be read or parsed (deep nesting, a number of 100,000 digits) is
    one notice and the defaults, never an exception.
    """
    path = path if path is not None else settings_path()
    try:
        data = tomllib.loads(
            read_user_file(path, MAX_SETTINGS_BYTES, what="settings file").decode("utf-8")
        )
    except UnreadableFile as error:
        if not os.path.lexists(path):
            return Settings(), []
        return Settings(), [_unreadable(path, str(error))]
    except UnicodeDecodeError as error:
        return Settings(), [_unreadable(path, f"byte {error.start} is not UTF-8")]
    except tomllib.TOMLDecodeError as error:
        return Settings(), [_unreadable(path, str(error).splitlines()[0])]
    except RecursionError:
        return Settings(), [_unreadable(path, "it is nested too deeply")]
    except ValueError:  # tomllib's refusal of an integer of more than 4,300 digits
        return Settings(), [_unreadable(path, "a number in it is too long")]
    except Exception as error:  # hostile text met in a way not foreseen above
        return Settings(), [_unreadable(path, type(error).__name__)]
    notices = []
    values: dict[str, Any] = {}
    defaults = Settings()
    for field in fields(Settings):
        if field.name not in data:
            continue
        value = data[field.name]
        problem = _problem(field.name, value, type(getattr(defaults, field.name)))
        if problem is not None:
            notices.append(
                f"settings: {escape_controls(path.name)}: {field.name} = {quote(value)} {problem}; "
                "using the default"
            )
            continue
        values[field.name] = value
    unknown = sorted(set(data) - {field.name for field in fields(Settings)})
    if unknown:
        names = ", ".join(quote(name) for name in unknown)
        notices.append(f"settings: {escape_controls(path.name)}: ignored unknown {names}")
    return Settings(**values), notices


def _unreadable(path: Path, reason: str) -> str:
    name = escape_controls(path.name)
    return f"settings: {name} cannot be read ({escape_controls(reason)}); using defaults"


def _problem(name: str, value: object, expected: type) -> str | None:
    """Why a stored value is refused, or None when it is kept."""
    if type(value) is not expected:
        return f"is not {_kind(expected)}"
    chosen = CHOICES.get(name)
    if chosen is not None and value not in chosen:
        return f"is not {' or '.join(chosen)}"
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return f"is longer than {MAX_TEXT} characters"
        if any(is_unsafe_char(char) for char in value):
            return "holds a control character"
        if name == "players" and value:
            from ..session import parse_players  # the seats: only when players are stored

            try:
                parse_players(value)
            except SnlError as error:
                return f"is not a list of players ({error})"
    return None


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write ``settings`` atomically; returns a notice when it could not be written."""
    import tomli_w

    path = path if path is not None else settings_path()
    text = "# snl's remembered settings (written by snl; safe to delete)\n"
    text += tomli_w.dumps(asdict(settings))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as error:
        return f"settings not saved: {error.strerror or error}"
    return None


def _kind(expected: type) -> str:
    return {bool: "true or false", str: "text", int: "a whole number"}.get(expected, "valid")


__all__ = ["FILE_NAME", "Settings", "load_settings", "save_settings", "settings_path"]
