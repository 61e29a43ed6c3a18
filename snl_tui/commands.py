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
    """One sentence for the palette and the help screen; ``{action}`` names that action's
    key (filled in by ``command_help``), so the text follows a rebinding."""
    key_display: str | None = None
    """What the footer shows instead of the keys; ``{action}`` stands for that action's key."""
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
        "Puzzle mode: keys 1-9 play a value up to the die's faces; {choose_die} asks for 10-20.",
        key_display="1-9/{choose_die}",
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
    GameCommand(
        "learn",
        "w",
        "Search",
        "Watch the search",
        "Puzzle mode: step through the breadth-first search that solves this board.",
        show=False,
        palette=False,
    ),
    GameCommand(
        "toggle_jumps",
        "j",
        "Jumps",
        "Draw or mark the jumps",
        "Draw every snake and ladder from end to end, or only mark its two ends.",
        show=False,
    ),
    GameCommand(
        "toggle_fit",
        "z",
        "Zoom",
        "Zoom out to fit the board",
        "Shrink the squares to their numbers so a big board fits whole; again to zoom in.",
        show=False,
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
        "stats",
        "s",
        "Stats",
        "Statistics",
        "Your saved history: wins, game lengths and luck against the exact odds.",
        show=False,
    ),
    GameCommand(
        "saved_games",
        "g",
        "Games",
        "Saved games",
        "The unfinished saved games: pick one to continue it (this game stays saved).",
        show=False,
    ),
    GameCommand(
        "help", "question_mark", "Help", "Help", "Rules, keys and glyphs.", key_display="{help}"
    ),
    GameCommand("quit", "q", "Quit", "Quit", "Leave snl.", palette=False),
)

DIE_KEYS = "123456789"

KEY_NAMES = {"space": "Space", "question_mark": "?", "escape": "Escape", "enter": "Enter"}
"""How a Textual key name reads in prose ('question_mark' -> '?')."""


def command(action: str) -> GameCommand:
    """The entry of ``action`` in ``GAME_COMMANDS`` (KeyError for an unknown action)."""
    for entry in GAME_COMMANDS:
        if entry.action == action:
            return entry
    raise KeyError(action)


def key_list(keys: str) -> list[str]:
    """'r,space' -> ['r', 'Space']: a binding's keys as a player types them."""
    return [KEY_NAMES.get(key.strip(), key.strip()) for key in keys.split(",")]


def keys_of(action: str) -> str:
    """An action's keys in prose, from the table: 'roll' -> 'r or space'. Every status
    line, button and help text names keys through this, so a rebinding cannot leave stale
    text behind."""
    names = key_list(command(action).keys)
    spoken = [name.lower() if len(name) > 1 and name != "?" else name for name in names]
    return " or ".join(spoken)


def first_key(action: str) -> str:
    """The action's first key ('roll' -> 'r'), e.g. for a button label."""
    return key_list(command(action).keys)[0]


def command_help(entry: GameCommand) -> str:
    """An entry's help sentence, its ``{action}`` mentions filled in with their keys."""
    return fill_keys(entry.help)


def fill_keys(text: str) -> str:
    """Replace each ``{action}`` in ``text`` with that action's first key."""
    for entry in GAME_COMMANDS:
        text = text.replace("{" + entry.action + "}", first_key(entry.action))
    return text


BindingList = list[Binding | tuple[str, str] | tuple[str, str, str]]
"""The type of a screen's ``BINDINGS``."""


def game_bindings() -> BindingList:
    """The game screen's bindings, from ``GAME_COMMANDS`` plus the die keys 1-9."""
    bindings: BindingList = [
        Binding(
            command.keys,
            command.action,
            command.footer,
            show=command.show,
            key_display=fill_keys(command.key_display) if command.key_display else None,
            tooltip=command_help(command),
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
            yield DiscoveryHit(
                command.title, partial(self._run, command.action), help=command_help(command)
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.available_commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(command.title),
                    partial(self._run, command.action),
                    help=command_help(command),
                )
