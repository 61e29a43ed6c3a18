"""Real hands on a real terminal: snl in xterm (``-ti vt340``: Sixel), mlterm or kitty on
a private virtual screen, handled as a person would (issue 40).

``hands_run(terminal, command, actions, shots)`` starts the terminal running ``command``
(an ``snl`` command line) under ``sh``, waits for the board's picture, then takes
``actions`` actions (the same ones for a seed), each as soon as the terminal has taken
the one before: moves the pointer all over the board, clicks, drags, turns the wheel,
types keys, resizes the window once half way, and presses ``q``. It reports what a
player would notice: whether snl was still running before ``q``, its exit status after,
the crash files in its data folder, whether the terminal was left clean (its modes back:
typing after snl gives plain text, no mouse reports; no picture left on the screen).
Screenshots go to ``shots``. ``scripts/real_hands.py`` runs it longer, the suite for a few
dozen actions (``tests/e2e/test_real_hands.py``). Every wait is bounded.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .xterm import FONT, _has_font, _start_server

TERMINALS = ("xterm", "mlterm", "kitty")
NEEDS = {"xterm": "xterm", "mlterm": "mlterm", "kitty": "kitty"}
COMMON = ("Xvfb", "xdotool", "import")
PICTURE_WAIT = 60.0
"""Seconds the picture may take to appear (a loaded machine, software GL for kitty)."""


def missing(terminal: str) -> list[str]:
    """The programs ``terminal``'s run needs that are not installed."""
    return [p for p in (*COMMON, NEEDS[terminal]) if shutil.which(p) is None]


@dataclass
class HandsReport:
    alive_before_quit: bool = False
    status: int | None = None
    crashes: list[str] = field(default_factory=list)
    typed_after: str = ""
    picture_seen: bool = False
    picture_left: bool = True
    actions: int = 0

    @property
    def clean(self) -> bool:
        return self.typed_after == "ok" and not self.picture_left


