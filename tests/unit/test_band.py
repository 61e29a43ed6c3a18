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

from snl_tui import load_board
from snl_tui.core.board import Board
from snl_tui.core.files.formats import dump_board
from snl_tui.core.odds.analysis import analyze, clear_cache
from snl_tui.core.odds.band import PlainSolver, Renewal
from snl_tui.core.odds.markov import turn_table_of
from snl_tui.core.odds.model import TurnModel, reaching
from snl_tui.core.odds.tuning import SEARCH_IN_NUMPY
from snl_tui.core.odds.walk import plain_structure
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
    dest, faces = turn_table_of(board).dest, turn_table_of(board).width
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
    dest, faces = turn_table_of(board).dest, turn_table_of(board).width
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
    dest, faces = turn_table_of(board).dest, turn_table_of(board).width
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


def dense_over(dest: np.ndarray, width: int, kept: np.ndarray) -> np.ndarray:
    """I - R over the positions ``kept`` alone (one outcome 1 / width each)."""
    return dense_system(dest, width)[np.ix_(kept, kept)]


def assert_solves_match(
    dest: np.ndarray, width: int, die: int, kept: np.ndarray | None, seed: int
) -> None:
    """The band's solves (and transposed ones) over ``kept`` equal dense numpy's, to the
    system's conditioning (a system too ill-conditioned to compare is skipped)."""
    n = dest.shape[0] - 1
    positions = np.arange(n) if kept is None else kept
    matrix = dense_over(dest, width, positions)
    condition = np.linalg.cond(matrix, p=np.inf)
    assume(math.isfinite(condition) and condition < 1e7)
    assert_well_conditioned_solves_match(dest, width, die, kept, seed)


