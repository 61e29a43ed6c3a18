"""``snl join --screen-reader`` in a room beside another player: both hear every move.

A room server runs in this process (its own event loop, in a thread) with three seats:
Ann joins with the real command in plain lines through a pipe, Bo is a room client like
the game screen's, and the computer plays the third seat. Ann types ``roll`` whenever
she is told it is her turn; Bo rolls on his. Every move the host made is said to Ann, in
order, once; Bo's game is the host's game.
"""

from __future__ import annotations

import asyncio
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSettings
from snl_tui.net.address import RoomAddress
from snl_tui.net.client import Backoff, RoomClient
from snl_tui.net.server import Limits, Room, RoomServer
from snl_tui.plain.room_words import seat_changes

from .plainness import unplain

LIMIT = 60.0
MOVES = 12
"""Moves played before Ann leaves (a dozen turns round the table is plenty)."""


class ServerThread:
    """A room server on its own event loop in a thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = RoomServer(None, cpu_delay=0, limits=Limits(rate=1000, burst=1000))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = self.run(self.server.start("127.0.0.1", 0))

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(LIMIT)

    def open_room(self, *names: str) -> Room:
        settings = GameSettings(
            load_board("classic"), tuple(Player.parse(n) for n in names), seed=3
        )

        async def opened() -> Room:
            return self.server.open_room(settings)

        room: Room = self.run(opened())
        return room

    def stop(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(LIMIT)
        self.loop.close()


@pytest.fixture
def host() -> Iterator[ServerThread]:
    server = ServerThread()
    try:
        yield server
    finally:
        server.stop()


class Lines:
    """The lines a process writes, read by a thread, waited for with a bounded loop."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.seen: list[str] = []
        self.fresh: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None
        stream = process.stdout
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.fresh.put(line.rstrip("\n"))
        self.fresh.put(None)

    def next(self, deadline: float) -> str | None:
        try:
            line = self.fresh.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no line in time; the lines so far: {self.seen}") from None
        if line is not None:
            self.seen.append(line)
        return line


def test_a_screen_reader_player_and_a_terminal_player_both_hear_every_move(
    host: ServerThread,
) -> None:
    room = host.open_room("Ann", "Bo", "cpu:Robo")
    where = f"127.0.0.1:{host.port}/{room.code}"
    ann = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "join", where, "--name", "Ann", "--screen-reader"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    lines = Lines(ann)
    bo = RoomClient(
        RoomAddress("127.0.0.1", host.port, room.code), "Bo", backoff=Backoff(0.02, 0.2)
    )
    deadline = time.monotonic() + LIMIT
    try:
        while "Type help for the commands." not in lines.seen:  # Ann took the first seat
            assert lines.next(deadline) is not None, (lines.seen, ann.stderr)
        host.run(_start(bo))

        async def bo_plays() -> None:  # Bo, like the game screen: roll on his turn
            while len(room.session.game.history) < MOVES and not room.session.game.over:
                await bo.wait_for(
                    lambda: bo.my_turn or len(room.session.game.history) >= MOVES, LIMIT
                )
                if bo.my_turn and len(room.session.game.history) < MOVES:
                    seen = len(bo.session.game.history) if bo.session else 0
                    await bo.roll()
                    await bo.wait_for(lambda s=seen: heard_more(bo, s), LIMIT)

        playing = asyncio.run_coroutine_threadsafe(bo_plays(), host.loop)
        assert ann.stdin is not None
        while len(room.session.game.history) < MOVES and not room.session.game.over:
            line = lines.next(deadline)
            assert line is not None, lines.seen
            if line == "Your turn: type roll, or press Enter.":
                ann.stdin.write("roll\n")
                ann.stdin.flush()
        playing.result(LIMIT)

        def heard_all() -> bool:  # nobody rolls now: every move made is on its way to Ann
            game = room.session.game
            settled = game.over or not game.players[game.current].computer
            return settled and sum(" rolled " in line for line in lines.seen) >= len(game.history)

        while not heard_all():
            assert lines.next(deadline) is not None, lines.seen
        host.run(bo.chat("well played"))  # a chat line from the terminal player...
        while "Bo says: well played" not in lines.seen:
            assert lines.next(deadline) is not None, lines.seen
        chats: list[str] = []
        bo.listener = lambda event: chats.append(f"{event.name}: {event.message}")
        ann.stdin.write("chat thanks, you too\n")  # ...and one back, typed
        ann.stdin.flush()
        while "Ann says: thanks, you too" not in lines.seen:
            assert lines.next(deadline) is not None, lines.seen
        host.run(bo.wait_for(lambda: "Ann: thanks, you too" in chats, LIMIT))
        ann.stdin.write("where\n")
        ann.stdin.close()  # the end of input: Ann leaves the room
        while (line := lines.next(deadline)) is not None:
            pass
        assert ann.wait(LIMIT) == 0
    finally:
        if ann.poll() is None:
            ann.kill()
            ann.wait()
        host.run(bo.close())

    history = room.session.game.history
    players = room.session.game.players
    said = [line for line in lines.seen if " rolled " in line]
    assert len(said) == len(history) >= MOVES
    for line, turn in zip(said, history, strict=True):
        assert line.startswith(f"{players[turn.player].name} rolled {turn.move.die}: ")
    assert bo.session is not None and bo.session.game.rolls == room.session.game.rolls
    assert "Bo took seat 2." in lines.seen
    assert any(line.startswith("You are Ann, seat 1 of 3.") for line in lines.seen)
    assert lines.seen[-1] == "Left the room."
    assert unplain("\n".join(lines.seen)) == []


