"""What a hostile host cannot do to ``snl join``: write to the player's terminal through
names, notices, errors or refusals (everything is escaped once, as it arrives)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from snl_tui.core.engine import Game, Player
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import open_store
from snl_tui.core.store.saving import GameSaver
from snl_tui.core.text import is_unsafe_char
from snl_tui.net.client import RoomClient
from snl_tui.net.protocol import encode
from snl_tui.screens.resume import describe

from .hostile_host import ESCAPES, hostile_host, hostile_state, welcome
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
