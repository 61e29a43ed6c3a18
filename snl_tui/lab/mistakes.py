"""The typical wrong solutions of LeetCode 909, as small models, and the proof that a
judged solution makes one of them.

Each model is the textbook search with one mistake in it, as learners write it: a die of
five or seven faces, the squares numbered without the zigzag, a visited set that holds
the square landed on rather than the one the jump leads to, a counter bumped for every
square taken off the queue, a depth cap, a memoised depth-first search... A mistake may
have a few variants (the order a DFS tries the dice in, the cap's depth).

``consistent`` keeps the mistakes whose one variant gives the solution's answer on every
board it was run on, the boards it got right included: a model that is right where the
solution is right and wrong the same way where it is wrong. The judge names a mistake
only when exactly one is left after a few more boards chosen to tell the survivors apart
(``telling_boards``). These models are deliberately wrong and live apart from the engine,
which holds the one right version of every rule: nothing but the diagnosis runs them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

Matrix = list[list[int]]
Flat = tuple[int, ...]
"""A board as the learner's ``cell`` reads it: index s holds the jump's end on square s
(-1: none); index 0 is unused."""
FACES = 6
LOOP_LIMIT = 10_000
"""Steps after which a model that follows jumps or recurses is taken as never ending."""
MAX_CAP = 40


def _right(n: int, square: int) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    return n - 1 - level, (offset if level % 2 == 0 else n - 1 - offset)


def _no_zigzag(n: int, square: int) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    return n - 1 - level, offset


def _wrong_rows(n: int, square: int) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    return n - 1 - level, (n - 1 - offset if level % 2 == 0 else offset)


def _from_top(n: int, square: int) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    return level, (offset if level % 2 == 0 else n - 1 - offset)


def _row_parity(n: int, square: int) -> tuple[int, int]:
    level, offset = divmod(square - 1, n)
    row = n - 1 - level
    return row, (n - 1 - offset if row % 2 == 1 else offset)


def _off_by_one(n: int, square: int) -> tuple[int, int]:
    """``divmod(s, n)`` for ``divmod(s - 1, n)``: the goal's row is -1, which Python
    reads as the bottom row."""
    level, offset = divmod(square, n)
    return n - 1 - level, (offset if level % 2 == 0 else n - 1 - offset)


def _off_by_one_guarded(n: int, square: int) -> tuple[int, int] | None:
    """The same, with the cells off the board taken as holding no jump."""
    row, col = _off_by_one(n, square)
    return (row, col) if 0 <= row < n else None


CELLS: dict[str, Callable[[int, int], tuple[int, int] | None]] = {
    "right": _right,
    "no-zigzag": _no_zigzag,
    "wrong-rows": _wrong_rows,
    "from-top": _from_top,
    "row-parity": _row_parity,
    "off-by-one": _off_by_one,
    "off-by-one-guarded": _off_by_one_guarded,
}


def flat(matrix: Matrix, cell: str = "right") -> Flat:
    """The board as a learner's ``cell`` reads it."""
    n = len(matrix)
    to = CELLS[cell]
    values = [-1]
    for square in range(1, n * n + 1):
        where = to(n, square)
        values.append(-1 if where is None else matrix[where[0]][where[1]])
    return tuple(values)


def _true_square(n: int, cell: str, square: int) -> int:
    """The square the right numbering gives the cell a learner's ``cell`` calls
    ``square``."""
    where = CELLS[cell](n, square)
    if where is None:
        return square
    row, col = where[0] % n, where[1]
    level = n - 1 - row
    return level * n + (col if level % 2 == 0 else n - 1 - col) + 1


Answer = tuple[int | None, list[int]]
"""A model's answer (None: it would never end) and its route, the start first."""


