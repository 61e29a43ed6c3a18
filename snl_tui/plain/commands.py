"""The commands a player types in screen-reader mode, and how a typed line is read.

A line is a command's name or its first letters (the first command in ``COMMANDS`` order
that starts with what was typed: ``r`` is roll, ``rou`` is route, ``h`` is hint, ``he``
is help), a die value (a whole number, for a puzzle), ``?`` for help, or empty (roll).
Whatever else was typed is one line of help. The game and the room each offer the
commands that make sense there (``names``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.text import parse_whole, quote


@dataclass(frozen=True)
class Command:
    name: str
    says: str
    """What the command does, for ``help``."""


COMMANDS = (
    Command("roll", "roll the die (an empty line rolls too)"),
    Command("where", "where everyone is and whose move it is"),
    Command("board", "the snakes and ladders ahead of you; 'board all' lists every one"),
    Command("hint", "the least rolls left and the best die values"),
    Command("odds", "expected turns left and everyone's chance to win"),
    Command("route", "one shortest route to the goal, die by die"),
    Command("resume", "go on with the unfinished game offered, instead of this new one"),
    Command("undo", "take back the last move (puzzle)"),
    Command("new", "start a new game"),
    Command("again", "ask the host for a new game once this one is over"),
    Command("say", "say the last move again"),
    Command("chat", "say one line to everyone in the room: chat hello all"),
    # The host's powers in a room (the host's own seat only).
    Command("skip", "the host skips the turn of the player to move: skip, or skip Bo"),
    Command("computer", "the host lets the computer play a seat: computer 2, or computer Bo"),
    Command("person", "the host gives a seat back to its person: person 2"),
    Command("hand", "the host gives an away seat to whoever joins with its name next"),
    Command("kick", "the host removes a player; the computer plays the seat to the end"),
    Command("mute", "the host silences someone's chat: mute Bo"),
    Command("unmute", "the host lets someone chat again: unmute Bo"),
    Command("help", "this list"),
    Command("quit", "leave (the game stays saved)"),
)
"""Every command, in the order first letters are matched."""

DIE = "die"
"""The command of a line that is a whole number: a die value chosen in a puzzle."""


@dataclass(frozen=True)
class Typed:
    """A line read: its command (None when it is none), the rest of the line, and the
    die value when the line is a number."""

    command: str | None
    rest: str = ""
    die: int | None = None
    typed: str = ""


def short_name(name: str, names: Sequence[str]) -> str:
    """The fewest first letters of ``name`` that mean it among ``names``."""
    for length in range(1, len(name) + 1):
        prefix = name[:length]
        if next(n for n in names if n.startswith(prefix)) == name:
            return prefix
    return name


def read_line(line: str, names: Sequence[str]) -> Typed:
    """What ``line`` asks for among the commands ``names`` (in ``COMMANDS`` order)."""
    words = line.strip().split(maxsplit=1)
    if not words:
        return Typed("roll" if "roll" in names else None, typed="")
    word, rest = words[0].casefold(), words[1] if len(words) > 1 else ""
    if word == "?":
        return Typed("help" if "help" in names else None, rest, typed=word)
    number = parse_whole(word)
    if number is not None:
        return Typed(DIE, rest, die=number, typed=word)
    for name in names:
        if name.startswith(word):
            return Typed(name, rest, typed=word)
    return Typed(None, rest, typed=word)


def help_line(names: Sequence[str], *, die: str | None = None, empty: str = "roll") -> str:
    """'Commands: roll (r, or an empty line), where (w), ...': one line, every command
    of ``names`` with its shortest first letters; ``die`` says how to choose a value,
    ``empty`` is the command an empty line runs."""
    parts = []
    for name in names:
        short = short_name(name, names)
        alias = [short] if short != name else []
        if name == empty:
            alias.append("or an empty line")
        if name == "help":
            alias.append("or ?")
        parts.append(f"{name} ({', '.join(alias)})" if alias else name)
    text = "Commands: " + ", ".join(parts) + "."
    if die is not None:
        text = f"{die} {text}"
    return text


def describe_commands(names: Sequence[str], table: Sequence[Command] = COMMANDS) -> list[str]:
    """One line per command: its name, first letters and what it does (``help all``);
    ``table``: the commands of another mode (learn, edit)."""
    lines = []
    for command in table:
        if command.name in names:
            short = short_name(command.name, names)
            alias = f", or {short}" if short != command.name else ""
            lines.append(f"{command.name}{alias}: {command.says}.")
    return lines


def unknown_line(typed: Typed, names: Sequence[str], *, empty: str = "roll") -> str:
    """One line of help for a line that is no command (``empty``: as for ``help_line``)."""
    return f"{quote(typed.typed, 30)} is not a command. {help_line(names, empty=empty)}"


__all__ = [
    "COMMANDS",
    "DIE",
    "Command",
    "Typed",
    "describe_commands",
    "help_line",
    "read_line",
    "short_name",
    "unknown_line",
]
