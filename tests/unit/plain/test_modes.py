"""When the screen-reader mode is on (flag, setting, TERM=dumb), and replays in it."""

from __future__ import annotations

import io
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from snl_tui.cli.main import main
from snl_tui.core.board import Board
from snl_tui.core.engine import Player
from snl_tui.core.rules import Rules
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.settings import Settings, load_settings, save_settings
from snl_tui.plain import words
from snl_tui.plain.replay import replay_lines

from .plainness import unplain


@pytest.fixture
def tui(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The full-screen app replaced by a recorder of what it was asked to run."""
    ran: list[str] = []

    class SnlApp:
        def __init__(self, **kwargs: Any) -> None:
            ran.append("app")

    module = types.ModuleType("snl_tui.app")
    module.SnlApp = SnlApp  # type: ignore[attr-defined]
    module.run_app = lambda app: 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snl_tui.app", module)
    monkeypatch.setenv("TERM", "xterm-256color")
    return ran


def play(monkeypatch: pytest.MonkeyPatch, capsys, *args: str, typed: str = "") -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["play", "--seed", "2", *args]) == 0
    return str(capsys.readouterr().out)


def test_the_flag_the_setting_and_term_dumb_turn_it_on(
    monkeypatch: pytest.MonkeyPatch, capsys, tui: list[str], private_data_dir: Path
) -> None:
    assert play(monkeypatch, capsys) == "" and tui == ["app"]  # the default: the game screen
    out = play(monkeypatch, capsys, "--screen-reader", "--no-save", typed="r\n")
    assert "You rolled" in out and tui == ["app"]

    save_settings(Settings(screen_reader=True))
    assert load_settings() == (Settings(screen_reader=True), [])
    assert "Goodbye." in play(monkeypatch, capsys, "--no-save")  # the setting, even unsaving
    assert play(monkeypatch, capsys, "--no-screen-reader") == "" and tui == ["app", "app"]

    save_settings(Settings())
    monkeypatch.setenv("TERM", "dumb")
    assert "Goodbye." in play(monkeypatch, capsys, "--no-save")
    assert play(monkeypatch, capsys, "--no-screen-reader") == ""
    assert tui == ["app", "app", "app"]


def test_bare_snl_with_the_flag_plays_classic_in_plain_lines(
    monkeypatch: pytest.MonkeyPatch, capsys, tui: list[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("where\n"))
    assert main(["--screen-reader", "--no-save"]) == 0
    out = capsys.readouterr().out
    assert "You off the board and CPU off the board. Your move. The goal is 100." in out
    assert tui == []


def test_a_replay_says_every_move_as_it_was_played() -> None:
    rules = Rules(six_again=True, three_sixes=True)
    board = Board(6, 6, [(3, 20), (30, 4)], rules=rules, name="Sixes")
    players = (Player("Ann"), Player("Bo", True))
    for seed in range(500):  # a game with a cancelled turn in it (the engine decides)
        session = GameSession(GameSettings(board, players, seed=seed))
        while not session.game.over:
            session.move()
        if any(turn.cancelled for turn in session.game.history):
            break
    else:
        raise AssertionError("no game with a cancelled turn")
    saved = GameSession.from_dict(session.to_dict())  # as the store gives it back
    lines = replay_lines(saved)
    history = session.game.history
    assert lines[0].startswith("Sixes: 6 by 6, goal 36")
    moves = [line for line in lines if line.startswith("Move ")]
    assert len(moves) == len(history)
    for number, (line, turn) in enumerate(zip(moves, history, strict=True), start=1):
        name = players[turn.player].name
        assert line.startswith(f"Move {number}. {name} rolled {turn.move.die}: ")
        assert ("cancels the turn" in line) == turn.cancelled
    seat = session.game.winner
    assert seat is not None
    turns = session.game.turns_taken[seat]
    assert moves[-1].endswith(f"{players[seat].name} wins in {turns} turns!")
    assert unplain("\n".join(lines)) == []


def test_a_replay_of_a_game_left_half_way_says_where_it_stopped() -> None:
    board = Board(5, 5, [])
    session = GameSession(GameSettings(board, (Player("Ann"), Player("Bo")), seed=4))
    for _ in range(3):
        session.move()
    lines = replay_lines(GameSession.from_dict(session.to_dict()))
    assert lines[-2] == "The game was left here, after 3 moves."
    assert lines[-1] == words.positions_line(session.game)


def test_snl_replay_with_the_flag_prints_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys, tui: list[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nr\nr\n"))
    assert main(["play", "--screen-reader", "--seed", "9"]) == 0
    played = [line for line in capsys.readouterr().out.splitlines() if " rolled " in line]
    assert main(["replay", "1", "--screen-reader"]) == 0
    replayed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Move ")]
    assert [line.split(". ", 1)[1] for line in replayed] == played
    assert tui == []


def test_bare_snl_offers_the_last_unfinished_game_until_the_first_move(
    monkeypatch: pytest.MonkeyPatch, capsys, tui: list[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nr\n"))
    assert main(["--screen-reader", "--seed", "4"]) == 0
    first = capsys.readouterr().out
    assert "Game 1 is saved" in first and "unfinished" not in first
    monkeypatch.setattr(sys, "stdin", io.StringIO("resume\nwhere\n"))
    assert main(["--screen-reader"]) == 0
    out = capsys.readouterr().out
    assert "Game 1 on Chutes and Ladders, You and CPU, is unfinished after 4 moves" in out
    assert "Game 1 resumed after 4 moves." in out
    # Played on from where it stood: the same positions as the saved game's.
    from snl_tui.core.store.games import open_store

    with open_store() as store:
        saved = GameSession.from_dict(store.load_game(1).data)
    assert words.positions_line(saved.game) in out
    # Once a move of the new game is made, the offer is gone (and "resume" with it).
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nresume\n"))
    assert main(["--screen-reader", "--seed", "8"]) == 0
    assert "'resume' is not a command." in capsys.readouterr().out
    assert tui == []


@pytest.mark.parametrize("room", [[], ["--room", "127.0.0.1:8765/ABCD"]])
def test_browser_tabs_never_start_the_plain_mode(room: list[str]) -> None:
    """textual-serve speaks to a Textual app: a tab's game is the full-screen one even
    when the setting asks for plain lines (the page has ?screenreader=1 instead)."""
    import shlex

    from snl_tui.cli import serve_commands
    from snl_tui.cli.common import rule_overrides
    from snl_tui.cli.main import build_parser

    args = build_parser().parse_args(["serve", *room])
    words = shlex.split(serve_commands.play_command(args, rule_overrides(args)))
    assert "--no-screen-reader" in words
    command = words[words.index("snl_tui") + 1 :]
    parsed = build_parser().parse_args(command)  # the game's own parser takes it
    assert parsed.screen_reader is False
