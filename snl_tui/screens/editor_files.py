"""The board editor's file flow and its ways out: save, save as (asking before it
overwrites), leave (asking about unsaved changes), play, generate, export and help.

``BoardFiles`` is a helper the editor (``screens/editor.py``) holds, not a part of its
class: the screen's actions call it, and it calls back only what ``EditorHost`` names
(the editing session, the status line, the titles, an edit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from textual.screen import Screen

from ..core.board import Board
from ..core.errors import BoardError
from ..core.studio.board_file import changed_on_disk, format_for
from ..core.studio.edit import Edit
from ..core.studio.editing import EditingSession
from ..core.text import plural
from .editor_commands import editor_help_text
from .studio_dialogs import ChoiceScreen, EditorHelpScreen, SaveAsScreen

__all__ = ["BoardFiles", "EditorHost", "UseBoard"]


@dataclass(frozen=True)
class UseBoard:
    """Take a generated board's squares, jumps and rules, keeping the edited board's name
    and description: one edit, so undo brings the old board back."""

    board: Board
    seed: int | None = None

    def apply(self, board: Board) -> Board:
        new = self.board
        return Board(
            new.rows,
            new.cols,
            new.jumps.items(),
            rules=new.rules,
            name=board.name,
            description=board.description,
        )

    def describe(self) -> str:
        new = self.board
        size = f"{new.rows}x{new.cols}"
        counts = f"{plural(len(new.ladders), 'ladder')}, {plural(len(new.snakes), 'snake')}"
        seed = "" if self.seed is None else f" (seed {self.seed}: type it to get it again)"
        return f"generated {size}: {counts}{seed}"


class EditorHost(Protocol):
    """What the file flow needs of the editor besides Textual's ``Screen``."""

    editing: EditingSession
    exit_on_leave: bool

    @property
    def board(self) -> Board: ...

    def show_status(self, message: str, *, error: bool = False) -> None: ...

    def show_titles(self) -> None: ...

    def kept_jumps(self) -> tuple[tuple[int, int], ...]: ...

    def apply_edit(self, edit: Edit, refused_hint: str = "") -> bool: ...


class BoardFiles:
    """The editor's saving, leaving, playing, generating, export and help."""

    def __init__(self, screen: Screen[Board | None], host: EditorHost) -> None:
        """``screen`` and ``host`` are the one editor: as Textual's screen (to push
        dialogs, leave) and as the board it edits."""
        self.screen = screen
        self.host = host

    # -- saving ----------------------------------------------------------------------------

    def save(self, then: Callable[[], None] | None = None) -> None:
        source = self.host.editing.source
        if source.path is None or source.fmt is None:
            self.save_as(then)
            return
        path, fmt = source.path, source.fmt
        if changed_on_disk(source):
            self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            return
        self._write(path, fmt, then)

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        source = self.host.editing.source
        suggestion = str(source.path) if source.path else f"{self.host.board.name or 'board'}.toml"

        def chosen(path: Path | None) -> None:
            if path is None:
                self.host.show_status("Not saved.")
                return
            same = source.path is not None and path.resolve() == source.path.resolve()
            fmt = source.fmt if same and source.fmt else format_for(path)
            if same and changed_on_disk(source):
                self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            elif not same and path.exists():
                self._ask_overwrite(f"{path} already exists.", path, fmt, then)
            else:
                self._write(path, fmt, then)

        self.screen.app.push_screen(SaveAsScreen(suggestion), chosen)

    def _ask_overwrite(
        self, reason: str, path: Path, fmt: str, then: Callable[[], None] | None
    ) -> None:
        def answered(choice: str | None) -> None:
            if choice == "o":
                self._write(path, fmt, then)
            else:
                self.host.show_status("Not saved.")

        question = f"{reason} Overwrite it?"
        self.screen.app.push_screen(
            ChoiceScreen(question, [("o", "Overwrite"), ("c", "Cancel")]), answered
        )

    def _write(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        left_out = self.host.editing.source.left_out
        if not left_out:
            self._write_now(path, fmt, then)
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self._write_now(path, fmt, then)
            else:
                self.host.show_status("Not saved: the file keeps the jumps that were left out.")

        count = plural(len(left_out), "jump")
        self.screen.app.push_screen(
            ChoiceScreen(
                f"The file had {count} that broke the board rules: {'; '.join(left_out)}. "
                f"Save {path} without them?",
                [("s", "Save without them"), ("c", "Cancel")],
            ),
            answered,
        )

    def _write_now(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        try:
            self.host.editing.write(path, fmt)
        except BoardError as error:
            self.host.show_status(f"Not saved: {error}", error=True)
            return
        except OSError as error:
            self.host.show_status(f"Not saved: {path}: {error.strerror or error}", error=True)
            return
        self.host.show_titles()
        self.host.show_status(f"Saved {path} ({fmt}).")
        if then is not None:
            then()

    # -- leaving, playing, generating, help --------------------------------------------------

    def leave(self) -> None:
        if not self.host.editing.dirty:
            self.leave_now()
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self.save(then=self.leave_now)
            elif choice == "d":
                self.leave_now(discard=True)

        where = self.host.editing.source.path or "a file"
        self.screen.app.push_screen(
            ChoiceScreen(
                f"Save your changes to {where} before leaving?",
                [("s", "Save"), ("d", "Discard"), ("c", "Cancel")],
            ),
            answered,
        )

    def leave_now(self, discard: bool = False) -> None:
        if self.host.exit_on_leave:
            self.screen.app.exit(return_code=0)
        else:  # back to the game, which plays the edited board unless it was discarded
            self.screen.dismiss(None if discard else self.host.board)

    def play(self) -> None:
        from ..core.engine import Player
        from ..core.session import GameSettings
        from .game import GameScreen

        settings = getattr(self.screen.app, "settings", None)
        players = tuple(settings.players) if settings is not None else (Player("You"),)
        seed = settings.seed if settings is not None else None
        animate = bool(getattr(self.screen.app, "animation_on", True))
        game = GameScreen(
            GameSettings(self.host.board, players, seed), animate=animate, pushed=True
        )
        self.screen.app.push_screen(game, lambda _: self.host.show_status("Back from the game."))

    def generate(self) -> None:
        from .generate_dialog import GenerateScreen

        board = self.host.board
        dialog = GenerateScreen(
            rows=board.rows, cols=board.cols, rules=board.rules, keep=self.host.kept_jumps()
        )

        def generated(new: Board | None) -> None:
            if new is not None:
                self.host.apply_edit(UseBoard(new, dialog.last_seed))

        self.screen.app.push_screen(dialog, generated)

    def export(self) -> None:
        from .export_dialog import ExportScreen

        stem = "-".join("".join(c if c.isalnum() else " " for c in self.host.board.name).split())
        suggestion = f"{stem.lower() or 'board'}.pdf"
        dialog = ExportScreen(self.host.board, suggestion)
        self.screen.app.push_screen(
            dialog, lambda said: self.host.show_status(said or "Not exported.")
        )

    def editor_help(self) -> None:
        self.screen.app.push_screen(EditorHelpScreen(editor_help_text()))
