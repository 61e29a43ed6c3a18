"""``snl learn --screen-reader``: LeetCode 909's breadth-first search told step by step.

The steps are the lab's (``lab.search.breadth_first``: the same search the learn screen
shows, moves from the engine); this module only says them: the square taken off the
queue, each die tried from it (where it lands, the snake or ladder it takes, whether the
square is new), the queue by levels, and the route read back from the goal. ``next`` (or
Enter) says one step, a number that many, ``level`` the rest of a level, ``run`` jumps
to the end; ``back`` goes back one.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.board import Board
from ..core.engine import legal_dice, move
from ..core.text import plural
from ..lab.search import Search, Step, breadth_first
from . import words
from .commands import DIE, Command, describe_commands, help_line, read_line, unknown_line
from .console import Console
from .speech import spoken

LEARN_COMMANDS = (
    Command("next", "say the next step (an empty line does too; a number says that many)"),
    Command("level", "say the steps to the end of this level of the search"),
    Command("run", "jump to the end of the search and say the answer and the route"),
    Command("route", "the route found, die by die (once the search reaches the goal)"),
    Command("where", "which step this is, the square being expanded, and the counts"),
    Command("back", "go back one step and say it again"),
    Command("code", "the lines of the textbook code this step runs"),
    Command("board", "the board, its ladders and snakes"),
    Command("start", "start the search again from its first step"),
    Command("say", "say the last step again"),
    Command("help", "this list"),
    Command("quit", "leave"),
    Command("queue", "the squares waiting in the queue, by their distance"),
)
NAMES = tuple(command.name for command in LEARN_COMMANDS)

LEVEL_SPOKEN = 100
"""Steps ``level`` says at most at once (a level of a huge board has thousands)."""

EXIT_OK = 0
EXIT_INTERRUPTED = 130


def square_words(square: int) -> str:
    return "the start, off the board" if square == 0 else str(square)


def dice_words(dice: Sequence[int]) -> str:
    if not dice:
        return "No die moves from it."
    if len(dice) == 1:
        return f"Try the die {dice[0]}."
    return f"Try the dice {dice[0]} to {dice[-1]}."


class StepWords:
    """Each step of one search as one line of words, worked out once."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.lines = self._all_lines()

    def _all_lines(self) -> list[str]:
        search, board = self.search, self.search.board
        lines: list[str] = []
        dice: tuple[int, ...] | list[int] = []
        tried = 0
        for step in search.steps:
            kind = step.labels[0] if step.labels else ""
            if kind == "pop" and step.here is not None:
                dice, tried = legal_dice(board, step.here), 0
                lines.append(self.pop_line(step, dice))
            elif kind == "die" and step.here is not None and tried < len(dice):
                die = dice[tried]
                tried += 1
                lines.append(self.die_line(board, step, die))
            elif kind == "route":
                lines.append(self.route_line(step))
            elif kind == "done":
                lines.append(self.done_line())
            elif kind == "init":
                where = (
                    "off the board, square 0" if search.start == 0 else f"on square {search.start}"
                )
                lines.append(f"The search starts {where}, at distance 0. The queue holds it.")
            else:  # a step this module does not know: the lab's own words, spoken
                lines.append(spoken(step.text))
        return lines

    def pop_line(self, step: Step, dice: Sequence[int]) -> str:
        assert step.here is not None
        return (
            f"Take {square_words(step.here)} off the queue, at distance {step.level}. "
            f"{dice_words(dice)}"
        )

    def die_line(self, board: Board, step: Step, die: int) -> str:
        assert step.here is not None
        moved = move(board, step.here, die)
        if moved.end != step.end:  # the lab's step is not this die: say its own words
            return spoken(step.text)
        text = f"Die {die}: {words.move_words(moved)}"
        if step.one_jump is not None:
            jump = board.jump_at(step.one_jump)
            kind = jump.kind if jump is not None else "jump"
            text += (
                f". {step.one_jump} starts a {kind} too, but a move takes one jump only: "
                f"it stays on {step.one_jump}"
            )
        distance = self.search.distance.get(moved.end)
        if "seen" in step.labels:
            text += f". {moved.end} already has distance {distance}: nothing new."
        elif "goal" in step.labels:
            text += f". The goal, at distance {distance}: the answer is {distance}."
        else:
            text += f". {moved.end} is new: distance {distance}, into the queue."
        return text

    def route_line(self, step: Step) -> str:
        search = self.search
        if step.here is None or step.end is None:
            return f"Read the route back from the goal, {search.board.goal}."
        before, die, landed = search.parent[step.end]
        text = f"{step.end} was first reached from {square_words(before)} with a {die}"
        jump = search.board.jump_at(landed) if landed != step.end else None
        if jump is not None:
            text += f", landing on {landed}, {words.jump_words(jump)}"
        return text + "."

    def done_line(self) -> str:
        return self.route_words()

    def route_words(self) -> str:
        """'The route, 4 rolls: roll 1 from 1 to 2, a ladder up to 15; then 2 ...'."""
        search = self.search
        route = search.route
        if len(route) < 2:
            return "The goal was never reached: the answer is -1."
        parts = []
        for square in route[1:]:
            before, die, _ = search.parent[square]
            parts.append(f"{die}, {words.move_words(move(search.board, before, die))}")
        return (
            f"The route, {plural(search.answer, 'roll')}: roll "
            + "; then ".join(parts)
            + ". Squares: "
            + words.and_list([str(square) for square in route])
            + "."
        )


