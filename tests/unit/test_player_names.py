"""Players made from text get distinct names: 'cpu, cpu' is CPU and CPU 2 (one rule, core)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from snl_tui.cli.common import parse_players
from snl_tui.core.engine import Player, unique_names


def names(players: list[Player]) -> list[str]:
    return [player.name for player in players]


def test_the_playtesters_two_cpus_get_distinct_names() -> None:
    players = parse_players("You,cpu,cpu:Zed,cpu")
    assert players == [
        Player("You"),
        Player("CPU", computer=True),
        Player("Zed", computer=True),
        Player("CPU 2", computer=True),
    ]


@pytest.mark.parametrize(
    ("given_names", "expected"),
    [
        (["Ann", "Bob"], ["Ann", "Bob"]),
        (["Ann", "Ann"], ["Ann", "Ann 2"]),
        (["CPU", "CPU", "CPU", "CPU"], ["CPU", "CPU 2", "CPU 3", "CPU 4"]),
        # A number someone already has is skipped, whichever comes first.
        (["Ann", "Ann 2", "Ann"], ["Ann", "Ann 2", "Ann 3"]),
        (["Ann", "Ann", "Ann 2"], ["Ann", "Ann 3", "Ann 2"]),
        # Case does not make a name different.
        (["Ann", "ann"], ["Ann", "ann 2"]),
    ],
)
def test_repeated_names_are_numbered(given_names: list[str], expected: list[str]) -> None:
    assert names(unique_names([Player(name) for name in given_names])) == expected


def test_computer_players_stay_computers_and_humans_humans() -> None:
    players = unique_names([Player("Ann", computer=True), Player("Ann")])
    assert players == [Player("Ann", computer=True), Player("Ann 2")]


def test_the_command_line_numbers_human_repeats_too() -> None:
    assert names(parse_players("Ann, Ann, cpu:Ann")) == ["Ann", "Ann 2", "Ann 3"]


@given(st.lists(st.sampled_from(["Ann", "ann", "Ann 2", "CPU", "CPU 2", "CPU 3", "X"]), max_size=6))
def test_names_are_always_distinct_and_otherwise_unchanged(given_names: list[str]) -> None:
    players = [Player(name, computer=index % 2 == 1) for index, name in enumerate(given_names)]
    named = unique_names(players)
    assert len(named) == len(players)
    assert len({player.name.casefold() for player in named}) == len(named)
    for before, after in zip(players, named, strict=True):
        assert after.computer == before.computer
        assert after.name == before.name or after.name.startswith(before.name + " ")
    # The first player of each name keeps it.
    firsts = {}
    for before, after in zip(players, named, strict=True):
        firsts.setdefault(before.name.casefold(), (before.name, after.name))
    assert all(kept == name for name, kept in firsts.values())
