"""Typed commands: names, first letters, die values, and one line of help for the rest."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from snl_tui.plain.commands import COMMANDS, DIE, help_line, read_line, short_name, unknown_line
from snl_tui.plain.game import CLASSIC_COMMANDS, PUZZLE_COMMANDS
from snl_tui.plain.room import ROOM_COMMANDS, WATCHING_COMMANDS

SETS = (CLASSIC_COMMANDS, PUZZLE_COMMANDS, ROOM_COMMANDS, WATCHING_COMMANDS)
ORDER = [command.name for command in COMMANDS]


def test_first_letters_name_the_commands() -> None:
    names = CLASSIC_COMMANDS
    assert [read_line(text, names).command for text in ("r", "w", "b", "h", "o", "q")] == [
        "roll",
        "where",
        "board",
        "hint",
        "odds",
        "quit",
    ]
    assert read_line("rou", names).command == "route"
    assert read_line("he", names).command == "help"
    assert read_line("?", names).command == "help"
    assert read_line("  ROLL  ", names).command == "roll"
    assert read_line("", names).command == "roll"  # an empty line rolls
    assert read_line("board all", names).rest == "all"
    typed = read_line("4", PUZZLE_COMMANDS)
    assert (typed.command, typed.die) == (DIE, 4)
    assert read_line("", PUZZLE_COMMANDS).command is None  # nothing to roll in a puzzle


@given(st.sampled_from(SETS))
def test_every_commands_short_name_reads_back_as_it(names) -> None:
    assert list(names) == [name for name in ORDER if name in names]  # in matching order
    for name in names:
        assert read_line(short_name(name, names), names).command == name
        assert read_line(name, names).command == name


@given(st.text(max_size=40))
def test_anything_else_is_one_line_of_help(text) -> None:
    typed = read_line(text, CLASSIC_COMMANDS)
    if typed.command is None:
        line = unknown_line(typed, CLASSIC_COMMANDS)
        assert "\n" not in line and "is not a command" in line
        assert line.endswith(help_line(CLASSIC_COMMANDS))


def test_help_lists_each_command_with_its_letters() -> None:
    line = help_line(CLASSIC_COMMANDS)
    assert line.startswith("Commands: roll (r, or an empty line), where (w), board (b),")
    assert "route (rou)" in line and "help (he, or ?)" in line and line.endswith("quit (q).")
