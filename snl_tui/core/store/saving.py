"""Autosave: what the game writes to the saved-games store, and when (SPEC 8).

The game screen owns one ``GameSaver`` and tells it what happened: a move was made
(``moved``: one save, one transaction; a won game is finished with its winner, turns and
rolls), the player left the game for another (``leaving``: ``n``, ``m``, another board,
retry), or a saved game was resumed (``resumed``). Quitting tells it nothing: the game
stays "playing" in the store, so ``snl`` offers it back next time.

Decisions:

- A game is first written after its first move: a game with no moves is not worth
  keeping (nothing to resume, nothing to count), so it never reaches the store.
- A won game is written once more as won and then left alone: an undo after the end
  (puzzle mode) does not turn a result back into a game in progress. Play that goes on
  after such an undo is a new attempt: saved as a new game from its next move (the won
  game keeps its result), and the player is told so once.
- ``turns`` is the winner's turns (the game's length, the unit of the exact
  distribution), or the most turns any seat has taken while playing; ``rolls`` counts
  every die roll (a puzzle's score, against the solver's optimum).

No Textual here: the saver is unit-tested against a real store in a temporary folder.
A disabled store (locked, read-only, damaged beyond repair) makes every call a no-op;
``notice()`` returns its one-line reason once so the screen can say it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..engine import Game
from ..errors import SnlError
from ..limits import check_playable
from ..session import GameSession

if TYPE_CHECKING:
    from .games import GameSummary, SavedGame, Store

GAME_TIMEOUT = 0.2
"""Seconds a save in the game waits for another program's write lock: a key must not
wait noticeably, and after the first failure the store is disabled and never waits again."""


class GameSaver:
    """Saves one session's games to ``store`` (None: ``--no-save``, nothing is touched).

    ``opener`` instead of ``store`` opens it on first use: the command line's game opens
    it after its first frame (the store's module and SQLite load then, not before)."""

    def __init__(self, store: Store | None, opener: Callable[[], Store] | None = None) -> None:
        self._store = store
        self._opener = opener if store is None else None
        self.game_id: int | None = None
        """The store's id of the game being played (None until its first save)."""
        self._game: Game | None = None
        """The game ``game_id`` belongs to: a different game object is a new game."""
        self._finished = False
        self._notes: list[str] = []

    @property
    def store(self) -> Store | None:
        """The store (None: not saving), opened now if it was left to its first use."""
        if self._opener is not None:
            opener, self._opener = self._opener, None
            self._store = opener()
        return self._store

    @property
    def saving(self) -> bool:
        return self.store is not None and self.store.enabled

    def resumed(self, session: GameSession, game_id: int) -> bool:
        """The session was rebuilt from saved game ``game_id``: later moves update it,
        and this process holds it (``Store.live``) while it plays it. False, and nothing
        changed, when another running snl plays that game (the caller asked
        ``live_elsewhere`` first; this closes the race)."""
        store = self.store
        if store is not None and not store.live.hold(game_id):
            return False
        if store is not None and self.game_id != game_id:
            store.live.release(self.game_id)  # the game on screen before: free again
        self.game_id, self._game, self._finished = game_id, session.game, False
        return True

    def live_elsewhere(self, game_id: int) -> bool:
        """Whether another running snl plays saved game ``game_id`` now."""
        store = self.store
        return store is not None and store.live.live_elsewhere(game_id)

    def moved(self, session: GameSession, extra: Mapping[str, Any] | None = None) -> int | None:
        """Save the session after a move (or an undo); returns the game's id, None when
        not saving. A won game is recorded as finished. ``extra`` is saved beside the
        session's data (a room's code and seats: ``snl host --resume`` reads them)."""
        store, game = self.store, session.game
        if store is None:
            return None
        if game is not self._game:  # a new game of the session: a new row
            store.live.release(self.game_id)
            self.game_id, self._game, self._finished = None, game, False
        if self._finished:
            if game.winner is not None:
                return self.game_id
            # Undone after the win (puzzle mode): the result stays, play goes on as a
            # new attempt, saved from now on as a game of its own.
            self.game_id, self._finished = None, False
            self._notes.append(
                "The solved game stays saved as it was; playing on is saved as a new attempt."
            )
        if not game.history and self.game_id is None:
            return None  # undone back to nothing before the first save: nothing to keep
        winner = game.winner
        turns = game.turns_taken[winner] if winner is not None else max(game.turns_taken)
        saved = store.save_game(
            self.game_id,
            board=session.settings.board,
            players=[player.name for player in game.players],
            mode=session.mode,
            status="won" if winner is not None else "playing",
            winner=game.players[winner].name if winner is not None else None,
            turns=turns,
            rolls=len(game.history),
            data=session.to_dict() | dict(extra or {}),
        )
        if saved is not None:
            self.game_id = saved
            self._finished = winner is not None
            if self._finished:
                store.live.release(saved)  # over: nothing left to resume
            else:
                store.live.hold(saved)  # ours until it ends, or this process does
        return saved

    def leaving(self, session: GameSession) -> None:
        """The player starts another game: the current one, when saved and unfinished,
        is marked abandoned (it is no longer offered for resume)."""
        if self.store is None or session.game is not self._game or self._finished:
            return
        if self.game_id is not None:
            self.store.mark_abandoned(self.game_id)
            self.store.live.release(self.game_id)
        self.game_id, self._game = None, None

    def let_go(self) -> None:
        """The game is over for this process (the app has exited, even by a crash): every
        saved game it held is free for another snl at once. A store never opened is left
        unopened."""
        if self._store is not None:
            self._store.live.release_all()

    def notice(self) -> str | None:
        """A one-line message for the player, once each: a damaged store moved aside
        (on opening or found later), "not saving: ..." when the store became disabled."""
        if self._notes:
            return self._notes.pop(0)
        if self.store is None:
            return None
        return self.store.take_notice()


def resumable_games(
    store: Store,
    matching: Callable[[SavedGame], bool] | None = None,
    limit: int = 50,
    *,
    rooms: bool = False,
) -> list[SavedGame]:
    """The unfinished games that can be rebuilt (and pass ``matching``), most recent
    first: what the resume offer and the saved-games screen offer. A room's game
    (``snl host``) is not among them (played here alone, its other seats would have no
    one) unless ``rooms``: then they are listed too, to say how to reopen them
    (``room_line``), never to be resumed here."""
    return list(_resumable(store, matching, limit, rooms))


def _resumable(
    store: Store, matching: Callable[[SavedGame], bool] | None, limit: int, rooms: bool
) -> Iterator[SavedGame]:
    if not store.enabled:
        return
    try:
        games = store.unfinished(limit)
    except SnlError:
        return
    for saved in games:
        if matching is not None and not matching(saved):
            continue
        if saved.room:
            if rooms:
                yield saved
            continue  # a room's game: ``snl host --resume ID`` reopens it, with its seats
        try:
            check_playable(saved.board)  # a store edited to hold a huge board
            GameSession.from_dict(saved.data)  # one that cannot be rebuilt is not offered
        except SnlError:
            continue
        yield saved


def last_resumable(
    store: Store, matching: Callable[[SavedGame], bool] | None = None
) -> SavedGame | None:
    """The last unfinished game (of those ``matching``), when one can be rebuilt."""
    return last_offers(store, matching)[0]


def last_offers(
    store: Store, matching: Callable[[SavedGame], bool] | None = None
) -> tuple[SavedGame | None, SavedGame | None]:
    """The last unfinished game to go on with alone (of those ``matching``), and the
    last unfinished room's game when it was saved after that one: not offered, but told
    (``room_line``), so a host who left a room is not handed an older game alone
    without a word."""
    room = None
    for saved in _resumable(store, matching, 20, rooms=True):
        if not saved.room:
            return saved, room
        room = room or saved
    return None, room


def room_line(saved: GameSummary, *, sentence: bool = False) -> str:
    """What is said of a room's unfinished game where a game alone would be resumed:
    'game 12 (Ann, Bo) is a room's game: snl host --resume 12 reopens the room' (a
    command's error line), or as a ``sentence`` ('Game 12 ... the room.')."""
    who = ", ".join(saved.players)
    line = f"game {saved.id} ({who}) is a room's game: {saved.reopen} reopens the room"
    return f"G{line[1:]}." if sentence else line


__all__ = [
    "GAME_TIMEOUT",
    "GameSaver",
    "last_offers",
    "last_resumable",
    "resumable_games",
    "room_line",
]
