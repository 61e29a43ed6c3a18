"""The command palette, guarded against Textual 8.2.8's PageDown/PageUp crash.

When PageDown or PageUp reaches Textual's palette before its list of commands has been
laid out (``ctrl+p`` and PageDown in one burst: a fast typist, a paste), the option
list's page move looks up a line that does not exist yet and raises ``KeyError: 0``,
killing the app. The same happens in a minimal Textual app, so it is Textual's bug; snl
routes the two keys through ``action_page``, which moves a page only once the list has a
height (before that there is no page to move by, and the key is simply dropped).

A palette closed before it was mounted (ctrl+p and Escape in one burst) skips
Textual's mount handler, whose search would look for the list that is already gone.
A search still running when the palette closes (keys typed, then Escape, in one burst)
looked for the palette's list after it was gone (``NoMatches``): its workers stop when
it closes.

Enter twice in one burst chose a command twice, and the palette dismissed itself twice:
the second pop found no screen to pop (``ScreenStackError``), and the command ran
twice. Here the palette is dismissed once, and a submit after that is ignored.

The palette's "Screenshot" (``save_screenshot``) saves an SVG of the screen in the first
writable folder of: the user's downloads folder, the working directory, the temporary
folder; and the notification says where (or why not).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette, SearchIcon
from textual.events import Mount
from textual.widgets import Input, OptionList

from .screens.dialog import DismissOnce

if TYPE_CHECKING:
    from textual.app import App


def screenshot_folders() -> list[Path]:
    """Where a screenshot may go, best first: downloads, the working directory, temp."""
    folders = []
    try:
        from platformdirs import user_downloads_path

        folders.append(user_downloads_path())
    except Exception:  # no platformdirs answer on this system: the next folders
        pass
    folders += [Path.cwd(), Path(tempfile.gettempdir())]
    return folders


def save_screenshot(app: App[Any], folders: list[Path] | None = None) -> Path | None:
    """Save an SVG screenshot of ``app`` in the first writable folder, notify where it
    went (or that no folder took it), and return its path."""
    from .core.text import escape_controls

    error: OSError | None = None
    for folder in folders if folders is not None else screenshot_folders():
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            continue
        try:
            path = Path(app.save_screenshot(path=str(folder)))
        except OSError as failure:
            error = failure
            continue
        app.notify(f"Saved to {escape_controls(str(path))}", title="Screenshot", markup=False)
        return path
    why = f": {error.strerror or error}" if error is not None else ": no writable folder"
    app.notify(f"Could not save it{why}", title="Screenshot", severity="error", markup=False)
    return None


class SnlCommandPalette(DismissOnce[None], CommandPalette):
    """Textual's command palette whose page keys wait for the list to be laid out, and
    which closes once and only from the top of the stack (``DismissOnce``): a dismiss
    that reached it with another screen above popped that screen instead and marked the
    palette closed, so no Escape closed it again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    def dismiss(self, result: None = None) -> AwaitComplete:
        if not self.dismissed and self.is_active:
            # Textual's search worker would go on looking for the list of commands after
            # the palette is gone, and fail (NoMatches) with the app: stop it first.
            self.workers.cancel_node(self)
        return super().dismiss(result)

    def on_unmount(self) -> None:
        self.workers.cancel_node(self)  # however the palette went (a theme change, ...)

    chosen = False
    """Set when a command is picked from the list: a second pick is ignored."""

    @on(OptionList.OptionSelected)
    def _choose_once(self, event: OptionList.OptionSelected) -> None:
        """Two Enters before the first is handled select the command twice, and would run
        it twice: Textual's handler (the base class's) sees only the first."""
        if self.chosen or self.dismissed:
            event.stop()
            event.prevent_default()
        self.chosen = True

    @on(Input.Submitted)
    def _after_dismiss(self, event: Input.Submitted) -> None:
        """A submit once the command was chosen would run it again."""
        if self.dismissed:
            event.stop()
            event.prevent_default()

    @on(Input.Changed)
    def _no_search_once_closing(self, event: Input.Changed) -> None:
        """Typing that arrives as the palette closes would start Textual's search for
        commands with the palette's list already gone (``NoMatches``, a crash): there is
        nothing left to search for."""
        if self.dismissed or not self.query(CommandList):
            event.stop()
            event.prevent_default()

    def on_mount(self, event: Mount) -> None:
        icons = self.query(SearchIcon)
        if self.dismissed or not icons:
            # Closed before it was mounted (ctrl+p and Escape in one burst): Textual's
            # own mount handler (the base class's) would start a search for commands,
            # whose worker looks for the list that is gone (NoMatches, a crash).
            event.prevent_default()
            return
        # Textual's magnifier is an emoji: two cells in some terminals, one in others,
        # and a box in browser fonts. A plain ">" reads the same everywhere.
        icons.first().icon = ">"

    def action_page(self, direction: int) -> None:
        """Move the highlight a page down (1) or up (-1) in the list of commands."""
        found = self.query(CommandList)
        if self.dismissed or not found:
            return  # closing (pgdn in the same burst as Escape): the list is gone
        commands = found.first()
        if not commands.option_count or commands.scrollable_content_region.height <= 0:
            return  # not laid out yet: Textual's page move would raise KeyError
        if direction > 0:
            commands.action_page_down()  # type: ignore[no-untyped-call]
        else:
            commands.action_page_up()  # type: ignore[no-untyped-call]
