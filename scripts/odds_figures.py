"""Dump the odds figures of many boards and rules to JSON, or compare two dumps.

Made for refactoring the odds engine: dump the figures with the old code, dump them with
the new one, and compare (every figure within 1e-9, relative to its size when above 1)::

    python scripts/odds_figures.py dump old.json     # on the old checkout
    python scripts/odds_figures.py dump new.json
    python scripts/odds_figures.py compare old.json new.json
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from snl_tui import Board, Rules, load_board
from snl_tui.core.errors import SnlError
from snl_tui.core.odds.analysis import analyze
from snl_tui.core.odds.markov import expected_turns
from snl_tui.core.studio.impacts import jump_impacts

BOARDS = Path(__file__).resolve().parent.parent / "boards"
if not BOARDS.is_dir():
    BOARDS = Path.cwd() / "boards"
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "six": {"six_again": True},
    "three": {"six_again": True, "three_sixes": True},
    "bounce": {"overshoot": "bounce"},
    "finish": {"overshoot": "finish"},
    "start1": {"start": 1},
    "chain": {"chain": True},
    "d4": {"faces": 4},
    "d8-six-bounce": {"faces": 8, "six_again": True, "overshoot": "bounce"},
}


def seeded(side: int, jumps: int, seed: int, rules: Rules, cols: int | None = None) -> Board:
    """A board with ``jumps`` random snakes and ladders, the same every run."""
    rng = random.Random(seed)
    cols = side if cols is None else cols
    goal = side * cols
    table: dict[int, int] = {}
    while len(table) < jumps:
        start = rng.randrange(2, goal)
        end = rng.randrange(max(1, start - goal // 4), min(goal, start + goal // 4) + 1)
        if end != start and start not in table:
            table[start] = end
    return Board(side, cols, table.items(), rules=rules, name=f"seeded {side}x{cols}")


def boards() -> Iterator[tuple[str, Board, bool]]:
    """(name, board, full): full asks every figure, else the expectation only."""
    for path in sorted(BOARDS.iterdir()):
        base = load_board(path)
        for variant, changes in VARIANTS.items():
            try:
                rules = replace(base.rules, **changes)
                board = base.with_rules(rules) if hasattr(base, "with_rules") else None
                if board is None:
                    board = Board(
                        base.rows, base.cols, base.jumps.items(), rules=rules, name=base.name
                    )
            except (SnlError, ValueError, TypeError):
                continue
            yield f"{path.name}/{variant}", board, True
    for side, jumps, seed in ((10, 12, 1), (12, 30, 2), (20, 40, 3), (30, 200, 4), (50, 100, 5)):
        for variant in ("default", "six", "three", "bounce", "start1"):
            if variant == "three" and side > 20:
                continue
            rules = Rules(**VARIANTS[variant])
            yield f"seeded-{side}-{jumps}-{seed}/{variant}", seeded(side, jumps, seed, rules), True
    for seed in range(6, 16):  # small boards with loops, walls and doomed squares
        rules = Rules(**list(VARIANTS.values())[seed % len(VARIANTS)])
        yield f"small-{seed}", seeded(4, 7, seed, rules, cols=5), True
    yield "seeded-50-1000", seeded(50, 1000, 7, Rules()), True
    yield "seeded-1000-200", seeded(1000, 200, 8, Rules()), False
    yield "seeded-1000-2000-six", seeded(1000, 2000, 9, Rules(six_again=True)), False


def figures(board: Board, full: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def put(name: str, function: Callable[[], Any]) -> None:
        try:
            out[name] = function()
        except SnlError as error:
            out[name] = f"error: {type(error).__name__}"

    put("fast", lambda: expected_turns(board))
    if not full:
        one = analyze(board, players=1)
        put("expected", lambda: one.expected_turns)
        put("std", lambda: one.std_turns)
        return out
    for players in (1, 2, 4):
        try:
            a = analyze(board, players=players)
        except SnlError as error:
            out[f"analyze{players}"] = f"error: {type(error).__name__}"
            continue
        put(f"wins{players}", lambda a=a: list(a.win_chances))
        put(f"no_winner{players}", lambda a=a: a.no_winner)
        put(f"rounds{players}", lambda a=a: a.game_rounds)
        if players == 1:
            put("expected", lambda a=a: a.expected_turns)
            put("std", lambda a=a: a.std_turns)
            put("never", lambda a=a: a.never_finishes)
            put("median", lambda a=a: a.median_turns)
            put("mode", lambda a=a: a.mode_turns)
            put("p90", lambda a=a: a.percentile_turns(0.9))
            put("within10", lambda a=a: a.finish_within(10))
            put("visits", lambda a=a: a.visits())
            put("from", lambda a=a: [a.expected_turns_from(p) for p in range(board.goal + 1)])
    if board.goal <= 2500:
        put(
            "impacts",
            lambda: [(i.start, i.expected_turns_without, i.delta) for i in jump_impacts(board)],
        )
    return out


def dump(path: str) -> None:
    result = {}
    for name, board, full in boards():
        result[name] = figures(board, full)
        print(name, file=sys.stderr)
    Path(path).write_text(json.dumps(result, default=str))


def close(a: Any, b: Any, where: str, bad: list[str]) -> float:
    """The largest difference between a and b (relative above 1); records mismatches."""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return max((close(x, y, f"{where}[{i}]", bad) for i, (x, y) in pairs), default=0.0)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if (math.isnan(a) and math.isnan(b)) or a == b:
            return 0.0
        diff = abs(a - b) / max(1.0, abs(a))
        if not diff <= 1e-9:
            bad.append(f"{where}: {a!r} vs {b!r}")
        return diff if math.isfinite(diff) else math.inf
    if a != b:
        bad.append(f"{where}: {a!r} vs {b!r}")
        return math.inf
    return 0.0


def compare(old_path: str, new_path: str) -> int:
    old = json.loads(Path(old_path).read_text())
    new = json.loads(Path(new_path).read_text())
    bad: list[str] = []
    worst = 0.0
    count = 0
    for name, figs in old.items():
        if name not in new:
            bad.append(f"{name}: missing")
            continue
        for key, value in figs.items():
            count += 1
            worst = max(worst, close(value, new[name].get(key), f"{name}.{key}", bad))
    print(f"{len(old)} boards, {count} figures, largest difference {worst:.3g}")
    for line in bad[:40]:
        print("  MISMATCH", line)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
