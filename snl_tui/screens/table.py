"""Who sits at the game screen's table: the strategy a ``GameScreen`` holds.

``Table`` is the game on this machine: every seat is played here (a person's keys, the
computer's rolls), and the screen's own rules decide. A room (``screens/room.py``'s
``RoomSession``) is another table: its seats are on other machines, the host rolls every
die, and it adds the room's widgets (the turn clock), its words (whose turn, who is away)
and its keys (chat, the bell, the host's powers). The screen asks its table at each of
these points and never knows which one it holds: a feature composed in, not a subclass
overriding the screen's helpers (STYLE, "Compose a feature in").
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widget import Widget

from ..core.engine import Player
from ..core.session import GameSession

ROOM_ORDERS = ("chat", "toggle_bell", "host_powers")
"""The keys only a room offers (``GameScreen.action_room``): hidden at a local table."""


class Table:
    """The local game: nothing added, nothing changed."""

    def mounted(self) -> None:
        """The screen is mounted (its first frame is coming)."""

    def side_panels(self) -> list[Widget]:
        """Widgets of the table's own, under the die (a room's turn clock)."""
        return []

    def shown_players(self, session: GameSession) -> Sequence[Player]:
        """The players as the players panel lists them."""
        return session.game.players

    def hint_seat(self, session: GameSession) -> int:
        """The seat the hint, the odds and the route are about."""
        return session.hint_seat

    def may_move(self) -> bool:
        """Besides the screen's own rule (no move shown, a local seat to move)."""
        return True

    def roll(self) -> bool:
        """``r``: True when the table rolled itself (a room asks its host)."""
        return False

    def allows(self, action: str, session: GameSession) -> bool | None:
        """Whether an action is offered (None: as the screen's own rules say)."""
        return False if action in ROOM_ORDERS else None

    def order(self, name: str) -> None:
        """One of ``ROOM_ORDERS`` (never offered here)."""

    def again(self) -> bool:
        """Another game once this one is over: True when the table starts it."""
        return False

    def quit(self) -> bool:
        """``q``: True when the table asked or left itself."""
        return False

    def status(self) -> str | None:
        """The status line when the screen has nothing to say (None: the session's)."""
        return None

    def everything_shown(self) -> None:
        """The game was shown afresh (the move log rebuilt)."""

    def state_shown(self) -> None:
        """The state (players, tokens, hint, status) was shown."""


__all__ = ["ROOM_ORDERS", "Table"]
