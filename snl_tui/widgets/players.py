"""The players panel: every seat's token, name, square and whose turn it is."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ..core.engine import Player
from ..core.text import place


def token_letters(players: Sequence[Player]) -> tuple[str, ...]:
    """One distinct letter per seat: the name's first letter, else the next free one."""
    letters: list[str] = []
    for seat, player in enumerate(players):
        candidates = [c.upper() for c in player.name if c.isalnum()]
        candidates += list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        letter = next((c for c in candidates if c not in letters), str(seat + 1))
        letters.append(letter)
    return tuple(letters)


def where(square: int) -> str:
    """'square 12', or 'start (off the board)': the core's words for a place."""
    return f"start ({place(square)})" if square <= 0 else place(square)


class PlayersPanel(Widget):
    """Seats in turn order; the player to move is marked."""

    COMPONENT_CLASSES = {
        "board--token-1",
        "board--token-2",
        "board--token-3",
        "board--token-4",
        "players--turn",
        "players--winner",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.players: tuple[Player, ...] = ()
        self.letters: tuple[str, ...] = ()
        self.positions: tuple[int, ...] = ()
        self.current_seat: int | None = None
        self.winner: int | None = None

    def show(
        self,
        players: Sequence[Player],
        positions: Sequence[int],
        current: int | None,
        winner: int | None = None,
    ) -> None:
        resized = len(players) != len(self.players)
        self.players = tuple(players)
        self.letters = token_letters(players)
        self.positions = tuple(positions)
        self.current_seat = current
        self.winner = winner
        self.refresh(layout=resized)  # a new layout only when the number of seats changes

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.players))

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for seat, player in enumerate(self.players):
            if seat:
                text.append("\n")
            token_style = self.get_component_rich_style(f"board--token-{seat % 4 + 1}")
            text.append(f" {self.letters[seat]} ", token_style)
            kind = " (cpu)" if player.computer else ""
            text.append(f" {player.name}{kind}: {where(self.positions[seat])}")
            if self.winner == seat:
                text.append("  winner", self.get_component_rich_style("players--winner"))
            elif self.winner is None and seat == self.current_seat:
                text.append("  ◀ to move", self.get_component_rich_style("players--turn"))
        return text
