"""``snl host``: the seats it makes from --players and --seats, its one-line mistakes,
and the real command in a subprocess: it prints the join line, serves two players, is
killed with -9 mid-game and ``--resume``d, and its players come back by themselves."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path

import pytest

from snl_tui.cli.host import room_players
from snl_tui.cli.main import main
from snl_tui.core.engine import Player
from snl_tui.core.errors import SnlError
from snl_tui.core.store.games import open_store
from snl_tui.net.address import parse_address
from snl_tui.net.client import RoomClient

from .rooms import FAST_BACKOFF, WAIT, close_all, play_until

PACE = 0.08
"""Seconds between two rolls: under the host's rate limit for a person."""


def test_seats_from_players_and_seats() -> None:
    assert room_players(None, None) == (Player("Player 1"), Player("Player 2"))
    assert room_players(None, 3)[2] == Player("Player 3")
    assert room_players("Ann,cpu", None) == (Player("Ann"), Player("CPU", True))
    assert room_players("Ann,cpu", 2) == (Player("Ann"), Player("CPU", True), Player("Player 2"))
    for text, seats, message in [
        ("Ann,Bob", 1, "already names 2 people"),
        ("cpu,cpu", None, "at least one seat for a person"),
        ("Ann,cpu,cpu", 3, "at most 4 seats"),
        ("Ann,,Bob", None, "argument --players: an empty name"),
    ]:
        with pytest.raises(SnlError, match=message):
            room_players(text, seats)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["host", "--resume", "1", "--seats", "2"], "--resume reopens the room as it was"),
        (["host", "--resume", "x"], "not a saved game's number"),
        (["host", "--resume", "5"], "no saved game 5"),
        (["host", "--resume", "99999999999999999999999"], "--resume: no saved game 9999"),
        (["host", "--resume", "-3"], "--resume: not a saved game's number"),
        (["host", "--resume", "\x1b]0;owned\x07"], "--resume: not a saved game's number"),
        (["host", "--players", "cpu"], "at least one seat for a person"),
        (["host", "--keep-seat", "-1"], "--keep-seat: must be a whole number from 0"),
        (["host", "--mode", "puzzle"], "unrecognized arguments"),
        (["host", "nope.toml"], "nope.toml"),
        (["host", "--faces", "1"], "faces"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "\x1b" not in err


def test_keep_seats_default_is_the_servers() -> None:
    from snl_tui.cli import host
    from snl_tui.net import server

    assert host.KEEP_SEAT == server.KEEP_SEAT


def _moves(client: RoomClient) -> int:
    return len(client.session.game.history) if client.session is not None else 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _host(*args: str) -> tuple[asyncio.subprocess.Process, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "snl_tui",
        "host",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), WAIT)
    return process, line.decode()


async def test_host_killed_and_resumed_its_players_come_back(private_data_dir: Path) -> None:
    port = _free_port()
    host, line = await _host("--port", str(port), "--seed", "9")
    assert line.startswith(f"snl join 127.0.0.1:{port}/") and line.endswith("\n")
    address = parse_address(line.split()[-1])
    ann = RoomClient(address, "Ann", backoff=FAST_BACKOFF)
    bob = RoomClient(address, "Bob", backoff=FAST_BACKOFF)
    clients = [ann, bob]
    resumed = None
    try:
        for client in clients:
            client.start()
            await client.wait_for(lambda c=client: c.seat is not None, WAIT)
        await play_until(
            clients, lambda: ann.session is not None and len(ann.session.game.history) >= 6, PACE
        )
        host.send_signal(signal.SIGKILL)
        await host.wait()
        await ann.wait_for(lambda: not ann.connected, WAIT)
        with open_store(private_data_dir / "games.db") as store:
            (saved,) = store.list_games().games
        assert saved.status == "playing" and saved.players == ("Ann", "Bob")
        resumed, line = await _host("--resume", str(saved.id), "--port", str(port))
        assert parse_address(line.split()[-1]) == address  # the same room, the same line
        for client in clients:  # back by themselves, in their seats
            await client.wait_for(lambda c=client: c.connected, WAIT)
        assert (ann.seat, bob.seat) == (0, 1)
        assert ann.connections >= 2
        await play_until(clients, lambda: ann.status == "over" and bob.status == "over", PACE)
        assert ann.session is not None and bob.session is not None
        assert ann.session.game.rolls == bob.session.game.rolls
    finally:
        await close_all(clients)
        for process in (host, resumed):
            if process is not None and process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), WAIT)
    assert resumed is not None and resumed.returncode == 0  # Ctrl+C / SIGTERM: a clean stop
    with open_store(private_data_dir / "games.db") as store:
        (finished,) = store.list_games().games
    assert finished.id == saved.id and finished.status == "won"
