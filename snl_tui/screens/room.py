"""A room's game seen from one seat: ``snl join`` (and ``snl host --name``) (SPEC 11).

The screen is the usual game screen on the room's shared session, with one difference in
who moves: the host rolls every die. In the client's session every seat but this one is
remote (``Driver.REMOTE``, the computer's seats too), so the game screen's own rules leave
it nothing to drive but its own seat's ``r``, which asks the host to roll
(``RoomClient.roll``); every move, its own included, arrives from the host and is shown as
it comes (the die, the token's steps, the jump). The hint, the odds and the route are about this
screen's own seat; the players panel says who is you, who is away and which seats are
still free; the status line says whose turn it is, or "reconnecting..." while the client
finds the room again (``RoomClient`` does that by itself, with backoff). A spectator
(the seats were full) watches the same screen with nothing to press.

Party play (issue 31): ``c`` says one line or a quick reaction to the room; what people
say and what happened (a turn skipped, a seat handed to the computer, a new game and who
started it) goes into the move log between the moves. When it becomes this seat's turn
the terminal hears a bell (BEL, and an OSC 9 / OSC 777 notification where the terminal
shows them; in a browser the tab's title says so); ``b`` turns that off (remembered).
The host's own screen has ``x``: skip the turn of the seat to move, hand a seat to the
computer and back, remove a person, mute someone (as the room says who is muted: after
``snl host --resume`` too). The players panel says who is here, who is away and for how
long, whom the computer stands in for, who is muted, and who watches.

The room is composed into the one game screen, not a subclass of it: ``room_screen``
makes a ``GameScreen`` whose table (``screens/table.py``) is a ``RoomSession``, the room's
state beside the game's session (the client, whose turn rings, the chat kept for the
log). The session adds the room's widget (the turn clock under the die), its words and
its keys; what the host sends reaches the screen as messages
(``SessionReplaced``, ``MoveArrived``, ``StateChanged``, ``StatusSaid``).

The client runs on the app's own event loop (the CLI starts it before the app), and its
events are handed to the screen's message loop (``call_later``), so everything the screen
does happens in its own message loop and no key ever waits on the network.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence

from textual.app import App
from textual.driver import Driver
from textual.widget import Widget

from ..commands import keys_of
from ..core.engine import Player
from ..core.session import GameSession
from ..core.text import escape_controls
from ..messages import MoveArrived, SessionReplaced, SettingChanged, StateChanged, StatusSaid
from ..net.client import ClientEvent, EventKind, RoomClient
from ..widgets.move_log import MoveLog
from ..widgets.players import PlayersPanel
from ..widgets.turn_clock import TurnClock
from .confirm import ConfirmScreen
from .game import GameScreen
from .room_dialogs import ChatDialog, HostDialog, HostOrder, Said, host_orders
from .table import Table
from .winner import GameOverScreen

NOTIFICATION = "\x1b]9;snl: your turn\x07\x1b]777;notify;snl;your turn\x07"
"""What a terminal shows as a notification (OSC 9: iTerm2, kitty, WezTerm, Windows Terminal;
OSC 777: foot, Ghostty, urxvt...); terminals without them ignore both."""
TITLE = "\x1b]2;{}\x07"
"""A window title (OSC 2): a browser tab's title, through the page of ``snl serve``."""

MAX_NOTES = 200
"""Chat lines and notices a room's screen keeps, to show them again when the whole game
is shown afresh (a reconnect's full state, a new game)."""

DRIVER_ATTRIBUTE = "_driver"
"""Where Textual's ``App`` keeps its driver. Textual has no public call that writes a
sequence of ours (a notification, a window title); its own public ``App.bell`` and
``App.copy_to_clipboard`` write theirs through this driver, and so does
``terminal_write``, the one place this private name is used. The tests check it against
the installed Textual (tests/app/test_room_party.py), so an upgrade that moves it fails
loudly instead of silently dropping the notifications."""


