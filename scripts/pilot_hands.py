"""Hands in process over every screen (issue 40): each screen of ``tests/app/hands.py``
handled for a few hundred random pointer moves, clicks, drags, wheel turns and keys at
several terminal sizes, with Sixel, Kitty's protocol and the character board; prints
each run's end (ok, or the exception and where) and a total.

    python scripts/pilot_hands.py [ACTIONS] [SCREEN...]
"""

from __future__ import annotations

import asyncio
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.app.hands import SCREENS, hands  # noqa: E402

SIZES = ((80, 24), (131, 41), (60, 18), (100, 30), (200, 60), (80, 24))
PROTOCOLS = (None, "sixel", "kitty")
SEEDS = (1,)


async def one(name: str, protocol: str | None, actions: int, seed: int) -> str:
    screen = next(s for s in SCREENS if s.name == name)
    app = screen.app()
    app.pixels = protocol  # type: ignore[assignment]
    try:
        async with app.run_test(size=SIZES[0], notifications=True, tooltips=True) as pilot:
            done = await hands(pilot, screen.opening, SIZES, seed, actions, screen.keys)
        return f"ok ({done} actions)"
    except Exception as error:  # reported; the next run goes on
        return "FAILED " + "".join(traceback.format_exception(error)[-6:])


def main(argv: list[str]) -> int:
    actions = int(argv[0]) if argv and argv[0].isdigit() else 300
    names = [a for a in argv if not a.isdigit()] or [s.name for s in SCREENS]
    failed = 0
    for name in names:
        for protocol in PROTOCOLS:
            for seed in SEEDS:
                start = time.monotonic()
                result = asyncio.run(one(name, protocol, actions, seed))
                failed += result.startswith("FAILED")
                took = time.monotonic() - start
                print(f"{name:12} {protocol or 'text':6} seed {seed}: {result} {took:.1f} s")
                sys.stdout.flush()
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
