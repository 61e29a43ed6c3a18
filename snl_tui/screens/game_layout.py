"""The game screen's layout: the panels that mount after the first frame, the footer's
keys, and the terminal's size (the side column's width, the panels a short terminal
drops, and the notice that a terminal is too small for the game).

The first frame shows the board alone, in the place it keeps; the header, the side
panels and the footer mount right after it, in one refresh, so nothing moves.
``GameLayout`` is a helper the game screen (``screens/game.py``) holds: it calls back
only what ``LayoutHost`` names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from textual.screen import Screen
from textual.widgets import Footer, Static

from ..widgets.dice import DiceFace
from ..widgets.game_side import GameSide
from ..widgets.title_bar import TitleBar
from .game_turns import GameTurns
from .table import Table
from .widths import CRAMPED_WIDTH, NARROW_WIDTH

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "GameLayout", "LayoutHost"]

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Below this the screen shows a short message instead of the game."""
SHORT_HEIGHT, TINY_HEIGHT = 34, 28
"""Shorter terminals get no odds chart; the shortest show the hint instead of the moves."""


class LayoutHost(Protocol):
    """What the layout needs of the game screen besides Textual's ``Screen``."""

    table: Table
    turns: GameTurns
    panels_mounted: bool
    before_game: Callable[[], object] | None

    @property
    def side(self) -> GameSide: ...

    def show_hint(self) -> None: ...


class GameLayout:
    """The panels after the first frame; the screen's shape for the terminal's size."""

    def __init__(self, screen: Screen[None], host: LayoutHost) -> None:
        """``screen`` and ``host`` are the one game screen: as Textual's screen (its
        classes, its children) and as the game it shows."""
        self.screen = screen
        self.host = host
        self.footer_keys: tuple[bool | None, ...] = ()
        """What the footer offered when it was last refreshed."""

    def set_widths(self, width: int) -> None:
        """Below these widths the side column gives the board room (snl.tcss): at 80
        columns a 10x10 board's compact squares still fit side by side."""
        self.screen.set_class(width < NARROW_WIDTH, "-narrow")
        self.screen.set_class(width < CRAMPED_WIDTH, "-cramped")

    async def mount_panels(self) -> bool:
        """Mount the header, the side panels and the footer (once); True when they
        mounted now, and the game may begin."""
        screen, host = self.screen, self.host
        if host.panels_mounted or not screen.is_attached:
            return False  # done already, or closed before its first frame (a quick quit)
        before, host.before_game = host.before_game, None
        if before is not None:
            before()
        mounts = [
            screen.mount(TitleBar(), before=0),
            host.side.mount_panels(host.table.side_panels()),
            screen.mount(Footer()),
        ]
        screen.remove_class("-loading")  # in the same refresh as the mounts: nothing moves
        for mounted in mounts:
            await mounted
        if not screen.query(DiceFace):
            return False  # the app began to close meanwhile: Textual refused the side panels
        host.panels_mounted = True
        screen.refresh_bindings()  # the game's keys are offered from now on
        return True

    def refresh_footer(self) -> None:
        """Refresh the footer's keys only when what it offers changed."""
        screen = self.screen
        keys = tuple(screen.check_action(action, ()) for action in ("roll", "pick", "undo"))
        if keys != self.footer_keys:
            self.footer_keys = keys
            screen.refresh_bindings()

    def resize(self, width: int, height: int) -> None:
        """The screen's shape for a terminal of ``width`` x ``height``."""
        screen = self.screen
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        was_small = screen.has_class("too-small")
        screen.set_class(small, "too-small")
        if small != was_small:
            screen.refresh_bindings()  # the game's keys wait while the game is hidden
            if not small:
                self.host.turns.computer_turn()  # a computer's turn waited too
        self.set_widths(width)
        # Below these heights the side column drops the odds chart, then (hint on) the
        # move log, rather than run off the screen.
        screen.set_class(height < TINY_HEIGHT, "-tiny")
        if (height < SHORT_HEIGHT) != screen.has_class("-short"):
            screen.set_class(height < SHORT_HEIGHT, "-short")
            if self.host.panels_mounted:  # else the hint panel takes it as it mounts
                self.host.show_hint()
        if small:
            message = (
                f"Terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT} (now {width}x{height})"
            )
            shown = screen.query("#too-small").results(Static)
            if (label := next(shown, None)) is not None:
                label.update(message)
            else:  # only a small terminal ever needs it
                screen.mount(Static(message, id="too-small", markup=False))
