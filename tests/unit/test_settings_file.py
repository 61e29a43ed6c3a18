"""``settings.toml`` is read like a board file (issue 36, item 9): a regular file only, of
bounded size; anything hostile in it is one notice and the defaults, never a hang or a
traceback; a bad stored ``players`` is blamed on the settings file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.store.settings import (
    MAX_SETTINGS_BYTES,
    Settings,
    load_settings,
    save_settings,
    settings_path,
)
from snl_tui.core.text import is_unsafe_char

LIMIT = 20.0
"""Seconds a read may take before the test calls it a hang (it takes milliseconds)."""


def load_within_limit(path: Path) -> tuple[Settings, list[str]]:
    """``load_settings(path)`` in a thread, failing (not hanging) if it blocks."""
    found: list[tuple[Settings, list[str]]] = []
    worker = threading.Thread(target=lambda: found.append(load_settings(path)), daemon=True)
    worker.start()
    worker.join(LIMIT)
    assert found, f"reading {path.name} blocked for {LIMIT:.0f} s"
    return found[0]


def one_notice(path: Path, fragment: str) -> None:
    settings, notices = load_within_limit(path)
    assert settings == Settings()
    assert len(notices) == 1, notices
    (notice,) = notices
    assert fragment in notice and "settings" in notice and "\n" not in notice
    assert not [char for char in notice if is_unsafe_char(char)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    os.mkfifo(path)
    one_notice(path, "not a regular file")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_link_to_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.symlink_to("/dev/zero")
    one_notice(path, "not a regular file")


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    with path.open("wb") as file:
        file.truncate(MAX_SETTINGS_BYTES + 1)  # sparse: nothing to write
    one_notice(path, "too large")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("players = " + "[" * 200_000 + "]" * 200_000, "cannot be read"),
        ("x = " + "{a = " * 5_000 + "1" + "}" * 5_000, "cannot be read"),
        ("animation = " + "9" * 100_000, "cannot be read"),
        ("animation = tru", "cannot be read"),
        (b"theme = '\xff'", "not UTF-8"),
    ],
    ids=["deep-arrays", "deep-tables", "huge-number", "bad-toml", "not-utf8"],
)
def test_hostile_text_is_one_notice_and_the_defaults(
    tmp_path: Path, text: str | bytes, fragment: str
) -> None:
    path = tmp_path / "settings.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    if len(path.read_bytes()) > MAX_SETTINGS_BYTES:
        fragment = "too large"  # refused before parsing: bounded either way
    one_notice(path, fragment)


def test_nesting_within_the_size_limit_is_one_notice(tmp_path: Path) -> None:
    depth = MAX_SETTINGS_BYTES // 2 - 10
    path = tmp_path / "settings.toml"
    path.write_text("players = " + "[" * depth + "]" * depth, encoding="utf-8")
    one_notice(path, "settings.toml cannot be read")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ('players = "Ann\\u001b]0;pwned\\u0007"', "control character"),
        ('players = "Ann,,Bob"', "not a list of players"),
        ('players = "a,b,c,d,e,f,g,h,i"', "not a list of players"),
        ('theme = "nord\\u001b[2J"', "control character"),
        (f'theme = "{"x" * 300}"', "longer than"),
        ("animation = 1", "is not true or false"),
    ],
)
def test_a_bad_value_is_one_notice_naming_the_file(tmp_path: Path, line: str, fragment: str):
    path = tmp_path / "settings.toml"
    path.write_text(f"drawn_jumps = false\n{line}\n", encoding="utf-8")
    settings, notices = load_settings(path)
    assert settings == Settings(drawn_jumps=False)  # the good value is kept
    assert len(notices) == 1 and fragment in notices[0] and "settings.toml" in notices[0]
    assert not [char for char in notices[0] if is_unsafe_char(char)]


def test_a_bad_stored_players_is_blamed_on_the_settings_not_on_an_argument(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``snl play`` with a stored ``players`` holding an escape: the game starts with the
    default players and the notice names the settings file (it used to fail with
    "argument --players: ...", an argument the user never gave)."""
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text('players = "Ann\\u001b[2J"\n', encoding="utf-8")
    started: dict[str, object] = {}

    def run_app(app: object) -> int:
        started["players"] = [player.name for player in app.settings.players]  # type: ignore[attr-defined]
        started["notices"] = list(app.notices)  # type: ignore[attr-defined]
        return 0

    import snl_tui.app

    monkeypatch.setattr(snl_tui.app, "run_app", run_app)
    assert main(["play"]) == 0
    assert "--players" not in capsys.readouterr().err
    assert started["players"] == ["You", "CPU"]
    (notice,) = started["notices"]  # type: ignore[misc]
    assert "settings.toml" in notice and "players" in notice


def test_saved_settings_read_back(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "settings.toml"
    chosen = Settings(animation=False, theme="nord", players="Ann, cpu", drawn_jumps=False)
    assert save_settings(chosen, path) is None
    assert load_settings(path) == (chosen, [])
