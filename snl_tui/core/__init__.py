"""The core of snl: rules, boards, engine, solver, file formats and analysis.

Nothing in this package imports Textual: scripts, the CLI and the tests use it alone.
"""

from .board import Board, Jump, JumpSpec
from .engine import Game, Move, Player, Turn, legal_dice, move, next_position
from .errors import BoardError, MoveError, RulesError, SnlError
from .rules import Rules
from .solver import (
    Solution,
    distances_to_goal,
    least_rolls_from,
    optimal_dice,
    optimal_route,
    solve,
)

__all__ = [
    "Board",
    "BoardError",
    "Game",
    "Jump",
    "JumpSpec",
    "Move",
    "MoveError",
    "Player",
    "Rules",
    "RulesError",
    "SnlError",
    "Solution",
    "Turn",
    "distances_to_goal",
    "least_rolls_from",
    "legal_dice",
    "move",
    "next_position",
    "optimal_dice",
    "optimal_route",
    "solve",
]
