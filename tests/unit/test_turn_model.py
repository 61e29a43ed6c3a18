"""The engine is the one place a rule lives: a toy rule added to the engine alone moves
every odds figure (the analysis, the fast expectation, the exact fractions, the jump
effects and the generator's), each checked against the engine's own ``next_position``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from snl_tui.core import engine
from snl_tui.core.board import Board
from snl_tui.core.files.formats import load_board
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.odds.exact import exact_expected_turns
from snl_tui.core.odds.markov import expected_turns
from snl_tui.core.odds.model import TurnModel
from snl_tui.core.odds.update import Candidates
from snl_tui.core.studio.impacts import jump_impacts

SLIDE = 10
"""The toy rule: a roll past the goal slides the token back to SLIDE squares before it
(no such overshoot option exists)."""


@pytest.fixture(autouse=True)
def fresh_chains() -> Iterator[None]:
    """No chain built under the toy rule outlives the test (nor one from before)."""
    clear_cache()
    yield
    clear_cache()


def add_toy_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = engine.count_to

    def count_to(board: Board, position: int, die: int) -> int | None:
        if position + die > board.goal:
            return board.goal - SLIDE
        return plain(board, position, die)

    clear_cache()
    monkeypatch.setattr(engine, "count_to", count_to)


def reference_expected_turns(board: Board) -> float:
    """E from the start by a dense solve over the engine's ``next_position`` (one roll is
    one turn: no six_again)."""
    goal, faces = board.goal, board.rules.faces
    matrix = np.eye(goal)
    for p in range(goal):
        for die in range(1, faces + 1):
            there = engine.next_position(board, p, die)
            if there != goal:
                matrix[p, there] -= 1 / faces
    solution = np.linalg.solve(matrix, np.ones(goal))
    return float(solution[board.rules.start_position])


def test_a_toy_rule_in_the_engine_moves_every_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    classic = load_board("classic")
    clear_cache()
    before = analyze(classic).expected_turns
    add_toy_rule(monkeypatch)
    want = reference_expected_turns(classic)
    assert abs(want - before) > 1  # the toy rule makes a difference
    assert analyze(classic).expected_turns == pytest.approx(want, rel=1e-12)
    assert expected_turns(classic) == pytest.approx(want, rel=1e-12)
    exact = exact_expected_turns(classic)
    assert exact is not None and float(exact) == pytest.approx(want, rel=1e-12)
    model = TurnModel.of(classic)
    search = Candidates(model, classic.rules.start_position)
    assert search.reset(dict(classic.jumps)) == pytest.approx(want, rel=1e-12)
    for impact in jump_impacts(classic)[:4]:
        others = [(a, b) for a, b in classic.jumps.items() if a != impact.start]
        without = reference_expected_turns(classic.with_jumps(others))
        assert impact.expected_turns_without == pytest.approx(without, rel=1e-10)


def test_a_toy_rule_in_the_engine_moves_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver asks the engine too: under the toy rule a roll past the goal moves the
    token (it never stays), so both searches take it, as the engine's moves do."""
    from snl_tui.core.solver import distances_to_goal, solve

    board = load_board("classic")
    add_toy_rule(monkeypatch)
    fresh = board.with_rules(board.rules)  # a new board: no distances kept from before
    goal = fresh.goal
    seen, frontier, depth, want = {goal - SLIDE + 1}, [goal - SLIDE + 1], 0, -1
    while frontier and want < 0:
        if goal in frontier:
            want = depth
            break
        depth += 1
        following = []
        for here in frontier:
            for die in range(1, fresh.rules.faces + 1):
                there = engine.next_position(fresh, here, die)
                if there not in seen:
                    seen.add(there)
                    following.append(there)
        frontier = following
    assert solve(fresh, goal - SLIDE + 1).moves == want
    assert distances_to_goal(fresh)[goal - SLIDE + 1] == want
