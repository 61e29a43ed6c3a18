"""Work a screen runs off the UI thread, whose result is shown only if it still fits.

The game asks for slow figures (the solver's answer, the hint's odds, the end-of-game
report, a clicked square's odds) in thread workers, and the game moves on meanwhile. Each
request names a ``key``: what the result is about (the board, the positions and seat, the
session's generation). The result is handed to ``show`` on the UI thread only if the
screen's key is the same then; otherwise it is dropped, since a newer request follows.
One helper for every such worker, instead of each checking staleness its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from textual.screen import Screen

Result = TypeVar("Result")

NOTHING: Any = object()
"""What ``compute`` returns when there is nothing to show (the work found no answer)."""


def in_background(
    screen: Screen[Any],
    group: str,
    key: Callable[[], Hashable],
    compute: Callable[[], Result],
    show: Callable[[Result], None],
) -> None:
    """Run ``compute`` in a thread worker of ``screen`` (one at a time per ``group``: a
    newer request cancels the older), then ``show`` its result on the UI thread if
    ``key()`` is what it was when asked."""
    asked = key()

    def deliver(result: Result) -> None:
        if screen.is_attached and key() == asked:
            show(result)

    def work() -> None:
        result = compute()
        if result is not NOTHING:
            screen.app.call_from_thread(deliver, result)

    screen.run_worker(work, thread=True, exclusive=True, group=group)
