"""How fast the game draws: first frame and per-move repaint, against a minimal Textual app.

Run: ``python benchmarks/tui.py [--repeat N]``. Headless, 120x40, animation off.

* **launch -> first frame** (what a player waits for): from starting a new Python process
  to its first frame with the board drawn. The game side runs the real command line as
  the ``snl`` console script does (``from snl_tui.cli.main import main``, then ``snl play
  classic --no-animation``, which imports the app itself); an import hook makes the app
  headless and notes its first frame as ``snl_tui.app`` loads. (Importing ``snl_tui.app``
  first, as this benchmark once did, changes the import order and with it the garbage
  collector's work during the imports: it read 5-10% faster than the console script.)
  The baseline is the minimal app (one ``Static`` and a ``Footer``) in its own process.
  Both start from compiled bytecode, as an installed package does (a warm-up launch
  writes it to a temporary cache), and their runs alternate so that machine noise hits
  both alike.
* **first frame (in process)**: from creating the app object to the same frame, with
  every import already done: only Textual's and the game's work for that frame (for
  the game: its last board line drawn before ``Ready``, see ``TimedSnlApp``). The
  game's first frame is the board alone (``GameScreen.compose``); the header, footer and
  side panels mount right after it (``GameScreen.mount_panels``, ``call_after_refresh``).
* **full screen**: from creating the app to the first refresh with every panel mounted
  and showing the game (``GameScreen.ready``).
* **move -> frame**: from a roll (``GameScreen.action_roll``) until the screen has been
  refreshed, with the hint panel on (solver + analysis after every move) and off, over
  ``GAMES`` games of up to ``MOVES`` moves (one human seat, a seed each). Textual paints
  a screen on a 60 Hz grid: after a frame, the next one waits for the grid's next tick
  (up to 16.7 ms later); on a screen that has been still for a frame or more, the frame
  a change asks for is painted as soon as the change's own work is done. So each is
  measured twice:

  - *after a pause* (``PAUSE`` after the last frame): a player's key, which arrives long
    after the last frame (even a held key repeats every 30-50 ms); the figure is the
    move's own work plus painting its frame: what a player waits for.
  - *right after a frame* (the roll as soon as the last frame is out): the worst phase of
    the grid. The frame cannot come before the next tick, so this figure is about
    16.7 ms whenever the work and the paint take less than that (less a little: the
    roll starts a moment after the frame), whatever they take; above that it shows
    their excess.
* **board repaint**: the board widget alone: ``BoardView.show`` for the new positions plus
  rendering the lines it invalidated (what a move costs the Line-API widget), with the
  snakes and ladders drawn and with markers only (``j``).

``--picture`` prints the board-as-a-picture figures instead (issue 35):

* **launch -> board on screen, in a terminal**: ``snl play classic`` started in a
  pseudo-terminal (80x24, cells of 10x20 pixels) that answers the Device Attributes
  query as a Sixel terminal does (xterm -ti vt340: ``ESC [ ? 63 ; 4 c``), from the
  process's start to the board's first line in its output: the Sixel picture's end
  (``--graphics auto``: it asks the terminal, then draws pixels) or the text board's
  top line (``--graphics text``: the number 100 in the text, not in an escape sequence);
  the minimal app to its text. Runs alternate. Each also in the process's own CPU time
  to that output (``/proc/PID/task/*/schedstat``): on a loaded machine the wall clock
  counts the other processes' turns too (at load 8 on 2 CPUs its ratios move by 0.3).
* **move -> picture**: ``BoardView.show`` (its ``PictureRenderer``) for a move's new
  positions (one token, a
  die's throw or a jump) plus rendering the whole widget as Textual does (the frame
  drawn from the cached board; the tiles the move changed Sixel-encoded), at 80x24 and
  140x45 (10x20-pixel cells), on classic and everest, in CPU time (this process's: on
  a loaded machine the wall clock measures the other processes too).

``--bytes`` prints what reaches the terminal (issue 40): ``snl play classic`` (you and
the computer, seed 3) in a pseudo-terminal answering as xterm -ti vt340 at 80x24,
bytes written (all, and of them Sixel) at a launch with an empty picture cache and one
with the picture cached, for a roll (yours and the computer's answer), and for a resize
to 100x30, against one whole picture's Sixel at that size (``--old`` a checkout to
compare). Each step lasts until the app has been quiet for ``QUIET`` seconds.

Targets: first board frame within 1.3x the minimal app; a move's frame within one 60 Hz
frame (16.7 ms median) after a pause, hint on: right after a frame only the grid's
16.7 ms is left to see, and its excess, if any.
The launch figure is the one a player feels; the in-process one isolates the per-frame
work (Textual's style and layout passes dominate it: see the issue notes).
Each first-frame run starts after a ``gc.collect()``: otherwise the garbage of the runs
before lands a full collection in some runs and not others (a 100+ ms spread).

Only public Textual API: the first frame is Textual's ``Ready`` event ("the DOM is ready
and the first frame has been displayed", handled by ``on_ready`` in a subclass of each
app), and "refreshed" is ``call_after_refresh`` (its callback runs once the screen has
been repainted and nothing is left to paint).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import Footer, Static

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.widgets.board import BoardView

ROOT = Path(__file__).resolve().parents[1]
SIZE = (120, 40)
MOVES = 30
GAMES = 3
PAUSE = 0.05
"""Seconds between a frame and the next roll, in the "after a pause" figures: past the
60 Hz grid's next tick (16.7 ms), so no frame is pending when the roll comes."""


