"""Board studio benchmarks (issue 11 item 6): the generator's part and the editor's part.

Editor: edit -> numbers on screen at most 50 ms on a 10x10 board and 250 ms on 20x20,
with the screen still answering keys meanwhile. Measured in a headless ``App.run_test``
with the ``NumbersPanel`` mounted: the time from ``show_board`` (after an edit: a ladder
added, then removed again, alternately) until the panel shows that board's figures, and
separately until the jump effects (the cursor line) are there; median over N edits, each
on a board never analysed before. A key press sent while a computation runs must be
handled before the computation ends would have to allow (it is timed too).

``snl generate --size 10 --expected-turns T`` for T in 15, 25, 40, 60 must take at most
2 s each (median over 5 seeds), and at most 10 s on a 20x20 board. Each run is the real
command in a fresh process (start-up and numpy's import included); the generator's own
search time (as it reports it) is shown beside it.

Designers' targets (issue 22): for each (a sparse short game, jumps kept, zones, the
longest jump, jumps in all, a unique route, a tail), how many seeds meet it, how fast, and
how many jumps the boards have.

Boards that look real (issue 33), before and after in one run: ``--before REF`` exports
that commit's ``snl_tui`` to a temporary folder and generates the same boards with it
(``--expected-turns T`` alone, 10x10, ``--looks-seeds`` seeds) as with this checkout's;
for each: the median ladders and snakes, the longest jump, how many boards have a square
in two jumps or a jump drawn over another's end (``checks.drawn_over``, this checkout's,
for both), how many `snl check` warns about, and the search time.

Boards that look designed (issue 45), before and after in one run (``--before REF`` as
above): over ``--design-seeds`` seeds (30) at 20, 30 and 50 expected turns, how many
generated jumps stay within one row, how many twin pairs cross as an X or run side by
side, how many pairs of drawn jumps run close for more than a square (and on how many
boards), the longest such run on the worst and the median board (``geometry.
closeness``), and how many numbers sit side by side too close to read apart; each
checkout's generator and drawing, measured by this checkout's rules.

Run:  python benchmarks/studio.py [--seeds 5] [--quick] [--edits 21]
      [--editor-only | --generator-only | --targets-only | --looks-only | --design-only]
      [--before REF] [--looks-seeds 20] [--design-seeds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

SNL = [sys.executable, "-m", "snl_tui"]
CASES: list[tuple[int, float, float]] = [
    # (size, expected turns, limit in seconds for the median)
    (10, 15, 2.0),
    (10, 25, 2.0),
    (10, 40, 2.0),
    (10, 60, 2.0),
    (20, 40, 10.0),
    (20, 100, 10.0),
]


def run_generate(size: int, turns: float, seed: int) -> tuple[float, float, int, str]:
    """(wall seconds, search seconds, exit code, figures line) of one real run."""
    command = [
        *SNL,
        "generate",
        "--size", str(size),
        "--expected-turns", str(turns),
        "--seed", str(seed),
    ]  # fmt: skip
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=Path(__file__).parent)
    wall = time.perf_counter() - began
    line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    match = re.search(r"([\d.]+) s\)", line)
    search = float(match.group(1)) if match else float("nan")
    return wall, search, done.returncode, line


EDITOR_CASES: list[tuple[str, float]] = [
    # (board, limit in milliseconds for the median edit -> numbers on screen)
    ("classic", 50.0),
    ("everest", 250.0),
]


def _edits(board: object, count: int) -> list[object]:
    """``count`` boards, each one edit from the one before: a ladder added on a free
    square pair, then removed again, with a different pair each time (so each board is
    new to the analysis cache)."""
    from snl_tui.core.board import Board
    from snl_tui.core.errors import SnlError
    from snl_tui.core.studio.edit import AddJump, RemoveJump

    assert isinstance(board, Board)
    used = set(board.jumps) | set(board.jumps.values()) | {1, board.goal}
    free = [s for s in range(2, board.goal) if s not in used]
    boards: list[Board] = []
    current = board
    pairs = [(a, b) for a, b in zip(free, free[len(free) // 2 :], strict=False) if b > a]
    for i in range(count):
        start, end = pairs[(i // 2) % len(pairs)]
        try:
            edit = AddJump(start, end) if i % 2 == 0 else RemoveJump(start)
            current = edit.apply(current)  # type: ignore[attr-defined]
        except SnlError:  # an edit the core refuses: try the next pair
            continue
        boards.append(current)
    return boards


async def _editor_case(name: str, edits: int) -> dict[str, float]:
    from textual.app import App, ComposeResult
    from textual.widgets import Input

    from snl_tui.core.files.formats import load_board
    from snl_tui.core.odds.analysis import clear_cache
    from snl_tui.widgets.studio_panel import NumbersPanel

    class Bench(App[None]):
        """The panel and an input; records when each board's figures are shown."""

        def __init__(self) -> None:
            super().__init__()
            self.shown_at: dict[int, float] = {}
            self.shown = asyncio.Event()
            self.typed_at = 0.0

        def compose(self) -> ComposeResult:
            yield NumbersPanel()
            yield Input(id="typing")

        def on_numbers_panel_computed(self, message: NumbersPanel.Computed) -> None:
            self.shown_at[id(message.board)] = time.perf_counter()
            self.shown.set()

        def on_input_changed(self) -> None:
            self.typed_at = time.perf_counter()

    board = load_board(name)
    boards = _edits(board, edits)
    app = Bench()
    figures_ms: list[float] = []
    effects_ms: list[float] = []
    key_ms: list[float] = []
    keys_during = 0
    async with app.run_test(size=(100, 50)) as pilot:
        panel = app.query_one(NumbersPanel)
        typing = app.query_one("#typing", Input)
        typing.focus()
        panel.show_board(board, 1)
        while panel.computing or panel.effects is None:
            await pilot.pause()
        clear_cache()
        for index, edited in enumerate(boards):
            app.shown.clear()
            began = time.perf_counter()
            panel.show_board(edited, 1)
            if index % 2 == 1:
                # A key while the computation runs: it must be handled at once.
                await pilot.press("x")
                key_ms.append((app.typed_at - began) * 1000)
            while id(edited) not in app.shown_at:  # wait on the condition, not the clock
                await app.shown.wait()
                app.shown.clear()
            figures_ms.append((app.shown_at[id(edited)] - began) * 1000)
            if index % 2 == 1:  # was the key handled before this board's figures came?
                keys_during += app.typed_at < app.shown_at[id(edited)]
            while panel.effects is None:
                await pilot.pause()
            effects_ms.append((time.perf_counter() - began) * 1000)
            await pilot.pause()
    return {
        "squares": board.goal,
        "figures": statistics.median(figures_ms),
        "figures_max": max(figures_ms),
        "effects": statistics.median(effects_ms),
        "key": statistics.median(key_ms) if key_ms else float("nan"),
        "keys_during": keys_during,
        "keys": len(key_ms),
    }


