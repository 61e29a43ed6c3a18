"""Rooms end to end in one process: a real server on a loopback port, real websocket
clients. Games played to the end by 2-4 clients, seats and tokens, rejoining, refusals,
the host's dice, saving and resuming."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.session import GameSession
from snl_tui.core.store.saving import last_resumable, resumable_games
from snl_tui.net.client import RoomClient
from snl_tui.net.protocol import CLOSE_POLICY, MAX_STRIKES, PROTOCOL_VERSION, encode
from snl_tui.net.server import Limits, Room

from .rooms import (
    FAST_BACKOFF,
    WAIT,
    FakeClock,
    address,
    close_all,
    closed,
    cut,
    join_frame,
    next_of,
    play_moves,
    play_to_end,
    raw,
    reference_rolls,
    seated,
    serving,
    settings,
    store_in,
    until,
)


@pytest.mark.parametrize(
    "players",
    [
        ["Seat 1", "Seat 2"],
        ["Seat 1", "cpu", "Seat 3"],
        ["Seat 1", "Seat 2", "Seat 3", "Seat 4"],
    ],
)
async def test_clients_play_a_game_to_the_end(tmp_path: Path, players: list[str]) -> None:
    store = store_in(tmp_path)
    people = [f"P{i}" for i, name in enumerate(players) if name != "cpu"]
    async with serving(store) as (server, port):
        room = server.open_room(settings(players, seed=11))
        clients = await seated(port, room, people)
        # Seats are taken in join order: the first to join sits first and moves first.
        assert [client.seat for client in clients] == [
            i for i, name in enumerate(players) if name != "cpu"
        ]
        await play_to_end(room, clients)
        host_game = room.session.game
        for client in clients:
            assert client.session is not None
            assert client.session.game.rolls == host_game.rolls
            assert client.session.game.positions == host_game.positions
            assert client.session.game.winner == host_game.winner
            assert client.status == "over"
        # The host's dice are the session's seeded RNG: nobody chose one.
        assert host_game.rolls == reference_rolls(host_game.players, 11, len(host_game.history))
        await close_all(clients)
    listing = store.list_games()
    assert [game.status for game in listing.games] == ["won"]
    saved = store.load_game(listing.games[0].id)
    assert saved.players == tuple(people if "cpu" not in players else ["P0", "CPU", "P2"])
    replayed = GameSession.from_dict(saved.data)
    assert replayed.game.rolls == host_game.rolls


async def test_each_client_drives_its_own_seat_and_sees_others_as_remote() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B", "cpu"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        assert ann.session is not None and bob.session is not None
        # The computer's seat is the host's to move: remote to both clients.
        assert [seat.driver.value for seat in ann.session.seats()] == [
            "local",
            "remote",
            "remote",
        ]
        assert [seat.driver.value for seat in bob.session.seats()] == [
            "remote",
            "local",
            "remote",
        ]
        host_drivers = [seat.driver.value for seat in room.session.seats()]
        assert host_drivers == ["remote", "remote", "computer"]
        assert [seat.name for seat in ann.seats] == ["Ann", "Bob", "CPU"]
        await close_all([ann, bob])


async def test_nobody_rolls_out_of_turn_for_another_seat_or_chooses_a_die() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        assert ann.my_turn and not bob.my_turn
        assert bob.token is not None and ann.token is not None
        # Bob rolls on Ann's turn: refused, nothing moves.
        await bob.roll()
        await bob.wait_for(lambda: bob.last_error is not None, WAIT)
        assert "Ann's turn" in (bob.last_error or "")
        # A hostile connection: rolls with Ann's token over Bob's seat, a die of its own.
        sneaky = await raw(port)
        await sneaky.send(join_frame(room, "Bob", token=bob.token))
        welcome = await next_of(sneaky, "welcome")
        assert welcome["seat"] == 1  # Bob's seat, taken over with Bob's token
        await sneaky.send(encode("roll", token=ann.token))
        assert (await next_of(sneaky, "error"))["code"] == "wrong-token"
        await sneaky.send(json.dumps({"type": "roll", "token": welcome["token"], "die": 6}))
        assert (await next_of(sneaky, "error"))["code"] == "malformed"
        await sneaky.send(encode("roll", token=welcome["token"]))
        assert (await next_of(sneaky, "error"))["code"] == "not-your-turn"
        assert room.session.game.history == []
        await sneaky.close()
        await close_all([ann, bob])


async def test_a_spectator_watches_and_cannot_roll() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        players = await seated(port, room, ["Ann", "Bob"])
        watcher = RoomClient(address(port, room), "Cy", backoff=FAST_BACKOFF)
        watcher.start()
        await watcher.wait_for(lambda: watcher.role == "spectator", WAIT)
        assert watcher.seat is None and watcher.token is None
        assert "watching" in (watcher.notice or "")
        assert not await watcher.roll()  # no token: the client does not even ask
        sneaky = await raw(port)
        await sneaky.send(join_frame(room, "Dee", spectate=True))
        await next_of(sneaky, "welcome")
        await sneaky.send(encode("roll", token="x" * 24))
        assert (await next_of(sneaky, "error"))["code"] == "not-seated"
        # Closed now: a socket left unread while the game plays stops reading at its
        # queue's limit and would wait out the close handshake's 10 s.
        await sneaky.close()
        await play_to_end(room, players)
        await watcher.wait_for(
            lambda: watcher.session is not None and watcher.session.game.over, WAIT
        )
        await close_all([*players, watcher])


async def test_no_move_before_every_seat_is_taken() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        (ann,) = await seated(port, room, ["Ann"])
        assert ann.status == "waiting" and not ann.my_turn
        ws = await raw(port)
        await ws.send(join_frame(room, "Ann2"))
        await next_of(ws, "welcome")
        await ann.wait_for(lambda: ann.status == "playing", WAIT)
        await ws.close()
        await ann.close()


async def test_a_name_given_in_players_keeps_its_seat() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Ann", "Bob"]))
        bob, cy = await seated(port, room, ["bob", "Cy"])
        assert (bob.seat, cy.seat) == (1, 0)
        assert [seat.name for seat in cy.seats] == ["Cy", "bob"]
        await close_all([bob, cy])


async def test_a_killed_clients_seat_waits_for_its_token_then_for_its_name(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with serving(store_in(tmp_path), clock=clock, keep_seat=60) as (server, port):
        room = server.open_room(settings(["A", "B", "C"]))
        ann, bob, cy = await seated(port, room, ["Ann", "Bob", "Cy"])
        await play_moves(room, [ann, bob, cy], 7)  # a few moves
        # kill -9 of Bob's process: the socket is cut without a close frame, the client
        # is gone.
        token = bob.token
        cut(bob)
        bob_task = bob.start()
        bob_task.cancel()
        await asyncio.gather(bob_task, return_exceptions=True)
        await ann.wait_for(lambda: not ann.seats[1].connected, WAIT)
        # A stranger calling himself Bob does not get Bob's seat...
        stranger = await raw(port)
        await stranger.send(join_frame(room, "bob"))
        refused = await next_of(stranger, "refused")
        assert refused["code"] == "seat-kept"
        assert refused["message"] == (
            "Bob's seat is kept for its player for 60 more seconds (they come back with "
            "their token): wait, choose another name or watch"
        )
        # ...Bob's token does, at once: the game as it is, log included.
        again = RoomClient(address(port, room), "Bob", token=token, backoff=FAST_BACKOFF)
        again.start()
        await again.wait_for(lambda: again.seat == 1, WAIT)
        assert again.session is not None
        assert again.session.game.rolls == room.session.game.rolls
        assert again.notice == "You are back in your seat."
        await ann.wait_for(lambda: ann.seats[1].connected, WAIT)
        # Gone again, and away longer than the host keeps a seat: the name takes it.
        token = again.token
        await again.close()
        await ann.wait_for(lambda: not ann.seats[1].connected, WAIT)
        clock.now += 59
        assert (await _join_refusal(port, room, "Bob")) == "seat-kept"
        clock.now += 1
        bob = RoomClient(address(port, room), "Bob", backoff=FAST_BACKOFF)
        bob.start()
        await bob.wait_for(lambda: bob.seat == 1, WAIT)
        assert "Welcome back" in (bob.notice or "")
        # The old token no longer holds the seat, and its holder is told why.
        old = RoomClient(address(port, room), "Bob", token=token, backoff=FAST_BACKOFF)
        old.start()
        await old.wait_for(lambda: old.refused is not None, WAIT)
        assert (
            str(old.refused) == "your seat (Bob) was taken by name after it was free for 60 seconds"
        )
        await play_to_end(room, [ann, bob, cy])
        await close_all([ann, bob, cy, old])


async def test_the_host_hands_a_seat_over_and_its_holder_is_told() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        token = bob.token
        room.hand_over(1)
        await bob.wait_for(lambda: bob.refused is not None, WAIT)
        assert bob.refused is not None and bob.refused.code == "seat-given-away"
        assert str(bob.refused) == "the host handed your seat (Bob) over"
        newcomer = (await seated(port, room, ["Bob"]))[0]  # by name, at once
        assert newcomer.seat == 1
        assert (await _join_refusal(port, room, "Bob", token=token)) == "seat-given-away"
        await close_all([ann, bob, newcomer])


async def _join_refusal(port: int, room: Room, name: str, **fields: object) -> object:
    websocket = await raw(port)
    await websocket.send(join_frame(room, name, **fields))
    refused = await next_of(websocket, "refused")
    await websocket.close()
    return refused["code"]


async def test_a_dropped_connection_reconnects_by_itself_with_its_token() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        await ann.roll()
        await bob.wait_for(lambda: bob.my_turn, WAIT)
        old_token = bob.token
        # The network drops under Bob: the transport is cut, the client lives on.
        cut(bob)
        await bob.wait_for(lambda: bob.connections == 2 and bob.connected, WAIT)
        assert bob.seat == 1 and bob.token != old_token  # a new token for the new connection
        assert bob.my_turn
        await play_to_end(room, [ann, bob])
        await close_all([ann, bob])


async def test_a_new_connection_with_the_token_takes_the_seat_from_a_stale_one() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        # Bob's connection looks alive to the host (half-open, say); Bob comes back from
        # another process with his token: the new connection gets the seat.
        second = RoomClient(address(port, room), "Bob", token=bob.token, backoff=FAST_BACKOFF)
        second.start()
        await second.wait_for(lambda: second.seat == 1 and second.connected, WAIT)
        await until(lambda: room.seats[1].connection is not None and len(room.connections()) == 2)
        # The old connection is told why and stops: the same person's second tab or
        # terminal has the seat, and the two never take it from each other again.
        await bob.wait_for(lambda: bob.refused is not None, WAIT)
        assert bob.refused is not None and bob.refused.code == "seat-elsewhere"
        assert "(Bob) is now played from another window or terminal" in str(bob.refused)
        await asyncio.wait_for(bob.start(), WAIT)  # its task ends: no reconnecting after it
        assert not bob.connected and bob.connections == 1
        assert second.seat == 1 and second.connected and second.connections == 1
        await second.roll() if second.my_turn else await ann.roll()
        await close_all([ann, bob, second])


async def test_refusals_are_one_clear_reason_and_a_close() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]), password="s3cret")
        cases = [
            (join_frame(room, "Ann", password="nope"), "wrong-password"),
            (join_frame(room, "Ann"), "password-needed"),
            (
                encode(
                    "join", version=PROTOCOL_VERSION, room="ZZZZZZ", name="Ann", password="s3cret"
                ),
                "no-room",
            ),
            (join_frame(room, "Ann", password="s3cret", token="forged-token"), "wrong-token"),
            (join_frame(room, "cpu", password="s3cret"), "bad-name"),
            (
                encode("join", version=99, room=room.code, name="A", password="s3cret"),
                "bad-version",
            ),
            (encode("sync"), "join-first"),
            ("garbage", "malformed"),
        ]
        for frame, code in cases:
            websocket = await raw(port)
            await websocket.send(frame)
            refused = await next_of(websocket, "refused")
            assert refused["code"] == code, frame
            close_code, reason = await closed(websocket)
            assert close_code == CLOSE_POLICY and reason
        client = RoomClient(address(port, room), "Ann", password="wrong", backoff=FAST_BACKOFF)
        task = client.start()
        await asyncio.wait_for(task, WAIT)  # a final refusal: no reconnecting
        assert client.refused is not None and client.refused.code == "wrong-password"
        good = RoomClient(address(port, room), "Ann", password="s3cret", backoff=FAST_BACKOFF)
        good.start()
        await good.wait_for(lambda: good.seat == 0, WAIT)
        await good.close()


async def test_a_name_in_use_is_refused() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        (ann,) = await seated(port, room, ["Ann"])
        websocket = await raw(port)
        await websocket.send(join_frame(room, "ANN"))
        assert (await next_of(websocket, "refused"))["code"] == "name-taken"
        await ann.close()


async def test_repeated_bad_frames_close_the_connection_with_a_reason() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Zed", spectate=True))
        await next_of(websocket, "welcome")
        for _ in range(MAX_STRIKES):
            await websocket.send('{"type": "fly"}')
        assert (await next_of(websocket, "error"))["code"] == "unknown-type"
        close_code, reason = await closed(websocket)
        assert close_code == CLOSE_POLICY and "too many bad messages" in (reason or "")


async def test_a_flood_is_rate_limited_and_closed() -> None:
    async with serving(None, Limits()) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Zed", spectate=True))
        await next_of(websocket, "welcome")
        for _ in range(200):
            await websocket.send(encode("sync"))
        assert (await next_of(websocket, "error"))["code"] == "rate-limited"
        close_code, reason = await closed(websocket)
        assert close_code == CLOSE_POLICY and "rate-limited" in (reason or "")


async def test_a_frame_over_64_kb_closes_the_connection() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        websocket = await raw(port)
        await websocket.send(join_frame(room, "Zed", spectate=True))
        await next_of(websocket, "welcome")
        await websocket.send("x" * (70 * 1024))
        close_code, _ = await closed(websocket)
        assert close_code == 1009  # message too big


async def test_everyone_sees_the_names_of_those_who_take_free_seats() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(settings(["Player 1", "Player 2", "cpu"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        names = ["Ann", "Bob", "CPU"]
        for client in (ann, bob):
            await client.wait_for(
                lambda c=client: (
                    c.session is not None and [p.name for p in c.session.game.players] == names
                ),
                WAIT,
            )
        assert [p.name for p in room.session.game.players] == names
        await close_all([ann, bob])


async def test_the_host_stops_and_resume_reopens_the_room(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["A", "cpu", "B"], seed=3))
        code = room.code
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        # A few moves, then a person to move with nothing on its way (the computer's
        # seat could otherwise move after the dice below are read).
        await play_moves(room, [ann, bob], 5)
        assert not room.session.game.over
        rolls = room.session.game.rolls
        await server.saved()  # the writer thread has written every save
        game_id = room.saver.game_id
        assert game_id is not None
    # The host is gone: the clients keep trying. A new host resumes the saved room.
    await ann.wait_for(lambda: not ann.connected, WAIT)
    saved = store.load_game(game_id)
    assert saved.status == "playing"
    # Unfinished, but a room's: `snl` does not offer it to continue alone here.
    assert [g.id for g in store.unfinished(10)] == [game_id]
    assert last_resumable(store) is None and resumable_games(store) == []
    async with serving(store) as (server, new_port):
        resumed = server.resume_room(saved)
        assert resumed.code == code
        assert resumed.session.game.rolls == rolls
        assert [seat.name for seat in resumed.seats] == ["Ann", "CPU", "Bob"]
        # On a new port here; with `snl host --resume` the same address is used again
        # and the clients find it by themselves (tests/unit/net/test_host_command.py).
        await close_all([ann, bob])
        # Their seats wait for their tokens (a terminal keeps its token as it reconnects).
        ann2, bob2 = await seated(new_port, resumed, ["Ann", "Bob"], [ann.token, bob.token])
        assert (ann2.seat, bob2.seat) == (0, 2)
        assert ann2.session is not None and ann2.session.game.rolls == rolls
        await play_to_end(resumed, [ann2, bob2])
        await close_all([ann2, bob2])
    games = store.list_games().games
    assert [(g.id, g.status) for g in games] == [(game_id, "won")]


async def test_a_new_game_in_the_same_seats_once_over(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["A", "B"], seed=5))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        await ann.again()
        await ann.wait_for(lambda: ann.last_error == "The game is not over yet.", WAIT)
        await play_to_end(room, [ann, bob])
        first = room.session.game.rolls
        await bob.again()
        await ann.wait_for(lambda: ann.session is not None and not ann.session.game.history, WAIT)
        await play_to_end(room, [ann, bob])
        assert room.session.game.rolls != first
        await close_all([ann, bob])
    assert [g.status for g in store.list_games().games] == ["won", "won"]


async def test_rooms_are_separate() -> None:
    async with serving(None) as (server, port):
        one = server.open_room(settings(["A", "B"]))
        two = server.open_room(settings(["A", "B"]))
        assert one.code != two.code
        first = await seated(port, one, ["Ann", "Bob"])
        second = await seated(port, two, ["Ann", "Bob"])  # the same names, another room
        await play_to_end(one, first)
        assert two.session.game.history == []
        await close_all([*first, *second])


def test_a_resumed_game_that_was_no_room_is_refused(tmp_path: Path) -> None:
    from snl_tui.core.errors import SnlError
    from snl_tui.net.server import RoomServer

    store = store_in(tmp_path)
    session = GameSession(settings(["Ann", "cpu"]))
    session.move()
    game_id = store.save_game(
        None,
        board=session.board,
        players=["Ann", "CPU"],
        mode="classic",
        data=session.to_dict(),
    )
    assert game_id is not None
    with pytest.raises(SnlError, match="not a room's game"):
        RoomServer(store).resume_room(store.load_game(game_id))
    assert Player("Ann") in session.settings.players


async def test_a_new_seat_token_is_saved_before_the_next_move(tmp_path: Path) -> None:
    """A host killed between someone's return and the next move, then --resumed, knows
    their new token (the old one would be refused, the name kept waiting)."""
    from snl_tui.net.server import token_hash

    store = store_in(tmp_path)
    async with serving(store) as (server, port):
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        await play_moves(room, [ann, bob], 2)
        old = bob.token
        cut(bob)  # the network drops: Bob's client comes back with a new token
        await bob.wait_for(lambda: bob.connected and bob.token != old, WAIT)
        assert bob.token is not None
        await server.saved()
        saved = store.load_game(room.saver.game_id or 0)
        assert saved.data["room"]["seats"][1]["token_sha256"] == token_hash(bob.token)
        await close_all([ann, bob])
