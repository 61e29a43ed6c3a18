"""The puzzle solver: the least number of rolls when the player chooses every die value.

With default rules this is exactly LeetCode 909's answer. Two views:

* ``solve(board, start)`` runs one breadth-first search forward from ``start`` and stops
  at the goal: the fast path for a single question (and for the CLI and the benchmark).
* ``distances_to_goal(board)`` runs one backward search from the goal and answers every
  square at once; the hint panel uses it for "which die values stay optimal" without
  searching again after each move. It is cached per board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board
from .engine import count_to, jump_table, landing_table, next_position
from .errors import MoveError

UNREACHABLE = -1


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
    faces = board.rules.faces
    jumps = jump_table(board)  # -1 (or the square itself): no jump
    plain = board.rules.overshoot == "stay"
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
                    target = count_to(board, here, die)
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
    final = landing_table(board)
    # Landing squares whose jumps end on a square, and which squares start a jump.
    sent_to: dict[int, list[int]] = {}
    jump_start = bytearray(goal + 1)
    for start in board.jumps:
        jump_start[start] = 1
        sent_to.setdefault(final[start], []).append(start)
    # Moves past the goal (bounce and finish): explicit, they are few.
    overshoot_preds: dict[int, list[int]] = {}
    if board.rules.overshoot != "stay":
        for here in range(max(0, goal - faces + 1), goal):
            for die in range(goal - here + 1, faces + 1):
                target = count_to(board, here, die)
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
            there = next_position(board, here, die)
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
        if count_to(board, position, die) is None:
            continue
        if dist[next_position(board, position, die)] == here - 1:
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
        position = next_position(board, position, die)
        rolls.append(die)
        squares.append(position)
    return Solution(moves, rolls, squares, origin)
