"""``--graphics`` and the ``graphics`` setting (issue 35): the three words, the flag over
the setting, a bad value refused with one notice, and no picture off a terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from snl_tui.cli.main import build_parser
from snl_tui.core.store.settings import Settings, load_settings, save_settings
from snl_tui.widgets.board_picture import detect_graphics


def test_the_setting_is_remembered_and_a_bad_value_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    assert save_settings(Settings(graphics="text"), path) is None
    assert load_settings(path) == (Settings(graphics="text"), [])
    path.write_text('graphics = "sixel-please"\n', encoding="utf-8")
    settings, notices = load_settings(path)
    assert settings.graphics == "auto"
    assert notices == [
        "settings: settings.toml: graphics = 'sixel-please' is not auto or pixels or text; "
        "using the default"
    ]


@pytest.mark.parametrize("command", ["play", "resume", "replay"])
def test_the_flag_takes_the_three_words(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    extra = ["1"] if command == "replay" else []
    assert parser.parse_args([command, *extra, "--graphics", "text"]).graphics == "text"
    assert parser.parse_args([command, *extra]).graphics is None  # the setting decides
    with pytest.raises(SystemExit):
        parser.parse_args([command, *extra, "--graphics", "sixel"])
    assert "invalid choice" in capsys.readouterr().err


def test_no_picture_for_text_or_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert detect_graphics("text") is None
    # Output to a file or a pipe: nothing is asked, nothing is drawn.
    monkeypatch.setattr("sys.__stdout__", io.StringIO())
    assert detect_graphics("auto") is None
    assert detect_graphics("pixels") is None
