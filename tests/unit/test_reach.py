"""The one graph search on the engine's tables (``odds.model``): where a game can rest and
which jumps never fire, against a walk of the engine's own ``move`` one roll at a time."""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board, Jump
from snl_tui.core.engine import move
from snl_tui.core.odds.model import idle_jumps, resting_positions
from snl_tui.core.rules import Rules

from .strategies import boards


def walked(board: Board) -> tuple[set[int], list[Jump]]:
    """Every position a game from the start rests on, and the jumps no move fires: a
    breadth-first walk of ``engine.move`` over every die from every position met."""
    start = board.rules.start_position
    seen = {start}
    queue = deque([start])
    fired: set[int] = set()
    while queue:
        here = queue.popleft()
        if here == board.goal:
            continue
        for die in range(1, board.rules.faces + 1):
            step = move(board, here, die)
            fired.update(jump.start for jump in step.jumps)
            if step.end not in seen:
                seen.add(step.end)
                queue.append(step.end)
    return seen, [Jump(a, b) for a, b in board.jumps.items() if a not in fired]


@settings(max_examples=200, deadline=None)
@given(board=boards(max_side=9), six_again=st.booleans())
def test_resting_positions_and_idle_jumps_follow_the_engine(board: Board, six_again: bool) -> None:
    if six_again:
        rules = board.rules.replace(six_again=True, three_sixes=board.goal % 2 == 0)
        board = Board(board.rows, board.cols, board.jumps.items(), rules=rules)
    seen, idle = walked(board)
    assert resting_positions(board) == seen
    assert idle_jumps(board) == idle


def test_a_chain_fires_every_jump_along_it() -> None:
    """Under chain a roll onto 3 fires 3 -> 10, then 10 -> 20 and 20 -> 2: none is idle
    (and without chain, the same jumps as the engine's walk)."""
    jumps = [(3, 10), (10, 20), (20, 2)]
    chained = Board(5, 5, jumps, rules=Rules(chain=True, faces=2, start=1))
    assert idle_jumps(chained) == walked(chained)[1] == []
    plain = Board(5, 5, jumps, rules=Rules(faces=2, start=1))
    assert idle_jumps(plain) == walked(plain)[1]
