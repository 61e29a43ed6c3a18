"""The party game end to end (issue 23's "done when"): two people in two terminals (tmux,
``snl join``) and one in a browser (Chromium, ``snl serve --room``) play one room's game of
``snl host`` to the end; on the way the browser's player loses the page and comes back to
the same seat.

Skipped, with the reason, without tmux or without the browser (see test_browser.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .processes import stop_group
from .terminal import SNL, screen, tmux, tmux_session, wait_for, wait_until
from .test_browser import browser, open_game, screen_text, serve  # noqa: F401 - fixtures
from .test_tmux_room import my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

TIMEOUT = 30.0
KEEP = ("--keep-seat", "0")


@pytest.fixture
def host(tmp_path: Path) -> Iterator[str]:
    """``snl host throws-30 --seats 3 --keep-seat 0`` on a free port; yields
    HOST:PORT/CODE."""
    log_path = tmp_path / "host.log"
    process = subprocess.Popen(
        # --keep-seat 0: a reopened page is a new `snl join` with no token, which takes
        # the seat back by name only once the host stops keeping it for its token.
        [
            sys.executable,
            "-m",
            "snl_tui",
            "host",
            "throws-30",
            "--seats",
            "3",
            "--port",
            "0",
            *KEEP,
        ],
        cwd=tmp_path,
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={"SNL_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"},
    )

    def join_line() -> str:
        found = re.search(r"^snl join (\S+)$", log_path.read_text(), re.MULTILINE)
        return found.group(1) if found else ""

    try:
        assert wait_for(lambda: process.poll() is not None or bool(join_line()), TIMEOUT)
        assert process.poll() is None, log_path.read_text()
        yield join_line()
    finally:
        stop_group(process)


def test_two_terminals_and_a_browser_play_one_game_to_the_end(
    browser: Any,  # noqa: F811 - the fixture
    serve: Callable[..., str],  # noqa: F811 - the fixture
    host: str,
) -> None:
    with ExitStack() as stack:
        terminals = {}
        for name in ("Ann", "Bob"):
            command = f"'{SNL}' join {host} --name {name} --no-animation; sleep 120"
            session = stack.enter_context(tmux_session(f"snl-{name.lower()}", command))
            wait_until(
                lambda s=session, n=name: f"{n} (you)" in screen(s),
                TIMEOUT,
                "a seat",
                session=session,
            )
            terminals[name] = session
        url = serve("--room", host, "--no-animation")
        page = open_game(browser, url, 1280, 800)
        stack.callback(page.close)
        deadline = time.monotonic() + TIMEOUT
        while "Guest (you)" not in screen_text(page):
            assert time.monotonic() < deadline, "the browser's seat"
            time.sleep(0.1)

        def guest_turn() -> bool:
            # The browser's stream keeps every frame: its last players panel says.
            text = screen_text(page)
            last = text.rfind("Guest (you)")
            return last >= 0 and "◀" in text[last : last + 40]

        def over() -> bool:
            return all("reached the goal" in screen(s) for s in terminals.values())

        reloaded = False
        for _ in range(400):  # bounded: a 30-square game is far shorter
            if over():
                break
            moved = False
            for session in terminals.values():
                if my_turn(session):
                    tmux("send-keys", "-t", session, "r")
                    wait_for(lambda s=session: not my_turn(s), 10.0)
                    moved = True
            if guest_turn():
                page.keyboard.press("r")
                time.sleep(0.3)
                moved = True
                if not reloaded:
                    # The browser's player loses the page, opens it again: same seat.
                    page.close()
                    ann = terminals["Ann"]
                    wait_until(
                        lambda a=ann: "Guest (away)" in screen(a),
                        TIMEOUT,
                        "the browser's player away",
                        session=ann,
                    )
                    page = open_game(browser, url, 1280, 800)
                    stack.callback(page.close)
                    reloaded = True
                    deadline = time.monotonic() + TIMEOUT
                    while "Guest (you)" not in screen_text(page):
                        assert time.monotonic() < deadline, "the browser's seat again"
                        time.sleep(0.1)
            if not moved:
                time.sleep(0.2)
        assert reloaded
        wait_until(over, TIMEOUT, "the winner on both terminals")
        winner = re.search(r"(Ann|Bob|Guest) reached the goal", screen(terminals["Ann"]))
        assert winner is not None
        assert f"{winner.group(1)} reached the goal" in screen(terminals["Bob"])
