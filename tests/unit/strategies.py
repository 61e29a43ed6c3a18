"""Hypothesis strategies shared by the core's property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.errors import BoardError
from snl_tui.core.rules import Rules

OVERSHOOTS = st.sampled_from(["stay", "bounce", "finish"])


@st.composite
def boards(draw, max_side: int = 7, max_faces: int = 12) -> Board:
    """A random board, square or rectangular, with random jumps and rules.

    A jump cycle drawn under ``chain = true`` is a board error; the board then keeps its
    rules and drops the jumps (cycles are tested on their own).
    """
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    if rows * cols < 2:
        cols = 2  # a board needs two squares; single columns stay possible
    goal = rows * cols
    pairs = draw(st.lists(st.tuples(st.integers(1, goal - 1), st.integers(1, goal)), max_size=goal))
    rules = Rules(
        start=draw(st.sampled_from([0, 1])),
        overshoot=draw(OVERSHOOTS),
        chain=draw(st.booleans()),
        faces=draw(st.integers(2, max_faces)),
    )
    try:
        return Board(rows, cols, {a: b for a, b in pairs if a != b}.items(), rules=rules)
    except BoardError:
        return Board(rows, cols, rules=rules)
