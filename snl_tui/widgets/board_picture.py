"""The board as a picture, where the terminal shows images (Sixel, or Kitty's protocol).

``PictureRenderer`` is one of the two ways a ``BoardView`` draws itself (the strategy
the widget holds, ``board.BoardRenderer``; ``board_choice.as_picture`` gives a widget
this one): the game, the replay and the editor talk to the widget the same way either
way (``show``, ``walk``, ``follow``). It paints the board as pixels: the export's geometry and look
(``export.picture``), sized to the widget in cells times the terminal's cell size in
pixels, with the tokens, the route's steps and the square just landed on drawn in (and
what the widget adds, ``decorate_marks``: in the editor, the cursor, the heat map and the
jump being made); a move's token steps, then climbs or slides along its jump. The last
line stays text: who is off the board.

How a frame stays cheap (``benchmarks/tui.py --picture`` measures it):

- The board's own picture (squares, numbers, jumps) is drawn, mapped onto its palette
  and Sixel-encoded once per board and size, in a thread (never blocking a key), and its
  encoded tiles are kept on disk too: the next game on that board at that size shows its
  first picture without loading Pillow or NumPy or routing a jump.
- The picture is cut into tiles (Textual repaints whole lines): a frame lays the marks
  over a copy of the board, maps it onto the palette, and re-encodes only the tiles
  whose pixels changed (a tile back to the bare board takes the board's encoding).
- Kitty's protocol sends the whole frame (PNG) under a new image id, placed beneath the
  text (``export.kitty``): the picture's cells are blanks in the terminal's default
  background, which it shows through.
- Each tile goes out once: a paint sends only the tiles that are due (new, changed, or
  drawn over since: a toast, a dialog, the widget moved); Textual writing a line again
  leaves the pixels already there (``picture_lines``).

The terminal is asked which protocol it speaks before Textual starts
(``graphics_query``). Without a picture protocol, the widget keeps its character board
(``board.TextRenderer``).
"""

from __future__ import annotations

import asyncio
import io
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.style import Style
from textual.geometry import Offset, Region
from textual.strip import Strip

from ..commands import keys_of
from ..core.board import Board
from .board import JUMP_DELAY, BoardView
from .graphics_query import DEFAULT_CELL, Protocol, cell_pixels, detect_graphics
from .picture_cache import cache_name, load_tiles, picture_cache_dir, save_tiles
from .picture_lines import picture_strips
from .picture_tiles import PictureTiles, background_sgr

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image as PILImage

    from ..core.engine import Turn
    from ..export.picture import Marks, Palette

__all__ = [
    "DEFAULT_CELL",
    "PictureRenderer",
    "Protocol",
    "detect_graphics",
    "load_tiles",
    "picture_cache_dir",
    "save_tiles",
]

SLIDE_FRAMES = 8
SLIDE_DELAY = 0.04
"""A token climbs or slides along its jump in ``SLIDE_FRAMES`` frames, this far apart."""
MIN_NUMBER_PIXELS = 8
"""Below this a square's number does not read: the picture shows a part of the board, at
squares where it does, following the player to move (``z``: the whole board)."""
READABLE_SQUARE = 33
"""Pixels a square needs for its number (``geometry.NUMBER_HEIGHT`` of the square) to be
``MIN_NUMBER_PIXELS`` high, with a margin: ``ceil(8 * 1.15 / 0.28)``, kept equal by a
test. A constant here, so that the first frame (a cached picture) never imports the
geometry (10-15 ms before the board shows)."""


# -- the widget ------------------------------------------------------------------------------


@dataclass
class BoardPixels:
    """The board's own picture at one size, ready for frames: its palette, its pixels as
    palette indices, and each tile's Sixel (the board with nothing on it)."""

    jumps: bool
    """Drawn with the snakes and ladders (False: while they are being routed)."""
    palette: Palette
    indices: np.ndarray
    tiles: dict[Region, str]


