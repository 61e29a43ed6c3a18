"""The routing, made faster, lays every jump as it did before (``scripts/
routing_identity.py``): the same ends, curves, hidden things, numbers' boxes and even the
same count of scored sample points, on the quicker of the stored boards (the script
checks them all, the crowded ones included)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from routing_identity import BEFORE, board_of, laid  # noqa: E402

ITEMS: list[dict[str, Any]] = json.loads(BEFORE.read_text(encoding="utf-8"))
QUICK = 300_000
"""Boards whose routing scored at most this many sample points (a few hundredths of a
second each), and the crowded ones named in ``CROWDED``."""
CROWDED = ("seed 8",)
"""A crowded board where the routing lays jumps again and one still hides something."""


@pytest.mark.parametrize(
    "item",
    [item for item in ITEMS if item["laid"]["work"] <= QUICK or item["name"] in CROWDED],
    ids=lambda item: item["name"],
)
def test_the_routing_lays_every_jump_as_before(item: dict[str, Any]) -> None:
    assert laid(board_of(item)) == item["laid"]
