"""The game's keys and clicks: which keys the footer offers, what an unbound key says, a
click on a square, and the box for a die value that has no key.

A part of ``GameScreen`` (``screens/game.py``), on the state and display of ``GameDisplay``.
"""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.binding import ActiveBinding
from textual.events import Click, Key
from textual.widgets import Input

from ..commands import DIE_KEYS, command, keys_of
from ..core.board import Board
from ..core.session import dice_keys
from ..core.text import quote
from ..widgets.board import BoardView
from ..widgets.dice import DieInput
from .background import NOTHING, in_background
from .game_display import GameDisplay

__all__ = ["GameKeys"]


class GameKeys(GameDisplay):
    """The game screen's keys and clicks."""

    # -- keys and clicks ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys the footer offers (the session decides; a hidden board offers
        nothing but quit and help). Whose turn it is and whether a move is still being
        shown are checked by ``can_move``."""
        if self.has_class("too-small") and action not in ("quit", "help"):
            return False  # nothing happens on a board the player cannot see
        if action == "room" and parameters:
            action = str(parameters[0])
        if (offered := self.table.allows(action, self.session)) is not None:
            return offered
        available = self.session.available(action)
        if available and not self.panels_mounted and action not in ("quit", "help"):
            return None  # the game begins once the panels are up (a key mounts them)
        return available

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The footer's keys, with the die choice as this board's die has it: '1-6' on a
        die of up to 9 faces (each value has its key), '1-9/d' on a bigger one."""
        bindings = super().active_bindings
        faces = self.session.board.rules.faces
        for key, active in bindings.items():
            if active.binding.action == "choose_die" and faces <= 9:
                binding = replace(active.binding, key_display=f"1-{faces}")
                bindings[key] = active._replace(binding=binding)
        return bindings

    async def on_key(self, event: Key) -> None:
        """A key whose action is hidden now (``r`` after the game, ``u`` in classic mode)
        says why in the status line instead of doing nothing. A key typed before the
        first frame (the terminal's type-ahead) mounts the panels first: the app checks
        its bindings only after this, as the key bubbles up to it."""
        await self.mount_panels()
        if self.has_class("too-small"):
            return
        for action in ("roll", "undo", "learn"):
            if event.key in command(action).keys.split(","):
                reason = self.session.why_unavailable(action, keys_of)
                if reason is not None:
                    self._show_status(reason)
                return
        if event.key in DIE_KEYS:
            reason = self.session.why_unavailable("pick", keys_of)
            if reason is not None:
                self._show_status(reason)
            return
        if event.is_printable and event.key not in self.active_bindings:
            # A key that means nothing here says so, instead of doing nothing.
            self._show_status(self._unbound_key_text(event.character or event.key))

    def _unbound_key_text(self, key: str) -> str:
        shown = quote(key)
        if self.session.puzzle and key.isdigit():
            faces = self.session.board.rules.faces
            return f"{shown} is not a die value: choose {dice_keys(faces, keys_of)}."
        return f"{shown} does nothing here: {keys_of('help')} lists the keys."

    @on(Click, "#board")
    async def _board_clicked(self, event: Click) -> None:
        """A click on a square says what it holds in the status line."""
        await self.mount_panels()  # a click before the first frame: the panels first
        view = self.query_one(BoardView)
        offset = event.get_content_offset(view)
        square = None if offset is None else view.square_at_offset(offset.x, offset.y)
        if square is not None:
            self._show_status(self.session.square_text(square))
            self._square_odds(self.session.board, square)

    def _square_odds(self, board: Board, square: int) -> None:
        """The expected turns left from a clicked square (the analysis: a worker)."""
        from ..core.engine import landing_table
        from ..core.errors import SnlError
        from ..core.odds.markov import expected_turns

        session = self.session

        def compute() -> str:
            # A token never rests on a jump's start: it goes on from where the engine
            # lands it (under ``chain``, the end of the last jump).
            rests = landing_table(board)[square]
            try:
                expected = expected_turns(board, rests)
            except SnlError:
                return NOTHING  # type: ignore[no-any-return]
            return session.square_text(square, expected)

        in_background(
            self,
            "square",
            key=lambda: id(self.session.board),
            compute=compute,
            show=self._show_status,
        )

    async def action_choose_die(self) -> None:
        """Ask for any die value in a box (faces above 9 have no key of their own)."""
        if self.check_action("choose_die", ()) is not True or not self.can_move():
            return
        faces = self.session.board.rules.faces
        if faces <= 9:  # every value has its key: no box for values the die cannot roll
            self._show_status(f"A {faces}-sided die: press 1-{faces} to play a value.")
            return
        die_input = next(self.query("#die-input").results(Input), None)
        if die_input is None:  # made on first use: only dice with over 9 faces need it
            die_input = DieInput(id="die-input", placeholder="die value, Enter", type="integer")
            await self.query_one("#side").mount(die_input, after="#dice-row")
        die_input.display = True
        die_input.value = ""
        die_input.focus()

    @on(Input.Submitted, "#die-input")
    def _die_entered(self, event: Input.Submitted) -> None:
        die_input = event.input
        die_input.display = False
        self.query_one(BoardView).focus()
        text = event.value.strip()
        if not text:
            return
        try:
            die = int(text)
        except ValueError:
            self._show_status(f"{text!r} is not a die value.")
            return
        self.action_pick(die)
