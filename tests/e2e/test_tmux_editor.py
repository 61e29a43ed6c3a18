"""End to end: ``snl edit`` in a real terminal (tmux).

Opens ``snl edit tmp.toml --size 6`` (a new board) in a detached 120x40 tmux session, adds
a ladder with the keys, saves with ctrl+s, quits with ``q``, and reads the file back.
Only the session this test started is killed. Skipped when tmux is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from snl_tui.core.files.formats import load_board

from .terminal import SNL, exit_line, screen, tmux, tmux_session, wait_until

pytestmark = pytest.mark.e2e

TIMEOUT = 30.0
"""Seconds to wait for a screen condition (a loaded machine is slow, not broken)."""


def shows(name: str, *texts: str) -> None:
    """Wait until one capture of the pane holds all ``texts`` (bounded)."""

    def check() -> bool:
        shown = screen(name)
        return all(text in shown for text in texts)

    wait_until(check, TIMEOUT, " and ".join(map(repr, texts)), session=name)


def test_edit_add_a_ladder_save_and_read_back(tmp_path: Path) -> None:
    board_file = tmp_path / "tmp.toml"
    status = tmp_path / "status"
    command = (
        f"cd '{tmp_path}' && '{SNL}' edit tmp.toml --size 6; "
        f"echo \"snl exited $?\" > '{status}'; sleep 60"
    )
    with tmux_session("snl-e2e-edit", command) as name:
        shows(name, "Square 1", "tmp 6x6")
        tmux("send-keys", "-t", name, "Right", "Enter")
        shows(name, "New jump from square 2")
        tmux("send-keys", "-t", name, "Up", "Up", "Enter")
        shows(name, "Added the ladder 2 -> 14")
        tmux("send-keys", "-t", name, "C-s")
        shows(name, "Saved tmp.toml")
        tmux("send-keys", "-t", name, "q")
        assert exit_line(status, TIMEOUT, session=name) == "snl exited 0"
        board = load_board(board_file)
        assert (board.rows, board.cols, board.jumps, board.name) == (6, 6, {2: 14}, "tmp")