def editor_benchmark(edits: int) -> bool:
    """Print the editor's figures; True when every median is within its limit."""
    ok_all = True
    print(
        f"{'board':>8} {'squares':>7} {'numbers (median)':>17} {'max':>8} "
        f"{'+ jump effects':>15} {'key':>8}  keys before figures  ok"
    )
    for name, limit in EDITOR_CASES:
        figures = asyncio.run(_editor_case(name, edits))
        ok = figures["figures"] <= limit
        ok_all &= ok
        print(
            f"{name:>8} {figures['squares']:>7.0f} {figures['figures']:>14.1f} ms "
            f"{figures['figures_max']:>5.0f} ms {figures['effects']:>12.1f} ms "
            f"{figures['key']:>5.0f} ms  {figures['keys_during']:.0f} of {figures['keys']:.0f}"
            f"{'':>5}{'yes' if ok else 'NO'} (limit {limit:g} ms)"
        )
    return ok_all


TARGET_CASES: list[tuple[str, list[str]]] = [
    # (what the designer asked, snl generate's options): issue 22's targets
    ("8x8 for 8 turns", ["--size", "8", "--expected-turns", "8"]),
    ("keep 3 jumps, 30 turns", ["--keep", "{keep}", "--expected-turns", "30"]),
    (
        "zones, 30 turns",
        ["--expected-turns", "30", "--safe-start", "15", "--no-snakes-in-last-row"],
    ),
    ("longest jump 20, 30 turns", ["--expected-turns", "30", "--longest-jump", "20"]),
    ("7 jumps in all, 30 turns", ["--expected-turns", "30", "--jumps", "7"]),
    ("unique route, 8x8, 5 rolls", ["--size", "8", "--least-rolls", "5", "--unique-route"]),
    ("90% within 25 turns", ["--within", "25", "--share", "0.9"]),
]
KEPT = 'name = "kept"\nsize = 10\nladders = [[4, 40], [33, 70]]\nsnakes = [[88, 24]]\n'


