"""``snl check`` as a designer's review (issue 33): every error of a file, and warnings
for boards people do not enjoy, each with the squares and the figure behind it."""

from __future__ import annotations

from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.studio.checks import design_findings, drawn_over
from snl_tui.core.studio.file_errors import every_error

THREE_ERRORS = {
    ".toml": 'name = "three"\nsize = 10\nladders = [[3, 120], [5, 20], [5, 30]]\n'
    "snakes = [[50, 10]]\n[rules]\nfaces = 40\n",
    ".txt": "10 10\n3 120\n5 20\n5 30\nx y\n",
    ".json": "[[5, -1, -1, -1], [-1, -1, -1, -1], [-1, -1, 'x', -1], [-1, 99, -1, -1]]".replace(
        "'", '"'
    ),
}
WHERE = {
    ".toml": ["rules", "ladders entry 1", "ladders entry 3"],
    ".txt": ["line 5", "line 2", "line 4"],
    ".json": ["row 3, col 1 (square 2)", "row 2, col 2 (square 6)", "row 0, col 0 (square 16)"],
}


@pytest.mark.parametrize("suffix", sorted(THREE_ERRORS))
def test_check_lists_every_error_of_a_file(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: messages clip a long path
    path = Path(f"three{suffix}")
    path.write_text(THREE_ERRORS[suffix])
    errors = every_error(str(path))
    assert [error.where for error in errors] == WHERE[suffix]
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 3 and all(line.startswith(f"error: {path}: ") for line in lines)
    assert err.strip().endswith("3 errors") and err.count("\n") == 1


def test_one_error_stays_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.toml"
    path.write_text("size = 10\nladders = [[3, 120]]\n")
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "ladders entry 1" in err
    assert every_error("classic") == []


def test_a_snake_trap_warns_with_its_squares_and_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The board of the issue: snakes on 31-35 all lead to 3. `check` said "ok"."""
    trap = Board(10, 10, [(square, 3) for square in range(31, 36)])
    findings = {finding.kind: finding for finding in design_findings(trap)}
    assert findings["snake-trap"].squares == (31, 32, 33, 34, 35)
    expected = analyze(trap).expected_turns
    assert f"{expected:.1f} expected turns" in findings["long-games"].message
    path = tmp_path / "trap.toml"
    path.write_text("size = 10\nsnakes = [[31, 3], [32, 3], [33, 3], [34, 3], [35, 3]]\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "warning: snake trap on 31-35" in out and "games are very long" in out


def test_ladders_that_make_games_trivially_short_warn() -> None:
    """Every first roll climbs to the last row: 7 turns where the bare board takes 33."""
    board = Board(10, 10, [(square, square + 92) for square in range(2, 8)])
    (finding,) = design_findings(board)
    assert (
        finding.kind == "short-games" and "7.0 expected turns, 21% of the 33.0" in finding.message
    )
    assert "the ladder 7 -> 99 takes 4.2 off" in finding.message


@pytest.mark.parametrize("name", ["classic", "leetcode-1", "everest", "octahedron"])
def test_real_boards_get_no_design_warnings(name: str) -> None:
    assert design_findings(load_board(name)) == []


def test_a_jump_drawn_over_another_ones_head_is_found() -> None:
    # On a 10x10, 2 -> 9 runs along the bottom row over the head of the snake 5 -> 1.
    board = Board(10, 10, [(2, 9), (5, 1)])
    assert (2, 5, 5) in drawn_over(board)
    assert drawn_over(Board(10, 10, [(2, 30), (55, 41)])) == []


def test_did_you_mean_for_board_names_and_rule_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "clasic"]) == 2
    assert "did you mean 'classic'?" in capsys.readouterr().err
    assert main(["play", "classic", "--overshoot", "bonce"]) == 2
    assert "did you mean 'bounce'?" in capsys.readouterr().err
