"""Routings worked out ahead of time for the built-in boards (issue 43: `snl export
everest` spent 1.4 s of its CPU routing 34 jumps, every time): each jump's ends and
curve, what it still hides and every number's box, in ``routes.json`` beside this file,
with a stamp of the routing's code. A board with the same size and jumps, routed by the
same code, is drawn again from them (a few milliseconds); any other board, or any change
to the routing's code, routes as before. ``scripts/store_routes.py`` writes the file,
and a test checks that each stored routing is the one the routing works out.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..board import Board, Jump
from .routing import Routing
from .shapes import JumpPath, shaped_path

ROUTES = Path(__file__).with_name("routes.json")
CODE = ("shapes.py", "scoring.py", "obstacles_table.py", "closeness.py", "routing.py")
"""The files whose code decides a routing: a stored one is used only with their stamp."""


def code_stamp() -> str:
    """A fingerprint of the routing's code."""
    digest = hashlib.sha256()
    for name in CODE:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:16]


def board_key(board: Board) -> str:
    """What a routing depends on: the board's size and jumps (not its rules or name)."""
    return f"{board.rows}x{board.cols}:" + ",".join(
        f"{start}-{end}" for start, end in sorted(board.jumps.items())
    )


@lru_cache(maxsize=1)
def _stored() -> dict[str, Any]:
    try:
        data = json.loads(ROUTES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != code_stamp():
        return {}
    boards = data.get("boards")
    return boards if isinstance(boards, dict) else {}


def stored_routing(board: Board) -> Routing | None:
    """``board``'s routing as stored, or None (not stored, or by other code)."""
    entry = _stored().get(board_key(board))
    if entry is None:
        return None
    paths = []
    shapes = []
    for start, end, lane, a, b, shape, hits in entry["paths"]:
        jump = Jump(start, end)
        drawn = shaped_path(jump, lane, tuple(a), tuple(b), tuple(shape))
        paths.append(
            JumpPath(
                jump, lane, drawn.start, drawn.end, drawn.rails, drawn.rungs, drawn.body,
                tuple(hits), drawn.centre,
            )
        )  # fmt: skip
        shapes.append(tuple(shape))
    boxes = {int(square): tuple(box) for square, box in entry["boxes"].items()}
    return Routing(tuple(paths), boxes, tuple(shapes))


def routing_entry(routing: Routing) -> dict[str, Any]:
    """``routing`` as stored (``stored_routing`` reads it back)."""
    return {
        "paths": [
            [
                path.jump.start,
                path.jump.end,
                path.lane,
                list(path.start),
                list(path.end),
                list(shape),
                list(path.hits),
            ]
            for path, shape in zip(routing.paths, routing.shapes, strict=True)
        ],
        "boxes": {str(square): list(box) for square, box in sorted(routing.boxes.items())},
    }


def write_routes(boards: list[Board], path: Path = ROUTES) -> None:
    """Route ``boards`` afresh and store them with the code's stamp."""
    from .routing import Router

    entries = {board_key(board): routing_entry(Router(board).run()) for board in boards}
    text = json.dumps({"stamp": code_stamp(), "boards": entries}, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")
    _stored.cache_clear()
