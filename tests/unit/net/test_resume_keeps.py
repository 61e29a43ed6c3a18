"""Issue 41 (seats3): a resume keeps what the room was doing: the seconds each clock had
left, the watchers muted by address, and the words an old token of a seat given away
gets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from snl_tui.net import room_clocks
from snl_tui.net.client import RoomClient
from snl_tui.net.room_clocks import MIN_LEFT, SavedClocks, _resumed
from snl_tui.net.server import Timers

from .rooms import (
    FAST_BACKOFF,
    WAIT,
    FakeClock,
    address,
    close_all,
    seated,
    serving,
    settings,
    store_in,
    until,
)


@pytest.mark.parametrize(
    ("left", "limit", "given"),
    [
        (12.0, 30.0, 12.0),
        (None, 30.0, 30.0),
        (0.0, 30.0, MIN_LEFT),
        (50.0, 30.0, 30.0),
        (0.5, 4.0, 4.0),
    ],
)
def test_a_resumed_clock_has_what_was_left_and_a_moment_at_least(
    left: float | None, limit: float, given: float
) -> None:
    assert _resumed(left, limit) == given


@pytest.mark.parametrize(
    "damaged",
    [[], {"turn": [0, 0]}, {"turn": [5, 0, 0]}, {"turn_left": -1}, {"away": {"x": 1}}],
)
def test_damaged_clocks_are_refused(damaged: object) -> None:
    with pytest.raises(ValueError, match="damaged"):
        SavedClocks.from_json(damaged, 2)


async def test_a_resumed_turn_and_away_clock_go_on_with_the_time_that_was_left(
    tmp_path: Path,
) -> None:
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=Timers(30, "roll", 60))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        tokens = [ann.token, bo.token]
        await bo.close()
        await until(lambda: 1 in room.clocks.away_deadlines)
        # As if Ann had thought for 18 seconds and Bo had been gone for 50.
        room.clocks.deadline = (room.clocks.deadline or 0) - 18
        room.clocks.away_deadlines[1] -= 50
        game_id = room.saver.game_id
        await close_all([ann])
    # A clean stop saved what was left (a kill -9 leaves the last save: next test).
    assert game_id is not None
    saved = store.load_game(game_id)
    clocks = saved.data["room"]["clocks"]
    assert clocks["turn"] == [0, 0, 0]
    assert 11 <= clocks["turn_left"] <= 12 and 9 <= clocks["away"]["1"] <= 10
    async with serving(store) as (server, port):
        before = asyncio.get_running_loop().time()
        again = server.resume_room(saved)
        await until(lambda: 1 in again.clocks.away_deadlines)
        assert before + clocks["away"]["1"] <= again.clocks.away_deadlines[1]
        assert again.clocks.away_deadlines[1] <= asyncio.get_running_loop().time() + 10
        # Ann was here: her away clock is a whole one.
        assert again.clocks.away_deadlines[0] >= before + 60
        before = asyncio.get_running_loop().time()
        (ann,) = await seated(port, again, ["Ann"], tokens[:1])
        deadline = again.clocks.deadline
        assert deadline is not None
        assert before + clocks["turn_left"] <= deadline <= before + 12 + WAIT
        assert deadline < before + 30  # not a whole turn again
        await close_all([ann])


async def test_a_host_killed_mid_turn_resumes_with_the_last_saved_time_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a clock runs the room is saved every ``SAVE_EVERY`` seconds: what a kill -9
    leaves has less than the whole turn."""
    monkeypatch.setattr(room_clocks, "SAVE_EVERY", 0.02)
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), timers=Timers(turn_time=30))
        ann, bo = await seated(port, room, ["Ann", "Bo"])

        def left() -> float:
            game_id = room.saver.game_id
            if game_id is None:  # not written yet (a loaded machine)
                return 30.0
            return float(store.load_game(game_id).data["room"]["clocks"]["turn_left"] or 30)

        await until(lambda: left() < 30)
        await close_all([ann, bo])


