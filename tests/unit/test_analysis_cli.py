"""``snl analyze`` and the odds part of ``snl check``, through the command line's main()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from snl_tui.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_analyze_json_is_one_object_with_the_reference_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "analyze", "classic", "--json", "--players", "2")
    assert status == 0
    data = json.loads(out)
    assert round(data["expected_turns"], 4) == 39.2251
    assert data["median_turns"] == 32 and data["least_rolls"] == 7
    assert round(data["win_chances"][0], 4) == 0.5079
    assert {"10", "20", "50", "100"} <= set(data["finish_within"])
    assert data["finite"] is True


def test_analyze_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "classic", "--players", "3")
    assert status == 0
    assert "expected turns    39.2251" in out
    assert "seat 3:" in out and "█" in out


def test_analyze_honours_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "classic", "--json", "--six-again")
    assert status == 0
    assert json.loads(out)["expected_turns"] < 39.2251


def trap_file(tmp_path: Path) -> Path:
    path = tmp_path / "trap.txt"
    # faces 6 cannot pass five snake heads and a sixth: squares 10-15 all drop to 9.
    snakes = "\n".join(f"{s} 9" for s in range(10, 16))
    path.write_text(f"4 5\n{snakes}\n3 18\n")
    return path


def test_check_names_what_each_jump_does(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "classic")
    assert status == 0  # what its drawing still hides is a note, not a warning
    assert "ladder 80->100 shortens the game by 19.77 turns" in out
    assert "snake 56->53 SHORTENS" in out


def test_check_warns_about_traps(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "check", str(trap_file(tmp_path)))
    assert status == 1
    assert "trap:" in out
    assert "of games never finish" in out
