"""Rooms under load: 50 rooms x 4 scripted players on loopback against one ``snl host``
server, for 60 seconds; then the same again with chat traffic (issue 31), so that one run
prints the figures without and with chat side by side.

The server runs in its own process (this script started with ``--serve``), with the real
``RoomServer``, default limits (but for the connections per address: every player here
comes from 127.0.0.1), and a store in a temporary folder: every move is saved
as ``snl host`` saves it. The players are ``RoomClient``s in this process; each rolls
``--think`` seconds after its turn comes (a quick person), and the first seat asks for a
new game when one ends. In the second run each player also says a chat line every
``1 / --chat`` seconds (jittered; the default 0.4 a second stays under the host's chat
limit for a person), which the host sends to the four players of the room.

Printed: moves made, errors (error replies, refusals, dropped connections, moves not seen
within 5 s: the goal is 0), the latency from a roll being sent to each client receiving
the move (p50/p99 over every delivery, and over every move until the last of the four
has it; the goal is p99 under 50 ms on a 2-core machine), and the server's memory (RSS
after opening the rooms, at the end, and its peak).

Beside it, in the same run and on the same machine, a bare websockets room (issue 41):
a server that only draws a die and sends the move to the room's four sockets, and four
raw websockets clients per room, each rolling on its turn as the scripted players do.
Its figures are the floor: the goal is snl's p50 within 2x of it at 1 room, and a p99
under 50 ms at 50 rooms.

Run:  python benchmarks/rooms.py [--rooms 50] [--duration 60] [--think 0.1] [--chat 0.4]
      (--chat 0: the run without chat only; --bare 0: without the bare room)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import open_store
from snl_tui.net.address import RoomAddress
from snl_tui.net.client import ClientEvent, RoomClient
from snl_tui.net.server import Limits, RoomServer

SEATS = 4
SEEN_TIMEOUT = 5.0


# -- the server process ------------------------------------------------------------------------


async def serve(rooms: int, folder: str) -> None:
    store = open_store(os.path.join(folder, "games.db"))
    # Every scripted player comes from 127.0.0.1: the per-address cap (a guard against
    # one machine holding the server's connections) is raised to the players' number.
    server = RoomServer(store, limits=Limits(per_address=rooms * SEATS + 8))
    board = load_board("classic")
    players = tuple(Player(f"Seat {n}") for n in range(1, SEATS + 1))
    codes = [server.open_room(GameSettings(board, players)).code for _ in range(rooms)]
    port = await server.start("127.0.0.1", 0)
    print(json.dumps({"port": port, "codes": codes}), flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop()
    store.close()


async def serve_bare(rooms: int) -> None:
    """The bare room: a join names the room; a roll from the seat to move draws a die and
    sends the move to the room's sockets. No checks, no store, no game: the floor."""
    from websockets.asyncio.server import serve as ws_serve

    tables: dict[str, list[Any]] = {f"R{n}": [] for n in range(rooms)}
    moves: dict[str, int] = dict.fromkeys(tables, 0)
    dice = random.Random(7)

    async def handle(websocket: Any) -> None:
        with contextlib.suppress(Exception):  # a closing socket ends its handler quietly
            await play(websocket)

    async def play(websocket: Any) -> None:
        first = json.loads(await websocket.recv())
        code = first["room"]
        table = tables[code]
        seat = len(table)
        table.append(websocket)
        await websocket.send(json.dumps({"type": "welcome", "seat": seat}))
        async for frame in websocket:
            message = json.loads(frame)
            if message["type"] == "roll" and moves[code] % SEATS == seat:
                index = moves[code]
                moves[code] += 1
                move = json.dumps(
                    {"type": "move", "index": index, "seat": seat, "die": dice.randint(1, 6)}
                )
                for other in table:
                    await other.send(move)

    async with ws_serve(handle, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(json.dumps({"port": port, "codes": list(tables)}), flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()


class BarePlayer:
    """One raw websockets client of the bare room: rolls on its turn, times each move."""

    def __init__(self, port: int, code: str, figures: Figures) -> None:
        self.port, self.code, self.figures = port, code, figures
        self.seat = -1
        self.moves = 0
        self.turn = asyncio.Event()

    async def connect(self) -> None:
        from websockets.asyncio.client import connect as ws_connect

        self.websocket = await ws_connect(
            f"ws://127.0.0.1:{self.port}/", compression=None, proxy=None
        )
        await self.websocket.send(json.dumps({"type": "join", "room": self.code}))
        self.seat = json.loads(await self.websocket.recv())["seat"]

    async def listen(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.websocket:
                now = time.perf_counter()
                message = json.loads(frame)
                if message["type"] == "move":
                    key = (self.code, 0, message["index"])
                    self.figures.arrivals.setdefault(key, []).append(now)
                    self.moves = message["index"] + 1
                    if self.moves % SEATS == self.seat:
                        self.turn.set()

    async def play(self, deadline: float, think: float) -> None:
        if self.seat == 0:
            self.turn.set()
        while time.perf_counter() < deadline:
            try:
                async with asyncio.timeout(max(0.01, deadline - time.perf_counter())):
                    await self.turn.wait()
            except TimeoutError:
                return
            self.turn.clear()
            await asyncio.sleep(think)
            self.figures.sent[(self.code, 0, self.moves)] = time.perf_counter()
            self.figures.moves += 1
            await self.websocket.send(json.dumps({"type": "roll"}))


async def bare_players(port: int, codes: list[str], duration: float, think: float) -> Figures:
    figures = Figures()
    everyone = [BarePlayer(port, code, figures) for code in codes for _ in range(SEATS)]
    for player in everyone:  # in order: seat n is the n-th to join its room
        await player.connect()
    listeners = [asyncio.ensure_future(player.listen()) for player in everyone]
    deadline = time.perf_counter() + duration
    await asyncio.gather(*(player.play(deadline, think) for player in everyone))
    for player in everyone:
        await player.websocket.close()
    for listener in listeners:
        listener.cancel()
    return figures


# -- the players ---------------------------------------------------------------------------------


@dataclass
class Figures:
    sent: dict[tuple[str, int, int], float] = field(default_factory=dict)
    """(room, game number, move index) -> when the roll was sent."""
    arrivals: dict[tuple[str, int, int], list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    chats_sent: int = 0
    chats_heard: int = 0


class ScriptedPlayer:
    """One scripted person: a RoomClient that rolls on its turn."""

    def __init__(self, address: RoomAddress, name: str, figures: Figures) -> None:
        self.code = address.code
        self.figures = figures
        self.games = 0
        self.client = RoomClient(address, name, listener=self.heard)

    def heard(self, event: ClientEvent) -> None:
        now = time.perf_counter()
        client = self.client
        if event.kind == "move" and client.session is not None:
            index = len(client.session.game.history) - 1
            self.figures.arrivals.setdefault((self.code, self.games, index), []).append(now)
        elif event.kind == "game":
            self.games += 1
        elif event.kind == "chat":
            self.figures.chats_heard += 1
        elif event.kind in ("error", "refused", "disconnected"):
            self.figures.errors.append(f"{self.code} {client.name}: {event.kind} {event.message}")

    async def play(self, deadline: float, think: float) -> None:
        client = self.client
        while time.perf_counter() < deadline:
            left = deadline - time.perf_counter()
            try:
                await client.wait_for(
                    lambda: client.my_turn or (client.status == "over" and client.seat == 0),
                    max(left, 0.01),
                )
            except TimeoutError:
                return
            await asyncio.sleep(think)
            session = client.session
            assert session is not None
            if client.status == "over":
                games = self.games
                await client.again()
                await self._wait(lambda n=games: self.games > n)
                continue
            index = len(session.game.history)
            self.figures.sent[(self.code, self.games, index)] = time.perf_counter()
            await client.roll()
            self.figures.moves += 1
            await self._wait(lambda s=session, n=index: self._moved_on(s, n))

    async def chat(self, deadline: float, rate: float) -> None:
        """A chat line every ``1 / rate`` seconds on average until ``deadline``."""
        number = 0
        while True:
            await asyncio.sleep(random.uniform(0.5, 1.5) / rate)
            if time.perf_counter() >= deadline:
                return
            number += 1
            if await self.client.chat(f"line {number} from {self.client.name}: good luck"):
                self.figures.chats_sent += 1

    def _moved_on(self, session: GameSession, moves: int) -> bool:
        """The move is in, or a new snapshot replaced the game."""
        return len(session.game.history) > moves or self.client.session is not session

    async def _wait(self, predicate: Callable[[], bool]) -> None:
        try:
            await self.client.wait_for(predicate, SEEN_TIMEOUT)
        except TimeoutError:
            self.figures.errors.append(f"{self.code} {self.client.name}: not seen in time")


async def players(
    port: int, codes: list[str], duration: float, think: float, chat: float
) -> Figures:
    figures = Figures()
    everyone = [
        ScriptedPlayer(RoomAddress("127.0.0.1", port, code), f"P{n}", figures)
        for code in codes
        for n in range(1, SEATS + 1)
    ]
    for player in everyone:  # in order: seat n is the n-th to join its room
        player.client.start()
        await player.client.wait_for(lambda c=player.client: c.seat is not None, 30)
    deadline = time.perf_counter() + duration
    talk = [player.chat(deadline, chat) for player in everyone] if chat > 0 else []
    await asyncio.gather(*(player.play(deadline, think) for player in everyone), *talk)
    for player in everyone:
        await player.client.close()
    return figures


def rss(pid: int) -> dict[str, int]:
    """The process's resident memory now and at its peak, in KiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0])
    return fields


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=0.1, help="seconds before each roll")
    parser.add_argument(
        "--chat", type=float, default=0.4, help="chat lines a second per player, second run"
    )
    parser.add_argument(
        "--bare", type=int, default=1, help="1: also time a bare websockets room (0: not)"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-bare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.rooms, args.folder))
        return
    if args.serve_bare:
        asyncio.run(serve_bare(args.rooms))
        return
    bare = run_bare(args) if args.bare else None
    for chat in (0.0, args.chat) if args.chat > 0 else (0.0,):
        snl = run(args, chat)
        if bare is not None and not chat and snl is not None:
            print(f"snl / bare websockets, p50: {snl / bare:.1f}x")
        print()


def run_bare(args: argparse.Namespace) -> float | None:
    """The bare websockets room's run; prints its figures, returns its p50 (ms)."""
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-bare", "--rooms", str(args.rooms)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        opened = json.loads(server.stdout.readline())
        figures = asyncio.run(
            bare_players(opened["port"], opened["codes"], args.duration, args.think)
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    print(f"bare websockets room, {args.rooms} rooms x {SEATS} sockets, {args.duration:g} s:")
    p50 = latencies(figures)
    print()
    return p50


def latencies(figures: Figures) -> float | None:
    """Prints the roll -> client latencies; returns the p50 over every delivery (ms)."""
    deliveries = []
    all_four = []
    for key, sent in figures.sent.items():
        arrivals = figures.arrivals.get(key, [])
        deliveries += [(arrival - sent) * 1000 for arrival in arrivals]
        if len(arrivals) == SEATS:
            all_four.append((max(arrivals) - sent) * 1000)
    if deliveries:
        print(
            f"roll -> each client: p50 {statistics.median(deliveries):.1f} ms, "
            f"p99 {percentile(deliveries, 0.99):.1f} ms, max {max(deliveries):.1f} ms "
            f"({len(deliveries)} deliveries)"
        )
    if all_four:
        print(
            f"roll -> all {SEATS} clients: p50 {statistics.median(all_four):.1f} ms, "
            f"p99 {percentile(all_four, 0.99):.1f} ms"
        )
    return statistics.median(deliveries) if deliveries else None


def run(args: argparse.Namespace, chat: float) -> float | None:
    """One run against a fresh server; prints its figures, returns its p50 (ms)."""
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--rooms", str(args.rooms), "--folder", folder],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            opened = json.loads(server.stdout.readline())
            before = rss(server.pid)
            port, codes = opened["port"], opened["codes"]
            figures = asyncio.run(players(port, codes, args.duration, args.think, chat))
            after = rss(server.pid)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
        saved = open_store(os.path.join(folder, "games.db")).list_games().games
    talk = f"with chat, {chat:g} lines/s per player" if chat else "without chat"
    print(
        f"{args.rooms} rooms x {SEATS} players, {talk}, {args.duration:g} s, a roll "
        f"{args.think:g} s after each turn comes (cpu count {os.cpu_count()}, "
        f"load {os.getloadavg()[0]:.2f})"
    )
    if chat:
        print(f"chat lines: {figures.chats_sent} sent, {figures.chats_heard} heard")
    rate = figures.moves / args.duration
    print(f"moves: {figures.moves} ({rate:.0f}/s); games saved: {len(saved)}")
    print(f"errors: {len(figures.errors)}")
    for line in figures.errors[:10]:
        print(f"  {line}")
    p50 = latencies(figures)
    print(
        f"server memory: {before['VmRSS'] / 1024:.1f} MiB with the rooms open, "
        f"{after['VmRSS'] / 1024:.1f} MiB at the end, peak {after['VmHWM'] / 1024:.1f} MiB"
    )
    return p50


if __name__ == "__main__":
    main()
