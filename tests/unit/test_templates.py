"""Starter boards (``snl edit --template``, issue 22): each is a valid board without
warnings, made for its purpose, and the command line refuses what it cannot mean."""

from __future__ import annotations

import math

import pytest

from snl_tui.cli.main import main
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.studio.checks import board_warnings
from snl_tui.core.studio.templates import TEMPLATES


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_every_template_is_a_sound_board(name: str) -> None:
    board = TEMPLATES[name].board()
    assert board_warnings(board) == []
    assert math.isfinite(analyze(board).expected_turns)
    assert board.name and board.description.endswith(".")
    assert TEMPLATES[name].board("Mia's board").name == "Mia's board"


def test_each_template_suits_its_purpose() -> None:
    expected = {name: analyze(t.board()).expected_turns for name, t in TEMPLATES.items()}
    assert expected["toddler"] < 15  # short games for small children
    assert expected["race"] < expected["classroom"]  # the race is the fast one
    assert TEMPLATES["race"].rules.six_again
    assert TEMPLATES["puzzle"].rules.start == 1  # LeetCode's rules for a puzzle


def test_a_template_is_for_a_new_board(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    existing = tmp_path / "mine.toml"
    existing.write_text("size = 5\n")
    assert main(["edit", str(existing), "--template", "toddler"]) == 2
    assert "existing one" in capsys.readouterr().err
    assert main(["edit", str(tmp_path / "new.toml"), "--template", "race", "--size", "8"]) == 2
    assert "own size" in capsys.readouterr().err
    assert main(["edit", "--template", "nope"]) == 2
    assert existing.read_text() == "size = 5\n"