def targets_benchmark(seeds: int) -> None:
    """Each of the designer's targets: how often it is met (exit 0) and how fast, in a
    fresh process per seed (start-up included), and the jumps on the boards found."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        keep = Path(folder) / "kept.toml"
        keep.write_text(KEPT)
        print(f"{'target':<28} {'met':>5} {'median wall':>12} {'max wall':>9} {'jumps':>9}")
        for label, options in TARGET_CASES:
            argv = [option.replace("{keep}", str(keep)) for option in options]
            walls, met, jumps = [], 0, []
            for seed in range(1, seeds + 1):
                began = time.perf_counter()
                done = subprocess.run(
                    [*SNL, "generate", *argv, "--seed", str(seed)],
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                walls.append(time.perf_counter() - began)
                if done.returncode == 0:
                    met += 1
                    found = re.search(r"(\d+) ladders?, (\d+) snakes?", done.stderr)
                    if found:
                        jumps.append(int(found[1]) + int(found[2]))
            spread = f"{min(jumps)}-{max(jumps)}" if jumps else "-"
            print(
                f"{label:<28} {met:>2}/{seeds:<2} {statistics.median(walls):>10.2f} s "
                f"{max(walls):>7.2f} s {spread:>9}"
            )


LOOKS_SCRIPT = """
import json, sys, time
from snl_tui.core.studio.generate import Targets, generate
turns, seeds = float(sys.argv[1]), int(sys.argv[2])
rows = []
for seed in range(seeds):
    began = time.perf_counter()
    result = generate(Targets(expected_turns=turns), seed=seed, time_limit=30)
    board = result.board
    jumps = sorted(board.jumps.items()) if board is not None else None
    rows.append({"jumps": jumps, "seconds": time.perf_counter() - began})
print(json.dumps(rows))
"""
LOOKS_TURNS = (20.0, 40.0)


def _looks_of(source: Path, turns: float, seeds: int) -> list[dict[str, object]]:
    """The boards the generator in ``source`` (a folder holding ``snl_tui``) makes."""
    import json
    import os

    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", LOOKS_SCRIPT, str(turns), str(seeds)],
        capture_output=True,
        text=True,
        env=env,
        cwd=source,
        timeout=3600,
        check=True,
    )
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows


def looks_benchmark(before: str | None, seeds: int) -> None:
    """Print how real the generated boards look, for ``before`` (a git ref) and now."""
    import tempfile

    from snl_tui.core.board import Board
    from snl_tui.core.studio.checks import check_board, drawn_over

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        sources = [("now", root)]
        if before is not None:
            archive = subprocess.run(
                ["git", "archive", before, "snl_tui", "boards"],
                cwd=root,
                capture_output=True,
                check=True,
            )
            subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
            sources.insert(0, (f"before ({before})", Path(folder)))
        print(
            f"{'generator':<22} {'T':>4} {'made':>5} {'ladders':>8} {'snakes':>7} "
            f"{'longest':>8} {'shared':>7} {'drawn over':>11} {'warned':>7} {'search':>8}"
        )
        for label, source in sources:
            for turns in LOOKS_TURNS:
                rows = _looks_of(source, turns, seeds)
                boards = [
                    Board(10, 10, [tuple(jump) for jump in row["jumps"]])  # type: ignore[union-attr, misc]
                    for row in rows
                    if row["jumps"] is not None
                ]
                ladders = statistics.median(len(board.ladders) for board in boards)
                snakes = statistics.median(len(board.snakes) for board in boards)
                longest = statistics.median(
                    max(abs(e - s) for s, e in board.jumps.items()) for board in boards
                )
                shared = sum(len(set(board.jumps.values())) < len(board.jumps) for board in boards)
                over = sum(bool(drawn_over(board)) for board in boards)
                warned = sum(bool(check_board(board).warnings) for board in boards)
                seconds = statistics.median(float(row["seconds"]) for row in rows)  # type: ignore[arg-type]
                print(
                    f"{label:<22} {turns:>4g} {len(boards):>2}/{len(rows):<2} {ladders:>8g} "
                    f"{snakes:>7g} {longest:>8g} {shared:>7} {over:>11} {warned:>7} "
                    f"{seconds:>6.2f} s"
                )


DESIGN_SCRIPT = """
import json, sys, time
from snl_tui.core.studio.generate import Targets, generate
try:  # the geometry as a package (issue 45) or as one module (before it)
    from snl_tui.core.geometry import routing as laying
    shaped_name, curve = "shaped_path", __import__(
        "snl_tui.core.geometry.shapes", fromlist=["curve"]).curve
