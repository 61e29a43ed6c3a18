"""The game's messages, as small dataclasses (posted by the game screen to itself and
to anything that wants to follow the game, such as tests and the benchmark)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.message import Message

from .core.board import Board
from .core.engine import Turn
from .core.session import GameSession


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


@dataclass
class EditRequested(Message):
    """Open the board editor on ``board`` (the game's ``e``); ``done`` receives what the
    editor returns: the board to play, or None when nothing changed. The app opens the
    editor, so the game screen and the editor (which plays boards) need not import each
    other."""

    board: Board
    done: Callable[[Board | None], None]


@dataclass
class SettingChanged(Message):
    """The player changed something snl remembers between runs (``core.store.settings``):
    ``name`` is a ``Settings`` field. The app writes it, when it remembers settings."""

    name: str
    value: object


@dataclass
class ResumeRequested(Message):
    """Continue saved game ``game_id`` (the saved-games screen's choice)."""

    game_id: int


# -- the editor's board: what its keys and clicks ask of the editor ---------------------------


@dataclass
class CursorMoveRequested(Message):
    """An arrow key on the editor's board: move the cursor one square on screen."""

    dx: int
    dy: int


@dataclass
class SquareClicked(Message):
    """A click on the editor's board, on ``square``: the cursor goes there."""

    square: int


@dataclass
class JumpKeyPressed(Message):
    """Enter on the editor's board: start, end or pick up a jump at the cursor."""


@dataclass
class RemoveKeyPressed(Message):
    """x or Delete on the editor's board: remove the jump under the cursor."""


# -- a table's news for the game screen (a room: what its host sent) ------------------------


@dataclass
class SessionReplaced(Message):
    """The whole game arrived anew (joining, rejoining, a new game): show ``session``."""

    session: GameSession


@dataclass
class MoveArrived(Message):
    """A move made elsewhere (a room's host), already played in the session: show it."""

    turn: Turn


@dataclass
class StateChanged(Message):
    """Who is here, whose turn, the clock...: show the state again (once a move shown)."""


@dataclass
class StatusSaid(Message):
    """A line for the status line (a room's error)."""

    text: str
