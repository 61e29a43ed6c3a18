"""One turn, derived once: the engine's moves, the game's turns, the solver's neighbours
and every odds path agree with the turn model (``engine.TurnShape`` read into
``odds.model.TurnTable``) on random boards under random rule sets, roll again and three
tops in a row included."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.core import engine
from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.odds.exact import exact_expected_turns
from snl_tui.core.odds.markov import AnalysisError, chain_of, expected_turns, turn_table_of
from snl_tui.core.odds.model import TurnModel
from snl_tui.core.odds.system import System
from snl_tui.core.solver import distances_to_goal, solve

from .strategies import boards


@st.composite
def ruled_boards(draw: st.DrawFn, max_side: int = 5, max_faces: int = 6) -> Board:
    """A random board whose rules include roll again and three tops in a row."""
    board = draw(boards(max_side=max_side, max_faces=max_faces))
    again = draw(st.booleans())
    rules = board.rules.replace(six_again=again, three_sixes=again and draw(st.booleans()))
    return board.with_rules(rules)


@pytest.fixture(autouse=True)
def fresh_chains() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


def game_turn_ends(board: Board, start: int) -> Counter[int]:
    """Every way one turn from ``start`` can go, played through ``Game.take_roll`` (the
    rolls a room's host draws), weighted by its probability in units of faces**-depth:
    where each ends, as a multiset over ``width`` equally likely outcomes."""
    faces = board.rules.faces
    width = engine.turn_shape(board.rules).width
    ends: Counter[int] = Counter()

    def play(rolls: list[int], weight: int) -> None:
        game = Game(board, (Player("A"), Player("B")))
        game.positions[0] = start
        turn = None
        for die in rolls:
            turn = game.take_roll(die)
        assert turn is not None
        if turn.again and not game.over:
            for die in range(1, faces + 1):
                play([*rolls, die], weight // faces)
        else:
            ends[game.positions[0]] += weight

    for die in range(1, faces + 1):
        play([die], width // faces)
    return ends


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruled_boards(max_faces=4))
def test_the_game_the_engine_and_the_turn_table_agree(board: Board) -> None:
    table = turn_table_of(board)
    model = TurnModel.of(board)
    rolls = model.rolls(model.landing_of(board))
    goal, faces = board.goal, board.rules.faces
    for position in range(goal):
        for die in range(1, faces + 1):
            moved = engine.move(board, position, die)
            assert moved.end == engine.next_position(board, position, die)
            assert moved.end == rolls[position, die - 1]
            # The move's jumps end where the landing table says; its steps count to it.
            assert (moved.jumps[-1].end if moved.jumps else moved.landed) == moved.end
            assert moved.forfeited or moved.steps[-1] == moved.landed
        if table.whole_turns:
            assert Counter(table.dest[position].tolist()) == game_turn_ends(board, position)
        elif table.rolls_again:
            # A face that rolls again continues the turn unless it wins, as in the game.
            for die in range(1, faces + 1):
                game = Game(board, (Player("A"), Player("B")))
                game.positions[0] = position
                turn = game.take_roll(die)
                assert turn.again == bool(table.continues_turn(position)[die - 1])
                assert roll_ends_turn(board, position, die) == table.ends_turn(position)[die - 1]
        else:
            assert not table.continues_turn(position).any()


def roll_ends_turn(board: Board, position: int, die: int) -> bool:
    """Does rolling ``die`` from ``position`` end the turn without winning, in a game?"""
    game = Game(board, (Player("A"), Player("B")))
    game.positions[0] = position
    turn = game.take_roll(die)
    return not turn.again and not game.over


def reference_expected(board: Board) -> float | None:
    """Expected turns from the start by a dense solve over what the game plays: whole
    turns (``game_turn_ends``) where a turn's end depends on its start, else single
    rolls, each costing a turn when the game says it ends one. None when some game may
    never end."""
    goal, faces = board.goal, board.rules.faces
    shape = engine.turn_shape(board.rules)
    matrix = np.eye(goal)
    cost = np.ones(goal)
    for position in range(goal):
        if shape.whole_turns:
            for there, count in game_turn_ends(board, position).items():
                if there != goal:
                    matrix[position, there] -= count / shape.width
            continue
        ending = 0
        for die in range(1, faces + 1):
            there = engine.next_position(board, position, die)
            if there != goal:
                matrix[position, there] -= 1 / faces
            ending += roll_ends_turn(board, position, die)
        cost[position] = ending / faces
    start = board.rules.start_position
    if start == goal:
        return 0.0
    with np.errstate(all="ignore"):
        try:
            solution = np.linalg.solve(matrix, cost)
        except np.linalg.LinAlgError:
            return None
    if not (np.isfinite(solution).all() and np.linalg.cond(matrix) < 1e8):
        return None
    return float(solution[start]) + (0.0 if shape.whole_turns else 1.0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruled_boards(max_side=4, max_faces=4))
def test_every_odds_path_agrees_with_the_turns_the_game_plays(board: Board) -> None:
    chain = chain_of(board)
    start = board.rules.start_position
    if not chain.safe[start]:
        assert math.isinf(analyze(board).expected_turns)
        assert math.isinf(expected_turns(board))
        return
    want = reference_expected(board)
    assume(want is not None and want < 1e6)
    assert analyze(board).expected_turns == pytest.approx(want, rel=1e-9)
    assert expected_turns(board) == pytest.approx(want, rel=1e-9)
    # Both float algorithms for a figure: the plain walk with corrections and SuperLU.
    table = chain.turns
    states = np.flatnonzero(chain.safe[:-1])
    cost = table.turn_cost(states)
    for plain in (True, False):
        system = System(table.dest, states, table.width, table.die, plain=plain)
        got = 1.0 + float(system.solve(cost)[system.index[start]])
        assert got == pytest.approx(want, rel=1e-9), plain
    try:
        exact = exact_expected_turns(board)
    except AnalysisError:  # pragma: no cover - a 4 x 4 board is always exact
        return
    assert isinstance(exact, Fraction) and float(exact) == pytest.approx(want, rel=1e-9)


def least_rolls_by_next_position(board: Board, start: int) -> int:
    """Least rolls from ``start`` by a breadth-first search over the engine's moves."""
    goal = board.goal
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        if goal in frontier:
            return depth
        depth += 1
        following = []
        for here in frontier:
            for die in engine.legal_dice(board, here):
                there = engine.next_position(board, here, die)
                if there not in seen:
                    seen.add(there)
                    following.append(there)
        frontier = following
    return -1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruled_boards(max_side=6, max_faces=12))
def test_the_solver_s_neighbours_are_the_engine_s_moves(board: Board) -> None:
    distances = distances_to_goal(board)
    for start in range(board.goal + 1):
        want = least_rolls_by_next_position(board, start)
        assert distances[start] == want
        assert solve(board, start).moves == want


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_side=9, max_faces=20))
def test_the_landing_array_is_the_landing_table(board: Board) -> None:
    """The numpy landing table (pointer doubling along chains) the solver's array search
    and the odds read is the engine's own, square by square, chains and all."""
    assert engine.landing_array(board).tolist() == list(engine.landing_table(board))
    assert board.cell_array().tolist() == list(board.cells)
