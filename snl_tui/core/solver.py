"""The puzzle solver: the least number of rolls when the player chooses every die value.

With default rules this is exactly LeetCode 909's answer. Two views:

* ``solve(board, start)`` runs one breadth-first search forward from ``start`` and stops
  at the goal: the fast path for a single question (and for the CLI and the benchmark).
  Up to ``ARRAY_SEARCH_SQUARES`` squares it walks Python lists (no numpy import for a
  small board's ``snl solve``); past it each level is a handful of numpy operations over
  the whole frontier, and a run of levels that only walks a stretch free of jumps is
  written in one step (``_search_arrays``).
* ``distances_to_goal(board)`` runs one backward search from the goal and answers every
  square at once; the hint panel uses it for "which die values stay optimal" without
  searching again after each move. It is cached per board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import engine
from .board import Board
from .errors import MoveError

if TYPE_CHECKING:
    import numpy as np

UNREACHABLE = -1
ARRAY_SEARCH_SQUARES = 10_000
"""Boards of more squares than this are searched level by level in numpy."""
DIRECT_LEVELS = 8
"""The array search reads where rolls end off the cells for this many narrow levels,
then builds the whole table (``_RollEnds``)."""
MARKED_LEVEL = 64
"""A level reaching more than 1 / MARKED_LEVEL of the squares is put in order by marking
them on the board and reading the marks back; a smaller one is sorted."""
NARROW_FRONTIER = 256
"""A level of at most this many squares gathers every roll of each (fewer numpy calls);
a wider one only the union of their windows (fewer rolls)."""


@dataclass(frozen=True)
class Solution:
    """An optimal route: ``moves`` rolls (-1 when the goal cannot be reached)."""

    moves: int
    rolls: list[int] = field(default_factory=list)
    """Die values of one optimal route."""
    squares: list[int] = field(default_factory=list)
    """Where each move ends (after its jump)."""
    start: int = 1

    @property
    def reachable(self) -> bool:
        return self.moves >= 0

    def to_dict(self) -> dict[str, object]:
        return {
            "moves": self.moves,
            "rolls": list(self.rolls),
            "squares": list(self.squares),
            "start": self.start,
        }


def _check_start(board: Board, start: int | None) -> int:
    if start is None:
        return board.rules.start_position
    if type(start) is not int or not 0 <= start <= board.goal:
        raise MoveError(f"square {start!r} is not on the board (0..{board.goal})")
    return start


def solve(board: Board, start: int | None = None) -> Solution:
    """Least rolls from ``start`` (default: the rules' start) to the goal, with a route.

    Breadth-first over positions; a landing square is expanded only the first time any
    roll reaches it, because where it leads does not depend on how it was reached.
    """
    position = _check_start(board, start)
    goal = board.goal
    if position == goal:
        return Solution(0, [], [], position)
    if goal > ARRAY_SEARCH_SQUARES:
        return _search_arrays(board, position)
    faces = board.rules.faces
    jumps = engine.jump_table(board)  # -1 (or the square itself): no jump
    plain = engine.forfeits_past_goal(board)
    size = goal + 1
    parent = [-1] * size  # previous position on the route, -1 = not reached yet
    die_used = bytearray(size)
    landed = bytearray(size)  # landing squares already expanded
    parent[position] = position
    frontier = [position]
    depth = 0
    while frontier:
        depth += 1
        following: list[int] = []
        append = following.append
        # In increasing order, each roll range only needs checking past the previous
        # one's top: the union of ranges is scanned once per level, not six times.
        frontier.sort()
        covered = 0
        for here in frontier:
            top = here + faces
            if top > goal and not plain:
                # Overshoot rules only matter in the last stretch: the slow, exact path.
                for die in range(1, faces + 1):
                    target = engine.count_to(board, here, die)
                    assert target is not None
                    if landed[target]:
                        continue
                    landed[target] = 1
                    there = jumps[target]
                    if there < 0:
                        there = target
                    if parent[there] < 0:
                        parent[there] = here
                        die_used[there] = die
                        append(there)
                continue
            if top > goal:
                top = goal
            low = here + 1 if here >= covered else covered + 1
            covered = top
            for target in range(low, top + 1):
                if landed[target]:
                    continue
                landed[target] = 1
                there = jumps[target]
                if there < 0:
                    there = target
                if parent[there] < 0:
                    parent[there] = here
                    die_used[there] = target - here
                    append(there)
        if parent[goal] >= 0:
            return _route(parent, die_used, position, goal, depth)
        frontier = following
    return Solution(UNREACHABLE, [], [], position)


def _search_arrays(board: Board, position: int) -> Solution:
    """``solve`` as a level-synchronous breadth-first search over numpy arrays.

    ``ends[t]``: where a roll that counts to ``t`` (``position + die``, up to
    ``goal + faces - 1``) ends, from the engine (``count_to`` past the goal, the landing
    table), or -1 for a forfeited roll. Each level gathers every roll of the frontier at
    once; a landing square is expanded only the first time a roll reaches it.

    Where the frontier is one run of squares whose rolls below its top are all spent and
    the squares above it start no jump and are not reached yet, every following level
    only walks on by ``faces`` squares until the next such square: those levels are
    written in one step (a board without jumps is a handful of levels, not goal / 6)."""
    import numpy as np

    goal, faces = board.goal, board.rules.faces
    ends = _RollEnds(board)
    size = goal + 1
    parent = np.full(size + 1, -1, dtype=np.int32)
    parent[size] = size  # the sink, where a forfeited roll "ends": never a new position
    landed = np.zeros(goal + faces + 1, dtype=bool)
    mark = np.zeros(size + 1, dtype=bool)  # a wide level's positions, read in order
    parent[position] = position
    frontier = np.array([position], dtype=np.int32)  # always in increasing order, once each
    dice = np.arange(1, faces + 1, dtype=np.int32)
    depth = 0
    while len(frontier):
        depth += 1
        if ends.table is None and (depth > DIRECT_LEVELS or len(frontier) > NARROW_FRONTIER):
            ends.build()
        if len(frontier) <= NARROW_FRONTIER:
            # Few squares: every roll of each, in a handful of numpy calls (a roll
            # counted twice this level is kept once when the frontier is made).
            targets = (frontier[:, None] + dice).ravel()
            sources = np.repeat(frontier, faces)
        else:
            # Many: in increasing order each square's rolls need counting only past
            # the previous square's top, so the union of the windows is gathered once.
            # Square j's new rolls are the top min(faces, f[j] - f[j - 1]) of its
            # window f[j] + 1 .. f[j] + faces; the k-th target overall, counted from 0,
            # is then f[j] + faces + 1 - (those counts summed up to j) + k.
            length = np.empty_like(frontier)
            length[0] = faces
            np.subtract(frontier[1:], frontier[:-1], out=length[1:])
            np.minimum(length, faces, out=length)
            summed = np.cumsum(length, dtype=np.int32)
            targets = np.repeat(frontier + (faces + 1) - summed, length)
            targets += np.arange(len(targets), dtype=np.int32)
            sources = np.repeat(frontier, length)
            # A roll onto a square landed on before ends where it did then, on a
            # position with its parent set: the wide gather leaves it out first.
            fresh = ~landed[targets]
            targets, sources = targets[fresh], sources[fresh]
        landed[targets] = True
        there = ends[targets]
        keep = parent[there] < 0  # a forfeit ends on the sink, whose parent is set
        there = there[keep]
        parent[there] = sources[keep]  # a position reached twice: the last write
        if len(there) * MARKED_LEVEL > size:  # a wide level: one pass over the squares
            mark[there] = True
            frontier = np.flatnonzero(mark).astype(np.int32)
            mark[frontier] = False
        elif len(there):  # one copy of each position, in increasing order
            there.sort()
            first = np.empty(len(there), dtype=bool)
            first[0] = True
            np.not_equal(there[1:], there[:-1], out=first[1:])
            frontier = there[first]
        else:
            frontier = there
        if parent[goal] >= 0:
            return _route_arrays(parent, ends, position, goal, depth, faces)
        if len(frontier) and len(frontier) <= faces:
            bottom, top = int(frontier.min()), int(frontier.max())
            if top - bottom < faces and landed[bottom + 1 : top + 1].all():
                walked = _walk_on(ends, landed, parent, top, goal, faces)
                if walked is not None:
                    depth += walked[0]
                    frontier = walked[1]
    return Solution(UNREACHABLE, [], [], position)


def _walk_on(
    ends: _RollEnds,
    landed: np.ndarray,
    parent: np.ndarray,
    top: int,
    goal: int,
    faces: int,
) -> tuple[int, np.ndarray] | None:
    """From a frontier whose every roll lands above ``top`` (its highest square), the
    levels that only walk on: squares ``top + 1 ..`` up to the first one that starts a
    jump, is reached already or is the goal, ``faces`` a level. Writes them as the
    levels would (the parent ``faces`` squares back, ``top`` for the first level) and
    returns (levels written, the last level's squares as the new frontier), or None
    when not one whole level is free to walk."""
    import numpy as np

    end = top + 1
    span = faces
    while end < goal:  # the first square not free to walk on, by doubling windows
        window = slice(end, min(end + span, goal))
        walk = ends[window] == np.arange(window.start, window.stop)  # lands on itself
        free = walk & ~landed[window] & (parent[window] < 0)
        if not free.all():
            end += int(np.argmin(free))
            break
        end = window.stop
        span *= 2
    levels = (end - 1 - top) // faces  # whole levels; the search goes on from the last
    if levels <= 0:
        return None
    last = top + levels * faces
    squares = np.arange(top + 1, last + 1)
    landed[top + 1 : last + 1] = True
    parent[top + 1 : last + 1] = np.maximum(squares - faces, top)
    return levels, np.arange(last - faces + 1, last + 1, dtype=np.int32)


def _roll_ends(board: Board) -> np.ndarray:
    """Index t (0 .. goal + faces - 1): where a roll that counts to square t ends (the
    engine's ``count_to`` and landing table), or ``goal + 1`` (a sink) where such a roll
    is forfeited. Kept per board."""
    return board.derived("solver.roll_ends", _compute_roll_ends)


def _compute_roll_ends(board: Board) -> np.ndarray:
    import numpy as np

    ends: np.ndarray = np.concatenate((engine.landing_array(board), _past_ends(board)))
    return ends


def _past_ends(board: Board) -> np.ndarray:
    """``_roll_ends`` past the goal: counts of goal + 1 .. goal + faces - 1."""
    import numpy as np

    goal, faces = board.goal, board.rules.faces
    beyond = [engine.count_to(board, 0, t) for t in range(goal + 1, goal + faces)]
    landed = [goal + 1 if t is None else t for t in beyond]
    ends = engine.landing_of(board, np.array(landed, dtype=np.int64).clip(max=goal))
    return np.where(np.array(landed) > goal, goal + 1, ends).astype(np.int32)


class _RollEnds:
    """``_roll_ends(board)[index]`` for the search: read off the cells of the squares
    asked for (``engine.landing_of``) until ``build``, then off the whole table. A search
    that ends in a few levels (an early answer on a million squares) builds none."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.table: np.ndarray | None = None
        if board.has_derived("solver.roll_ends"):
            self.build()
        self.past = _past_ends(board) if self.table is None else None

    def build(self) -> None:
        self.table = _roll_ends(self.board)

    def __getitem__(self, index: np.ndarray | slice) -> np.ndarray:
        import numpy as np

        if self.table is not None:
            return self.table[index]
        if isinstance(index, slice):
            index = np.arange(index.start, index.stop)
        squares = index.ravel()
        goal = self.board.goal
        ends = engine.landing_of(self.board, np.minimum(squares, goal))
        beyond = squares > goal
        if beyond.any():
            assert self.past is not None
            ends[beyond] = self.past[squares[beyond] - goal - 1]
        return ends.reshape(index.shape)


def _route_arrays(
    parent: np.ndarray, ends: _RollEnds, start: int, goal: int, moves: int, faces: int
) -> Solution:
    """The route to the goal along ``parent``, each roll the smallest die value whose
    count ends on the next square (``ends``), all of them read at once."""
    import numpy as np

    squares = [goal]
    parents = parent.tolist() if moves > 1000 else parent  # a long route: one conversion
    square = goal
    while square != start:
        square = int(parents[square])
        squares.append(square)
    squares.reverse()
    route = np.array(squares, dtype=np.int64)
    counted = ends[route[:-1, None] + np.arange(1, faces + 1)]
    rolls = np.argmax(counted == route[1:, None], axis=1) + 1
    return Solution(moves, rolls.tolist(), squares[1:], start)


def _route(parent: list[int], die_used: bytearray, start: int, goal: int, moves: int) -> Solution:
    squares: list[int] = []
    rolls: list[int] = []
    square = goal
    while square != start:
        squares.append(square)
        rolls.append(die_used[square])
        square = parent[square]
    squares.reverse()
    rolls.reverse()
    assert len(rolls) == moves
    return Solution(moves, rolls, squares, start)


def distances_to_goal(board: Board) -> tuple[int, ...]:
    """Index p (0..goal): least rolls from position p to the goal, -1 if unreachable.

    One backward breadth-first search, cached per board. It never builds the reversed
    graph: the positions one roll before a landing square ``t`` are simply ``t - faces``
    .. ``t - 1``, and the landing squares that end on a position are the position itself
    (unless a jump starts there) plus the starts of the jumps leading to it. Only the
    overshoot rules add moves of another shape, from the last ``faces`` positions.
    """
    return board.derived("solver.distances", _distances)


def _distances(board: Board) -> tuple[int, ...]:
    goal = board.goal
    faces = board.rules.faces
    final = engine.landing_table(board)
    # Landing squares whose jumps end on a square, and which squares start a jump.
    sent_to: dict[int, list[int]] = {}
    jump_start = bytearray(goal + 1)
    for start in board.jumps:
        jump_start[start] = 1
        sent_to.setdefault(final[start], []).append(start)
    # Moves past the goal (bounce and finish): explicit, they are few.
    overshoot_preds: dict[int, list[int]] = {}
    if not engine.forfeits_past_goal(board):
        for here in range(max(0, goal - faces + 1), goal):
            for die in range(goal - here + 1, faces + 1):
                target = engine.count_to(board, here, die)
                assert target is not None
                overshoot_preds.setdefault(final[target], []).append(here)
    dist = [UNREACHABLE] * (goal + 1)
    dist[goal] = 0
    frontier = [goal]
    depth = 0
    while frontier:
        depth += 1
        following: list[int] = []
        landings: list[int] = []
        for there in frontier:
            if not jump_start[there]:
                landings.append(there)
            landings.extend(sent_to.get(there, ()))
            for here in overshoot_preds.get(there, ()):
                if dist[here] < 0:
                    dist[here] = depth
                    following.append(here)
        # In increasing order each roll range only needs scanning past the previous one.
        landings.sort()
        covered = -1
        for target in landings:
            low = target - faces
            if low <= covered:
                low = covered + 1
            if low < 0:
                low = 0
            for here in range(low, target):
                if dist[here] < 0:
                    dist[here] = depth
                    following.append(here)
            if target - 1 > covered:
                covered = target - 1
        frontier = following
    return tuple(dist)


def count_optimal_routes(board: Board, square: int | None = None) -> int:
    """How many optimal routes there are from ``square`` (default: the rules' start): the
    distinct sequences of die values that reach the goal in the least rolls (1: the answer
    is unique; 0: the goal cannot be reached). Exact, however large (Python integers).

    ``routes(p)`` is the sum of ``routes(next)`` over the faces whose ``next`` is one roll
    nearer the goal (``distances_to_goal``), and ``routes(goal) = 1``: positions are taken
    nearest the goal first, so each is summed once.
    """
    position = _check_start(board, square)
    dist = distances_to_goal(board)
    if dist[position] == UNREACHABLE:
        return 0
    faces, goal = board.rules.faces, board.goal
    routes = [0] * (goal + 1)
    routes[goal] = 1
    order = sorted(
        (p for p in range(goal) if dist[p] != UNREACHABLE and dist[p] <= dist[position]),
        key=dist.__getitem__,
    )
    for here in order:
        total = 0
        for die in range(1, faces + 1):
            there = engine.next_position(board, here, die)
            if dist[there] == dist[here] - 1:
                total += routes[there]
        routes[here] = total
    return routes[position]


def least_rolls_from(board: Board, square: int) -> int:
    """Least rolls from ``square`` (0 = off the board) to the goal; -1 if unreachable."""
    return distances_to_goal(board)[_check_start(board, square)]


def optimal_dice(board: Board, square: int) -> tuple[int, ...]:
    """Every die value from ``square`` that keeps the player on an optimal route.

    Empty on the goal and where the goal is unreachable.
    """
    position = _check_start(board, square)
    dist = distances_to_goal(board)
    here = dist[position]
    if here <= 0:
        return ()
    best = []
    for die in range(1, board.rules.faces + 1):
        if engine.count_to(board, position, die) is None:
            continue
        if dist[engine.next_position(board, position, die)] == here - 1:
            best.append(die)
    return tuple(best)


def optimal_route(board: Board, square: int | None = None, limit: int | None = None) -> Solution:
    """One optimal route from ``square``: always the smallest optimal die value.

    Deterministic and consistent with ``optimal_dice``, so the hint panel, the route
    overlay and the move the player just made agree with each other. With ``limit``,
    ``rolls`` and ``squares`` hold only the first ``limit`` moves (``moves`` still counts
    them all): a hint on a huge board needs the start of the route, not all of it.
    """
    origin = position = _check_start(board, square)
    dist = distances_to_goal(board)
    moves = dist[position]
    if moves < 0:
        return Solution(UNREACHABLE, [], [], origin)
    rolls: list[int] = []
    squares: list[int] = []
    while position != board.goal and (limit is None or len(rolls) < limit):
        die = optimal_dice(board, position)[0]
        position = engine.next_position(board, position, die)
        rolls.append(die)
        squares.append(position)
    return Solution(moves, rolls, squares, origin)