def terminal_write(app: App[object], sequence: str) -> bool:
    """Write ``sequence`` to the app's terminal as ``App.bell`` writes BEL: through the
    driver, between two frames. False (nothing written) when there is no terminal: a
    headless app, or one not running."""
    if app.is_headless:
        return False
    driver = getattr(app, DRIVER_ATTRIBUTE, None)
    if not isinstance(driver, Driver):
        return False
    driver.write(sequence)
    return True


ROOM_HIDDEN = frozenset(
    {"new_game", "load_board", "switch_mode", "edit", "undo", "pick", "choose_die"}
    | {"saved_games", "stats"}
)
"""Actions a room's screen does not offer: the host chose the board, the rules and the
seats (``n`` is offered again once the game is over: another game in the same seats)."""


def room_screen(
    client: RoomClient,
    *,
    animate: bool = True,
    join_line: str | None = None,
    bell: bool = True,
    notices: Sequence[str] = (),
) -> GameScreen:
    """The game screen of a room, from this terminal's seat: ``client`` has been welcomed
    (it holds the room's session); ``join_line`` is what others type to join (shown by
    the host's own screen); ``bell`` False: no bell for this seat's turn; ``notices``:
    what this terminal says about the room before anything else (``snl host --resume``:
    which saved options were replaced), in the log and as notifications."""
    session = client.session
    if session is None:
        raise ValueError("the room client has no game yet: wait for its welcome")
    room = RoomSession(client, join_line=join_line, bell=bell, notices=notices)
    screen = GameScreen(session.settings, animate=animate, session=session, table=room)
    # Textual's key panel reads the screen's HELP (a class variable): this screen's own.
    setattr(screen, "HELP", HELP)  # noqa: B010
    room.attach(screen)
    return screen


HELP = "Press r on your turn: the host rolls your die. Press ? for help."


