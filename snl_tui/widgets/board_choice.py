"""Which renderer a board widget gets: the picture (``board_picture.PictureRenderer``)
when the terminal speaks a picture protocol, else the character board it starts with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..core.board import Board
from .board import BoardView
from .board_picture import PictureRenderer
from .graphics_query import Protocol

AnyBoard = TypeVar("AnyBoard", bound=BoardView)


def as_picture(view: AnyBoard, protocol: Protocol | None) -> AnyBoard:
    """``view`` drawn as a picture with ``protocol`` (None: as characters)."""
    if protocol is not None:
        view.renderer = PictureRenderer(view, protocol)
        view.add_class("-pixels")
    return view


def board_widget(
    board: Board, letters: Sequence[str], protocol: Protocol | None, *, id: str = "board"
) -> BoardView:
    """The game's board: a picture with ``protocol``, else the character board."""
    return as_picture(BoardView(board, letters=letters, id=id), protocol)
