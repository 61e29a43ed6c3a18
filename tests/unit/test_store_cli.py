"""``snl games`` and ``snl stats`` against a store in ``$SNL_DATA_DIR`` (SPEC 8)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.engine import Game
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.solver import solve
from snl_tui.core.store.games import DB_NAME, open_store


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    return tmp_path


def finished(seed: int, names: tuple[str, ...], board: str = "classic") -> Game:
    game = Game(load_board(board), names, seed=seed)
    while not game.over:
        game.roll()
    return game


def store_finished(game: Game) -> int:
    with open_store() as store:
        names = [p.name for p in game.players]
        winner = game.winner
        assert winner is not None
        game_id = store.save_game(
            None, board=game.board, players=names, mode="classic", data=game.to_dict(),
            status="won", winner=names[winner], turns=game.turns_taken[winner],
            rolls=len(game.history),
        )  # fmt: skip
    assert game_id is not None
    return game_id


def test_games_json_lists_every_game_with_its_status(data_dir, capsys):
    won = finished(3, ("Ann", "CPU"))
    won_id = store_finished(won)
    with open_store() as store:
        playing = store.save_game(
            None, board=load_board("leetcode-1"), players=["Bob"], mode="classic", data={},
            turns=4,
        )  # fmt: skip
    assert main(["games", "--json"]) == 0
    games = {game["id"]: game for game in json.loads(capsys.readouterr().out)}
    assert games[playing]["status"] == "playing" and games[playing]["turns"] == 4
    assert games[won_id]["winner"] == won.players[won.winner].name
    assert games[won_id]["players"] == ["Ann", "CPU"]
    assert games[won_id]["board"] == won.board.name


def test_games_text_is_a_table_with_status_words(data_dir, capsys):
    game = finished(8, ("Ann", "CPU"))
    store_finished(game)
    with open_store() as store:
        dropped = store.save_game(None, board=game.board, players=["Zed"], mode="classic", data={})
        store.mark_abandoned(dropped)
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "board", "players", "started", "turns", "status"]
    assert len(lines) == 3
    assert any(line.endswith(f"won by {game.players[game.winner].name}") for line in lines)
    assert any(line.endswith("abandoned") for line in lines)
    # Aligned: every status starts under the header's "status".
    column = lines[0].index("status")
    assert {line[column:].split()[0] for line in lines[1:]} == {"won", "abandoned"}


def test_stats_json_compares_lengths_with_the_exact_odds(data_dir, capsys):
    games = [finished(seed, ("Ann",)) for seed in range(5)]
    for game in games:
        store_finished(game)
    assert main(["stats", "classic", "--json"]) == 0
    (board,) = json.loads(capsys.readouterr().out)["boards"]
    odds = analyze(load_board("classic"))
    assert board["expected_turns"] == pytest.approx(odds.expected_turns)
    assert board["optimum"] == solve(load_board("classic")).moves
    (ann,) = board["players"]
    lengths = sorted(game.turns_taken[0] for game in games)
    assert (ann["games"], ann["wins"], sorted(ann["lengths"])) == (5, 5, lengths)
    assert ann["average_length"] == pytest.approx(sum(lengths) / 5)
    luck = sorted(ann["luck_percentiles"])
    assert luck == pytest.approx(sorted(odds.percentile(n) for n in lengths))


def test_stats_of_a_board_without_games_says_so(data_dir, capsys):
    store_finished(finished(1, ("Ann",)))
    assert main(["stats", "leetcode-1"]) == 0
    assert capsys.readouterr().out.strip() == "no finished games on leetcode-1 yet"
    assert main(["stats", "leetcode-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"boards": []}


def test_stats_text_shows_each_player(data_dir, capsys):
    for seed in range(4):
        store_finished(finished(seed, ("Ann", "CPU")))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Chutes and Ladders (exact: " in out
    rows = [line.split() for line in out.splitlines()]
    header = ["player", "games", "wins", "avg", "length", "luck", "puzzles", "puzzle", "best"]
    assert [*header, "puzzle", "avg"] in rows
    assert {row[0] for row in rows if row[1:2] == ["4"]} == {"Ann", "CPU"}


def test_stats_count_solved_puzzles_against_the_optimum(data_dir, capsys):
    """Issue 33: after two solved puzzles on leetcode-1 `snl stats` said "games 0 wins 0
    ... puzzle best 4": now the puzzles solved, the best and the average, each against
    the optimum (4 rolls)."""
    from snl_tui.core.files.formats import load_board
    from snl_tui.core.store.games import open_store

    board = load_board("leetcode-1")
    with open_store(data_dir / DB_NAME) as store:
        for rolls in (4, 7):
            store.save_game(
                None, board=board, players=["Ann"], mode="puzzle", data={},
                status="won", winner="Ann", turns=rolls, rolls=rolls,
            )  # fmt: skip
    assert main(["stats", "leetcode-1"]) == 0
    out = capsys.readouterr().out
    assert "puzzle optimum 4 rolls" in out
    (ann,) = [line.split() for line in out.splitlines() if line.startswith("Ann")]
    assert ann == ["Ann", "0", "0", "-", "-", "2", "4", "(+0)", "5.5", "(+1.5)"]
    assert main(["stats", "leetcode-1", "--json"]) == 0
    (player,) = json.loads(capsys.readouterr().out)["boards"][0]["players"]
    assert (player["puzzles"], player["puzzle_best"], player["puzzle_average"]) == (2, 4, 5.5)


def test_before_anything_was_saved_there_are_no_saved_games(tmp_path, monkeypatch, capsys):
    """Nothing played yet (no data folder, or a folder without the store) is not an
    error: one line on stdout, exit 0, and nothing is created."""
    for folder in (tmp_path / "nowhere", tmp_path):
        monkeypatch.setenv("SNL_DATA_DIR", str(folder))
        for command in (["games"], ["stats"], ["stats", "classic"]):
            assert main(command) == 0
            captured = capsys.readouterr()
            assert captured.out == "no saved games yet\n" and captured.err == ""
        assert main(["games", "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == []
        assert main(["stats", "nosuchboard"]) == 2
        captured = capsys.readouterr()
        assert captured.err == "snl stats: no board or saved game is called 'nosuchboard'\n"
    assert not (tmp_path / "nowhere").exists() and not (tmp_path / DB_NAME).exists()


def test_an_unknown_board_is_one_line_and_exit_2(data_dir, capsys):
    store_finished(finished(1, ("Ann",)))
    assert main(["stats", "nosuchboard"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert main(["stats", "x\x1b]0;pwn\x07\x1b[2J"]) == 2
    assert "\x1b" not in capsys.readouterr().err


def test_a_data_directory_that_is_a_file_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path / "file"))
    assert main(["games", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1


def test_a_corrupt_store_warns_once_and_lists_nothing(data_dir, capsys):
    (data_dir / DB_NAME).write_bytes(b"\x00garbage" * 500)
    assert main(["games", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == []
    assert len(captured.err.splitlines()) == 1 and "damaged" in captured.err


def test_store_commands_do_not_load_textual_or_rich(data_dir):
    store_finished(finished(2, ("Ann", "CPU")))
    code = (
        "import sys\nfrom snl_tui.cli.main import main\n"
        "assert main(['games', '--json']) == 0\nassert main(['stats', '--json']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