class RoomSession(Table):
    """A room's state beside the game's session, and what it adds to the game screen."""

    def __init__(
        self,
        client: RoomClient,
        *,
        join_line: str | None,
        bell: bool,
        notices: Sequence[str] = (),
    ) -> None:
        self.client = client
        self.join_line = join_line
        self.own_notices = tuple(notices)
        """This terminal's own words about the room (``room_screen``'s ``notices``)."""
        self.screen: GameScreen | None = None
        """The game screen the room is composed into (``attach``)."""
        self.rolling = False
        """A roll was asked of the host and its move has not arrived yet."""
        self.bell_on = bell
        """Ring (and notify) when this seat's turn comes."""
        self.was_my_turn = False
        self.rings = 0
        """How many times this screen rang for its turn (tests read it)."""
        self.notes: deque[tuple[int, int, str]] = deque(maxlen=MAX_NOTES)
        """The log's chat lines and notices, the last ``MAX_NOTES``: (the game's number,
        the moves shown before it, the line). A full state (a reconnect, a resync)
        rebuilds the log from the moves; these go back in between them."""

    @property
    def shown(self) -> GameScreen:
        if self.screen is None:
            raise RuntimeError("the room session is not attached to a screen yet")
        return self.screen

    @property
    def session(self) -> GameSession:
        return self.shown.session

    def attach(self, screen: GameScreen) -> None:
        """Compose the room into ``screen``: the client's events go to it from now on."""
        self.screen = screen
        self.client.listener = self._heard
        for earlier in self.client.recent:  # said before we came: the log opens with them
            self._write_note(earlier, quiet=True)
        for line in self.own_notices:  # the toasts come once the screen is up (mounted)
            self._write_note(ClientEvent(EventKind.NOTICE, line), quiet=True)

    def _heard(self, event: ClientEvent) -> None:
        # Called in the client's task (the same event loop): into the screen's message loop.
        self.shown.call_later(self._room_changed, event)

    def mounted(self) -> None:
        screen = self.shown
        # The room's address stays in the title bar: the line others type, on the host.
        where = self.join_line if self.join_line is not None else f"room {self.client.address}"
        screen.sub_title = where
        if self.join_line is not None:
            screen.notify(f"Others join with: {self.join_line}", timeout=20, markup=False)
        for line in self.own_notices:
            screen.notify(line, timeout=20, markup=False)
        # "away 2m" grows while nobody moves
        screen.set_interval(5, lambda: screen.post_message(StateChanged()))

    # -- what the room says --------------------------------------------------------------

    def _room_changed(self, event: ClientEvent) -> None:
        client, screen = self.client, self.shown
        if event.kind in (EventKind.WELCOME, EventKind.STATE, EventKind.GAME):
            self.rolling = False
            if client.session is not None:
                screen.post_message(SessionReplaced(client.session))
            if event.kind == EventKind.WELCOME and event.message:
                screen.notify(event.message, markup=False)
        elif event.kind == EventKind.MOVE and event.turn is not None:
            self.rolling = False
            screen.post_message(MoveArrived(event.turn))
            return  # the move's end (TurnPlayed) shows the state
        elif event.kind == EventKind.REFUSED and event.message:
            self.rolling = False
            screen.notify(event.message, severity="warning", markup=False)
        elif event.kind == EventKind.ERROR and event.message:
            self.rolling = False
            screen.post_message(StatusSaid(event.message))
            return
        elif event.kind == EventKind.DISCONNECTED:
            self.rolling = False
        elif event.kind == EventKind.TIMER:
            self._show_clock()
            return
        elif event.kind in (EventKind.NOTICE, EventKind.CHAT) and event.message:
            self._write_note(event)
            if event.kind == EventKind.NOTICE and event.code == "new-game":
                self._close_game_over()
            if event.kind == EventKind.CHAT:
                return
        screen.post_message(StateChanged())

    def _write_note(self, event: ClientEvent, *, quiet: bool = False) -> None:
        """A chat line or what happened, in the move log between the moves (escaped:
        it came from the network); ``quiet``: no toast (said before we came)."""
        screen = self.shown
        if event.kind == EventKind.CHAT:
            said = f"* {event.name} {event.message}" if event.code == "reaction" else None
            text = said or f"<{event.name}> {event.message}"
        else:
            text = f"-- {event.message}"
            if not quiet:
                screen.notify(escape_controls(event.message or ""), markup=False)
        text = escape_controls(text)
        if screen.panels_mounted:
            log = screen.query_one(MoveLog)
            self.notes.append((self.session.game_index, log.line_count, text))
            log.write_note(text)
        else:  # mount_panels shows the log, these notes with it
            self.notes.append((self.session.game_index, len(self.session.game.history), text))

    def everything_shown(self) -> None:
        """The log afresh: the game's moves with the kept notes back between them (a
        note from an earlier game comes before this game's first move)."""
        if not self.notes:
            return
        session = self.session
        game, log = session.game, self.shown.query_one(MoveLog)
        history, players = game.history, game.players
        log.show_history([], players)
        for index, moves, text in self.notes:
            at = min(moves, len(history)) if index == session.game_index else 0
            log.catch_up(history[: max(at, log.line_count)], players)
            log.write_note(text)
        log.catch_up(history, players)

    def _close_game_over(self) -> None:
        """Someone started a new game: the last game's dialog closes on every screen
        (the notice in the log says who started it)."""
        for screen in self.shown.app.screen_stack:
            if isinstance(screen, GameOverScreen):
                screen.dismiss(None)

    def _ring_if_my_turn(self) -> None:
        """A bell, a notification and the tab's title when this seat's turn comes."""
        mine = self.client.my_turn and not self.session.game.over
        if mine == self.was_my_turn:
            return
        self.was_my_turn = mine
        app = self.shown.app
        if app.is_web:
            terminal_write(app, TITLE.format("snl - your turn!" if mine else "snl"))
        if mine and self.bell_on:
            self.rings += 1
            app.bell()
            terminal_write(app, NOTIFICATION)

    # -- the room's keys -----------------------------------------------------------------

    def order(self, name: str) -> None:
        if name == "chat":
            self._chat()
        elif name == "toggle_bell":
            self._toggle_bell()
        elif name == "host_powers":
            self._host_powers()

    def _toggle_bell(self) -> None:
        self.bell_on = not self.bell_on
        screen = self.shown
        screen.notify("Your turn rings a bell." if self.bell_on else "No bell for your turn.")
        screen.post_message(SettingChanged("turn_bell", self.bell_on))

    def _chat(self) -> None:
        screen = self.shown

        def said(what: Said | None) -> None:
            if what is None:
                return
            if what.reaction is not None:
                screen.run_worker(self.client.react(what.reaction), group="room")
            elif what.text:
                screen.run_worker(self.client.chat(what.text), group="room")

        screen.app.push_screen(ChatDialog(), said)

    def _host_powers(self) -> None:
        client, screen = self.client, self.shown
        to_move = self.session.seat_to_move
        orders = host_orders(
            client.seats, client.seat, to_move, client.watchers, client.muted_watchers
        )

        def chosen(order: HostOrder | None) -> None:
            if order is None:
                return
            if order.kind == "skip":
                screen.run_worker(client.skip(order.seat), group="room")
            elif order.kind == "hand":
                screen.run_worker(client.hand(order.seat, order.to), group="room")
            elif order.kind == "kick":
                screen.run_worker(client.kick(order.seat), group="room")
            else:
                screen.run_worker(client.mute(order.name, order.muted), group="room")

        screen.app.push_screen(HostDialog(orders), chosen)

    # -- who moves: the host, always ----------------------------------------------------

    def may_move(self) -> bool:
        # Every seat but this screen's own is remote (the client says so to the session):
        # the game screen's own rule leaves only this seat's turn, and the host decides.
        return not self.rolling and self.client.my_turn

    def roll(self) -> bool:
        screen = self.shown
        if not screen.can_move():
            if not screen.busy:
                screen.post_message(StatusSaid(self._waiting_text()))
            return True
        self.rolling = True
        game = self.session.game
        screen.post_message(StatusSaid(f"{game.players[game.current].name}: rolling..."))
        screen.run_worker(self._ask_roll(), group="room", exclusive=False)
        return True

    async def _ask_roll(self) -> None:
        if not await self.client.roll():
            self.rolling = False
            self.shown.post_message(StatusSaid(self._room_status()))

    def allows(self, action: str, session: GameSession) -> bool | None:
        if action in ROOM_HIDDEN and not (action == "new_game" and session.game.over):
            return False
        if action == "roll" and self.client.seat is None:
            return False  # a spectator has nothing to roll
        if action == "host_powers":
            return self.client.is_host
        if action in ("chat", "toggle_bell"):
            return True
        return None

    def again(self) -> bool:
        """Once the game is over: another game in the same seats (the host starts it)."""
        if self.session.game.over:
            self.shown.run_worker(self.client.again(), group="room")
        return True

    def quit(self) -> bool:
        """Leave the room, once asked (a ``q`` by mistake costs nothing): the seat is
        kept, and ``snl join`` again takes it back at once. The host's own screen says
        that leaving closes the room."""
        if self.client.is_host:
            question = "Quit? This closes the room for everyone (snl host --resume reopens it)."
        elif self.client.seat is not None:
            question = "Leave the room? Your seat is kept: snl join again takes it back."
        else:
            question = "Stop watching this room?"
        app = self.shown.app

        def answered(yes: bool | None) -> None:
            if yes:
                app.exit(return_code=0)

        app.push_screen(ConfirmScreen(question), answered)
        return True

    def side_panels(self) -> list[Widget]:
        return [TurnClock(id="turn-clock")]

    def _show_clock(self) -> None:
        """The seconds left for the player to move (``--turn-time``), on every screen."""
        screen = self.shown
        if not screen.panels_mounted:
            return
        client, clock = self.client, screen.query_one(TurnClock)
        seat, deadline = client.turn_seat, client.turn_deadline
        players = self.session.game.players
        # Turned away for good (another window has the seat): no clock to follow here.
        if seat is None or deadline is None or seat >= len(players) or client.refused:
            clock.show(None, "", False)
            return
        clock.show(max(0.0, deadline - app_time()), players[seat].name, seat == client.seat)

    # -- what it shows -------------------------------------------------------------------

    def hint_seat(self, session: GameSession) -> int:
        seat = self.client.seat
        if seat is None or session.game.over:
            return session.hint_seat
        return seat

    def shown_players(self, session: GameSession) -> Sequence[Player]:
        client = self.client
        seats, mine = client.seats, client.seat
        since = max(0.0, app_time() - client.seats_heard)
        shown = []
        for index, player in enumerate(session.game.players):
            tags = []
            if index == mine:
                tags.append("you")
            if index < len(seats) and not player.computer:
                info = seats[index]
                if info.removed:
                    tags.append("removed, computer plays")
                elif not info.taken:
                    tags.append("free")
                else:
                    if not info.connected:
                        away = info.away
                        tags.append("away" if away is None else f"away {_span(away + since)}")
                    if info.standin:
                        tags.append("computer plays")
                    if info.muted:
                        tags.append("muted")
            name = f"{player.name} ({', '.join(tags)})" if tags else player.name
            shown.append(Player(name, player.computer))
        return shown

    def state_shown(self) -> None:
        self._show_clock()
        client = self.client
        watchers = [f"{w} (muted)" if w in client.muted_watchers else w for w in client.watchers]
        footer = f"watching: {', '.join(watchers)}" if watchers else ""
        self.shown.query_one(PlayersPanel).show_footer(footer)
        self._ring_if_my_turn()

    def status(self) -> str | None:
        return self._room_status()

    def _room_status(self) -> str:
        client, game = self.client, self.session.game
        if not client.connected:
            refused = client.refused
            if refused is not None and refused.code == "seat-elsewhere":
                return f"{str(refused)[:1].upper()}{str(refused)[1:]}. {keys_of('quit')} leaves."
            if refused is not None:
                return f"The room turned us away: {refused}"
            return f"Reconnecting to {client.address}..."
        if game.winner is not None:
            winner = game.players[game.winner].name
            return f"{winner} reached the goal! {keys_of('new_game')} plays again, same seats."
        if client.status == "waiting":
            free = sum(1 for seat in client.seats if not seat.taken)
            waiting = f"Waiting for {free} more to join."
            return f"{waiting} Others join with: {self.join_line}" if self.join_line else waiting
        if client.my_turn:
            return self.session.status(keys_of)
        return self._waiting_text()

    def _waiting_text(self) -> str:
        client, game = self.client, self.session.game
        if game.over:
            return self._room_status()
        if client.seat is None:
            prefix = "Watching: "
        else:
            prefix = "" if not self.shown.busy else "Showing the move... "
        player = game.players[game.current]
        seat = client.seats[game.current] if game.current < len(client.seats) else None
        if player.computer:
            return f"{prefix}{player.name} is rolling (the host rolls for the computer)."
        if seat is not None and not seat.taken:
            return f"{prefix}Waiting for someone to take {player.name}'s seat."
        if seat is not None and (seat.standin or seat.removed):
            return f"{prefix}The computer plays for {player.name}."
        if seat is not None and not seat.connected:
            host = " (x: the host decides)" if client.is_host else ""
            return f"{prefix}Waiting for {player.name} to come back...{host}"
        return f"{prefix}{player.name} to move, on another machine."


def app_time() -> float:
    """The event loop's clock, which the client's times are on."""
    return asyncio.get_running_loop().time()


def _span(seconds: float) -> str:
    """'40s', '3m', '2h': how long someone has been away."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m"
    return f"{whole // 3600}h"


__all__ = ["RoomSession", "room_screen", "terminal_write"]
