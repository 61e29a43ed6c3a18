"""The dice are secret until rolled: nothing a room sends (welcome, seats, moves, states,
a new game, a watcher's view, a rejoin) lets a client know a die before its move."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.exceptions import ConnectionClosed

from snl_tui.core.engine import Game, Player
from snl_tui.core.session import GameSettings, game_seed
from snl_tui.net.protocol import decode_server, read_state

from .rooms import (
    CLASSIC,
    WAIT,
    close_all,
    join_frame,
    next_of,
    play_moves,
    play_to_end,
    raw,
    seated,
    serving,
    until,
)

PREFIX = 12
"""Rolls a candidate seed must reproduce to count as a prediction (6**-12: never by luck)."""


def _walk(value: Any) -> tuple[set[str], set[int]]:
    """Every key and every whole number anywhere in a decoded frame."""
    keys: set[str] = set()
    numbers: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif type(item) is int:
            numbers.add(item)
        elif isinstance(item, str) and item.isdigit() and len(item) < 30:
            numbers.add(int(item))
    return keys, numbers


def _predicts(seed: int, players: tuple[Player, ...], rolls: list[int]) -> bool:
    game = Game(CLASSIC, players, seed)
    return [game.roll_die() for _ in range(len(rolls))] == rolls


async def _collect(websocket: Any, frames: list[str]) -> None:
    """Every frame the websocket receives, until it closes."""
    with contextlib.suppress(ConnectionClosed):
        async for frame in websocket:
            frames.append(str(frame))


async def test_a_watcher_over_a_whole_game_cannot_predict_a_roll() -> None:
    frames: list[str] = []
    async with serving(None) as (server, port):
        # No --seed: the host draws the session's seed, as `snl host` does by default.
        players = (Player("A"), Player("B"), Player("CPU", True))
        room = server.open_room(GameSettings(CLASSIC, players, None))
        watcher = await raw(port)
        await watcher.send(join_frame(room, "Eve", spectate=True))
        reading = asyncio.create_task(_collect(watcher, frames))
        await until(lambda: bool(frames))  # the welcome
        clients = await seated(port, room, ["Ann", "Bob"])
        await play_to_end(room, clients)
        first_game = list(room.session.game.rolls)
        # Another game in the same seats (a "game" frame) and a few moves of it.
        assert await clients[0].again()
        await until(lambda: room.session.game_index == 1)
        await play_moves(room, clients, 16)  # no one can finish in 6 rolls
        second_game = list(room.session.game.rolls)
        # A seat comes back (a new welcome), and the watcher asks for the state.
        token = clients[1].token
        await clients[1].close()
        back = await raw(port)
        await back.send(join_frame(room, "Bob", token=token))
        await next_of(back, "welcome")
        await watcher.send(json.dumps({"type": "sync"}))
        await until(lambda: json.loads(frames[-1])["type"] == "state")
        await watcher.close()
        await back.close()
        await asyncio.wait_for(reading, WAIT)
        await close_all(clients)
        host = room.session
    assert len(first_game) >= PREFIX and len(second_game) >= PREFIX
    kinds = {json.loads(frame)["type"] for frame in frames}
    assert kinds >= {"welcome", "seats", "state", "move", "game"}
    assert len(frames) > len(first_game)
    keys: set[str] = set()
    numbers: set[int] = set()
    for frame in frames:
        message = decode_server(frame)  # every frame is well formed...
        if "state" in message:
            read_state(message["state"])  # ...and its state reads back on a client
        found_keys, found_numbers = _walk(message)
        keys |= found_keys
        numbers |= found_numbers
    assert not {key for key in keys if "seed" in key or "random" in key or "rng" in key}
    hidden = {host.base_seed, game_seed(host.base_seed, 1)}
    assert not hidden & numbers
    # No number the watcher saw replays either game's dice, as a session's seed or as a
    # game's seed.
    for number in numbers:
        for index, rolls in ((0, first_game), (1, second_game)):
            ahead = rolls[:PREFIX]
            assert not _predicts(game_seed(number, index), host.game.players, ahead)
            assert not _predicts(number, host.game.players, ahead)