except ImportError:
    from snl_tui.core import geometry as laying
    shaped_name, curve = "_shaped", laying._curve
from snl_tui.core.geometry import jump_paths, number_boxes
centres = {}
shaped = getattr(laying, shaped_name)
def remembering(jump, lane, start, end, shape):
    centres[jump.start, start, end] = curve(start, end, shape)
    return shaped(jump, lane, start, end, shape)
setattr(laying, shaped_name, remembering)
turns, seeds = float(sys.argv[1]), int(sys.argv[2])
rows = []
for seed in range(seeds):
    began = time.perf_counter()
    result = generate(Targets(expected_turns=turns), seed=seed, time_limit=30)
    seconds = time.perf_counter() - began
    board = result.board
    row = {"seconds": seconds, "jumps": None}
    if board is not None:
        centres.clear()  # a fresh board: its routing is not the one generate cached
        board = type(board)(board.rows, board.cols, list(board.jumps.items()), rules=board.rules)
        paths = jump_paths(board)
        row["jumps"] = sorted(board.jumps.items())
        row["paths"] = [
            [p.jump.start, p.jump.end, list(p.start), list(p.end),
             [list(q) for q in centres[p.jump.start, p.start, p.end]]]
            for p in paths
        ]
        row["boxes"] = {str(k): list(v) for k, v in number_boxes(board).items()}
    rows.append(row)