def assert_well_conditioned_solves_match(
    dest: np.ndarray, width: int, die: int, kept: np.ndarray | None, seed: int
) -> None:
    n = dest.shape[0] - 1
    positions = np.arange(n) if kept is None else kept
    matrix = dense_over(dest, width, positions)
    condition = np.linalg.cond(matrix, p=np.inf)
    assert condition < 1e7
    structure = plain_structure(dest, width, die, kept)
    assert structure is not None
    solver = PlainSolver(dest, structure)
    rhs = np.random.default_rng(seed).random((len(positions), 2))
    for transposed in (False, True):
        want = np.linalg.solve(matrix.T if transposed else matrix, rhs)
        scale = float(np.max(np.abs(want)))
        one = solver.solve(rhs[:, 0], transposed)
        assert np.max(np.abs(one - want[:, 0])) <= 1e-13 * condition * scale
        both = solver.solve(rhs, transposed)
        assert np.max(np.abs(both - want)) <= 1e-13 * condition * scale


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_side=6, max_faces=6), seed=st.integers(0, 2**32 - 1))
def test_three_sixes_turn_tables_are_solved_by_the_band(board: Board, seed: int) -> None:
    """A whole turn under three_sixes is no row of the plain walk: every row becomes a
    correction of the walk of the die itself, and the solves are dense numpy's."""
    rules = board.rules.replace(six_again=True, three_sixes=True)
    board = Board(board.rows, board.cols, board.jumps.items(), rules=rules)
    table = TurnModel.of(board).table(TurnModel.of(board).landing_of(board))
    structure = plain_structure(table.dest, table.width, table.die)
    assert structure is not None and structure.faces == rules.faces
    assert len(structure.starts) == 0 and len(structure.rows) >= board.goal - rules.faces
    assert_solves_match(table.dest, table.width, table.die, None, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(max_side=7),
    three=st.booleans(),
    left_out=st.sets(st.integers(0, 48), max_size=20),
    seed=st.integers(0, 2**32 - 1),
)
def test_positions_left_out_are_row_corrections(
    board: Board, three: bool, left_out: set[int], seed: int
) -> None:
    """A system over some of the positions (a board with traps: the ones that finish
    surely) is the whole walk with the rows left out corrected to 0: its solves over
    the positions kept are dense numpy's over those alone."""
    if three and board.rules.faces <= 4:
        rules = board.rules.replace(six_again=True, three_sixes=True)
        board = Board(board.rows, board.cols, board.jumps.items(), rules=rules)
    model = TurnModel.of(board)
    table = model.table(model.landing_of(board))
    kept = np.array([p for p in range(board.goal) if p not in left_out], dtype=np.intp)
    assume(len(kept))
    assert_solves_match(table.dest, table.width, table.die, kept, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(2, 40),
    faces=st.integers(2, 8),
    jumps=st.dictionaries(st.integers(1, 39), st.integers(0, 40), max_size=12),
    odd=st.dictionaries(st.integers(0, 39), st.integers(0, 40), max_size=8),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_turn_table_is_the_walk_plus_corrections(
    size: int, faces: int, jumps: dict[int, int], odd: dict[int, int], seed: int
) -> None:
    """A table no rule makes (a toy rule's): jumps, and some rolls that end anywhere.
    Whatever the rolls disagree on becomes a row correction, and the solves are dense
    numpy's."""
    landing = np.arange(size + 1)
    for start, end in jumps.items():
        if start < size:
            landing[start] = min(end, size)
    counted = np.minimum(np.arange(size + 1)[:, None] + np.arange(1, faces + 1), size)
    dest = landing[counted]
    rng = np.random.default_rng(seed)
    for row, end in odd.items():
        if row < size:
            dest[row, rng.integers(faces)] = min(end, size)
    dest[size] = size
    assert_solves_match(dest, faces, faces, None, seed)


@pytest.mark.parametrize("three", [False, True])
def test_corrections_past_one_block(three: bool) -> None:
    """Past one block of the back-substitution (K read off the renewal sequence, solves
    a block at a time): a three_sixes table on 17 x 17 squares with a four-sided die,
    and a 24 x 24 board solved over a third of its positions left out."""
    if three:
        rules = Rules(faces=4, six_again=True, three_sixes=True)
        board = random_board(17, 30, seed=5, rules=rules)
        kept = None
    else:
        board = random_board(24, 60, seed=6, rules=Rules(overshoot="bounce"))
        kept = np.flatnonzero(np.random.default_rng(2).random(board.goal) > 0.3)
    model = TurnModel.of(board)
    table = model.table(model.landing_of(board))
    assert board.goal > 256
    structure = plain_structure(table.dest, table.width, table.die, kept)
    assert structure is not None and len(structure.rows) > 100
    assert_well_conditioned_solves_match(table.dest, table.width, table.die, kept, 4)


def test_rolls_that_disagree_leave_the_jump_to_the_most() -> None:
    """A square most rolls reach plainly keeps no jump when one row's roll onto it goes
    elsewhere: that row alone is corrected."""
    dest = np.minimum(np.arange(31)[:, None] + np.arange(1, 7), 30)
    dest[10, 2] = 4  # 10 + 3 = 13 goes to 4 from square 10 only
    structure = plain_structure(dest, 6)
    assert structure is not None
    assert structure.starts.tolist() == []
    assert structure.rows.tolist() == [10]
    assert_well_conditioned_solves_match(dest, 6, 6, None, 1)


def trap_board() -> Board:
    """Squares 21..26 all snakes back to 20: from 20 every roll comes back, so 20 is
    doomed and every square that can roll into the snakes finishes only perhaps."""
    return Board(10, 10, [(square, 20) for square in range(21, 27)] + [(40, 90)], rules=Rules())


def test_a_board_with_a_trap_is_solved_by_the_band() -> None:
    """On a board with a doomed square the expected turns (over the squares that finish
    surely) and the chance of ever finishing (over those that only may) solve systems
    over some of the positions: both are dense numpy's."""
    from snl_tui.core.odds.markov import chain_of

    board = trap_board()
    clear_cache()
    chain = chain_of(board)
    dest, width = turn_table_of(board).dest, turn_table_of(board).width
    matrix = dense_system(dest, width)
    safe = np.flatnonzero(chain.safe[:-1])
    risky = np.flatnonzero(chain.risky)
    assert 0 < len(safe) < board.goal and len(risky)
    cost = chain.turns.turn_cost(safe)
    want = 1.0 + np.linalg.solve(matrix[np.ix_(safe, safe)], cost)
    assert chain.expected[safe] == pytest.approx(want, rel=1e-12)
    to_safe = chain.safe[dest[risky]].sum(axis=1) / width
    ever = np.linalg.solve(matrix[np.ix_(risky, risky)], to_safe)
    assert chain.finish_probability[risky] == pytest.approx(ever, rel=1e-12)
    assert math.isinf(analyze(board).expected_turns)
    clear_cache()


def test_three_sixes_and_traps_solved_without_scipy(tmp_path: Path) -> None:
    """``snl analyze`` on classic with six-again and three sixes (every row of its turn
    table a correction) imports no scipy, and its expected turns are a dense solve's;
    a board with a trap (systems over some of the positions) solves its expectations,
    spreads, visits and chances of finishing without scipy too. (Its analysis imports
    scipy for ``Chain.endless``'s strongly connected components, as before.)"""
    code = (
        "import json, sys\n"
        "from snl_tui.cli.main import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps('scipy' in sys.modules))\n"
    )
    args = ["analyze", "classic", "--six-again", "--three-sixes", "--json"]
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    report, loaded = out.stdout.strip().splitlines()
    assert json.loads(loaded) is False
    trap = tmp_path / "trap.toml"
    trap.write_text(dump_board(trap_board(), "toml"))
    solves = (
        "import sys\n"
        "from snl_tui import load_board\n"
        "from snl_tui.core.odds.markov import chain_of\n"
        "chain = chain_of(load_board(sys.argv[1]))\n"
        "assert chain.risky.any() and chain.safe.any()\n"
        "chain.expected, chain.variance, chain.finish_probability, chain.visits_from(99)\n"
        "print('scipy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", solves, str(trap)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
    classic = load_board("classic")
    rules = classic.rules.replace(six_again=True, three_sixes=True)
    board = Board(classic.rows, classic.cols, classic.jumps.items(), rules=rules)
    model = TurnModel.of(board)
    table = model.table(model.landing_of(board))
    assert table.width == 216
    matrix = dense_system(table.dest, table.width)
    extra = np.linalg.solve(matrix, table.turn_cost(np.arange(board.goal)))
    want = 1.0 + extra[rules.start_position]
    assert json.loads(report)["expected_turns"] == pytest.approx(want, rel=1e-12)


def test_structure_reads_the_jumps() -> None:
    """The corrections are exactly the board's jump starts (reached by a roll) and,
    near the goal, the rows whose overshooting rolls stay on the board."""
    board = Board(10, 10, [(4, 14), (17, 7), (62, 19), (99, 80)], rules=Rules(overshoot="stay"))
    dest, faces = turn_table_of(board).dest, turn_table_of(board).width
    structure = plain_structure(dest, faces)
    assert structure is not None
    assert structure.starts.tolist() == [4, 17, 62, 99]
    assert structure.ends.tolist() == [14, 7, 19, 80]
    assert structure.rows.tolist() == [95, 96, 97, 98, 99]  # 99 stays on a roll of 2 and up
    finish = Board(10, 10, [(4, 14)], rules=Rules(overshoot="finish"))
    dest, faces = turn_table_of(finish).dest, turn_table_of(finish).width
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
    dest, faces = turn_table_of(board).dest, turn_table_of(board).width
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
    dest = turn_table_of(wall).dest
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
