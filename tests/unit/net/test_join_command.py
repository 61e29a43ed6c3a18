"""``snl join``: every way joining can fail is one line and exit 2 before any screen opens
(a bad address, nobody listening, a wrong code or password, a name already playing), and
a default name already playing is tried again with a number."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from snl_tui.cli.join import join_room
from snl_tui.cli.main import main
from snl_tui.core.errors import SnlError
from snl_tui.net.address import RoomAddress

from .rooms import ServerThread


@pytest.fixture
def host() -> Iterator[ServerThread]:
    server = ServerThread()
    try:
        yield server
    finally:
        server.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("snl join: ")
    return lines[0]


@pytest.mark.parametrize("text", ["nohost", "host:port/CODE", "127.0.0.1:8765", ":1/AB", "a b:1/C"])
def test_a_bad_address_is_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_exit_2(["join", text, "--name", "Ann"], capsys)
    assert "HOST:PORT/CODE" in line or "address" in line


def test_nobody_listening_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_exit_2(["join", f"127.0.0.1:{free_port()}/ABCD", "--name", "Ann"], capsys)
    assert "cannot reach" in line and "connection refused" in line


def test_a_wrong_code_or_password_is_one_line(
    host: ServerThread, capsys: pytest.CaptureFixture[str]
) -> None:
    room = host.open_room("Ann", "Bob", password="sesame")
    line = one_line_exit_2(["join", f"127.0.0.1:{host.port}/NOROOM", "--name", "Ann"], capsys)
    assert "no room" in line.lower()
    where = f"127.0.0.1:{host.port}/{room.code}"
    line = one_line_exit_2(["join", where, "--name", "Ann", "--password", "nope"], capsys)
    assert "password" in line.lower()
    line = one_line_exit_2(["join", where, "--name", "Ann"], capsys)
    assert "password" in line.lower()
    # Plain mode (the browser's text page) says it without the address, which a
    # screen reader reads digit by digit.
    argv = ["join", where, "--name", "Ann", "--password", "nope", "--screen-reader"]
    assert one_line_exit_2(argv, capsys) == "snl join: wrong password for this room"


def test_a_tabs_join_leaves_its_refusal_for_the_door(
    host: ServerThread,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Under the browser door, the refusal is also written where the door reads it (the
    tab said only "The game has ended."), without the address."""
    pytest.importorskip("textual_serve")  # the door's own modules need it (aiohttp)
    from snl_tui.cli.serve_games import GameRelay
    from snl_tui.net.seat_tokens import DOOR_SAID_ENV

    room = host.open_room("Ann", "Bob", password="sesame")
    said = tmp_path / "tab-1"
    monkeypatch.setenv(DOOR_SAID_ENV, str(said))
    argv = ["join", f"127.0.0.1:{host.port}/{room.code}", "--name", "Ann", "--password", "x"]
    one_line_exit_2(argv, capsys)
    assert said.read_text() == "wrong password for this room\n"
    relay, failed = GameRelay(), SimpleNamespace(returncode=2)
    relay.stopping = False
    assert relay._close_reason(failed, said) == b"wrong password for this room"
    assert relay._close_reason(SimpleNamespace(returncode=0), said) == b""  # left: no words
    said.write_text("\u00e9" * 200 + "\n")  # cut between two characters, never inside one
    assert relay._close_reason(failed, said).decode() == "\u00e9" * 60


def test_a_name_already_playing_is_refused_or_numbered(host: ServerThread) -> None:
    room = host.open_room("Ann", "Bob", "Cat")
    where = RoomAddress("127.0.0.1", host.port, room.code)

    async def scenario() -> tuple[str, str, str]:
        first = await join_room(where, ["Dan"])
        try:
            with pytest.raises(SnlError, match="already playing"):
                await join_room(where, ["Dan"])  # given by --name: refused
            second = await join_room(where, ["Dan", "Dan 2"])  # a default name: numbered
            try:
                assert second.seat is not None
                return first.name, second.name, str(second.address)
            finally:
                await second.close()
        finally:
            await first.close()

    first, second, shown = asyncio.run(scenario())
    assert (first, second) == ("Dan", "Dan 2")
    assert shown == str(where)
