"""The browser page for screen readers, in Chromium's accessibility tree (SPEC 17).

``snl serve``'s ``/?screenreader=1`` runs the plain mode behind an accessible page: a
live region (role log) that gets each line the game says once, and a text input that
takes ``roll``, with the lines typed before on Up. Read through Playwright's ARIA
snapshots (what a screen reader is given), never through pixels.

Skipped, with the reason, when Playwright, textual-serve or ``/usr/bin/chromium`` is
missing (``test_browser``'s fixtures).
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import browser, hosting, serve, wait_for  # noqa: F401 - the fixtures

MOVE = re.compile(r"^(You|CPU) rolled (\d+): ")
FRAMES = """
window.__frames = [];
(function () {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => window.__frames.push(event.data));
    }
  };
})();
"""


def log_lines(page: Any) -> list[str]:
    """The paragraphs of the live region a screen reader is given (not those hidden)."""
    snapshot = page.locator("#log").aria_snapshot()
    lines = []
    for row in snapshot.splitlines():
        found = re.match(r'\s*- paragraph: "?(.*?)"?$', row)
        if found:
            lines.append(found[1])
    return lines


def test_the_text_page_announces_each_move_once(
    browser: Any,  # noqa: F811
    serve: Callable[..., str],  # noqa: F811
) -> None:
    url = serve("--no-save")
    page = browser.new_page()
    page.add_init_script(FRAMES)
    try:
        page.goto(url + "?screenreader=1")
        snapshot = page.locator("body").aria_snapshot()
        assert '- log "Game"' in snapshot and '- textbox "Command"' in snapshot
        assert page.locator("canvas").count() == 0  # no terminal drawn for the eye
        wait_for(lambda: any("type roll" in line for line in log_lines(page)), "the game")
        assert page.evaluate("document.activeElement.id") == "command"
        page.keyboard.type("roll")
        page.keyboard.press("Enter")
        wait_for(lambda: any(MOVE.match(line) for line in log_lines(page)), "the first roll")
        page.keyboard.press("ArrowUp")  # the line typed before
        assert page.input_value("#command") == "roll"
        page.keyboard.press("Enter")
        wait_for(lambda: len([1 for line in log_lines(page) if MOVE.match(line)]) >= 4, "moves")
        lines = log_lines(page)
        # Each line the game said is one paragraph, once, in order.
        assert lines == page.evaluate("window.__frames")[: len(lines)]
        moves = [line for line in lines if MOVE.match(line)]
        assert [MOVE.match(line)[1] for line in moves][:4] == ["You", "CPU", "You", "CPU"]  # type: ignore[index]
        assert not any(line.startswith(">") for line in lines)  # typed lines: not announced
        live = page.get_attribute("#log", "aria-live")
        assert live == "polite" and page.get_attribute("#log", "aria-relevant") == "additions"
        page.keyboard.type("quit")
        page.keyboard.press("Enter")
        wait_for(lambda: "The game has ended" in page.inner_text("#status"), "the end")
        assert log_lines(page)[-1] == "Goodbye."
    finally:
        page.close()


def test_the_board_page_offers_the_text_page_first(
    browser: Any,  # noqa: F811
    serve: Callable[..., str],  # noqa: F811
) -> None:
    url = serve("--no-save")
    page = browser.new_page()
    try:
        page.goto(url + "?delay=1")  # the board page, not connecting yet
        first = page.locator("a.screen-reader-choice")
        assert first.get_attribute("href") == "/?screenreader=1"
        assert "screen reader" in first.inner_text()
    finally:
        page.close()
    # A page from another site may not start a plain game.
    request = urllib.request.Request(
        url + "plain/ws",
        headers={
            "Origin": "http://evil.example",
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        },
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403


ROOM_MOVE = re.compile(r"^(Ann|Bo) rolled (\d+): ")
PASSWORD = "open sesame"


@pytest.fixture
def password_room(tmp_path: Path) -> Iterator[str]:
    """``snl host`` with a password: yields its HOST:PORT/CODE."""
    yield from hosting(tmp_path, "--password", PASSWORD)


def test_a_passworded_room_on_the_text_page_says_each_move_once_and_keeps_the_seat(
    browser: Any,  # noqa: F811
    serve: Callable[..., str],  # noqa: F811
    password_room: str,
) -> None:
    code = password_room.rsplit("/", 1)[1]
    # The door asks each tab for the password; the room checks it.
    door = serve("--room", password_room, "--no-animation", "--password", "").rstrip("/")
    # Only the room's link opens a seat: the bare door's text page is a 404 too.
    with pytest.raises(urllib.error.HTTPError) as bare:
        urllib.request.urlopen(door + "/?screenreader=1", timeout=10)
    assert bare.value.code == 404
    url = f"{door}/join/{code}?screenreader=1"
    ann, bo = browser.new_page(), browser.new_page()
    ann.add_init_script(FRAMES)
    try:
        # The room's board page offers the text page, in its join form too.
        ann.goto(f"{door}/join/{code}?delay=1")
        offered = ann.locator("a", has_text="Join on the text page")
        assert offered.get_attribute("href") == "?screenreader=1"
        # Both pages keep the seat with the one script the door serves (/seat.js).
        assert ann.evaluate("window.snlSeat.code") == code
        with urllib.request.urlopen(door + "/seat.js", timeout=10) as script:
            assert "javascript" in script.headers["Content-Type"]
        # A text page's socket without the room's code takes no seat.
        closed = ann.evaluate(
            """() => new Promise((done) => {
                const socket = new WebSocket(`ws://${location.host}/plain/ws?name=Eve`);
                socket.onclose = (event) => done(event.code);
            })"""
        )
        assert closed == 1008
        # The name and the password are asked in an accessible form, not in a terminal;
        # Ann first mistypes the password: refused, in words, and asked again.
        for page, name, password in ((ann, "Ann", "open sesam"), (bo, "Bo", PASSWORD)):
            page.goto(url)
            form = page.locator("#join-form").aria_snapshot()
            assert 'textbox "Your name in the room"' in form and 'button "Take a seat"' in form
            assert 'textbox "The room\'s password"' in form
            assert page.locator("canvas").count() == 0
            assert page.evaluate("window.snlSeat.code") == code
            page.fill("#join-name", name)
            page.fill("#join-password", password)
            page.press("#join-password", "Enter")
        wait_for(lambda: "The room did not take this tab" in status(ann), "the refusal")
        assert "wrong password" in " ".join(log_lines(ann)), log_lines(ann)
        assert f"/{code}" not in " ".join(log_lines(ann))  # no address read digit by digit
        assert "Type your name and the password again" in status(ann)
        assert ann.locator("#join-form").is_visible()  # asked again, no reload to find
        # Bo sits before Ann tries again: seats go in the order people arrive, and two
        # pages joining at once reach the host in either order.
        wait_for(lambda: "You are Bo, seat 1 of 2." in log_lines(bo), "Bo's seat")
        ann.fill("#join-name", "Ann")
        ann.fill("#join-password", PASSWORD)
        ann.press("#join-password", "Enter")
        wait_for(lambda: "You are Ann, seat 2 of 2." in log_lines(ann), "Ann's seat")
        wait_for(lambda: any("Your turn" in line for line in log_lines(bo)), "Bo's turn")
        bo.keyboard.type("roll")
        bo.keyboard.press("Enter")
        for page in (ann, bo):
            wait_for(lambda p=page: any(ROOM_MOVE.match(x) for x in log_lines(p)), "the move")
        lines = log_lines(ann)
        assert lines == ann.evaluate("window.__frames")[: len(lines)]  # each line once
        assert len([line for line in lines if ROOM_MOVE.match(line)]) == 1
        # A reload joins again at once, with no question (nor the password), and takes
        # the same seat.
        bo.reload()
        wait_for(lambda: "You are Bo, seat 1 of 2." in log_lines(bo), "Bo's seat again")
        assert bo.locator("#join-form").is_hidden()
        assert not any("kept for its player" in line for line in log_lines(bo))
    finally:
        ann.close()
        bo.close()


def status(page: Any) -> str:
    return str(page.locator("#status").inner_text())
