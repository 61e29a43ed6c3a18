"""The party game end to end (issues 23 and 31): the host plays in one terminal
(``snl host --name Hana --web``), two friends join in two more (``snl join``, one of them
with the browser link), and a fourth opens the link in a browser (Chromium), types her name
and takes a seat. On the way: the bell rings in the terminal whose turn comes (tmux's
``window_bell_flag``), the browser tab's title says "your turn", a chat line and a reaction
reach every screen, one friend is killed with -9 and the host hands his seat to the
computer from her screen (``x``), the browser's player loses the page and comes back to
the same seat by typing her name again (``--keep-seat 0``: at once), and the game is
played to its winner.

Skipped, with the reason, without tmux or without the browser (see test_browser.py).
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest

from .terminal import SNL, screen, tmux, tmux_session, wait_for, wait_until
from .test_browser import browser, free_port, open_game, screen_text  # noqa: F401 - fixture
from .test_tmux_room import my_turn

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

TIMEOUT = 30.0
LINKS = re.compile(r"snl join (\S+)\s+or open (http://\S+/join/[A-Z0-9]+)")
ORDERS = re.compile(
    r"(Skip \w+'s turn|Let the computer play for \w+|Remove \w+ from the game|"
    r"Mute \w+'s chat)"
)


def bell(session: str) -> bool:
    return tmux("display", "-p", "-t", session, "#{window_bell_flag}").strip() == "1"


def press(session: str, *keys: str) -> None:
    tmux("send-keys", "-t", session, *keys)


def test_three_terminals_and_a_browser_survive_a_vanished_friend(
    browser: Any,  # noqa: F811 - the fixture
) -> None:
    with ExitStack() as stack:
        port, web = free_port(), free_port()
        hana = stack.enter_context(
            tmux_session(
                "snl-hana",
                f"exec '{SNL}' host throws-30 --name Hana --seats 4 --port {port} --web "
                f"--web-port {web} --no-animation --keep-seat 0",
            )
        )
        wait_until(lambda: LINKS.search(screen(hana)) is not None, TIMEOUT, "links", session=hana)
        found = LINKS.search(screen(hana))
        assert found is not None
        address, link = found.groups()
        terminals = {"Hana": hana}
        for name, where in (("Bo", link), ("Cy", address)):  # snl join takes the link too
            session = stack.enter_context(
                tmux_session(
                    f"snl-{name.lower()}", f"exec '{SNL}' join {where} --name {name} --no-animation"
                )
            )
            wait_until(
                lambda s=session, n=name: f"{n} (you)" in screen(s),
                TIMEOUT,
                "a seat",
                session=session,
            )
            terminals[name] = session
        # The browser friend opens the link, types her name, takes the last seat.
        page = open_game(browser, link, 1280, 800)
        stack.callback(page.close)
        page.fill("#join-name", "Di")
        page.press("#join-name", "Enter")
        deadline = time.monotonic() + TIMEOUT
        while "Di (you)" not in screen_text(page):
            assert time.monotonic() < deadline, "the browser's seat"
            time.sleep(0.1)

        # Hana moves first: her bell rang, Bo's did not, until his turn comes.
        wait_until(lambda: my_turn(hana), TIMEOUT, "Hana's turn", session=hana)
        assert bell(hana) and not bell(terminals["Bo"])
        press(hana, "r")
        wait_until(lambda: bell(terminals["Bo"]), TIMEOUT, "Bo's bell", session=terminals["Bo"])

        # A chat line and a reaction from Bo reach every screen, the browser's too.
        bo = terminals["Bo"]
        press(bo, "c")
        wait_until(lambda: "Say something" in screen(bo), TIMEOUT, "the chat box", session=bo)
        press(bo, "good luck all", "Enter")
        wait_until(lambda: "<Bo> good luck" in screen(bo), TIMEOUT, "the line", session=bo)
        wait_until(lambda: "Say something" not in screen(bo), TIMEOUT, "closed", session=bo)
        press(bo, "c")
        wait_until(lambda: "Say something" in screen(bo), TIMEOUT, "the chat box", session=bo)
        press(bo, "F2")
        for session in terminals.values():
            wait_until(
                lambda s=session: (
                    "<Bo> good luck all" in screen(s) and "* Bo nice one!" in screen(s)
                ),
                TIMEOUT,
                "the chat on every terminal",
                session=session,
            )
        wait_for(lambda: "* Bo nice one!" in screen_text(page), TIMEOUT)
        assert "<Bo> good luck all" in screen_text(page)

        # Cy vanishes (kill -9); the host hands his seat to the computer.
        cy = terminals.pop("Cy")
        pid = int(tmux("list-panes", "-t", cy, "-F", "#{pane_pid}").split()[0])
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: "Cy (away" in screen(hana), TIMEOUT, "Cy away", session=hana)
        press(hana, "x")
        wait_until(lambda: "The host decides" in screen(hana), TIMEOUT, "powers", session=hana)
        orders = ORDERS.findall(screen(hana))
        for _ in range(orders.index("Let the computer play for Cy")):
            press(hana, "Down")
        press(hana, "Enter")
        wait_until(lambda: "computer plays" in screen(bo), TIMEOUT, "the hand-over", session=bo)

        def di_turn() -> bool:
            text = screen_text(page)
            last = text.rfind("Di (you)")
            return last >= 0 and "◀" in text[last : last + 40]

        def over() -> bool:
            return all("reached the goal" in screen(s) for s in terminals.values())

        titled = reloaded = False
        for _ in range(600):  # bounded: a 30-square game is far shorter
            if over():
                break
            moved = False
            for session in terminals.values():
                if my_turn(session) and "The host decides" not in screen(session):
                    press(session, "r")
                    wait_for(lambda s=session: not my_turn(s), 10.0)
                    moved = True
            if di_turn():
                titled = titled or wait_for(lambda p=page: p.title() == "snl - your turn!", 5.0)
                page.keyboard.press("r")
                time.sleep(0.3)
                moved = True
                if not reloaded:
                    # Di loses the page and opens the link again: the same seat, by name.
                    page.close()
                    wait_until(lambda: "Di (away" in screen(hana), TIMEOUT, "Di away", session=hana)
                    page = open_game(browser, link, 1280, 800)
                    stack.callback(page.close)
                    page.fill("#join-name", "Di")
                    page.press("#join-name", "Enter")
                    reloaded = True
                    deadline = time.monotonic() + TIMEOUT
                    while "Di (you)" not in screen_text(page):
                        assert time.monotonic() < deadline, "the browser's seat again"
                        time.sleep(0.1)
            if not moved:
                time.sleep(0.2)
        assert reloaded
        wait_until(over, TIMEOUT, "the winner on every terminal")
        assert titled, "the browser tab's title never said it was Di's turn"
        winner: Callable[[str], Any] = re.compile(r"(Hana|Bo|Cy|Di) reached the goal").search
        shown = {s: winner(screen(s)) for s in terminals.values()}
        assert len({m.group(1) for m in shown.values() if m}) == 1, shown