def bfs(
    board: Flat,
    *,
    faces: int = FACES,
    chain: bool = False,
    chain_stop: str = "never",
    stack: bool = False,
    goal_before_jump: bool = False,
    climb_costs: bool = False,
    snakes: bool = True,
    seen_test: str = "end",
    seen_mark: str = "end",
    count_pops: bool = False,
    unreachable: int = -1,
) -> Answer:
    """The textbook search over ``board`` with the mistakes switched on."""
    goal = len(board) - 1

    def jump(square: int) -> int | None:
        end = board[square]
        if end == -1 or end == square or (not snakes and end < square):
            return None
        return end

    def route(parent: dict[int, int], square: int) -> list[int]:
        squares = [square]
        while squares[-1] in parent and len(squares) <= goal:
            squares.append(parent[squares[-1]])
        return squares[::-1]

    dist = {1: 0}
    parent: dict[int, int] = {}
    seen = {1}
    queue = deque([(1, 0)])
    pops = 0
    while queue:
        here, moves = queue.pop() if stack else queue.popleft()
        pops += 1
        if pops > LOOP_LIMIT + 50 * goal:
            return None, []  # its queue never empties
        for landed in range(here + 1, min(here + faces, goal) + 1):
            if goal_before_jump and landed == goal:
                parent[goal] = here
                return (pops if count_pops else moves + 1), route(parent, goal)
            there, cost = landed, 1
            end = jump(there)
            if end is not None:
                there, cost = end, 2 if climb_costs else 1
                hops, passed = 0, {landed}
                while chain and (end := jump(there)) is not None:
                    hops += 1
                    if chain_stop == "cap" and hops >= goal:
                        break
                    if chain_stop == "seen" and there in passed:
                        break
                    if hops > LOOP_LIMIT:
                        return None, []
                    passed.add(there)
                    there = end
            if (landed if seen_test == "landed" else there) in seen:
                continue
            seen.add(landed if seen_mark == "landed" else there)
            if there not in dist:
                dist[there] = moves + cost
                parent[there] = here
            if there == goal and not goal_before_jump:
                return (pops if count_pops else moves + cost), route(parent, goal)
            queue.append((there, moves + cost))
    return unreachable, []


def dfs_memo(board: Flat, *, high_first: bool = False) -> Answer:
    """A depth-first search that remembers each square's best and skips the squares on
    its current path: a square's best, found while others were on the path, is kept as if
    it were its true distance."""
    goal = len(board) - 1
    memo: dict[int, float] = {}
    on_path: set[int] = set()
    calls = 0
    inf = float("inf")

    def best(square: int) -> float:
        nonlocal calls
        calls += 1
        if calls > LOOP_LIMIT * 10:
            raise RecursionError
        if square == goal:
            return 0
        if square in memo:
            return memo[square]
        on_path.add(square)
        least = inf
        faces = (
            range(min(FACES, goal - square), 0, -1)
            if high_first
            else range(1, min(FACES, goal - square) + 1)
        )
        for die in faces:
            there = square + die
            if board[there] != -1:
                there = board[there]
            if there not in on_path:
                least = min(least, 1 + best(there))
        on_path.discard(square)
        memo[square] = least
        return least

    try:
        found = best(1)
    except RecursionError:
        return None, []
    return (-1 if found == inf else int(found)), []


def greedy(board: Flat) -> Answer:
    """Always the farthest square one move can reach (-1 when it comes back to a square:
    it would go round in circles)."""
    goal = len(board) - 1
    here, squares, seen = 1, [1], {1}
    while here != goal:
        best = here
        for landed in range(here + 1, min(here + FACES, goal) + 1):
            end = board[landed]
            best = max(best, landed if end == -1 else end)
        if best in seen:
            return -1, []
        here = best
        seen.add(here)
        squares.append(here)
    return len(squares) - 1, squares


Model = Callable[[Matrix, int], Answer]
"""A variant: (the matrix, the right answer) -> its answer and route."""


@dataclass(frozen=True)
class Mistake:
    """One typical mistake: its name, what it does wrong, and its variants' models."""

    key: str
    title: str
    """What the solution does: 'rolls 1 to 5'."""
    why: str
    """What is right instead."""
    variants: tuple[tuple[str, Model], ...]
    """(a label, its model)."""


def _on(cell: str, **options: object) -> Model:
    def model(matrix: Matrix, expected: int) -> Answer:
        answer, squares = bfs(flat(matrix, cell), **options)  # type: ignore[arg-type]
        n = len(matrix)
        return answer, [_true_square(n, cell, s) for s in squares]

    return model


