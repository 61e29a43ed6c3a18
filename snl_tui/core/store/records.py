"""What the saved-games store gives back: a game's summary, a saved game, each player's
and board's record for the statistics, and the checks every row read passes (the file may
have been edited: everything read is untrusted)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from ..board import Board
from ..errors import SnlError
from ..files.formats import dump_board, parse_board
from ..text import escape_controls

Status = Literal["playing", "won", "abandoned"]
STATUSES: tuple[str, ...] = ("playing", "won", "abandoned")
MODES: tuple[str, ...] = ("classic", "puzzle")
NO_MOVES = "room, no moves yet"
"""A room's game saved as the room opened, before anyone rolled: not a game to go on."""
ROOM_PLAYING = "room, in progress"
"""A room's game with moves: ``snl host --resume`` reopens it, never a game alone."""


class StoreError(SnlError):
    """A saved game that cannot be read back (missing, or its row is damaged)."""


class BadRow(Exception):
    """A row that fails validation (the message names what is wrong)."""


# -- what comes back -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One saved game as ``snl games`` lists it."""

    id: int
    board_name: str
    board_key: str
    players: tuple[str, ...]
    mode: str
    status: str
    """playing | won | abandoned"""
    winner: str | None
    turns: int
    rolls: int | None
    started: datetime
    updated: datetime
    room: bool = field(default=False, kw_only=True)
    """A room's game (``snl host``): its seats are other people's, so it is never
    resumed as a game alone; ``snl host --resume ID`` reopens the room (``reopen``)."""

    @property
    def status_text(self) -> str:
        """'in progress', 'won by Ann', 'abandoned', 'room, in progress' or 'room, no
        moves yet' (a room is saved as it opens, before its first move: a game alone is
        saved from its first move on, so no moves means a room)."""
        if self.status == "won":
            return f"won by {self.winner}"
        if self.status == "playing" and self.rolls == 0:
            return NO_MOVES
        if self.status == "playing":
            return ROOM_PLAYING if self.room else "in progress"
        return "abandoned"

    @property
    def reopen(self) -> str:
        """What reopens an unfinished room's game, for the lines that name it."""
        return f"snl host --resume {self.id}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "board": self.board_name,
            "players": list(self.players),
            "mode": self.mode,
            "started": self.started.isoformat(),
            "updated": self.updated.isoformat(),
            "turns": self.turns,
            "rolls": self.rolls,
            "status": self.status,
            "winner": self.winner,
            "room": self.room,
        }


@dataclass(frozen=True)
class SavedGame(GameSummary):
    """A saved game with what it takes to resume it: the board and the session's data."""

    board: Board
    data: dict[str, Any]


class Listing(NamedTuple):
    games: list[GameSummary]
    """Newest first."""
    skipped: list[str]
    """One line per row that failed validation."""


@dataclass(frozen=True)
class PlayerRecord:
    """One player name's history on one board."""

    player: str
    games: int
    """Classic games played to the end (someone won) with this player in them."""
    wins: int
    lengths: tuple[int, ...]
    """Turns this player took to reach the goal, one per classic game they won."""
    seats: tuple[int, ...] = ()
    """How many players each of those games had (beside ``lengths``): the luck of a game
    is measured among games with as many players (``analysis.luck``)."""
    puzzle_scores: tuple[int, ...] = ()
    """Die rolls of every won puzzle (their best and average against the optimum)."""

    @property
    def average_length(self) -> float | None:
        return sum(self.lengths) / len(self.lengths) if self.lengths else None

    @property
    def puzzles(self) -> int:
        """Puzzle games won."""
        return len(self.puzzle_scores)

    @property
    def puzzle_best(self) -> int | None:
        """Least die rolls in a won puzzle (compare with the solver's optimum)."""
        return min(self.puzzle_scores, default=None)

    @property
    def puzzle_average(self) -> float | None:
        scores = self.puzzle_scores
        return sum(scores) / len(scores) if scores else None


@dataclass(frozen=True)
class BoardRecord:
    key: str
    name: str
    board: Board
    players: tuple[PlayerRecord, ...]
    """Sorted by name (case-insensitive)."""


class Stats(NamedTuple):
    boards: list[BoardRecord]
    """Sorted by board name."""
    skipped: list[str]


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    lengths: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    puzzle_scores: list[int] = field(default_factory=list)

    def record(self, name: str) -> PlayerRecord:
        return PlayerRecord(
            name,
            self.games,
            self.wins,
            tuple(self.lengths),
            tuple(self.seats),
            tuple(self.puzzle_scores),
        )


# -- validation of what comes back ---------------------------------------------------------


def summary_of(row: Sequence[Any], room: bool = False) -> GameSummary:
    game_id, key, board_name, players, mode, status, winner, turns, rolls, started, updated = row
    if type(game_id) is not int:
        raise BadRow(f"id {game_id!r} is not a number")
    if not isinstance(key, str) or not isinstance(board_name, str):
        raise BadRow("board reference is not text")
    if status not in STATUSES:
        raise BadRow(f"unknown status {status!r}")
    if mode not in MODES:
        raise BadRow(f"unknown mode {mode!r}")
    if status == "won" and not isinstance(winner, str):
        raise BadRow("won, but no winner")
    return GameSummary(
        id=game_id,
        board_name=board_name,
        board_key=key,
        players=players_of(players),
        mode=mode,
        status=status,
        winner=winner if isinstance(winner, str) else None,
        turns=count_of(turns, "turns"),
        rolls=None if rolls is None else count_of(rolls, "rolls"),
        started=time_of(started, "started"),
        updated=time_of(updated, "updated"),
        room=room,
    )


def json_of(text: object, what: str) -> Any:
    if not isinstance(text, str):
        raise BadRow(f"{what} is not text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BadRow(f"{what} is not JSON ({error})") from None


def players_of(text: object) -> tuple[str, ...]:
    names = json_of(text, "players")
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(name, str) and name for name in names)
    ):
        raise BadRow("players is not a list of names")
    # Names are drawn on the terminal (the resume offer, snl games, stats): an edited
    # store's escapes are shown, never obeyed.
    return tuple(escape_controls(name) for name in names)


def count_of(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise BadRow(f"{what} {value!r} is not a count")
    return value


def time_of(value: object, what: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise BadRow(f"{what} {value!r} is not a time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def board_key(board: Board) -> str:
    """The key the store files ``board`` under (its games' ``board_key``)."""
    return board_document(board)[0]


def board_document(board: Board) -> tuple[str, str]:
    document = dump_board(board, "json")
    return hashlib.sha256(document.encode("utf-8")).hexdigest(), document


def parse_stored_board(key: str, document: object) -> Board | str:
    """The board a row refers to, validated like a board file; or why it is refused."""
    if document is None:
        return "its board is missing"
    if not isinstance(document, str):
        return "its board is not text"
    try:
        return parse_board(document, source="stored board", suffix=".json")
    except (SnlError, ValueError, TypeError, RecursionError) as error:
        return f"its board is invalid ({' '.join(str(error).split())})"


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