class PictureRenderer(PictureTiles):
    """The board widget (``view``) drawn in pixels with ``protocol``: the board's
    tokens, route and scroll are the widget's; the picture, its tiles and what the
    terminal has been sent are this renderer's. The character board stands in (the
    widget's ``text_*`` drawing) while the board's first picture is being made, and
    beneath a dialog."""

    # In snl.tcss (BoardView.-pixels): no border, padding or scrollbars round the
    # picture, which is sized to the whole widget.

    def __init__(self, view: BoardView, protocol: Protocol = "sixel") -> None:
        super().__init__(view, protocol)
        self.positions: tuple[int, ...] = ()
        self.route: tuple[int, ...] = ()
        self.landed: int | None = None
        """The square the last move ended on (outlined)."""
        self.moving: tuple[int, tuple[float, float]] | None = None
        """A token on its way along a jump: (seat, point in squares)."""
        self.picture_key: tuple[object, ...] | None = None
        """(board, columns, lines, cell size, background) of the picture being shown."""
        self.pixels: BoardPixels | None = None
        """The board's picture for ``picture_key`` (None: being made in a thread)."""
        self.shown: np.ndarray | None = None
        """The palette indices the tiles show (a frame re-encodes the tiles that differ)."""
        self.tiles_encoded = 0
        """Tiles encoded so far (tests and the benchmark read it)."""
        self.frames_made = 0
        """Frames drawn with marks on them (tests and the benchmark read it)."""
        self.whole_board = False
        """``z``: the whole board even where its numbers are too small to read."""
        self.window_origin: tuple[int, int] = (0, 0)
        """The top left pixel of the part of the board shown (when a part is)."""
        self.follow_later: int | None = None
        """A square to follow, asked before the widget was laid out."""

    # -- what is shown --------------------------------------------------------------------

    @property
    def picture_shown(self) -> bool:
        """The picture is on screen (not the character board standing in while the
        board's first picture is being made)."""
        return bool(self.tile_data)

    def placed(self, positions: Sequence[int], route: Sequence[int]) -> None:
        moved = [
            square
            for seat, square in enumerate(positions)
            if seat < len(self.positions) and self.positions[seat] != square and square > 0
        ]
        if len(moved) == 1:
            self.landed = moved[0]
        self.positions, self.route = tuple(positions), tuple(route)
        self.update_frame()

    def refresh_squares(self, squares: Iterable[int | None]) -> None:
        self.update_frame()  # the picture finds the tiles that changed itself

    def refresh_lines(self, lines: Sequence[int]) -> None:
        if not self.picture_shown:  # the picture repaints its own tiles (update_frame)
            self.view.text_refresh_lines(lines)

    def status_y(self) -> int | None:
        if self.picture_shown:
            return self.view.size.height - 1 if self.view.size.height else None
        return self.view.text_status_y()

    def board_set(self) -> None:
        self.positions, self.route, self.landed = (), (), None

    async def take_jumps(self, shown: list[int], turn: Turn, pace: float) -> None:
        """On the picture the token climbs its ladder or slides down its snake along the
        drawn jump (``SLIDE_FRAMES`` frames)."""
        from ..core.geometry import jump_paths, jump_paths_known

        if not jump_paths_known(self.view.board):
            await self.view.text_take_jumps(shown, turn, pace)
            return
        paths = {path.jump.start: path for path in jump_paths(self.view.board)}
        player = turn.player
        for index, jump in enumerate(turn.move.jumps):
            if index:
                await asyncio.sleep(JUMP_DELAY / pace)
            path = paths.get(jump.start)
            if path is not None:
                shown[player] = 0  # off its square: on its way along the jump
                self.view.show(shown, (), player)
                body = path.body
                for frame in range(1, SLIDE_FRAMES):
                    self.moving = (player, body[round(frame * (len(body) - 1) / SLIDE_FRAMES)])
                    self.update_frame()
                    await asyncio.sleep(SLIDE_DELAY / pace)
                self.moving = None
            shown[player] = jump.end
            self.view.show(shown, (), player)
        self.landed = turn.move.end
        self.update_frame()

    def follow(self, square: int) -> None:
        # The widget scrolled the character board standing in there too. Not laid out
        # yet: the first paint follows (``render_lines``).
        if not self.view.size.area:
            self.follow_later = square
            return
        window = self._window()
        if window is None:
            return
        from ..export.picture import layout_for

        _, _, width, height = self.picture_size()
        full_w, full_h = self._full_size(window[0], width, height)
        x0, y0, x1, y1 = layout_for(self.view.board, full_w, full_h).square_box(
            self.view.board, max(1, min(square, self.view.board.goal))
        )
        left, top = self.window_origin
        if left <= x0 and x1 <= left + width and top <= y0 and y1 <= top + height:
            return  # in view: the picture stays still
        left = round(min(max(0, (x0 + x1 - width) / 2), full_w - width))
        top = round(min(max(0, (y0 + y1 - height) / 2), full_h - height))
        self.window_origin = (left, top)
        self.view.refresh()

    def out_of_view(self) -> list[tuple[int, int, str]]:
        window = self._window()
        if window is None:
            return []  # the picture shows every square
        from ..export.picture import layout_for

        _, _, width, height = self.picture_size()
        layout = layout_for(self.view.board, *self._full_size(window[0], width, height))
        left, top = window[1], window[2]
        away = []
        for square, state in self.view.cell_states.items():
            x0, y0, x1, y1 = layout.square_box(self.view.board, square)
            arrow = (
                "↑"
                if y0 < top
                else "↓"
                if y1 > top + height
                else "←"
                if x0 < left
                else "→"
                if x1 > left + width
                else None
            )
            if arrow is not None:
                away += [(seat, square, arrow) for seat in state.tokens]
        return sorted(away)

    def toggle_fit(self) -> str:
        if self._readable_square() is None:
            return "The picture shows the whole board."
        self.whole_board = not self.whole_board
        self.view.refresh()
        if self.whole_board:
            return f"The whole board (its numbers are small; {keys_of('toggle_fit')}: a part)."
        if self.view.followed is not None:
            self.view.follow(self.view.followed)
        return "A part of the board, following the player to move."

    def _readable_square(self) -> int | None:
        """Pixels a square needs for its number to read, when the whole board at this
        size would have smaller ones (None: the whole board reads)."""
        _, _, width, height = self.picture_size()
        if width < 8 or height < 8:
            return None  # not laid out: no picture, no part of it
        whole = min(width / self.view.board.cols, height / self.view.board.rows)
        return READABLE_SQUARE if whole < READABLE_SQUARE else None

    def _window(self) -> tuple[int, int, int] | None:
        """(square pixels, left, top) of the part of the board shown, or None: all of it."""
        square = None if self.whole_board else self._readable_square()
        if square is None:
            return None
        _, _, width, height = self.picture_size()
        full_w, full_h = self._full_size(square, width, height)
        left = min(max(0, self.window_origin[0]), max(0, full_w - width))
        top = min(max(0, self.window_origin[1]), max(0, full_h - height))
        return square, left, top

    def _full_size(self, square: int, width: int, height: int) -> tuple[int, int]:
        """The whole board's picture at ``square`` pixels a square (at least the view)."""
        return max(width, square * self.view.board.cols), max(height, square * self.view.board.rows)

    def square_at(self, x: int, y: int) -> int | None:
        """The square under the cell at (``x``, ``y``) of the picture (a click)."""
        from ..export.picture import layout_for

        _, lines, width, height = self.picture_size()
        if y >= lines or width < 8 or height < 8:
            return None
        cell_w, cell_h = cell_pixels()
        window = self._window()
        left, top = (window[1], window[2]) if window else (0, 0)
        full = self._full_size(window[0], width, height) if window else (width, height)
        layout = layout_for(self.view.board, *full)
        col = math.floor(((x + 0.5) * cell_w + left - layout.left) / layout.square)
        row = math.floor(((y + 0.5) * cell_h + top - layout.top) / layout.square)
        if 0 <= row < self.view.board.rows and 0 <= col < self.view.board.cols:
            return self.view.board.square_at(row, col)
        return None

    # -- the picture ----------------------------------------------------------------------

    def marks(self) -> Marks:
        """What is laid over the board now."""
        from ..export.picture import Marks

        tokens: dict[int, list[int]] = {}
        for seat, square in enumerate(self.positions):
            if square > 0:
                tokens.setdefault(square, []).append(seat)
        marks = Marks(
            tokens={square: tuple(seats) for square, seats in tokens.items()},
            letters=tuple(self.view.letters),
            current=self.view.current_seat,
            route=self.route,
            landed=self.landed,
            moving=self.moving,
        )
        return self.view.decorate_marks(marks)

    def background_rgb(self) -> tuple[int, int, int]:
        colour = self.view.styles.background
        return colour.r, colour.g, colour.b

    def _key(self) -> tuple[object, ...] | None:
        columns, lines, width, height = self.picture_size()
        if width < 8 or height < 8:
            return None
        return (
            self.view.board,
            columns,
            lines,
            cell_pixels(),
            self.background_rgb(),
            self._window(),
        )

    def _ensure_picture(self, whole: bool = False) -> None:
        """Start making the board's picture when the board, size or colours changed:
        from the disk's copy at once when there is one, in a thread in any case.
        ``whole``: called from a paint of the whole widget, just laid out at this size
        (Textual writes every line of it): the disk's copy goes out with it."""
        key = self._key()
        if key is None or key == self.picture_key:
            return
        before, self.picture_key = self.picture_key, key
        self.pixels = None
        if before is None or before[1:5] != key[1:5]:  # another size: the old tiles are off
            self.tile_data, self.shown, self.due = {}, None, set()
            self.painted = set()
        if self.protocol == "sixel":
            saved = load_tiles(cache_name(self.view.board, key[1:]), key[1:])
            if saved is not None and set(saved) == set(self.tiles(*self.picture_size()[:2])):
                self.tile_data, self.shown = dict(saved), None
                self.due = set(saved)
                if whole and (before is None or before[1:3] != key[1:3]):
                    self.asked = set(saved)
                else:
                    self.view.call_after_refresh(self._ask_paint, list(saved))
                # The picture is ready to paint: the thread (loading NumPy and Pillow for
                # the frames to come) starts after this paint, not competing with it.
                self.view.call_after_refresh(self._make_pixels_in_thread, key)
                return
        self._make_pixels_in_thread(key)

    def _make_pixels_in_thread(self, key: tuple[object, ...]) -> None:
        """Make the picture for ``key`` in a daemon thread, not a Textual worker: a
        worker's thread is waited for when the app ends, and a big board's picture
        (routing 500 jumps of a 100x100 board) would keep a quit waiting for minutes.
        A thread whose key is no longer the widget's stops at its next step."""
        if key == self.picture_key:
            import threading

            threading.Thread(
                target=self._make_pixels, args=(key,), name="snl-picture", daemon=True
            ).start()

    def _make_pixels(self, key: tuple[object, ...]) -> None:
        """In a thread: the board's picture for ``key``, handed to ``_pixels_made``."""
        from ..core.geometry import jump_paths
        from ..export.picture import board_image, board_palette
        from ..export.sixel import encode

        board, columns, lines, cell, background, window = key
        assert isinstance(board, Board) and isinstance(columns, int)
        assert isinstance(lines, int) and isinstance(cell, tuple)
        assert isinstance(background, tuple)
        assert window is None or isinstance(window, tuple)
        width, height = columns * cell[0], lines * cell[1]
        name = cache_name(board, key[1:])

        def stale() -> bool:
            return key != self.picture_key or not self.view.is_attached

        # While the jumps are routed (a big board's take seconds), the character board
        # (with its markers) stands in: the picture comes once, with the jumps.
        jump_paths(board)
        if stale():
            return
        full = self._full_size(window[0], width, height) if window else (width, height)
        palette = board_palette(board, *full, background)
        image = board_image(board, *full, background)
        indices = palette.indices(self._in_view(image, window, width, height))
        tiles = load_tiles(name, key[1:]) if self.protocol == "sixel" else None
        if tiles is None:
            tiles = {}
            if self.protocol == "sixel":
                for tile in self.tiles(columns, lines):
                    if stale():
                        return
                    tiles[tile] = encode(indices[self._pixel_slice(tile)], palette.colours)
                    self.tiles_encoded += 1
                save_tiles(name, tiles)
        if stale():
            return
        made = BoardPixels(True, palette, indices, tiles)
        try:
            self.view.app.call_from_thread(self._pixels_made, key, made)
        except RuntimeError:  # the app is closing
            return

    def _pixels_made(self, key: tuple[object, ...], made: BoardPixels) -> None:
        if key != self.picture_key:
            return  # the board or size changed meanwhile: another thread is at work
        self.pixels = made
        if self.protocol == "sixel":
            # Tiles already sent (from the disk's copy) are not sent again.
            self._set_tiles(made.tiles)
            self.shown = made.indices
        self.update_frame()

    def _pixel_slice(self, tile: Region) -> tuple[slice, slice]:
        cell_w, cell_h = cell_pixels()
        return (
            slice(tile.y * cell_h, tile.bottom * cell_h),
            slice(tile.x * cell_w, tile.right * cell_w),
        )

    def frame_image(self) -> PILImage.Image | None:
        """The picture as it should look now (None: the board's is not made yet)."""
        from ..export.picture import board_image, frame_image

        pixels, key = self.pixels, self.picture_key
        if pixels is None or key is None:
            return None
        _, _, width, height = self.picture_size()
        background = self.background_rgb()
        marks = self.marks()
        window = key[5]
        assert window is None or isinstance(window, tuple)
        full = self._full_size(window[0], width, height) if window else (width, height)
        if marks.empty:
            image = board_image(self.view.board, *full, background, pixels.jumps)
        else:
            self.frames_made += 1
            image = frame_image(self.view.board, *full, marks, background, jumps=pixels.jumps)
        return self._in_view(image, window, width, height)

    @staticmethod
    def _in_view(
        image: PILImage.Image, window: tuple[int, int, int] | None, width: int, height: int
    ) -> PILImage.Image:
        """The part of the whole board's ``image`` that ``window`` shows."""
        if window is None:
            return image
        _, left, top = window
        return image.crop((left, top, left + width, top + height))

    def update_frame(self) -> None:
        """Lay what is on the board now over its picture and send what changed: the
        tiles whose pixels differ (Sixel), or the whole frame (Kitty's protocol)."""
        if not self.view.is_mounted or self.pixels is None or self._key() != self.picture_key:
            return
        if self.protocol == "kitty":
            self._kitty_frame()
            return
        from ..export.sixel import encode

        pixels = self.pixels
        marks = self.marks()
        if marks.empty:
            indices = pixels.indices
        else:
            frame = self.frame_image()
            assert frame is not None
            indices = pixels.palette.indices(frame)
        shown = self.shown
        columns, lines, _, _ = self.picture_size()
        every = self.tiles(columns, lines)
        if shown is None or shown.shape != indices.shape:
            candidates = every
        else:
            differs = shown != indices
            rows = differs.any(axis=1)
            candidates = []
            for tile in every:
                where = self._pixel_slice(tile)
                if rows[where[0]].any() and differs[where].any():
                    candidates.append(tile)
        new: dict[Region, str] = {}
        for tile in candidates:
            where = self._pixel_slice(tile)
            if tile in pixels.tiles and (
                indices is pixels.indices or not (indices[where] != pixels.indices[where]).any()
            ):
                new[tile] = pixels.tiles[tile]  # back to the bare board: its own encoding
            else:
                new[tile] = encode(indices[where], pixels.palette.colours)
                self.tiles_encoded += 1
        self.shown = indices
        self._set_tiles(new)

    def _kitty_frame(self) -> None:
        """Kitty's protocol: the frame as one PNG under a new image id, placed at the
        picture's corner beneath the text (the old image freed with it)."""
        from ..export.kitty import transmit_and_place

        frame = self.frame_image()
        if frame is None:
            return
        columns, lines, _, _ = self.picture_size()
        png = io.BytesIO()
        frame.save(png, "PNG", compress_level=1)
        if self.kitty_image is not None:
            self.kitty_old.append(self.kitty_image)
        self.kitty_ids = self.kitty_ids % 0xFFFF + 1
        image_id = (os.getpid() & 0xFF) << 16 | self.kitty_ids
        self.kitty_image = image_id
        freed = self._kitty_free_old()
        whole = Region(0, 0, columns, lines)
        self.tile_data = {}
        self._set_tiles(
            {whole: freed + transmit_and_place(image_id, png.getvalue(), columns, lines)}
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        # Any crop, exactly its lines (``picture_lines``): a paint asks for the whole
        # widget (Textual writes only the lines it has to), the pointer for one line.
        whole = crop == self.view.size.region and crop.height > 1
        if self.follow_later is not None and self.view.size.area:
            square, self.follow_later = self.follow_later, None
            self.follow(square)  # asked before the widget had a size
        self._ensure_picture(whole)
        if not self.picture_shown:
            # The board's first picture is being made (in a thread): the character board
            # until it is ready, then the picture over it.
            return self.view.text_lines(crop)
        columns, lines, _, _ = self.picture_size()
        base = self.view.rich_style
        status = self.view._join([(" ", base), *self.view.status_pieces()], base, columns)
        blank = Style() if self.protocol == "kitty" else None
        if not self.view.screen.is_active:
            # Beneath a dialog, Textual tints these lines and cuts them round the
            # dialog: the character board, the same game in text (the winning move in
            # sight beneath the winner's dialog), cut and tinted as text is. Every tile
            # is sent again once the dialog goes (the whole screen is painted then).
            self.due, self.painted = set(self.tile_data), set()
            strips = self.view.text_lines(crop)
            if self.protocol == "kitty" and self.kitty_image is not None:
                from ..export.kitty import hide

                # Kitty's picture is placed beneath the text: taken away while the
                # dialog is up (placed again, not sent again, when it goes).
                strips = self._hidden_beneath_dialog(crop, strips, hide(self.kitty_image))
            return strips
        from textual.errors import NoWidget

        try:
            origin = self.view.screen.find_widget(self.view).region.offset
        except NoWidget:
            return picture_strips(crop, lines, (), Offset(), status, blank)
        if crop.height <= 1 < self.view.size.height:
            # The pointer asking what is under it (``get_style_at``): nothing of this
            # goes to the terminal, so nothing is sent.
            return picture_strips(crop, lines, (), origin, status, blank)
        if origin != self.sent_origin:  # the widget moved: its old pixels are elsewhere
            self.sent_origin = origin
            self.due, self.painted = set(self.tile_data), set()
        sending = self._tiles_to_send(crop, origin)
        stops = self._stops(crop, origin)
        erase = self.covered - self.painted if blank is None else set()
        sgr = background_sgr(self.view) if erase else ""
        return picture_strips(crop, lines, sending, origin, status, blank, stops, erase, sgr)
