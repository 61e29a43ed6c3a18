"""The game's messages, as small dataclasses (posted by the game screen to itself and
to anything that wants to follow the game, such as tests and the benchmark)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .core.engine import Turn


@dataclass
class TurnPlayed(Message):
    """A move has been applied by the engine and fully shown (animation included)."""

    turn: Turn


@dataclass
class GameStarted(Message):
    """A new game began (new board, players or mode)."""

    board_name: str
    mode: str


@dataclass
class GameEnded(Message):
    """The game reached the goal: ``winner`` is the seat, ``rolls`` the rolls in all."""

    winner: int
    rolls: int
