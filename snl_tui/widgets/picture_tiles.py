"""The board picture's tiles and what the terminal has been sent: ``PictureTiles``.

``board_picture.PictureRenderer`` (its only subclass) makes the picture and places the
board in it; this keeps the picture cut into tiles (Textual repaints whole lines), which
of them are due (new, changed, or drawn over since sent: a toast, a dialog, the widget
moved), and sends each once with the paint that writes its lines (``picture_lines``);
with Kitty's protocol, one image for the whole frame, placed and freed by id.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Offset, Region, Size
from textual.screen import Screen
from textual.strip import Strip

from .board import BoardView
from .graphics_query import Protocol, cell_pixels
from .picture_lines import NO_OP, inside

TILE_LINES, TILE_COLUMNS = 3, 4
"""A tile of the picture, in cells (its lines rounded to whole Sixel bands): about a
square of classic at 80x24, so that a move re-encodes a few small tiles."""


class PictureTiles:
    """The tiles of the board widget's (``view``) picture with ``protocol``: what each
    shows, which are due, and what has gone to the terminal."""

    def __init__(self, view: BoardView, protocol: Protocol = "sixel") -> None:
        self.view = view
        self.protocol: Protocol = protocol
        self.tile_data: dict[Region, str] = {}
        """What each tile shows now (Sixel)."""
        self.due: set[Region] = set()
        """Tiles to send at the next paint (new, changed, or drawn over since sent):
        every other tile's pixels are on the terminal already."""
        self.asked: set[Region] = set()
        """Due tiles whose lines were asked to be painted since the last paint."""
        self.sent_origin: Offset | None = None
        """Where on the screen the tiles were sent (the widget moved: all are due)."""
        self.kitty_image: int | None = None
        """Kitty's protocol: the image id of the frame shown."""
        self.kitty_old: list[int] = []
        """Image ids to free with the next transmission."""
        self.kitty_ids = 0
        self.cleanup = ""
        """An escape to send with the character board's next paint (beneath a dialog:
        Kitty's picture taken away)."""
        self.covered: set[Region] = set()
        """Tiles left out of the last paint because another widget lay over them."""
        self.painted: set[Region] = set()
        """Tiles whose pixels went out at this place and size (a covered tile not
        among them shows whatever was there before: its cells are erased)."""

    def picture_size(self, size: Size | None = None) -> tuple[int, int, int, int]:
        """(columns, lines, width px, height px) of the picture: the widget less its
        last line (the status line)."""
        size = self.view.size if size is None else size
        columns, lines = size.width, max(0, size.height - 1)
        cell_w, cell_h = cell_pixels()
        return columns, lines, columns * cell_w, lines * cell_h

    def _set_tiles(self, tiles: dict[Region, str]) -> None:
        """Show ``tiles`` (region: escape): those that differ from what is shown are due,
        and their lines repainted (whole lines: so that the paint writes them)."""
        changed = [tile for tile, data in tiles.items() if self.tile_data.get(tile) != data]
        for tile in changed:
            self.tile_data[tile] = tiles[tile]
            self.due.add(tile)
        if self.view.is_mounted:
            self._ask_paint(changed)

    def _kitty_free_old(self) -> str:
        from ..export.kitty import delete

        freed = "".join(delete(old) for old in self.kitty_old)
        self.kitty_old = []
        return freed

    def _kitty_free_all(self) -> str:
        if self.kitty_image is not None:
            self.kitty_old.append(self.kitty_image)
            self.kitty_image = None
        return self._kitty_free_old()

    def _kitty_sent(self) -> None:
        """The frame's transmission went out: sending it again only places it."""
        from ..export.kitty import place

        if self.kitty_image is not None:
            columns, lines, _, _ = self.picture_size()
            for tile in self.tile_data:
                self.tile_data[tile] = place(self.kitty_image, columns, lines)

    def _stops(self, crop: Region, origin: Offset) -> dict[int, int]:
        """For each line another widget (a toast) lies over, the column it begins at."""
        stops: dict[int, int] = {}
        for overlay in self._overlays():
            there = overlay.translate(-origin)
            x = there.x
            if not crop.x < x < crop.right:
                continue
            for y in range(max(crop.y, there.y), min(crop.bottom, there.bottom)):
                stops[y] = min(stops.get(y, crop.right), x)
        return stops

    def _tiles_to_send(self, crop: Region, origin: Offset) -> list[tuple[Region, str]]:
        """The tiles this paint of ``crop`` sends: those due whose lines were asked to
        be painted since the last paint (Textual writes them whole in this one), not
        under another widget (a toast). A due tile not asked for yet is asked for now,
        and goes out with the next paint: one sent in a paint that does not write its
        lines would be lost (Textual paints what it has to, and asks for every line)."""
        covered: set[Region] = set()
        overlays = self._overlays() if self.protocol == "sixel" else []
        if overlays:
            for tile in self.tile_data:
                on_screen = tile.translate(origin)
                if inside(tile, crop) and any(on_screen.overlaps(o) for o in overlays):
                    covered.add(tile)
        self.covered = covered
        self.due |= covered  # drawn over: sent again once uncovered
        sending: list[tuple[Region, str]] = []
        later: list[Region] = []
        for tile in sorted(self.due, key=lambda tile: (tile.y, tile.x)):
            data = self.tile_data.get(tile)
            if data is None:
                self.due.discard(tile)
            elif tile in covered or not inside(tile, crop):
                continue
            elif tile in self.asked:
                sending.append((tile, data))
                self.due.discard(tile)
                self.painted.add(tile)
            else:
                later.append(tile)
        self.asked = set()
        if self.protocol == "kitty" and sending:
            self._kitty_sent()
        self._ask_paint(later)
        return sending

    def _ask_paint(self, tiles: Sequence[Region]) -> None:
        """Ask Textual to paint the whole lines of ``tiles`` (sent at that paint)."""
        self.asked.update(tiles)
        width = self.view.size.width
        for y in sorted({tile.y for tile in tiles}):
            height = max(tile.height for tile in tiles if tile.y == y)
            self.view.refresh(Region(0, y, width, height))
        if tiles:
            # And the status line beneath the picture: the character board that stood
            # in (a shorter board) left another of its lines there, blank or not, and
            # nothing else repaints it (the status line was missing at launch).
            _, lines, _, _ = self.picture_size()
            self.view.refresh(Region(0, lines, width, self.view.size.height - lines))

    def _with_cleanup(self, crop: Region, strips: list[Strip]) -> list[Strip]:
        """The character board's lines, with the escape that takes Kitty's picture away
        on the first paint after ``j``. It ends every line: where a widget (a toast)
        lies over a line, Textual measures the escape as text and cuts the line there;
        at the line's end it goes whole with the line or not at all, never cut in two
        (a cut escape swallows what follows it and leaves its tail on the screen)."""
        if not self.cleanup or crop.height <= 1 or not strips:
            return strips
        cleanup = Segment(self.cleanup, Style(), NO_OP)
        strips = [Strip([*strip, cleanup], strip.cell_length) for strip in strips]
        self.cleanup = ""
        return strips

    def _hidden_beneath_dialog(self, crop: Region, strips: list[Strip], escape: str) -> list[Strip]:
        """``strips`` (the character board beneath a dialog) with ``escape`` (Kitty's
        picture taken away) at the end of each line that no widget of the dialog's
        screen lies over. Beneath a dialog Textual's colour filter takes the control
        mark off a segment and cuts the screen's lines at the dialog's edges, measuring
        the escape as text: on a line the dialog covers it was cut in two (its tail left
        on the screen, or the rest of the screen swallowed as the escape's); a line it
        leaves free is never cut."""
        from textual.errors import NoWidget

        top = self.view.app.screen
        layers = {"ToastRack", "Tooltip"}  # screen-wide layers: their toasts count
        over = [child for child in top.children if type(child).__name__ not in layers]
        try:
            origin = self.view.screen.find_widget(self.view).region.offset
            covers = [top.find_widget(widget).region for widget in over]
        except NoWidget:
            return strips
        covers += self._overlays_of(top)
        width = top.size.width
        out = []
        for index, strip in enumerate(strips):
            line = Region(0, origin.y + crop.y + index, width, 1)
            if any(line.overlaps(region) for region in covers):
                out.append(strip)
            else:
                cleanup = Segment(escape, Style(), NO_OP)
                out.append(Strip([*strip, cleanup], strip.cell_length))
        return out

    def _overlays(self) -> list[Region]:
        """Where widgets lie over others on the screen now (toasts, tooltips), in
        screen cells: a tile beneath one waits (its pixels would hide the notice)."""
        return self._overlays_of(self.view.screen)

    @staticmethod
    def _overlays_of(screen: Screen[object]) -> list[Region]:
        """The toasts' and tooltips' regions on ``screen``."""
        from textual.errors import NoWidget

        regions = []
        for widget in screen.query("Toast, Tooltip"):
            try:
                regions.append(screen.find_widget(widget).region)
            except NoWidget:
                continue  # not on screen
        return regions

    def tiles(self, columns: int, lines: int) -> list[Region]:
        """The picture's tiles, in cells: ``TILE_LINES`` lines (whole Sixel bands, so a
        tile never paints below itself) by ``TILE_COLUMNS`` columns."""
        _, cell_h = cell_pixels()
        band = 6 // math.gcd(6, cell_h)  # lines per whole number of six-pixel bands
        tall = max(band, TILE_LINES // band * band)
        return [
            Region(x, y, min(TILE_COLUMNS, columns - x), min(tall, lines - y))
            for y in range(0, lines, tall)
            for x in range(0, columns, TILE_COLUMNS)
        ]


def background_sgr(view: BoardView) -> str:
    """The SGR parameters of ``view``'s background, in the app's colours (Textual's
    own way of writing a style)."""
    from rich.color import ColorSystem

    systems = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT}
    system = systems.get(view.app.console.color_system or "", ColorSystem.STANDARD)
    return Strip.render_ansi(Style(bgcolor=view.rich_style.bgcolor), system)
