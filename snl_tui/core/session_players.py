"""A session's players as text: the one parser of a players list (``parse_players``,
and ``players_text`` back), and who plays a puzzle (``puzzle_player``). ``session``
re-exports them, and the game's modules import them from there."""

from __future__ import annotations

from collections.abc import Sequence

from .engine import MAX_PLAYERS, Player, unique_names
from .errors import SnlError
from .text import has_visible_char, is_unsafe_char, quote


def parse_players(text: str) -> list[Player]:
    """'You, cpu:Robo' -> players: 1 to ``MAX_PLAYERS`` names, none empty, repeats
    numbered ('cpu, cpu' -> CPU, CPU 2: see ``unique_names``). The one parser for the
    command line and the new-game dialog; raises SnlError with a message for the player."""
    names = [part.strip() for part in text.split(",")]
    if not any(names):
        raise SnlError("Name at least one player, e.g. 'You, cpu'.")
    if not all(names):
        raise SnlError("An empty name between commas: name every player, e.g. 'Ann, Bob'.")
    if len(names) > MAX_PLAYERS:
        raise SnlError(f"At most {MAX_PLAYERS} players, not {len(names)}.")
    for name in names:
        # A name is drawn on the terminal: an ESC in it could drive the terminal.
        bad = next((char for char in name if is_unsafe_char(char)), None)
        if bad is not None:
            raise SnlError(f"A name contains a control character ({quote(bad)}).")
    players = [Player.parse(name) for name in names]
    for player in players:
        if not has_visible_char(player.name):  # a zero-width space would show as nobody
            raise SnlError(
                f"The name {quote(player.name)} shows nothing: use a letter, digit or sign."
            )
    return unique_names(players)


def players_text(players: Sequence[Player]) -> str:
    """The text ``parse_players`` reads back as ``players``."""
    return ", ".join(f"cpu:{p.name}" if p.computer else p.name for p in players)


def puzzle_player(players: Sequence[Player]) -> Player:
    """The one player of a puzzle: the first human seat, else 'You'."""
    return next((p for p in players if not p.computer), Player("You"))


def and_names(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def who_plays_puzzle(players: Sequence[Player]) -> str:
    """'A puzzle has one player: Ann. Bob sits out.' (the choice is ``puzzle_player``'s)."""
    chosen = puzzle_player(players)
    out = [player.name for player in players if player is not chosen]
    note = f"A puzzle has one player: {chosen.name}."
    if chosen not in players:
        note = f"A puzzle has one human player: {chosen.name}."
    if out:
        note += f" {and_names(out)} {'sits' if len(out) == 1 else 'sit'} out."
    return note
