"""A game session: the settings, the engine's ``Game`` and what the game screen shows.

The screen drives a ``GameSession`` (start a game, move, undo, toggle the route) and
renders from it; every rule of play stays in ``engine`` and every optimum in ``solver``.
What lives here is the session's own logic: who plays a puzzle, how a puzzle move is
judged, who drives each seat and whose move is next (``core.seats``: a move is made for
a seat only on its turn), how the route overlay follows its owner, which actions make
sense now, what the status line says, the seed of each game, and a complete, versioned
``to_dict`` / ``from_dict`` for saved games. No Textual: the rules here have millisecond unit tests.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .board import Board
from .engine import Game, Player, Turn, move
from .errors import MoveError, SnlError
from .rules import Rules
from .seats import Driver, Seat, TurnError, seat_driver
from .session_players import and_names
from .session_players import parse_players as parse_players
from .session_players import players_text as players_text
from .session_players import puzzle_player as puzzle_player
from .session_players import who_plays_puzzle as who_plays_puzzle
from .solver import least_rolls_from, optimal_dice, optimal_route
from .text import escape_controls, plural, turns_text

MODES = ("classic", "puzzle")
SESSION_VERSION = 1
"""``to_dict``'s ``"version"``: bump it (and teach ``from_dict`` the old one) on a change."""

KeyNames = Callable[[str], str]
"""An action's keys in prose ('roll' -> 'r or space'), from the app's command table."""


def dice_keys(faces: int, keys: KeyNames) -> str:
    """How to choose a die value: '1-6', or '1-9, or d for 10-12' on a bigger die."""
    if faces > 9:
        return f"1-9, or {keys('choose_die')} for 10-{faces}"
    return f"1-{faces}"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a session seeded with ``seed``.

    Game 0 uses ``seed`` itself (``--seed 7`` replays what it always did); each later game
    gets its own seed derived from both, so a seeded session fixes the sequence of games
    instead of repeating the first one.
    """
    if index == 0:
        return seed
    import hashlib  # only from a seeded session's second game on: not before the first frame

    digest = hashlib.sha256(f"snl:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class GameSettings:
    """Everything needed to start a game."""

    board: Board
    players: tuple[Player, ...] = (Player("You"),)
    seed: int | None = None
    """The session's seed (None: a random one); game k plays ``game_seed(seed, k)``."""
    mode: str = "classic"

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if self.mode not in MODES:
            raise SnlError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")

    def with_changes(self, **changes: Any) -> GameSettings:
        """A copy with some fields changed (validated like new settings)."""
        return replace(self, **changes)

    @property
    def seated(self) -> tuple[Player, ...]:
        """Who plays: everyone in classic mode, ``puzzle_player`` alone in a puzzle."""
        if self.mode == "puzzle":
            return (puzzle_player(self.players),)
        return self.players


@dataclass(frozen=True)
class MoveOutcome:
    """What a move did beyond the engine's ``Turn``: what the screen should say."""

    turn: Turn
    left_route: bool = False
    """The route's owner stepped off the shown route, which is now hidden."""


_GENERATIONS = itertools.count(1)


