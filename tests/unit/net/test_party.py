"""A room that survives real friends (issue 31): the host's powers over absent players,
turn timers, chat and reactions, who is here; each new message checked like the others."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from snl_tui.core.engine import PASS, Game, Player
from snl_tui.net.client import ClientEvent, RoomClient
from snl_tui.net.protocol import (
    MAX_CHAT,
    REACTION_TEXT,
    ProtocolError,
    decode_client,
    decode_server,
    read_seats,
)
from snl_tui.net.server import Limits, Room, Timers

from .rooms import (
    CLASSIC,
    FAST_BACKOFF,
    WAIT,
    address,
    close_all,
    closed,
    cut,
    join_frame,
    next_of,
    raw,
    seated,
    serving,
    settings,
    store_in,
    until,
)

# -- the messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        {"type": "chat", "text": "good game"},
        {"type": "react", "reaction": "gg"},
        {"type": "skip", "seat": 1},
        {"type": "hand", "seat": 0, "to": "computer"},
        {"type": "kick", "seat": 3},
        {"type": "mute", "name": "Bo", "muted": True},
    ],
)
def test_each_new_message_is_read_back(message: dict[str, object]) -> None:
    assert decode_client(json.dumps(message)) == message


@pytest.mark.parametrize(
    "message",
    [
        {"type": "chat"},
        {"type": "chat", "text": 5},
        {"type": "chat", "text": "x" * (MAX_CHAT + 1)},
        {"type": "chat", "text": "hi", "name": "Ann"},  # nobody speaks for another
        {"type": "react", "reaction": ["gg"]},
        {"type": "react", "reaction": "x" * 17},
        {"type": "skip"},
        {"type": "skip", "seat": 4},
        {"type": "skip", "seat": -1},
        {"type": "skip", "seat": True},
        {"type": "hand", "seat": 0},
        {"type": "hand", "seat": 0, "to": 1},
        {"type": "kick", "seat": "0"},
        {"type": "mute", "name": "Bo"},
        {"type": "mute", "name": "Bo", "muted": 1},
        {"type": "join", "version": 2, "room": "A", "name": "B", "host": 7},
    ],
)
def test_each_new_message_with_bad_fields_is_refused(message: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as raised:
        decode_client(json.dumps(message))
    assert raised.value.code == "malformed"


def test_too_long_says_the_limit() -> None:
    with pytest.raises(ProtocolError, match=r"'name' is too long \(24 characters at most\)"):
        decode_client(json.dumps({"type": "join", "version": 2, "room": "A", "name": "N" * 25}))


@pytest.mark.parametrize(
    "seat",
    [
        {"name": "Bo", "kind": "person", "taken": True, "connected": False, "away": -1},
        {"name": "Bo", "kind": "person", "taken": True, "connected": False, "away": "1m"},
        {"name": "Bo", "kind": "person", "taken": True, "connected": True, "away": None},
    ],
)
def test_a_server_seat_with_bad_presence_is_refused(seat: dict[str, object]) -> None:
    item = {"standin": False, "removed": False, "muted": False, **seat}
    if "away" in seat and seat["away"] is None:
        item["standin"] = "yes"
    with pytest.raises(ProtocolError):
        read_seats([item])


def test_server_chat_and_notice_are_checked() -> None:
    ok = json.dumps({"type": "chat", "name": "Bo", "text": "hi", "reaction": False})
    assert decode_server(ok)["text"] == "hi"
    for bad in (
        {"type": "chat", "name": "Bo", "text": "x" * (MAX_CHAT + 1), "reaction": False},
        {"type": "chat", "name": "Bo", "text": "hi"},
        {"type": "notice", "code": "skipped"},
    ):
        with pytest.raises(ProtocolError):
            decode_server(json.dumps(bad))


# -- a passed turn, in the engine ----------------------------------------------------------


def test_a_passed_turn_moves_nobody_draws_nothing_and_replays() -> None:
    players = (Player("A"), Player("B"))
    game = Game(CLASSIC, players, 5)
    game.roll()
    turn = game.pass_turn()
    assert turn.passed and turn.player == 1 and game.positions[1] == 0 and game.current == 0
    game.roll()
    plain = Game(CLASSIC, players, 5)
    plain.roll()
    plain.roll()
    assert game.history[-1].move.die == plain.history[-1].move.die  # no die was drawn
    again = Game.from_dict(CLASSIC, game.to_dict())
    assert again.rolls == game.rolls and again.rolls[1] == PASS
    assert again.positions == game.positions and again.current == game.current


# -- the host's powers ------------------------------------------------------------------------


async def host_client(port: int, room: Room, name: str) -> RoomClient:
    client = RoomClient(address(port, room), name, host_key=room.host_key, backoff=FAST_BACKOFF)
    client.start()
    await client.wait_for(lambda: client.seat is not None, WAIT)
    return client


def heard(client: RoomClient) -> list[ClientEvent]:
    events: list[ClientEvent] = []
    client.listener = events.append
    return events


async def test_only_the_host_can_skip_hand_over_remove_or_mute() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Bo"))
        await next_of(websocket, "welcome")
        for frame in (
            {"type": "skip", "seat": 0},
            {"type": "hand", "seat": 0, "to": "computer"},
            {"type": "kick", "seat": 0},
            {"type": "mute", "name": "Ann", "muted": True},
        ):
            await websocket.send(json.dumps(frame))
            refused = await next_of(websocket, "error")
            assert refused["code"] == "host-only"
        assert not room.seats[0].standin and not room.seats[0].removed
        assert room.session.game.history == [] and not room.muted
        # A forged host key is refused outright.
        forged = await raw(port)
        await forged.send(join_frame(room, "Cy", host="not-the-key"))
        assert (await next_of(forged, "refused"))["code"] == "wrong-host-key"
        await websocket.close()
        await close_all([ann])


async def test_the_host_skips_an_absent_player_and_everyone_is_told_why() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])
        told = heard(bo)
        await ann.roll()
        await until(lambda: room.session.seat_to_move == 1)
        cut(bo)
        await bo.close()
        await until(lambda: room.seats[1].connection is None)
        await ann.skip(1)
        await ann.wait_for(lambda: len(ann.session.game.history) == 2, WAIT)  # type: ignore[union-attr]
        assert room.session.game.history[-1].passed and room.session.game.positions[1] == 0
        assert ann.session is not None and ann.session.game.history[-1].passed
        assert ann.session.game.current == 0
        # Skipping a seat whose turn it is not is refused, and said.
        await ann.skip(1)
        await ann.wait_for(lambda: ann.last_error is not None, WAIT)
        assert "Ann's turn" in (ann.last_error or "")
        assert not [e for e in told if e.kind == "notice"]  # Bo had gone: only Ann heard
        await close_all([ann])


async def test_the_computer_plays_a_handed_seat_and_gives_it_back(tmp_path: Path) -> None:
    async with serving(store_in(tmp_path), keep_seat=0) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])
        notices = heard(ann)
        await bo.close()
        await until(lambda: room.seats[1].connection is None)
        await ann.hand(1, "computer")
        await ann.wait_for(lambda: bool(ann.seats) and ann.seats[1].standin, WAIT)
        for _ in range(3):  # Ann rolls; the computer answers for Bo each time
            moves = len(room.session.game.history)
            await ann.wait_for(lambda: ann.my_turn, WAIT)
            await ann.roll()
            await until(lambda n=moves: len(room.session.game.history) >= n + 2)
        assert {t.player for t in room.session.game.history} == {0, 1}
        texts = [e.message or "" for e in notices if e.kind == "notice"]
        assert any("handed Bo's seat to the computer" in t for t in texts)
        # Bo comes back by name: the seat is his again, and everyone is told.
        (bo,) = await seated(port, room, ["Bo"])
        await until(lambda: not room.seats[1].standin)
        await ann.wait_for(lambda: any("Bo is back" in (e.message or "") for e in notices), WAIT)
        await close_all([ann, bo])


async def test_a_removed_player_cannot_come_back_and_the_computer_finishes() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])
        await ann.kick(1)
        await bo.wait_for(lambda: bo.refused is not None, WAIT)
        assert bo.refused is not None and bo.refused.code == "removed"
        assert room.seats[1].removed and room.seats[1].token_sha256 is None
        again = RoomClient(address(port, room), "Bo", backoff=FAST_BACKOFF)
        again.start()
        await again.wait_for(lambda: again.refused is not None, WAIT)
        assert again.refused is not None and "removed Bo" in str(again.refused)
        await ann.kick(0)  # not the host's own seat
        await ann.wait_for(lambda: ann.last_error is not None, WAIT)
        for _ in range(2000):
            if room.session.game.over:
                break
            await ann.wait_for(lambda: ann.my_turn or room.session.game.over, WAIT)
            if ann.my_turn:
                moves = len(room.session.game.history)
                await ann.roll()
                await until(lambda n=moves: len(room.session.game.history) > n)
        assert room.session.game.over
        await close_all([ann, bo, again])


@pytest.mark.parametrize("action", ["roll", "skip"])
async def test_a_turn_not_rolled_in_time_is_rolled_for_or_skipped(action: str) -> None:
    async with serving(None) as (server, port):
        room = server.open_room(
            settings(["Ann", "Bo"]), timers=Timers(turn_time=0.2, on_time_out=action)
        )
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        told = heard(bo)
        await until(lambda: len(room.session.game.history) >= 1)  # Ann never rolls
        turn = room.session.game.history[0]
        assert turn.player == 0 and turn.passed == (action == "skip")
        await bo.wait_for(lambda: any(e.kind == "notice" for e in told), WAIT)
        notice = next(e for e in told if e.kind == "notice")
        assert "Ann did not roll within 0 seconds" in (notice.message or "")
        await close_all([ann, bo])


async def test_a_person_away_too_long_is_played_by_the_computer() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=Timers(away_after=0.1))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await ann.wait_for(lambda: ann.my_turn, WAIT)
        await ann.close()
        await until(lambda: room.seats[0].standin)
        await until(lambda: len(room.session.game.history) >= 1)  # the computer rolled
        await bo.wait_for(lambda: bool(bo.seats) and bo.seats[0].standin, WAIT)
        assert bo.seats[0].away is not None
        await close_all([bo])


# -- chat, reactions, who is here ----------------------------------------------------------


async def test_chat_and_reactions_reach_everyone_escaped_at_the_screen() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        watcher = RoomClient(address(port, room), "Cy", spectate=True, backoff=FAST_BACKOFF)
        watcher.start()
        await watcher.wait_for(lambda: watcher.role is not None, WAIT)
        logs = [heard(c) for c in (ann, bo, watcher)]
        await bo.chat("  good   luck  ")
        await watcher.react("wow")
        for log in logs:
            await until(lambda lg=log: sum(e.kind == "chat" for e in lg) == 2)
            lines = [(e.name, e.message, e.code) for e in log if e.kind == "chat"]
            assert lines == [("Bo", "good luck", None), ("Cy", REACTION_TEXT["wow"], "reaction")]
        await ann.chat("bell\x07 here")  # control characters never reach another screen
        await ann.wait_for(lambda: ann.last_error is not None, WAIT)
        assert "control characters" in (ann.last_error or "")
        await ann.wait_for(lambda: ann.watchers == ("Cy",), WAIT)
        await close_all([ann, bo, watcher])


async def test_a_chat_flood_is_limited_and_a_muted_person_is_not_heard() -> None:
    limits = Limits(rate=1000, burst=1000, chat_rate=0.01, chat_burst=3)
    async with serving(None, limits, keep_seat=0) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Bo"))
        await next_of(websocket, "welcome")
        said = heard(ann)
        for number in range(10):
            await websocket.send(json.dumps({"type": "chat", "text": f"spam {number}"}))
        close_code, _ = await closed(websocket)  # strikes close the flood
        assert close_code == 1008
        await asyncio.sleep(0.05)
        assert sum(e.kind == "chat" for e in said) == 3
        (bo,) = await seated(port, room, ["Bo"])
        await ann.mute("Bo")
        await until(lambda: "bo" in room.muted)
        await bo.chat("can you hear me")
        await bo.wait_for(lambda: bo.last_error is not None, WAIT)
        assert "muted" in (bo.last_error or "") and sum(e.kind == "chat" for e in said) == 3
        await close_all([ann, bo])


async def test_resume_remembers_the_host_and_the_computer_seats(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), host_name="Ann")
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])
        await ann.hand(1, "computer")
        await until(lambda: room.seats[1].standin)
        await ann.roll()
        await until(lambda: len(room.session.game.history) >= 2)
        await server.saved()
        game_id = room.saver.game_id
        await close_all([ann, bo])
    assert game_id is not None
    async with serving(store) as (server, port):
        again = server.resume_room(store.load_game(game_id))
        assert again.host_name == "Ann" and again.seats[1].standin


async def test_an_unknown_reaction_or_hand_over_is_refused_with_the_choices() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Bo"))
        await next_of(websocket, "welcome")
        await websocket.send(json.dumps({"type": "react", "reaction": "boo"}))
        refused = await next_of(websocket, "error")
        assert refused["code"] == "bad-reaction" and "gg" in str(refused["message"])
        await ann.hand(1, "nobody")
        await ann.wait_for(lambda: ann.last_error is not None, WAIT)
        assert "its person or anyone" in (ann.last_error or "")
        await ann.skip(3)  # a seat the room does not have
        await ann.wait_for(lambda: "no seat 4" in (ann.last_error or "").lower(), WAIT)
        assert not room.seats[1].standin and room.session.game.history == []
        await websocket.close()
        await close_all([ann])


async def test_a_person_the_computer_plays_for_is_never_asked_to_roll() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])  # still here, but idle at the keyboard
        await ann.hand(1, "computer")
        await bo.wait_for(lambda: bool(bo.seats) and bo.seats[1].standin, WAIT)
        await ann.roll()
        await until(lambda: len(room.session.game.history) >= 2)  # the computer rolled
        assert room.session.game.history[1].player == 1 and not bo.my_turn
        await bo.roll()  # refused: the computer has the seat
        await bo.wait_for(lambda: "computer is playing" in (bo.last_error or ""), WAIT)
        await close_all([ann, bo])


async def test_the_host_hands_an_away_seat_over_to_whoever_joins_with_its_name() -> None:
    async with serving(None) as (server, port):  # the default keep-seat: kept for its token
        room = server.open_room(settings(["Ann", "Bo"]))
        ann = await host_client(port, room, "Ann")
        (bo,) = await seated(port, room, ["Bo"])
        await bo.close()
        await until(lambda: room.seats[1].connection is None)
        kept = RoomClient(address(port, room), "Bo", backoff=FAST_BACKOFF)
        kept.start()
        await kept.wait_for(lambda: kept.last_refusal is not None, WAIT)
        assert kept.last_refusal is not None and kept.last_refusal.code == "seat-kept"
        await kept.close()
        told = heard(ann)
        await ann.hand(1, "anyone")
        await ann.wait_for(lambda: any(e.code == "handed-over" for e in told), WAIT)
        (friend,) = await seated(port, room, ["Bo"])  # a friend's machine, by name: at once
        assert friend.seat == 1
        await close_all([ann, friend])
