"""The plain walk plus corrections (``core.odds.band``) against dense numpy solves of I - R
built from the same roll array, and the numpy graph search and turn product against
scipy's."""

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
from snl_tui.core.odds import band
from snl_tui.core.odds import markov as chain_module
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.odds.band import PlainSolver, Renewal, plain_structure
from snl_tui.core.odds.markov import roll_array
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


@pytest.fixture(params=["inverse", "factorised"])
def k_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of solving the k x k correction system: numpy's solves and inverse (up
    to ``REUSE_FACTORISATION`` corrections) and scipy's LU factorisation."""
    if request.param == "inverse":
        monkeypatch.setattr(band, "REUSE_FACTORISATION", 10**9)
    else:
        monkeypatch.setattr(band, "REUSE_FACTORISATION", 0)
    return str(request.param)


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
def test_many_blocks_and_lapack(
    overshoot: str, start: int, k_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 24 x 24 board with 60 jumps solved in blocks of 7 squares (the coupling between
    blocks every few squares) and by LAPACK's banded solve, each against dense numpy."""
    board = random_board(24, 60, seed=start + 7, rules=Rules(start=start, overshoot=overshoot))
    dest, faces, _ = roll_array(board)
    structure = plain_structure(dest, faces)
    assert structure is not None and len(structure.starts) == 60
    matrix = dense_system(dest, faces)
    rhs = np.random.default_rng(3).random((board.goal, 2))
    for block, lapack in ((7, 10**9), (band.BLOCK, 0)):
        monkeypatch.setattr(band, "BLOCK", block)
        monkeypatch.setattr(band, "LAPACK_SQUARES", lapack)
        solver = PlainSolver(dest, structure)
        for transposed in (False, True):
            want = np.linalg.solve(matrix.T if transposed else matrix, rhs)
            got = solver.solve(rhs, transposed)
            # normwise, as the error bound is: small entries carry the large ones' rounding
            error = float(np.max(np.abs(got - want))) / float(np.max(np.abs(want)))
            assert error <= 1e-11, (block, transposed)


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


def test_figures_agree_with_the_sparse_factorisation(
    k_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Expected turns, spread and visits on 20 x 20 boards: the plain walk plus
    corrections and SuperLU agree to 1e-11 (relative)."""
    for seed, rules in enumerate(
        [Rules(), Rules(start=0, overshoot="bounce"), Rules(six_again=True)]
    ):
        board = random_board(20, 40, seed=seed, rules=rules)
        results = []
        for rank in (10**9, -1):  # plain walk always, never
            monkeypatch.setattr(chain_module, "PLAIN_RANK_WORK", rank)
            monkeypatch.setattr(chain_module, "PLAIN_RANK", rank)
            clear_cache()
            a = analyze(board)
            visits = a.visits()
            assert visits is not None
            results.append((a.expected_turns, a.std_turns, np.array(visits)))
        (e1, s1, v1), (e2, s2, v2) = results
        assert e1 == pytest.approx(e2, rel=1e-11)
        assert s1 == pytest.approx(s2, rel=1e-11)
        assert float(np.max(np.abs(v1 - v2))) <= 1e-11 * float(np.max(np.abs(v2)))
    clear_cache()


@settings(max_examples=100, deadline=None)
@given(size=st.integers(1, 60), edges=st.integers(0, 240), seed=st.integers(0, 2**32 - 1))
def test_numpy_search_matches_scipy(size: int, edges: int, seed: int) -> None:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    rng = np.random.default_rng(seed)
    here = rng.integers(0, size, edges)
    there = rng.integers(0, size, edges)
    seeds = rng.random(size) < 0.1
    got = chain_module._reaching_numpy(here, there, size, seeds)
    # Reference: a BFS from an extra node over the reversed edges (scipy).
    rows = np.concatenate((there, np.full(int(seeds.sum()), size)))
    cols = np.concatenate((here, np.flatnonzero(seeds)))
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(size + 1, size + 1))
    order = breadth_first_order(graph, size, directed=True, return_predecessors=False)
    want = np.zeros(size + 1, dtype=bool)
    want[order] = True
    assert (got == want[:size]).all()


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 80), faces=st.integers(2, 12), seed=st.integers(0, 2**32 - 1))
def test_gather_matches_sparse_product(size: int, faces: int, seed: int) -> None:
    """The turn product without scipy (numpy gathers) equals scipy's CSR product."""
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(seed)
    ending = rng.integers(0, size + 1, (size, faces))  # size: the sink (no entry)
    values = rng.random(size)
    values[0] = 0.0  # the position the sink reads: 0 in every vector the chain steps
    gather = chain_module._Gather(ending, 1.0 / faces, 0)
    got = np.empty(size)
    gather(values, got)
    rows = np.repeat(np.arange(size), faces)
    cols = ending.ravel()
    keep = cols < size
    matrix = csr_matrix(
        (np.full(int(keep.sum()), 1.0 / faces), (rows[keep], cols[keep])), shape=(size, size)
    )
    assert np.allclose(got, matrix @ values, rtol=1e-14, atol=1e-300)


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


def test_an_astronomical_game_is_too_large_on_either_path(k_path: str) -> None:
    """A board whose game lasts ~2^667 turns (a coin, a 2 x 1000 board, a snake back to
    square 1 on every third square) makes K singular in floating point: the figures are
    "finite, but too large to compute", whichever way K is solved (numpy's inverse
    raised LinAlgError)."""
    from .test_figures import astronomical_board

    clear_cache()
    analysis = analyze(astronomical_board())
    assert analysis.finite and analysis.too_large
    clear_cache()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_side=14, max_faces=20), seed=st.integers(0, 2**32 - 1))
