"""What the game screen shows on its board widget: the game's name and rules around the
board, the tokens and the route with the view on the player to move, and which square a
click is on.

Plain functions over the board widget's own API (``BoardView.show``, ``follow``,
``square_at_offset``; the picture shares it): the game screen (``screens/game.py``) says
when, these say what.
"""

from __future__ import annotations

from textual.content import Content
from textual.events import Click

from ..core.session import GameSession
from .board import BoardView

__all__ = ["clicked_square", "show_titles", "show_tokens"]


def show_titles(view: BoardView, session: GameSession) -> None:
    """The game's name above the board, the rules below it (once: the header says
    what the program is, "snl — Snakes & Ladders", not the game's name again)."""
    # Text from a board file is shown literally: a name like "[/]" is not markup.
    view.border_title = Content(session.title())
    view.border_subtitle = Content(session.board.rules.describe())


def show_tokens(view: BoardView, session: GameSession) -> None:
    """The tokens and the route on the board, the view on the current player (the
    winner, once there is one: the view follows them to the goal)."""
    game = session.game
    current = None if game.over else game.current
    view.show(game.positions, session.route, current)
    followed = current if current is not None else game.winner
    if followed is not None:
        view.follow(game.positions[followed])


def clicked_square(view: BoardView, event: Click) -> int | None:
    """The square under a click on ``view`` (None: between squares, or off the board)."""
    offset = event.get_content_offset(view)
    return None if offset is None else view.square_at_offset(offset.x, offset.y)
