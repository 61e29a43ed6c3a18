"""What a check finds (``Finding``): shared by ``checks`` and ``looks``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FindingKind = Literal[
    "unreachable-goal",
    "jump-on-square-one",
    "snake-wall",
    "jump-meets-jump",
    "idle-jump",
    "trap",
    "odds-unavailable",
    "long-games",
    "short-games",
    "snake-trap",
    "drawn-over",
    "jump-hides",
    "sideways-jump",
    "twin-jumps",
    "dull-board",
    "jumps-run-close",
]


@dataclass(frozen=True)
class Finding:
    """One thing ``snl check`` says about a board: ``kind``, the ``squares`` concerned
    (sorted, 0 = off the board) and a one-line ``message``."""

    kind: FindingKind
    squares: tuple[int, ...]
    message: str
