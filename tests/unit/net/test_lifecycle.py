"""Issue 41: a seat that comes back at once, a resume that keeps the room, one name for
one person, the door, the turn clock."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from snl_tui.cli.join import join_room
from snl_tui.net.client import RoomClient
from snl_tui.net.guard import PasswordGuard, Secret
from snl_tui.net.protocol import ProtocolError, check_chat, check_name, name_key
from snl_tui.net.seat_tokens import SeatTokens, seat_key
from snl_tui.net.server import Timers

from .rooms import (
    FAST_BACKOFF,
    WAIT,
    FakeClock,
    address,
    close_all,
    join_frame,
    next_of,
    play_to_end,
    seated,
    serving,
    settings,
    store_in,
    until,
)

INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u200e", "\u200f", "\U000e0041", "\u00ad"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_names_refuse_invisible_characters_and_chat_loses_them(char: str) -> None:
    with pytest.raises(ProtocolError, match="invisible"):
        check_name(f"B{char}ob")
    assert check_chat(f"hi B{char}ob") == "hi Bob"


def test_names_are_compared_after_nfkc_and_case_folding() -> None:
    assert name_key("\uff21\uff4e\uff4e") == name_key("ANN") == name_key("ann")
    assert name_key("Stra\u00dfe") == name_key("STRASSE")
    assert name_key("Ann  Lee") == name_key("ann lee")


@given(st.text(max_size=24))
def test_a_checked_name_shows_every_character_it_has(text: str) -> None:
    """Whatever a name is, once checked it holds no character that shows as nothing."""
    try:
        name = check_name(text)
    except ProtocolError:
        return
    assert name and name_key(name)
    assert not any(ord(c) in range(0xE0000, 0xE0080) or c in INVISIBLE for c in name)


async def test_a_watcher_cannot_take_a_seated_name_nor_another_watchers() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        (ann,) = await seated(port, room, ["Ann"])
        for name in ("ANN", "\uff41nn"):
            websocket = await connect(f"ws://127.0.0.1:{port}/", proxy=None)
            await websocket.send(join_frame(room, name, spectate=True))
            refused = await next_of(websocket, "refused")
            assert refused["code"] == "name-taken", refused
            await websocket.close()
        eve = RoomClient(address(port, room), "Eve", spectate=True, backoff=FAST_BACKOFF)
        eve.start()
        await eve.wait_for(lambda: eve.role == "spectator", WAIT)
        websocket = await connect(f"ws://127.0.0.1:{port}/", proxy=None)
        await websocket.send(join_frame(room, "eve"))  # a seat under a watcher's name
        assert (await next_of(websocket, "refused"))["code"] == "name-taken"
        await websocket.close()
        await close_all([ann, eve])


async def test_a_muted_person_stays_muted_under_another_name() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), host_name="Ann")
        ann = RoomClient(address(port, room), "Ann", host_key=room.host_key, backoff=FAST_BACKOFF)
        ann.start()
        await ann.wait_for(lambda: ann.seat is not None, WAIT)
        (bo,) = await seated(port, room, ["Bo"])
        eve = RoomClient(address(port, room), "Eve", spectate=True, backoff=FAST_BACKOFF)
        eve.start()
        await eve.wait_for(lambda: eve.role == "spectator", WAIT)
        await ann.mute("BO")
        await ann.mute("eve")
        await until(lambda: room.seats[1].muted and "eve" in room.muted)
        # Bo comes back with his token under his seat's name: still muted.
        token = bo.token
        await bo.close()
        back = RoomClient(address(port, room), "Bob", backoff=FAST_BACKOFF)
        back.token = token
        back.start()
        await back.wait_for(lambda: back.seat == 1, WAIT)
        await back.chat("psst")
        await back.wait_for(lambda: back.last_error is not None, WAIT)
        assert "muted" in (back.last_error or "")
        # Eve comes back as another watcher from the same address: still muted.
        await eve.close()
        mallory = RoomClient(address(port, room), "Mallory", spectate=True, backoff=FAST_BACKOFF)
        mallory.start()
        await mallory.wait_for(lambda: mallory.role == "spectator", WAIT)
        await mallory.chat("hello")
        await mallory.wait_for(lambda: mallory.last_error is not None, WAIT)
        assert "muted" in (mallory.last_error or "")
        await close_all([ann, back, mallory])


async def test_a_duplicate_host_or_origin_header_is_a_400() -> None:
    async with serving(None) as (server, port):
        server.open_room(settings(["A", "B"]))
        for twice in ("Host: 127.0.0.1:{port}", "Origin: http://a.example"):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            lines = [
                "GET / HTTP/1.1",
                f"Host: 127.0.0.1:{port}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version: 13",
                "Origin: http://a.example" if "Origin" in twice else "X-Other: 1",
                twice.format(port=port),
            ]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            await writer.drain()
            async with asyncio.timeout(WAIT):
                status = await reader.readline()
            writer.close()
            assert status.startswith(b"HTTP/1.1 400"), status


async def test_password_guesses_from_many_addresses_are_slowed_per_room() -> None:
    clock = FakeClock()
    guard = PasswordGuard(clock=clock)
    async with serving(None, guard=guard) as (server, port):
        room = server.open_room(settings(["A", "B"]), password="sesame")
        answers = []
        for number in range(25):  # each from another loopback address
            websocket = await connect(
                f"ws://127.0.0.1:{port}/", proxy=None, local_addr=(f"127.0.1.{number + 1}", 0)
            )
            await websocket.send(join_frame(room, "Ann", password=f"guess{number}"))
            answers.append((await next_of(websocket, "refused"))["code"])
            await websocket.close()
        assert answers[:20] == ["wrong-password"] * 20
        assert set(answers[21:]) == {"too-many-tries"}, answers
        websocket = await connect(f"ws://127.0.0.1:{port}/", proxy=None)
        await websocket.send(join_frame(room, "Ann", password="sesame"))
        refused = await next_of(websocket, "refused")  # even the right one waits
        assert refused["code"] == "too-many-tries" and "everyone" in str(refused["message"])
        await websocket.close()


def test_the_password_is_kept_as_a_salted_hash() -> None:
    secret = Secret.of("sesame")
    assert secret.matches("sesame") and not secret.matches("Sesame")
    assert "sesame" not in json.dumps(secret.to_json())
    assert Secret.of("sesame").salt != secret.salt
    assert Secret.from_json(secret.to_json()) == secret


async def test_a_resumed_room_keeps_its_options_and_gives_the_host_their_seat(
    tmp_path: Path,
) -> None:
    store = store_in(tmp_path)
    timers = Timers(turn_time=45, on_time_out="skip", away_after=90)
    async with serving(store) as (server, port):
        room = server.open_room(
            settings(["Ann", "Bo"]), password="sesame", timers=timers, host_name="Ann"
        )
        room.keep_seat, room.options = 300.0, {"web": True, "web_port": 8123}
        ann = RoomClient(address(port, room), "Ann", host_key=room.host_key, backoff=FAST_BACKOFF)
        ann.start()
        await ann.wait_for(lambda: ann.seat == 0, WAIT)
        bo = RoomClient(address(port, room), "Bo", password="sesame", backoff=FAST_BACKOFF)
        bo.start()
        await bo.wait_for(lambda: bo.seat == 1, WAIT)
        await ann.mute("Bo")
        await ann.roll()
        await until(lambda: len(room.session.game.history) >= 1 and room.seats[1].muted)
        await server.saved()
        game_id = room.saver.game_id
        await close_all([ann, bo])
    saved = store.load_game(game_id)
    assert "sesame" not in json.dumps(saved.data)
    async with serving(store) as (server, port):
        again = server.resume_room(saved)
        assert again.timers == timers and again.keep_seat == 300.0
        assert again.options == {"web": True, "web_port": 8123} and again.seats[1].muted
        # The host's own client comes back to the host's seat at once (the host key).
        ann = RoomClient(address(port, again), "Ann", host_key=again.host_key)
        ann.start()
        await ann.wait_for(lambda: ann.seat == 0 or ann.last_refusal is not None, WAIT)
        assert ann.seat == 0, ann.last_refusal
        # A join without the password is refused; with it, fine.
        websocket = await connect(f"ws://127.0.0.1:{port}/", proxy=None)
        await websocket.send(join_frame(again, "Cy", spectate=True))
        assert (await next_of(websocket, "refused"))["code"] == "password-needed"
        await websocket.close()
        await close_all([ann])


async def test_a_host_killed_before_any_move_resumes_the_same_room(tmp_path: Path) -> None:
    """The room is saved as it opens and as people sit or are muted, not only with the
    first move: what a ``kill -9`` before anyone rolls leaves reopens the same room."""
    from snl_tui.screens.room_dialogs import host_orders

    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(
            settings(["Ann", "Bo", "Cy"]),
            password="sesame",
            timers=Timers(turn_time=45),
            host_name="Ann",
        )
        await until(lambda: room.saver.game_id is not None)  # nobody in yet: saved
        ann = RoomClient(address(port, room), "Ann", host_key=room.host_key, backoff=FAST_BACKOFF)
        ann.start()
        await ann.wait_for(lambda: ann.seat == 0, WAIT)
        bo = RoomClient(address(port, room), "Bo", password="sesame", backoff=FAST_BACKOFF)
        bo.start()
        await bo.wait_for(lambda: bo.seat == 1, WAIT)
        await ann.mute("Bo")
        await ann.wait_for(lambda: ann.seats[1].muted, WAIT)  # the host's menu knows it
        await server.saved()
        saved = store.load_game(room.saver.game_id)  # what a kill -9 leaves: the written
        code, token = room.code, bo.token
        await close_all([ann, bo])
    assert saved.rolls == 0 and saved.status == "playing"
    async with serving(store) as (server, port):
        again = server.resume_room(saved)
        assert again.code == code and again.timers == Timers(turn_time=45)
        assert [(s.name, s.taken) for s in again.seats] == [
            ("Ann", True),
            ("Bo", True),
            ("Cy", False),
        ]
        ann = RoomClient(address(port, again), "Ann", host_key=again.host_key)
        ann.start()
        await ann.wait_for(lambda: ann.seat == 0 or ann.last_refusal is not None, WAIT)
        assert ann.seat == 0, ann.last_refusal
        # After the resume the host's x menu still knows who is muted, and the host's
        # fresh screen opens with what the room said last.
        assert ann.seats[1].muted
        assert "The host muted Bo." in [event.message for event in ann.recent]
        assert ("Let Bo chat again", "mute") in [
            (words, order.kind) for words, order in host_orders(ann.seats, 0, None)
        ]
        # Bo comes back with his token (no password asked): his seat, still muted.
        bo = RoomClient(address(port, again), "Bo", token=token, backoff=FAST_BACKOFF)
        bo.start()
        await bo.wait_for(lambda: bo.seat == 1, WAIT)
        await bo.chat("psst")
        await bo.wait_for(lambda: bo.last_error is not None, WAIT)
        assert "muted" in (bo.last_error or "")
        # The password is still the room's.
        websocket = await connect(f"ws://127.0.0.1:{port}/", proxy=None)
        await websocket.send(join_frame(again, "Cy"))
        assert (await next_of(websocket, "refused"))["code"] == "password-needed"
        await websocket.close()
        await close_all([ann, bo])


async def test_a_restarted_client_takes_its_seat_back_at_once_with_its_kept_token(
    tmp_path: Path,
) -> None:
    tokens = SeatTokens(tmp_path / "seats.json")
    async with serving(None, keep_seat=3600) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        where = address(port, room)
        bo = await join_room(where, ["Bo"], tokens=tokens)
        assert bo.seat == 1
        mode = stat.S_IMODE(os.stat(tmp_path / "seats.json").st_mode)
        assert mode == 0o600
        await bo.close()  # or a crash: the seat waits an hour for its token
        again = await join_room(where, ["Bo"], tokens=tokens)
        assert again.seat == 1 and tokens.get(seat_key(where, "Bo")) == again.token
        # Someone else by the same name, without the token, waits for the keep-seat time.
        await again.close()
        with pytest.raises(Exception, match="kept for its player"):
            await join_room(where, ["Bo"], tokens=SeatTokens(tmp_path / "other.json"))


async def test_a_fresh_join_hears_the_last_notices_and_chat() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        (ann,) = await seated(port, room, ["Ann"])
        await ann.chat("anyone?")
        await until(lambda: len(room.recent) >= 1)
        late = RoomClient(address(port, room), "Bo", backoff=FAST_BACKOFF)
        late.start()
        await late.wait_for(lambda: late.seat == 1, WAIT)
        assert [(e.kind, e.name, e.message) for e in late.recent] == [("chat", "Ann", "anyone?")]
        await close_all([ann, late])


async def test_a_seat_taken_back_does_not_restart_the_turn_clock() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=Timers(turn_time=30))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await bo.wait_for(lambda: bo.turn_deadline is not None and bo.turn_seat == 0, WAIT)
        deadline = room.clocks.deadline
        token = bo.token
        await bo.close()
        again = RoomClient(address(port, room), "Bo", backoff=FAST_BACKOFF)
        again.token = token
        again.start()
        await again.wait_for(lambda: again.seat == 1 and again.turn_deadline is not None, WAIT)
        assert room.clocks.deadline == deadline  # Ann's clock ran on
        # Someone who comes to watch sees the clock at once, not from the next turn on.
        eve = RoomClient(address(port, room), "Eve", spectate=True, backoff=FAST_BACKOFF)
        eve.start()
        await eve.wait_for(lambda: eve.turn_seat == 0 and eve.turn_deadline is not None, WAIT)
        await close_all([ann, again, eve])


@given(st.integers(0, 2**32), st.integers(0, 60))
def test_a_rooms_save_holds_what_the_session_would_save(seed: int, moves: int) -> None:
    """``RoomRecord`` makes only the moving parts of ``session.to_dict()`` again: the
    result must be the session's own, move after move (a new field there shows here)."""
    from snl_tui.core.engine import Player
    from snl_tui.core.session import GameSession, GameSettings
    from snl_tui.core.store.saving import GameSaver
    from snl_tui.net.room_saving import RoomRecord, SaveWriter

    from .rooms import CLASSIC

    session = GameSession(GameSettings(CLASSIC, (Player("A"), Player("B")), seed))
    record = RoomRecord(GameSaver(None), SaveWriter(), lambda _: None)
    for _ in range(moves):
        if session.game.over:
            session.new_game()
        session.move_for(session.seat_to_move)
        assert record._snapshot(session) == session.to_dict()


