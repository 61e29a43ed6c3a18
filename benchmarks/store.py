"""Saved-games store speed (SPEC 8, issue 12 item 6).

Two figures, against their targets:

* the save after a move: median time of ``Store.save_game`` for a realistic session
  (the classic board, two players, ~100 moves of history), target at most 5 ms;
* ``snl stats`` over 10,000 stored games (several boards, four player names): the time of
  ``main(["stats"])`` in this process, target at most 0.5 s. The first call pays for
  loading numpy and the exact odds of each board; both figures are printed.

Everything lives in a temporary ``$SNL_DATA_DIR``. Run:  python benchmarks/store.py
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

from snl_tui.core.engine import Game
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import DB_NAME, open_store

BOARDS = ("classic", "leetcode-1", "throws-30", "bounce-back", "river")
NAMES = ("Ann", "Bob", "CPU", "Dee")


def session_dict(game: Game) -> dict[str, object]:
    """What the session will save: the game, plus the board whole and the mode."""
    from snl_tui.core.files.formats import dump_board

    return {
        "version": 1,
        "board": dump_board(game.board, "json"),
        "mode": "classic",
        "game": game.to_dict(),
        "positions": list(game.positions),
        "moves": [turn.move.describe() for turn in game.history],
    }


def bench_save(directory: Path, moves: int) -> list[float]:
    board = load_board("classic")
    players = NAMES  # four players: games of ~90 moves
    game = Game(board, players, seed=1)
    timings: list[float] = []
    lengths: list[int] = []
    with open_store(directory / DB_NAME) as store:
        game_id = None
        while len(timings) < moves:
            if game.over:
                lengths.append(len(game.history))
                game = Game(board, players, seed=len(timings))
                game_id = None
            game.roll()
            data = session_dict(game)  # built by the caller before saving: not timed
            start = time.perf_counter()
            game_id = store.save_game(
                game_id,
                board=board,
                players=list(players),
                mode="classic",
                data=data,
                turns=game.turns_taken[game.current],
                rolls=len(game.history),
            )
            timings.append(time.perf_counter() - start)
            assert game_id is not None, store.disabled_reason
    print(f"  (games of {statistics.mean(lengths or [len(game.history)]):.0f} moves on average)")
    return timings


def populate(directory: Path, count: int) -> None:
    """``count`` finished games spread over the boards, in one transaction per 500."""
    rng = random.Random(909)
    boards = [load_board(name) for name in BOARDS]
    with open_store(directory / DB_NAME) as store:
        for index in range(count):
            board = rng.choice(boards)
            players = rng.sample(NAMES, rng.randint(1, 3))
            game = Game(board, tuple(players), seed=index)
            while not game.over and len(game.history) < 2000:
                game.roll()
            if not game.over:
                continue
            winner = game.winner
            assert winner is not None
            store.save_game(
                None,
                board=board,
                players=players,
                mode="classic",
                data=session_dict(game),
                status="won",
                winner=players[winner],
                turns=game.turns_taken[winner],
                rolls=len(game.history),
            )


def bench_stats(directory: Path, count: int) -> tuple[float, float]:
    populate(directory, count)
    from snl_tui.cli.main import main

    os.environ["SNL_DATA_DIR"] = str(directory)
    times = []
    for _ in range(2):
        start = time.perf_counter()
        with redirect_stdout(io.StringIO()) as out:
            status = main(["stats"])
        times.append(time.perf_counter() - start)
        assert status == 0 and "avg length" in out.getvalue()
    return times[0], times[1]


def bench_open(directory: Path) -> tuple[float, float]:
    """Median time to open the store (WAL, migrations, ``PRAGMA quick_check``, the schema
    probe) and the part of it that is the quick check, over 15 opens."""
    import sqlite3

    from snl_tui.core.store.games import open_store

    path = directory / DB_NAME
    opens, checks = [], []
    for _ in range(15):
        start = time.perf_counter()
        open_store(path).close()
        opens.append(time.perf_counter() - start)
        with sqlite3.connect(path) as conn:
            start = time.perf_counter()
            conn.execute("PRAGMA quick_check(1)").fetchone()
            checks.append(time.perf_counter() - start)
    return statistics.median(opens), statistics.median(checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="saves to time (default 300)")
    parser.add_argument("--games", type=int, default=10_000, help="games for stats")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        timings = bench_save(Path(temp), args.moves)
    median = statistics.median(timings) * 1000
    worst = max(timings) * 1000
    print(
        f"save after a move: median {median:.2f} ms, p90 "
        f"{statistics.quantiles(timings, n=10)[-1] * 1000:.2f} ms, max {worst:.2f} ms "
        f"over {len(timings)} saves (target: median <= 5 ms)"
    )
    with tempfile.TemporaryDirectory() as temp:
        start = time.perf_counter()
        first, second = bench_stats(Path(temp), args.games)
        size = (Path(temp) / DB_NAME).stat().st_size / 1e6
        opened, checked = bench_open(Path(temp))
        print(f"  (populating {args.games} games took {time.perf_counter() - start:.1f} s)")
    print(
        f"snl stats over {args.games} games ({size:.1f} MB): {first:.3f} s first call "
        f"(numpy + exact odds), {second:.3f} s again (target: <= 0.5 s)"
    )
    print(
        f"opening the store of {args.games} games: median {opened * 1000:.1f} ms, of which "
        f"PRAGMA quick_check {checked * 1000:.1f} ms (after the first frame, once per run)"
    )


if __name__ == "__main__":
    main()
