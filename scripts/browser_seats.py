"""Real hands on a room's browser tabs (issue 41): what a friend does with a tab, by script.

    python scripts/browser_seats.py [--door host|serve] [--shots DIR] [--stops N]

``snl host --seats 2 --web`` (or, with ``--door serve``, ``snl host`` and a separate
``snl serve --room``) and headless Chromium (``/usr/bin/chromium``, never downloaded):
Di and Bo take seats from two browser profiles; then Di reloads her tab on her turn,
rolls, closes the tab and opens the link again, opens a second tab of the same seat, and
the host is killed (-9) and resumed, then stopped (SIGINT to its process group, as
Ctrl+C in its terminal) and resumed N times (3), with the tabs open. Each step prints
what the host's log said and what the tabs show; a screenshot of each tab is kept in
DIR. Exit status 1 when a step did not turn out as a person expects.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.test_browser import CHROMIUM, LAUNCH_ARGS, RECORDER, free_port  # noqa: E402

SNL = Path(sys.executable).with_name("snl")
LIMIT = 40.0
LINK = re.compile(r"(http://\S+/join/[A-Z0-9]+)")
JOIN = re.compile(r"snl join (\S+)")


class Host:
    """``snl host`` (no seat of its own) as a process whose lines are read from a file."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self.process = subprocess.Popen(
            [str(SNL), *argv],
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, how: int) -> None:
        os.killpg(self.process.pid, how)
        self.process.wait(timeout=20)


def wait(condition: Callable[[], bool], what: str, limit: float = LIMIT) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except Exception:  # a page reloading meanwhile
            pass
        time.sleep(0.2)
    print(f"  !! not within {limit:.0f} s: {what}")
    return False


def tab_text(page: Any) -> str:
    from tests.e2e.test_browser import screen_text

    return screen_text(page)


def body(page: Any) -> str:
    return str(page.evaluate("document.body.className") or "")


class Run:
    def __init__(self, shots: Path) -> None:
        self.shots = shots
        self.problems: list[str] = []
        self.step = 0

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok' if ok else 'PROBLEM'}: {what}")
        if not ok:
            self.problems.append(what)

    def shot(self, page: Any, name: str) -> None:
        self.step += 1
        path = self.shots / f"{self.step:02d}-{name}.png"
        try:
            page.screenshot(path=str(path))
        except Exception as error:  # a closed or reloading page
            print(f"  (no screenshot {name}: {error})")


