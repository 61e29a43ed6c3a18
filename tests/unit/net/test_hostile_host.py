"""What a hostile host cannot do to ``snl join``: write to the player's terminal through
names, notices, errors or refusals (everything is escaped once, as it arrives)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from snl_tui.core.engine import Game, Player
from snl_tui.core.errors import SnlError
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import open_store
from snl_tui.core.store.saving import GameSaver
from snl_tui.core.text import is_unsafe_char
from snl_tui.net.client import RoomClient
from snl_tui.net.protocol import MAX_HISTORY, encode
from snl_tui.screens.resume import describe

from .hostile_host import ESCAPES, endless_state, hostile_host, hostile_state, welcome
from .rooms import CLASSIC, FAST_BACKOFF, WAIT


def _safe(text: str | None) -> bool:
    return text is None or not any(is_unsafe_char(char) for char in text)


async def test_a_hostile_hosts_texts_arrive_escaped() -> None:
    names = [f"Ann{ESCAPES}", f"{ESCAPES}Bob"]
    said: list[str | None] = []

    async def script(websocket: Any) -> None:
        await websocket.send(welcome(hostile_state(names), notice=f"hi{ESCAPES}\nthere"))
        await websocket.send(encode("seats", status="playing", seats=hostile_state(names)["seats"]))
        await websocket.send(encode("error", code="x", message=f"no{ESCAPES}"))
        await websocket.send(encode("refused", code=f"c{ESCAPES}", message=f"go{ESCAPES}"))

    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann", backoff=FAST_BACKOFF)
        client.listener = lambda event: said.append(event.message)
        client.start()
        await client.wait_for(lambda: client.last_refusal is not None, WAIT)
        await client.close()
    session = client.session
    assert session is not None
    shown = [
        *(player.name for player in session.game.players),
        *(player.name for player in session.settings.players),
        *(seat.name for seat in client.seats),
        client.notice,
        client.last_error,
        str(client.last_refusal),
        *said,
    ]
    assert all(_safe(text) for text in shown), [t for t in shown if not _safe(t)]
    # Escaped, not dropped: the player sees what the host sent.
    assert session.game.players[0].name.startswith("Ann\\x1b]0;pwned\\x07")
    assert client.seats[1].name.endswith("Bob")


def test_a_tampered_saved_game_reads_back_with_its_names_escaped() -> None:
    """``snl replay`` and ``snl resume`` (and the resume offer) read a saved game through
    ``GameSession.from_dict``: a name edited into the store cannot drive the terminal."""
    session = GameSession(GameSettings(CLASSIC, (Player("Ann"), Player("Bob")), 5))
    for _ in range(6):
        session.move()
    data = session.to_dict()
    for players in (data["players"], data["game"]["players"]):
        players[0]["name"] = f"Ann{ESCAPES}"
    back = GameSession.from_dict(data)
    assert all(_safe(p.name) for p in (*back.settings.players, *back.game.players))
    assert back.game.players[0].name == back.settings.players[0].name
    assert back.game.rolls == session.game.rolls  # the same game, names aside
    game = Game.from_dict(CLASSIC, data["game"])
    assert all(_safe(player.name) for player in game.players)


def test_a_store_edited_to_hold_escapes_shows_them_escaped(tmp_path: Path) -> None:
    """The resume offer, ``snl games`` and ``snl replay``/``resume`` read names from the
    store's row and its data: an edited store is shown, never obeyed."""
    store = open_store(tmp_path / "games.db")
    session = GameSession(GameSettings(CLASSIC, (Player("Ann"), Player("Bob")), 5))
    saver = GameSaver(store)
    for _ in range(4):
        session.move()
        saver.moved(session)
    data = session.to_dict()
    for players in (data["players"], data["game"]["players"]):
        players[1]["name"] = f"Bob{ESCAPES}"
    store.close()
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute(
            "UPDATE games SET players = ?, data = ?",
            (json.dumps(["Ann", f"Bob{ESCAPES}"]), json.dumps(data)),
        )
    db.close()
    with open_store(tmp_path / "games.db") as store:
        saved = store.load_game(saver.game_id or 0)
        listed = store.list_games().games
    assert all(_safe(name) for name in (*saved.players, *listed[0].players))
    assert all(_safe(line) for line in describe(saved))
    back = GameSession.from_dict(saved.data)
    assert all(_safe(player.name) for player in back.game.players)


async def _welcomed_or_refused(state: dict[str, Any]) -> RoomClient:
    async def script(websocket: Any) -> None:
        await websocket.send(welcome(state))

    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann", backoff=FAST_BACKOFF)
        client.start()
        await client.wait_for(lambda: client.role is not None or client.last_error, WAIT)
        await client.close()
    return client


@pytest.mark.parametrize(
    ("state", "said"),
    [
        # 300,000 rolls (0.6 MB): replaying them froze snl join for 45 s.
        (lambda: endless_state(300_000), "the game is longer than a room plays (10000 rolls)"),
        # A 1000 x 1000 board: 790 MB and 40 s.
        (
            lambda: endless_state(2, rows=1000, cols=1000),
            "the board is larger than a room plays (10000 squares)",
        ),
    ],
)
async def test_a_hosts_game_beyond_the_limits_is_refused_before_it_is_built(
    state: Callable[[], dict[str, Any]], said: str
) -> None:
    client = await _welcomed_or_refused(state())
    assert client.session is None and client.role is None
    assert client.last_error is not None and said in client.last_error


async def test_the_longest_game_a_room_plays_is_read_off_the_screens_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The client reads a state (replaying every roll) in a thread: the screen's event
    loop, which handles Ctrl+Q, never waits on it."""
    threads: list[threading.Thread] = []
    read_back = GameSession.from_dict.__func__  # type: ignore[attr-defined]

    def spy(cls: type[GameSession], data: Any) -> GameSession:
        threads.append(threading.current_thread())
        return read_back(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameSession, "from_dict", classmethod(spy))
    client = await _welcomed_or_refused(endless_state(MAX_HISTORY))
    assert client.session is not None and len(client.session.game.history) == MAX_HISTORY
    assert threads and threading.main_thread() not in threads


async def test_the_host_keeps_within_what_a_client_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    from snl_tui.core.board import Board
    from snl_tui.net import room as room_module

    from .rooms import play_moves, seated, serving, settings

    async with serving(None) as (server, port):
        huge = Board.from_jumps(101, 100)
        with pytest.raises(SnlError, match="a room plays boards of up to 10000 squares"):
            server.open_room(GameSettings(huge, (Player("Ann"),)))
        monkeypatch.setattr(room_module, "MAX_HISTORY", 4)
        room = server.open_room(settings(["A", "B"]))
        ann, bob = await seated(port, room, ["Ann", "Bob"])
        await play_moves(room, [ann, bob], 4)
        await ann.roll()
        await ann.wait_for(lambda: ann.last_error is not None, WAIT)
        assert "reached 4 rolls, the most a room plays" in (ann.last_error or "")
        assert len(room.session.game.history) == 4
        await ann.close()
        await bob.close()


async def test_moves_cannot_grow_a_game_past_the_limit() -> None:
    start = MAX_HISTORY - 2

    async def script(websocket: Any) -> None:
        await websocket.send(welcome(endless_state(start)))
        for index in range(start, start + 4):
            await websocket.send(
                encode("move", index=index, seat=index % 2, die=1, status="playing")
            )

    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann", backoff=FAST_BACKOFF)
        client.start()
        await client.wait_for(lambda: "longer than" in (client.last_error or ""), WAIT)
        await client.close()
    assert client.session is not None and len(client.session.game.history) == MAX_HISTORY
