"""The rules engine: what one die roll does, and a game of 1-4 players in turn order.

Everything that decides a move lives here (overshoot, jumps, chaining, extra rolls); the
solver, the analysis and the app all ask this module rather than re-implementing a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .board import Board, Jump
from .errors import MoveError, SnlError
from .players import Player as Player
from .players import unique_names as unique_names
from .rules import Rules
from .text import escape_controls

if TYPE_CHECKING:
    import random

    import numpy as np

MAX_PLAYERS = 4


def count_to(board: Board, position: int, die: int) -> int | None:
    """The square reached by counting ``die`` squares from ``position``, before jumps.

    ``None`` when the roll is forfeited (past the goal under ``overshoot = stay``).
    """
    goal = board.goal
    target = position + die
    if target <= goal:
        return target
    overshoot = board.rules.overshoot
    if overshoot == "stay":
        return None
    if overshoot == "finish":
        return goal
    # bounce: walk back from the goal by the excess; on tiny boards with a big die the
    # walk reflects again at square 1 (a ping-pong between 1 and the goal).
    period = 2 * (goal - 1)
    offset = (target - 1) % period
    return 1 + (offset if offset <= goal - 1 else period - offset)


def forfeits_past_goal(board: Board) -> bool:
    """Is every roll past the goal forfeited (the token stays)? Then every legal roll
    counts forward onto the board, and a search can skip ``count_to`` (the solver's fast
    path asks this rather than a rule's name)."""
    return count_to(board, board.goal, 1) is None


def jump_table(board: Board) -> Sequence[int]:
    """Index t: where a token landing on t is sent, or -1 (or t itself) for no jump.

    The landing rule: the jump on the square landed on fires; under ``chain`` the token
    keeps following jumps until a square with none. This is the solver's inner-loop
    table (read-only). Without ``chain`` it is the board's own cells (no copy, so a
    million-square board is solved without building another table); with ``chain`` it
    is resolved once per board in linear time (see ``_resolve_chains``).
    """
    if not board.rules.chain:
        return board.cells
    return board.derived("engine.jump_table", _resolve_chains)


def _resolve_chains(board: Board) -> tuple[int, ...]:
    return tuple(resolve_chains(board.cells))


def resolve_chains(cells: Sequence[int]) -> list[int]:
    """A jump table (index s: destination or -1 / s) with every chain followed to its end.

    Each square is visited once (memoised): a naive walk from every square is quadratic
    on a board where every square jumps to the next one. A walk stops at the first
    square already resolved and writes the answer back along its path. Boards refuse
    cycles at construction; one met here anyway is a bug, so it raises.
    """
    final = list(cells)
    resolved = bytearray(len(cells))
    for first, target in enumerate(cells):
        if target == -1 or target == first or resolved[first]:
            continue
        path = []
        square = first
        while not resolved[square]:
            end = cells[square]
            if end == -1 or end == square:
                break  # the chain stops here
            path.append(square)
            if len(path) > len(cells):  # pragma: no cover - Board refuses cycles
                raise AssertionError("jump cycle under chain = true")
            square = end
        end = final[square] if resolved[square] else square
        for square in path:
            final[square] = end
            resolved[square] = 1
    return final


def resolve_landing(cells: Sequence[int], chain: bool) -> list[int]:
    """The landing table of a board's cells under ``chain`` (see ``landing_table``)."""
    table = resolve_chains(cells) if chain else cells
    return [t if v < 0 else v for t, v in enumerate(table)]


def landing_table(board: Board) -> Sequence[int]:
    """Index t: the square a token ends on after landing on t (jumps applied).

    Index 0 is 0 (off the board). Honours ``chain``. The engine, the solver and the
    analysis all read it, so every consumer agrees on what a landing does. Read-only.
    """
    return board.derived("engine.landing_table", _landing)


def _landing(board: Board) -> tuple[int, ...]:
    return tuple([t if v < 0 else v for t, v in enumerate(jump_table(board))])


def landing_array(board: Board) -> np.ndarray:
    """``landing_table`` as a numpy int32 array (kept per board; read-only), built with
    numpy: each jump's end, then under ``chain`` the ends' own landings by pointer
    doubling until nothing moves (log2 of the longest chain passes)."""
    return board.derived("engine.landing_array", _landing_array)


def _landing_array(board: Board) -> np.ndarray:
    import numpy as np

    cells = board.cell_array()
    squares = np.arange(len(cells), dtype=np.int32)
    landing: np.ndarray = np.where(cells < 0, squares, cells).astype(np.int32, copy=False)
    if board.rules.chain:
        while True:
            further = landing[landing]
            if np.array_equal(further, landing):
                break
            landing = further
    landing.flags.writeable = False
    return landing


def landing_of(board: Board, squares: np.ndarray) -> np.ndarray:
    """``landing_array(board)[squares]`` (int32), without building the whole table when
    the rules follow one jump only: a search that ends after a few squares of a million
    reads just their cells."""
    import numpy as np

    if board.rules.chain or board.has_derived("engine.landing_array"):
        return landing_array(board)[squares]  # type: ignore[no-any-return]
    cells = board.cell_array()[squares]
    return np.where(cells < 0, squares, cells).astype(np.int32, copy=False)


def next_position(board: Board, position: int, die: int) -> int:
    """Where the token ends after rolling ``die`` from ``position`` (jumps applied)."""
    landed = count_to(board, position, die)
    if landed is None:
        return position
    return landing_table(board)[landed]


TOPS_THAT_CANCEL = 3
"""Under ``three_sixes``: this many top faces rolled in a row cancel the turn."""


@dataclass(frozen=True)
class TurnShape:
    """What the rules make of a turn, apart from where each roll goes (``count_to`` and
    the landing table say that): which faces roll again, and when a run of them cancels
    the turn. The one place these rules live: the game, ``turn_outcomes`` and every odds
    path (through ``odds.model.TurnModel``) read them here."""

    faces: int
    again: tuple[bool, ...]
    """Per face (index ``die - 1``): does it earn another roll in the same turn (unless
    it wins: a winning roll ends the game at once)?"""
    cancel_after: int | None
    """That many again-faces in a row cancel the turn, winning or not: the token goes
    back to where the turn began (``three_sixes``); None: never."""

    @classmethod
    def of(cls, rules: Rules) -> TurnShape:
        faces = rules.faces
        again = tuple(rules.six_again and die == faces for die in range(1, faces + 1))
        return cls(faces, again, TOPS_THAT_CANCEL if rules.three_sixes else None)

    def rolls_again(self, die: int, won: bool) -> bool:
        """Does rolling ``die`` (which wins or not) give the same player another roll?"""
        return self.again[die - 1] and not won

    def cancels(self, tops: int) -> bool:
        """Does the ``tops``-th again-face in a row cancel the turn?"""
        return self.cancel_after is not None and tops >= self.cancel_after

    @property
    def whole_turns(self) -> bool:
        """A turn's end depends on where it began (a cancelled turn goes back there), so
        the odds count whole turns (``turn_outcomes``), not single rolls."""
        return self.cancel_after is not None

    @property
    def width(self) -> int:
        """Equally likely outcomes of one entry of the odds' turn table: a roll, or a
        whole turn of up to ``cancel_after`` rolls."""
        return self.faces**self.cancel_after if self.cancel_after is not None else self.faces


def turn_shape(rules: Rules) -> TurnShape:
    """The rules' ``TurnShape`` (cached: the game asks on every roll)."""
    return _SHAPES.get(rules) or _SHAPES.setdefault(rules, TurnShape.of(rules))


_SHAPES: dict[Rules, TurnShape] = {}


def turn_outcomes(rows: Sequence[Sequence[int]], goal: int, shape: TurnShape) -> list[list[int]]:
    """Under a shape that cancels (``three_sixes``): the ``shape.width`` equally likely
    ends of a whole turn from each position below the goal, given its roll table
    (``rows[p][d - 1]``: where rolling d from p ends, as ``odds.model.TurnModel.rolls``).
    An again-face that does not win rolls again; the ``cancel_after``-th one in a row
    sends the token back to where the turn began."""
    assert shape.cancel_after is not None
    levels, faces = shape.cancel_after, shape.faces

    def ends(start: int, here: int, tops: int, out: list[int]) -> None:
        weight = faces ** (levels - 1 - tops)  # equally likely ends behind one roll now
        for die in range(1, faces + 1):
            again = shape.again[die - 1]
            if again and shape.cancels(tops + 1):
                out.append(start)
                continue
            there = rows[here][die - 1]
            if shape.rolls_again(die, there == goal):
                ends(start, there, tops + 1, out)
            else:
                out.extend([there] * weight)

    turns = []
    for start in range(goal):
        row: list[int] = []
        ends(start, start, 0, row)
        turns.append(row)
    return turns


def legal_dice(board: Board, position: int) -> tuple[int, ...]:
    """Die values that move the token from ``position`` (all faces, minus forfeits).

    Empty on the goal: the game is over there.
    """
    if position >= board.goal:
        return ()
    faces = board.rules.faces
    if board.rules.overshoot == "stay":
        return tuple(range(1, min(faces, board.goal - position) + 1))
    return tuple(range(1, faces + 1))


PASS = 0
"""The die of a passed turn in a game's rolls: the player stays and the next one moves (a
room's host skipped an absent player's turn). It draws nothing from the RNG."""


@dataclass(frozen=True)
class Move:
    """The full result of one roll: for the move log, the animation and the tests."""

    start: int
    die: int
    landed: int
    """Square reached by counting (``start`` when forfeited)."""
    end: int
    """Final square after any jumps."""
    jumps: tuple[Jump, ...] = ()
    """Jumps taken, in order (more than one only under ``chain``)."""
    steps: tuple[int, ...] = ()
    """Squares the token passes one by one while counting (ends with ``landed``)."""
    forfeited: bool = False
    bounced: bool = False
    won: bool = False

    def describe(self, player: str = "", chosen: bool = False) -> str:
        """One line for a move log: 'Ann rolled 4: 12 -> 16, snake to 6' ('chose 4' for
        a value chosen in puzzle mode)."""
        where = "start" if self.start == 0 else str(self.start)
        if self.die == PASS:
            return f"{player or 'The player'}'s turn is skipped: stays on {where}"
        verb = "chose" if chosen else "rolled"
        who = f"{player} {verb}" if player else verb.capitalize()
        if self.forfeited:
            return f"{who} {self.die}: stays on {where} (past the goal)"
        text = f"{who} {self.die}: {where} -> {self.landed}"
        if self.bounced:
            text += " (bounced)"
        for jump in self.jumps:
            text += f", {jump.kind} to {jump.end}"
        if self.won:
            text += ", reaches the goal!"
        return text


def move(board: Board, position: int, die: int) -> Move:
    """The result of rolling ``die`` from ``position``; raises MoveError for a bad die."""
    faces = board.rules.faces
    if type(die) is not int or not 1 <= die <= faces:
        raise MoveError(f"a {faces}-sided die cannot roll {die!r}")
    if not 0 <= position <= board.goal:
        raise MoveError(f"position {position} is not on the board (0..{board.goal})")
    if position == board.goal:
        raise MoveError("the token is already on the goal")
    landed = count_to(board, position, die)
    if landed is None:
        return Move(start=position, die=die, landed=position, end=position, forfeited=True)
    goal = board.goal
    # The squares passed one by one: counting 1, 2, ... of the die by the same rule (a
    # bounce turns at the goal; ``finish`` stays there, so a repeat is no step).
    steps: list[int] = []
    for count in range(1, die + 1):
        square = count_to(board, position, count)
        assert square is not None  # a shorter count never overshoots further
        if not steps or square != steps[-1]:
            steps.append(square)
    assert steps[-1] == landed
    end = landing_table(board)[landed]
    return Move(
        start=position,
        die=die,
        landed=landed,
        end=end,
        jumps=jumps_taken(board, landed),
        steps=tuple(steps),
        bounced=any(b < a for a, b in pairwise((position, *steps))),
        won=end == goal,
    )


def jumps_taken(board: Board, square: int) -> tuple[Jump, ...]:
    """The jumps a token landing on ``square`` takes, in order: the one starting there,
    and under ``chain`` each one its end starts, to the landing table's end."""
    end = landing_table(board)[square]
    jumps: list[Jump] = []
    while square != end:
        jump = board.jump_at(square)
        assert jump is not None
        jumps.append(jump)
        square = jump.end
    return tuple(jumps)


@dataclass(frozen=True)
class Turn:
    """One roll in a game's history."""

    player: int
    move: Move
    turn: int
    """The player's turn number (1-based) this roll belongs to."""
    again: bool
    """This roll grants the same player another roll (``six_again``)."""
    drawn: bool = False
    """The die value came from the game's RNG (``roll``), not from ``play``."""
    cancelled: bool = False
    """The top face came up a third time in a row (``three_sixes``): the turn is
    cancelled and the token went back to where the turn began (``move`` is the roll as
    it would have been)."""

    @property
    def passed(self) -> bool:
        """The turn was passed (``PASS``): nothing was rolled."""
        return self.move.die == PASS


@dataclass
class Game:
    """A game of 1-4 players in turn order. Same seed and same inputs, same game."""

    board: Board
    players: tuple[Player, ...] = (Player("Player 1"),)
    seed: int | None = None
    positions: list[int] = field(init=False)
    current: int = field(init=False, default=0)
    winner: int | None = field(init=False, default=None)
    history: list[Turn] = field(init=False, default_factory=list)
    turns_taken: list[int] = field(init=False)
    _rng: random.Random = field(init=False, repr=False)
    _in_turn: bool = field(init=False, default=False, repr=False)
    _pending_draws: int = field(init=False, default=0, repr=False)
    _turn_start: int = field(init=False, default=0, repr=False)
    """Where the player to move began this turn (``three_sixes`` sends the token back)."""
    _tops: int = field(init=False, default=0, repr=False)
    """Top faces rolled in a row in this turn."""

    def __post_init__(self) -> None:
        players = tuple(Player(p) if isinstance(p, str) else p for p in self.players)
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise SnlError(f"a game has 1 to {MAX_PLAYERS} players, not {len(players)}")
        if any(not p.name for p in players):
            raise SnlError("every player needs a name")
        self.players = players
        self.positions = [self.board.rules.start_position] * len(players)
        self.turns_taken = [0] * len(players)
        import random  # only for a game's dice, not for a board's moves

        self._rng = random.Random(self.seed)

    @classmethod
    def replay(
        cls,
        board: Board,
        players: Sequence[Player | str],
        rolls: Sequence[int],
        seed: int | None = None,
        draws: int = 0,
    ) -> Game:
        """The game after applying ``rolls`` in order (a MoveError names a bad roll).

        ``draws`` is how many of those rolls came from the RNG: the RNG is advanced past
        them, so random play carries on exactly as it would have.
        """
        game = cls(board, tuple(Player(p) if isinstance(p, str) else p for p in players), seed)
        if type(draws) is not int or not 0 <= draws <= len(rolls):
            raise SnlError(f"draws must be a whole number from 0 to {len(rolls)}, not {draws!r}")
        for _ in range(draws):
            game.roll_die()
        game._pending_draws = draws
        for index, die in enumerate(rolls):
            try:
                game.play(die)
            except MoveError as error:
                raise MoveError(f"roll {index + 1} ({die!r}): {error}") from None
        return game

    # -- state -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def position(self) -> int:
        """The square of the player to move."""
        return self.positions[self.current]

    @property
    def rolls(self) -> list[int]:
        return [turn.move.die for turn in self.history]

    def legal_dice(self) -> tuple[int, ...]:
        """Die values that move the player to move (empty once the game is over)."""
        if self.over:
            return ()
        return legal_dice(self.board, self.position)

    # -- play --------------------------------------------------------------------------

    def roll_die(self) -> int:
        """Draw a die value from the game's RNG (uniform over 1..faces)."""
        return self._rng.randint(1, self.board.rules.faces)

    def roll(self) -> Turn:
        """The player to move rolls the die (random play)."""
        if self.over:
            raise MoveError("the game is over")
        return self._apply(self.roll_die(), drawn=True)

    def play(self, die: int) -> Turn:
        """Apply a given die value for the player to move (puzzle play and replays);
        ``PASS`` passes the turn."""
        return self._apply(die, drawn=False)

    def take_roll(self, die: int) -> Turn:
        """Apply a die value rolled elsewhere (a room's host drew it) for the player to
        move: a roll like ``roll``'s, so ``three_sixes`` cancels a third top face, where
        ``play`` (a puzzle's chosen value) never does. ``PASS`` passes the turn."""
        return self._apply(die, drawn=True)

    def pass_turn(self) -> Turn:
        """The player to move passes: no die, no move, the next player's turn (an extra
        roll earned by a top face is lost too)."""
        return self._apply(PASS, drawn=False)

    def _apply(self, die: int, drawn: bool) -> Turn:
        if self.over:
            raise MoveError("the game is over")
        if die == PASS and type(die) is int:
            return self._pass()
        player = self.current
        result = move(self.board, self.positions[player], die)
        if not self._in_turn:
            self.turns_taken[player] += 1
            self._turn_start, self._tops = self.positions[player], 0
        if self._pending_draws:
            # Replaying a saved game: these rolls were drawn from the RNG originally.
            self._pending_draws -= 1
            drawn = True
        shape = turn_shape(self.board.rules)
        self._tops = self._tops + 1 if shape.again[die - 1] else 0
        # Top faces *rolled* in a row: a puzzle's chosen values are not rolls.
        cancelled = drawn and shape.cancels(self._tops)
        if cancelled:
            self.positions[player] = self._turn_start
        else:
            self.positions[player] = result.end
        won = result.won and not cancelled
        again = shape.rolls_again(die, won) and not cancelled
        turn = Turn(
            player=player,
            move=result,
            turn=self.turns_taken[player],
            again=again,
            drawn=drawn,
            cancelled=cancelled,
        )
        self.history.append(turn)
        if won:
            self.winner = player
            self._in_turn = False
        elif again:
            self._in_turn = True
        else:
            self._in_turn = False
            self.current = (player + 1) % len(self.players)
        return turn

    def _pass(self) -> Turn:
        player = self.current
        square = self.positions[player]
        if not self._in_turn:
            self.turns_taken[player] += 1
        self._in_turn, self._tops = False, 0
        turn = Turn(
            player=player,
            move=Move(start=square, die=PASS, landed=square, end=square),
            turn=self.turns_taken[player],
            again=False,
        )
        self.history.append(turn)
        self.current = (player + 1) % len(self.players)
        return turn

    def undo(self) -> Turn | None:
        """Take back the last roll (replays the rest; the RNG restarts from the seed).

        Returns the turn undone, or None when there is nothing to undo.
        """
        if not self.history:
            return None
        last = self.history[-1]
        kept = self.history[:-1]
        earlier = Game.replay(
            self.board, self.players, self.rolls[:-1], self.seed, sum(t.drawn for t in kept)
        )
        # Every field, not ``__dict__``: a field still at its class default (``winner``
        # before anyone wins) is not in the replayed game's ``__dict__``, and copying
        # only the dict would keep this game's winner after undoing the winning roll.
        for name in (f.name for f in fields(self)):
            setattr(self, name, getattr(earlier, name))
        return last

    # -- saving ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Enough to rebuild this game with ``Game.from_dict`` (given its board)."""
        return {
            "players": [{"name": p.name, "computer": p.computer} for p in self.players],
            "seed": self.seed,
            "rolls": self.rolls,
            "draws": sum(turn.drawn for turn in self.history),
        }

    @classmethod
    def from_dict(cls, board: Board, data: Any) -> Game:
        """Rebuild a saved game; a malformed save raises SnlError, never a traceback."""
        try:
            players = tuple(
                # A name from a file or the network is drawn on the terminal: escaped.
                Player(escape_controls(str(p["name"])), bool(p.get("computer", False)))
                for p in data["players"]
            )
            seed = data.get("seed")
            rolls = list(data["rolls"])
            draws = data.get("draws", 0)
        except (KeyError, TypeError, AttributeError) as error:
            raise SnlError(f"not a saved game ({error})") from None
        if seed is not None and type(seed) is not int:
            raise SnlError(f"saved game: seed must be a whole number, not {seed!r}")
        return cls.replay(board, players, rolls, seed, draws)
