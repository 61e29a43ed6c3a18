"""End to end in real terminals: ``snl host`` and two ``snl join`` in their own tmux
sessions play a room's game to the winner (SPEC 11). On the way one player's ``snl`` is
killed with SIGKILL and joins again with the same name (same seat, the log as it was:
the host keeps no seat for a token here, ``--keep-seat 0``),
then the host is killed with SIGKILL and started again with ``--resume``: both players
find the room again by themselves and the game goes on where it was.

Only the sessions this test started are killed. Skipped without tmux.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from snl_tui.net.address import CODE_LENGTH

from .terminal import SNL, screen, tmux, tmux_session, wait_for, wait_until

pytestmark = pytest.mark.e2e

TIMEOUT = 30.0
"""Seconds to wait for a screen condition (the machine may be loaded)."""
BOARD = "throws-30"
"""A short board: the game reaches its winner in a few dozen moves."""
MY_TURN = re.compile(r"\(you\)[^│\n]*◀")
"""The players panel: this terminal's seat has the turn."""


def my_turn(session: str) -> bool:
    text = screen(session)
    return MY_TURN.search(text) is not None and "Reconnecting" not in text


def child_pid(session: str, word: str) -> int:
    """The process of the pane's shell whose command line has ``word`` (host or join)."""
    shell = tmux("list-panes", "-t", session, "-F", "#{pane_pid}").split()[0]
    listing = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", shell],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    pids = [int(line.split()[0]) for line in listing.splitlines() if f" {word} " in line]
    assert len(pids) == 1, listing
    return pids[0]


def join_line(log: Path) -> str:
    text = log.read_text() if log.exists() else ""
    match = re.search(r"^snl join (\S+)$", text, re.MULTILINE)
    return match.group(1) if match else ""


class Room:
    """The host and the players' tmux sessions of one test."""

    def __init__(self, stack: ExitStack, tmp: Path) -> None:
        self.stack, self.tmp = stack, tmp
        self.data = tmp / "data"
        self.env = {"SNL_DATA_DIR": str(self.data)}
        self.address = ""

    def host(self, arguments: str, log: Path) -> str:
        command = f"'{SNL}' host {arguments} > '{log}' 2>&1; sleep 120"
        name = self.stack.enter_context(tmux_session("snl-host", command, env=self.env))
        wait_until(lambda: bool(join_line(log)), TIMEOUT, "the join line", session=name)
        self.address = join_line(log)
        return name

    def join(self, player: str) -> str:
        command = f"'{SNL}' join {self.address} --name {player} --no-animation; sleep 120"
        name = self.stack.enter_context(
            tmux_session(f"snl-{player.lower()}", command, width=120, height=40, env=self.env)
        )
        wait_until(lambda: f"{player} (you)" in screen(name), TIMEOUT, "the seat", session=name)
        return name


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    with ExitStack() as stack:
        yield Room(stack, tmp_path)


def roll_once(players: dict[str, str]) -> str | None:
    """Press r in the terminal whose turn it is; its player's name (None: nobody's turn
    shows yet)."""
    for player, session in players.items():
        if my_turn(session):
            tmux("send-keys", "-t", session, "r")
            return player
    return None


def moves_logged(session: str) -> int:
    return len(re.findall(r"\d+\. (?:Ann|Bob) rolled", screen(session)))


