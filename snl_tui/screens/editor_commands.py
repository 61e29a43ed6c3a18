"""The editor's commands: each one's key, footer label, palette entry and help line, and
the help dialog's text made from them (one table, so keys, palette and help agree)."""

from __future__ import annotations

from ..commands import GAME_COMMANDS, GameCommand, GameCommands, command
from .help import key_cell, sentence, table

__all__ = ["EDITOR_COMMANDS", "GAME_ONLY_ACTIONS", "EditorCommands", "editor_help_text"]

EDITOR_COMMANDS: tuple[GameCommand, ...] = (
    GameCommand("save", "ctrl+s", "Save", "Save the board", "Save to its file, in its format."),
    GameCommand(
        "save_as",
        "f2",
        "Save as",
        "Save the board as...",
        "Save to a new path: .toml, .json or .txt picks the format.",
    ),
    GameCommand(
        "export", "ctrl+e", "Export", "Export...", "Write a printable page: .pdf, .png or .svg."
    ),
    GameCommand("undo_edit", "ctrl+z", "Undo", "Undo the last edit", "Jumps, size, rules, name."),
    GameCommand("redo_edit", "ctrl+y", "Redo", "Redo the edit undone", "Step forward again."),
    GameCommand("play", "p", "Play", "Play this board", "Play it as it is now, then come back."),
    GameCommand(
        "generate",
        "g",
        "Generate",
        "Generate a board",
        "Let the generator find a board that meets targets (undo brings this one back).",
    ),
    GameCommand(
        "toggle_lock",
        "l",
        "Lock",
        "Lock the jump for the generator",
        "Generate keeps the locked jumps as they are and fills in the rest.",
    ),
    GameCommand(
        "toggle_heat",
        "v",
        "Heat map",
        "Toggle the heat map",
        "Shade every square by its expected visits.",
    ),
    command("toggle_jumps"),
    command("toggle_fit"),
    GameCommand(
        "editor_help", "question_mark", "Help", "Editor help", "The editor's keys.", key_display="?"
    ),
    GameCommand(
        "leave", "q", "Quit", "Leave the editor", "Asks first about unsaved changes.", palette=False
    ),
)
BOARD_KEYS: tuple[tuple[str, str, str], ...] = (
    ("arrows", "Move the cursor", "Up is the row above; a mouse click moves it too."),
    (
        "enter",
        "Start, end or pick up a jump",
        "On a square without a jump: start one; move and press enter again to end it (up: a "
        "ladder, down: a snake). On a jump's start: pick it up to move its end.",
    ),
    (
        "x,delete",
        "Remove a jump",
        "The jump starting under the cursor; on a jump's end, the one jump ending there.",
    ),
    ("escape", "Cancel", "Drop the jump being made, or go back from the form to the board."),
    ("tab", "Form", "Move between the board and the side form (enter applies a field)."),
)
EDITOR_ACTIONS = {command.action for command in EDITOR_COMMANDS}
GAME_ONLY_ACTIONS = {command.action for command in GAME_COMMANDS} - EDITOR_ACTIONS


def editor_help_text() -> str:
    """The help dialog's Markdown: the board keys and every command, from their tables."""
    rows = [(key_cell(keys), sentence(title, text)) for keys, title, text in BOARD_KEYS]
    rows += [
        (key_cell(command.key_display or command.keys), sentence(command.title, command.help))
        for command in EDITOR_COMMANDS
    ]
    rows.append(("`ctrl+p`", sentence("Command palette", "Save, save as, generate, play...")))
    return (
        "# Board editor\n\n"
        + table(rows)
        + (
            "\n\nAn edit that would make an invalid board is refused, with the reason on the "
            "status line. Warnings (legal but probably unintended) show beside the board."
        )
    )


class EditorCommands(GameCommands):
    """Command palette entries for the editor (the same actions as its keys)."""

    def available_commands(self) -> list[GameCommand]:
        return [command for command in EDITOR_COMMANDS if command.palette]
