"""Fuzzing the room server: while two players play a game, hostile connections throw
generated frames (text, binary, JSON of any shape, messages with wrong fields, frames over
the cap) and raw bytes at it. The game still ends, with exactly the host's seeded dice;
the server still takes a new player afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from snl_tui.net.client import RoomClient
from snl_tui.net.protocol import CLIENT_MESSAGES, MAX_FRAME

from . import rooms

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=15,
)
messages = st.builds(
    lambda kind, fields: json.dumps({"type": kind, **fields}),
    st.sampled_from([*CLIENT_MESSAGES, "move", "welcome", "", "ROLL"]),
    st.dictionaries(
        st.sampled_from(["version", "room", "name", "token", "password", "spectate", "die"]),
        json_values,
        max_size=5,
    ),
)
frames = st.one_of(
    messages,
    st.text(max_size=200),
    st.binary(max_size=200),
    json_values.map(json.dumps),
    st.just("x" * (MAX_FRAME + 1)),
    st.tuples(st.just("raw"), st.binary(min_size=1, max_size=300)),  # bytes on a bare socket
)


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(attack=st.lists(frames, min_size=5, max_size=40), seed=st.integers(0, 2**32))
def test_hostile_frames_do_not_stop_the_game(attack: list[object], seed: int) -> None:
    asyncio.run(_game_under_attack(attack, seed))


async def _game_under_attack(attack: list[object], seed: int) -> None:
    async with rooms.serving(None) as (server, port):
        room = server.open_room(rooms.settings(["A", "B"], seed=seed))
        players = await rooms.seated(port, room, ["Ann", "Bob"])
        game = asyncio.create_task(rooms.play_to_end(room, players))
        await _attack(port, room, attack)
        await asyncio.wait_for(game, rooms.WAIT * 3)
        history = room.session.game.history
        assert room.session.game.over
        assert room.session.game.rolls == rooms.reference_rolls(
            room.session.game.players, seed, len(history)
        )
        # The server still serves: a newcomer is welcomed (as a spectator: seats are full).
        late = RoomClient(rooms.address(port, room), "Late", backoff=rooms.FAST_BACKOFF)
        late.start()
        await late.wait_for(lambda: late.role == "spectator", rooms.WAIT)
        await rooms.close_all([*players, late])


async def _attack(port: int, room: object, attack: list[object]) -> None:
    """Throw every frame: half on a connection that joined as a spectator first, half on
    one that did not; a closed connection is replaced by a new one."""
    from snl_tui.net.server import Room

    assert isinstance(room, Room)
    joined = None
    bare = None
    for number, frame in enumerate(attack):
        if isinstance(frame, tuple):
            await _raw_bytes(port, frame[1])
            continue
        try:
            if number % 2:
                if joined is None:
                    joined = await rooms.raw(port)
                    await joined.send(rooms.join_frame(room, f"Fuzz{number}", spectate=True))
                await joined.send(frame)  # type: ignore[arg-type]
            else:
                if bare is None:
                    bare = await rooms.raw(port)
                await bare.send(frame)  # type: ignore[arg-type]
        except ConnectionClosed:
            joined = None if number % 2 else joined
            bare = bare if number % 2 else None
    for websocket in (joined, bare):
        if websocket is not None:
            with contextlib.suppress(ConnectionClosed):
                await websocket.close()


async def _raw_bytes(port: int, data: bytes) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    with contextlib.suppress(ConnectionError):
        await writer.drain()
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()
