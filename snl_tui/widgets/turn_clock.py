"""The turn clock of a room (``snl host --turn-time``): the seconds left to roll.

One line under the die: "Ann: 23 s left to roll" (for the player to move), "your turn:
9 s left" on their own screen, nothing when no clock runs. The room screen tells it the
deadline and who is to move; it counts down by itself once a second.
"""

from __future__ import annotations

import math
import time

from textual.widgets import Static


class TurnClock(Static):
    """Seconds left for the player to move, counting down (blank without a clock)."""

    DEFAULT_CSS = """
    TurnClock {
        height: 1;
        padding: 0 1;
        color: $text-warning;
        &.-hidden { display: none; }
        &.-urgent { text-style: bold; color: $text-error; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.deadline: float | None = None
        """When the clock runs out (``time.monotonic``); None: no clock."""
        self.who = ""
        self.mine = False

    def on_mount(self) -> None:
        self.set_interval(1, self._tick)
        self._tick()

    def show(self, seconds: float | None, who: str, mine: bool) -> None:
        """The player to move (``who``) has ``seconds`` left (None: no clock runs)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.who, self.mine = who, mine
        self._tick()

    def left(self) -> int | None:
        if self.deadline is None:
            return None
        return max(0, math.ceil(self.deadline - time.monotonic()))

    def _tick(self) -> None:
        left = self.left()
        self.set_class(left is None, "-hidden")
        self.set_class(left is not None and left <= 10, "-urgent")
        if left is None:
            return
        text = f"your turn: {left} s left" if self.mine else f"{self.who}: {left} s left to roll"
        if self.content != text:
            self.update(text, layout=False)


__all__ = ["TurnClock"]
