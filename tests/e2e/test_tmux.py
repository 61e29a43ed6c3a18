"""End to end: the real ``snl`` console script in a real terminal (tmux).

Starts ``snl play`` from this virtualenv in a detached 120x40 tmux session, rolls, shows
the route, quits with ``q``, reads the screen with ``capture-pane`` and checks the exit
status. Only the session this test started is killed. Skipped when tmux is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .terminal import SNL, exit_line, screen, tmux, tmux_session, wait_until

pytestmark = pytest.mark.e2e

TIMEOUT = 15.0
"""Seconds to wait for a screen condition."""


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    status = tmp_path / "status"
    # Keep the pane open after snl exits so the test can read the exit status.
    command = (
        f"'{SNL}' play --seed 5 --no-animation --players You,cpu; "
        f"echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    with tmux_session("snl-e2e", command) as name:
        yield name, status


def test_roll_route_and_quit_in_a_real_terminal(session: tuple[str, Path]) -> None:
    name, status = session
    wait_until(
        lambda: "press r or space to roll" in screen(name) and "q Quit" in screen(name),
        TIMEOUT,
        "the first frame",
        session=name,
    )
    first = screen(name)
    assert "Chutes and Ladders 10x10" in first
    assert "▲38" in first and "▼6" in first and "GOAL" in first
    assert "r Roll" in first and "q Quit" in first

    tmux("send-keys", "-t", name, "r")
    wait_until(lambda: "CPU rolled" in screen(name), TIMEOUT, "the CPU's roll", session=name)
    after_roll = screen(name)
    assert "You rolled" in after_roll

    # The CPU's move has been shown: it is the human's turn again.
    wait_until(
        lambda: any("You:" in line and "◀ to move" in line for line in screen(name).splitlines()),
        TIMEOUT,
        "the human's turn",
        session=name,
    )
    tmux("send-keys", "-t", name, "o")
    wait_until(lambda: "»1" in screen(name), TIMEOUT, "the route", session=name)

    tmux("send-keys", "-t", name, "q")
    assert exit_line(status, TIMEOUT, session=name) == "snl exited 0"
