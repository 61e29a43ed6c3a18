"""A room's lifecycle end to end (issue 41): everyone comes straight back to their seat.

One host for every case (the wall time stays short): ``snl host --name Hana --web
--password`` in tmux, Bo in another tmux terminal and, where Chromium is installed, Di in
a browser tab. Bo is killed with -9 and joins again: the same seat at once (his kept
token; the seat is kept 120 s for anyone else), and again after quitting with q. Di
reloads her tab: the same seat, no form; she closes it and opens the link again: her name
only, the same seat. The host is killed with -9 and ``snl host --resume ID`` (nothing
else, not even the port) reopens the room: Hana's seat back on her screen, Bo and the tab back by
themselves, the password, the turn clock and the browser door still in force (a join
without the password is refused).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
from contextlib import ExitStack
from typing import Any

import pytest

from .terminal import SNL, screen, tmux, tmux_session, wait_until
from .test_browser import CHROMIUM, LAUNCH_ARGS, RECORDER, screen_text
from .test_tmux_room import child_pid, my_turn

pytestmark = pytest.mark.e2e

TIMEOUT = 30.0
LINKS = re.compile(r"snl join (\S+)\s+or open (http://\S+/join/[A-Z0-9]+)")


def _browser(stack: ExitStack) -> Any:
    """Chromium through Playwright, or None (the tab's cases are left out) when either
    or the browser door is missing."""
    try:
        import textual_serve  # noqa: F401
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not CHROMIUM.exists():
        return None
    playwright = stack.enter_context(sync_playwright())
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
    stack.callback(chromium.close)
    return chromium


def _in_tab(page: Any, text: str) -> bool:
    """Whether the tab shows ``text``; not yet while the page is (re)loading (after a
    reload, reading it can meet "Execution context was destroyed")."""
    from playwright.sync_api import Error

    try:
        return text in screen_text(page)
    except Error:
        return False


def test_a_crash_a_reload_and_a_host_restart_all_come_back_to_their_seats() -> None:
    with ExitStack() as stack:
        data = stack.enter_context(tempfile.TemporaryDirectory(prefix="snl-e2e-host-"))
        host_env = {"SNL_DATA_DIR": data}
        port, web = _free_port(), _free_port()
        browser = _browser(stack)
        seats = 2 if browser is None else 3
        start = (
            f"'{SNL}' host throws-30 --name Hana --seats {seats} --port {port} --web "
            f"--web-port {web}"
            " --password pw --turn-time 900 --no-animation"
        )
        hana = stack.enter_context(tmux_session("snl-hana", start, env=host_env))
        wait_until(lambda: LINKS.search(screen(hana)) is not None, TIMEOUT, "links", session=hana)
        found = LINKS.search(screen(hana))
        assert found is not None
        address, link = found.groups()

        bo_data = stack.enter_context(tempfile.TemporaryDirectory(prefix="snl-e2e-bo-"))
        bo_env = {"SNL_DATA_DIR": bo_data}
        join = f"'{SNL}' join {address} --name Bo --password pw --no-animation"
        bo = stack.enter_context(tmux_session("snl-bo", join, env=bo_env))
        wait_until(lambda: "Bo (you)" in screen(bo), TIMEOUT, "Bo's seat", session=bo)

        page = None
        if browser is not None:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            stack.callback(context.close)
            page = context.new_page()
            page.add_init_script(RECORDER)
            page.goto(link)
            page.fill("#join-name", "Di")
            page.fill("#join-password", "pw")
            page.press("#join-name", "Enter")
            wait_until(lambda: _in_tab(page, "Di (you)"), TIMEOUT, "Di's seat")
        # Hana moves first: the resumed game goes on from there.
        wait_until(lambda: my_turn(hana), TIMEOUT, "Hana's turn", session=hana)
        tmux("send-keys", "-t", hana, "r")
        wait_until(lambda: "Hana rolled" in screen(bo), TIMEOUT, "the first move", session=bo)

        # Bo's terminal dies: a new snl join takes his seat back at once, with his token.
        os.kill(child_pid(bo, "join"), signal.SIGKILL)
        wait_until(lambda: "Bo (away" in screen(hana), TIMEOUT, "Bo away", session=hana)
        bo = stack.enter_context(tmux_session("snl-bo", join, env=bo_env))
        wait_until(lambda: "Bo (you)" in screen(bo), TIMEOUT, "Bo's seat again", session=bo)
        assert "kept for its player" not in screen(bo)
        # Bo quits (q asks first), then thinks better of it: his seat again at once.
        tmux("send-keys", "-t", bo, "q")
        wait_until(lambda: "Leave the room?" in screen(bo), TIMEOUT, "the question", session=bo)
        tmux("send-keys", "-t", bo, "y")
        wait_until(lambda: "Bo quit" in screen(hana), TIMEOUT, "Bo quit", session=hana)
        bo = stack.enter_context(tmux_session("snl-bo", join, env=bo_env))
        wait_until(lambda: "Bo (you)" in screen(bo), TIMEOUT, "Bo's seat after q", session=bo)

        if page is not None:  # Di reloads her tab: straight back, no form
            page.reload()
            wait_until(lambda: _in_tab(page, "Di (you)"), TIMEOUT, "Di's seat after a reload")
            assert not page.is_visible("#join-name")
            # Di closes the tab and opens the link again: her name, no password, her seat.
            page.close()
            wait_until(lambda: "Di (away" in screen(hana), TIMEOUT, "Di away", session=hana)
            page = context.new_page()
            page.add_init_script(RECORDER)
            page.goto(link)
            page.fill("#join-name", "Di")
            page.press("#join-name", "Enter")
            wait_until(lambda: _in_tab(page, "Di (you)"), TIMEOUT, "Di's seat in a new tab")

        # The host dies; --resume ID alone brings the room back as it was.
        os.kill(child_pid(hana, "host"), signal.SIGKILL)
        wait_until(lambda: "Reconnecting" in screen(bo), TIMEOUT, "reconnecting", session=bo)
        if page is not None:
            wait_until(
                lambda: "-away" in (page.evaluate("document.body.className") or ""),
                TIMEOUT,
                "the tab saying the host is away",
            )
            assert page.is_visible("text=The host is away")
        games = subprocess.run(
            [str(SNL), "games", "--json"],
            capture_output=True,
            text=True,
            timeout=30,
            env={**os.environ, **host_env},
            check=True,
        )
        game_id = max(game["id"] for game in json.loads(games.stdout))
        # --resume alone: the port, the password, the clock and the door are the room's.
        resume = f"'{SNL}' host --resume {game_id} --no-animation"
        hana = stack.enter_context(tmux_session("snl-hana", resume, env=host_env))
        wait_until(lambda: "Hana (you)" in screen(hana), TIMEOUT, "Hana's seat", session=hana)
        wait_until(
            lambda: "Bo (you)" in screen(bo) and "Reconnecting" not in screen(bo),
            TIMEOUT,
            "Bo back",
            session=bo,
        )
        # The turn clock is in force again (--turn-time 900, saved with the room).
        wait_until(lambda: "s left" in screen(hana), TIMEOUT, "the turn clock", session=hana)
        if page is not None:
            wait_until(lambda: _in_tab(page, "Di (you)"), TIMEOUT, "the tab back in its seat")
        refused = subprocess.run(
            [str(SNL), "join", address, "--name", "Eve", "--watch"],
            capture_output=True,
            text=True,
            timeout=30,
            env={**os.environ, "SNL_DATA_DIR": bo_data},
        )
        assert refused.returncode == 2 and "password" in refused.stderr, refused.stderr


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
