"""The routing lays every jump as it did before it was made faster (issue: the suite's
speed): ``tests/unit/routings_before.json`` holds, for the built-in boards and 60 random
boards of 4 to 12 squares a side (a few jumps to crowded), what the routing laid (each
jump's ends, curve and what it still hides), a digest of the numbers' boxes and how many
sample points it scored, as the routing of main at deb8965 laid them. The suite checks the
quicker boards (``tests/unit/test_routing_identity.py``); this checks them all.

Run:  python scripts/routing_identity.py
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from snl_tui.core.board import Board
from snl_tui.core.geometry.routing import Router
from snl_tui.core.geometry.stored import routing_entry

BEFORE = Path(__file__).resolve().parent.parent / "tests" / "unit" / "routings_before.json"


def laid(board: Board) -> dict[str, Any]:
    """What the routing lays on ``board``, as stored in ``BEFORE``."""
    router = Router(board)
    entry = routing_entry(router.run())
    boxes = json.dumps(entry["boxes"], sort_keys=True).encode()
    return {
        "paths": entry["paths"],
        "boxes": hashlib.sha256(boxes).hexdigest()[:16],
        "work": router.work,
    }


def board_of(item: dict[str, Any]) -> Board:
    return Board(item["rows"], item["cols"], [tuple(jump) for jump in item["jumps"]])


def main() -> int:
    items = json.loads(BEFORE.read_text(encoding="utf-8"))
    differ = 0
    began = time.process_time()
    for item in items:
        if laid(board_of(item)) != item["laid"]:
            differ += 1
            print(f"differs: {item['name']}")
    seconds = time.process_time() - began
    print(f"{len(items)} boards, {differ} laid otherwise; {seconds:.1f} s of CPU")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
