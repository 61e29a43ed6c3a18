"""``TitleBar``: one line at the top with the screen's title and subtitle.

Used instead of Textual's ``Header`` for two reasons. The header fills its title in a
task started when it mounts, and that task fails (``NoMatches``, a crash) when its
screen is dismissed in the same instant, as a quick ``e`` then ``q`` does; and its icon
(a circle glyph) is missing from the fonts of many browsers and terminals, where it
draws as a box. The title bar draws the same words (``App.format_title``) with no icon,
no clock and no task, and every text in it is shown literally.
"""

from __future__ import annotations

from textual.widgets import Static


class TitleBar(Static):
    """The screen's title and subtitle (falling back to the app's), kept up to date."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        text-align: center;
    }
    """

    def on_mount(self) -> None:
        screen, app = self.screen, self.app
        for node, name in ((screen, "title"), (screen, "sub_title"), (app, "title")):
            self.watch(node, name, self.show_titles, init=False)
        self.watch(app, "sub_title", self.show_titles)

    def show_titles(self) -> None:
        screen, app = self.screen, self.app
        title = screen.title or app.title
        sub_title = screen.sub_title or app.sub_title
        self.update(app.format_title(title, sub_title))
