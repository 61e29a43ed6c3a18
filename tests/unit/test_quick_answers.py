"""The generator's quick answers (``shape.runs_close``, ``shape.hides``) say what the full
tests say: a quick no only where the full test is no too (issue: the suite's speed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from snl_tui.core.studio.shape import (
    STRAIGHT_CLOSE,
    ends_near,
    hides,
    runs_close,
    straight_close,
)

Point = tuple[float, float]
corners = st.lists(st.tuples(st.floats(0, 12), st.floats(0, 12)), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(corners, st.integers(0, 3))
def test_the_quick_answers_are_the_full_tests(corners: list[Point], near: int) -> None:
    points = [(0.0, 0.0), *corners]
    if near:  # the second way close beside the first, often within the bounds
        (x0, y0), (x1, y1) = corners[:2]
        shift = 0.1 * near
        points[3:] = [(x0 + shift, y0 + shift / 2), (x1 + shift, y1 - shift / 2)]
    a, b = (1, 2), (3, 4)
    assert runs_close(points, a, b) == (straight_close(points, a, b) > STRAIGHT_CLOSE)
    assert hides(points, a, b) == ends_near(points, a, b)
