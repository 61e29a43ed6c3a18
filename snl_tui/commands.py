"""The game's commands: one entry per action gives its key, footer label and palette entry.

``GAME_COMMANDS`` is the single source of truth: ``GameScreen.BINDINGS`` is built from it,
the command palette (``GameCommands``) lists it, and the help screen's key table is
generated from it, so keys, footer, palette and help never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class GameCommand:
    """One action of the game screen (``action_<action>`` on ``GameScreen``)."""

    action: str
    keys: str
    """Comma-separated Textual key names."""
    footer: str
    """Short label for the footer."""
    title: str
    """What the command palette shows."""
    help: str
    """One sentence for the palette and the help screen."""
    key_display: str | None = None
    show: bool = True
    palette: bool = True


GAME_COMMANDS: tuple[GameCommand, ...] = (
    GameCommand(
        "roll", "r,space", "Roll", "Roll the die", "Roll for the player to move (classic mode)."
    ),
    GameCommand(
        "choose_die",
        "d",
        "Die",
        "Choose a die value",
        "Puzzle mode: type any die value (keys 1-9 pick directly; d asks for 10-20).",
        key_display="1-9/d",
    ),
    GameCommand("undo", "u", "Undo", "Undo last move", "Puzzle mode: take back the last move."),
    GameCommand(
        "toggle_hint",
        "h",
        "Hint",
        "Toggle hint panel",
        "Least rolls left, optimal dice, one optimal route and the odds.",
    ),
    GameCommand(
        "toggle_route",
        "o",
        "Route",
        "Toggle optimal route",
        "Highlight one optimal route on the board, step by step.",
    ),
    GameCommand("new_game", "n", "New", "New game", "Choose players, mode and board."),
    GameCommand("load_board", "l", "Load", "Load board", "Pick a built-in board or a file."),
    GameCommand(
        "switch_mode",
        "m",
        "Mode",
        "Switch mode",
        "Start over in the other mode (classic <-> puzzle) on this board.",
    ),
    GameCommand(
        "edit",
        "e",
        "Edit",
        "Edit this board",
        "Open the board in the editor; back to the game after.",
        show=False,
    ),
    GameCommand(
        "toggle_animation",
        "a",
        "Animate",
        "Toggle animation",
        "Turn the move animation (die, steps, jump) on or off.",
        show=False,
    ),
    GameCommand(
        "help", "question_mark", "Help", "Help", "Rules, keys and glyphs.", key_display="?"
    ),
    GameCommand("quit", "q", "Quit", "Quit", "Leave snl.", palette=False),
)

DIE_KEYS = "123456789"


def game_bindings() -> list[Binding]:
    """The game screen's bindings, from ``GAME_COMMANDS`` plus the die keys 1-9."""
    bindings = [
        Binding(
            command.keys,
            command.action,
            command.footer,
            show=command.show,
            key_display=command.key_display,
            tooltip=command.help,
        )
        for command in GAME_COMMANDS
    ]
    bindings += [Binding(key, f"pick({key})", f"Die {key}", show=False) for key in DIE_KEYS]
    return bindings


class GameCommands(Provider):
    """Command palette entries for the game screen's actions (the same actions as the keys)."""

    def available_commands(self) -> list[GameCommand]:
        screen = self.screen
        check = getattr(screen, "check_action", None)
        available = []
        for command in GAME_COMMANDS:
            if not command.palette:
                continue
            if check is not None and check(command.action, ()) is not True:
                continue
            available.append(command)
        return available

    def _run(self, action: str) -> None:
        self.app.call_later(self.screen.run_action, action)

    async def discover(self) -> Hits:
        for command in self.available_commands():
            yield DiscoveryHit(command.title, partial(self._run, command.action), help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.available_commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(command.title),
                    partial(self._run, command.action),
                    help=command.help,
                )