def _cap(depth: int) -> Model:
    def model(matrix: Matrix, expected: int) -> Answer:
        return (expected if 0 <= expected <= depth else -1), []

    return model


def _plain(function: Callable[[Flat], Answer]) -> Model:
    return lambda matrix, expected: function(flat(matrix))


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "chain",
        "follows a jump that ends on another jump",
        "a move takes at most one snake or ladder, even when it ends on another's start",
        (
            ("", _on("right", chain=True)),
            ("a cycle cut after n * n jumps", _on("right", chain=True, chain_stop="cap")),
            ("a cycle cut at a square seen", _on("right", chain=True, chain_stop="seen")),
        ),
    ),
    Mistake(
        "no-zigzag",
        "reads every row left to right",
        "the rows zigzag: counted from the bottom, row 0 runs left to right, row 1 right "
        "to left, and so on (col = n - 1 - col on odd rows)",
        (("", _on("no-zigzag")),),
    ),
    Mistake(
        "wrong-rows",
        "reverses the wrong rows",
        "the bottom row runs left to right: it is the rows at odd distances from the bottom "
        "that run right to left",
        (("", _on("wrong-rows")),),
    ),
    Mistake(
        "from-top",
        "numbers the rows from the top",
        "square 1 is in the bottom row (board[n - 1]), not the top one",
        (("", _on("from-top")),),
    ),
    Mistake(
        "cell-off-by-one",
        "finds a square's cell from s, not s - 1",
        "square s is in row (s - 1) // n from the bottom, at (s - 1) % n: with divmod(s, n) "
        "the last square of each row lands on the next row",
        (
            ("board[-1] for the goal", _on("off-by-one")),
            ("no jump off the board", _on("off-by-one-guarded")),
        ),
    ),
    Mistake(
        "row-parity",
        "decides a row's direction by its index from the top",
        "a row's direction depends on its distance from the bottom, (n - 1 - r) % 2: on an "
        "even-sized board r % 2 reverses the wrong rows",
        (("", _on("row-parity")),),
    ),
    Mistake(
        "stack",
        "takes squares off the wrong end of the queue",
        "list.pop() takes the newest square: a depth-first order, whose first distance to a "
        "square is not always the least; use deque.popleft()",
        (("", _on("right", stack=True)),),
    ),
    Mistake(
        "goal-before-jump",
        "checks for the goal before the jump",
        "a ladder onto the goal reaches it too: check the square the move ends on, after the jump",
        (("", _on("right", goal_before_jump=True)),),
    ),
    Mistake(
        "climb-costs",
        "counts a climb as a move",
        "taking a snake or ladder is part of the move that landed on it",
        (("", _on("right", climb_costs=True)),),
    ),
    Mistake(
        "five-faces",
        "rolls 1 to 5",
        "the die has six faces: range(1, 7), or range(s + 1, min(s + 6, goal) + 1)",
        (("", _on("right", faces=5)),),
    ),
    Mistake(
        "seven-faces",
        "rolls 1 to 7",
        "the die has six faces: range(1, 7) stops before 7",
        (("", _on("right", faces=7)),),
    ),
    Mistake(
        "no-snakes",
        "never takes a snake",
        "a snake must be taken too: a move that lands on a snake's head ends at its tail",
        (("", _on("right", snakes=False)),),
    ),
    Mistake(
        "seen-wrong-square",
        "marks one square as visited and tests another (the square landed on, the square "
        "the jump leads to)",
        "mark and test the same square, where the move ends after the jump: standing on a "
        "jump's start (a jump ended there) is not the same as landing on it",
        (
            ("marks the square landed on", _on("right", seen_mark="landed")),
            ("tests the square landed on", _on("right", seen_test="landed")),
        ),
    ),
    Mistake(
        "count-pops",
        "counts the squares taken off the queue, not the rolls",
        "a square's distance is its parent's plus one (dist[s2] = dist[s] + 1), or count "
        "levels: for _ in range(len(queue)) inside the loop, then moves += 1",
        (("", _on("right", count_pops=True)),),
    ),
    Mistake(
        "zero",
        "returns 0 when the goal cannot be reached",
        "LeetCode asks for -1 when no sequence of rolls reaches the goal",
        (("", _on("right", unreachable=0)),),
    ),
    Mistake(
        "depth-cap",
        "gives up after a fixed number of rolls",
        "a breadth-first search needs no cap: it ends when its queue is empty, and a "
        "board of n x n squares may need more than any small number of rolls",
        tuple((f"{depth}", _cap(depth)) for depth in range(MAX_CAP + 1)),
    ),
    Mistake(
        "dfs-memo",
        "remembers the best from a depth-first search that skips the squares on its path",
        "a square's best found while other squares were on the path is not its distance, "
        "and the memo keeps it: search breadth-first, level by level",
        (
            ("1 to 6", _plain(dfs_memo)),
            ("6 to 1", _plain(lambda board: dfs_memo(board, high_first=True))),
        ),
    ),
    Mistake(
        "greedy",
        "always moves as far as it can",
        "the farthest square is not always on a shortest route: search them all",
        (("", _plain(greedy)),),
    ),
)
BY_KEY = {mistake.key: mistake for mistake in MISTAKES}