def heard_more(client: RoomClient, moves: int) -> bool:
    return client.session is not None and len(client.session.game.history) > moves


async def _start(client: RoomClient) -> None:
    client.start()
    await client.wait_for(lambda: client.seat is not None, LIMIT)


def test_seat_changes_in_words() -> None:
    from snl_tui.net.protocol import SeatInfo

    before = (
        SeatInfo("Ann", "person", True, True),
        SeatInfo("Bo", "person", False, False),
        SeatInfo("Cy", "person", True, True),
    )
    after = (
        SeatInfo("Ann", "person", True, False),
        SeatInfo("Bo", "person", True, True),
        SeatInfo("Cy", "computer", True, True),
    )
    away: set[int] = set()
    # Ann's going is the room's notice (she quit, or lost the connection): not said twice.
    assert seat_changes(before, after, away) == [
        "Bo took seat 2.",
        "Cy's seat is now played by the computer.",
    ]
    assert away == {0}
    assert seat_changes(after, before, away) == [
        "Ann is back.",
        "Bo left seat 2; it is free.",
        "Cy plays seat 3 again, in person.",
    ]
    assert away == set()
    # A seat taken a moment before its connection counts: nobody was away.
    joining = (before[0], SeatInfo("Bo", "person", True, False), before[2])
    assert seat_changes(before, joining, away) == ["Bo took seat 2."]
    assert seat_changes(joining, after[:1] + after[1:2] + before[2:], away) == []
    assert away == {0}


def test_the_host_can_play_in_plain_lines_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from snl_tui.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("where\n"))
    argv = ["host", "--port", "0", "--name", "Ann", "--seats", "2", "--no-save"]
    assert main([*argv, "--screen-reader"]) == 0
    said = capsys.readouterr()
    out = said.out.splitlines()
    assert "You are Ann, seat 1 of 2." in out
    (joining,) = [line for line in out if line.startswith("Others join with: snl join 127.")]
    code = joining.rsplit("/")[-1].split(",")[0]
    assert joining.endswith(f", code {' '.join(code)}.")  # read letter by letter
    # The closing line too: the code letter by letter, not the address.
    assert said.err.splitlines()[-1] == f"snl host: room code {' '.join(code)} is closed"
    assert "Ann off the board and Player 2 off the board. Ann to move. The goal is 100." in out
    assert out[-1] == "Left the room."
    assert unplain("\n".join(out)) == []


