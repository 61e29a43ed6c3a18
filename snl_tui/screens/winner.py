"""The end-of-game dialog: the winner (classic) or the score against the optimum (puzzle).

A ``ModalScreen`` returning via ``dismiss``: "new" (another game), "retry" (the same
puzzle again, puzzle mode only), "quit", or None (close the dialog and look at the final
board).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from ..core.engine import Game
from ..core.errors import SnlError
from ..core.odds.report import luck_text
from ..core.text import plural
from .dialog import Dialog


@dataclass(frozen=True)
class GameReport:
    """What the dialog says."""

    title: str
    lines: tuple[str, ...]
    retry: bool = False
    """Offer "Try again" (the same puzzle on the same board)."""


def winner_share(game: Game, turns: int) -> float | None:
    """The share of games with this many players whose winner needed at most ``turns``
    turns (``core.odds.analysis.winner_finished_within``).

    None when the analysis is unavailable (the dialog then just leaves the line out).
    """
    from ..core.odds.analysis import winner_finished_within  # numpy: only when a game ends

    try:
        return winner_finished_within(game.board, len(game.players), turns)
    except SnlError:
        return None


def winner_report(game: Game) -> GameReport:
    """Names the winner, the game's length and how lucky it was."""
    assert game.winner is not None
    winner = game.players[game.winner]
    turns = game.turns_taken[game.winner]
    rolls = len(game.history)
    lines = [f"{winner.name} won in {plural(turns, 'turn')} ({plural(rolls, 'roll')} in all)."]
    share = winner_share(game, turns)
    if share is not None:
        lines.append(luck_text(share, len(game.players), turns))
    return GameReport(wins(winner.name), tuple(lines))


def wins(name: str) -> str:
    """'Ann wins!', but 'You win!' for the default human player 'You'."""
    return "You win!" if name.casefold() == "you" else f"{name} wins!"


def puzzle_solved(game: Game, optimal: int) -> GameReport:
    """'Solved in N moves (optimal: M)'."""
    moves = len(game.history)
    verdict = (
        "Perfect: an optimal solution!"
        if moves == optimal
        else (f"{moves - optimal} more than the optimum: try again?")
    )
    return GameReport(
        "Puzzle solved",
        (f"Solved in {plural(moves, 'move')} (optimal: {optimal}).", verdict),
        retry=True,
    )


class GameOverScreen(Dialog[str | None]):
    """Offers a new game (or the same puzzle again), a replay of this game or quitting;
    Escape closes it to look at the board."""

    CSS_PATH = "dialogs.tcss"

    AUTO_FOCUS = "#retry, #new"
    """"Try again" after a puzzle (it comes first), else "New game"."""

    BINDINGS = [
        Binding("t", "choose('retry')", "Try again"),
        Binding("n", "choose('new')", "New game"),
        Binding("p", "choose('replay')", "Replay"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose(None)", "Close"),
    ]

    def __init__(self, report: GameReport) -> None:
        super().__init__()
        self.report = report

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("retry",):
            return self.report.retry
        return True

    def compose(self) -> ComposeResult:
        with Vertical(id="game-over", classes="dialog"):
            yield Label(self.report.title, id="game-over-title", markup=False)
            for line in self.report.lines:
                yield Static(line, classes="game-over-line", markup=False)
            with Horizontal(classes="buttons"):
                if self.report.retry:
                    yield Button(button_label("retry"), id="retry", variant="primary")
                yield Button(
                    button_label("new"),
                    id="new",
                    variant="default" if self.report.retry else "primary",
                )
                yield Button(button_label("replay"), id="replay")
                yield Button(button_label("quit"), id="quit", variant="error")

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)  # once: Dialog ignores a second key before it is gone

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id)


def button_label(choice: str) -> str:
    """'Try again (t)': the button's words and key, from ``GameOverScreen.BINDINGS``."""
    action = f"choose('{choice}')"
    for binding in GameOverScreen.BINDINGS:
        if isinstance(binding, Binding) and binding.action == action:
            return f"{binding.description} ({binding.key.split(',')[0]})"
    raise KeyError(choice)
