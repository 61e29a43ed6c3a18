"""The move log: one line per move, as the core describes it (``Move.describe``)."""

from __future__ import annotations

from textual.widgets import Log

from ..core.engine import Player, Turn


def describe_turn(turn: Turn, players: tuple[Player, ...]) -> str:
    """'3. Ann rolled 4: 12 -> 16, snake to 6' plus a note for an extra roll."""
    text = f"{turn.turn:>3}. {turn.move.describe(players[turn.player].name)}"
    if turn.again:
        text += " (rolls again)"
    return text


class MoveLog(Log):
    """Every move of the game, newest at the bottom (a Line-API log, plain text)."""

    def show_history(self, history: list[Turn], players: tuple[Player, ...]) -> None:
        """Replace the log with a whole history (new game, undo)."""
        self.clear()
        self.write_lines([describe_turn(turn, players) for turn in history])

    def catch_up(self, history: list[Turn], players: tuple[Player, ...]) -> None:
        """Add the moves of ``history`` the log does not show yet (one line each)."""
        self.write_lines([describe_turn(turn, players) for turn in history[self.line_count :]])
