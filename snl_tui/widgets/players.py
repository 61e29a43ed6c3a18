"""The players panel: every seat's token, name, square and whose turn it is (and, in a
room, a last line naming the watchers)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.geometry import Region, Size
from textual.widget import Widget

from ..core.cells import cell_width, cut_cells
from ..core.engine import Player
from ..core.session import GameSession
from ..core.text import place


def token_letters(players: Sequence[Player]) -> tuple[str, ...]:
    """One distinct letter per seat: the name's first letter, else the next free one.
    A token takes one terminal cell: a wide letter (``小``) is passed over."""
    letters: list[str] = []
    for seat, player in enumerate(players):
        capitals = (c.upper() for c in player.name if c.isalnum())
        candidates = [c for c in capitals if len(c) == 1 and cell_width(c) == 1]
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
        self.footer = ""
        """A last line under the seats ("watching: Cy, Di"), or none when empty."""

    def show_footer(self, text: str) -> None:
        """Show (or, with "", remove) the line under the seats."""
        if text == self.footer:
            return
        grows = bool(text) != bool(self.footer)
        self.footer = text
        self.refresh(layout=grows)

    def show(
        self,
        players: Sequence[Player],
        positions: Sequence[int],
        current: int | None,
        winner: int | None = None,
    ) -> None:
        """Show the seats; repaints only the lines that changed (after a move, the mover's
        and the next player's), not the panel's border and title."""
        width = self.content_region.width
        before = self.rows(width)
        resized = len(players) != len(self.players)
        self.players = tuple(players)
        self.letters = token_letters(players)
        self.positions = tuple(positions)
        self.current_seat = current
        self.winner = winner
        if resized or not width:
            self.refresh(layout=resized)  # a new layout only when the number of seats changes
            return
        for seat, row in enumerate(self.rows(width)):
            if row != before[seat]:
                self.refresh(Region(0, seat, width, 1))

    def update_from(self, session: GameSession, players: Sequence[Player]) -> None:
        """The seats of ``session``'s game: where each stands, whose turn, who won;
        ``players``: the seats as the table lists them (a room's marks who is who)."""
        game = session.game
        self.show(players, game.positions, None if game.over else game.current, game.winner)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.players) + (1 if self.footer else 0))

    def rows(self, width: int) -> list[tuple[str, str, str, str]]:
        """(letter, name and square, mark, the mark's component class) for each seat: the
        full wording when every line fits ``width``, else the short one (``Ann: 12 ◀``),
        so that four players show whole at 80x24; a line still too long is cut with '…'."""
        rows = [self._row(seat, short=False) for seat in range(len(self.players))]
        if width and any(3 + cell_width(line + mark) > width for line, mark, _ in rows):
            rows = [self._row(seat, short=True) for seat in range(len(self.players))]
        shown = []
        for seat, (line, mark, mark_style) in enumerate(rows):
            if width and 3 + cell_width(line + mark) > width:
                room = max(1, width - 3 - cell_width(mark))
                line = cut_cells(line, room - 1) + "…"
            shown.append((self.letters[seat], line, mark, mark_style))
        return shown

    def render(self) -> Text:
        """One line per seat (``rows``), each token in its player's colours."""
        text = Text(no_wrap=True, overflow="ellipsis")
        for seat, (letter, line, mark, mark_style) in enumerate(
            self.rows(self.content_region.width)
        ):
            if seat:
                text.append("\n")
            token_style = self.get_component_rich_style(f"board--token-{seat % 4 + 1}")
            text.append(f" {letter} ", token_style)
            text.append(line)
            if mark:
                text.append(mark, self.get_component_rich_style(mark_style))
        if self.footer:
            width = self.content_region.width
            footer = f" {self.footer}"
            if width and cell_width(footer) > width:
                footer = cut_cells(footer, max(1, width - 1)) + "…"
            text.append("\n" + footer)
        return text

    def _row(self, seat: int, *, short: bool) -> tuple[str, str, str]:
        """(name and square, turn or winner mark, the mark's component class)."""
        player, square = self.players[seat], self.positions[seat]
        kind = " (cpu)" if player.computer else ""
        place = (str(square) if square > 0 else "start") if short else where(square)
        if self.winner == seat:
            mark, mark_style = ("  winner", "players--winner")
        elif self.winner is None and seat == self.current_seat:
            mark, mark_style = (" ◀" if short else "  ◀ to move", "players--turn")
        else:
            mark, mark_style = "", ""
        return f" {player.name}{kind}: {place}", mark, mark_style
