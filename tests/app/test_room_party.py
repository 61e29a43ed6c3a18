"""A room's screen at a party (issue 31), with Pilot against a real room server: chat and
reactions in every move log (escaped), the bell when your turn comes (not when it is off),
who is here in the players panel, the host's powers from the host's own screen, and the
last game's dialog closed on every screen when someone starts a new one."""

from __future__ import annotations

from snl_tui.app import SnlApp
from snl_tui.net.client import RoomClient
from snl_tui.net.server import Room
from snl_tui.screens.game import GameScreen
from snl_tui.screens.room_dialogs import ChatDialog, HostDialog, host_orders
from snl_tui.screens.winner import GameOverScreen
from snl_tui.widgets.move_log import MoveLog
from snl_tui.widgets.players import PlayersPanel
from tests.app.test_room_screen import SIZE, joined, room_of, room_settings, wait_until
from tests.unit.net.rooms import FAST_BACKOFF, WAIT, address, cut, play_to_end, serving


async def host_joined(port: int, room: Room, name: str) -> RoomClient:
    client = RoomClient(address(port, room), name, host_key=room.host_key, backoff=FAST_BACKOFF)
    client.start()
    await client.wait_for(lambda: client.role is not None, WAIT)
    return client


def party_app(client: RoomClient, *, bell: bool = True) -> SnlApp:
    app = SnlApp.joining(client, animate=False, bell=bell)
    app.theme = "textual-dark"
    return app


def log_lines(screen: GameScreen) -> list[str]:
    return list(screen.query_one(MoveLog).lines)


async def test_chat_reactions_bell_and_who_is_here_on_every_screen() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"))
        ann, bob = await host_joined(port, room, "Ann"), await joined(port, room, "Bob")
        cy = await joined(port, room, "Cy", watch=True)
        apps = [party_app(ann), party_app(bob), party_app(cy)]
        async with (
            apps[0].run_test(size=SIZE) as pa,
            apps[1].run_test(size=SIZE) as pb,
            apps[2].run_test(size=SIZE) as pc,
        ):
            pilots = [pa, pb, pc]
            screens: list[GameScreen] = [app.screen for app in apps]  # type: ignore[misc]
            await wait_until(pilots, lambda: all(s.ready for s in screens))
            # Ann's turn first: her screen rang, Bob's did not.
            await wait_until(pilots, lambda: room_of(screens[0]).rings == 1)
            assert room_of(screens[1]).rings == 0
            # Bob says something with c, and reacts with F1 in the same dialog.
            await pb.press("c")
            await wait_until(pilots, lambda: isinstance(apps[1].screen, ChatDialog))
            await pb.press(*"hi [b]all[/b]", "enter")
            await pb.press("c")
            await wait_until(pilots, lambda: isinstance(apps[1].screen, ChatDialog))
            await pb.press("f1")
            for screen in screens:
                await wait_until(pilots, lambda s=screen: len(log_lines(s)) >= 2)
                assert log_lines(screen)[-2:] == ["<Bob> hi [b]all[/b]", "* Bob good game!"]
            # Ann rolls: Bob's turn rings on Bob's screen.
            await pa.press("r")
            await wait_until(pilots, lambda: room_of(screens[1]).rings == 1)
            assert room_of(screens[0]).rings == 1 and room_of(screens[2]).rings == 0
            # Who is here: the watcher under the seats; Bob away once he goes.
            panel = screens[0].query_one(PlayersPanel)
            assert panel.footer == "watching: Cy"
            await bob.close()
            await wait_until(pilots, lambda: "away" in screens[0].shown_players()[1].name)
            # The host hands Bob's seat to the computer from her screen (x).
            await pa.press("x")
            await wait_until(pilots, lambda: isinstance(apps[0].screen, HostDialog))
            dialog = apps[0].screen
            assert isinstance(dialog, HostDialog)
            words = [w for w, _ in dialog.orders]
            assert "Let the computer play for Bob" in words
            index = words.index("Let the computer play for Bob")
            for _ in range(index):
                await pa.press("down")
            await pa.press("enter")
            await wait_until(pilots, lambda: "computer plays" in screens[2].shown_players()[1].name)
            await wait_until(
                pilots,
                lambda: any(
                    "handed Bob's seat to the computer" in t for t in log_lines(screens[2])
                ),
            )
            # Bob's x and c are a spectator's and a player's: x is the host's only.
            assert screens[2].check_action("host_powers", ()) is False


async def test_no_bell_when_it_is_turned_off() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"))
        ann, bob = await joined(port, room, "Ann"), await joined(port, room, "Bob")
        app_a, app_b = party_app(ann, bell=False), party_app(bob)
        async with app_a.run_test(size=SIZE) as pa, app_b.run_test(size=SIZE) as pb:
            screen: GameScreen = app_a.screen  # type: ignore[assignment]
            await wait_until([pa, pb], lambda: screen.ready and room_of(screen).was_my_turn)
            assert room_of(screen).rings == 0
            await pa.press("b")  # on again, for the next turn
            assert room_of(screen).bell_on