async def test_join_says_what_the_host_sent_that_it_refused() -> None:
    from snl_tui.core.errors import SnlError

    from .hostile_host import hostile_host

    async def script(websocket: Any) -> None:
        await websocket.send('{"type": "welcome", "role": "king"}')

    async with hostile_host(script) as where:
        with pytest.raises(SnlError, match="the host sent something this snl refuses"):
            await join_room(where, ["Ann"], timeout=WAIT)


async def test_a_hosts_chat_flood_reaches_no_screen_past_the_clients_limit() -> None:
    from snl_tui.net.client import CHAT_BURST
    from snl_tui.net.protocol import encode

    from .hostile_host import hostile_host, hostile_state, welcome

    async def script(websocket: Any) -> None:
        await websocket.send(welcome(hostile_state(["Ann", "Bo"])))
        line = encode("chat", name="Bo", text="spam", reaction=False)
        for _ in range(3000):
            await websocket.send(line)
        await websocket.send(encode("notice", code="end", message="the end"))

    heard: list[str] = []
    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann", backoff=FAST_BACKOFF)
        client.listener = lambda event: heard.append(event.kind)
        client.start()
        async with asyncio.timeout(WAIT):
            while heard.count("notice") < 2:  # the flood's own notice, then "the end"
                await asyncio.sleep(0.01)
        await client.close()
    # The bucket refills at CHAT_RATE meanwhile: far fewer than sent, whatever the load.
    assert CHAT_BURST <= heard.count("chat") < 600
    assert client.chat_dropped >= 3000 - heard.count("chat")


