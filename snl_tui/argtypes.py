"""Argument types shared by the ``snl`` subcommands: a bad value is one line, exit 2."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .core.text import parse_whole, quote


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``low`` (to ``high``, when given)."""
    span = f"from {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        value = parse_whole(text)  # ASCII digits only, as in board files
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {quote(text)}")
        return value

    return parse