async def test_a_resume_keeps_muted_addresses_and_tells_an_old_token_why(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]), host_name="Ann")
        ann = RoomClient(address(port, room), "Ann", host_key=room.host_key, backoff=FAST_BACKOFF)
        ann.start()
        await ann.wait_for(lambda: ann.seat == 0, WAIT)
        (bo,) = await seated(port, room, ["Bo"])
        old = bo.token
        await bo.close()
        await until(lambda: room.seats[1].connection is None)
        room.hand_over(1)
        eve = RoomClient(address(port, room), "Eve", spectate=True, backoff=FAST_BACKOFF)
        eve.start()
        await eve.wait_for(lambda: eve.role == "spectator", WAIT)
        await ann.mute("Eve")
        await until(lambda: "127.0.0.1" in room.muted_addresses)
        game_id = room.saver.game_id
        await close_all([ann, eve])
    assert game_id is not None
    async with serving(store) as (server, port):
        again = server.resume_room(store.load_game(game_id))
        back = RoomClient(address(port, again), "Bo", token=old, backoff=FAST_BACKOFF)
        back.start()
        await back.wait_for(lambda: back.last_refusal is not None, WAIT)
        assert back.last_refusal is not None
        assert back.last_refusal.code == "seat-given-away"
        assert "the host handed your seat (Bo) over" in str(back.last_refusal)
        await back.close()
        mallory = RoomClient(address(port, again), "Mallory", spectate=True, backoff=FAST_BACKOFF)
        mallory.start()
        await mallory.wait_for(lambda: mallory.role == "spectator", WAIT)
        await mallory.chat("hello")
        await mallory.wait_for(lambda: mallory.last_error is not None, WAIT)
        assert "muted" in (mallory.last_error or "")
        await close_all([mallory])


async def test_a_room_with_no_moves_is_listed_as_such_and_not_offered_as_a_game(
    tmp_path: Path,
) -> None:
    from snl_tui.core.store.records import NO_MOVES

    store = store_in(tmp_path)
    async with serving(store) as (server, _):
        room = server.open_room(settings(["Ann", "Bo"]))
        await until(lambda: room.saver.game_id is not None)
        game_id = room.saver.game_id
    assert game_id is not None
    (listed,) = store.list_games().games
    assert listed.status_text == NO_MOVES == "room, no moves yet"
    assert store.unfinished() == [] and store.last_unfinished() is None
    async with serving(store) as (server, _):  # and snl host --resume reopens it
        assert server.resume_room(store.load_game(game_id)).code == room.code


async def test_the_host_is_told_the_resume_command_as_the_room_opens(tmp_path: Path) -> None:
    """Said when the room opens, not only on a clean close: a host killed with kill -9
    has it on the screen already."""
    from snl_tui.cli.host import _resume_line

    store = store_in(tmp_path)
    async with serving(store) as (server, _):
        room = server.open_room(settings(["Ann", "Bo"]))
        line = await _resume_line(server, room)
        assert line == f"if the room stops, snl host --resume {room.saver.game_id} reopens it"
    async with serving(None) as (server, _):  # --no-save: nothing to say
        assert await _resume_line(server, server.open_room(settings(["Ann", "Bo"]))) == ""


async def test_a_resume_shows_the_true_time_away_and_keeps_the_whole_wait_for_the_seat(
    tmp_path: Path,
) -> None:
    """The players panel's "away" goes on from what was saved (not from the resume);
    the wait before someone may take the seat by name starts anew at the resume."""
    store, clock = store_in(tmp_path), FakeClock()
    async with serving(store, clock=clock, keep_seat=100) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        ann, bo = await seated(port, room, ["Ann", "Bo"])
        await bo.close()
        await until(lambda: room.seats[1].connection is None)
        clock.now += 90
        assert room.seat_infos()[1].away == 90
        game_id = room.saver.game_id
        await close_all([ann])
    assert game_id is not None  # the host's stop saved how long Bo had been away
    assert store.load_game(game_id).data["room"]["seats"][1]["away"] == 90
    clock.now += 3600  # the host is down for an hour: not time away at this table
    async with serving(store, clock=clock, keep_seat=100) as (server, port):
        again = server.resume_room(store.load_game(game_id))
        clock.now += 5
        assert again.seat_infos()[1].away == 95
        taker = RoomClient(address(port, again), "Bo", backoff=FAST_BACKOFF)
        taker.start()
        await taker.wait_for(lambda: taker.last_refusal is not None, WAIT)
        assert taker.last_refusal is not None and taker.last_refusal.code == "seat-kept"
        assert "95 more seconds" in str(taker.last_refusal)
        await taker.close()
        (bo,) = await seated(port, again, ["Bo"], [bo.token])
        assert again.seat_infos()[1].away is None
        await bo.close()
        await until(lambda: again.seats[1].connection is None)
        clock.now += 2
        assert again.seat_infos()[1].away == 2  # away anew: the old time is gone


async def test_a_host_that_stops_does_not_say_its_people_quit() -> None:
    """Stopping closes every connection: that is not Ann or Bo quitting (the host's
    log said "Ann quit: the seat is kept for them." for each, and a clock started)."""
    lines: list[str] = []
    async with serving(None, log=lines.append) as (server, port):
        room = server.open_room(settings(["Ann", "Bo"]))
        clients = await seated(port, room, ["Ann", "Bo"])
    await close_all(clients)
    assert not [line for line in lines if "quit" in line or "lost the connection" in line]
    assert not room.clocks.away_timers and all(s.connection is None for s in room.seats)