def test_resume_restores_each_option_unless_given_again_and_says_so() -> None:
    import argparse
    from types import SimpleNamespace

    from snl_tui.cli.host import _restore_options

    room = {
        "code": "ABCDEF",
        "options": {
            "password": Secret.of("pw").to_json(),
            "turn_time": 60.0,
            "late": "skip",
            "away_after": 120.0,
            "keep_seat": 30.0,
            "muted": ["bo"],
            "web": True,
            "web_port": 8123,
            "allow_origin": ["https://games.example.org"],
            "listen": "127.0.0.1",
            "port": 18765,
        },
    }
    saved = SimpleNamespace(id=7, data={"room": room})
    args = argparse.Namespace(
        host=None,
        port=None,
        turn_time=90.0,
        late=None,
        away_after=None,
        keep_seat=None,
        web=False,
        web_port=None,
        allow_origin=[],
        password=None,
    )
    said: list[str] = []
    _restore_options(args, saved, said.append)  # type: ignore[arg-type]
    assert (args.turn_time, args.late, args.away_after, args.keep_seat) == (90.0, "skip", 120, 30)
    assert args.web and args.web_port == 8123
    assert (args.host, args.port) == ("127.0.0.1", 18765)  # where the players look
    assert args.allow_origin == ["https://games.example.org"]
    assert said == ["--turn-time 90 replaces the room's saved --turn-time 60"]


