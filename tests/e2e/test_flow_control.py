"""A ctrl+s typed before snl starts (the terminal's XOFF: output stopped) must not hang
it: the graphics query that runs before Textual writes to the terminal, so it turns flow
control off first, which starts the output again (as Textual's raw mode does)."""

from __future__ import annotations

import pytest

from .terminal import SNL, screen, tmux, tmux_session, wait_until

pytestmark = pytest.mark.e2e


def test_a_ctrl_s_before_snl_starts_does_not_hang_it() -> None:
    # The shell reads a line first: while it does, the terminal is in its cooked mode,
    # where ctrl+s stops the output, as between two games of a player's shell.
    command = f"echo ready; read line; '{SNL}' play --seed 3 --players You,cpu"
    with tmux_session("snl-xoff", command, width=100, height=30) as name:
        wait_until(lambda: "ready" in screen(name), 20, "the shell", session=name)
        tmux("send-keys", "-t", name, "C-s")
        tmux("send-keys", "-t", name, "Enter")
        wait_until(lambda: "Roll" in screen(name), 30, "the game's footer", session=name)