def test_notices_chat_and_reactions_are_said_as_lines() -> None:
    import io

    from snl_tui.net.client import ClientEvent
    from snl_tui.plain.console import Console
    from snl_tui.plain.room import PlainRoom

    console = Console(io.StringIO(), io.StringIO())
    room = PlainRoom(RoomClient("127.0.0.1:1/ABCD", "Ann"), console)
    room.heard(ClientEvent("notice", "The host skipped Bo's turn (Bo is away).", code="skipped"))
    room.heard(ClientEvent("chat", "good luck \x1b[31m", name="Bo"))
    room.heard(ClientEvent("chat", "nice one!", code="reaction", name="Cy\u2728"))
    assert console.said == [
        "The host skipped Bo's turn (Bo is away).",
        "Bo says: good luck \\x1b[31m",
        "Cy: nice one!",
    ]


def test_the_host_skips_hands_mutes_and_removes_in_plain_lines(host: ServerThread) -> None:
    """``snl host --name Ann --screen-reader`` through a pipe: the host's powers are
    plain commands (listed in help), and the room does each one."""
    command = ["host", "--port", "0", "--name", "Ann", "--seats", "2", "--no-save"]
    ann = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", *command, "--screen-reader"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    lines = Lines(ann)
    deadline = time.monotonic() + LIMIT
    assert ann.stdin is not None
    stdin = ann.stdin

    def hear(text: str) -> str:
        """The next line (from here on) that holds ``text``."""
        while True:
            line = lines.next(deadline)
            assert line is not None, (lines.seen, ann.stderr)
            if text in line:
                return line

    def type_line(line: str) -> None:
        stdin.write(line + "\n")
        stdin.flush()

    bo: RoomClient | None = None
    try:
        joining = hear("Others join with: snl join ")
        where, code = joining.removeprefix("Others join with: snl join ").split(", code ")
        assert code.rstrip(".").replace(" ", "") == where.rsplit("/")[-1]
        hear("Type help for the commands.")
        type_line("help")
        listed = hear("Commands: ")
        for power in ("skip (sk)", "computer (co)", "person (p)", "hand (ha)", "kick (k)"):
            assert power in listed
        assert "mute (m)" in listed and "unmute (u)" in listed
        bo = RoomClient(where, "Bo", backoff=Backoff(0.02, 0.2))
        host.run(_start(bo))
        hear("Everyone is here: the game begins.")
        type_line("computer bo")
        hear("The host handed Bo's seat to the computer.")
        host.run(bo.wait_for(lambda: bo.seats[1].standin, LIMIT))
        type_line("person 2")
        hear("Bo plays their own seat again.")
        type_line("mute Bo")
        hear("The host muted Bo.")
        assert host.run(bo.chat("psst"))
        host.run(bo.wait_for(lambda: bo.last_error is not None, LIMIT))
        type_line("unmute bo")
        hear("The host let Bo chat again.")
        assert host.run(bo.chat("thanks"))
        hear("Bo says: thanks")
        assert "Bo says: psst" not in lines.seen
        type_line("roll")
        hear("Ann rolled ")
        type_line("skip")
        hear("The host skipped Bo's turn")
        type_line("computer 9")
        assert hear("No seat") == "No seat '9'. The seats: 1 Ann; 2 Bo."
        type_line("kick")
        assert hear("Type kick") == "Type kick, then a seat's number or name: kick Bo."
        type_line("kick b")
        hear("The host removed Bo: the computer plays the seat to the end.")
        host.run(bo.wait_for(lambda: bo.refused is not None, LIMIT))
        assert bo.refused is not None and bo.refused.code == "removed"
        stdin.close()
        hear("Left the room.")
        assert ann.wait(LIMIT) == 0
    finally:
        if ann.poll() is None:
            ann.kill()
            ann.wait()
        if bo is not None:
            host.run(bo.close())
    assert unplain("\n".join(lines.seen)) == []


