"""The `snl` command line (SPEC 4), run in-process through `main(argv)`, plus a few real runs."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from snl_tui import Board, Rules, load_board
from snl_tui.cli.main import main
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import builtin_names, parse_board

BIN = Path(sys.executable).parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err


# -- solve ----------------------------------------------------------------------------------


def test_solve_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "classic", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert {"moves", "rolls", "squares"} <= set(data)
    assert data["moves"] == 7
    assert len(data["rolls"]) == len(data["squares"]) == 7
    assert data["squares"][-1] == 100
    assert out.count("\n") == 1  # exactly one JSON object


@pytest.mark.parametrize(
    ("board", "moves"),
    [("classic", 7), ("leetcode-1", 4), ("leetcode-2", 1), ("throws-30", 3), ("lld-6x6", 3)],
)
def test_solve_builtins(capsys: pytest.CaptureFixture[str], board: str, moves: int) -> None:
    code, out, _ = run(capsys, "solve", board, "--json")
    assert code == 0 and json.loads(out)["moves"] == moves


def test_solve_route_replays(capsys: pytest.CaptureFixture[str]) -> None:
    from snl_tui.core.engine import next_position

    _, out, _ = run(capsys, "solve", "leetcode-1", "--json")
    data = json.loads(out)
    board, position = load_board("leetcode-1"), 1
    for die, square in zip(data["rolls"], data["squares"], strict=True):
        position = next_position(board, position, die)
        assert position == square


def test_solve_from(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "leetcode-1", "--from", "30", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["moves"], data["rolls"], data["squares"], data["start"]) == (1, [6], [36], 30)
    _, out, _ = run(capsys, "solve", "leetcode-1", "--from", "36", "--json")
    assert json.loads(out)["moves"] == 0


def test_solve_unreachable_exits_zero(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "wall.txt"
    path.write_text("1 10\n" + "".join(f"{s} 1\n" for s in range(2, 8)))
    code, out, err = run(capsys, "solve", str(path), "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["moves"], data["rolls"], data["squares"]) == (-1, [], [])
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0 and "cannot be reached" in out


def test_solve_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "classic")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Chutes and Ladders: 7 rolls from off the board (dice: 1 1 6 6 1 6 6)"
    assert lines[1].strip() == "1. Rolled 1: start -> 1, ladder to 38"
    assert lines[-1].endswith("reaches the goal!")
    assert len(lines) == 8


def test_solve_text_shortens_a_long_route(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "long.txt"
    path.write_text("1 300\n")  # no jumps: 1 -> 300 takes 50 rolls (4 then 6s, or similar)
    code, out, _ = run(capsys, "solve", str(path))
    lines = out.splitlines()
    moves = json.loads(run(capsys, "solve", str(path), "--json")[1])["moves"]
    assert code == 0 and moves == 50
    assert lines[0].startswith(f"long: {moves} rolls from square 1 (dice: ")
    assert "x" in lines[0]  # run-length dice
    assert "more moves (--json lists every one)" in out
    assert len(lines) == 1 + 40 + 1
    assert lines[-1].strip().startswith(f"{moves}.") and "reaches the goal" in lines[-1]


def test_solve_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    # With start = 1 the classic ladder on square 1 never fires.
    _, out, _ = run(capsys, "solve", "classic", "--json", "--start", "1")
    with_start_one = json.loads(out)
    assert with_start_one["start"] == 1
    assert with_start_one["squares"][0] != 38
    _, out, _ = run(capsys, "solve", "classic", "--json", "--faces", "20", "--overshoot", "finish")
    assert json.loads(out)["moves"] < 7


# -- check ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "leetcode-1"])
def test_check_ok(capsys: pytest.CaptureFixture[str], name: str) -> None:
    # The built-in boards' printed pages hide nothing: no warning about the drawing.
    code, out, _ = run(capsys, "check", name)
    assert code == 0 and "ok" in out.splitlines()[-1]
    assert not [line for line in out.splitlines() if line.startswith("warning:")]
    assert "drawn over" not in out


def test_check_warns_about_a_drawing_that_hides_something(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # One row: the ladder has no room to pass the snake's ends.
    path = tmp_path / "row.txt"
    path.write_text("1 10\n2 9\n6 5\n")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert "warning: the ladder 2 -> 9 is drawn over " in out
    assert out.splitlines()[-1].endswith("valid, 1 warning")


def test_check_warnings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("3 3\n1 7\n")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert "warning: the ladder on square 1 (to 7) can never fire" in out


def test_check_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("3 3\n2 5\n2 7\n")
    code, out, err = run(capsys, "check", str(path))
    assert_one_line_error(code, out, err)
    assert f"{path}: line 3: two jumps start on square 2" in err


# -- boards and convert -----------------------------------------------------------------------


def test_boards_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "boards")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split()[:2] == ["name", "size"]
    assert [line.split()[0] for line in lines[1:]] == builtin_names()
    classic = lines[1].split()
    assert classic[:3] == ["classic", "10x10", "7"]


def test_boards_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "boards", "--json")
    data = {entry["name"]: entry for entry in json.loads(out)}
    assert data["throws-30"]["least_rolls"] == 3
    assert (data["river"]["rows"], data["river"]["cols"]) == (6, 15)
    assert data["classic"]["rules"] == {"start": 0}


@pytest.mark.parametrize("fmt", ["toml", "txt", "json"])
@pytest.mark.parametrize("board", ["classic", "octahedron", "river"])
def test_convert_round_trips(capsys: pytest.CaptureFixture[str], fmt: str, board: str) -> None:
    code, out, err = run(capsys, "convert", board, "--to", fmt)
    assert (code, err) == (0, "")
    back = parse_board(out, suffix=".json" if fmt == "json" else f".{fmt}")
    original = load_board(board)
    assert back == original and back.name == original.name


def test_convert_to_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "leetcode-1", "--to", "matrix")
    assert (code, err) == (0, "")
    assert Board.from_matrix(json.loads(out)) == load_board("leetcode-1")


def test_convert_to_matrix_refuses_to_drop_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "classic", "--to", "matrix")
    assert_one_line_error(code, out, err)
    assert "start=0" in err and "--force" in err


def test_convert_to_matrix_force(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "classic", "--to", "matrix", "--force")
    assert code == 0
    assert err.startswith("snl convert: warning: rules dropped (start=0)")
    assert Board.from_matrix(json.loads(out), Rules(start=0)) == load_board("classic")


# -- play -----------------------------------------------------------------------------------


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace the TUI with a recorder: play's job is to parse and hand over."""
    calls: list[dict[str, Any]] = []

    class SnlApp:
        def __init__(self, **kwargs: Any) -> None:
            calls.append(kwargs)

        def run(self) -> None:
            calls[-1]["ran"] = True

    module = types.ModuleType("snl_tui.app")
    module.SnlApp = SnlApp  # type: ignore[attr-defined]

    def run_app(app: SnlApp) -> int:  # the real one adds crash handling around run()
        app.run()
        return 0

    module.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snl_tui.app", module)
    return calls


