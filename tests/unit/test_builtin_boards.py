"""The built-in boards: their least rolls, their data, and that they ship in the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from snl_tui import Rules, load_board, solve
from snl_tui.core.files.formats import (
    FORMATS,
    builtin_boards,
    builtin_names,
    dump_board,
    parse_board,
)
from snl_tui.core.studio.checks import board_warnings

LEAST_ROLLS = {
    "classic": 7,
    "leetcode-1": 4,
    "leetcode-2": 1,
    "throws-30": 3,
    "lld-6x6": 3,
    "everest": 18,
    "river": 6,
    "bounce-back": 6,
    "chain-reaction": 4,
    "octahedron": 8,
}


@pytest.mark.parametrize(("name", "least"), LEAST_ROLLS.items())
def test_least_rolls(name: str, least: int) -> None:
    assert solve(load_board(name)).moves == least


def test_every_builtin_is_listed_and_known() -> None:
    names = [entry.name for entry in builtin_boards()]
    assert names == builtin_names()
    assert names[:5] == ["classic", "leetcode-1", "leetcode-2", "throws-30", "lld-6x6"]
    assert set(names) == set(LEAST_ROLLS)


@pytest.mark.parametrize("entry", builtin_boards(), ids=lambda entry: entry.name)
def test_every_builtin_has_a_name_and_a_description(entry) -> None:
    assert entry.board.name
    assert len(entry.description) > 40
    assert load_board(entry.name) == entry.board
    assert entry.size_label == f"{entry.board.rows}x{entry.board.cols}"


def test_the_required_kinds_of_board_exist() -> None:
    boards = [entry.board for entry in builtin_boards()]
    assert any(b.rows == b.cols == 20 for b in boards)
    assert any(b.rows != b.cols for b in boards)
    assert any(b.rules.overshoot == "bounce" for b in boards)
    assert any(b.rules.chain for b in boards)
    assert any(b.rules.faces != 6 for b in boards)


def test_classic_is_the_milton_bradley_board() -> None:
    board = load_board("classic")
    assert (board.rows, board.cols) == (10, 10)
    assert board.rules == Rules(start=0, overshoot="stay")
    assert [(j.start, j.end) for j in board.ladders] == [
        (1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 100)
    ]  # fmt: skip
    assert [(j.start, j.end) for j in board.snakes] == [
        (16, 6), (47, 26), (49, 11), (56, 53), (62, 19), (64, 60), (87, 24), (93, 73),
        (95, 75), (98, 78),
    ]  # fmt: skip
    # The ladder on square 1 fires only because tokens start off the board.
    assert solve(board).rolls[0] == 1 and solve(board).squares[0] == 38
    assert any("square 1" in w for w in board_warnings(board.with_rules(Rules())))


def test_throws_30_and_the_leetcode_examples() -> None:
    throws = load_board("throws-30")
    assert (throws.rows, throws.cols) == (5, 6)
    assert throws.jumps == {3: 22, 5: 8, 11: 26, 20: 29, 27: 1, 21: 9, 17: 4, 19: 7}
    assert load_board("leetcode-1").jumps == {2: 15, 14: 35, 17: 13}
    assert load_board("leetcode-2").to_matrix() == [[-1, -1], [-1, 3]]


def test_lld_is_the_resolved_matrix() -> None:
    board = load_board("lld-6x6")
    matrix = board.to_matrix(resolved=True)
    assert matrix[0] == [36, 35, 22, 33, 32, 20]
    assert matrix[5] == [1, 2, 3, 4, 5, 18]


@pytest.mark.parametrize("entry", builtin_boards(), ids=lambda entry: entry.name)
@pytest.mark.parametrize("fmt", FORMATS)
def test_builtins_convert_losslessly(entry, fmt: str) -> None:
    text = dump_board(entry.board, fmt)
    rules = entry.board.rules if fmt == "matrix" else None
    suffix = ".json" if fmt in ("matrix", "json") else f".{fmt}"
    assert parse_board(text, suffix=suffix, rules=rules) == entry.board


def test_builtins_load_by_name_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_board("everest").goal == 400


BOARDS = Path(__file__).resolve().parents[2] / "boards"


def test_the_boards_folder_is_the_one_source() -> None:
    # Every board file in the top-level boards/ folder is a built-in, and nothing else is.
    assert {p.stem for p in BOARDS.iterdir() if p.is_file()} == set(builtin_names())


@pytest.mark.wheel
def test_the_wheel_ships_every_board_and_module(tmp_path: Path) -> None:
    """A non-editable install gets exactly what the wheel holds: build one and look."""
    root = BOARDS.parent
    source = tmp_path / "source"  # built from a copy: no build/ or egg-info in the tree
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("snl_tui", "boards"):
        shutil.copytree(root / folder, source / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), "."],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"snl_tui/boards/{p.name}" for p in BOARDS.iterdir()} <= names
    package = {
        path.relative_to(root).as_posix()
        for pattern in ("*.py", "*.tcss", "*.md")
        for path in (root / "snl_tui").rglob(pattern)
    }
    assert package <= names  # every subpackage and its styles are listed in pyproject
    assert "snl_tui/snl.tcss" in names and "snl_tui/screens/help.md" in names
