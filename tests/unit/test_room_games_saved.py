"""A room's saved game (``snl host``) is a room wherever saved games are named: listed as
one, never offered or resumed as a game alone, and every place says how to reopen it
(issue 41: ``snl resume`` went on with a room's game alone, overwriting its room)."""

from __future__ import annotations

import io
import json

import pytest

from snl_tui.cli.main import main
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import Store, open_store
from snl_tui.core.store.records import ROOM_PLAYING
from snl_tui.core.store.saving import GameSaver, last_offers, resumable_games

ROOM = {"code": "ABCDEF", "seats": [{"taken": True}, {"taken": True}]}
"""Enough of a room for the store's readers: only ``snl host --resume`` reads the rest."""


def saved(store: Store, names: tuple[str, ...], *, room: bool, seed: int = 7) -> int:
    players = tuple(Player(name) for name in names)
    session = GameSession(GameSettings(load_board("classic"), players, seed))
    saver = GameSaver(store)
    for _ in range(3):
        session.move()
        saver.moved(session, {"room": ROOM} if room else None)
    assert saver.game_id is not None
    store.live.release(saver.game_id)  # this process has quit it
    return saver.game_id


def test_a_rooms_game_is_listed_as_a_room_and_told_never_offered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with open_store() as store:
        alone = saved(store, ("You", "Zed"), room=False, seed=1)
        room = saved(store, ("Ann", "Bo"), room=True, seed=2)
        listed = {game.id: game for game in store.list_games().games}
        assert listed[room].room and listed[room].status_text == ROOM_PLAYING
        assert not listed[alone].room and listed[alone].status_text == "in progress"
        # The offer is the game alone; the room saved since is told, with its command.
        offer, told = last_offers(store)
        assert offer is not None and offer.id == alone
        assert told is not None and told.id == room
        assert [g.id for g in resumable_games(store)] == [alone]
        assert [g.id for g in resumable_games(store, rooms=True)] == [room, alone]
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert f"{ROOM_PLAYING}\n" in out and "reopens with: snl host --resume ID" in out
    assert main(["games", "--json"]) == 0
    rooms = {game["id"]: game["room"] for game in json.loads(capsys.readouterr().out)}
    assert rooms == {alone: False, room: True}


def test_snl_resume_says_a_rooms_game_reopens_with_snl_host(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with open_store() as store:
        room = saved(store, ("Ann", "Bo"), room=True)
        before = store.load_game(room).data
    for argv in (["resume", str(room)], ["resume", str(room), "--no-save"], ["resume"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert f"game {room} (Ann, Bo) is a room's game: snl host --resume {room}" in err
    with open_store() as store:  # untouched: its room is still there to reopen
        assert store.load_game(room).data == before
        store.mark_abandoned(room)
        # A room saved as it opened, before anyone rolled: named too.
        session = GameSession(GameSettings(load_board("classic"), (Player("Cy"), Player("Di"))))
        opened = store.save_game(
            None, board=session.settings.board, players=["Cy", "Di"], mode="classic",
            data=session.to_dict() | {"room": ROOM}, rolls=0,
        )  # fmt: skip
    assert main(["resume"]) == 2
    assert f"snl host --resume {opened} reopens the room" in capsys.readouterr().err


def test_plain_snl_tells_the_room_and_offers_the_game_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store() as store:
        alone = saved(store, ("You", "Zed"), room=False, seed=1)
        room = saved(store, ("Ann", "Bo"), room=True, seed=2)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--screen-reader"]) == 0
    out = capsys.readouterr().out
    told = f"Game {room} (Ann, Bo) is a room's game: snl host --resume {room} reopens the room."
    assert told in out.splitlines()
    assert f"Game {alone} on " in out and "type resume to go on with it" in out