def test_no_command_plays_classic(capsys: pytest.CaptureFixture[str], fake_app) -> None:
    code, _, _ = run(capsys)
    assert code == 0
    (call,) = fake_app
    assert call["board"] == load_board("classic")
    assert call["players"] == [Player("You"), Player("CPU", computer=True)]
    assert (call["seed"], call["mode"], call["animate"], call["ran"]) == (
        None,
        "classic",
        True,
        True,
    )


def test_play_options(capsys: pytest.CaptureFixture[str], fake_app) -> None:
    code, _, _ = run(
        capsys,
        "play",
        "throws-30",
        "--players",
        "Ann, cpu:Robo,cpu",
        "--seed",
        "7",
        "--mode",
        "puzzle",
        "--no-animation",
        "--faces",
        "8",
        "--six-again",
        "--chain",
    )
    assert code == 0
    (call,) = fake_app
    assert call["board"].rules == Rules(faces=8, six_again=True, chain=True)
    assert call["players"] == [
        Player("Ann"),
        Player("Robo", computer=True),
        Player("CPU", computer=True),
    ]
    assert (call["seed"], call["mode"], call["animate"]) == (7, "puzzle", False)


def test_play_overrides_keep_the_boards_other_rules(
    capsys: pytest.CaptureFixture[str], fake_app
) -> None:
    run(capsys, "play", "--faces", "8")  # options without a command still mean play
    assert fake_app[0]["board"].rules == Rules(start=0, faces=8)
    run(capsys, "play", "chain-reaction", "--no-chain")
    assert fake_app[1]["board"].rules.chain is False


# -- analyze --------------------------------------------------------------------------------


def test_analyze_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "classic", "--json", "--players", "2")
    assert code == 0
    data = json.loads(out)
    assert {"expected_turns", "median_turns", "least_rolls", "finish_within", "win_chances"} <= set(
        data
    )
    assert data["expected_turns"] == pytest.approx(39.2251, abs=1e-4)
    assert (data["median_turns"], data["least_rolls"]) == (32, 7)
    assert "10" in data["finish_within"] and "20" in data["finish_within"]
    assert len(data["win_chances"]) == 2