async def test_a_new_game_closes_the_last_games_dialog_everywhere_and_says_who() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"))
        ann, bob = await joined(port, room, "Ann"), await joined(port, room, "Bob")
        app_a, app_b = party_app(ann), party_app(bob)
        async with app_a.run_test(size=SIZE) as pa, app_b.run_test(size=SIZE) as pb:
            pilots = [pa, pb]
            screens: list[GameScreen] = [app_a.screen, app_b.screen]  # type: ignore[list-item]
            await wait_until(pilots, lambda: all(s.ready for s in screens))
            await play_to_end(room, [ann, bob])  # the clients roll; both screens follow
            await wait_until(
                pilots,
                lambda: (
                    isinstance(app_a.screen, GameOverScreen)
                    and isinstance(app_b.screen, GameOverScreen)
                ),
            )
            await pa.press("n")  # Ann starts the next game from her dialog
            await wait_until(pilots, lambda: not isinstance(app_b.screen, GameOverScreen))
            assert app_b.screen is screens[1]
            await wait_until(
                pilots, lambda: any("Ann started a new game" in t for t in log_lines(screens[1]))
            )


async def test_a_reconnects_full_state_keeps_the_chat_between_the_moves() -> None:
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"))
        ann, bob = await joined(port, room, "Ann"), await joined(port, room, "Bob")
        app = party_app(ann)
        async with app.run_test(size=SIZE) as pilot:
            screen: GameScreen = app.screen  # type: ignore[assignment]
            await wait_until([pilot], lambda: screen.ready)
            assert await bob.chat("hi Ann")
            await wait_until([pilot], lambda: "<Bob> hi Ann" in log_lines(screen))
            await pilot.press("r")
            await wait_until([pilot], lambda: len(log_lines(screen)) == 2)
            assert await bob.react("nice")
            await wait_until([pilot], lambda: len(log_lines(screen)) == 3)
            before = log_lines(screen)
            assert before[0] == "<Bob> hi Ann" and before[2] == "* Bob nice one!"
            session, connections = screen.session, ann.connections
            cut(ann)  # the network drops: Ann's client comes back and gets the whole game
            await wait_until(
                [pilot], lambda: ann.connections > connections and screen.session is not session
            )
            await pilot.pause()
            assert log_lines(screen)[:3] == before


def test_the_host_is_offered_only_what_can_be_done() -> None:
    from snl_tui.net.protocol import SeatInfo

    seats = (
        SeatInfo("Ann", "person", True, True),
        SeatInfo("Bob", "person", True, False, 30, muted=True),
        SeatInfo("CPU", "computer", True, True),
        SeatInfo("Di", "person", True, False, 5, standin=True, removed=True),
    )
    words = [w for w, _ in host_orders(seats, own=0, to_move=1)]
    assert words == [
        "Skip Bob's turn",
        "Let the computer play for Bob",
        "Give Bob's seat to whoever joins as Bob",
        "Remove Bob from the game",
        "Let Bob chat again",
    ]
    assert host_orders(seats, own=0, to_move=0)[0][0] != "Skip Ann's turn"
    watching = host_orders(seats[:1], 0, None, ("Cy", "Eve"), muted_watchers=("Eve",))
    assert [(w, o.muted) for w, o in watching] == [
        ("Mute Cy's chat (watching)", True),
        ("Let Eve chat again", False),
    ]


async def test_notifications_go_where_textual_writes_its_own_bell(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Textual has no public call to write a sequence: ``terminal_write`` uses the
    driver that ``App.bell`` writes BEL to. Checked against the installed Textual, so an
    upgrade that moves it fails here, loudly, not silently on a player's terminal."""
    import inspect

    from textual.app import App
    from textual.driver import Driver

    from snl_tui.screens.room import DRIVER_ATTRIBUTE, terminal_write

    assert f"self.{DRIVER_ATTRIBUTE}.write(" in inspect.getsource(App.bell)
    app: App[object] = App()
    async with app.run_test():
        driver = getattr(app, DRIVER_ATTRIBUTE)
        assert isinstance(driver, Driver)
        assert terminal_write(app, "\x1b]9;hi\x07") is False  # headless: no terminal
        written: list[str] = []
        monkeypatch.setattr(App, "is_headless", property(lambda _: False))
        monkeypatch.setattr(driver, "write", written.append)
        assert terminal_write(app, "\x1b]9;hi\x07") is True
        assert written == ["\x1b]9;hi\x07"]


async def test_the_hosts_screen_says_its_own_notices_and_who_is_muted() -> None:
    """Whom the host muted comes from the room (a ``--resume`` keeps it), seated or
    watching: the players panel says so and ``x`` offers to undo it; what ``snl host
    --resume`` had to say (a saved option replaced) is on the screen, in the log."""
    async with serving(None) as (server, port):
        room = server.open_room(room_settings("Ann", "Bob"), host_name="Ann")
        ann, bob = await host_joined(port, room, "Ann"), await joined(port, room, "Bob")
        cy = await joined(port, room, "Cy", watch=True)
        await ann.mute("Bob")
        await ann.mute("Cy")
        await ann.wait_for(lambda: ann.seats[1].muted and ann.muted_watchers == ("Cy",), WAIT)
        replaced = "--turn-time 90 replaces the room's saved --turn-time 60"
        app = SnlApp.joining(ann, animate=False, notices=[replaced])
        async with app.run_test(size=SIZE) as pilot:
            screen: GameScreen = app.screen  # type: ignore[assignment]
            await wait_until([pilot], lambda: screen.ready)
            assert f"-- {replaced}" in log_lines(screen)
            assert "muted" in screen.shown_players()[1].name
            assert screen.query_one(PlayersPanel).footer == "watching: Cy (muted)"
            await pilot.press("x")
            await wait_until([pilot], lambda: isinstance(app.screen, HostDialog))
            dialog = app.screen
            assert isinstance(dialog, HostDialog)
            offered = [words for words, _ in dialog.orders]
            assert "Let Bob chat again" in offered and "Let Cy chat again" in offered
        await cy.close()
        await bob.close()
        await ann.close()
