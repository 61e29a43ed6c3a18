"""The board as a picture, where the terminal shows images (Sixel, or Kitty's protocol).

``BoardPicture`` is a ``BoardView`` (the game, the replay and the editor talk to it the
same way: ``show``, ``walk``, ``follow``) that paints the board as pixels: the export's
geometry and look (``export.picture``), sized to the widget in cells times the terminal's
cell size in pixels, with the tokens, the route's steps and the square just landed on
drawn in; a move's token steps, then climbs or slides along its jump. The last line
stays text: who is off the board. A frame is made only when something on it changed
(the picture of the empty board is cached per board and size).

The terminal protocols and their detection are textual-image's: ``detect_graphics``
asks the terminal before Textual starts (afterwards Textual reads the answers). The
Sixel data goes out as textual-image's own Sixel widget sends it (a cursor move, then
the image, with a line's strip), but in tiles: Textual repaints whole lines, and a move
re-encodes and resends only the tiles whose squares changed. ``j`` switches between the
picture and the character board. Without a picture protocol, the character board
(``BoardView``) is used instead.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from rich.control import Control
from rich.segment import ControlType, Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.strip import Strip

from ..core.board import Board
from .board import JUMP_DELAY, STEP_DELAY, BoardView

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from textual_image._sixel import SixelOptions

    from ..core.engine import Turn

Protocol = Literal["sixel", "kitty"]
GRAPHICS_CHOICES = ("auto", "pixels", "text")
DEFAULT_CELL = (10, 20)
"""A cell's pixels when the terminal does not say (a VT340's, as textual-image assumes)."""
_NO_OP = ((ControlType.CURSOR_FORWARD, 0),)
"""Marks a segment as control data, so that nothing measures or splits it."""
SLIDE_FRAMES = 8
SLIDE_DELAY = 0.04
"""A token climbs or slides along its jump in ``SLIDE_FRAMES`` frames, this far apart."""
TILE_LINES, TILE_COLUMNS = 3, 4
"""A tile of the picture, in cells (its lines rounded to whole Sixel bands): about a
square of classic at 80x24, so that a move re-encodes a few small tiles."""
SIXEL_COLOURS = 64
"""Colours per tile: the board's flat colours and smooth edges need no more, and a tile
of 64 encodes a third faster than one of 256."""


def detect_graphics(choice: str) -> Protocol | None:
    """The picture protocol to use for ``--graphics choice`` ('auto', 'pixels' or
    'text'), asked of the terminal now (before Textual starts): None for text.
    'pixels' draws Sixel even when the terminal does not say it can (tmux built with
    sixel, which answers for the terminal)."""
    if choice == "text" or not (sys.__stdout__ and sys.__stdout__.isatty()):
        return None
    if sys.__stdin__ is None or not sys.__stdin__.isatty():
        return None
    try:
        # Importing the renderables asks the terminal (Sixel first, then Kitty's).
        from textual_image import renderable
        from textual_image._terminal import get_cell_size

        get_cell_size()  # asked now: Textual reads the terminal's answers once it runs
    except Exception:  # a terminal that answers garbage: no pictures, never a crash
        return "sixel" if choice == "pixels" else None
    if renderable.Image is renderable.SixelImage:
        return "sixel"
    if renderable.Image is renderable.TGPImage:
        return "kitty"
    return "sixel" if choice == "pixels" else None


_COLOUR = re.compile(r"(#\d+);2;\d+;\d+;\d+")
_HEADER = re.compile(r"\x1bP[^q]*q(\"[\d;]+)?")


def palette_first(sixel: str) -> str:
    """``sixel`` with every colour defined once at the start, then only selected.

    textual-image defines each colour where it is first used, mid-band; xterm (379)
    then paints the first band or two wrongly (stripes of the wrong colour across the
    picture's top). Defined up front, the picture comes out right."""
    header = _HEADER.match(sixel)
    if header is None:
        return sixel
    body = sixel[header.end() :]
    colours = dict.fromkeys(match.group(0) for match in _COLOUR.finditer(body))
    return header.group(0) + "".join(colours) + _COLOUR.sub(r"\1", body)


@lru_cache(maxsize=1)
def _sixel_options() -> SixelOptions:
    from textual_image._sixel import SixelOptions

    return SixelOptions(colors=SIXEL_COLOURS)


def cell_pixels() -> tuple[int, int]:
    """A terminal cell's (width, height) in pixels, as the terminal told textual-image."""
    try:
        from textual_image._terminal import get_cell_size

        size = get_cell_size()
    except Exception:
        return DEFAULT_CELL
    return size.width, size.height


class BoardPicture(BoardView):
    """The board drawn in pixels (``protocol``), or as characters after ``j``."""

    # In snl.tcss (BoardPicture.-pixels): no border, padding or scrollbars round the
    # picture, which is sized to the whole widget.

    def __init__(
        self,
        board: Board,
        *,
        protocol: Protocol = "sixel",
        letters: Sequence[str] = ("A",),
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(board, letters=letters, name=name, id=id, classes=classes)
        self.protocol: Protocol = protocol
        self.pixels_on = True
        self.positions: tuple[int, ...] = ()
        self.route: tuple[int, ...] = ()
        self.landed: int | None = None
        """The square the last move ended on (outlined)."""
        self.frame_key: tuple[object, ...] | None = None
        self.frame: PILImage.Image | None = None
        self.encoded: dict[Region, str] = {}
        """Each tile's Sixel data, by the tile's region (in cells)."""
        self.stale: set[Region] = set()
        """Tiles whose squares' marks changed since they were encoded (``refresh_picture``):
        encoded again at the next paint; the others are sent as they were."""
        self.encoded_for: tuple[object, ...] | None = None
        """The board, size and background the encoded tiles show (any change: all anew)."""
        self.tiles_encoded = 0
        """Tiles encoded so far (tests and the benchmark read it)."""
        self.frames_made = 0
        """Frames drawn (tests and the benchmark read it)."""
        self.kitty_image: object | None = None
        self.routing = False
        """The jumps are being routed in a thread (``route_jumps``)."""
        self.moving: tuple[int, tuple[float, float]] | None = None
        """A token on its way along a jump: (seat, point in squares)."""
        self.moving_near: set[int] = set()
        self.add_class("-pixels")

    # -- what is shown --------------------------------------------------------------------

    @property
    def showing_pixels(self) -> bool:
        return self.pixels_on

    def show(
        self,
        positions: Sequence[int],
        route: Sequence[int] = (),
        current: int | None = None,
    ) -> None:
        moved = [
            square
            for seat, square in enumerate(positions)
            if seat < len(self.positions) and self.positions[seat] != square and square > 0
        ]
        before = self._mark_squares()
        if len(moved) == 1:
            self.landed = moved[0]
        self.positions, self.route = tuple(positions), tuple(route)
        super().show(positions, route, current)
        if self.pixels_on:
            after = self._mark_squares()
            changed = {
                square
                for square in before.keys() | after.keys()
                if before.get(square) != after.get(square)
            }
            self.refresh_picture(changed)

    def _refresh_virtual_lines(self, lines: Sequence[int]) -> None:
        if not self.pixels_on:  # the picture repaints its own regions (refresh_picture)
            super()._refresh_virtual_lines(lines)

    def _status_y(self) -> int | None:
        if self.pixels_on:
            return self.size.height - 1 if self.size.height else None
        return super()._status_y()

    def _mark_squares(self) -> dict[int, tuple[object, ...]]:
        """What is drawn on each square with marks (tokens, route step, landed)."""
        marks: dict[int, tuple[object, ...]] = {}
        for seat, square in enumerate(self.positions):
            if square > 0:
                marks[square] = (*marks.get(square, ()), ("token", seat, seat == self.current_seat))
        for step, square in enumerate(self.route, start=1):
            marks[square] = (*marks.get(square, ()), ("step", step))
        if self.landed is not None:
            marks[self.landed] = (*marks.get(self.landed, ()), "landed")
        return marks

    def refresh_picture(self, squares: set[int]) -> None:
        """Repaint the tiles under ``squares`` (a move changes two or three): their lines,
        whole-width (Textual then writes those lines, and the Sixel of each of their
        tiles goes out: encoded again only where the pixels changed)."""
        if not self.is_mounted or not self.size.area:
            return
        from ..export.picture import layout_for

        columns, lines, width, height = self.picture_size()
        if width < 8 or height < 8:
            return
        _, cell_h = cell_pixels()
        layout = layout_for(self.board, width, height)
        rows: set[int] = set()
        for square in squares:
            if 1 <= square <= self.board.goal:
                _, y0, _, y1 = layout.square_box(self.board, square)
                rows.update(range(int(y0 // cell_h), min(lines, math.ceil(y1 / cell_h))))
        cols: set[int] = set()
        cell_w, _ = cell_pixels()
        for square in squares:
            if 1 <= square <= self.board.goal:
                x0, _, x1, _ = layout.square_box(self.board, square)
                cols.update(range(int(x0 // cell_w), math.ceil(x1 / cell_w)))
        for tile in self.tiles(columns, lines):
            if any(tile.y <= row < tile.bottom for row in rows):
                if any(tile.x <= col < tile.right for col in cols):
                    self.stale.add(tile)
                if tile.x == 0:
                    self.refresh(Region(0, tile.y, self.size.width, tile.height))

    def set_board(self, board: Board, letters: Sequence[str]) -> None:
        self.positions, self.route, self.landed = (), (), None
        super().set_board(board, letters)

    async def walk(self, positions: Sequence[int], turn: Turn, pace: float = 1.0) -> None:
        """The token steps square by square, then climbs its ladder or slides down its
        snake along the drawn jump (``SLIDE_FRAMES`` frames), in the picture."""
        if not self.pixels_on:
            await super().walk(positions, turn, pace)
            return
        from ..core.geometry import jump_paths, jump_paths_known

        move, player = turn.move, turn.player
        shown = list(positions)
        shown[player] = move.start
        for square in move.steps:
            await asyncio.sleep(STEP_DELAY / pace)
            shown[player] = square
            self.show(shown, (), player)
        routed = jump_paths_known(self.board)
        paths = {path.jump.start: path for path in jump_paths(self.board)} if routed else {}
        for jump in move.jumps:
            await asyncio.sleep(JUMP_DELAY / pace)
            path = paths.get(jump.start)
            if path is not None:
                shown[player] = 0  # off its square: on its way along the jump
                self.show(shown, (), player)
                body = path.body
                for frame in range(1, SLIDE_FRAMES):
                    self.moving = (player, body[round(frame * (len(body) - 1) / SLIDE_FRAMES)])
                    self.refresh_picture(self._squares_near(self.moving[1]))
                    await asyncio.sleep(SLIDE_DELAY / pace)
                self.moving = None
                self.refresh_picture(self.moving_near)  # where the token was drawn last
                self.moving_near = set()
            shown[player] = jump.end
            self.show(shown, (), player)
        before = self.landed
        self.landed = move.end
        if before != self.landed:
            self.refresh_picture({square for square in (before, self.landed) if square})

    def _squares_near(self, point: tuple[float, float]) -> set[int]:
        """The squares round ``point`` (a moving token covers parts of several), and
        those of the token's last position."""
        x, y = point
        board = self.board
        near = {
            board.square_at(row, col)
            for row in range(max(0, int(y) - 1), min(board.rows, int(y) + 2))
            for col in range(max(0, int(x) - 1), min(board.cols, int(x) + 2))
        }
        before, self.moving_near = self.moving_near, near
        return near | before

    def follow(self, square: int) -> None:
        if self.pixels_on:
            self.followed = square  # the whole board is in the picture: nothing to scroll
            return
        super().follow(square)

    def out_of_view(self) -> list[tuple[int, int, str]]:
        if self.pixels_on:
            return []  # the picture shows every square
        return super().out_of_view()

    def toggle_fit(self) -> str:
        if self.pixels_on:
            return "The picture shows the whole board."
        return super().toggle_fit()

    def toggle_jumps(self) -> str:
        """``j`` on the picture: the character board (with its drawn jumps), and back."""
        self.pixels_on = not self.pixels_on
        self.set_class(self.pixels_on, "-pixels")
        self.fitted_size = None
        self.frame_key = None
        self.refresh(layout=True)
        if self.pixels_on:
            return "The board as a picture."
        if self.followed is not None:
            self.pending_follow = self.followed
        return "The character board (j: the picture again)."

    # -- the picture ----------------------------------------------------------------------

    def picture_size(self, size: Size | None = None) -> tuple[int, int, int, int]:
        """(columns, lines, width px, height px) of the picture: the widget less its
        last line (the status line)."""
        size = self.size if size is None else size
        columns, lines = size.width, max(0, size.height - 1)
        cell_w, cell_h = cell_pixels()
        return columns, lines, columns * cell_w, lines * cell_h

    def marks(self) -> object:
        from ..export.picture import Marks

        tokens: dict[int, list[int]] = {}
        for seat, square in enumerate(self.positions):
            if square > 0:
                tokens.setdefault(square, []).append(seat)
        return Marks(
            tokens={square: tuple(seats) for square, seats in tokens.items()},
            letters=self.letters,
            current=self.current_seat,
            route=self.route,
            landed=self.landed,
            moving=self.moving,
        )

    def current_frame(self) -> PILImage.Image | None:
        """The picture as it should look now (made afresh only when something on it
        changed)."""
        from ..core.geometry import jump_paths_known
        from ..export.picture import Marks, frame_image

        _, _, width, height = self.picture_size()
        if width < 8 or height < 8:
            return None
        marks = self.marks()
        assert isinstance(marks, Marks)
        routed = not self.board.jumps or jump_paths_known(self.board)
        if not routed and not self.routing:
            self.routing = True  # the squares now, the jumps when they are routed
            self.route_jumps(self._jumps_routed)
        key = (self.board, width, height, routed, marks, self.background_rgb())
        if key[:4] + key[5:] != self.encoded_for:
            self.encoded_for = key[:4] + key[5:]
            self.encoded, self.stale = {}, set()
        if key != self.frame_key:
            self.frame_key = key
            self.frame = frame_image(
                self.board, width, height, marks, self.background_rgb(), jumps=routed
            )
            self.frames_made += 1
        return self.frame

    def _jumps_routed(self) -> None:
        self.routing = False
        self.refresh()

    def background_rgb(self) -> tuple[int, int, int]:
        colour = self.styles.background
        return colour.r, colour.g, colour.b

    def render_lines(self, crop: Region) -> list[Strip]:
        # Textual asks for the whole widget and writes only the lines it has to (those
        # refreshed): the picture is cut into tiles, and each tile's Sixel goes out with
        # its last line, so that repainting a few lines sends only their tiles.
        if not self.pixels_on:
            return super().render_lines(crop)
        columns, lines, _, _ = self.picture_size()
        strips: list[Strip] = []
        base = self.rich_style
        for y in range(crop.y, crop.bottom):
            if y < lines:
                strips.append(Strip([]))  # the picture: nothing written over it
            else:
                status = self._join([(" ", base), *self.status_pieces()], base, columns)
                strips.append(status.crop(crop.x, crop.right))
        frame = self.current_frame()
        if frame is None:
            return strips
        if self.protocol == "kitty":
            return self._kitty_lines(frame, crop, lines, columns, strips)
        origin = self.screen.find_widget(self).region
        segments: dict[int, list[Segment]] = {}
        for tile in self.tiles(columns, lines):
            if tile.bottom - 1 < crop.y or tile.y >= crop.bottom:
                continue
            segments.setdefault(tile.bottom - 1, []).extend(
                self._sixel_segments(frame, tile, origin.x, origin.y)
            )
        for y, line in segments.items():
            strips[y - crop.y] = Strip(line, cell_length=crop.width)
        return strips

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

    def _sixel_segments(
        self, frame: PILImage.Image, tile: Region, left: int, top: int
    ) -> list[Segment]:
        cell_w, cell_h = cell_pixels()
        box = (tile.x * cell_w, tile.y * cell_h, tile.right * cell_w, tile.bottom * cell_h)
        cached = self.encoded.get(tile)
        if cached is None or tile in self.stale:
            from textual_image._sixel import image_to_sixels

            self.stale.discard(tile)
            pixels = frame.crop(box)
            sixel = image_to_sixels(pixels, _sixel_options())
            cached = self.encoded[tile] = palette_first(sixel)
            self.tiles_encoded += 1
        none = Style()
        return [
            Segment(Control.move_to(left + tile.x, top + tile.y).segment.text, none),
            Segment(cached, none, _NO_OP),
            Segment(Control.move_to(left + tile.right, top + tile.bottom - 1).segment.text, none),
        ]

    def _kitty_lines(
        self,
        frame: PILImage.Image,
        crop: Region,
        lines: int,
        columns: int,
        strips: list[Strip],
    ) -> list[Strip]:
        """Kitty's protocol: the image is sent once per frame, then placed with
        textual-image's placeholder characters (ordinary text for Textual)."""
        from textual_image.renderable.tgp import Image as KittyImage

        if self.kitty_image is None or getattr(self.kitty_image, "frame", None) is not frame:
            if self.kitty_image is not None:
                self.kitty_image.cleanup()  # type: ignore[attr-defined]
            image = KittyImage(frame, width=columns, height=lines)
            rendered = self.app.console.render_lines(
                image, self.app.console.options.update_dimensions(columns, lines), pad=True
            )
            image.frame = frame  # type: ignore[attr-defined]
            image.lines = [Strip(line) for line in rendered]  # type: ignore[attr-defined]
            self.kitty_image = image
        placed: list[Strip] = self.kitty_image.lines  # type: ignore[attr-defined]
        for y in range(crop.y, min(crop.bottom, lines)):
            if y < len(placed):
                strips[y - crop.y] = placed[y].crop(crop.x, crop.right)
        return strips

    def on_unmount(self) -> None:
        if self.kitty_image is not None:
            self.kitty_image.cleanup()  # type: ignore[attr-defined]


def board_widget(
    board: Board, letters: Sequence[str], protocol: Protocol | None, *, id: str = "board"
) -> BoardView:
    """The game's board: a picture with ``protocol``, else the character board."""
    if protocol is None:
        return BoardView(board, letters=letters, id=id)
    return BoardPicture(board, protocol=protocol, letters=letters, id=id)
