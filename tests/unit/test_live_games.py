"""A game live in another snl is never offered or resumed (issue 36, item 13; SPEC 8: two
snl processes at once both work). The other snl here is a real second process holding a
game of the same store; it is killed with SIGKILL to show that its hold ends with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.core.store.games import DB_NAME, Store, open_store
from snl_tui.core.store.saving import GameSaver, last_resumable, resumable_games

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock locks are POSIX")

PLAYERS = (Player("You"), Player("CPU", computer=True))

OTHER_SNL = """
import sys
from snl_tui.core.store.games import open_store
store = open_store(sys.argv[1])
print("held" if store.live.hold(int(sys.argv[2])) else "refused", flush=True)
sys.stdin.read()  # plays until told to stop (or killed)
"""


def saved_game(store: Store, moves: int = 4, seed: int = 7) -> int:
    session = GameSession(GameSettings(load_board("classic"), PLAYERS, seed))
    saver = GameSaver(store)
    for _ in range(moves):
        session.move()
        saver.moved(session)
    assert saver.game_id is not None
    store.live.release(saver.game_id)  # this process has quit it: free for others
    return saver.game_id


@contextmanager
def other_snl(path: Path, game_id: int) -> Iterator[subprocess.Popen[str]]:
    """A second process playing ``game_id`` of the store at ``path`` until the block ends."""
    process = subprocess.Popen(
        [sys.executable, "-c", OTHER_SNL, str(path), str(game_id)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "held"
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


@pytest.fixture
def store(private_data_dir: Path) -> Iterator[Store]:
    with open_store() as opened:
        yield opened


def test_a_game_held_by_another_process_is_not_offered_or_taken(store: Store) -> None:
    older, newer = saved_game(store, seed=1), saved_game(store, seed=2)
    assert [g.id for g in resumable_games(store)] == [newer, older]
    with other_snl(store.path, newer) as other:
        assert store.live.live_elsewhere(newer) and not store.live.live_elsewhere(older)
        assert [g.id for g in resumable_games(store)] == [older]
        last = last_resumable(store)
        assert last is not None and last.id == older
        assert not store.live.hold(newer)
        saver = GameSaver(store)
        assert not saver.resumed(GameSession.from_dict(store.load_game(newer).data), newer)
        assert saver.game_id is None
        # Killed, the other snl lets go at once: no heartbeat to wait out.
        other.send_signal(signal.SIGKILL)
        other.wait(timeout=30)
    assert [g.id for g in resumable_games(store)] == [newer, older]
    assert store.live.hold(newer) and not store.live.live_elsewhere(newer)


def test_the_game_being_played_is_held_until_left(store: Store, private_data_dir: Path) -> None:
    session = GameSession(GameSettings(load_board("classic"), PLAYERS, 3))
    saver = GameSaver(store)
    session.move()
    game_id = saver.moved(session)
    assert game_id is not None
    with open_store() as second:  # another snl's view of the same files
        assert second.live.live_elsewhere(game_id)
        assert second.last_unfinished() is None
        saver.leaving(session)  # n: a new game; the old one is abandoned and let go
        assert not second.live.live_elsewhere(game_id)
    assert not (private_data_dir / f"{DB_NAME}-live" / str(game_id)).exists()


def test_snl_resume_refuses_a_game_played_elsewhere(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = saved_game(store)
    with other_snl(store.path, game_id):
        for argv in (["resume", str(game_id)], ["resume", str(game_id), "--no-save"]):
            assert main(argv) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "being played in another snl" in err
        assert main(["resume"]) == 2  # the last unfinished game is the live one: none
        assert "no unfinished game" in capsys.readouterr().err
