"""The players of a game: a name and whether the computer plays it, and the one rule
that makes their names distinct (``unique_names``). ``engine`` re-exports both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Player:
    name: str
    computer: bool = False

    @classmethod
    def parse(cls, text: str) -> Player:
        """'Ann' is a human; 'cpu' or 'cpu:Robo' is a computer player."""
        text = text.strip()
        lowered = text.lower()
        if lowered == "cpu":
            return cls("CPU", computer=True)
        if lowered.startswith("cpu:"):
            name = text[4:].strip() or "CPU"
            return cls(name, computer=True)
        return cls(text)


def unique_names(players: Sequence[Player]) -> list[Player]:
    """The players with distinct names: a repeated name gets a number, 'CPU', 'CPU 2'.

    The first player of a name keeps it; each later one gets the lowest ' 2', ' 3', ...
    that no player (as given) already has. Names compare without case ('ann' repeats
    'Ann'). Whether a player is a computer does not change. The one place the naming rule
    lives: the command line and the new-game dialog both make their players through it.
    """
    taken = {player.name.casefold() for player in players}
    seen: set[str] = set()
    named = []
    for player in players:
        key = player.name.casefold()
        if key in seen:
            number = 2
            while f"{key} {number}" in taken:
                number += 1
            player = Player(f"{player.name} {number}", player.computer)
            key = player.name.casefold()
            taken.add(key)
        seen.add(key)
        named.append(player)
    return named