def board_box(path: Path) -> tuple[int, int, int, int] | None:
    """The bounding box of the board picture's square colours in a screenshot."""
    import numpy as np
    from PIL import Image

    from snl_tui.export.svg import THEME_COLOURS

    colours = THEME_COLOURS["colour"]
    wanted = [
        (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) for c in (colours.light, colours.dark)
    ]
    with Image.open(path) as shot:
        image = shot.convert("RGB")
    small = image.resize((image.width // 4, image.height // 4), Image.Resampling.NEAREST)
    pixels = np.asarray(small, dtype=np.int32)
    mask = np.zeros(pixels.shape[:2], dtype=bool)
    for colour in wanted:
        mask |= np.abs(pixels - np.array(colour)).sum(axis=2) < 24
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not len(rows):
        return None
    box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
    left, top, right, bottom = (4 * v for v in box)
    return (left, top, right, bottom) if right - left > 120 and bottom - top > 120 else None


class Session:
    """One terminal on one virtual screen."""

    def __init__(self, terminal: str, script: str, work: Path) -> None:
        self.server, number = _start_server()
        self.display = f":{number}"
        self.env = {**os.environ, "DISPLAY": self.display}
        sh = ["sh", "-c", script]
        if terminal == "xterm":
            font = ["-fa", FONT, "-fs", "10"] if _has_font(FONT) else []
            argv = ["xterm", "-ti", "vt340", "-geometry", "100x30", *font, "-e", *sh]
        elif terminal == "mlterm":
            argv = ["mlterm", "-g", "100x30", "-e", *sh]
        else:
            self.env["LIBGL_ALWAYS_SOFTWARE"] = "1"
            argv = [
                "kitty",
                "--config",
                "NONE",
                "-o",
                "initial_window_width=1000",
                "-o",
                "initial_window_height=600",
                *sh,
            ]
        self.window = ""
        # A terminal that finds the new X server not yet accepting connections exits at
        # once: started again (a few times) rather than waited for.
        for _ in range(4):
            self.process = subprocess.Popen(
                argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            deadline = time.monotonic() + 60
            while not self.window and time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                found = self.xdotool("search", "--pid", str(self.process.pid))
                self.window = found.split()[0] if found.split() else ""
                time.sleep(0.2)
            if self.window:
                break
            time.sleep(0.5)
        self.work = work

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20
        )
        return done.stdout

    def window_box(self) -> tuple[int, int, int, int]:
        """The terminal window's box on the screen (a default when not known)."""
        found = self.xdotool("getwindowgeometry", "--shell", self.window) if self.window else ""
        values = dict(line.split("=", 1) for line in found.splitlines() if "=" in line)
        try:
            x, y = int(values["X"]), int(values["Y"])
            return (x + 2, y + 2, x + int(values["WIDTH"]) - 2, y + int(values["HEIGHT"]) - 2)
        except (KeyError, ValueError):
            return (20, 40, 500, 400)

    def shot(self, path: Path) -> Path:
        subprocess.run(
            ["import", "-window", "root", str(path)], env=self.env, capture_output=True, timeout=30
        )
        return path

    def close(self) -> None:
        for process in (self.process, self.server):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def _wait(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.3)
    return False


def hands_run(
    terminal: str,
    command: list[str],
    actions: int,
    shots: Path,
    seed: int = 40,
    picture: bool = True,
    opening: Sequence[str] = (),
    keys: Sequence[str] = ("r", "space", "Up", "Left", "z"),
) -> HandsReport:
    """See the module's docstring. ``command``'s ``SNL_DATA_DIR`` is ``shots/data``;
    ``picture`` False: the screen shows no picture (``snl learn``, a dialog), the
    pointer goes all over the window. ``opening``: keys (xdotool's names) typed once
    the screen is up (a dialog's key); ``keys``: those typed at random."""
    rng = random.Random(seed)
    shots.mkdir(parents=True, exist_ok=True)
    data = shots / "data"
    data.mkdir(exist_ok=True)
    status, after = shots / "status", shots / "typed-after"
    for stale in (status, after):
        stale.unlink(missing_ok=True)
    snl = " ".join(shlex.quote(part) for part in command)
    # After snl: its status, then what typing gives (mouse reports if a mode was left on).
    script = (
        f"SNL_DATA_DIR={shlex.quote(str(data))} {snl}; echo $? > {status}; "
        f'IFS= read -r line; printf %s "$line" > {after}; sleep 60'
    )
    report = HandsReport()
    session = Session(terminal, script, shots)
    try:
        box: tuple[int, int, int, int] | None = None

        def pictured() -> bool:
            nonlocal box
            box = board_box(session.shot(shots / f"{terminal}-0-start.png"))
            return box is not None

        if picture:
            report.picture_seen = _wait(pictured, PICTURE_WAIT)
        else:
            time.sleep(5)  # the first frame
        for key in opening:
            session.xdotool("key", key)
            time.sleep(0.5)
        if opening or not picture:
            time.sleep(1)
            session.shot(shots / f"{terminal}-0-open.png")
        if box is None or not picture:
            box = session.window_box()
        left, top, right, bottom = box
        resized = False
        # A count, not a time: as many actions on a loaded machine as on a quiet one.
        while report.actions < actions and not status.exists():
            report.actions += 1
            x, y = rng.randrange(left, right), rng.randrange(top, bottom)
            session.xdotool("mousemove", str(x), str(y))
            kind = rng.randrange(8)
            if kind == 0:
                session.xdotool("click", "1")
            elif kind == 1:
                session.xdotool("click", str(rng.choice((4, 5))))
            elif kind == 2:  # a drag
                session.xdotool("mousedown", "1")
                session.xdotool("mousemove", str(rng.randrange(left, right)), str(y))
                session.xdotool("mouseup", "1")
            elif kind == 3:
                session.xdotool("key", rng.choice(keys))
            if not resized and report.actions >= actions // 2 and session.window:
                resized = True
                session.xdotool("windowsize", session.window, "900", "620")
                # The board is elsewhere now: the pointer stays on it (not the footer).
                if picture:
                    _wait(pictured, PICTURE_WAIT)
                else:
                    time.sleep(2)
                    box = session.window_box()
                if box is not None:
                    left, top, right, bottom = box
        report.alive_before_quit = not status.exists() and session.process.poll() is None
        session.shot(shots / f"{terminal}-1-hands.png")
        session.xdotool("key", "q")
        # The shell creates the status file before ``echo`` writes the line: wait for it.
        exited = lambda: status.exists() and status.read_text().endswith("\n")  # noqa: E731
        if not _wait(exited, 10):  # a dialog the keys opened: closed first
            session.shot(shots / f"{terminal}-1-quit-1.png")
            # Apart: an Escape followed at once by another key reaches Textual as one
            # key with alt (the second Escape, or q, was lost that way).
            for key in ("Escape", "Escape", "q"):
                session.xdotool("key", key)
                time.sleep(0.4)
            if not _wait(exited, 5):  # the editor asks about unsaved changes
                session.shot(shots / f"{terminal}-1-quit-2.png")
                session.xdotool("key", "d")
            if not _wait(exited, 5):  # a replay over the game: back to it first
                session.shot(shots / f"{terminal}-1-quit-3.png")
                session.xdotool("key", "q")
            _wait(exited, 20)
        if status.exists():
            report.status = int(status.read_text().strip() or -1)
            time.sleep(0.5)
            for x in (50, 300, 500):
                session.xdotool("mousemove", str(x), str(x // 2))
                session.xdotool("click", "1")
            session.xdotool("type", "ok")
            session.xdotool("key", "Return")
            _wait(lambda: after.exists() and after.stat().st_size > 0, 10)
            time.sleep(0.3)
            report.typed_after = after.read_text(errors="replace") if after.exists() else ""
            shot = session.shot(shots / f"{terminal}-2-after-quit.png")
            report.picture_left = board_box(shot) is not None
    finally:
        session.close()
    report.crashes = sorted(path.name for path in data.glob("crash-*.txt"))
    return report
