"""Screens that close once, and only from the top of the stack.

Textual's ``Screen.dismiss`` pops the *top* screen, whichever it is. Two things made that
go wrong in snl, both found by mashing keys in a real terminal:

* Two keys in one burst (Enter twice, as a fast typist or a paste sends them) reach a
  dialog before its first dismiss has popped it, and the second pop takes the game
  screen with it (``ScreenStackError``, or a dead app).
* A choice made just before ``ctrl+p`` (``l``, Enter, ``ctrl+p`` in one burst) is handled
  after the command palette has opened above the dialog: the dialog's dismiss popped
  the palette instead of itself, and the dialog, counting itself closed, never closed.

``DismissOnce`` remembers its first dismiss and ignores the rest, whoever calls them; a
dismiss that arrives while another screen is above waits until this screen is on top
again (Textual's ``ScreenResume``), so the choice still counts and nothing else is
popped. ``Dialog`` is the base of every snl dialog; the game and the editor, which are
pushed over each other, use ``DismissOnce`` too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen

ResultType = TypeVar("ResultType")

if TYPE_CHECKING:
    ScreenMixin = Screen
else:
    # At run time a plain mixin, listed before the screen class: Textual takes a
    # screen's default CSS (a modal's see-through background) and its CSS type names
    # from the first base that is a Textual node, which must stay the screen class.
    ScreenMixin = Generic


def nothing_to_await() -> AwaitComplete:
    """An awaitable that is already done (Textual's ``AwaitComplete.nothing``, which has
    no type annotations)."""
    done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
    return done


class DismissOnce(ScreenMixin[ResultType]):
    """Mixed into a screen (listed first): its ``dismiss`` acts once, and only while it
    is the top screen."""

    dismissed = False
    """Set by the dismiss that pops this screen."""

    waiting_result: tuple[ResultType | None] | None = None
    """A result given while another screen was above (in a 1-tuple, as it may be None):
    this screen closes with it when it is on top again."""

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if self.dismissed:
            return nothing_to_await()
        if not self.is_active:
            if self.waiting_result is None:  # the first result counts, as when on top
                self.waiting_result = (result,)
            return nothing_to_await()
        self.dismissed = True
        self.waiting_result = None
        return super().dismiss(result)

    def on_screen_resume(self) -> None:
        """On top again: close now if a result waited for it."""
        if self.waiting_result is not None and not self.dismissed:
            (result,) = self.waiting_result
            self.dismiss(result)


class Dialog(DismissOnce[ResultType], ModalScreen[ResultType]):
    """A modal screen that closes once, and only from the top of the stack."""
