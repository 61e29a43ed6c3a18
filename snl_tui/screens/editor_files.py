"""The board editor's file flow and its ways out: save, save as (asking before it
overwrites), leave (asking about unsaved changes), play, generate, export and help.

A part of ``EditorScreen`` (``screens/editor.py``), on the state and display of
``EditorDisplay``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.board import Board
from ..core.errors import BoardError
from ..core.studio.board_file import changed_on_disk, format_for
from ..core.text import plural
from ..widgets.edit_board import EditBoard
from .editor_commands import editor_help_text
from .editor_display import EditorDisplay
from .studio_dialogs import ChoiceScreen, EditorHelpScreen, SaveAsScreen

__all__ = ["EditorFiles", "UseBoard"]


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


class EditorFiles(EditorDisplay):
    """The editor's saving, leaving, playing, generating, export and help."""

    # -- saving ----------------------------------------------------------------------------

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        source = self.editing.source
        if source.path is None or source.fmt is None:
            self.action_save_as(then)
            return
        path, fmt = source.path, source.fmt
        if changed_on_disk(source):
            self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            return
        self._write(path, fmt, then)

    def action_save_as(self, then: Callable[[], None] | None = None) -> None:
        source = self.editing.source
        suggestion = str(source.path) if source.path else f"{self.board.name or 'board'}.toml"

        def chosen(path: Path | None) -> None:
            if path is None:
                self._status("Not saved.")
                return
            same = source.path is not None and path.resolve() == source.path.resolve()
            fmt = source.fmt if same and source.fmt else format_for(path)
            if same and changed_on_disk(source):
                self._ask_overwrite(f"{path} changed on disk since it was opened.", path, fmt, then)
            elif not same and path.exists():
                self._ask_overwrite(f"{path} already exists.", path, fmt, then)
            else:
                self._write(path, fmt, then)

        self.app.push_screen(SaveAsScreen(suggestion), chosen)

    def _ask_overwrite(
        self, reason: str, path: Path, fmt: str, then: Callable[[], None] | None
    ) -> None:
        def answered(choice: str | None) -> None:
            if choice == "o":
                self._write(path, fmt, then)
            else:
                self._status("Not saved.")

        question = f"{reason} Overwrite it?"
        self.app.push_screen(
            ChoiceScreen(question, [("o", "Overwrite"), ("c", "Cancel")]), answered
        )

    def _write(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        left_out = self.editing.source.left_out
        if not left_out:
            self._write_now(path, fmt, then)
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self._write_now(path, fmt, then)
            else:
                self._status("Not saved: the file keeps the jumps that were left out.")

        count = plural(len(left_out), "jump")
        self.app.push_screen(
            ChoiceScreen(
                f"The file had {count} that broke the board rules: {'; '.join(left_out)}. "
                f"Save {path} without them?",
                [("s", "Save without them"), ("c", "Cancel")],
            ),
            answered,
        )

    def _write_now(self, path: Path, fmt: str, then: Callable[[], None] | None) -> None:
        try:
            self.editing.write(path, fmt)
        except BoardError as error:
            self._status(f"Not saved: {error}", error=True)
            return
        except OSError as error:
            self._status(f"Not saved: {path}: {error.strerror or error}", error=True)
            return
        self._show_titles()
        self._status(f"Saved {path} ({fmt}).")
        if then is not None:
            then()

    # -- leaving, playing, generating, help --------------------------------------------------

    def action_leave(self) -> None:
        if not self.editing.dirty:
            self._leave_now()
            return

        def answered(choice: str | None) -> None:
            if choice == "s":
                self.action_save(then=self._leave_now)
            elif choice == "d":
                self._leave_now(discard=True)

        where = self.editing.source.path or "a file"
        self.app.push_screen(
            ChoiceScreen(
                f"Save your changes to {where} before leaving?",
                [("s", "Save"), ("d", "Discard"), ("c", "Cancel")],
            ),
            answered,
        )

    def _leave_now(self, discard: bool = False) -> None:
        if self.exit_on_leave:
            self.app.exit(return_code=0)
        else:  # back to the game, which plays the edited board unless it was discarded
            self.dismiss(None if discard else self.board)

    def action_play(self) -> None:
        from ..core.engine import Player
        from ..core.session import GameSettings
        from .game import GameScreen

        settings = getattr(self.app, "settings", None)
        players = tuple(settings.players) if settings is not None else (Player("You"),)
        seed = settings.seed if settings is not None else None
        animate = bool(getattr(self.app, "animation_on", True))
        game = GameScreen(GameSettings(self.board, players, seed), animate=animate, pushed=True)
        self.app.push_screen(game, lambda _: self._status("Back from the game."))

    def action_generate(self) -> None:
        from .generate_dialog import GenerateScreen

        board = self.board
        dialog = GenerateScreen(
            rows=board.rows, cols=board.cols, rules=board.rules, keep=self.kept_jumps()
        )

        def generated(new: Board | None) -> None:
            if new is not None:
                self.apply_edit(UseBoard(new, dialog.last_seed))

        self.app.push_screen(dialog, generated)

    def action_toggle_jumps(self) -> None:
        self._status(self.query_one(EditBoard).toggle_jumps())

    def action_toggle_fit(self) -> None:
        self._status(self.query_one(EditBoard).toggle_fit())

    def action_export(self) -> None:
        from .export_dialog import ExportScreen

        stem = "-".join("".join(c if c.isalnum() else " " for c in self.board.name).split())
        suggestion = f"{stem.lower() or 'board'}.pdf"
        dialog = ExportScreen(self.board, suggestion)
        self.app.push_screen(dialog, lambda said: self._status(said or "Not exported."))

    def action_editor_help(self) -> None:
        self.app.push_screen(EditorHelpScreen(editor_help_text()))