class MinimalApp(App[None]):
    """The baseline: the least a Textual app with a footer draws."""

    def compose(self) -> ComposeResult:
        yield Static("Hello, board")
        yield Footer()


class TimedMinimalApp(MinimalApp):
    """The minimal app, noting when its first frame is out."""

    first_frame: float | None = None

    def on_ready(self) -> None:
        self.first_frame = time.perf_counter()


class TimedSnlApp(SnlApp):
    """The game, noting when its first frame is out and when the full screen is.

    ``Ready`` is handled by the app's own task, which may run only after the game
    screen's has started mounting the side panels (queued for right after the first
    frame), so the frame is timed by the board instead: the last line it drew in the
    first frame (``timed_board_lines``).
    """

    first_frame: float | None = None
    """When ``Ready`` was handled."""
    board_drawn: float | None = None
    """When the last board line of the first frame was drawn."""
    first_frame_drawn = False
    """The event loop has turned since the first board line: that frame is complete."""
    full_screen: float | None = None

    def on_ready(self) -> None:
        self.first_frame = time.perf_counter()
        if self.board_drawn is None:
            raise RuntimeError("the first frame did not show the board")
        self.call_after_refresh(self.note_full_screen)

    def note_full_screen(self) -> None:
        if self.game_screen.ready:  # the panels are mounted and this refresh shows them
            self.full_screen = time.perf_counter()
        else:
            self.call_after_refresh(self.note_full_screen)


def timed_board_lines() -> None:
    """Make ``BoardView.render_line`` note, in a ``TimedSnlApp``, when it drew the last
    line of the first frame. A frame is drawn in one go, without the event loop turning:
    the first line schedules a callback that closes the count when the loop next turns."""
    render_line = BoardView.render_line

    def timed(view: BoardView, y: int) -> Strip:
        strip = render_line(view, y)
        app = view.app
        if isinstance(app, TimedSnlApp) and not app.first_frame_drawn:
            if app.board_drawn is None:
                asyncio.get_running_loop().call_soon(setattr, app, "first_frame_drawn", True)
            app.board_drawn = time.perf_counter()
        return strip

    setattr(BoardView, "render_line", timed)  # noqa: B010 - mypy: a method is replaced


async def refreshed(app: App[Any]) -> float:
    """The time at which the screen has been repainted with everything asked so far."""
    done: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def note() -> None:
        if not done.done():
            done.set_result(time.perf_counter())

    app.call_after_refresh(note)
    return await done


async def first_frame_minimal() -> float:
    start = time.perf_counter()
    app = TimedMinimalApp()
    async with app.run_test(size=SIZE) as pilot:
        while app.first_frame is None:
            await pilot.pause()
    return app.first_frame - start


