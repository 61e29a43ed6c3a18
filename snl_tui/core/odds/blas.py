"""One BLAS thread for the chain's dense solves.

The dense systems here are small (a board's jump corrections: a few hundred rows, a
few thousand at most), and numpy's OpenBLAS runs them on every core: on this project's
2-core machines that is no faster alone and stalls when the other core is busy (by a
factor of a thousand on a small solve under load). The game's
own thread is the other core's user too. ``one_thread()`` limits BLAS to one thread
for the duration of a block (``threadpoolctl``, set up on first use); without it, or
when the BLAS library cannot be found, the block runs as it is. A process whose BLAS was
started on one thread (the ``snl`` console script sets the variables before numpy loads,
then calls ``started_on_one_thread``) skips threadpoolctl altogether: its import and its
scan of the loaded libraries are a noticeable share of a short ``snl analyze``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_CONTROLLER: list[Any] = []


def started_on_one_thread() -> None:
    """Say that BLAS loads (or loaded) with one thread: ``one_thread`` has nothing to do.
    Call it only when the thread variables were "1" before numpy was imported."""
    if not _CONTROLLER:
        _CONTROLLER.append(None)


def _controller() -> Any:
    if not _CONTROLLER:
        try:
            from threadpoolctl import ThreadpoolController

            _CONTROLLER.append(ThreadpoolController())
        except Exception:  # no threadpoolctl, or a library it cannot read: no limit
            _CONTROLLER.append(None)
    return _CONTROLLER[0]


@contextmanager
def one_thread() -> Iterator[None]:
    """Run the block with BLAS on one thread (the previous limits come back after)."""
    controller = _controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield
