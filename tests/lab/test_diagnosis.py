"""The diagnosis names the mistake a solution makes, or none, never another one: every
reference of the catalogue, judged as if it were a learner's solution (in this process,
through a runner that answers with the reference), is told its own mistake or nothing;
so is a solution that makes two mistakes at once, and a right one is accepted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snl_tui.lab.boards import expected_answer, judge_cases
from snl_tui.lab.judge import judge
from snl_tui.lab.mistakes import MISTAKES, Matrix, Model, bfs, flat
from snl_tui.lab.runner import Outcome, Runner

BOARDS = 300


class ModelRunner(Runner):
    """A 'solution' that answers with a model: no process, microseconds a board."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.time_limit = 2.0
        self.label = "model"

    def run(self, matrix: list[list[int]]) -> Outcome:
        answer, _ = self.model(matrix, expected_answer(matrix))
        if answer is None:
            return Outcome("timeout", text="no answer", cpu=2.0)
        return Outcome("answer", answer, cpu=0.0)

    def fresh(self) -> Runner:
        return self

    def longer(self, time_limit: float) -> Runner:
        return self


VARIANTS = [
    pytest.param(mistake.key, label, model, id=f"{mistake.key}:{label}" if label else mistake.key)
    for mistake in MISTAKES
    for label, model in mistake.variants
    # The memoised DFS and a cap of 4 are judged from learners' files (test_judge.py),
    # which costs less than finding their rare boards here again.
    if mistake.key != "dfs-memo" and (mistake.key != "depth-cap" or label == "2")
]


@pytest.mark.parametrize(("key", "label", "model"), VARIANTS)
def test_a_reference_is_told_its_own_mistake_or_none(key: str, label: str, model: Model) -> None:
    verdict = judge(ModelRunner(model), judge_cases(BOARDS, 909))
    if verdict.accepted:
        return  # right on every board tried (a mistake that rarely shows)
    failure = verdict.failure
    assert failure is not None
    if failure.verdict != "wrong":
        return  # a time-out (a loop) or no number: nothing is named
    proof = failure.proof
    assert proof is not None
    named = proof.mistake.key if proof.mistake is not None else None
    # Its own mistake: the one reference that loops on a cycle of jumps (it times out
    # there, so no number proves anything) is the only one told none.
    assert named == (None if (key, label) == ("chain", "") else key), (key, label, proof)


def two_mistakes(matrix: Matrix, expected: int) -> tuple[int | None, list[int]]:
    """A five-faced die and rows read without the zigzag, together."""
    return bfs(flat(matrix, "no-zigzag"), faces=5)


def test_two_mistakes_at_once_are_told_none() -> None:
    verdict = judge(ModelRunner(two_mistakes), judge_cases(BOARDS, 909))
    failure = verdict.failure
    assert failure is not None and failure.verdict == "wrong"
    assert failure.proof is not None and failure.proof.mistake is None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, len(MISTAKES) - 1))
def test_any_seed_names_the_mistake_made_or_none(seed: int, which: int) -> None:
    mistake = MISTAKES[which]
    _, model = mistake.variants[min(1, len(mistake.variants) - 1)]
    verdict = judge(ModelRunner(model), judge_cases(40, seed))
    failure = verdict.failure
    if failure is None or failure.proof is None or failure.proof.mistake is None:
        return
    assert failure.proof.mistake.key == mistake.key
