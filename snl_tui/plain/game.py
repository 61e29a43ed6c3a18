"""A game in plain lines: ``snl play --screen-reader`` and ``snl resume --screen-reader``.

``PlainGame`` drives the same ``GameSession`` as the game screen: the computer's seats
roll at once and are announced, a person's seat waits for a typed command, every move is
said in one line (``words``) and saved after it (``GameSaver``, as the game screen does).
The end of the input (Ctrl+D, or the end of a pipe) leaves the game as quitting does: it
stays saved and ``snl resume`` goes on from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.errors import SnlError
from ..core.odds.standing import compute_odds, odds_at_hand
from ..core.seats import TurnError
from ..core.session import GameSession
from ..core.store.saving import GameSaver, room_line
from ..core.text import parse_whole, plural
from . import words
from .commands import DIE, describe_commands, help_line, read_line, unknown_line
from .console import Console

if TYPE_CHECKING:
    from ..core.store.games import SavedGame

CLASSIC_COMMANDS = ("roll", "where", "board", "hint", "odds", "route", "new", "say", "help", "quit")
PUZZLE_COMMANDS = ("where", "board", "hint", "odds", "route", "undo", "new", "say", "help", "quit")

EXIT_OK = 0
EXIT_INTERRUPTED = 130
SAY_MOST = 50
"""The most lines ``say N`` repeats."""


def luck_line(session: GameSession) -> str | None:
    """How lucky a won classic game was, in words; None when it cannot be worked out."""
    from ..core.odds.analysis import winner_finished_within
    from ..core.odds.report import luck_text

    game = session.game
    if game.winner is None:
        return None
    turns = game.turns_taken[game.winner]
    try:
        share = winner_finished_within(game.board, len(game.players), turns)
    except SnlError:
        return None
    return luck_text(share, len(game.players), turns).replace("<", "under ").replace(">", "over ")


class PlainGame:
    """One sitting of plain play: ``run`` until quit or the end of the input."""

    def __init__(
        self,
        session: GameSession,
        console: Console,
        saver: GameSaver | None = None,
        *,
        resumed: int | None = None,
        luck: Callable[[GameSession], str | None] = luck_line,
        offer: SavedGame | None = None,
        room: SavedGame | None = None,
    ) -> None:
        self.session = session
        self.offer = offer
        """An unfinished game the player may go on with instead (until the first move)."""
        self.room = room
        """A room's unfinished game saved since: said with how to reopen it, not offered."""
        self.console = console
        self.saver = saver
        self.resumed = resumed
        self.luck = luck
        self.last_line: str | None = None
        self.over_said = False
        """The game is over and a roll was answered so: the next ones are not."""

    # -- what is said

    @property
    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = PUZZLE_COMMANDS if self.session.puzzle else CLASSIC_COMMANDS
        if self.offer is not None:
            at = names.index("route") + 1
            names = (*names[:at], "resume", *names[at:])
        return names

    def say(self, text: str) -> None:
        self.console.say(text)

    def die_words(self) -> str:
        faces = self.session.board.rules.faces
        return f"Type a die value from 1 to {faces}."

    def opening(self) -> None:
        session = self.session
        game = session.game
        self.say(words.board_line(session.board))
        notice = session.puzzle_notice()
        if notice:
            self.say(notice)
        self.say(words.start_line(game, session.mode))
        if self.resumed is not None:
            self.say(f"Game {self.resumed} resumed after {plural(len(game.history), 'move')}.")
            self.say(words.positions_line(game))
        if self.room is not None:
            self.say(room_line(self.room, sentence=True))
        offer = self.offer
        if offer is not None:
            who = words.and_list([words.plain_name(name) for name in offer.players])
            self.say(
                f"Game {offer.id} on {words.plain_name(offer.board_name or 'a board')}, "
                f"{who}, is unfinished after {plural(offer.rolls or 0, 'move')}: "
                "type resume to go on with it, or play on to start this new one."
            )
        self.say("Type help for the commands.")
        self.prompt()

    def prompt(self) -> None:
        """Say what the person to move can do now (nothing while a computer moves)."""
        session, game = self.session, self.session.game
        if game.over:
            return
        if session.puzzle:
            note = f"{session.move_note} " if session.move_note else ""
            self.say(
                f"{note}Move {len(game.history) + 1}, {words.where(game.position)}. "
                f"{self.die_words()}"
            )
        elif not session.computer_to_move and not game.history:
            who = words.name(game.players[game.current], game.current)
            self.say(f"{who}: type roll, or press Enter.")

    # -- running

    def run(self) -> int:
        """Play until quit or the end of the input; the exit status."""
        try:
            self.opening()
            while True:
                self.computers_move()
                line = self.console.read()
                if line is None:
                    self.leave()
                    return EXIT_OK
                if not self.handle(line):
                    self.leave()
                    return EXIT_OK
        except KeyboardInterrupt:
            self.leave()
            return EXIT_INTERRUPTED

    def computers_move(self) -> None:
        """The computer's seats roll, each said, until a person is to move (or it ends)."""
        while self.session.computer_to_move:
            self.make_move(None)

    def handle(self, line: str) -> bool:
        """Do what ``line`` asks; False to quit."""
        typed = read_line(line, self.names)
        command = typed.command
        session, game = self.session, self.session.game
        if command is None:
            if not typed.typed or "roll".startswith(typed.typed):  # no rolling in a puzzle
                self.say(f"Puzzle mode: you choose. {self.die_words()}")
            else:
                self.say(unknown_line(typed, self.names))
        elif command == "quit":
            return False
        elif command == "help":
            if typed.rest.strip().casefold() == "all":
                for text in describe_commands(self.names):
                    self.say(text)
            else:
                self.say(help_line(self.names, die=self.die_words() if session.puzzle else None))
        elif command == "roll":
            if game.over:
                self.over_once("The game is over: type new for another, or quit.")
            else:
                self.make_move(None)
        elif command == DIE:
            if not session.puzzle:
                self.say("Classic mode: the die decides. Type roll, or press Enter.")
            elif game.over:
                self.over_once("The puzzle is solved: type new for another try, or quit.")
            else:
                assert typed.die is not None
                self.make_move(typed.die)
        elif command == "where":
            self.say(words.positions_line(game))
        elif command == "board":
            self.board(typed.rest)
        elif command == "hint":
            seat = session.hint_seat
            who = words.name(game.players[seat], seat)
            self.say(words.hint_line(session.board, game.positions[seat], who))
        elif command == "route":
            seat = session.hint_seat
            who = words.name(game.players[seat], seat)
            self.say(words.route_line(session.board, game.positions[seat], who))
        elif command == "odds":
            self.odds()
        elif command == "undo":
            self.undo()
        elif command == "new":
            self.new_game()
        elif command == "say":
            self.say_again(typed.rest)
        elif command == "resume":
            self.resume_offered()
        return True

    def resume_offered(self) -> None:
        """Go on with the offered unfinished game instead of the new one."""
        offer, self.offer = self.offer, None
        if offer is None:
            return
        try:
            session = GameSession.from_dict(offer.data)
        except SnlError as error:
            self.say(f"Game {offer.id} cannot be read back: {error}. Playing the new game.")
            return
        self.session = session
        self.over_said = False
        if self.saver is not None:
            self.saver.resumed(session, offer.id)
        self.resumed = offer.id
        self.last_line = None
        game = session.game
        self.say(words.board_line(session.board))
        self.say(words.start_line(game, session.mode))
        self.say(f"Game {offer.id} resumed after {plural(len(game.history), 'move')}.")
        self.say(words.positions_line(game))
        self.prompt()

    def over_once(self, text: str) -> None:
        """Said to the first roll after the end only: a script's remaining lines (``yes
        roll | snl play``) are not each answered with it."""
        if not self.over_said:
            self.over_said = True
            self.say(text)

    def say_again(self, rest: str) -> None:
        """``say``: the last move again; ``say 3``: the last 3 lines said."""
        count = parse_whole(rest.strip())
        if count is None or count < 1:
            self.say(self.last_line or "No move yet.")
            return
        for line in self.console.said[-min(count, SAY_MOST) :]:
            self.say(line)

    def board(self, rest: str) -> None:
        session, game = self.session, self.session.game
        if parse_whole(rest.strip()) is None:
            self.say(words.board_line(session.board))
        if rest.strip().casefold().startswith("a"):
            for text in words.all_jumps_lines(session.board):
                self.say(text)
            return
        number = parse_whole(rest.strip())
        if number is not None:  # board 47: what is on square 47
            self.say(words.square_line(session.board, number))
            return
        seat = session.hint_seat
        who = words.name(game.players[seat], seat)
        self.say(words.near_jumps_line(session.board, game.positions[seat], who))

    def odds(self) -> None:
        session, game = self.session, self.session.game
        if game.over:
            self.say("The game is over: no odds left to tell.")
            return
        if not odds_at_hand(session.board):  # the first time on a board: a moment
            self.say("Working out the odds...")
        odds = compute_odds(session.board, game.positions, game.current)
        self.say(words.odds_line(odds, game, game.current))

    def make_move(self, die: int | None) -> None:
        session = self.session
        game = session.game
        try:
            outcome = session.move_for(game.current, die)
        except TurnError as error:
            self.say(f"{error} {self.die_words() if session.puzzle else ''}")
            return
        line = words.turn_line(session.game, outcome.turn, chosen=session.puzzle)
        self.last_line = line
        self.offer = None  # the new game is under way: the offer is gone
        self.say(line)
        self.save()
        if session.game.over:
            self.ended()
        elif not session.computer_to_move:
            self.prompt()

    def ended(self) -> None:
        session, game = self.session, self.session.game
        if session.puzzle:
            optimal, moves = session.optimal_moves, len(game.history)
            if moves == optimal:
                self.say(f"The least possible is {optimal}: an optimal solution!")
            else:
                extra = plural(moves - optimal, "move")
                self.say(f"The least possible is {optimal}: {extra} more than the optimum.")
        else:
            luck = self.luck(session)
            if luck:
                self.say(luck)
        if self.saver is not None and self.saver.game_id is not None:
            self.say(f"Saved as game {self.saver.game_id}.")
        if session.puzzle:
            self.say("Type undo to take the last move back, new to try again, or quit.")
        else:
            self.say("Type new for another game, or quit.")

    def undo(self) -> None:
        session = self.session
        undone = session.undo()
        if undone is None:
            self.say("Nothing to undo yet: no move has been made.")
            return
        game = session.game
        line = (
            f"Took back {undone.move.die}: "
            f"{words.name(game.players[undone.player], undone.player)} "
            f"{words.where(game.positions[undone.player])} again."
        )
        self.last_line = line  # say: never the move taken back, as if it still stood
        self.say(line)
        self.save()
        self.prompt()

    def new_game(self) -> None:
        session = self.session
        if self.saver is not None:
            self.saver.leaving(session)
        abandoned = not session.game.over and bool(session.game.history)
        session.new_game(again=session.puzzle and session.game.over)
        self.last_line = None
        self.over_said = False
        if abandoned:
            self.say("The unfinished game is left as abandoned.")
        self.say(f"New game. {words.start_line(session.game, session.mode)}")
        self.prompt()

    def save(self) -> None:
        saver = self.saver
        if saver is None:
            return
        saver.moved(self.session)
        notice = saver.notice()
        while notice is not None:
            self.say(notice)
            notice = saver.notice()

    def leave(self) -> None:
        """Said on quitting: where the game stays."""
        saver, game = self.saver, self.session.game
        if game.over or not game.history or saver is None:  # None: --no-save, as asked
            self.say("Goodbye.")
        elif saver is not None and saver.game_id is not None:
            game_id = saver.game_id
            self.say(f"Goodbye. Game {game_id} is saved: snl resume {game_id} goes on from here.")
        else:
            self.say("Goodbye. This game was not saved.")


__all__ = ["CLASSIC_COMMANDS", "PUZZLE_COMMANDS", "PlainGame", "luck_line"]