def test_host_and_two_players_play_through_a_kill_and_a_host_restart(room: Room) -> None:
    host = room.host(
        f"{BOARD} --port 0 --players Ann,Bob --seed 4 --keep-seat 0", room.tmp / "host.log"
    )
    ann, bob = room.join("Ann"), room.join("Bob")
    players = {"Ann": ann, "Bob": bob}
    # Two moves: Ann's, then Bob's (seats in join order, the first moves first).
    for expected in ("Ann", "Bob"):
        wait_until(lambda p=expected: my_turn(players[p]), TIMEOUT, f"{expected}'s turn")
        assert roll_once(players) == expected
        wait_until(lambda p=expected: not my_turn(players[p]), TIMEOUT, "the move")
    wait_until(lambda: moves_logged(ann) == 2, TIMEOUT, "two moves in Ann's log", session=ann)

    # Bob's snl is killed: Ann sees him away; he joins again under his name.
    os.kill(child_pid(bob, "join"), signal.SIGKILL)
    wait_until(lambda: "Bob (away" in screen(ann), TIMEOUT, "Bob away", session=ann)
    bob = players["Bob"] = room.join("Bob")
    wait_until(lambda: moves_logged(bob) == 2, TIMEOUT, "Bob's log as it was", session=bob)

    # The host is killed; the players keep trying; the host comes back with --resume.
    os.kill(child_pid(host, "host"), signal.SIGKILL)
    wait_until(lambda: "Reconnecting" in screen(ann), TIMEOUT, "reconnecting", session=ann)
    listing = subprocess.run(
        [str(SNL), "games", "--json"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **room.env},
        check=True,
    )
    game_id = max(game["id"] for game in json.loads(listing.stdout))
    port = room.address.split(":")[1].split("/")[0]
    room.host(f"--resume {game_id} --port {port}", room.tmp / "host2.log")
    for session in (ann, bob):
        wait_until(
            lambda s=session: "(you)" in screen(s) and "Reconnecting" not in screen(s),
            TIMEOUT,
            "back in the room",
            session=session,
        )
    wait_until(lambda: my_turn(ann) or my_turn(bob), TIMEOUT, "a turn")
    assert moves_logged(ann) == 2

    # Play to the winner: bounded, a 30-square game is far shorter.
    for _ in range(300):
        if "reached the goal" in screen(ann) and "reached the goal" in screen(bob):
            break
        mover = roll_once(players)
        if mover is not None:
            wait_for(lambda m=mover: not my_turn(players[m]), TIMEOUT)
        else:
            wait_for(
                lambda: my_turn(ann) or my_turn(bob) or "reached the goal" in screen(ann),
                5.0,
            )
    wait_until(lambda: "reached the goal" in screen(ann), TIMEOUT, "the winner", session=ann)
    wait_until(lambda: "reached the goal" in screen(bob), TIMEOUT, "the winner", session=bob)
    winner = re.search(r"(Ann|Bob) reached the goal", screen(ann))
    assert winner is not None and f"{winner.group(1)} reached the goal" in screen(bob)
    # The host saved the finished game: it is in snl games as won.
    listing = subprocess.run(
        [str(SNL), "games", "--json"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **room.env},
        check=True,
    )
    saved = next(g for g in json.loads(listing.stdout) if g["id"] == game_id)
    assert saved["status"] == "won" and saved["winner"] == winner.group(1)


def test_the_host_plays_in_its_own_terminal(room: Room) -> None:
    command = f"'{SNL}' host {BOARD} --port 0 --seats 2 --name Hana --no-animation; sleep 120"
    host = room.stack.enter_context(tmux_session("snl-hana", command, env=room.env))
    # The join line is on the host's own game screen (the status line while seats wait).
    # (A whole line's worth: the status line may wrap it, the notification does not.)
    found = re.compile(rf"snl join (\S+:\d+/[A-Z0-9]{{{CODE_LENGTH}}})\b")
    wait_until(
        lambda: found.search(screen(host)) is not None, TIMEOUT, "the join line", session=host
    )
    match = found.search(screen(host))
    assert match is not None
    room.address = match.group(1)
    wait_until(lambda: "Hana (you)" in screen(host), TIMEOUT, "Hana's seat", session=host)
    bob = room.join("Bob")
    wait_until(lambda: my_turn(host), TIMEOUT, "Hana's turn", session=host)
    tmux("send-keys", "-t", host, "r")
    wait_until(lambda: "Hana rolled" in screen(bob), TIMEOUT, "Hana's move", session=bob)
    # The host leaves (q asks first: it closes the room for everyone); Bob's screen keeps
    # trying to find it.
    tmux("send-keys", "-t", host, "q")
    wait_until(
        lambda: "closes the room for everyone" in screen(host),
        TIMEOUT,
        "the question",
        session=host,
    )
    tmux("send-keys", "-t", host, "y")
    wait_until(
        lambda: "the room is closed" in screen(host), TIMEOUT, "the room closed", session=host
    )
    wait_until(lambda: "Reconnecting" in screen(bob), TIMEOUT, "Bob reconnecting", session=bob)
