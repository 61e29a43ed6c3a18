"""Which boards' odds are lookups now, kept apart from the chain (``markov``) so that the
game can ask before anything has loaded numpy or scipy."""

from __future__ import annotations

from weakref import WeakSet

from ..board import Board

SETTLED: WeakSet[Board] = WeakSet()
"""Boards whose chain is built, turn table complete and expectations solved
(``markov.settle`` adds them, ``markov.clear_cache`` forgets them)."""