async def test_a_resume_brings_back_no_stale_stand_in(tmp_path: Path) -> None:
    """The computer stood in for Bo (away too long); after a resume the seat waits for
    him again for --away-after, then the computer stands in again."""
    store = store_in(tmp_path)
    timers = Timers(away_after=0.2)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=timers)
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await ann.roll()
        await until(lambda: len(room.session.game.history) >= 1)
        await bo.close()
        await until(lambda: room.seats[1].standin and room.seats[1].idle)
        await server.saved()
        game_id = room.saver.game_id
        await close_all([ann])
    assert game_id is not None
    async with serving(store) as (server, port):
        again = server.resume_room(store.load_game(game_id))
        assert not again.seats[1].standin  # not stale: Bo has his chance first
        # serving() runs already: the room opened the away clocks as soon as it was made.
        await until(lambda: again.seats[1].standin)


async def test_the_hosts_browser_door_never_blocks_on_its_own_log() -> None:
    """The door logs every request: ``WebDoor`` reads its output as it comes (a pipe
    nobody read filled after about 1200 requests, and the door stopped answering)."""
    import sys

    from snl_tui.cli.web_door import WebDoor

    script = "import sys\nfor n in range(5000): print('GET /static/x', n, file=sys.stderr)"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    door = WebDoor(process, "http://127.0.0.1:1/join/ABCDEF")
    async with asyncio.timeout(WAIT):
        await process.wait()  # 5000 lines, far beyond a pipe's buffer: it did not block
    await door.close()
    assert door.said[-1] == "GET /static/x 4999"


def test_a_resumed_host_sits_where_the_host_sat_or_is_told_why_not() -> None:
    from types import SimpleNamespace

    from snl_tui.cli.host import _check_resumed_name
    from snl_tui.core.errors import SnlError
    from snl_tui.net.people import SeatState

    seats = [SeatState("Ann", False, True), SeatState("Bo", False, True)]
    hosted = SimpleNamespace(host_name="Ann", seats=seats)
    _check_resumed_name(hosted, "ANN")  # type: ignore[arg-type]
    with pytest.raises(SnlError, match="plays as Ann: --name Ann, or none"):
        _check_resumed_name(hosted, "Zed")  # type: ignore[arg-type]
    unseated = SimpleNamespace(host_name=None, seats=seats)
    _check_resumed_name(unseated, "Zed")  # type: ignore[arg-type]
    with pytest.raises(SnlError, match="Bo is a player's seat"):
        _check_resumed_name(unseated, "Bo")  # type: ignore[arg-type]


async def test_a_player_gone_in_their_own_turn_is_told_to_come_back_not_to_roll() -> None:
    """The turn's idle clock (``--away-after``) runs out for a player who left meanwhile:
    coming back gives them their seat, so that is what everyone is told."""
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=Timers(away_after=60))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await ann.close()  # Ann's turn, and Ann is gone before her idle clock runs out
        await until(lambda: room.seats[0].connection is None)
        assert room.clocks.idle_timer is not None
        room.clocks.idle_timer.cancel()
        room.clocks._idle_too_long(0, 0)  # as the clock would, without waiting a minute
        assert room.seats[0].standin
        said = [json.loads(frame)["message"] for frame in room.recent]
        assert any(
            "has not rolled for" in line and line.endswith("until they come back.") for line in said
        ), said
        await close_all([bo])


async def test_a_room_whose_game_was_won_reopens_for_another_game(tmp_path: Path) -> None:
    """A host who stops after a win reopens the room as it was left (the won game on
    every screen, ``n`` for another in the same seats), not "game 1 is won"."""
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await play_to_end(room, [ann, bo])
        await server.saved()
        game_id, code, tokens = room.saver.game_id, room.code, [ann.token, bo.token]
        await close_all([ann, bo])
    assert game_id is not None and store.load_game(game_id).status == "won"
    async with serving(store) as (server, port):
        again = server.resume_room(store.load_game(game_id))
        assert again.code == code and again.status == "over"
        ann, bo = await seated(port, again, ["Ann", "Bo"], tokens)
        assert (ann.seat, bo.seat) == (0, 1)
        await ann.again()
        await until(lambda: again.saver.game_id not in (None, game_id))
        assert not again.session.game.over
        await close_all([ann, bo])
    assert store.load_game(game_id).status == "won"  # the won game stays as it was