print(json.dumps(rows))
"""
DESIGN_TURNS = (20.0, 30.0, 50.0)


def _designs_of(source: Path, turns: float, seeds: int) -> list[dict[str, object]]:
    """The boards the generator in ``source`` makes, with their drawn centre lines."""
    import json
    import os

    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", DESIGN_SCRIPT, str(turns), str(seeds)],
        capture_output=True,
        text=True,
        env=env,
        cwd=source,
        timeout=3600,
        check=True,
    )
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows


def design_benchmark(before: str | None, seeds: int) -> None:
    """Issue 45: over ``seeds`` seeds at 20, 30 and 50 expected turns (10x10), for the
    generator and the drawing of ``before`` (a git ref) and of this checkout, measured
    by this checkout's rules: jumps within one row (sideways), twin pairs (crossed as
    an X, side by side), the drawn jumps' closeness (``geometry.closeness``: pairs
    running close past a square, the worst board's longest run, the median board's) and
    numbers side by side too close to read apart."""
    import tempfile

    from snl_tui.core.board import Board, Jump
    from snl_tui.core.geometry import JumpPath
    from snl_tui.core.geometry.closeness import CLOSE_LIMIT, close_runs, numbers_too_close
    from snl_tui.core.studio.looks import is_sideways, twins

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        sources = [("now", root)]
        if before is not None:
            archive = subprocess.run(
                ["git", "archive", before, "snl_tui", "boards"],
                cwd=root,
                capture_output=True,
                check=True,
            )
            subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
            sources.insert(0, (f"before ({before})", Path(folder)))
        print(
            f"{'generator':<20} {'T':>3} {'made':>6} {'sideways':>9} {'X twins':>8} "
            f"{'side twins':>11} {'close>1':>8} {'boards':>7} {'worst':>6} {'median':>7} "
            f"{'numbers':>8} {'search':>8}"
        )
        for label, source in sources:
            for turns in DESIGN_TURNS:
                rows = _designs_of(source, turns, seeds)
                made = [row for row in rows if row["jumps"] is not None]
                sideways = crossed = side = close_pairs = close_boards = numbers = 0
                worst: list[float] = []
                for row in made:
                    board = Board(10, 10, [tuple(jump) for jump in row["jumps"]])  # type: ignore[union-attr, misc]
                    sideways += sum(is_sideways(board, s, e) for s, e in board.jumps.items())
                    kinds = [kind for _, _, kind in twins(board)]
                    crossed += kinds.count("cross")
                    side += kinds.count("side")
                    paths = [
                        JumpPath(Jump(s, e), 0, tuple(a), tuple(b), (), (), (), (),
                                 tuple(tuple(q) for q in centre))  # type: ignore[arg-type]
                        for s, e, a, b, centre in row["paths"]  # type: ignore[union-attr]
                    ]  # fmt: skip
                    runs = close_runs(paths)
                    # Past about a square, to a tenth (as geometry.close_runs_of counts).
                    long_runs = [run for run in runs if round(run.length, 1) > CLOSE_LIMIT]
                    close_pairs += len(long_runs)
                    close_boards += bool(long_runs)
                    worst.append(runs[0].length if runs else 0.0)
                    boxes = {int(k): tuple(v) for k, v in row["boxes"].items()}  # type: ignore[union-attr]
                    numbers += len(numbers_too_close(board, boxes))  # type: ignore[arg-type]
                seconds = statistics.median(float(row["seconds"]) for row in rows)  # type: ignore[arg-type]
                print(
                    f"{label:<20} {turns:>3g} {len(made):>3}/{len(rows):<2} {sideways:>9} "
                    f"{crossed:>8} {side:>11} {close_pairs:>8} {close_boards:>7} "
                    f"{max(worst, default=0):>6.1f} {statistics.median(worst or [0]):>7.2f} "
                    f"{numbers:>8} {seconds:>6.2f} s"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="10x10 cases only")
    parser.add_argument("--edits", type=int, default=21, help="edits per editor case")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--editor-only", action="store_true")
    only.add_argument("--generator-only", action="store_true")
    only.add_argument("--targets-only", action="store_true", help="issue 22's targets only")
    only.add_argument("--looks-only", action="store_true", help="issue 33's looks only")
    only.add_argument(
        "--design-only", action="store_true", help="issue 45's: twins, sideways, closeness"
    )
    parser.add_argument("--before", metavar="REF", help="also the generator of this commit")
    parser.add_argument("--looks-seeds", type=int, default=20)
    parser.add_argument("--design-seeds", type=int, default=30)
    args = parser.parse_args()
    failed = False
    if args.looks_only:
        looks_benchmark(args.before, args.looks_seeds)
        return 0
    if args.design_only:
        design_benchmark(args.before, args.design_seeds)
        return 0
    if args.targets_only:
        targets_benchmark(args.seeds)
        return 0
    if not args.generator_only:
        failed |= not editor_benchmark(args.edits)
    if args.editor_only:
        return 1 if failed else 0
    looks_benchmark(args.before, args.looks_seeds)
    targets_benchmark(args.seeds)
    print(f"{'board':>6} {'T':>5} {'median wall':>12} {'max wall':>9} {'median search':>14}  ok")
    for size, turns, limit in CASES:
        if args.quick and size != 10:
            continue
        walls, searches, codes = [], [], []
        for seed in range(1, args.seeds + 1):
            wall, search, code, line = run_generate(size, turns, seed)
            walls.append(wall)
            searches.append(search)
            codes.append(code)
            if code != 0:
                print(f"  seed {seed}: exit {code}: {line}")
        median = statistics.median(walls)
        ok = median <= limit and all(code == 0 for code in codes)
        failed |= not ok
        print(
            f"{size:>3}x{size:<2} {turns:>5g} {median:>10.2f} s {max(walls):>7.2f} s "
            f"{statistics.median(searches):>12.2f} s  {'yes' if ok else 'NO'} (limit {limit:g} s)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