def main(argv: list[str]) -> int:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--door", choices=("host", "serve"), default="host")
    options.add_argument("--shots", type=Path, default=None)
    options.add_argument("--stops", type=int, default=3, help="clean stops and resumes")
    args = options.parse_args(argv)
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="snl-browser-seats-"))
    shots = args.shots or data / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SNL_DATA_DIR": str(data / "host")}
    port, web = free_port(), free_port()
    log = data / "host.log"
    run = Run(shots)
    web_options = ["--web", "--web-port", str(web)] if args.door == "host" else []
    host = Host(
        ["host", "throws-30", "--seats", "2", "--port", str(port), "--turn-time", "600",
         "--no-animation", *web_options],
        env,
        log,
    )  # fmt: skip
    door = None
    started = time.monotonic()
    try:
        wait(lambda: JOIN.search(host.text()) is not None, "the host's snl join line")
        found = JOIN.search(host.text())
        assert found is not None, host.text()
        address = found.group(1)
        if args.door == "serve":
            door = Host(["serve", "--room", address, "--port", str(web)], env, data / "door.log")
            link = f"http://127.0.0.1:{web}/join/{address.rsplit('/', 1)[-1]}"
            wait(lambda: "http" in door.text() or "serving" in door.text().lower(), "the door")
            time.sleep(1.0)
        else:
            wait(lambda: LINK.search(host.text()) is not None, "the link")
            link_found = LINK.search(host.text())
            assert link_found is not None
            link = link_found.group(1)
        print(f"room {address}, link {link}, files in {data}")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            di_browser = chromium.new_context(viewport={"width": 1100, "height": 700})
            bo_browser = chromium.new_context(viewport={"width": 1100, "height": 700})

            def open_tab(context: Any, name: str | None) -> Any:
                page = context.new_page()
                page.add_init_script(RECORDER)
                page.goto(link)
                if name is not None:
                    page.wait_for_selector("#join-name", state="visible", timeout=LIMIT * 1000)
                    page.fill("#join-name", name)
                    page.press("#join-name", "Enter")
                return page

            print("1. Di and Bo take seats from two browsers")
            di = open_tab(di_browser, "Di")
            run.check(wait(lambda: "Di sits in seat 1" in host.text(), "Di's seat"), "Di sits")
            bo = open_tab(bo_browser, "Bo")
            run.check(wait(lambda: "Bo sits in seat 2" in host.text(), "Bo's seat"), "Bo sits")
            wait(lambda: "Di (you)" in tab_text(di) and "to move" in tab_text(di), "Di's screen")
            run.shot(di, "di-seated")

            print("2. Di reloads her tab on her turn: her seat, no form, and she can roll")
            sits = host.text().count("Di sits in seat 1")
            di.reload()
            run.check(
                wait(lambda: host.text().count("Di sits in seat 1") > sits, "Di back"),
                "the reloaded tab sits Di again",
            )
            run.check(not di.is_visible("#join-name"), "no name form after the reload")
            wait(lambda: "Di (you)" in tab_text(di), "Di's screen after the reload")
            time.sleep(1.5)
            di.keyboard.press("r")
            run.check(
                wait(lambda: "Di rolled" in tab_text(bo), "Di's roll on Bo's tab"),
                "Di rolls after the reload and Bo sees it",
            )
            run.shot(di, "di-after-reload")

            print("3. Di closes her tab and opens the link again (same browser)")
            di.close()
            gone = ("Di lost the connection", "Di quit")
            run.check(
                wait(lambda: any(word in host.text() for word in gone), "Di away"),
                "the host sees Di go",
            )
            sits = host.text().count("Di sits in seat 1")
            di = open_tab(di_browser, None)
            form = wait(lambda: di.is_visible("#join-name"), "the form", limit=10)
            if form:
                filled = di.input_value("#join-name")
                print(f"  the form asks her name again (filled in: {filled!r})")
                di.press("#join-name", "Enter")
            run.check(
                wait(lambda: host.text().count("Di sits in seat 1") > sits, "Di back"),
                "the reopened tab takes Di's seat",
            )
            run.check("kept for" not in tab_text(di), "no wait for her own seat")
            run.shot(di, "di-reopened")

            print("4. A second tab of Di's (same browser), the first still open")
            sits = host.text().count("Di sits in seat 1")
            second = open_tab(di_browser, None)
            if wait(lambda: second.is_visible("#join-name"), "the form", limit=10):
                second.press("#join-name", "Enter")
            time.sleep(8)
            count = host.text().count("Di sits in seat 1") - sits
            print(f"  Di sat {count} time(s) in 8 s with two tabs open")
            run.check(count == 1, "the two tabs do not take the seat from each other")
            run.check(
                wait(lambda: "played from another window" in tab_text(di), "the first tab told"),
                "the first tab says its seat is played from another window",
            )
            run.shot(di, "di-first-tab")
            run.shot(second, "di-second-tab")
            first_says = tab_text(di)[-3000:]
            last_words = " ".join(first_says.split())[-300:]
            print(f"  first tab's class: {body(di)!r}; last words: {last_words!r}")
            print(f"  second tab's class: {body(second)!r}")
            second.close()
            print("   Di reloads the first tab: her seat there again")
            sits = host.text().count("Di sits in seat 1")
            di.reload()
            run.check(
                wait(lambda: host.text().count("Di sits in seat 1") > sits, "Di back"),
                "the first tab, reloaded, takes the seat back",
            )
            sits = host.text().count("Di sits in seat 1")

            print("4b. Someone else's browser asks for Di's name while Di plays")
            other = open_tab(bo_browser, "Di")
            wait(lambda: "-closed" in body(other), "the other browser's tab closed")
            run.shot(other, "other-browser-as-di")
            shown = other.inner_text("div.ended-message")
            print(f"  the tab's class: {body(other)!r}; it says: {shown!r}")
            run.check("already playing" in shown, "the other browser is told Di is playing")
            other.close()

            print("5. The host is killed (-9); the tabs wait, then come back by themselves")
            host.stop(signal.SIGKILL)
            run.check(
                wait(
                    lambda: "-away" in body(bo) or "Reconnecting" in tab_text(bo),
                    "Bo's tab waiting",
                ),
                "Bo's tab says the host is away (or reconnecting)",
            )
            run.shot(bo, "bo-host-away")
            games = subprocess.run(
                [str(SNL), "games", "--json"], capture_output=True, text=True, env=env, timeout=60
            )
            game_id = max(game["id"] for game in json.loads(games.stdout))
            sits_bo = host.text().count("Bo sits in seat 2")
            host = Host(["host", "--resume", str(game_id), "--no-animation"], env, log)
            run.check(
                wait(lambda: host.text().count("Bo sits in seat 2") > sits_bo, "Bo back", 60),
                "Bo's tab is back in his seat by itself",
            )
            run.check(
                wait(lambda: host.text().count("Di sits in seat 1") > sits, "Di back", 60),
                "Di's tab is back in her seat by itself",
            )
            time.sleep(3)  # the tab's screen catches up
            run.shot(bo, "bo-after-resume")
            run.shot(di, "di-after-resume")

            for stop in range(args.stops):
                print(f"6.{stop + 1} The host stops (Ctrl+C to its process group, as a terminal")
                print("    sends it) and resumes; the tabs come back again")
                sits_bo = host.text().count("Bo sits in seat 2")
                sits = host.text().count("Di sits in seat 1")
                quits = host.text().count(" quit: ")
                host.stop(signal.SIGINT)
                said = host.text().strip().splitlines()
                print(f"  the host's last line: {said[-1]!r}")
                run.check(host.text().count(" quit: ") == quits, "the host says nobody quit")
                host = Host(["host", "--resume", str(game_id), "--no-animation"], env, log)
                for who, seat, before in (("Bo", 2, sits_bo), ("Di", 1, sits)):
                    line = f"{who} sits in seat {seat}"
                    run.check(
                        wait(
                            lambda h=host, t=line, n=before: h.text().count(t) > n,
                            f"{who} back",
                            60,
                        ),
                        f"{who}'s tab is back after a clean stop",
                    )
            run.shot(bo, "bo-after-clean-stops")
            chromium.close()
    finally:
        for process in (host, door):
            if process is not None and process.process.poll() is None:
                process.stop(signal.SIGTERM)
    print(f"{time.monotonic() - started:.0f} s; screenshots in {shots}; host log {log}")
    for problem in run.problems:
        print(f"PROBLEM: {problem}")
    return 1 if run.problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
