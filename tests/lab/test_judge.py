"""The judge on the solutions kept in ``solutions/``, written as learners write them:
every wrong one (one per typical mistake, a crashing one, a looping one, one with two
mistakes, one that keeps state between boards) is rejected on a small board, the same
failure again when that board is run again, and told the mistake it makes or none; every
correct one is accepted after a thousand boards. Each solution is judged once."""

from __future__ import annotations

import pytest

from snl_tui.core.board import Board
from snl_tui.core.solver import solve
from snl_tui.lab.boards import edge_cases, examples, judge_cases, leetcode_problem
from snl_tui.lab.judge import judge, verdict_of
from snl_tui.lab.mistakes import MISTAKES
from snl_tui.lab.report import explain
from snl_tui.lab.runner import PythonRunner

from .conftest import SOLUTIONS

BOARDS = 1000
SEED = 909
LOOP_LIMIT = 0.5
"""Seconds per board for the looping solution (the others answer in microseconds)."""

WRONG = {
    "wrong_chain.py": ("wrong", "chain"),
    "wrong_rows_from_top.py": ("wrong", "row-parity"),
    "wrong_no_zigzag.py": ("wrong", "no-zigzag"),
    "wrong_cell_off_by_one.py": ("wrong", "cell-off-by-one"),
    "wrong_wrong_rows.py": ("wrong", "wrong-rows"),
    "wrong_from_top.py": ("wrong", "from-top"),
    "wrong_seven_faces.py": ("wrong", "seven-faces"),
    "wrong_seen_wrong_square.py": ("wrong", "seen-wrong-square"),
    "wrong_count_pops.py": ("wrong", "count-pops"),
    "wrong_depth_cap.py": ("wrong", "depth-cap"),
    "wrong_dfs_memo.py": ("wrong", "dfs-memo"),
    "wrong_two_mistakes.py": ("wrong", None),
    "wrong_state.py": ("wrong", None),
    "wrong_stack.py": ("wrong", "stack"),
    "wrong_goal_before_jump.py": ("wrong", "goal-before-jump"),
    "wrong_climb_counts.py": ("wrong", "climb-costs"),
    "wrong_five_faces.py": ("wrong", "five-faces"),
    "wrong_no_snakes.py": ("wrong", "no-snakes"),
    "wrong_zero.py": ("wrong", "zero"),
    "wrong_greedy.py": ("wrong", "greedy"),
    "wrong_crash.py": ("error", None),
    "wrong_loops.py": ("timeout", None),
}
CORRECT = sorted(path.name for path in SOLUTIONS.glob("correct_*.py"))


def test_the_solutions_cover_every_typical_mistake() -> None:
    on_disk = {path.name for path in SOLUTIONS.glob("wrong_*.py")}
    assert on_disk == set(WRONG)
    assert {mistake for _, mistake in WRONG.values() if mistake} == {m.key for m in MISTAKES}
    assert (SOLUTIONS / "slow_correct.py").is_file()
    assert len(CORRECT) >= 3


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_solution_is_rejected_on_a_small_board(name: str) -> None:
    kind, mistake = WRONG[name]
    with PythonRunner(SOLUTIONS / name, time_limit=LOOP_LIMIT) as runner:
        verdict = judge(runner, judge_cases(BOARDS, SEED))
        failure = verdict.failure
        assert failure is not None
        assert verdict.verdict == kind, failure
        assert failure.side <= (5 if mistake in ("dfs-memo", "depth-cap") else 4), failure.matrix
        assert leetcode_problem(failure.matrix) is None
        assert failure.expected == solve(Board.from_matrix(failure.matrix)).moves
        # The failure is real: the smallest board fails the same way when run again.
        assert verdict_of(runner.run(failure.matrix), failure.expected) == kind
    data = verdict.to_json()
    assert data["verdict"] == kind and data["board"] == failure.matrix
    assert data["expected"] == failure.expected
    explained = explain(failure)
    # The mistake named is the one the solution makes, or none is named.
    assert explained.mistakes == ([mistake] if mistake else []), explained.reason
    if name == "wrong_two_mistakes.py":  # deliberately ambiguous: facts, no guess
        assert f"Your answer is {failure.got}, the least is {failure.expected}." in (
            explained.reason
        )
    if name == "wrong_state.py":
        assert failure.fresh is not None and failure.fresh.value == failure.expected
        assert "depends on earlier boards" in explained.reason


@pytest.mark.parametrize("name", CORRECT)
def test_a_correct_solution_is_accepted_after_a_thousand_boards(name: str) -> None:
    with PythonRunner(SOLUTIONS / name) as runner:
        verdict = judge(runner, judge_cases(BOARDS, SEED))
        assert runner.starts == 1  # one child answered every board
    assert verdict.accepted, verdict.failure
    assert verdict.boards == BOARDS
    assert verdict.to_json() == {"verdict": "accepted", "boards": BOARDS}


def test_the_boards_are_leetcode_boards_of_growing_size() -> None:
    cases = list(judge_cases(300, 5))
    assert [c.name for c in cases[:2]] == ["LeetCode example 1", "LeetCode example 2"]
    assert all(leetcode_problem(c.rows()) is None for c in cases)
    assert any(c.expected == -1 for c in cases)
    sides = [c.side for c in cases if c.name.startswith("random")]
    assert sides == sorted(sides) and sides[0] == 3 and sides[-1] >= 19
    # The same seed gives the same boards; another seed others.
    assert [c.matrix for c in judge_cases(300, 5)] == [c.matrix for c in cases]
    assert [c.matrix for c in judge_cases(300, 6)] != [c.matrix for c in cases]


def test_a_slow_but_right_solution_is_too_slow_by_cpu_time() -> None:
    """O(n^6), right on every board: too slow on the 20x20 size probe, said with its CPU
    time and its growth on the same board scaled down. A small CPU limit keeps this to
    seconds; the limit is CPU time, so a loaded machine changes how long the test takes,
    not its result."""
    limit = 0.3
    with PythonRunner(SOLUTIONS / "slow_correct.py", time_limit=limit) as runner:
        verdict = judge(runner, judge_cases(BOARDS, SEED))
    failure = verdict.failure
    assert failure is not None and verdict.verdict == "timeout"
    assert failure.slow and failure.side == 20 and failure.shrink_tries == 0
    assert failure.outcome.cpu is not None and failure.outcome.cpu >= limit
    # Right where it answered in time: every board before the probe.
    assert verdict.boards == len(examples()) + len(edge_cases()) + 1
    small = [cpu for side, cpu in failure.scaled.items() if side < 10]
    assert small and all(cpu is not None and cpu < limit for cpu in small)
    explained = explain(failure, limit)
    assert explained.reason.startswith("Too slow: ")
    assert "on this 20x20 board (limit 0.3 s)" in explained.reason
    assert "CPU time on this board scaled down: " in explained.details[0]