@dataclass(frozen=True)
class Seen:
    """A board the solution was run on, the right answer and the solution's answer
    (None: not a whole number)."""

    matrix: Matrix
    expected: int
    got: int | None


def consistent(
    evidence: Iterable[Seen], candidates: Sequence[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """The (mistake, variant) pairs whose model gives the solution's answer on every
    board of ``evidence`` (its first board first: most pairs fail there)."""
    alive = (
        list(candidates)
        if candidates is not None
        else [(mistake.key, label) for mistake in MISTAKES for label, _ in mistake.variants]
    )
    models = {
        (mistake.key, label): model for mistake in MISTAKES for label, model in mistake.variants
    }
    for seen in evidence:
        if not alive:
            break
        if seen.got is None:
            return []
        alive = [pair for pair in alive if models[pair](seen.matrix, seen.expected)[0] == seen.got]
    return alive


def answer_of(pair: tuple[str, str], matrix: Matrix, expected: int) -> Answer:
    """The model of ``pair`` on ``matrix``."""
    mistake = BY_KEY[pair[0]]
    for label, model in mistake.variants:
        if label == pair[1]:
            return model(matrix, expected)
    raise KeyError(pair)


def telling_boards(
    pairs: Sequence[tuple[str, str]],
    pool: Iterable[tuple[Matrix, int]],
    count: int,
) -> Iterator[tuple[Matrix, int]]:
    """Up to ``count`` boards of ``pool`` that tell ``pairs`` apart: first those where two
    different mistakes answer differently, then those where a pair's answer is wrong
    (a solution that makes that mistake must repeat it there)."""
    keys = {key for key, _ in pairs}
    splitting: list[tuple[Matrix, int]] = []
    wrong: dict[str, list[tuple[Matrix, int]]] = {key: [] for key in keys}
    for matrix, expected in pool:
        answers = {pair: answer_of(pair, matrix, expected)[0] for pair in pairs}
        by_key: dict[str, set[int | None]] = {}
        for (key, _), answer in answers.items():
            by_key.setdefault(key, set()).add(answer)
        if len(keys) > 1 and len({frozenset(v) for v in by_key.values()}) > 1:
            splitting.append((matrix, expected))
        for (key, _), answer in answers.items():
            if answer is not None and answer != expected and len(wrong[key]) < count:
                wrong[key].append((matrix, expected))
                break
        if len(splitting) >= count and all(len(v) >= 2 for v in wrong.values()):
            break
    chosen = splitting[: max(1, count // 2)] if len(keys) > 1 else []
    for boards in wrong.values():
        chosen.extend(boards[:2])
    yield from chosen[:count]


def pool(
    seed: int, sides: Sequence[int] = (2, 3, 4, 5, 6), per_side: int = 60
) -> Iterator[tuple[Matrix, int]]:
    """Small random boards with their right answers, smallest first (``boards`` makes
    them; imported here lazily to keep the models free of the solver)."""
    from .boards import random_case

    rng = random.Random(seed)
    for side in sides:
        for index in range(per_side):
            case = random_case(rng, side, index + 1)
            yield case.rows(), case.expected
