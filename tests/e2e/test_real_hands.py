"""Real hands in real terminals (issue 40): ``snl play`` in xterm with Sixel, mlterm and
kitty 0.26+ (Kitty's protocol placed directly), the pointer moved all over the picture,
clicks, drags, the wheel, keys and a resize (``ACTIONS`` of them), then ``q``: snl ran
throughout, wrote no crash file, ended with status 0 and left the terminal clean (typing
after it gives plain text: no mouse reports; no picture left). Thousands of actions, over
the editor, the learn screen and the replay too: ``scripts/real_hands.py``. Skipped where
the terminal or Xvfb, xdotool or ImageMagick is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from .real_hands import TERMINALS, hands_run, missing
from .terminal import SNL

pytestmark = pytest.mark.e2e

ACTIONS = 60
"""About two seconds of actions on a quiet machine (each is one to four xdotool calls,
taken as soon as the terminal has the one before): the suite had 10 s of wall clock,
fewer actions the more the machine was loaded."""


@pytest.mark.parametrize("terminal", TERMINALS)
def test_real_hands_over_the_picture(terminal: str, tmp_path: Path) -> None:
    needs = missing(terminal)
    if needs:
        pytest.skip(f"needs {', '.join(needs)} (Debian: xvfb xdotool imagemagick {terminal})")
    if not SNL.exists():
        pytest.skip("the snl console script is not installed in this virtualenv")
    command = [str(SNL), "play", "classic", "--seed", "3", "--no-save", "--players", "You,cpu"]
    report = hands_run(terminal, command, ACTIONS, tmp_path)
    assert report.picture_seen, f"no board picture in {terminal} (see {tmp_path})"
    assert report.alive_before_quit, report
    assert report.actions == ACTIONS, report
    assert report.crashes == [], report
    assert report.status == 0, report
    assert report.clean, report
