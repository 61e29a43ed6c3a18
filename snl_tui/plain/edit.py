"""``snl edit --screen-reader``: the board studio as a line editor.

Typed lines change the board through the studio's own edits (``core.studio.edit``:
``ladder 3 19`` is an ``AddJump``, ``remove 45`` a ``RemoveJump``, with undo and redo),
so a refused change is refused in the board's own words; ``numbers`` says the live
figures (``core.studio.figures``), ``check`` the checks ``snl check`` makes, and ``save``
writes the file as the editor screen does (``core.studio.board_file``: the file's own
format, atomically, asking before overwriting a file changed on disk). Nothing here
decides what a valid board is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from ..core.board import Board, JumpSpec
from ..core.errors import SnlError
from ..core.rules import RULE_NAMES
from ..core.studio.board_file import BoardSource, changed_on_disk, format_for
from ..core.studio.edit import AddJump, Edit, RemoveJump, Resize, SetName, SetRules
from ..core.studio.editing import EditingSession
from ..core.studio.figures import StudioFigures, compute_figures, figure_values
from ..core.text import parse_whole, plural, quote
from . import words
from .commands import Command, describe_commands, help_line, read_line, unknown_line
from .console import Console
from .speech import spoken

EDIT_COMMANDS = (
    Command("ladder", "add a ladder: ladder 3 19 climbs from 3 up to 19"),
    Command("snake", "add a snake: snake 45 27 slides from 45 down to 27"),
    Command("remove", "remove the snake or ladder that starts on a square: remove 45"),
    Command("jumps", "every ladder and every snake"),
    Command("where", "what is being edited: its file, its size, whether it has unsaved changes"),
    Command("board", "the board: its size and rules, then every ladder and every snake"),
    Command("square", "what is on a square: square 47"),
    Command("numbers", "the live figures: least rolls, expected turns, chances"),
    Command("check", "what snl check says about the board: warnings and each jump's effect"),
    Command("undo", "take back the last change"),
    Command("redo", "make the change taken back again"),
    Command("name", "rename the board: name My board"),
    Command("size", "resize the board: size 8 8 (rows and columns)"),
    Command("rule", "change a rule: rule overshoot bounce, rule start 0, rule six again on"),
    Command("save", "save the board to its file; save as PATH saves to another file"),
    Command("say", "say the last line again; say 3 says the last 3 lines"),
    Command("help", "this list"),
    Command("quit", "leave (asks first when there are unsaved changes)"),
)
NAMES = tuple(command.name for command in EDIT_COMMANDS)

FIGURE_WORDS = {
    "std dev": "standard deviation",
    "90th pct": "90th percentile",
    "edge 2p": "first player's edge with 2 players",
    "edge 4p": "first player's edge with 4 players",
    "expected": "expected turns",
    "median": "median turns",
    "most likely": "most likely turns",
}
SAY_MOST = 50
"""The most lines ``say N`` repeats."""

EXIT_OK = 0
EXIT_INTERRUPTED = 130


def figure_words(figures: StudioFigures) -> str:
    """Every figure of the numbers panel, in words."""
    if figures.problem is not None:
        return spoken(figures.problem) + "."
    parts = []
    for label, value in figure_values(figures):
        said = value.replace(" pts", " points").replace("+", "plus ")
        if label.startswith(("within ", "over ")):
            label += " turns"  # 'within 10 turns: 2.2%', never 'within 10 2.2%'
        parts.append(f"{FIGURE_WORDS.get(label, label)}: {said}")
    text = "; ".join(parts) + "."
    if math.isinf(figures.expected_turns):
        text += " Games may never end, so the expected length is infinite."
    return spoken(text)


def rule_words(text: str) -> str:
    """``text`` with each rule's name as it is said and typed here: 'six again', not
    'six_again' (a screen reader reads the underscore, or runs the words together)."""
    for name in RULE_NAMES:
        text = text.replace(name, name.replace("_", " "))
    return text


def rule_and_value(rest: str) -> tuple[str, str] | None:
    """(rule name, value as typed) from 'six again on', 'six_again on' or 'six-again
    on'; None without a value."""
    words_typed = rest.split()
    for count in (3, 2):
        joined = "_".join(words_typed[:count]).replace("-", "_").casefold()
        if joined in RULE_NAMES and len(words_typed) > count:
            return joined, " ".join(words_typed[count:])
    if len(words_typed) < 2:
        return None
    return words_typed[0].replace("-", "_"), " ".join(words_typed[1:])


