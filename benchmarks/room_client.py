"""A room's client against a hostile host that floods it (issue 36, item 3).

A scripted host on loopback sends ``snl join``'s client a welcome, then ``--frames``
states as large as a room allows (``MAX_HISTORY`` rolls; with ``--board 100``, a
100 x 100 board), as fast as it can, then states past the limits (300,000 rolls, a
1000 x 1000 board). Meanwhile a ticker on the client's event loop (the loop the game
screen's keys, Ctrl+Q included, are handled on) wakes every millisecond.

Printed: the time to read one largest state, the frames' size, the ticker's longest
wait (the longest a key would have waited: the goal is well under 100 ms), how long the
refused frames took to refuse, and this process's peak memory.

Run:  python benchmarks/room_client.py [--frames 20] [--board 100]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from snl_tui.net.client import RoomClient
from snl_tui.net.protocol import MAX_HISTORY, encode, read_server_frame
from tests.unit.net.hostile_host import endless_state, hostile_host, welcome


async def ticker(stalls: list[float], stop: asyncio.Event) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        stalls.append(now - last)
        last = now


async def run(frames: int, side: int) -> None:
    largest = endless_state(MAX_HISTORY, rows=side, cols=side)
    frame = encode("state", state=largest)
    started = time.perf_counter()
    read_server_frame(frame)
    read_once = time.perf_counter() - started
    beyond = [
        encode("state", state=endless_state(300_000)),
        encode("state", state=endless_state(2, rows=1000, cols=1000)),
    ]

    async def script(websocket: Any) -> None:
        await websocket.send(welcome(largest))
        for _ in range(frames):
            await websocket.send(frame)
        for big in beyond:
            await websocket.send(big)

    idle: list[float] = []
    stop = asyncio.Event()
    ticking = asyncio.create_task(ticker(idle, stop))
    await asyncio.sleep(2)  # the same ticker with nothing to read: what the machine allows
    stop.set()
    await ticking
    stalls: list[float] = []
    stop = asyncio.Event()
    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann")
        ticking = asyncio.create_task(ticker(stalls, stop))
        started = time.perf_counter()
        client.start()
        # The last frame (the 1000 x 1000 board) refused: the flood is read.
        await client.wait_for(lambda: "larger than" in (client.last_error or ""), 600)
        flood = time.perf_counter() - started
        stop.set()
        await ticking
        await client.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"largest state: {side}x{side} board, {MAX_HISTORY} rolls, {len(frame) / 1024:.0f} KB")
    print(f"  read once (decode + replay): {read_once * 1000:.0f} ms")
    print(f"flood: welcome + {frames} largest states + 2 beyond the limits in {flood:.1f} s")
    stalls.sort()
    idle.sort()
    p99 = stalls[int(len(stalls) * 0.99)]
    print(
        f"  event loop's waits: p99 {p99 * 1000:.1f} ms, longest {stalls[-1] * 1000:.1f} ms "
        f"(goal: under 100 ms; a state read on the loop would block it {read_once * 1000:.0f} ms)"
    )
    print(
        f"  the same ticker idle: p99 {idle[int(len(idle) * 0.99)] * 1000:.1f} ms, "
        f"longest {idle[-1] * 1000:.1f} ms"
    )
    print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    sizes = " and ".join(f"{len(big) / 1024:.0f} KB" for big in beyond)
    print(f"  frames beyond the limits ({sizes}) refused, the last: {client.last_error}")
    print(f"peak memory of this process: {peak:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--board", type=int, default=3, help="side of the flooded board")
    args = parser.parse_args()
    asyncio.run(run(args.frames, args.board))


if __name__ == "__main__":
    main()