async def first_frame_snl(board_name: str, *, full: bool = False) -> float:
    start = time.perf_counter()
    app = TimedSnlApp(board=load_board(board_name), seed=1, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        while app.board_drawn is None or app.full_screen is None:
            await pilot.pause()  # close the app as a player would: not mid-mount
    return (app.full_screen if full else app.board_drawn) - start


async def move_to_frame(board_name: str, hint: bool, *, pause: bool, seed: int) -> list[float]:
    """Seconds from each roll to the refreshed screen (one human player: no waiting);
    ``pause``: each roll comes ``PAUSE`` after the last frame, else right after it."""
    app = SnlApp(board=load_board(board_name), players=[Player("Ann")], seed=seed, animate=False)
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        while not screen.ready:
            await pilot.pause()
        if hint:
            screen.action_toggle_hint()
        await app.workers.wait_for_complete()  # the hint's first odds (a worker's)
        await pilot.pause()
        for _ in range(MOVES):
            if screen.game.over:
                break
            if pause:
                await asyncio.sleep(PAUSE)
            start = time.perf_counter()
            screen.action_roll()
            if screen.game.over:
                break  # the winner dialog covers the board: not a board repaint
            end = await refreshed(app)
            while screen.busy:  # the move is still being shown
                end = await refreshed(app)
            times.append(end - start)
    return times


async def board_repaint(board_name: str, drawn: bool = True) -> list[float]:
    """Seconds for BoardView.show plus rendering the lines it invalidated (``drawn``:
    with the jumps drawn, else markers only)."""
    app = SnlApp(board=load_board(board_name), players=[Player("Ann")], seed=1, animate=False)
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        while not screen.ready:
            await pilot.pause()
        await pilot.pause()
        view = screen.query_one(BoardView)
        view.jumps_drawn = drawn
        await pilot.pause()
        if drawn and not view.draws_jumps:
            raise RuntimeError("the squares are too small for drawn jumps at this size")
        game = screen.game
        height = view.size.height
        for _ in range(MOVES):
            if game.over:
                break
            game.roll()
            start = time.perf_counter()
            view.show(game.positions, (), game.current)
            view.follow(game.position)
            for y in range(height):  # cached lines cost a dict lookup and a crop
                view.render_line(y)
            times.append(time.perf_counter() - start)
    return times


LAUNCH_MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Static

class MinimalApp(App):
    def compose(self):
        yield Static("Hello, board")
        yield Footer()

    def on_ready(self):  # Textual: the first frame has been displayed
        print("FRAME", flush=True)
        self.exit()

MinimalApp().run(headless=True, size=SIZE)
"""

LAUNCH_SNL = """
import importlib.abc
import importlib.machinery
import sys


def first_frame(module):  # snl_tui.app, just imported by snl play: its app made headless
    from snl_tui.widgets.board import BoardView

    class FirstFrame(module.SnlApp):
        def on_ready(self):  # Textual: the first frame has been displayed
            painted = self.screen.query_one(BoardView).lines_painted
            print("FRAME" if painted else "NO BOARD", flush=True)
            self.call_after_refresh(self.quit_when_up)

        def quit_when_up(self):  # as a player would: not while the panels are mounting
            if self.game_screen.ready:
                self.exit()
            else:
                self.call_after_refresh(self.quit_when_up)

        def run(self, *args, **kwargs):
            return super().run(headless=True, size=SIZE)

    module.SnlApp = FirstFrame  # the command line creates this one


class AppHook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "snl_tui.app":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            first_frame(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, AppHook())
from snl_tui.cli.main import main  # as the snl console script starts

sys.exit(main(["play", BOARD, "--no-animation"]))
"""


def launch_seconds(code: str, env: dict[str, str]) -> float:
    """Seconds from starting ``python -c code`` to the line it prints at its first frame."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    seen = None
    for line in child.stdout:
        if line.startswith("FRAME") and seen is None:
            seen = time.perf_counter()
    if child.wait() != 0 or seen is None:
        raise RuntimeError(f"the launch benchmark's child failed (exit {child.returncode})")
    return seen - start


def launch_figures(repeat: int, boards: Sequence[str]) -> dict[str, float]:
    """Median launch -> first frame, per app, runs alternating between them."""
    codes = {"minimal": LAUNCH_MINIMAL.replace("SIZE", repr(SIZE))}
    for name in boards:
        code = LAUNCH_SNL.replace("SIZE", repr(SIZE)).replace("BOARD", repr(name))
        codes[name] = code
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache  # compiled once below, as pip does on install
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        # A store of its own (made by the warm-up launch): the player's saved games must
        # not put a resume dialog in front of some runs' first frame.
        env["SNL_DATA_DIR"] = os.path.join(cache, "data")
        times: dict[str, list[float]] = {label: [] for label in codes}
        for run in range(repeat + 1):
            for label, code in codes.items():
                seconds = launch_seconds(code, env)
                if run:  # run 0 writes the bytecode
                    times[label].append(seconds)
    return {label: statistics.median(values) for label, values in times.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def median_of(repeat: int, run: Callable[[], Awaitable[float]]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        times.append(await run())
    return statistics.median(times)


async def main(repeat: int) -> None:
    timed_board_lines()
    rows: list[tuple[str, float, float | None]] = []
    launched = launch_figures(repeat, ("classic", "everest"))
    rows.append(("launch -> first frame: minimal app", launched["minimal"], None))
    for name in ("classic", "everest"):
        ratio = launched[name] / launched["minimal"]
        rows.append((f"launch -> first frame: snl play {name}", launched[name], ratio))
    minimal = await median_of(repeat, first_frame_minimal)
    rows.append(("first frame (in process): minimal app", minimal, None))
    for name in ("classic", "everest"):
        first = await median_of(repeat, partial(first_frame_snl, name))
        rows.append((f"first frame (in process): snl {name}", first, first / minimal))
    for name in ("classic", "everest"):
        full = await median_of(repeat, partial(first_frame_snl, name, full=True))
        rows.append((f"full screen: snl {name}", full, full / minimal))
    for name in ("classic", "everest"):
        for hint in (False, True):
            for pause in (True, False):
                times = []
                for seed in range(1, GAMES + 1):
                    gc.collect()
                    times += await move_to_frame(name, hint, pause=pause, seed=seed)
                when = "after a pause" if pause else "right after a frame"
                label = f"move -> frame: {name}, hint {'on' if hint else 'off'}, {when} (median)"
                rows.append((label, statistics.median(times), None))
        for drawn in (True, False):
            repaint = await board_repaint(name, drawn)
            kind = "jumps drawn" if drawn else "markers only"
            median = statistics.median(repaint)
            rows.append((f"board repaint: {name}, {kind} (median)", median, None))
            rows.append((f"board repaint: {name}, {kind} (worst)", max(repaint), None))
    width = max(len(label) for label, *_ in rows)
    print(f"{'measure':<{width}}  {'time':>11}  {'vs minimal':>10}")
    for label, seconds, times_minimal in rows:
        shown = f"{times_minimal:9.2f}x" if times_minimal is not None else ""
        print(f"{label:<{width}}  {ms(seconds)}  {shown:>10}")


MINIMAL_TEXT = "Minimal"
PTY_MINIMAL = f"""
from textual.app import App
from textual.widgets import Footer, Static
class MinimalApp(App):
    def compose(self):
        yield Static("{MINIMAL_TEXT}")
        yield Footer()
MinimalApp().run()
"""
PTY_SNL = """
import sys
from snl_tui.cli.main import main
sys.exit(main(["play", "classic", "--no-animation", "--no-save", "--graphics", GRAPHICS]))
"""
SIXEL_ANSWER = b"\x1b[?63;4c"
"""xterm -ti vt340's answer to Device Attributes: level 3, with Sixel (4)."""


def rasterisers(repeat: int) -> list[tuple[str, float, float | None]]:
    """The board's picture (classic, 540x420 pixels) made by each candidate: Pillow
    drawing the geometry (what snl uses), resvg-py and CairoSVG rendering the export's
    SVG (when installed: neither is a dependency for the picture)."""
    import io

    from snl_tui.export import picture
    from snl_tui.export.svg import board_svg

    board = load_board("classic")
    svg = board_svg(board).encode()

    def pillow() -> None:
        picture.board_image.cache_clear()
        picture.board_image(board, 540, 420)

    candidates: dict[str, Callable[[], object]] = {"Pillow (snl)": pillow}
    try:
        import resvg_py

        # resvg refuses the page's size in millimetres ("invalid size"): in pixels.
        sized = svg.decode().replace('width="210mm" height="297mm"', 'width="540" height="764"')
        candidates["resvg-py (the export's SVG)"] = lambda: resvg_py.svg_to_bytes(svg_string=sized)
    except ImportError:
        pass
    try:
        import cairosvg

        candidates["CairoSVG (the export's SVG)"] = lambda: cairosvg.svg2png(
            bytestring=svg, output_width=540, write_to=io.BytesIO()
        )
    except (ImportError, OSError):
        pass
    rows: list[tuple[str, float, float | None]] = []
    for label, make in candidates.items():
        make()  # imports and fonts
        times = []
        for _ in range(max(3, repeat)):
            start = time.perf_counter()
            make()
            times.append(time.perf_counter() - start)
        rows.append((f"board picture, classic 540x420: {label}", statistics.median(times), None))
    return rows


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has had so far, all its threads (Linux's
    ``/proc/PID/task/*/schedstat``, in nanoseconds; NaN elsewhere)."""
    total = 0
    try:
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/schedstat", encoding="ascii") as stat:
                total += int(stat.read().split()[0])
    except (OSError, ValueError, IndexError):
        return math.nan
    return total / 1e9


def pty_launch_seconds(
    code: str, marker: Callable[[bytes], bool], env: dict[str, str], relay: bool = False
) -> tuple[float, float]:
    """(wall, CPU) seconds from starting ``python -c code`` in a pseudo-terminal until its
    output passes ``marker``: the CPU time is the process's own (on a loaded machine the
    wall clock also counts the other processes' turns). The terminal's answers: canned,
    as a Sixel terminal's (xterm -ti vt340 answering Device Attributes: ``ESC [ ? 63 ; 4
    c``), or with ``relay`` the real
    terminal's this benchmark runs in (its output goes there and its answers come back,
    the pseudo-terminal taking its size in cells and pixels)."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    leader, follower = pty.openpty()
    size = struct.pack("HHHH", 24, 80, 800, 480)
    if relay:
        size = fcntl.ioctl(sys.stdout.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
    fcntl.ioctl(follower, termios.TIOCSWINSZ, size)
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    seen: float | None = None
    cpu = math.nan
    output = b""
    watched = [leader, sys.stdin.fileno()] if relay else [leader]
    try:
        while seen is None and time.perf_counter() - start < 30:
            ready = select.select(watched, [], [], 1.0)[0]
            if leader in ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    break
                output += chunk
                if relay:
                    os.write(sys.stdout.fileno(), chunk)
                elif b"\x1b[c" in chunk:
                    os.write(leader, SIXEL_ANSWER)
                if marker(output):
                    seen = time.perf_counter()
                    cpu = cpu_seconds(child.pid)
            if relay and sys.stdin.fileno() in ready:
                os.write(leader, os.read(sys.stdin.fileno(), 4096))
    finally:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        os.close(leader)
        if relay:  # what a killed Textual app leaves on: its screen, the mouse, no cursor
            os.write(sys.stdout.fileno(), RESET)
    if seen is None:
        raise RuntimeError("the board never appeared in the terminal's output")
    return seen - start, cpu


RESET = b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[0m\x1b[2J"
_SIXEL = re.compile(rb"\x1bP[0-9;]*q.*?\x1b\\", re.DOTALL)


def sixel_drawn(output: bytes) -> bool:
    return _SIXEL.search(output) is not None


def picture_cached(data: Path, output: bytes) -> bool:
    """The picture is on screen and the board's picture is in the cache."""
    return sixel_drawn(output) and any((data / "cache" / "pictures").glob("*.json"))


def text_of_minimal(output: bytes) -> bool:
    return MINIMAL_TEXT.encode() in output


_ESCAPES = re.compile(rb"\x1b(?:\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\))")


def text_board_drawn(output: bytes) -> bool:
    """The character board's top square is on screen: its number in the text, not in an
    escape sequence (Textual turns the mouse on with ``ESC [ ? 1000 h`` before any frame)."""
    return b"100" in _ESCAPES.sub(b"", output)


def launch_runs(
    trees: dict[str, Path], graphics: Sequence[str], pictures: bool = True
) -> dict[str, Any]:
    """The launches to time: the minimal app, then ``snl play classic`` from each tree
    (label -> checkout) with each ``--graphics``; each with its code, its marker and
    whether it starts with an empty picture cache."""
    runs: dict[str, Any] = {"minimal": (PTY_MINIMAL, text_of_minimal, "")}
    for label, tree in trees.items():
        cached = (tree / "snl_tui" / "widgets" / "graphics_query.py").exists()
        for choice in graphics:
            code = PTY_SNL.replace("GRAPHICS", repr(choice))
            code = f"import sys; sys.path.insert(0, {str(tree)!r})\n" + code
            if choice == "text" or not pictures:  # in tmux, auto finds no pictures
                runs[f"{label}, {choice}"] = (code, text_board_drawn, "")
                continue
            runs[f"{label}, {choice}"] = (code, sixel_drawn, "warm" if cached else "")
            if cached:
                runs[f"{label}, {choice}, no cached picture"] = (code, sixel_drawn, "cold")
                runs[f"{label}, {choice}, no cached picture: characters first"] = (
                    code,
                    text_board_drawn,
                    "cold",
                )
    return runs


def pty_figures(
    repeat: int,
    trees: dict[str, Path],
    graphics: Sequence[str],
    relay: bool = False,
    pictures: bool = True,
) -> dict[str, tuple[float, float, float]]:
    """(median, p90, median CPU) seconds of each launch in ``launch_runs``, runs
    alternating (``pictures`` False: the terminal shows none, ``auto`` draws characters)."""
    runs = launch_runs(trees, graphics, pictures)
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"PYTHONPYCACHEPREFIX": cache}
        if not relay:
            env |= {"TERM": "xterm-256color", "COLORTERM": ""}
        times: dict[str, list[float]] = {label: [] for label in runs}
        cpu: dict[str, list[float]] = {label: [] for label in runs}
        for run in range(repeat + 1):
            for label, (code, marker, kind) in runs.items():
                data = os.path.join(cache, "data-" + label.split(",")[0])
                if kind == "cold":  # a new picture cache (and store) every run
                    data = os.path.join(cache, f"cold-{run}")
                if not run and kind == "warm":
                    # The warm-up is a player's earlier game: it lasts until the board's
                    # picture (jumps routed) is in the picture cache.
                    marker = partial(picture_cached, Path(data))
                seconds, used = pty_launch_seconds(
                    code, marker, env | {"SNL_DATA_DIR": data}, relay
                )
                if run:  # run 0 writes the bytecode (and the warm runs' picture cache)
                    times[label].append(seconds)
                    cpu[label].append(used)
    return {
        label: (statistics.median(values), p90(values), statistics.median(cpu[label]))
        for label, values in times.items()
    }


def p90(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


async def picture_moves(
    board_name: str, size: tuple[int, int], moves: int = 60, protocol: str = "sixel"
) -> list[float]:
    """CPU seconds per move for the picture: ``show`` (the frame made, the tiles that
    changed encoded) plus rendering the whole widget as Textual does."""
    import random

    from snl_tui.widgets.board_picture import PictureRenderer

    app = SnlApp(board=load_board(board_name), animate=False)
    app.pixels = protocol  # type: ignore[assignment]
    app.game_screen.computer_delay = 3600
    times = []
    async with app.run_test(size=size) as pilot:
        view = app.game_screen.query_one(BoardView)
        assert isinstance(view.renderer, PictureRenderer)
        for _ in range(2000):  # the board's picture is made in a thread
            if view.renderer.pixels is not None and view.renderer.pixels.jumps:
                break
            await pilot.pause(0.01)
        region = view.region.reset_offset
        view.render_lines(region)
        dice = random.Random(1)
        goal = view.board.goal
        positions = [1, 1]
        for move in range(moves):  # one token moves a die's throw (or jumps) at a time
            seat = move % 2
            positions[seat] = min(goal, positions[seat] + dice.randint(1, 6))
            if dice.random() < 0.2:
                positions[seat] = dice.randint(1, goal)
            gc.collect()
            # CPU time: on a shared, loaded machine the wall clock measures the others.
            start = time.process_time()
            view.show(positions, (), seat)
            view.render_lines(region)
            times.append(time.process_time() - start)
    return times


def launch_rows(
    launched: dict[str, tuple[float, float, float]], where: str
) -> list[tuple[str, float, float | None]]:
    """The launch figures, each against the minimal app's: wall clock (median, p90) and
    the process's CPU time to the same output (median; steady under load)."""
    rows: list[tuple[str, float, float | None]] = []
    minimal, _, minimal_cpu = launched["minimal"]
    for label, (median, worst, cpu) in launched.items():
        name = "minimal app" if label == "minimal" else f"snl play classic ({label})"
        ratio = None if label == "minimal" else median / minimal
        rows.append((f"launch -> board, {where}: {name} (median)", median, ratio))
        rows.append((f"launch -> board, {where}: {name} (p90)", worst, None))
        cpu_ratio = None if label == "minimal" else cpu / minimal_cpu
        rows.append((f"launch -> board, {where}: {name} (CPU, median)", cpu, cpu_ratio))
    return rows


def print_rows(rows: Sequence[tuple[str, float, float | None]]) -> None:
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    width = max(len(label) for label, *_ in rows)
    print(f"{'measure':<{width}}  {'time':>11}  {'vs minimal':>10}")
    for label, seconds, times_minimal in rows:
        shown = f"{times_minimal:9.2f}x" if times_minimal is not None else ""
        print(f"{label:<{width}}  {ms(seconds)}  {shown:>10}")


def trees_of(old: str | None) -> dict[str, Path]:
    trees = {"new": ROOT}
    if old:
        trees["old"] = Path(old).resolve()
    return trees


async def picture_main(repeat: int, old: str | None) -> None:
    rows: list[tuple[str, float, float | None]] = rasterisers(repeat)
    launched = pty_figures(repeat, trees_of(old), ("text", "auto"))
    rows += launch_rows(launched, "pty answering as xterm -ti vt340")
    for name in ("classic", "everest"):
        for size in ((80, 24), (140, 45)):
            times = await picture_moves(name, size)
            where = f"{name} at {size[0]}x{size[1]}"
            rows.append((f"move -> picture: {where} (median)", statistics.median(times), None))
            rows.append((f"move -> picture: {where} (p90)", p90(times), None))
    for size in ((80, 24), (140, 45)):
        times = await picture_moves("classic", size, protocol="kitty")
        where = f"classic at {size[0]}x{size[1]}, Kitty's protocol (a PNG a frame)"
        rows.append((f"move -> picture: {where} (median)", statistics.median(times), None))
        rows.append((f"move -> picture: {where} (p90)", p90(times), None))
    print_rows(rows)


def in_terminal(repeat: int, old: str | None, graphics: str, out: str) -> None:
    """Run inside a real terminal (``--xterm`` and ``--tmux`` start this in one): the
    launch figures with that terminal answering, written as JSON to ``out``."""
    import termios
    import tty

    saved = termios.tcgetattr(sys.stdin.fileno())
    tty.setraw(sys.stdin.fileno())
    try:
        choices = graphics.removesuffix(":text-only").split(",")
        pictures = not graphics.endswith(":text-only")
        launched = pty_figures(repeat, trees_of(old), choices, relay=True, pictures=pictures)
    except Exception as error:  # reported by the parent
        launched = {"error": (0.0, 0.0, 0.0)}
        Path(out + ".error").write_text(repr(error), encoding="utf-8")
    finally:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSANOW, saved)
    Path(out).write_text(json.dumps(launched), encoding="utf-8")


def real_terminal_main(repeat: int, old: str | None, terminal: str) -> None:
    """The launch figures in a real xterm (``-ti vt340``, Sixel) under Xvfb, or in tmux
    (no Sixel: the text board; ``auto`` finds no pictures there)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "figures.json")
        here = [sys.executable, str(Path(__file__).resolve()), "--repeat", str(repeat)]
        if old:
            here += ["--old", old]
        graphics = "text,auto" if terminal == "xterm" else "text,auto:text-only"
        here += ["--in-terminal", out, "--graphics", graphics]
        command = " ".join(f"'{part}'" for part in here)
        if terminal == "xterm":
            sys.path.insert(0, str(ROOT))
            from tests.e2e.xterm import xterm_running

            with xterm_running(command, 80, 24):
                wait_for(out, 60 + 20 * repeat)
        else:
            session = f"snl-bench-{os.getpid()}"
            subprocess.run(
                ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
                check=True,
            )
            try:
                wait_for(out, 60 + 20 * repeat)
            finally:
                subprocess.run(
                    ["tmux", "kill-session", "-t", session], check=False, capture_output=True
                )
        if os.path.exists(out + ".error"):
            raise SystemExit(Path(out + ".error").read_text(encoding="utf-8"))
        figures = json.loads(Path(out).read_text())
        launched = {k: (v[0], v[1], v[2]) for k, v in figures.items()}
    where = "xterm -ti vt340 under Xvfb" if terminal == "xterm" else "tmux"
    print_rows(launch_rows(launched, where))


QUIET = 1.5
"""Seconds without output after which a launch, a roll or a resize is done sending."""


def _read_until_quiet(leader: int, child: subprocess.Popen[bytes], limit: float = 60) -> bytes:
    """What the app writes until it has been quiet for ``QUIET`` seconds (answering the
    terminal queries as xterm -ti vt340 does)."""
    import select

    output = b""
    start = last = time.monotonic()
    # Quiet counts from the first byte (a loaded machine may take seconds to start).
    while (not output or time.monotonic() - last < QUIET) and time.monotonic() - start < limit:
        if child.poll() is not None:
            break
        if select.select([leader], [], [], 0.1)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            output += chunk
            last = time.monotonic()
            if b"\x1b[c" in chunk:
                os.write(leader, b"\x1b[6;20;10t" + SIXEL_ANSWER)
    return output


def _sixel_bytes(output: bytes) -> int:
    return sum(len(found.group(0)) for found in _SIXEL.finditer(output))


def _one_picture(data: Path, since: float) -> int:
    """Bytes of one whole board picture: the tiles of the newest cached picture."""
    folder = data / "cache" / "pictures"
    newest = max(folder.glob("*.json"), key=lambda path: path.stat().st_mtime, default=None)
    if newest is None or newest.stat().st_mtime < since:
        return 0
    return sum(len(tile[4]) for tile in json.loads(newest.read_text(encoding="ascii")))


def byte_figures(tree: Path, data: Path) -> dict[str, tuple[int, int, int]]:
    """(bytes written, of them Sixel, one picture's Sixel) for ``snl play classic``
    (you and the computer) in a pseudo-terminal answering as xterm -ti vt340 at 80x24
    (10x20-pixel cells): a launch with the picture cache of ``data`` as it is, a roll
    (the computer's answer included), a resize to 100x30."""
    import fcntl
    import pty
    import struct
    import termios

    you_and_cpu = '"classic", "--players", "You,cpu", "--seed", "3", '
    code = PTY_SNL.replace('"classic", ', you_and_cpu).replace("GRAPHICS", repr("auto"))
    code = f"import sys; sys.path.insert(0, {str(tree)!r})\n" + code
    env = {**os.environ, "SNL_DATA_DIR": str(data), "TERM": "xterm-256color", "COLORTERM": ""}
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 800, 480))
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    figures: dict[str, tuple[int, int, int]] = {}
    try:
        since = time.time()
        launch = _read_until_quiet(leader, child)
        figures["launch"] = (len(launch), _sixel_bytes(launch), _one_picture(data, since - 60))
        os.write(leader, b"r")
        roll = _read_until_quiet(leader, child)
        figures["roll"] = (len(roll), _sixel_bytes(roll), figures["launch"][2])
        since = time.time()
        fcntl.ioctl(leader, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 1000, 600))
        os.killpg(child.pid, signal.SIGWINCH)  # its own session: no terminal tells it
        resize = _read_until_quiet(leader, child)
        figures["resize"] = (len(resize), _sixel_bytes(resize), _one_picture(data, since - 1))
    finally:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        os.close(leader)
    return figures


def bytes_main(old: str | None) -> None:
    """What reaches the terminal: bytes at a cold and a warm launch, per roll and per
    resize, against one picture's (its tiles' Sixel)."""
    rows = []
    for label, tree in trees_of(old).items():
        with tempfile.TemporaryDirectory() as folder:
            data = Path(folder)
            cold = byte_figures(tree, data)
            warm = byte_figures(tree, data)["launch"][:2] + cold["launch"][2:]
            rows.append((f"{label}: launch (cold)", *cold["launch"]))
            rows.append((f"{label}: launch (picture cached)", *warm))
            rows.append((f"{label}: roll (yours and the computer's)", *cold["roll"]))
            rows.append((f"{label}: resize 80x24 -> 100x30", *cold["resize"]))
    width = max(len(row[0]) for row in rows)
    print(
        f"{'pty as xterm -ti vt340, classic 80x24':<{width}}  {'bytes':>9}  "
        f"{'Sixel':>9}  {'one picture':>11}  {'pictures':>8}"
    )
    for name, total, sixel, picture in rows:
        times = f"{sixel / picture:7.2f}x" if picture else ""
        print(f"{name:<{width}}  {total:>9,}  {sixel:>9,}  {picture:>11,}  {times:>8}")


def wait_for(path: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise SystemExit(f"no figures from the terminal after {seconds:.0f} s")
        time.sleep(0.2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per first-frame figure")
    parser.add_argument(
        "--picture", action="store_true", help="the board-as-a-picture figures (issue 35)"
    )
    parser.add_argument(
        "--old", help="a checkout of an older snl to time beside this one (launch figures)"
    )
    parser.add_argument(
        "--xterm", action="store_true", help="the launch figures in a real xterm under Xvfb"
    )
    parser.add_argument("--tmux", action="store_true", help="the launch figures in tmux")
    parser.add_argument(
        "--bytes", action="store_true", help="bytes sent at a launch, a roll, a resize (issue 40)"
    )
    parser.add_argument("--in-terminal", help=argparse.SUPPRESS)
    parser.add_argument("--graphics", default="text,auto", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.in_terminal:
        in_terminal(arguments.repeat, arguments.old, arguments.graphics, arguments.in_terminal)
    elif arguments.xterm or arguments.tmux:
        real_terminal_main(arguments.repeat, arguments.old, "xterm" if arguments.xterm else "tmux")
    elif arguments.bytes:
        bytes_main(arguments.old)
    elif arguments.picture:
        asyncio.run(picture_main(arguments.repeat, arguments.old))
    else:
        asyncio.run(main(arguments.repeat))
