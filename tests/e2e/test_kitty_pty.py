"""End to end: ``snl play classic --graphics auto`` in a pseudo-terminal that answers as
Debian 12's kitty 0.26.5 does (its graphics query answered OK, XTVERSION
``kitty(0.26.5)``, no Sixel in Device Attributes): the board is sent in Kitty's graphics
protocol through the app's own output (a PNG transmission placed directly beneath the
text: no Unicode placeholders, which kitty reads from 0.28 only), and sent again when a
token moves. ``tests/e2e/test_real_hands.py`` runs the real kitty (issues 35, 40)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest

from .terminal import SNL

pytestmark = pytest.mark.e2e

KITTY_ANSWERS = b"\x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1bP>|kitty(0.26.5)\x1b\\\x1b[?62;22c"
"""kitty's answers to the graphics query, the cell size, XTVERSION and Device
Attributes (no 4)."""
TRANSMIT = b"\x1b_Ga=T,f=100,"


def test_kitty_terminal_gets_kitty_graphics_and_a_new_frame_after_a_roll(tmp_path: Path) -> None:
    if not SNL.exists():
        pytest.skip("the snl console script is not installed in this virtualenv")
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "SNL_DATA_DIR": str(tmp_path), "TERM": "xterm-kitty"}
    command = [str(SNL), "play", "classic", "--seed", "3", "--no-save", "--players", "You"]
    child = subprocess.Popen(
        [*command, "--graphics", "auto", "--no-animation"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    output = b""
    rolled_at: int | None = None
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if not select.select([leader], [], [], 0.5)[0]:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            output += chunk
            if b"\x1b[c" in chunk:
                os.write(leader, KITTY_ANSWERS)
            if rolled_at is None and TRANSMIT in output and b"off the board" in output:
                time.sleep(0.5)  # the panels mount after the first frame
                rolled_at = len(output)
                os.write(leader, b"r")
            if rolled_at is not None and b"\x1b_Ga=d,d=I," in output[rolled_at:]:
                break  # a new frame sent, the one before freed
    finally:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        os.close(leader)
    text = output.decode("utf-8", "replace")
    assert TRANSMIT in output, "no Kitty graphics were written"
    assert ",C=1,z=-1073741825," in text  # placed directly, beneath the text
    assert "U=1" not in text and "\U0010eeee" not in text  # no placeholders (kitty 0.28+)
    assert "\x1bP" not in text.replace("\x1bP>", "")  # no Sixel picture
    assert rolled_at is not None and TRANSMIT in output[rolled_at:], "no new frame after a roll"
    assert b"\x1b_Ga=d,d=I," in output[rolled_at:]  # the old frame freed
