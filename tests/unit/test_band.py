"""The plain walk plus corrections (``core.odds.band``) against dense numpy and scipy
solves of I - R built from the same roll array; the one graph search (``model.reaching``)
against a plain breadth-first search; the turn step, whichever way the chain takes it,
against the distribution pushed forward square by square."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snl_tui.core.board import Board
from snl_tui.core.files.formats import dump_board
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.odds.band import PlainSolver, Renewal, plain_structure
from snl_tui.core.odds.markov import roll_array
from snl_tui.core.odds.model import TurnModel, reaching
from snl_tui.core.odds.tuning import SEARCH_IN_NUMPY
from snl_tui.core.rules import Rules

from .strategies import boards


def dense_system(dest: np.ndarray, faces: int) -> np.ndarray:
    """I - R over every position but the goal, built entry by entry from the roll array."""
    n = dest.shape[0] - 1
    matrix = np.eye(n)
    for here in range(n):
        for there in dest[here].tolist():
            if there < n:
                matrix[here, there] -= 1.0 / faces
    return matrix


def random_board(side: int, jumps: int, seed: int, rules: Rules) -> Board:
    generator = random.Random(seed)
    goal = side * side
    table: dict[int, int] = {}
    while len(table) < jumps:
        start = generator.randint(2, goal - 1)
        end = generator.randint(1, goal)
        fresh = start not in table and start not in table.values() and end not in table
        if start != end and fresh:
            table[start] = end
    return Board(side, side, table.items(), rules=rules)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_side=9), six_again=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_solves_match_dense_numpy(board: Board, six_again: bool, seed: int) -> None:
    """Every rule but three_sixes: the roll array has the plain shape, and a solve (and
    its transpose) is the dense solve's, to the system's conditioning."""
    if six_again:
        board = Board(
            board.rows, board.cols, board.jumps.items(), rules=board.rules.replace(six_again=True)
        )
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None
    matrix = dense_system(dest, faces)
    condition = np.linalg.cond(matrix, p=np.inf)
    assume(math.isfinite(condition) and condition < 1e7)
    solver = PlainSolver(dest, structure)
    rhs = np.random.default_rng(seed).random(board.goal)
    for transposed in (False, True):
        want = np.linalg.solve(matrix.T if transposed else matrix, rhs)
        got = solver.solve(rhs, transposed)
        scale = float(np.max(np.abs(want)))
        assert np.max(np.abs(got - want)) <= 1e-13 * condition * scale + 1e-300


@pytest.mark.parametrize("overshoot", ["stay", "bounce", "finish"])
@pytest.mark.parametrize("start", [0, 1])
def test_many_blocks(overshoot: str, start: int) -> None:
    """A 24 x 24 board with 60 jumps: three blocks of the back-substitution, coupled
    where a roll crosses from one to the next, against dense numpy."""
    board = random_board(24, 60, seed=start + 7, rules=Rules(start=start, overshoot=overshoot))
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None and len(structure.starts) == 60
    matrix = dense_system(dest, faces)
    rhs = np.random.default_rng(3).random((board.goal, 2))
    solver = PlainSolver(dest, structure)
    for transposed in (False, True):
        want = np.linalg.solve(matrix.T if transposed else matrix, rhs)
        got = solver.solve(rhs, transposed)
        # normwise, as the error bound is: small entries carry the large ones' rounding
        error = float(np.max(np.abs(got - want))) / float(np.max(np.abs(want)))
        assert error <= 1e-11, transposed


@pytest.mark.parametrize("overshoot", ["stay", "bounce"])
def test_a_board_solved_by_lapack(overshoot: str) -> None:
    """A board of 50,000 squares (LAPACK's banded back-substitution) against scipy's
    sparse solve of the same I - R, both ways."""
    from scipy.sparse import csr_matrix, identity
    from scipy.sparse.linalg import spsolve

    board = random_board(250, 200, seed=11, rules=Rules(overshoot=overshoot))
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None and structure.squares >= 50_000
    n = structure.squares
    rows = np.repeat(np.arange(n), faces)
    cols = dest[:n].ravel()
    keep = cols < n
    r = csr_matrix((np.full(int(keep.sum()), 1.0 / faces), (rows[keep], cols[keep])), (n, n))
    system = (identity(n, format="csr") - r).tocsc()
    rhs = np.random.default_rng(5).random(n)
    solver = PlainSolver(dest, structure)
    for transposed in (False, True):
        want = spsolve(system.T.tocsc() if transposed else system, rhs)
        got = solver.solve(rhs, transposed)
        error = float(np.max(np.abs(got - want))) / float(np.max(np.abs(want)))
        assert error <= 1e-9, transposed


def test_three_sixes_turn_table_is_not_plain() -> None:
    board = Board(5, 5, [(3, 20), (18, 4)], rules=Rules(six_again=True, three_sixes=True))
    dest, faces, _ = roll_array(board)
    assert plain_structure(dest, faces) is None


def test_structure_reads_the_jumps() -> None:
    """The corrections are exactly the board's jump starts (reached by a roll) and,
    near the goal, the rows whose overshooting rolls stay on the board."""
    board = Board(10, 10, [(4, 14), (17, 7), (62, 19), (99, 80)], rules=Rules(overshoot="stay"))
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None
    assert structure.starts.tolist() == [4, 17, 62, 99]
    assert structure.ends.tolist() == [14, 7, 19, 80]
    assert structure.rows.tolist() == [95, 96, 97, 98, 99]  # 99 stays on a roll of 2 and up
    finish = Board(10, 10, [(4, 14)], rules=Rules(overshoot="finish"))
    dest, faces, _ = roll_array(finish)
    plain = plain_structure(dest, faces)
    assert plain is not None and plain.rows.tolist() == []


@pytest.mark.parametrize("faces", [2, 3, 6, 10, 20])
def test_renewal_sequence(faces: int) -> None:
    """u(m) against exact fractions, and its limit 2 / (f + 1)."""
    exact = [Fraction(1)]
    for m in range(1, 80):
        exact.append(sum(exact[max(0, m - faces) : m], Fraction(0)) / faces)
    values = Renewal.of(faces, 5000).values
    for m, value in enumerate(exact):
        assert values[m] == pytest.approx(float(value), rel=1e-14)
    assert values[-1] == pytest.approx(2 / (faces + 1), rel=1e-15)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(start=0, overshoot="bounce"), Rules(six_again=True)]
)
def test_plain_and_factorised_solves_give_the_same_expectations(rules: Rules) -> None:
    """On 20 x 20 boards with 150 jumps the analysis solves I - R as the plain walk plus
    corrections, and the jump effects (past ``REPEATED_SOLVES_RANK`` corrections) with a
    sparse factorisation of the same system: a board's expected turns, read from the one
    and from the other with no jump changed, agree."""
    from snl_tui.core.odds.markov import chain_of
    from snl_tui.core.odds.tuning import REPEATED_SOLVES_RANK

    board = random_board(20, 150, seed=3, rules=rules)
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None and structure.rank > REPEATED_SOLVES_RANK
    clear_cache()
    a = analyze(board)
    model = TurnModel.of(board)
    same = model.table(model.landing_of(board))
    factorised = chain_of(board).expectation_update().expected_turns(same, a.start)
    assert factorised is not None
    assert a.expected_turns == pytest.approx(factorised, rel=1e-11)
    clear_cache()


def plain_search(here: np.ndarray, there: np.ndarray, size: int, seeds: np.ndarray) -> list[bool]:
    """Which positions reach a seed along here -> there: a breadth-first search over the
    reversed edges with a list and a set."""
    into: dict[int, list[int]] = {}
    for a, b in zip(here.tolist(), there.tolist(), strict=True):
        into.setdefault(b, []).append(a)
    seen = {int(p) for p in np.flatnonzero(seeds)}
    queue = list(seen)
    for position in queue:
        for before in into.get(position, ()):
            if before not in seen:
                seen.add(before)
                queue.append(before)
    return [p in seen for p in range(size)]


@settings(max_examples=100, deadline=None)
@given(size=st.integers(1, 60), edges=st.integers(0, 240), seed=st.integers(0, 2**32 - 1))
def test_graph_search_matches_a_plain_one(size: int, edges: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    here = rng.integers(0, size, edges)
    there = rng.integers(0, size, edges)
    seeds = rng.random(size) < 0.1
    assert reaching(here, there, size, seeds).tolist() == plain_search(here, there, size, seeds)


def test_graph_search_on_a_large_graph() -> None:
    """Past ``SEARCH_IN_NUMPY`` positions (the search runs in scipy there): a walk of
    single steps with a few long edges back, against the plain search."""
    size = SEARCH_IN_NUMPY + 500
    rng = np.random.default_rng(1)
    here = np.concatenate((np.arange(size - 1), rng.integers(0, size, 50)))
    there = np.concatenate((np.arange(1, size), rng.integers(0, size, 50)))
    for seeds in (np.arange(size) == size - 1, np.arange(size) == size // 2):
        assert reaching(here, there, size, seeds).tolist() == plain_search(here, there, size, seeds)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(start=0, overshoot="bounce", faces=8),
        Rules(overshoot="finish", chain=True),
        Rules(six_again=True),
    ],
)
@pytest.mark.parametrize("jumps", [10, 150])
def test_turn_step_matches_the_distribution_pushed_forward(rules: Rules, jumps: int) -> None:
    """20 x 20 boards with few jumps (the turn as sliding sums over every square) and
    many (gathers over the landing squares), under six_again too (a top roll continues
    the turn): P(finished within t) against the mass pushed forward turn by turn."""
    from .test_analysis import plain_cdf

    board = random_board(20, jumps, seed=jumps, rules=rules)
    clear_cache()
    a = analyze(board)
    reference = plain_cdf(board, a.start, 300)
    got = [a.finish_within(t) for t in range(301)]
    assert got == pytest.approx(reference, abs=1e-12)
    clear_cache()


def test_snl_analyze_at_50x50_needs_no_scipy(tmp_path: Path) -> None:
    """``snl analyze --json`` on 50 x 50 boards (one with squares that cannot move
    forward, which needs a graph search) imports no scipy, and its figures are those of
    the same analysis with scipy loaded (SuperLU, scipy's graph search and product)."""
    code = (
        "import json, sys\n"
        "from snl_tui.cli.main import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps('scipy' in sys.modules))\n"
    )
    wall = random_board(50, 300, seed=2, rules=Rules())
    table = {
        a: b for a, b in wall.jumps.items() if not 1990 <= a <= 2010 and b not in range(1990, 2011)
    }
    table.update({square: 1900 for square in range(2001, 2007)})  # six snake heads in a row
    wall = Board(50, 50, table.items(), rules=Rules())
    dest, _, _ = roll_array(wall)
    assert not (dest[:2500] > np.arange(2500)[:, None]).any(axis=1).all()  # a search needed
    for seed, board in ((1, random_board(50, 100, seed=1, rules=Rules())), (2, wall)):
        path = tmp_path / f"b{seed}.toml"
        path.write_text(dump_board(board, "toml"))
        args = ["analyze", str(path), "--json", "--players", "2"]
        out = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
        )
        report, loaded = out.stdout.strip().splitlines()
        assert json.loads(loaded) is False
        figures = json.loads(report)
        with_scipy = subprocess.run(
            [sys.executable, "-c", "import scipy.sparse.linalg\n" + code, *args],
            capture_output=True,
            text=True,
            check=True,
        )
        reference = json.loads(with_scipy.stdout.strip().splitlines()[0])
        for key in ("expected_turns", "std_turns", "game_rounds"):
            assert figures[key] == pytest.approx(reference[key], rel=1e-10), key
        for key in ("median_turns", "mode_turns", "least_rolls", "percentiles"):
            assert figures[key] == reference[key], key
        assert figures["win_chances"] == pytest.approx(reference["win_chances"], abs=1e-10)


def test_an_astronomical_game_is_too_large() -> None:
    """A board whose game lasts ~2^667 turns (a coin, a 2 x 1000 board, a snake back to
    square 1 on every third square) makes K singular in floating point: the figures are
    "finite, but too large to compute"."""
    from .test_figures import astronomical_board

    clear_cache()
    analysis = analyze(astronomical_board())
    assert analysis.finite and analysis.too_large
    clear_cache()
