"""The data folder found without platformdirs is platformdirs' own answer."""

import sys

import platformdirs
import pytest

from snl_tui.core.store import data_dir


@pytest.mark.skipif(sys.platform != "linux", reason="the plain XDG rule is for Linux only")
@pytest.mark.parametrize(
    ("xdg", "home"),
    [
        (None, "/home/ann"),
        (None, "/home/ann/"),
        (None, "/"),
        ("/data/xdg", "/home/ann"),
        ("/data/xdg/", None),
        ("relative/xdg", "/home/ann"),
        ("", "/home/ann"),
    ],
)
def test_the_plain_rule_answers_like_platformdirs(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None
) -> None:
    monkeypatch.delenv(data_dir.DATA_DIR_ENV, raising=False)
    for name, value in (("XDG_DATA_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    plain = data_dir._plain_xdg_dir()
    assert plain is not None
    assert plain == platformdirs.user_data_dir("snl", appauthor=False)
    assert data_dir.default_dir() == data_dir.Path(plain)


def test_a_relative_home_is_left_to_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", "not/absolute")
    assert data_dir._plain_xdg_dir() is None
