"""Who drives each seat of a game: a person at this keyboard, the computer, or a person on
another machine (a room served by ``snl host``).

The session (``GameSession.driver``, ``seat_to_move``, ``move_for``) answers whose move is
next and who makes it; a screen or a room server then waits for that driver. Nothing here
knows how a remote person is reached: the network lives in ``snl_tui.net``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .engine import Player
from .errors import SnlError


class Driver(StrEnum):
    """What makes a seat's moves."""

    LOCAL = "local"
    """A person at this keyboard."""
    COMPUTER = "computer"
    """The computer rolls by itself (a ``cpu`` player)."""
    REMOTE = "remote"
    """A person on another machine, through a room."""


@dataclass(frozen=True)
class Seat:
    """One seat of the game being played: its place in turn order, player and driver."""

    index: int
    player: Player
    driver: Driver


class TurnError(SnlError):
    """A move asked for a seat that cannot make it now (not its turn, game over, a die
    chosen where dice are rolled)."""


def seat_driver(player: Player, remote: bool) -> Driver:
    """A seat played elsewhere is remote, whoever plays it there (a room's client sees
    the host's computer seats as remote: the host rolls for them); here, a computer
    player is the computer's and a person is local."""
    if remote:
        return Driver.REMOTE
    return Driver.COMPUTER if player.computer else Driver.LOCAL


__all__ = ["Driver", "Seat", "TurnError", "seat_driver"]
