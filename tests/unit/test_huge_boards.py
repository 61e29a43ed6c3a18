"""Huge boards (issue 36, item 10): each command answers within its bounds or refuses at
once with one line (``core.limits``). The boards here are just past each bound, so the
tests stay fast; ``benchmarks/huge_boards.py`` measures 1000 x 1000."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core import limits
from snl_tui.core.files.formats import load_board


def jump_list(path: Path, side: int, jumps: int, seed: int = 36) -> Path:
    """A ``side`` x ``side`` jump list with ``jumps`` random snakes and ladders."""
    squares = side * side
    rng = random.Random(seed)
    lines = [f"{side} {side}"]
    for start in rng.sample(range(2, squares), jumps):
        end = rng.randrange(1, squares + 1)
        while end == start:
            end = rng.randrange(1, squares + 1)
        lines.append(f"{start} {end}")
    path.write_text("\n".join(lines) + "\n")
    return path


def side_past(squares: int) -> int:
    side = int(squares**0.5)
    while side * side <= squares:
        side += 1
    return side


@pytest.fixture(scope="module")
def too_large_to_play(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("huge")
    return jump_list(folder / "huge.txt", side_past(limits.PLAY_MAX_SQUARES), 50)


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "{board}"],
        ["play", "{board}", "--no-save"],
        ["edit", "{board}"],
        ["serve", "{board}"],
        ["host", "{board}"],
    ],
    ids=lambda argv: argv[0] + (" --no-save" if "--no-save" in argv else ""),
)
def test_the_game_refuses_a_board_too_large_to_play_at_once(
    too_large_to_play: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([word.format(board=too_large_to_play) for word in argv]) == 2
    err = one_line(capsys)
    assert "too large to" in err and f"{limits.PLAY_MAX_SQUARES:,}" in err


def test_edit_refuses_a_new_board_too_large_to_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    side = side_past(limits.PLAY_MAX_SQUARES)
    assert main(["edit", str(tmp_path / "new.toml"), "--size", str(side)]) == 2
    assert "too large to edit" in one_line(capsys)
    assert not (tmp_path / "new.toml").exists()


def test_export_refuses_a_board_too_large_for_a_page_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = jump_list(tmp_path / "big.txt", side_past(limits.EXPORT_MAX_SQUARES), 100)
    page = tmp_path / "page.svg"
    assert main(["export", str(board), "-o", str(page)]) == 2
    err = one_line(capsys)
    assert "too large for a printed page" in err and f"{limits.EXPORT_MAX_SQUARES:,}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]


def test_a_board_at_the_bound_is_played_and_printed(tmp_path: Path) -> None:
    side = int(limits.EXPORT_MAX_SQUARES**0.5)
    board = load_board(jump_list(tmp_path / "edge.txt", side, 10))
    limits.check_playable(board)
    limits.check_printable(board)


def test_check_leaves_out_the_odds_of_a_board_past_their_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = jump_list(tmp_path / "wide.txt", side_past(limits.CHECK_ODDS_MAX_SQUARES), 50)
    assert main(["check", str(board)]) in (0, 1)
    out = capsys.readouterr().out
    assert "odds checks left out" in out and f"{limits.CHECK_ODDS_MAX_SQUARES:,}" in out
    assert "what each jump does" in out


def test_check_leaves_out_the_jump_impacts_past_their_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    side = 100
    jumps = limits.CHECK_IMPACTS_MAX_WORK // (side * side) + 1
    board = jump_list(tmp_path / "many.txt", side, jumps)
    assert main(["check", str(board)]) in (0, 1)
    out = capsys.readouterr().out
    assert "what each jump does to the game's length left out" in out
    assert f"{jumps:,} jumps" in out
    assert "odds checks left out" not in out


def test_a_saved_game_on_a_board_too_large_is_neither_offered_nor_resumed(
    too_large_to_play: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Such a game can only come from a store edited by hand (the game refuses the board),
    or from an older snl: it is one line, never a game that takes gigabytes."""
    from snl_tui.core.engine import Player
    from snl_tui.core.session import GameSession, GameSettings
    from snl_tui.core.store.games import open_store
    from snl_tui.core.store.saving import GameSaver, resumable_games

    board = load_board(too_large_to_play)
    session = GameSession(GameSettings(board, (Player("You"),), 1))
    with open_store() as store:
        saver = GameSaver(store)
        session.move()
        game_id = saver.moved(session)
        assert game_id is not None
        store.live.release(game_id)
        assert resumable_games(store) == []
    assert main(["resume", str(game_id)]) == 2
    assert "too large to play" in one_line(capsys)


def test_the_studio_never_resizes_past_what_the_game_opens() -> None:
    """The editor's size form goes through ``Resize``: a board it makes can be played,
    and the refusal has play's words."""
    from snl_tui.core.board import Board
    from snl_tui.core.studio.edit import Resize

    side = side_past(limits.PLAY_MAX_SQUARES)
    with pytest.raises(limits.BoardTooLarge) as refused:
        Resize(side, side).apply(Board(10, 10, [(2, 30)]))
    words = str(refused.value)
    assert words.startswith("the board is too large to edit: ")
    assert f"{side} x {side} = {side * side:,} squares" in words
    assert f"at most {limits.PLAY_MAX_SQUARES:,} squares" in words
    largest = int(limits.PLAY_MAX_SQUARES**0.5)
    assert Resize(largest, largest).apply(Board(10, 10)).goal == limits.PLAY_MAX_SQUARES


@pytest.mark.parametrize(
    "argv",
    [["--keep", "{board}"], ["--size", "{side}"], ["--rows", "{side}", "--cols", "{side}"]],
    ids=["--keep", "--size", "--rows --cols"],
)
def test_generate_refuses_a_size_past_its_bound_in_plays_words(
    too_large_to_play: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from snl_tui.core.studio.generate import MAX_GENERATE_SQUARES

    side = side_past(limits.PLAY_MAX_SQUARES)
    words = [w.format(board=too_large_to_play, side=side) for w in argv]
    assert main(["generate", *words, "--seed", "1"]) == 2
    err = one_line(capsys)
    assert err.startswith("snl generate: the board is too large to generate: "), err
    assert f"{side} x {side} = {side * side:,} squares" in err
    assert f"at most {MAX_GENERATE_SQUARES:,} squares" in err
    assert MAX_GENERATE_SQUARES <= limits.PLAY_MAX_SQUARES  # what it makes can be played