def rule_value(text: str) -> object:
    """A rule's value as typed: true, false, a whole number, or the word itself."""
    lowered = text.strip().casefold()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    number = parse_whole(lowered)
    return number if number is not None else text.strip()


class PlainEditor:
    """One sitting of the board studio in plain lines."""

    def __init__(
        self, board: Board, source: BoardSource, console: Console, note: str | None = None
    ) -> None:
        self.editing = EditingSession(board, source)
        """The board, its edits and its file (``core.studio.editing``)."""
        self.console = console
        self.note = note
        self.left_out_told = False
        self.asking: Callable[[], None] | None = None
        """A question is open: 'yes' runs this, anything else cancels it."""
        self.leaving = False
        """quit was typed with unsaved changes: a second quit leaves without saving."""
        self.last = ""

    def say(self, text: str) -> None:
        self.last = text
        self.console.say(text)

    # -- running

    def run(self) -> int:
        try:
            self.opening()
            while True:
                line = self.console.read()
                if line is None:
                    if self.editing.dirty:
                        self.say("The input ended: leaving without saving the changes.")
                    self.say("Goodbye.")
                    return EXIT_OK
                if not self.handle(line):
                    self.say("Goodbye.")
                    return EXIT_OK
        except KeyboardInterrupt:
            self.say("Goodbye.")
            return EXIT_INTERRUPTED

    def opening(self) -> None:
        self.say(f"Editing {self.where()}.")
        self.say(words.board_line(self.editing.board))
        if self.note:
            self.say(spoken(self.note))
        self.say(self.short_figures(compute_figures(self.editing.board)))
        self.say("Type help for the commands, for example ladder 3 19, then save.")

    def say_again(self, rest: str) -> None:
        """``say``: the last line again; ``say 3``: the last 3 lines said."""
        count = parse_whole(rest.strip())
        if count is None or count < 1:
            self.console.say(self.last or "Nothing said yet.")
            return
        for line in self.console.said[-min(count, SAY_MOST) :]:
            self.console.say(line)

    def where_line(self) -> str:
        if self.editing.source.path is None:  # 'not saved yet' says it all
            return f"Editing {self.where()}."
        changes = "changes that are not saved" if self.editing.dirty else "no unsaved changes"
        return f"Editing {self.where()}; it has {changes}."

    def where(self) -> str:
        source = self.editing.source
        if source.path is not None:
            return str(source.path)
        if source.builtin is not None:
            return f"a copy of the built-in board {source.builtin}; save as PATH keeps it"
        return "a new board, not saved yet; save as PATH keeps it"

    def handle(self, line: str) -> bool:
        """Do what ``line`` asks; False to leave."""
        asking, self.asking = self.asking, None
        if asking is not None:
            if line.strip().casefold() in ("y", "yes"):
                asking()
                return True
            self.say("Not saved.")
            if not line.strip():
                return True
        typed = read_line(line, NAMES)
        command, rest = typed.command, typed.rest
        if command != "quit":
            self.leaving = False
        if command is None:
            if not typed.typed:
                self.say("Type a command, or help.")
            else:
                self.say(unknown_line(typed, NAMES))
        elif command in ("ladder", "snake"):
            self.add(command, rest)
        elif command == "remove":
            self.remove(rest)
        elif command == "jumps":
            for text in words.all_jumps_lines(self.editing.board):
                self.say(text)
        elif command == "where":
            self.say(self.where_line())
            self.say(words.board_line(self.editing.board))
            self.say(self.short_figures(compute_figures(self.editing.board)))
        elif command == "board":
            self.say(words.board_line(self.editing.board))
            for text in words.all_jumps_lines(self.editing.board):
                self.say(text)
        elif command == "square":
            self.square(rest)
        elif command == "numbers":
            self.say(figure_words(compute_figures(self.editing.board)))
        elif command == "check":
            self.check()
        elif command == "undo":
            self.undo()
        elif command == "redo":
            self.redo()
        elif command == "name":
            self.change(SetName(" ".join(rest.split())), f"Renamed to {quote(rest.strip())}.")
        elif command == "size":
            self.resize(rest)
        elif command == "rule":
            self.rule(rest)
        elif command == "save":
            self.save(rest)
        elif command == "say":
            self.say_again(rest)
        elif command == "help":
            if rest.strip().casefold() == "all":
                for text in describe_commands(NAMES, EDIT_COMMANDS):
                    self.say(text)
            else:
                self.say(help_line(NAMES))
        elif command == "quit":
            return self.quit()
        else:
            self.say(unknown_line(typed, NAMES))
        return True

    # -- changing the board

    def squares(self, rest: str, count: int, usage: str) -> list[int] | None:
        """``count`` square numbers from ``rest``; None (and one line of help) if not."""
        values = [parse_whole(word) for word in rest.replace(",", " ").split()]
        if len(values) != count or any(value is None for value in values):
            self.say(f"Type {usage}.")
            return None
        return [value for value in values if value is not None]

    def add(self, kind: str, rest: str) -> None:
        example = "ladder 3 19" if kind == "ladder" else "snake 45 27"
        squares = self.squares(
            rest, 2, f"{kind}, the square it starts on and where it ends: {example}"
        )
        if squares is None:
            return
        start, end = squares
        kinds = "ladder" if end > start else "snake"
        if kinds != kind and start != end:
            # In the board's own words ("... goes down: that is a snake, not a ladder").
            board = self.editing.board
            try:
                Board(board.rows, board.cols, [JumpSpec(start, end, kind)])  # type: ignore[arg-type]
            except SnlError as error:
                self.say(f"Not added: {spoken(str(error))}.")
                return
        direction = "up" if kind == "ladder" else "down"
        self.change(AddJump(start, end), f"Added a {kind} from {start} {direction} to {end}.")

    def remove(self, rest: str) -> None:
        squares = self.squares(rest, 1, "remove and the square a snake or ladder starts on")
        if squares is None:
            return
        jump = self.editing.board.jump_at(squares[0])
        what = (
            f"the {jump.kind} from {jump.start} {'up' if jump.kind == 'ladder' else 'down'} "
            f"to {jump.end}"
            if jump is not None
            else f"the jump on {squares[0]}"
        )
        # With its end, the edit names the jump: 'Undone: removed the snake from 45 down
        # to 27', not 'the jump on square 45'.
        edit = RemoveJump(squares[0], jump.end if jump is not None else None)
        self.change(edit, f"Removed {what}.")

    def resize(self, rest: str) -> None:
        squares = self.squares(rest, 2, "size, then the rows and the columns: size 8 8")
        if squares is not None:
            rows, cols = squares
            self.change(Resize(rows, cols), f"Resized to {rows} by {cols}.")

    def rule(self, rest: str) -> None:
        parts = rule_and_value(rest)
        if parts is None:
            self.say("Type rule, a rule's name and its value: rule overshoot bounce.")
            return
        name, value = parts
        said = rule_words(name)
        self.change(SetRules({name: rule_value(value)}), f"Rule {said} is now {value.strip()}.")

    def change(self, edit: Edit, done: str) -> None:
        """Apply ``edit``: say what it did and how the figures moved, or why not."""
        before = compute_figures(self.editing.board)
        try:
            self.editing.apply(edit)
        except SnlError as error:
            self.say(f"Not changed: {rule_words(spoken(str(error)))}.")
            return
        self.say(f"{done} {self.figures_moved(before, compute_figures(self.editing.board))}")

    def undo(self) -> None:
        before = compute_figures(self.editing.board)
        edit = self.editing.history.undo()
        if edit is None:
            self.say("Nothing to undo.")
            return
        after = compute_figures(self.editing.board)
        self.say(f"Undone: {spoken(edit.describe())}. {self.figures_moved(before, after)}")

    def redo(self) -> None:
        before = compute_figures(self.editing.board)
        edit = self.editing.history.redo()
        if edit is None:
            self.say("Nothing to redo.")
            return
        after = compute_figures(self.editing.board)
        self.say(f"Redone: {spoken(edit.describe())}. {self.figures_moved(before, after)}")

    # -- telling

    @staticmethod
    def short_figures(figures: StudioFigures) -> str:
        if figures.problem is not None:
            return spoken(figures.problem) + "."
        values = dict(figure_values(figures))
        return (
            f"Least rolls {values['least rolls']}, expected turns {values['expected']}. "
            "Type numbers for every figure."
        )

    @staticmethod
    def figures_moved(before: StudioFigures, after: StudioFigures) -> str:
        """'Least rolls 7 to 6; expected turns 39.2 to 35.1.' (the figures that moved)."""
        if after.problem is not None:
            return spoken(after.problem) + "."
        old = dict(figure_values(before)) if before.ok else {}
        new = dict(figure_values(after))
        parts = []
        for label, said in (("least rolls", "least rolls"), ("expected", "expected turns")):
            if old.get(label) not in (None, new[label]):
                parts.append(f"{said} {old[label]} to {new[label]}")
            else:
                parts.append(f"{said} {new[label]}")
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + "."

    def square(self, rest: str) -> None:
        squares = self.squares(rest, 1, "square and its number: square 47")
        if squares is None:
            return
        self.say(words.square_line(self.editing.board, squares[0]))

    def check(self) -> None:
        from ..core.studio.checks import check_board  # numpy loads only when needed

        report = check_board(self.editing.board, drawing=True)
        if not report.warnings:
            self.say("No warnings.")
        for warning in report.warnings:
            self.say(f"Warning: {spoken(warning.message)}.")
        for note in report.notes:
            self.say(spoken(note))

    # -- saving and leaving

    def save(self, rest: str) -> None:
        words_given = rest.split(maxsplit=1)
        if words_given and words_given[0].casefold() == "as":
            path_text = words_given[1].strip() if len(words_given) > 1 else ""
            if not path_text:
                self.say("Type save as and a file name ending in .toml, .json or .txt.")
                return
            self.save_as(Path(path_text).expanduser())
            return
        if rest.strip():
            self.save_as(Path(rest.strip()).expanduser())
            return
        source = self.editing.source
        if source.path is None or source.fmt is None:
            self.say(
                "This board has no file yet: type save as and a file name ending in "
                ".toml, .json or .txt."
            )
            return
        path, fmt = source.path, source.fmt
        if changed_on_disk(source):
            self.ask(f"{path} changed on disk since it was opened.", path, fmt)
            return
        self.write(path, fmt)

    def save_as(self, path: Path) -> None:
        source = self.editing.source
        same = source.path is not None and path.resolve() == source.path.resolve()
        try:
            fmt = source.fmt if same and source.fmt else format_for(path)
        except SnlError as error:
            self.say(f"Not saved: {spoken(str(error))}.")
            return
        if same and changed_on_disk(source):
            self.ask(f"{path} changed on disk since it was opened.", path, fmt)
        elif not same and path.exists():
            self.ask(f"{path} already exists.", path, fmt)
        else:
            self.write(path, fmt)

    def ask(self, reason: str, path: Path, fmt: str) -> None:
        self.asking = lambda: self.write(path, fmt)
        self.say(f"{reason} Overwrite it? Type yes to overwrite, anything else to cancel.")

    def write(self, path: Path, fmt: str) -> None:
        left_out = self.editing.source.left_out
        if left_out and not self.left_out_told:
            self.left_out_told = True
            self.asking = lambda: self.write(path, fmt)
            self.say(
                f"The file had {plural(len(left_out), 'jump')} that broke the board rules: "
                f"{spoken('; '.join(left_out))}. Save {path} without them? Type yes to save."
            )
            return
        try:
            self.editing.write(path, fmt)
        except SnlError as error:
            self.say(f"Not saved: {spoken(str(error))}.")
            return
        except OSError as error:
            self.say(f"Not saved: {path}: {error.strerror or error}.")
            return
        self.say(f"Saved {path}, as {fmt}.")

    def quit(self) -> bool:
        if not self.editing.dirty or self.leaving:
            if self.editing.dirty:
                self.say("Left without saving.")
            return False
        self.leaving = True
        self.say(
            "The board has changes that are not saved: type save (or save as PATH), "
            "or quit again to leave without saving."
        )
        return True


__all__ = ["EDIT_COMMANDS", "PlainEditor", "figure_words"]
