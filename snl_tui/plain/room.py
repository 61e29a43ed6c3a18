"""A room in plain lines: ``snl join --screen-reader``.

The same ``RoomClient`` as the room screen (``snl_tui.net.client``, its public interface
only): every event it hears is said in one line (each move as in a local game, people
joining, leaving and coming back, a new game, the connection lost and found), and typed
commands ask the host to roll for this seat or say where things stand. Input is read by
a thread (a pipe and a terminal alike) and handed to the event loop, so the room's moves
are said while the player is still typing. In a terminal that thread reads with the line
editor (``Console.standard``): the terminal's modes it changes are put back by
``keys_as_typed`` at exit and on SIGTERM (which then exits as interrupted), whatever the
thread is doing then.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.odds.standing import compute_odds
from ..core.text import parse_whole, plural, quote
from ..net.client import EventKind
from . import words
from .commands import DIE, describe_commands, help_line, read_line, unknown_line
from .console import Console
from .room_words import away_for, seat_changes, spelled_code

if TYPE_CHECKING:
    from ..core.session import GameSession
    from ..net.client import ClientEvent, RoomClient
    from ..net.protocol import SeatInfo


ROOM_COMMANDS = (
    "roll",
    "where",
    "board",
    "hint",
    "odds",
    "route",
    "again",
    "say",
    "chat",
    "help",
    "quit",
)
YES = ("y", "yes")
WATCHING_COMMANDS = ("where", "board", "hint", "odds", "route", "say", "chat", "help", "quit")
HOST_COMMANDS = ("skip", "computer", "person", "hand", "kick", "mute", "unmute")
"""The host's powers (``snl host --name``'s own seat), as the room screen's ``x`` offers
them: the room checks each one and says what happened (or why not) to everyone."""
HANDED_TO = {"computer": "computer", "person": "person", "hand": "anyone"}

SAY_MOST = 50
"""The most lines ``say N`` repeats (as in a local game)."""

EXIT_OK = 0
EXIT_REFUSED = 2
EXIT_BROKEN_PIPE = 1


class PlainRoom:
    """One person in a room, in plain lines: ``run`` until quit or the end of input."""

    def __init__(
        self,
        client: RoomClient,
        console: Console,
        *,
        join_line: str | None = None,
        notices: Sequence[str] = (),
    ):
        self.client = client
        self.console = console
        self.join_line = join_line
        self.notices = tuple(notices)
        """This terminal's own words about the room (``snl host --resume``: which saved
        options were replaced), said after the room's welcome."""
        self.seats: tuple[SeatInfo, ...] = client.seats
        self.status = client.status
        self.away: set[int] = set()
        """Seats said to have lost their connection (and not yet back)."""
        self.away_since: dict[int, float] = {}
        """When each away seat went (``time.monotonic``), from the room's last seats: so
        ``where`` says how long they have been away when it is asked, not when the
        room last sent the seats."""
        self.clock = time.monotonic
        self.last_line: str | None = None
        self.welcomed = False
        self.lost = False
        self.gone = False
        """Nobody reads our lines any more (standard output was closed)."""
        self.stopped = asyncio.Event()
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.over_said = False
        """A roll after the game's end was answered: the next ones are not (until a new
        game), so a script's rolls left over do not repeat it."""
        self.quitting = False
        """``quit`` was typed once: the next ``quit`` (or yes) leaves, anything else stays."""
        self._ten_left: asyncio.TimerHandle | None = None
        """Says "10 seconds left" to the player to move (``--turn-time``)."""

    @property
    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = WATCHING_COMMANDS if self.client.seat is None else ROOM_COMMANDS
        if self.client.is_host:  # before help and quit, as help lists them
            names = names[:-2] + HOST_COMMANDS + names[-2:]
        return names

    def say(self, text: str) -> None:
        self.console.say(text)

    def who(self, name: str) -> str:
        """A person of the room named ``name`` as said: a seat's player with nothing
        speakable in their name is "seat N", a watcher "a watcher"."""
        for index, seat in enumerate(self.client.seats):
            if seat.name == name:
                return words.plain_name(name, index)
        said = words.plain_name(name)
        return "a watcher" if said == "someone" and name in self.client.watchers else said

    # -- what the room says

    def heard(self, event: ClientEvent) -> None:
        """The client's listener: say what happened (in the client's task). Output that
        cannot be written (the reader of a pipe left) ends the room, not the client's
        task alone."""
        try:
            self.tell_event(event)
        except OSError:
            self.gone = True
            self.stopped.set()

    def tell_event(self, event: ClientEvent) -> None:
        client = self.client
        session = client.session
        if event.kind == EventKind.WELCOME:
            self.welcome(event.message)
        elif event.kind == EventKind.MOVE and event.turn is not None and session is not None:
            line = words.turn_line(session.game, event.turn)
            self.last_line = line
            self.say(line)
            if session.game.over:
                self.say("Type again for another game in the same seats, or quit.")
            elif client.my_turn:
                self.say("Your turn: type roll, or press Enter.")
        elif event.kind == EventKind.GAME and session is not None:
            self.last_line = None
            self.over_said = False
            self.say(f"A new game. {words.start_line(session.game, session.mode)}")
            self.your_turn()
        elif event.kind == EventKind.NOTICE and event.message:
            self.say(event.message)  # the host's words: a turn skipped, a seat handed over
        elif event.kind == EventKind.CHAT and event.message:
            who = self.who(event.name or "")
            joined = ": " if event.code == "reaction" else " says: "
            self.say(f"{who}{joined}{event.message}")
        elif event.kind in (EventKind.ERROR, EventKind.REFUSED) and event.message:
            self.say(event.message)
            if client.refused is not None:
                self.stopped.set()
        elif event.kind == EventKind.TIMER:
            self.tell_clock()
        elif event.kind == EventKind.DISCONNECTED and not self.lost:
            self.lost = True
            # Not the address: a screen reader reads it aloud digit by digit.
            self.say("Connection to the room lost: reconnecting.")
        # Seats change with a seats message and with a whole state (either comes first).
        if client.seats is not self.seats:
            self.note_away(client.seats)
        for line in seat_changes(self.seats, client.seats, self.away):
            self.say(line)
        self.seats = client.seats
        if self.status == "waiting" and client.status == "playing" and session is not None:
            game = session.game
            current = game.current
            mover = "" if client.my_turn else f" {words.to_move(game.players[current], current)}"
            self.say(f"Everyone is here: the game begins.{mover}")
            self.your_turn()
        self.status = client.status

    def welcome(self, notice: str | None) -> None:
        client, session = self.client, self.client.session
        self.seats = client.seats
        self.note_away(client.seats)
        # Away as we come in (a resumed room: everyone is, at first): "back" once here.
        self.away = {
            index
            for index, seat in enumerate(client.seats)
            if seat.kind != "computer" and seat.taken and not seat.connected
        }
        if self.welcomed:
            self.lost = False
            self.say("Back in the room.")
            if session is not None:
                self.say(words.positions_line(session.game))
            self.your_turn()
            return
        self.welcomed = True
        if session is None:
            return
        self.say(words.board_line(session.board))
        if client.seat is None:
            self.say(f"You are watching room {spelled_code(client.address.code)}.")
        else:
            me = words.name(session.game.players[client.seat], client.seat)
            self.say(f"You are {me}, seat {client.seat + 1} of {len(session.game.players)}.")
        if notice:
            self.say(notice)
        for earlier in client.recent:  # said before we came, as a rejoin would have it
            self.tell_event(earlier)
        self.say(self.seats_line())
        if self.join_line:
            code = spelled_code(client.address.code)
            self.say(f"Others join with: {self.join_line}, {code}.")
        for line in self.notices:
            self.say(line)
        if session.game.history:
            self.say(words.positions_line(session.game))
        self.say("Type help for the commands.")
        self.your_turn(others=True)
        self.tell_clock()  # its timer came with the welcome, before anyone listened

    def tell_clock(self) -> None:
        """The turn clock (``--turn-time``) in words: when a turn starts, and, to the
        player to move alone, again at 10 seconds left."""
        client, session = self.client, self.client.session
        if self._ten_left is not None:
            self._ten_left.cancel()
            self._ten_left = None
        seat, deadline = client.turn_seat, client.turn_deadline
        if seat is None or deadline is None or session is None:
            return
        loop = asyncio.get_running_loop()
        left = deadline - loop.time()
        mine = seat == client.seat
        who = "You have" if mine else f"{words.name(session.game.players[seat], seat)} has"
        self.say(f"{who} {plural(max(0, round(left)), 'second')} to roll.")
        # The warning is the mover's alone: the others' screens only show the clock.
        if mine and left > 10.5:
            self._ten_left = loop.call_later(left - 10, self.say, "You have 10 seconds left.")

    def note_away(self, seats: tuple[SeatInfo, ...]) -> None:
        """The room's new seats: when each away seat went, by the seconds away it says
        (counted when the room sent them)."""
        now = self.clock()
        self.away_since = {
            index: now - seat.away for index, seat in enumerate(seats) if seat.away is not None
        }

    def seats_line(self) -> str:
        parts = []
        for index, seat in enumerate(self.client.seats):
            who = words.plain_name(seat.name, index)
            if seat.kind == "computer":
                state = "the computer"
            elif seat.removed:
                state = "removed, the computer plays"
            elif not seat.taken:
                state = "free"
            elif seat.standin:
                state = "the computer plays for them"
            elif not seat.connected:
                since = self.away_since.get(index)
                state = "away" if since is None else f"away {away_for(self.clock() - since)}"
            else:
                state = "here"
            mine = ", muted" if seat.muted and seat.taken and not seat.removed else ""
            mine += ", you" if index == self.client.seat else ""
            seat_words = (
                f"seat {index + 1}" if who == f"seat {index + 1}" else f"seat {index + 1} {who}"
            )
            parts.append(f"{seat_words} ({state}{mine})")
        text = "Seats: " + "; ".join(parts) + "."
        muted = self.client.muted_watchers
        watchers = [
            words.plain_name(name) + (" (muted)" if name in muted else "")
            for name in self.client.watchers
        ]
        if watchers:
            text += f" Watching: {words.and_list(watchers)}."
        return text

    def your_turn(self, *, others: bool = False) -> None:
        """Say that it is this player's turn, or that the room waits for people (and,
        with ``others``, whose turn it is otherwise)."""
        client, session = self.client, self.client.session
        if client.my_turn:
            self.say("Your turn: type roll, or press Enter.")
        elif client.status == "waiting":
            free = sum(1 for seat in client.seats if not seat.taken)
            self.say(f"Waiting for {free} more to join.")
        elif others and client.status == "playing" and session is not None:
            game = session.game
            self.say(words.to_move(game.players[game.current], game.current))

    # -- what the player types

    async def run(self) -> int:
        """Say the room until the player quits, the input ends or the room refuses us."""
        loop = asyncio.get_running_loop()
        self.client.listener = self.heard
        self.welcome(self.client.notice)
        reader = threading.Thread(target=self._read_lines, args=(loop,), daemon=True)
        reader.start()
        stop = asyncio.ensure_future(self.stopped.wait())
        terminated = self._wake_on_sigterm(loop)
        try:
            while True:
                line_task = asyncio.ensure_future(self.lines.get())
                done, _ = await asyncio.wait({line_task, stop}, return_when=asyncio.FIRST_COMPLETED)
                if stop in done:
                    line_task.cancel()
                    if self.gone:
                        return EXIT_BROKEN_PIPE
                    self.say("The room closed its door to us: leaving.")
                    return EXIT_REFUSED
                line = line_task.result()
                if line is None or not await self.handle(line):
                    self.say("Left the room.")
                    return EXIT_OK
        finally:
            stop.cancel()
            if self._ten_left is not None:
                self._ten_left.cancel()
            self.client.listener = None
            if terminated is not None:  # the line editor's handler again, for the rest
                loop.remove_signal_handler(signal.SIGTERM)
                signal.signal(signal.SIGTERM, terminated)

    @staticmethod
    def _wake_on_sigterm(loop: asyncio.AbstractEventLoop) -> Callable[..., Any] | None:
        """While the room runs, the line editor's SIGTERM handler (``keys_as_typed``:
        the terminal's modes back, then exit) is run by the event loop, which the
        signal wakes whichever thread the kernel hands it to (its wakeup fd): run by
        Python alone, it would wait until the loop's next timer. Ctrl+C wakes the loop
        the same way. Returns the handler to put back, None when there is none."""
        handler = signal.getsignal(signal.SIGTERM)
        if not callable(handler):
            return None
        try:
            loop.add_signal_handler(signal.SIGTERM, handler, signal.SIGTERM, None)
        except (NotImplementedError, RuntimeError, ValueError):  # no signals on this loop
            return None
        return handler

    def _read_lines(self, loop: asyncio.AbstractEventLoop) -> None:
        """The input thread: each line to the loop, then None at the end of input.
        Ctrl+C and SIGTERM are blocked here, so the kernel hands them to the main
        thread: one caught by this thread would only set Python's flag, and the event
        loop, asleep until its next timer, would not quit until then."""
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        while True:
            line = self.console.read()
            try:
                loop.call_soon_threadsafe(self.lines.put_nowait, line)
            except RuntimeError:  # the loop has closed: the room is left already
                return
            if line is None:
                return

    async def handle(self, line: str) -> bool:
        """Do what ``line`` asks; False to leave."""
        client, session = self.client, self.client.session
        typed = read_line(line, self.names)
        command = typed.command
        if command == "quit" or (self.quitting and line.strip().casefold() in YES):
            if self.quitting or client.seat is None:
                return False
            self.quitting = True
            if client.is_host:
                self.say("Quit? This closes the room for everyone. Type quit again to quit.")
            else:
                self.say("Leave the room? Your seat is kept. Type quit again to leave.")
            return True
        self.quitting = False
        if command is None or command == DIE:
            if typed.typed:
                self.say(unknown_line(typed, self.names))
            else:
                self.say("You are watching: nothing to roll. Type help for the commands.")
            return True
        if command == "help":
            if typed.rest.strip().casefold() == "all":
                for text in describe_commands(self.names):
                    self.say(text)
            else:
                self.say(help_line(self.names))
            return True
        if command == "say":
            count = parse_whole(typed.rest.strip())
            if count is None or count < 1:
                self.say(self.last_line or "No move yet.")
            else:  # say 3: the last 3 lines said, whatever they were
                for said in self.console.said[-min(count, SAY_MOST) :]:
                    self.say(said)
            return True
        if command == "chat":
            await self.chat(typed.rest)
            return True
        if command in HOST_COMMANDS:
            await self.host_power(command, typed.rest)
            return True
        if session is None:
            self.say("No game yet: waiting for the room.")
            return True
        if command == "roll":
            await self.roll(session)
        elif command == "again":
            if not session.game.over:
                self.say("The game is not over yet.")
            elif not await client.again():
                self.say("Not connected: the room cannot hear us now.")
        elif command == "where":
            self.say(words.positions_line(session.game))
            self.say(self.seats_line())
        else:
            await self.tell(command, typed.rest, session)
        return True

    async def chat(self, text: str) -> None:
        """One line to everyone (the room says it back to us, as to everyone)."""
        text = " ".join(text.split())
        if not text:
            self.say("Type chat, then what to say: chat good luck everyone.")
        elif not await self.client.chat(text):
            self.say("Not connected: the room cannot hear us now.")

    async def host_power(self, command: str, rest: str) -> None:
        """``skip [SEAT]``, ``computer SEAT``, ``person SEAT``, ``hand SEAT``,
        ``kick SEAT``, ``mute NAME``, ``unmute NAME``: sent to the room, which checks it
        and tells everyone what happened (or tells us why not)."""
        client, session = self.client, self.client.session
        said = " ".join(rest.split())
        if command in ("mute", "unmute"):
            if not said:
                self.say(f"Type {command}, then a name: {command} {self._example()}.")
                return
            sent = await client.mute(said, command == "mute")
        else:
            if session is None:
                self.say("No game yet: waiting for the room.")
                return
            seat = self._seat_named(said, command, session)
            if seat is None:
                return
            if command == "skip":
                sent = await client.skip(seat)
            elif command == "kick":
                sent = await client.kick(seat)
            else:
                sent = await client.hand(seat, HANDED_TO[command])
        if not sent:
            self.say("Not connected: the room cannot hear us now.")

    def _seat_named(self, said: str, command: str, session: GameSession) -> int | None:
        """The seat ``said`` names: its number or its player's name (or first letters
        of one name); for ``skip`` with nothing said, the seat to move. None, after a
        line saying why, when it names none."""
        players = session.game.players
        if not said:
            if command == "skip" and not session.game.over:
                return session.game.current
            self.say(f"Type {command}, then a seat's number or name: {command} {self._example()}.")
            return None
        number = parse_whole(said)
        if number is not None:
            if 1 <= number <= len(players):
                return number - 1
        else:
            key = said.casefold()
            exact = [i for i, p in enumerate(players) if p.name.casefold() == key]
            begun = [i for i, p in enumerate(players) if p.name.casefold().startswith(key)]
            if len(exact) == 1 or len(begun) == 1:
                return (exact or begun)[0]
        seats = "; ".join(f"{i + 1} {words.name(p, i)}" for i, p in enumerate(players))
        self.say(f"No seat {quote(said, 30)}. The seats: {seats}.")
        return None

    def _example(self) -> str:
        """A name from the room for a command's example (not the host's own)."""
        for index, seat in enumerate(self.client.seats):
            if index != self.client.seat and seat.kind != "computer":
                return words.plain_name(seat.name, index)
        return "2"

    async def roll(self, session: GameSession) -> None:
        client, game = self.client, session.game
        if client.my_turn:
            if not await client.roll():
                self.say("Not connected: the room cannot hear us now.")
            return
        if game.over:
            if not self.over_said:  # once: the rolls a script typed on say nothing
                self.over_said = True
                self.say("The game is over: type again for another game.")
        elif not client.connected:
            self.say("Not connected to the room: reconnecting.")
        elif client.status == "waiting":
            self.say("The game has not begun: waiting for more players.")
        else:
            self.say(f"Not your turn: {words.to_move(game.players[game.current], game.current)}")

    def seat_of_interest(self, session: GameSession) -> int:
        """Whom hint, route, odds and board are about: this seat while the game goes on,
        else the player to move (or the winner)."""
        seat = self.client.seat
        if seat is None or session.game.over:
            return session.hint_seat
        return seat

    async def tell(self, command: str, rest: str, session: GameSession) -> None:
        game, board = session.game, session.board
        seat = self.seat_of_interest(session)
        who = words.name(game.players[seat], seat)
        square = game.positions[seat]
        if command == "board":
            number = parse_whole(rest.strip())
            if number is not None:  # board 47: what is on square 47
                self.say(words.square_line(board, number))
                return
            self.say(words.board_line(board))
            if rest.strip().casefold().startswith("a"):
                for text in words.all_jumps_lines(board):
                    self.say(text)
            else:
                self.say(words.near_jumps_line(board, square, who))
        elif command == "hint":
            self.say(words.hint_line(board, square, who))
        elif command == "route":
            self.say(words.route_line(board, square, who))
        elif command == "odds":
            if game.over:
                self.say("The game is over: no odds left to tell.")
                return
            positions, to_move = list(game.positions), game.current
            # The exact analysis takes a moment on a big board: off the loop, so the
            # room's moves and pings go on meanwhile.
            odds = await asyncio.to_thread(compute_odds, board, positions, to_move)
            self.say(words.odds_line(odds, game, to_move))


async def play_room(
    client: RoomClient,
    console: Console,
    *,
    join_line: str | None = None,
    notices: Sequence[str] = (),
) -> int:
    """Play in the room ``client`` has joined, in plain lines; the exit status."""
    return await PlainRoom(client, console, join_line=join_line, notices=notices).run()


__all__ = [
    "HOST_COMMANDS",
    "ROOM_COMMANDS",
    "PlainRoom",
    "play_room",
]