async def test_quit_asks_first_and_the_turn_clock_is_said() -> None:
    """A seated player's ``quit`` asks once (the seat is kept); the turn clock is a line
    when a turn starts, and "You have 10 seconds left" is due to the player to move
    alone (the others' screens only show the clock)."""
    import asyncio
    import io

    from snl_tui.core.engine import Player
    from snl_tui.core.files.formats import load_board
    from snl_tui.core.session import GameSession, GameSettings
    from snl_tui.net.client import ClientEvent, EventKind
    from snl_tui.plain.console import Console
    from snl_tui.plain.room import PlainRoom

    client = RoomClient("127.0.0.1:1/ABCD", "Ann")
    client.session = GameSession(
        GameSettings(load_board("classic"), (Player("Ann"), Player("Bo")), 3)
    )
    client.seat = 0
    console = Console(io.StringIO(), io.StringIO())
    replaced = "--password replaces the room's saved password"
    room = PlainRoom(client, console, notices=[replaced])
    room.welcome(None)  # what snl host --resume had to say comes with the room's welcome
    assert replaced in console.said
    assert await room.handle("quit") is True
    assert console.said[-1] == "Leave the room? Your seat is kept. Type quit again to leave."
    assert await room.handle("where") is True  # anything else: staying
    assert await room.handle("quit") is True
    assert await room.handle("yes") is False
    client.turn_seat, client.turn_deadline = 1, asyncio.get_running_loop().time() + 30
    room.heard(ClientEvent(EventKind.TIMER))
    assert console.said[-1] == "Bo has 30 seconds to roll."
    assert room._ten_left is None  # Bo's warning is Bo's
    client.turn_seat, client.turn_deadline = 0, asyncio.get_running_loop().time() + 10.9
    room.heard(ClientEvent(EventKind.TIMER))
    assert console.said[-1] == "You have 11 seconds to roll."
    async with asyncio.timeout(5):
        while console.said[-1] != "You have 10 seconds left.":
            await asyncio.sleep(0.02)
    client.turn_seat = client.turn_deadline = None
    room.heard(ClientEvent(EventKind.TIMER))
    assert room._ten_left is None


