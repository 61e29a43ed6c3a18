"""A room's clients follow the host's turns exactly, house rules included: with
``six_again`` + ``three_sixes`` the third top face in a turn cancels it on every client as
on the host (the rule lives in the engine; a client applies the host's die as a roll),
so no client ever falls out of step and asks for the whole state again."""

from __future__ import annotations

from snl_tui.core.board import Board
from snl_tui.core.engine import Game, Player
from snl_tui.core.rules import Rules
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.net.client import RoomClient

from .rooms import WAIT, address, close_all, seated, serving, until

RULES = Rules(faces=3, six_again=True, three_sixes=True)
"""A three-sided die: three top faces in a row come once in 27 turns, so a short game
hits them."""
BOARD = Board.from_jumps(5, 6, ladders=[(4, 17)], snakes=[(26, 8), (19, 5)], rules=RULES)
PEOPLE = (Player("Ann"), Player("Bob"))


def _first_cancel(settings: GameSettings, rolls: int) -> int | None:
    """The index of the first cancelled roll in the room's game (its seed as the host
    draws it), within ``rolls`` rolls; None if there is none."""
    game: Game = GameSession(settings).game
    for index in range(rolls):
        if game.over:
            return None
        if game.roll().cancelled:
            return index
    return None


def _seeded() -> tuple[GameSettings, int]:
    """Settings whose game cancels a turn early (searched, not written down)."""
    for seed in range(1000):
        settings = GameSettings(BOARD, PEOPLE, seed)
        index = _first_cancel(settings, 40)
        if index is not None:
            return settings, index
    raise AssertionError("no seed below 1000 cancels a turn in 40 rolls")


def _view(game: Game) -> tuple[object, ...]:
    """What a screen shows of a game: squares, whose turn, turns taken, the winner and
    each roll's die, square and whether it was cancelled."""
    turns = [(t.player, t.move.die, t.move.end, t.again, t.cancelled) for t in game.history]
    return (list(game.positions), game.current, list(game.turns_taken), game.winner, turns)


def _session(client: RoomClient) -> GameSession:
    assert client.session is not None
    return client.session


async def test_three_sixes_cancel_the_turn_on_every_client_in_step() -> None:
    settings, cancel_at = _seeded()
    async with serving(None) as (server, port):
        room = server.open_room(settings)
        clients = await seated(port, room, ["Ann", "Bob"])
        host = room.session.game
        for _ in range(cancel_at + 5):
            if host.over:
                break
            moves = len(host.history)
            mover = next(c for c in clients if c.my_turn)
            assert await mover.roll()
            await until(lambda n=moves: len(host.history) == n + 1)
            for client in clients:
                await client.wait_for(
                    lambda c=client, n=moves: len(_session(c).game.history) >= n + 1, WAIT
                )
                assert _view(_session(client).game) == _view(host), f"after roll {moves + 1}"
            # Both clients rolled only on their turns and saw every move: nobody else moves.
            assert len(host.history) == moves + 1
        assert any(turn.cancelled for turn in host.history)
        assert [client.resyncs for client in clients] == [0, 0]
        # Someone who comes in afterwards reads the cancelled turn from the state alone.
        watcher = RoomClient(address(port, room), "Eve", spectate=True)
        watcher.start()
        await watcher.wait_for(lambda: watcher.session is not None, WAIT)
        assert _view(_session(watcher).game) == _view(host)
        await close_all([*clients, watcher])


def test_a_die_rolled_elsewhere_is_a_roll_and_a_chosen_one_is_not() -> None:
    """The engine's two ways in: ``take_roll`` (a room's host rolled it) cancels the
    third top face like ``roll``; ``play`` (a puzzle's choice) never does."""
    rolled, chosen = Game(BOARD, PEOPLE), Game(BOARD, PEOPLE)
    for die in (3, 3, 3):
        rolled.take_roll(die)
        chosen.play(die)
    assert [t.cancelled for t in rolled.history] == [False, False, True]
    assert rolled.positions[0] == BOARD.rules.start_position
    assert not any(t.cancelled for t in chosen.history)
