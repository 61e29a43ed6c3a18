"""End to end in a real browser: ``snl serve`` driven by the system's Chromium (SPEC 9).

Starts ``python -m snl_tui serve`` on a free port from a scratch directory, opens the page
with Playwright and presses keys WITHOUT clicking: the terminal must have the keyboard
focus on load. The screen is read from the websocket: an init script wraps the page's
``WebSocket`` and keeps the text the game sends (and what the page sends back).

Skipped, with the reason, when Playwright, textual-serve or ``/usr/bin/chromium`` (Debian's
``chromium`` package; browsers are never downloaded) is missing. Only the server's own
process group is killed at the end.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .processes import stop_group

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LIMIT = 60.0
"""Upper bound (seconds) of every wait: the machine is shared and loaded."""

# Keeps what the game sends (text) and what the page sends (resize, focus, keys).
RECORDER = """
window.__snl = { text: "", sent: [], closes: [] };
(function () {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const decoder = new TextDecoder();
      const send = this.send.bind(this);
      this.send = (data) => { window.__snl.sent.push(String(data)); return send(data); };
      this.addEventListener("message", (event) => {
        if (typeof event.data !== "string") {
          window.__snl.text += decoder.decode(event.data, { stream: true });
        }
      });
      this.addEventListener("close", (event) => window.__snl.closes.push(event.code));
    }
  };
})();
"""
ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def _requirements() -> Any:
    """Playwright's sync API, or skip with the reason the browser test cannot run."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install '.[test]')")
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        pytest.skip("textual-serve is not installed (pip install '.[web]')")
    if not CHROMIUM.exists():
        pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium)")
    return sync_playwright


