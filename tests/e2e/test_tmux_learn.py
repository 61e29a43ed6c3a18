"""End to end: ``snl learn leetcode-1`` in a real terminal (tmux). Two levels are stepped
with ``l``; every distance label on screen and the queue beside the board are the
search's (checked against the solver's own distances), then ``q`` quits with status 0."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from snl_tui.core.files.formats import load_board
from snl_tui.core.solver import least_rolls_from, solve
from snl_tui.lab.search import breadth_first, forward_distances

from .terminal import SNL, exit_line, screen, tmux, tmux_session, wait_until

pytestmark = pytest.mark.e2e

TIMEOUT = 15.0
LABEL = re.compile(r"(?<![\d»])(\d+)[^\d»]*»(\d+)")
"""A square's number, then its distance label on the same line of the square (a drawn
jump may pass between them; another square's number cannot)."""


def test_two_levels_of_the_search_on_leetcode_1(tmp_path: Path) -> None:
    board = load_board("leetcode-1")
    distances = forward_distances(board)
    search = breadth_first(board)
    status = tmp_path / "status"
    command = f"'{SNL}' learn leetcode-1; echo \"snl exited $?\" > '{status}'; sleep 60"
    with tmux_session("snl-learn", command) as name:
        wait_until(
            lambda: "Queue, front first" in screen(name), TIMEOUT, "the first frame", session=name
        )
        for level in (1, 2):
            tmux("send-keys", "-t", name, "l")
            wait_until(
                lambda level=level: f", level {level}" in screen(name),
                TIMEOUT,
                f"level {level}",
                session=name,
            )
        shown = screen(name)
        labels = {int(square): int(d) for square, d in LABEL.findall(shown)}
        # Levels 0 and 1 are done and level 2 has begun: every square of distance up to
        # 2 is labelled, each with the solver's distance.
        assert labels == {s: d for s, d in distances.items() if d <= 2}, shown
        assert all(d + least_rolls_from(board, s) >= solve(board).moves for s, d in labels.items())
        step = int(re.search(r"step (\d+) of", shown).group(1)) - 1
        queue_line = next(line for line in shown.splitlines() if "Queue, front first:" in line)
        on_screen = queue_line.split("Queue, front first:")[1].split()
        assert [int(w) for w in on_screen if w.isdigit()] == list(search.view(step).queue)
        tmux("send-keys", "-t", name, "q")
        assert exit_line(status, TIMEOUT, session=name) == "snl exited 0"
