"""The textbook breadth-first search of LeetCode 909, recorded step by step for
``snl learn``: every square taken off the queue, every die value tried from it (where it
lands, the jump it takes, whether the square it ends on is new), and at the end the route
read back from the goal.

Moves come from the engine (``core.engine.move``), so the steps follow the board's own
rules; the code shown beside them is LeetCode's, written for those rules. A step stores
only counters (how many squares have a distance, how many went into and out of the
queue): the state after any step is read off the search's lists, so going back is free
and a board of thousands of squares costs a few numbers a step.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core.board import Board
from ..core.engine import legal_dice, move
from ..core.text import place, plural

MAX_SQUARES = 10_000
"""Boards larger than this are too big to watch square by square."""


@dataclass(frozen=True)
class CodeLine:
    text: str
    label: str = ""
    """What the line does ('pop', 'jump', 'new'...): the steps name lines by label."""


@dataclass(frozen=True)
class Step:
    """One step of the search, and where it leaves it."""

    labels: tuple[str, ...]
    """The code lines this step runs (their labels)."""
    text: str
    here: int | None = None
    """The square being expanded (``s`` in the code)."""
    landed: int | None = None
    """Where the die landed (before any jump)."""
    end: int | None = None
    """Where the move ends (``s2`` after the jump)."""
    level: int = 0
    """The distance of the square being expanded."""
    reached: int = 1
    """How many squares have their distance (the first ones of ``Search.order``)."""
    pushed: int = 1
    """How many squares went into the queue (the first ones of ``Search.queued``)."""
    popped: int = 0
    """How many came out of it."""
    route: int = 0
    """How many squares of the route are read back (the first ones of ``Search.back``)."""
    one_jump: int | None = None
    """The move ended on the start of another jump, which it does not take: that jump's
    start (the one-jump rule, shown when it matters)."""


@dataclass(frozen=True)
class View:
    """What the search looks like after one step."""

    step: Step
    distances: dict[int, int]
    """Each square reached so far and its distance."""
    queue: tuple[int, ...]
    route: tuple[int, ...]
    """The route read back so far, from the goal."""


@dataclass
class Search:
    """The whole search on one board, and its steps."""

    board: Board
    start: int
    code: tuple[CodeLine, ...]
    notes: tuple[str, ...] = ()
    """How this board's rules differ from LeetCode's (the code is written for them)."""
    order: list[int] = field(default_factory=list)
    distance: dict[int, int] = field(default_factory=dict)
    parent: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    """square -> (the square it was first reached from, the die value, where it landed)."""
    queued: list[int] = field(default_factory=list)
    back: list[int] = field(default_factory=list)
    """The route read back: the goal first."""
    steps: list[Step] = field(default_factory=list)
    answer: int = -1

    def view(self, index: int) -> View:
        step = self.steps[index]
        order = self.order[: step.reached]
        return View(
            step,
            {square: self.distance[square] for square in order},
            tuple(self.queued[step.popped : step.pushed]),
            tuple(self.back[: step.route]),
        )

    def level_starts(self) -> list[int]:
        """The index of the first step of each level (its first square taken out)."""
        starts, level = [], -1
        for index, step in enumerate(self.steps):
            if step.labels == ("pop",) and step.level != level:
                level = step.level
                starts.append(index)
        return starts

    @property
    def route(self) -> list[int]:
        """The route found, start first (empty when the goal cannot be reached)."""
        return list(reversed(self.back))


def textbook_code(board: Board) -> tuple[tuple[CodeLine, ...], tuple[str, ...]]:
    """LeetCode's breadth-first search in Python, for this board's rules, and a note for
    each rule the code does not show."""
    rules = board.rules
    faces, first = rules.faces, rules.start
    notes = []
    if rules.overshoot != "stay":
        notes.append(
            f"overshoot = {rules.overshoot}: a roll past the goal "
            + ("bounces back" if rules.overshoot == "bounce" else "finishes")
            + "; the code shows LeetCode's exact finish"
        )
    if rules.six_again:
        notes.append("six_again does not change the least rolls: each roll is a move")
    if first == 0:
        notes.append("start = 0: the token starts off the board (square 0)")
    jump = (
        CodeLine("            while board[r][c] != -1:  # jumps chain here", "jump")
        if rules.chain
        else CodeLine("            if board[r][c] != -1:", "jump")
    )
    lines = [
        CodeLine("def cell(board, s):  # square -> (row, column)", "cell"),
        CodeLine("    rows, cols = len(board), len(board[0])", "cell"),
        CodeLine("    level, c = divmod(s - 1, cols)  # level 0: bottom", "cell"),
        CodeLine("    if level % 2 == 1:  # odd levels: right to left", "cell"),
        CodeLine("        c = cols - 1 - c", "cell"),
        CodeLine("    return rows - 1 - level, c  # row 0: the top", "cell"),
        CodeLine(""),
        CodeLine("def snakes_and_ladders(board):"),
        CodeLine("    goal = len(board) * len(board[0])"),
        CodeLine(f"    dist, came_from = {{{first}: 0}}, {{}}", "init"),
        CodeLine(f"    queue = deque([{first}])", "init"),
        CodeLine("    while queue:", "loop"),
        CodeLine("        s = queue.popleft()", "pop"),
        CodeLine(f"        for s2 in range(s + 1, min(s + {faces}, goal) + 1):", "die"),
        CodeLine("            r, c = cell(board, s2)", "die"),
        jump,
        CodeLine(
            "                s2 = board[r][c]  # one jump only"
            if not rules.chain
            else "                s2 = board[r][c]; r, c = cell(board, s2)",
            "jump",
        ),
        CodeLine("            if s2 not in dist:", "seen"),
        CodeLine("                dist[s2] = dist[s] + 1", "new"),
        CodeLine("                came_from[s2] = s", "new"),
        CodeLine("                if s2 == goal:", "goal"),
        CodeLine("                    return dist[s2]", "goal"),
        CodeLine("                queue.append(s2)", "append"),
        CodeLine("    return -1", "fail"),
        CodeLine(""),
        CodeLine("def route(came_from, goal):"),
        CodeLine("    path = [goal]", "route"),
        CodeLine("    while path[-1] in came_from:", "route"),
        CodeLine("        path.append(came_from[path[-1]])", "route"),
        CodeLine("    return path[::-1]", "done"),
    ]
    return tuple(lines), tuple(notes)


def named(square: int) -> str:
    """'15', or 'the start (off the board)' for position 0."""
    return "the start (off the board)" if square == 0 else str(square)


def jump_words(board: Board, square: int) -> str:
    """'a ladder to 15' / 'a snake to 6' for the jump on ``square``."""
    jump = board.jump_at(square)
    assert jump is not None
    return f"a {jump.kind} to {jump.end}"


def try_dice(dice: Sequence[int]) -> str:
    """'try the dice 1 to 6'; 'only a 1 can move' when one value is left."""
    if len(dice) == 1:
        return f"only a {dice[0]} can move"
    if list(dice) == list(range(dice[0], dice[-1] + 1)):
        return f"try the dice {dice[0]} to {dice[-1]}"
    return "try the dice " + ", ".join(map(str, dice))


def where(board: Board, square: int) -> str:
    """' (cell(4) = row 2, column 3)': where a square is in the matrix."""
    if not 1 <= square <= board.goal:
        return ""
    row, col = board.position_of(square)
    return f" (cell({square}) = row {row}, column {col})"


def breadth_first(board: Board) -> Search:
    """The search from the rules' start, every step recorded (raises ValueError on a
    board of more than ``MAX_SQUARES`` squares)."""
    if board.goal > MAX_SQUARES:
        raise ValueError(
            f"the board has {board.goal:,} squares: the search is shown on boards of up to "
            f"{MAX_SQUARES:,}"
        )
    code, notes = textbook_code(board)
    start = board.rules.start_position
    goal = board.goal
    search = Search(board, start, code, notes)
    search.order.append(start)
    search.distance[start] = 0
    search.queued.append(start)
    steps = search.steps
    counts = {"reached": 1, "pushed": 1, "popped": 0}

    def add(labels: tuple[str, ...], text: str, **where: int | None) -> None:
        steps.append(Step(labels, text, **where, **counts))  # type: ignore[arg-type]

    origin = "off the board (square 0)" if start == 0 else f"on square {start}"
    add(("init",), f"The search starts {origin}, distance 0: the queue holds it.")
    if start == goal:  # pragma: no cover - a board has at least two squares
        search.answer = 0
        return search
    queue = deque([start])
    found = False
    while queue and not found:
        here = queue.popleft()
        counts["popped"] += 1
        level = search.distance[here]
        dice = legal_dice(board, here)
        add(
            ("pop",),
            f"Take {named(here)} off the queue (distance {level}): {try_dice(dice)} from it."
            if dice
            else f"Take {named(here)} off the queue.",
            here=here,
            level=level,
        )
        for die in dice:
            moved = move(board, here, die)
            end = moved.end
            labels: tuple[str, ...] = ("die",)
            text = f"Die {die}: {named(here)} -> {moved.landed}" + where(board, moved.landed)
            one_jump = None
            if moved.jumps:
                labels += ("jump",)
                text += ", " + ", then ".join(f"a {j.kind} to {j.end}" for j in moved.jumps)
                if board.jump_at(end) is not None and not board.rules.chain:
                    one_jump = end
                    text += (
                        f". {end} starts {jump_words(board, end)} too, but a move takes one "
                        f"jump only: it ends on {end}"
                    )
            if end in search.distance:
                labels += ("seen",)
                text += f". {end} already has distance {search.distance[end]}: nothing to do."
            else:
                search.distance[end] = level + 1
                search.parent[end] = (here, die, moved.landed)
                search.order.append(end)
                counts["reached"] += 1
                if end == goal:
                    labels += ("new", "goal")
                    text += f". The goal, at distance {level + 1}: the answer is {level + 1}."
                    found = True
                else:
                    labels += ("new", "append")
                    queue.append(end)
                    search.queued.append(end)
                    counts["pushed"] += 1
                    text += f". {end} is new: distance {level + 1}, into the queue."
            add(
                labels,
                text,
                here=here,
                landed=moved.landed,
                end=end,
                level=level,
                one_jump=one_jump,
            )
            if found:
                break
    if not found:
        add(
            ("fail",),
            "The queue is empty and the goal was never reached: the answer is -1.",
            level=max(search.distance.values()),
        )
        return search
    search.answer = search.distance[goal]
    square = goal
    search.back.append(goal)
    add(
        ("route",),
        f"Read the route back from the goal: {goal}.",
        end=goal,
        level=search.answer,
        route=1,
    )
    while square in search.parent:
        before, die, landed = search.parent[square]
        search.back.append(before)
        how = "" if landed == square else f" (on {landed}, {jump_words(board, landed)})"
        add(
            ("route",),
            f"{square} was first reached from {place(before)} with a {die}{how}.",
            here=before,
            end=square,
            level=search.distance[before],
            route=len(search.back),
        )
        square = before
    shown = " -> ".join(str(s) for s in search.route)
    add(
        ("done",),
        f"The route: {shown}, {plural(search.answer, 'roll')}.",
        end=goal,
        level=search.answer,
        route=len(search.back),
    )
    return search


def forward_distances(board: Board) -> dict[int, int]:
    """Least rolls from the rules' start to every position it can reach (the whole
    search, not stopping at the goal)."""
    start = board.rules.start_position
    distance = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == board.goal:
            continue
        for die in legal_dice(board, here):
            end = move(board, here, die).end
            if end not in distance:
                distance[end] = distance[here] + 1
                queue.append(end)
    return distance