def wait_for(condition: Callable[[], bool], what: str, limit: float = LIMIT) -> None:
    """Poll ``condition`` until it holds; fail with ``what`` after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {limit:.0f} s waiting for {what}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # it answered (e.g. 503 when full)
    except OSError:
        return False


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _requirements()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``serve("--max-sessions", "1")`` starts ``snl serve`` and returns its address."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(*options: str) -> str:
        port = free_port()
        log = (tmp_path / "serve.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "snl_tui", "serve", "--port", str(port), *options],
            cwd=tmp_path,  # from any directory: the game runs with this interpreter
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, games included
        )
        processes.append(process)
        url = f"http://127.0.0.1:{port}/"
        wait_for(lambda: process.poll() is not None or answers(url), "snl serve to listen")
        assert process.poll() is None, (tmp_path / "serve.log").read_text()
        return url

    try:
        yield start
    finally:
        for process in processes:
            stop_group(process)


def screen_text(page: Any) -> str:
    return ANSI.sub("", page.evaluate("window.__snl.text"))


def open_game(browser: Any, url: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.add_init_script(RECORDER)
    page.goto(url)
    return page


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (800, 600)])
def test_keys_play_without_a_click(browser: Any, serve: Callable[..., str], width, height) -> None:
    url = serve("--no-animation")
    page = open_game(browser, url, width, height)
    try:
        assert page.title() == "snl"
        # The footer's keys come with the first frames: the game has the focus at once.
        wait_for(lambda: "Roll" in screen_text(page), "the footer's keys")
        assert "rolled" not in screen_text(page)
        page.keyboard.press("r")  # no click anywhere first
        wait_for(lambda: "You rolled" in screen_text(page), "the move log to show the roll")
        # The font size fits the whole classic board and the players' panel.
        sizes = [json.loads(m)[1] for m in page.evaluate("window.__snl.sent") if "resize" in m]
        assert sizes, "the page never sent its terminal size"
        assert sizes[-1]["width"] >= 100 and sizes[-1]["height"] >= 36, sizes[-1]
        text = screen_text(page)
        assert "GOAL" in text and "CPU (cpu)" in text
    finally:
        page.close()


def test_the_page_says_when_the_server_is_full(browser: Any, serve: Callable[..., str]) -> None:
    url = serve("--max-sessions", "1", "--no-animation")
    # A page loaded while a seat was free; ?delay=1 keeps it from connecting yet.
    late = open_game(browser, url + "?delay=1", 1024, 640)
    first = open_game(browser, url, 1024, 640)
    second = browser.new_page(viewport={"width": 1024, "height": 640})
    try:
        wait_for(lambda: "Roll" in screen_text(first), "the first game")
        response = second.goto(url)
        assert response is not None and response.status == 503
        assert second.title() == "snl"
        assert "the server is full" in second.inner_text("body")
        # The page loaded before the seats ran out is refused on its websocket ("try
        # again later") and says the server is full instead of "the game has ended".
        code = late.evaluate(
            """() => new Promise((resolve) => {
                 const ws = new WebSocket(`ws://${location.host}/ws?width=80&height=24`);
                 ws.addEventListener("close", (event) => resolve(event.code));
               })"""
        )
        assert code == 1013
        assert late.evaluate("document.body.classList.contains('-full')")
        # The first game still plays.
        first.keyboard.press("r")
        wait_for(lambda: "You rolled" in screen_text(first), "the first game to roll")
    finally:
        for page in (late, first, second):
            page.close()


@pytest.fixture
def room_host(tmp_path: Path) -> Iterator[str]:
    """``snl host`` (two seats, throws-30) on a free port; yields its HOST:PORT/CODE."""
    yield from hosting(tmp_path)


def hosting(tmp_path: Path, *options: str) -> Iterator[str]:
    """``snl host throws-30 OPTIONS`` on a free port: yields its HOST:PORT/CODE."""
    log_path = tmp_path / "host.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "snl_tui",
            "host",
            "throws-30",
            "--port",
            "0",
            "--no-save",
            *options,
        ],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def join_line() -> str:
        found = re.search(r"^snl join (\S+)$", log_path.read_text(), re.MULTILINE)
        return found.group(1) if found else ""

    try:
        wait_for(lambda: process.poll() is not None or bool(join_line()), "snl host to listen")
        assert process.poll() is None, log_path.read_text()
        yield join_line()
    finally:
        stop_group(process)


def test_browser_tabs_join_a_room(browser: Any, serve: Callable[..., str], room_host: str) -> None:
    # Only the room's link opens a seat (the door's bare address is a 404).
    code = room_host.rsplit("/", 1)[1]
    url = serve("--room", room_host, "--no-animation").rstrip("/") + f"/join/{code}"
    first = open_game(browser, url, 1280, 800)
    second = open_game(browser, url, 1280, 800)
    try:
        # Each tab asks its person's name before its game starts, and takes a seat. The
        # second friend joins once the first sits: seats go in the order people arrive,
        # and two games starting at once reach the host in either order.
        for page, name in ((first, "Guest"), (second, "Guest 2")):
            page.fill("#join-name", name)
            page.press("#join-name", "Enter")
            wait_for(lambda p=page, n=name: f"{n} (you)" in screen_text(p), f"{name}'s seat")

        # The first to join moves first: the host rolls, both tabs see it. (A key
        # pressed while the tab still shows the last move is not taken: press again,
        # as a player would, until the move shows.)
        def rolled(page: Any, other: Any, name: str) -> Callable[[], bool]:
            def check() -> bool:
                if f"{name} rolled" in screen_text(other):
                    return True
                page.keyboard.press("r")
                time.sleep(0.5)
                return False

            return check

        wait_for(rolled(first, second, "Guest"), "the move in the other tab")
        wait_for(rolled(second, first, "Guest 2"), "the second tab's move")
    finally:
        for page in (first, second):
            page.close()


def accessible_text(page: Any) -> str:
    """The rows xterm.js keeps for screen readers (its accessibility tree), or ''."""
    text: str = page.evaluate(
        "(document.querySelector('.xterm-accessibility-tree') || {}).innerText || ''"
    )
    return text


def test_screenreader_in_the_address_turns_on_the_terminals_screen_reader_mode(
    browser: Any, serve: Callable[..., str]
) -> None:
    url = serve("--no-animation")
    reader = open_game(browser, url + "?screenreader=terminal", 1280, 800)
    sighted = open_game(browser, url, 1280, 800)
    try:
        wait_for(lambda: "Roll" in screen_text(reader), "the game in the screen-reader tab")
        assert reader.evaluate("window.snlTerminal.options.screenReaderMode") is True
        # The option reached the terminal: its rows are text a screen reader reads, and
        # they follow the game (a key pressed without a click shows up there too).
        wait_for(lambda: "Roll" in accessible_text(reader), "the footer in the rows")
        reader.keyboard.press("r")
        wait_for(lambda: "You rolled" in accessible_text(reader), "the roll in the rows")
        # Without the option the page is as before: no accessibility tree.
        wait_for(lambda: "Roll" in screen_text(sighted), "the game in the other tab")
        assert sighted.evaluate("window.snlTerminal === undefined")
        assert accessible_text(sighted) == ""
    finally:
        reader.close()
        sighted.close()