class PlainLearn:
    """One sitting of ``snl learn`` in plain lines: ``run`` until quit or end of input."""

    def __init__(self, board: Board, console: Console) -> None:
        self.board = board
        self.console = console
        self.search = breadth_first(board)
        self.steps = StepWords(self.search)
        self.index = -1
        """The step said last (-1: none yet)."""

    def say(self, text: str) -> None:
        self.console.say(text)

    @property
    def total(self) -> int:
        return len(self.search.steps)

    def opening(self) -> None:
        self.say(words.board_line(self.board))
        for line in words.all_jumps_lines(self.board):
            self.say(line)
        self.say(
            f"LeetCode 909's breadth-first search on this board, in {plural(self.total, 'step')}."
        )
        for note in self.search.notes:
            self.say(spoken(note) + ".")
        self.say("Press Enter or type next for each step; type help for the commands.")

    def run(self) -> int:
        try:
            self.opening()
            while True:
                line = self.console.read()
                if line is None or not self.handle(line):
                    self.say("Goodbye.")
                    return EXIT_OK
        except KeyboardInterrupt:
            self.say("Goodbye.")
            return EXIT_INTERRUPTED

    def handle(self, line: str) -> bool:
        """Do what ``line`` asks; False to quit."""
        typed = read_line(line, NAMES)
        command = typed.command
        if command is None and not typed.typed:
            command = "next"
        if command == DIE:
            assert typed.die is not None
            self.forward(typed.die)
        elif command == "next":
            count = typed.rest.strip()
            self.forward(int(count) if count.isdigit() else 1)
        elif command == "level":
            self.level()
        elif command == "run":
            self.to_end()
        elif command == "route":
            self.route()
        elif command == "queue":
            self.queue()
        elif command == "where":
            self.where()
        elif command == "back":
            self.back()
        elif command == "code":
            self.code()
        elif command == "board":
            self.say(words.board_line(self.board))
            for text in words.all_jumps_lines(self.board):
                self.say(text)
        elif command == "start":
            self.index = -1
            self.say("Back to the start of the search. Press Enter for its first step.")
        elif command == "say":
            self.say(self.steps.lines[self.index] if self.index >= 0 else "No step yet.")
        elif command == "help":
            if typed.rest.strip().casefold() == "all":
                for text in describe_commands(NAMES, LEARN_COMMANDS):
                    self.say(text)
            else:
                self.say(help_line(NAMES, empty="next"))
        elif command == "quit":
            return False
        else:
            self.say(unknown_line(typed, NAMES, empty="next"))
        return True

    def at_end(self) -> bool:
        return self.index >= self.total - 1

    def step(self) -> None:
        self.index += 1
        self.say(self.steps.lines[self.index])
        if self.at_end():
            self.say("The search is over: type route, back, start or quit.")

    def forward(self, count: int) -> None:
        if self.at_end():
            self.say("The search is over: type route, back, start or quit.")
            return
        for _ in range(max(1, min(count, self.total))):
            if self.at_end():
                break
            self.step()

    def level(self) -> None:
        """The steps to the next level's first step (or the end), at most LEVEL_SPOKEN."""
        if self.at_end():
            self.forward(1)
            return
        starts = [start for start in self.search.level_starts() if start > self.index + 1]
        stop = (starts[0] if starts else self.total) - 1
        said = 0
        while self.index < stop and said < LEVEL_SPOKEN:
            self.step()
            said += 1
        if self.index < stop:
            left = plural(stop - self.index, "more step")
            self.say(f"{left} in this level: type level again.")

    def to_end(self) -> None:
        skipped = self.total - 1 - self.index
        if skipped <= 0:
            self.forward(1)
            return
        self.index = self.total - 2
        self.say(f"Skipped {plural(skipped - 1, 'step')} to the end.")
        self.step()

    def back(self) -> None:
        if self.index <= 0:
            self.index = -1
            self.say("At the start: press Enter for the first step.")
            return
        self.index -= 1
        self.say(f"Back to step {self.index + 1}. {self.steps.lines[self.index]}")

    def route(self) -> None:
        view = self.search.view(max(self.index, 0))
        if self.index < 0 or not view.route:
            if self.search.answer < 0:
                self.say("The search finds no route: the goal cannot be reached.")
            else:
                self.say(
                    "The route is read back once the search reaches the goal: type run to go there."
                )
            return
        self.say(self.steps.route_words())

    def queue(self) -> None:
        if self.index < 0:
            self.say(f"The queue holds {square_words(self.search.start)}.")
            return
        view = self.search.view(self.index)
        if not view.queue:
            self.say("The queue is empty.")
            return
        levels: dict[int, list[str]] = {}
        for square in view.queue:
            levels.setdefault(view.distances[square], []).append(square_words(square))
        parts = [f"at distance {level}: {', '.join(squares)}" for level, squares in levels.items()]
        self.say(
            f"The queue, front first, {plural(len(view.queue), 'square')}: "
            + "; ".join(parts)
            + "."
        )

    def where(self) -> None:
        if self.index < 0:
            self.say(f"Before the first of {plural(self.total, 'step')}.")
            return
        view = self.search.view(self.index)
        step = view.step
        text = f"Step {self.index + 1} of {self.total}, level {step.level}."
        if step.here is not None and step.labels[0] in ("pop", "die"):
            text += f" Expanding {square_words(step.here)}."
        text += (
            f" {plural(len(view.distances), 'square')} have a distance;"
            f" {plural(len(view.queue), 'square')} in the queue."
        )
        self.say(text)

    def code(self) -> None:
        if self.index < 0:
            self.say("No step yet.")
            return
        labels = self.search.steps[self.index].labels
        lines = [line.text.strip() for line in self.search.code if line.label in labels]
        if not lines:
            self.say("No line of code for this step.")
            return
        # A line of code a line, as a screen reader reviews code ('...):; r, c' joined
        # on one line read as neither code nor words).
        self.say(f"The code of this step, {plural(len(lines), 'line')}:")
        for line in lines:
            self.say(line)


__all__ = ["LEARN_COMMANDS", "PlainLearn", "StepWords"]