def test_window_matches_the_roll_table(board: Board, seed: int) -> None:
    """The turn as sliding sums (``_Window``) is R @ v for R built entry by entry from
    the engine's roll array, under every rule set but six_again (every per-roll table
    has the window's shape: jumps belong to squares, overshoot stays, bounces or
    finishes)."""
    dest, faces, _ = roll_array(board)
    window = chain_module._Window.of(dest, faces)
    assert window is not None
    size = dest.shape[0]
    matrix = np.zeros((size, size))
    for here in range(size):
        for there in dest[here].tolist():
            matrix[here, there] += 1.0 / faces
    values = np.random.default_rng(seed).random(size)
    got = np.full(size, np.nan)
    window(values, got)
    assert np.allclose(got, matrix @ values, rtol=1e-14, atol=0)


def test_window_refuses_other_tables() -> None:
    """A table whose rolls onto one square end in different places, or a turn table
    (three_sixes), is not a window: the gathers serve it."""
    dest, faces, _ = roll_array(Board(10, 10, [(20, 5)]))
    odd = dest.copy()
    odd[13, 0] = 40  # one roll onto square 14 ends elsewhere than the others
    assert chain_module._Window.of(odd, faces) is None
    three = Board(10, 10, [(20, 5)], rules=Rules(six_again=True, three_sixes=True))
    chain = chain_module.chain_of(three)
    assert chain._window is None


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(start=0, overshoot="bounce", faces=8), Rules(overshoot="finish", chain=True)],
)
def test_window_and_gathers_give_the_same_figures(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every figure of a 20 x 20 board's analysis through the sliding sums (every
    position held) and through the gathers (the landing squares only)."""
    board = random_board(20, 40, seed=7, rules=rules)
    figures = []
    for use_window in (True, False):
        if not use_window:  # the path is chosen by the share of landing squares alone
            monkeypatch.setattr(chain_module, "WINDOW_SHARE", 2.0)
        clear_cache()
        a = analyze(board, players=3)
        figures.append(
            (
                a.expected_turns,
                a.median_turns,
                a.mode_turns,
                [a.percentile_turns(q) for q in (0.1, 0.9, 0.99)],
                [a.finish_within(k) for k in (10, 50, 200)],
                a.win_chances,
                a.game_rounds,
            )
        )
    clear_cache()
    (e1, m1, o1, p1, f1, w1, r1), (e2, m2, o2, p2, f2, w2, r2) = figures
    assert (m1, o1, p1) == (m2, o2, p2)
    assert e1 == pytest.approx(e2, rel=1e-12)
    assert f1 == pytest.approx(f2, abs=1e-12)
    assert w1 == pytest.approx(w2, abs=1e-10) and r1 == pytest.approx(r2, rel=1e-10)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 400),
    faces=st.integers(2, 20),
    above=st.lists(st.integers(0, 400), min_size=1, max_size=30),
    below=st.lists(st.integers(0, 400), min_size=1, max_size=30),
)
def test_outer_renewal_entries_are_the_gathered_ones(
    n: int, faces: int, above: list[int], below: list[int]
) -> None:
    """K's blocks built from the settled limit plus the few short gaps are exactly the
    entries gathered one by one (u(b - a) for b >= a, else 0)."""
    dest, _, _ = roll_array(Board(1, n + 1, rules=Rules(faces=faces)))
    structure = plain_structure(dest, faces)
    assert structure is not None
    solver = PlainSolver(dest, structure)
    a = np.array([min(x, n) for x in above], dtype=np.int64)
    b = np.array([min(x, n) for x in below], dtype=np.int64)
    outer = solver._g_outer(a, b)
    gathered = solver._g(a[:, None], b[None, :])
    assert np.array_equal(outer, gathered)