def test_analyze_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "leetcode-1")
    assert code == 0 and out.strip()


# -- user mistakes: one line on stderr, exit 2 ------------------------------------------------

MISTAKES = [
    ["solve"],
    ["solve", "nosuchboard"],
    ["solve", "missing.toml"],
    ["solve", "classic", "--from", "101"],
    ["solve", "classic", "--from", "-1"],
    ["solve", "classic", "--from", "ten"],
    ["solve", "classic", "--start", "2"],
    ["solve", "classic", "--faces", "1"],
    ["solve", "classic", "--faces", "x"],
    ["solve", "classic", "--overshoot", "wrap"],
    ["solve", "classic", "--bogus"],
    ["analyze", "classic", "--players", "0"],
    ["analyze", "classic", "--players", "5"],
    ["analyze", "classic", "--faces", "21"],
    ["check"],
    ["convert", "classic"],
    ["convert", "classic", "--to", "yaml"],
    ["play", "--players", "a,b,c,d,e"],
    ["play", "--players", "a,,b"],
    ["play", "--seed", "x"],
    ["play", "--mode", "race"],
    ["play", "--faces", "40"],
    ["play", "nosuchboard"],
    ["frobnicate"],
    ["--bogus"],
]


@pytest.mark.parametrize("argv", MISTAKES, ids=" ".join)
def test_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], fake_app, argv) -> None:
    assert_one_line_error(*run(capsys, *argv))
    assert fake_app == []


def test_bad_board_file_via_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("size = 3\nladders = [[2, 5], [8, 3]]\n")
    code, out, err = run(capsys, "solve", str(path))
    assert_one_line_error(code, out, err)
    assert (
        err
        == f"snl solve: {path}: ladders entry 2: 8 -> 3 goes down: that is a snake, not a ladder\n"
    )


def test_bad_matrix_cell_via_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text("[[-1, -1], [-1, 9]]")
    code, out, err = run(capsys, "check", str(path))
    assert_one_line_error(code, out, err)
    assert "row 1, col 1 (square 2)" in err and str(path) in err


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "solve" in out
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0 and "--from" in out


# -- real processes ---------------------------------------------------------------------------


def test_console_script() -> None:
    snl = BIN / "snl"
    if not snl.exists():
        pytest.skip("the snl console script is not installed in this environment")
    result = subprocess.run(
        [str(snl), "solve", "throws-30", "--json"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["moves"] == 3


def test_console_script_bad_board(tmp_path: Path) -> None:
    snl = BIN / "snl"
    if not snl.exists():
        pytest.skip("the snl console script is not installed in this environment")
    path = tmp_path / "bad.txt"
    path.write_text("3 3\n9 1\n")
    result = subprocess.run(
        [str(snl), "check", str(path)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"snl check: {path}: line 2: a jump cannot start on the goal (square 9)"
    ]


def test_python_dash_m(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "snl_tui", "solve", "leetcode-2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,  # built-in boards load from any directory
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "moves": 1,
        "rolls": [3],
        "squares": [4],
        "start": 1,
        "board": "leetcode-2",
        "goal": 4,
    }


# -- the edges a new player and an attacker found (issue 18) -------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["resume", "99999999999999999999"], "snl resume: no saved game 99999999999999999999"),
        (["replay", "99999999999999999999"], "snl replay: no saved game 99999999999999999999"),
        (["resume", "\u0663"], "snl resume: not a saved game's number: '\u0663'"),
        (["play", "--faces", "\u0666"], "must be a whole number from 2 to 20, not '\u0666'"),
        (["--version", "x"], "snl: --version takes nothing after it, not 'x'"),
        (["clasic"], "did you mean 'snl play classic'?"),
        (["river"], "'river' is a board, not a command: did you mean 'snl play river'?"),
        (["pla"], "did you mean 'snl play'?"),
        (
            ["solve", "classic", "--jsn"],
            "snl solve: unrecognized arguments: --jsn: did you mean --json?",
        ),
        (["play", "--players", "a,b,c,d,e"], "snl play: argument --players: at most 4 players"),
        (["play", "--players", "Ann,\u200b"], "shows nothing"),
        (["play", "--players", "cpu:\u2060"], "shows nothing"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(argv, expected, tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and expected in captured.err, captured.err
    assert "..." not in captured.err  # nothing cut short


def test_every_board_argument_has_help(capsys) -> None:  # type: ignore[no-untyped-def]
    for command in ("play", "solve", "analyze", "check", "convert"):
        assert main([command, "--help"]) == 0
        help_text = capsys.readouterr().out
        assert "BOARD" in help_text and "built-in board" in help_text, command
