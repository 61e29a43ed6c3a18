"""A real xterm (``-ti vt340``: Sixel graphics) on a virtual screen, for the picture tests
and ``scripts/screenshots.py``.

``xterm_running(command, columns, lines)`` starts ``Xvfb`` on a free display (the first
of ``DISPLAYS`` without a lock file, or ``$SNL_TEST_DISPLAYS``, e.g. ``91-93``), then
``xterm`` running ``command``, and stops both (these processes only, by their ids)
afterwards. ``shot`` takes a screenshot of the
xterm window with ImageMagick's ``import``; ``press`` types keys into it with xdotool.
Skips the calling test when a program is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PROGRAMS = ("Xvfb", "xterm", "import", "xdotool")
DISPLAYS = range(91, 100)
FONT = "DejaVu Sans Mono"


def missing_programs() -> list[str]:
    return [program for program in PROGRAMS if shutil.which(program) is None]


@dataclass
class XTerm:
    display: str
    window: str

    def env(self) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display}

    def shot(self, path: Path) -> Path:
        """A screenshot of the window (retried while the window is still being mapped)."""
        deadline = time.monotonic() + 10
        while True:
            done = subprocess.run(
                ["import", "-window", self.window, str(path)],
                env=self.env(),
                capture_output=True,
                timeout=20,
            )
            if done.returncode == 0 or time.monotonic() > deadline:
                done.check_returncode()
                return path
            time.sleep(0.2)

    def press(self, *keys: str) -> None:
        subprocess.run(
            ["xdotool", "windowfocus", "--sync", self.window, "key", "--delay", "60", *keys],
            env=self.env(),
            check=False,
            capture_output=True,
            timeout=20,
        )


def _displays() -> range:
    wanted = os.environ.get("SNL_TEST_DISPLAYS", "")
    low, _, high = wanted.partition("-")
    if low.isdigit() and (high or low).isdigit():
        return range(int(low), int(high or low) + 1)
    return DISPLAYS


def _owns(server: subprocess.Popen[bytes], number: int) -> bool:
    """Whether display ``number`` is ``server``'s: its lock file names this process. Two
    tests (two xdist workers) may start an Xvfb on one free display at once; the loser
    exits, but the winner's socket is there, so the socket alone would send the loser's
    terminal and screenshots to the other test's screen."""
    try:
        return Path(f"/tmp/.X{number}-lock").read_text().strip() == str(server.pid)
    except OSError:
        return False


def _start_server() -> tuple[subprocess.Popen[bytes], int]:
    """Xvfb on the first free display of ``_displays()``, once its socket is there."""
    for number in _displays():
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        server = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and server.poll() is None:
            if _owns(server, number) and Path(f"/tmp/.X11-unix/X{number}").exists():
                return server, number
            time.sleep(0.05)
        if server.poll() is None:
            server.kill()
        server.wait()
    raise RuntimeError("no free X display for Xvfb")


def _has_font(name: str) -> bool:
    if shutil.which("fc-list") is None:
        return False
    done = subprocess.run(["fc-list", name], capture_output=True, text=True, timeout=10)
    return bool(done.stdout.strip())


@contextmanager
def xterm_running(
    command: str, columns: int = 80, lines: int = 24, env: dict[str, str] | None = None
) -> Iterator[XTerm]:
    """``command`` in an xterm of ``columns`` x ``lines`` on a fresh virtual screen."""
    server, number = _start_server()
    terminal: subprocess.Popen[bytes] | None = None
    try:
        display = f":{number}"
        font = ["-fa", FONT, "-fs", "10"] if _has_font(FONT) else []

        def launch() -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                ["xterm", "-ti", "vt340", "-geometry", f"{columns}x{lines}", *font, "-e", command],
                env={**(env or os.environ), "DISPLAY": display},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

        terminal = launch()
        window = ""
        starts = 1
        # Bounded: a loaded machine may take long to map the window, and an xterm that
        # found the new server not yet accepting connections exits at once: start it
        # again (a few times) rather than wait for a window that never comes.
        deadline = time.monotonic() + 60
        while not window and time.monotonic() < deadline:
            if terminal.poll() is not None:
                if starts >= 4:
                    break
                starts += 1
                time.sleep(0.5)
                terminal = launch()
            found = subprocess.run(
                ["xdotool", "search", "--pid", str(terminal.pid)],
                env={**os.environ, "DISPLAY": display},
                capture_output=True,
                text=True,
                timeout=10,
            )
            window = found.stdout.split()[0] if found.stdout.split() else ""
            if not window:
                time.sleep(0.1)
        if not window:
            raise RuntimeError(
                f"the xterm window never appeared ({starts} starts, last exit {terminal.poll()})"
            )
        yield XTerm(display, window)
    finally:
        for process in (terminal, server):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
