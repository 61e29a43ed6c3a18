"""snl: Snakes & Ladders for the terminal.

The library API (SPEC 3)::

    from snl_tui import Board, Rules, solve, load_board, analyze

Importing this package never imports Textual; only ``snl_tui.app`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.board import Board
from .core.errors import BoardError, MoveError, RulesError, SnlError
from .core.rules import Rules
from .core.solver import Solution, solve

if TYPE_CHECKING:
    from .core.files.formats import load_board
    from .core.odds.analysis import Analysis, analyze

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "Board",
    "BoardError",
    "MoveError",
    "Rules",
    "RulesError",
    "SnlError",
    "Solution",
    "analyze",
    "load_board",
    "solve",
]

_LAZY = {
    "load_board": ("snl_tui.core.files.formats", "load_board"),
    "analyze": ("snl_tui.core.odds.analysis", "analyze"),
    "Analysis": ("snl_tui.core.odds.analysis", "Analysis"),
}


def __getattr__(name: str) -> Any:
    # Formats and analysis load on first use (numpy stays out of a plain import).
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'snl_tui' has no attribute {name!r}")