async def test_where_says_live_away_times_and_seats_for_names_with_nothing_to_say() -> None:
    """``where`` counts a seat's time away when it is asked (not when the room last sent
    the seats); a name with nothing speakable is its seat ("seat 2"), in moves, seats
    and chat alike."""
    import io

    from snl_tui.core.engine import Player
    from snl_tui.core.files.formats import load_board
    from snl_tui.core.session import GameSession, GameSettings
    from snl_tui.net.client import ClientEvent, EventKind
    from snl_tui.net.protocol import SeatInfo
    from snl_tui.plain import words
    from snl_tui.plain.console import Console
    from snl_tui.plain.room import PlainRoom
    from snl_tui.plain.room_words import away_for

    client = RoomClient("127.0.0.1:1/ABCD", "Ann")
    players = (Player("Ann"), Player("\U0001f40d\U0001f3fd"), Player("Cy"))
    client.session = GameSession(GameSettings(load_board("classic"), players, 3))
    client.seat = 0
    client.status = "playing"
    client.seats = (
        SeatInfo("Ann", "person", True, True),
        SeatInfo("\U0001f40d\U0001f3fd", "person", True, True),
        SeatInfo("Cy", "person", True, False, away=40),
    )
    console = Console(io.StringIO(), io.StringIO())
    room = PlainRoom(client, console)
    now = [1000.0]
    room.clock = lambda: now[0]
    room.note_away(client.seats)
    now[0] += 25  # the room sent nothing since: the time still runs
    room.heard(ClientEvent(EventKind.CHAT, "hi", name="\U0001f40d\U0001f3fd"))
    assert console.said[-1] == "seat 2 says: hi"
    room.heard(ClientEvent(EventKind.CHAT, "hello", name="Cy"))  # no new seats: still live
    assert await room.handle("where") is True
    assert console.said[-1] == (
        "Seats: seat 1 Ann (here, you); seat 2 (here); seat 3 Cy (away 65 seconds)."
    )
    now[0] += 100
    assert await room.handle("where") is True
    assert console.said[-1].endswith("seat 3 Cy (away 2 minutes 45 seconds).")
    # Away when we were welcomed (a resumed room's seats, at first): back, once here.
    room.welcome(None)
    client.seats = (*client.seats[:2], SeatInfo("Cy", "person", True, True))
    room.heard(ClientEvent(EventKind.SEATS))
    assert console.said[-1] == "Cy is back."
    assert await room.handle("odds") is True
    assert "seat 2" in console.said[-1]
    # board 47 tells what is on square 47; say 2 says the last 2 lines again.
    assert await room.handle("board 80") is True
    assert console.said[-1] == words.square_line(client.session.board, 80)
    assert await room.handle("say 2") is True
    assert console.said[-2:] == console.said[-4:-2]
    # Once the game is over, the first roll hears so, the ones after it nothing.
    client.session.game.winner = 0
    said = len(console.said)
    for _ in range(3):
        assert await room.handle("roll") is True
    assert console.said[said:] == ["The game is over: type again for another game."]
    assert (away_for(59.6), away_for(120), away_for(-3)) == ("60 seconds", "2 minutes", "0 seconds")


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
@pytest.mark.parametrize("leaving", ["quit", "SIGTERM"])
def test_a_room_in_a_terminal_edits_lines_and_gives_the_terminal_back(
    host: ServerThread, leaving: str
) -> None:
    """``snl join --screen-reader`` in a pseudo-terminal: lines are edited (Left, Right
    and Up reach the line editor, never the room as a command), and the terminal's
    modes are as they were once it has left, by ``quit`` or killed with SIGTERM."""
    import pty
    import signal
    import termios

    room = host.open_room("Ann", "Bo")
    parent, child = pty.openpty()
    before = termios.tcgetattr(child)
    where = f"127.0.0.1:{host.port}/{room.code}"
    ann = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "join", where, "--name", "Ann", "--screen-reader"],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    seen = b""

    def read_until(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + LIMIT
        while text not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            seen += os.read(parent, 4096)

    try:

        def said_seats(times: int) -> None:
            nonlocal seen
            deadline = time.monotonic() + LIMIT
            while seen.count(b"Seats: ") < times:
                assert time.monotonic() < deadline, seen.decode(errors="replace")
                seen += os.read(parent, 4096)

        read_until(b"Type help for the commands.")  # the welcome says the seats once
        os.write(parent, b"wher\x1b[D\x1b[Ce\r")  # Left, Right: "where"
        said_seats(2)
        os.write(parent, b"\x1b[A\r")  # Up: "where" again
        said_seats(3)
        # A line of the room said while a line is half typed: on a line of its own,
        # then the half-typed part again, where the typing goes on.
        # The editor reads once it has the terminal: readline turns off ICRNL as it
        # starts (snl's own mode between lines keeps it, and echo is off in both).
        deadline = time.monotonic() + LIMIT
        while termios.tcgetattr(child)[0] & termios.ICRNL:
            assert time.monotonic() < deadline, "the line editor never read again"
            time.sleep(0.01)
        mark = len(seen)
        os.write(parent, b"wh")
        while b"wh" not in seen[mark:]:  # the editor's echo: it has the keys
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            seen += os.read(parent, 4096)
        bo = RoomClient(RoomAddress("127.0.0.1", host.port, room.code), "Bo")
        host.run(_start(bo))
        read_until(b"Bo took seat 2.")
        os.write(parent, b"ere\r")
        said_seats(4)
        host.run(bo.close())
        if leaving == "quit":
            os.write(parent, b"quit\r")
            read_until(b"Type quit again to leave.")
            os.write(parent, b"quit\r")
            read_until(b"Left the room.")
            assert ann.wait(LIMIT) == 0
        else:
            ann.send_signal(signal.SIGTERM)
            assert ann.wait(LIMIT) == 128 + signal.SIGTERM
        assert termios.tcgetattr(child) == before  # echo and line mode are back
    finally:
        if ann.poll() is None:
            ann.kill()
            ann.wait()
        os.close(child)
        os.close(parent)
    text = seen.decode(errors="replace")
    # The room heard "where" three times more (after the welcome's seats), never a key.
    assert "not understood" not in text.lower() and text.count("Seats: ") == 4
    assert "\r\nwh\r\nBo took seat 2.\r\nwh" in text  # never "whBo took seat 2."
