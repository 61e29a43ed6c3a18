"""The room's game screen (``snl join``) with Pilot: two screens and a computer seat play a
room's game to the end against a real room server on a loopback port; keys work only on
your own turn; the hint is about your own seat; a spectator has nothing to roll; a
dropped connection says "Reconnecting" and comes back to the same seat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSettings
from snl_tui.net.client import RoomClient
from snl_tui.net.server import Room
from snl_tui.screens.game import GameScreen
from snl_tui.screens.room import RoomSession
from snl_tui.widgets.players import PlayersPanel
from tests.unit.net.rooms import FAST_BACKOFF, WAIT, address, cut, serving

SIZE = (120, 40)
BOARD = load_board("throws-30")


def room_settings(*names: str, seed: int = 5) -> GameSettings:
    return GameSettings(BOARD, tuple(Player.parse(name) for name in names), seed)


async def joined(port: int, room: Room, name: str, *, watch: bool = False) -> RoomClient:
    client = RoomClient(address(port, room), name, backoff=FAST_BACKOFF, spectate=watch)
    client.start()
    await client.wait_for(lambda: client.role is not None, WAIT)
    return client


def room_app(client: RoomClient) -> SnlApp:
    app = SnlApp.joining(client, animate=False)
    app.theme = "textual-dark"
    return app


async def wait_until(pilots: list[Pilot], done: Callable[[], bool], rounds: int = 3000) -> None:
    """Bounded: let every app run until ``done()``."""
    for _ in range(rounds):
        if done():
            return
        for pilot in pilots:
            await pilot.pause()
        await asyncio.sleep(0.002)
    raise AssertionError("the condition never held")


def room_of(screen: GameScreen) -> RoomSession:
    """The room composed into a game screen."""
    assert isinstance(screen.table, RoomSession)
    return screen.table


def status_of(screen: GameScreen) -> str:
    from textual.widgets import Static

    return str(screen.query_one("#status", Static).content)


async def test_two_screens_play_a_room_game_to_the_end() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob", "cpu"))
        ann, bob = await joined(port, room, "Ann"), await joined(port, room, "Bob")
        app_a, app_b = room_app(ann), room_app(bob)
        async with app_a.run_test(size=SIZE) as pilot_a, app_b.run_test(size=SIZE) as pilot_b:
            pilots = [pilot_a, pilot_b]
            screens: list[GameScreen] = [app_a.screen, app_b.screen]  # type: ignore[list-item]
            assert all(isinstance(screen.table, RoomSession) for screen in screens)
            await wait_until(pilots, lambda: all(s.ready for s in screens))
            # Each screen's hint and "(you)" are about its own seat.
            assert [screen.hint_seat() for screen in screens] == [0, 1]
            names = [p.name for p in screens[1].shown_players()]
            assert names == ["Ann", "Bob (you)", "CPU"]
            # Not your turn: r does nothing but say whose turn it is.
            await pilot_b.press("r")
            await pilot_b.pause()
            assert len(room.session.game.history) == 0
            assert "Ann to move" in status_of(screens[1])
            for _ in range(400):  # bounded: a game on 30 squares is far shorter
                if room.session.game.over:
                    break
                for pilot, screen in zip(pilots, screens, strict=True):
                    if screen.can_move():
                        moves = len(room.session.game.history)
                        await pilot.press("r")
                        await wait_until(pilots, lambda n=moves: len(room.session.game.history) > n)
                await wait_until(
                    pilots, lambda: room.session.game.over or any(s.can_move() for s in screens)
                )
            host = room.session.game
            assert host.over and host.winner is not None
            total = len(host.history)
            await wait_until(pilots, lambda: all(len(s.game.history) == total for s in screens))
            for screen in screens:
                assert screen.game.positions == host.positions
                assert screen.game.rolls == host.rolls
            winner = host.players[host.winner].name
            await wait_until(pilots, lambda: all(winner in status_of(s) for s in screens))
            # The computer's moves were the host's: the log shows them on both screens.
            assert any(turn.player == 2 for turn in host.history)
        await ann.close()
        await bob.close()


async def test_a_spectator_watches_with_nothing_to_roll() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "cpu"))
        ann = await joined(port, room, "Ann")
        eve = await joined(port, room, "Eve")  # the one seat for a person is taken
        assert eve.role == "spectator" and eve.seat is None
        app = room_app(eve)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and isinstance(screen.table, RoomSession)
            await wait_until([pilot], lambda: screen.ready)
            assert screen.check_action("roll", ()) is False
            await pilot.press("r")
            await pilot.pause()
            assert room.session.game.history == []
            assert status_of(screen).startswith("Watching")
            panel = screen.query_one(PlayersPanel)
            assert "(you)" not in str(panel.render())
        await eve.close()
        await ann.close()


async def test_a_dropped_connection_reconnects_to_the_same_seat() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"))
        ann, bob = await joined(port, room, "Ann"), await joined(port, room, "Bob")
        app = room_app(ann)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and isinstance(screen.table, RoomSession)
            await wait_until([pilot], lambda: screen.ready)
            await pilot.press("r")
            await wait_until([pilot], lambda: len(screen.game.history) == 1)
            before = ann.connections
            cut(ann)  # the network drops (or the host's end of it)
            await wait_until([pilot], lambda: ann.connections > before and ann.connected)
            await wait_until([pilot], lambda: "Bob to move" in status_of(screen))
            assert ann.seat == 0 and screen.hint_seat() == 0
            assert len(screen.game.history) == 1  # the game as it is, log included
            # Bob, on the other side, saw Ann away and back: the seat is kept.
            assert bob.seats[0].connected
        await ann.close()
        await bob.close()


async def test_an_error_before_the_panels_are_up_does_not_crash_the_screen() -> None:
    """A host may answer before the screen has mounted its panels (a hostile one does it
    on purpose): the screen comes up and plays on."""
    from snl_tui.net.protocol import encode
    from tests.unit.net.hostile_host import hostile_host, hostile_state, welcome

    async def script(websocket: object) -> None:
        await websocket.send(welcome(hostile_state(["Ann", "Bob"])))  # type: ignore[attr-defined]
        await websocket.send(encode("error", code="x", message="too soon"))  # type: ignore[attr-defined]

    async with hostile_host(script) as where:
        client = RoomClient(where, "Ann", backoff=FAST_BACKOFF)
        client.start()
        await client.wait_for(lambda: client.role is not None, WAIT)
        app = room_app(client)  # the screen listens from here on...
        await client.wait_for(lambda: client.last_error == "too soon", WAIT)
        async with app.run_test(size=SIZE) as pilot:  # ...and hears the error as it mounts
            screen = app.screen
            assert isinstance(screen, GameScreen) and isinstance(screen.table, RoomSession)
            await wait_until([pilot], lambda: screen.panels_mounted)
            assert app.is_running and "Ann" in status_of(screen)
        await client.close()


async def test_a_local_game_screen_has_no_room_in_it() -> None:
    """The room is composed in: a local game's table offers none of the room's keys
    (c, b, x say they do nothing), and its words are the session's."""
    app = SnlApp(animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        assert screen is not None and not isinstance(screen.table, RoomSession)
        await wait_until([pilot], lambda: screen.ready)
        for order in ("chat", "toggle_bell", "host_powers"):
            assert screen.check_action("room", (order,)) is False
        await pilot.press("c")
        await pilot.pause()
        assert "does nothing here" in status_of(screen)
        assert screen.hint_seat() == screen.session.hint_seat