@dataclass
class GameSession:
    """One player's sitting: a sequence of games with the same seed, and the current one."""

    settings: GameSettings
    base_seed: int = field(default=-1)
    """The concrete seed behind ``settings.seed`` (drawn once when that is None)."""
    game_index: int = 0
    remote_seats: frozenset[int] = frozenset()
    """Seats played by a person on another machine (a room); see ``driver``."""
    game: Game = field(init=False)
    route: list[int] = field(init=False, default_factory=list)
    """The shown route's squares still ahead of its owner; empty when no route is shown."""
    route_owner: int = field(init=False, default=0)
    move_note: str | None = field(init=False, default=None)
    """Puzzle mode: what the solver says about the last move when it was not optimal."""
    generation: int = field(init=False, default=0)
    """Stamps the game being played: a new number for every game started, never reused
    (across sessions too), so work about an earlier game can be told apart."""

    def __post_init__(self) -> None:
        if self.settings.seed is not None:
            self.base_seed = self.settings.seed
        elif self.base_seed < 0:
            self.base_seed = random.SystemRandom().randrange(2**63)
        self._start()

    def _start(self) -> None:
        settings = self.settings
        seed = game_seed(self.base_seed, self.game_index)
        self.game = Game(settings.board, settings.seated, seed)
        self.generation = next(_GENERATIONS)
        self.route = []
        self.route_owner = 0
        self.move_note = None

    # -- games -------------------------------------------------------------------------

    def new_game(self, settings: GameSettings | None = None, *, again: bool = False) -> None:
        """Start the next game of the session (its own seed), or with ``again`` the same
        game once more (same seed: a puzzle retried). New settings keep the session's seed
        unless they name another one."""
        if settings is not None:
            seed = settings.seed
            reseeded = seed is not None and seed != self.settings.seed
            self.settings = settings
            if seed is not None and reseeded:  # a new seed starts its own sequence of games
                self.base_seed, self.game_index = seed, -1
                again = False
        if not again:
            self.game_index += 1
        self._start()

    @property
    def mode(self) -> str:
        return self.settings.mode

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def puzzle(self) -> bool:
        return self.settings.mode == "puzzle"

    @property
    def optimal_moves(self) -> int:
        """The least rolls from the start (-1: the goal cannot be reached). The solver
        caches it per board; on a huge board the first call takes a while (a worker)."""
        board = self.game.board
        return least_rolls_from(board, board.rules.start_position)

    def puzzle_notice(self) -> str | None:
        """Who plays a puzzle, when a human was asked for and sits out (computers sitting
        a puzzle out go without saying)."""
        if not self.puzzle:
            return None
        players = self.settings.players
        chosen = self.game.players[0]
        dropped = [p for p in players if not p.computer and p != chosen]
        if dropped or chosen not in players:
            return who_plays_puzzle(players)
        return None

    # -- whose move --------------------------------------------------------------------

    @property
    def computer_to_move(self) -> bool:
        """A computer rolls next (classic mode only: a puzzle has one human player)."""
        game = self.game
        return not game.over and not self.puzzle and game.players[game.current].computer

    @property
    def human_to_move(self) -> bool:
        game = self.game
        return not game.over and not game.players[game.current].computer

    @property
    def hint_seat(self) -> int:
        """The seat the hint is about: the player to move, or the winner at the end."""
        game = self.game
        return game.winner if game.winner is not None else game.current

    def available(self, action: str) -> bool | None:
        """Whether an action makes sense now: True, None (shown but not now) or False (not
        in this mode). Deliberately coarse (mode, game over, history): the footer is built
        from it and must not flicker on every move."""
        game = self.game
        if action == "roll":
            # Hidden once the game is over: the status line says what to press instead.
            return not (self.puzzle or game.over)
        if action == "learn":  # the search that solves the puzzle (snl learn)
            return self.puzzle
        if action in ("pick", "choose_die", "undo"):
            if not self.puzzle:
                return False
            if action == "undo":
                return True if game.history else None
            return None if game.over else True
        return True

    def why_unavailable(self, action: str, keys: KeyNames) -> str | None:
        """What to say when the player presses the key of an action that ``available``
        hides now (rather than nothing happening); None when it is not hidden."""
        available = self.available(action)
        if action == "undo" and available is None:
            return "Nothing to undo yet: no move has been made."
        if available is not False:
            return None
        if action == "pick":
            return (
                f"Classic mode: the die decides. Press {keys('roll')} to roll "
                f"({keys('switch_mode')} switches to puzzle mode, where you choose)."
            )
        if action == "roll":
            if self.puzzle:
                faces = self.game.board.rules.faces
                return f"Puzzle mode: choose a die value ({dice_keys(faces, keys)})."
            return f"The game is over: {keys('new_game')} starts a new one."
        if action == "learn":
            return (
                f"Watching the search is for puzzle mode ({keys('switch_mode')} switches), "
                "or run snl learn."
            )
        if action == "undo":
            return (
                f"Undo is for puzzle mode ({keys('switch_mode')} switches): dice are random here."
            )
        return None

    # -- seats and their drivers -------------------------------------------------------

    def driver(self, seat: int) -> Driver:
        """Who makes seat ``seat``'s moves: the computer for a ``cpu`` player (in classic
        mode: a puzzle has one person), a remote person for ``remote_seats``, else a
        person at this keyboard."""
        player = self.game.players[seat]
        if self.puzzle:
            return Driver.LOCAL
        return seat_driver(player, seat in self.remote_seats)

    def seats(self) -> tuple[Seat, ...]:
        """The game's seats in turn order, each with its player and driver."""
        players = self.game.players
        return tuple(
            Seat(index, players[index], self.driver(index)) for index in range(len(players))
        )

    @property
    def seat_to_move(self) -> int | None:
        """The seat whose move is next; None once the game is over."""
        return None if self.game.over else self.game.current

    @property
    def driver_to_move(self) -> Driver | None:
        """Who makes the next move; None once the game is over."""
        seat = self.seat_to_move
        return None if seat is None else self.driver(seat)

    def move_for(self, seat: int, die: int | None = None) -> MoveOutcome:
        """Make ``seat``'s move, only when it is that seat's turn: classic mode rolls the
        game's own dice (a die value cannot be chosen), a puzzle plays the die chosen.
        Raises TurnError, with a message for the player, when the move cannot be made."""
        game = self.game
        if game.over:
            raise TurnError("The game is over.")
        if seat != game.current:
            names = game.players
            mover = names[seat].name if 0 <= seat < len(names) else f"seat {seat + 1}"
            raise TurnError(f"It is {names[game.current].name}'s turn, not {mover}'s.")
        if not self.puzzle and die is not None:
            raise TurnError("Dice are rolled, not chosen, in classic mode.")
        if self.puzzle:
            if die is None:
                raise TurnError("Puzzle mode: choose a die value.")
            why = self.why_not(die)
            if why is not None:
                raise TurnError(why)
        return self.move(die)

    def skip_for(self, seat: int) -> Turn:
        """Pass ``seat``'s turn (a room's host skips an absent player), only when it is
        that seat's turn in classic mode; TurnError otherwise."""
        game = self.game
        if game.over:
            raise TurnError("The game is over.")
        if self.puzzle:
            raise TurnError("A puzzle has no turns to skip.")
        if seat != game.current:
            raise TurnError(f"It is {game.players[game.current].name}'s turn.")
        return game.pass_turn()

    # -- moves -------------------------------------------------------------------------

    def why_not(self, die: int) -> str | None:
        """Puzzle mode: why ``die`` cannot be played now, or None when it can."""
        game = self.game
        if die in game.legal_dice():
            return None
        try:
            result = move(game.board, game.position, die)
        except MoveError as error:
            return f"{die}: {error}."
        if result.forfeited:
            return f"{die} would overshoot the goal: exact finish needed."
        return f"{die} is not allowed from here."  # legal_dice decides, move disagrees

    def move(self, die: int | None = None) -> MoveOutcome:
        """Roll (``die`` None) or play ``die`` for the player to move, in the engine."""
        turn = self.game.roll() if die is None else self.game.play(die)
        return self._moved(turn)

    def take_roll(self, die: int) -> MoveOutcome:
        """A die rolled elsewhere (a room's host rolled it) for the player to move: the
        engine's roll, house rules included (``Game.take_roll``)."""
        return self._moved(self.game.take_roll(die))

    def _moved(self, turn: Turn) -> MoveOutcome:
        self.move_note = self._optimality_note(turn) if self.puzzle else None
        return MoveOutcome(turn, left_route=self._follow_route(turn))

    def undo(self) -> Turn | None:
        """Take back the last move (puzzle); a shown route restarts from the new square."""
        undone = self.game.undo()
        self.move_note = None
        if self.route:
            self.route = []
            self.show_route()
        return undone

    def _optimality_note(self, turn: Turn) -> str | None:
        """Say so when a move leaves every optimal route (the solver's least rolls left
        before and after it), naming the die values that were optimal; None for an
        optimal move."""
        board = self.game.board
        before = least_rolls_from(board, turn.move.start)
        after = least_rolls_from(board, turn.move.end)
        if before < 0 or after == before - 1:
            return None
        best = "rolling a " + " or ".join(str(die) for die in optimal_dice(board, turn.move.start))
        if after < 0:
            return f"Not optimal: the goal is out of reach from here ({best} was best)."
        left = plural(after, "roll")
        if before == 1:
            return f"Not optimal: {best} would have finished; {left} left now."
        return f"Not optimal: {left} left now; {best} would have left {plural(before - 1, 'roll')}."

    # -- the route overlay -------------------------------------------------------------

    @property
    def route_on(self) -> bool:
        return bool(self.route)

    def show_route(self) -> str | None:
        """Anchor a route at the player to move; the reason when there is none."""
        game = self.game
        if game.over:
            return "The game is over: no route to show."
        solution = optimal_route(game.board, game.position)
        if solution.moves <= 0:
            return "Goal unreachable from here: no route to show."
        self.route_owner = game.current
        self.route = list(solution.squares)
        return None

    def hide_route(self) -> None:
        self.route = []

    def _follow_route(self, turn: Turn) -> bool:
        """Keep the route while its owner stays on it; hide it (True) when they leave."""
        if not self.route or turn.player != self.route_owner:
            return False
        square = turn.move.end
        if square == turn.move.start:
            return False
        if square in self.route:
            self.route = self.route[self.route.index(square) + 1 :]
            return False
        self.route = []
        return True

    # -- what the screen says ----------------------------------------------------------

    def title(self) -> str:
        """'classic 10x10 · classic mode'."""
        board = self.game.board
        return f"{board.name or 'board'} {board.rows}x{board.cols} · {self.mode} mode"

    def status(self, keys: KeyNames) -> str:
        """The status line: whose turn, what to press (``keys`` names an action's keys)."""
        game = self.game
        if game.winner is not None:
            winner = game.players[game.winner].name
            return f"{winner} reached the goal! {keys('new_game')} starts a new game."
        player = game.players[game.current]
        if self.puzzle:
            values = dice_keys(game.board.rules.faces, keys)
            note = f"{self.move_note} " if self.move_note else ""
            move_number = len(game.history) + 1
            return (
                f"{note}Move {move_number}: choose a die value ({values}). {keys('undo')} undoes."
            )
        if player.computer:
            return f"{player.name} is rolling..."
        if not game.history:
            return f"{player.name}: press {keys('roll')} to roll."
        last = game.history[-1]
        # The die shows the last roll, which may be another player's: say whose.
        mover = game.players[last.player].name
        rolled = (
            f"{mover}'s turn was skipped." if last.passed else f"{mover} rolled {last.move.die}."
        )
        if last.player == game.current:  # a roll again, or a one-player game
            return f"{rolled} Press {keys('roll')} to roll again."
        return f"{rolled} {player.name}: press {keys('roll')} to roll."

    def square_text(self, square: int, expected: float | None = None) -> str:
        """What a clicked square holds: its jump, the expected turns left from it
        (``expected``: the analysis', None when unknown) and who stands there."""
        board, game = self.game.board, self.game
        parts = [f"Square {square}"]
        jump = board.jump_at(square)
        if square == board.goal:
            parts.append("the goal")
        elif jump is not None:
            parts.append(f"{jump.kind} to {jump.end}")
        ends = [
            f"{kind} from {start}"
            for start, end in board.jumps.items()
            if end == square
            for kind in ("ladder" if end > start else "snake",)
        ]
        parts += ends
        if expected is not None and square != board.goal:
            parts.append(f"{turns_text(expected, 1)} left on average")
        here = [p.name for seat, p in enumerate(game.players) if game.positions[seat] == square]
        if here:
            parts.append(f"{and_names(here)} {'stands' if len(here) == 1 else 'stand'} here")
        return ": ".join(parts[:2]) + "".join(f"; {part}" for part in parts[2:]) + "."

    def left_route_message(self, turn: Turn, keys: KeyNames) -> str:
        name = self.game.players[turn.player].name
        again = keys("toggle_route")
        return f"{name} left the optimal route: route hidden ({again} shows a new one)."

    # -- saving ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything to rebuild this session exactly (``from_dict``): the board whole,
        the settings, the seeds, the moves, plus positions and turn for readers."""
        board = self.settings.board
        return {
            "version": SESSION_VERSION,
            "board": board_to_dict(board),
            "players": [{"name": p.name, "computer": p.computer} for p in self.settings.players],
            "mode": self.settings.mode,
            "seed": self.settings.seed,
            "base_seed": self.base_seed,
            "game_index": self.game_index,
            "game": self.game.to_dict(),
            "positions": list(self.game.positions),
            "turn": self.game.current,
            "route": {"owner": self.route_owner, "squares": list(self.route)},
            "remote_seats": sorted(self.remote_seats),
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameSession:
        """Rebuild a saved session; a malformed or inconsistent one raises SnlError."""
        if not isinstance(data, Mapping):
            raise SnlError("not a saved session")
        version = data.get("version")
        if version != SESSION_VERSION:
            raise SnlError(f"saved session: unknown version {version!r}")
        try:
            board = board_from_dict(data["board"])
            players = tuple(
                Player(_name(p["name"]), _flag(p.get("computer", False))) for p in data["players"]
            )
            seed, base_seed = data["seed"], data["base_seed"]
            index = data["game_index"]
            for name, value in (("seed", seed), ("base_seed", base_seed), ("index", index)):
                if value is not None and type(value) is not int:
                    raise SnlError(f"saved session: {name} must be a whole number")
            settings = GameSettings(board, players, seed, _text(data["mode"], "mode"))
            session = cls(settings, base_seed=_whole(base_seed), game_index=_whole(index))
            session.game = Game.from_dict(board, data["game"])
            route = data.get("route") or {}
            squares = [_whole(square) for square in route.get("squares", [])]
            owner = _whole(route.get("owner", 0))
            remote = frozenset(_whole(seat) for seat in data.get("remote_seats", []))
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise SnlError(f"not a saved session ({error})") from None
        game = session.game
        if game.players != settings.seated:
            raise SnlError("saved session: the game's players do not match its settings")
        if game.seed != game_seed(session.base_seed, session.game_index):
            raise SnlError("saved session: the game's seed does not match the session's")
        if data["positions"] != game.positions or data["turn"] != game.current:
            raise SnlError("saved session: positions or turn do not match the moves")
        if any(not 0 <= seat < len(game.players) for seat in remote):
            raise SnlError("saved session: a remote seat is not one of the game's seats")
        session.route, session.route_owner = squares, owner
        session.remote_seats = remote
        return session


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise SnlError(f"saved session: {what} must be text")
    return value


def _name(value: object) -> str:
    """A player's name read back: a saved game (or a host) may have been tampered with,
    and a name is drawn on the terminal: its control characters are shown escaped."""
    return escape_controls(_text(value, "player name"))


def _flag(value: object) -> bool:
    if type(value) is not bool:
        raise SnlError("saved session: 'computer' must be true or false")
    return value


def _whole(value: object) -> int:
    if type(value) is not int:
        raise SnlError(f"saved session: {value!r} is not a whole number")
    return value


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board whole (size, jumps, rules, name, description): a saved game keeps
    playing on it even when its file changes or goes."""
    return {
        "rows": board.rows,
        "cols": board.cols,
        "jumps": [[start, end] for start, end in board.jumps.items()],
        "rules": board.rules.to_dict(),
        "name": board.name,
        "description": board.description,
    }


def board_from_dict(data: Mapping[str, Any]) -> Board:
    """``board_to_dict`` read back, validated like a board file (BoardError/RulesError)."""
    jumps = [(_whole(start), _whole(end)) for start, end in data["jumps"]]
    return Board(
        data["rows"],
        data["cols"],
        jumps,
        rules=Rules.from_mapping(data["rules"]),
        name=_text(data.get("name", ""), "board name"),
        description=_text(data.get("description", ""), "board description"),
    )
