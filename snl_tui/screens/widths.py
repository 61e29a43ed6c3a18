"""The terminal widths below which the game's side column narrows (snl.tcss), shared by
the game and the replay so that both give the board the same room."""

from __future__ import annotations

NARROW_WIDTH, CRAMPED_WIDTH = 110, 90
"""Narrower terminals get a narrower side column, so the board keeps room (snl.tcss)."""
