"""``Dialog``: the base of every snl dialog, a ``ModalScreen`` that closes once.

Two keys in one burst (Enter twice, as a fast typist or a paste sends them) reach a
dialog before its first dismiss has popped it: Textual's screen is still current until
the pop completes, so a check of ``is_current`` lets the second dismiss through, and the
second pop takes the game screen with it (``ScreenStackError``, or a dead app). A dialog
remembers its first dismiss and ignores the rest, whoever calls it.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal screen whose ``dismiss`` acts once (later calls do nothing)."""

    dismissed = False
    """Set by the first dismiss."""

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if self.dismissed:
            return AwaitComplete.nothing()
        self.dismissed = True
        return super().dismiss(result)
