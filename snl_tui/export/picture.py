"""The board as a picture in pixels: the printed page's grid, for the terminal's graphics.

``PictureRenderer`` draws with Pillow (wheels on every platform, no system library) from
``core.geometry``: the same squares, ladders with rails and rungs and snakes with heads
that ``svg.board_svg`` puts on paper, in the ``colour`` theme's colours. The board is
drawn once per size at twice the resolution and scaled down (smooth edges), then kept
with its palette (``board_palette``): a frame is a copy of it with what changes during a
game laid over (the tokens, the route's steps, the square just landed on, the editor's
cursor, heat map and jump in progress), mapped onto that palette for ``sixel.encode``.
No Textual here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.board import Board
from ..core.colours import SEAT_COLOURS, seat_colour
from ..core.geometry import NUMBER_HEIGHT, JumpPath, Point, jump_paths, number_box, number_boxes
from .svg import THEME_COLOURS

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image as PILImage
    from PIL import ImageFont

SUPERSAMPLE = 2
"""The board is drawn this many times larger, then scaled down: smooth lines."""
TOKEN_COLOURS = tuple(colour.fill for colour in SEAT_COLOURS)
"""Seat 1 to 4 (then again): the text board's token colours, as pixels."""
ROUTE_COLOUR = "#4b5563"
"""Slate: a route step is never taken for a token (the seats are blue, orange, red, teal)."""
LANDED_COLOUR = "#f59e0b"
CURSOR_COLOUR = "#7c3aed"
PENDING_COLOURS = ("#15803d", "#b91c1c")
"""The editor's jump in progress: going up (a ladder to be), going down (a snake)."""
BOARD_COLOURS = 32
"""The board picture's own colours, quantised: its flat colours and their smooth edges
look the same as with 200 (compared side by side), and a picture of fewer colours is
smaller and faster to encode (classic at 80x24: 97 KB against 160 KB, in half the time)."""
HEAT_COLOUR = (220, 38, 38)
HEAT_ALPHAS = tuple(round(40 + 120 * shade / 4) for shade in range(5))
"""The heat map's red laid over a square: 0..1 maps to 40..160 of 255 (five steps in the
palette; a frame's heat is snapped to the nearest)."""


@dataclass(frozen=True)
class Marks:
    """What is laid over the board in one frame (everything that changes in a game)."""

    tokens: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Square -> seats (0-based) standing on it."""
    letters: tuple[str, ...] = ()
    current: int | None = None
    """The seat to move: its token gets a ring."""
    route: tuple[int, ...] = ()
    """The shown route's squares in order (step 1 first)."""
    landed: int | None = None
    """The square just landed on (after the jump)."""
    cursor: int | None = None
    """The editor's cursor."""
    heat: Mapping[int, float] = field(default_factory=dict)
    """Square -> 0..1: the editor's heat map."""
    moving: tuple[int, Point] | None = None
    """A token on its way up a ladder or down a snake: (seat, point in squares)."""
    pending: tuple[int, int] | None = None
    """The editor's jump in progress: (its start, the square it would end on now)."""

    @property
    def empty(self) -> bool:
        """Nothing is laid over the board: the frame is the board's own picture."""
        return not (
            self.tokens
            or self.route
            or self.heat
            or self.moving
            or self.pending
            or self.landed is not None
            or self.cursor is not None
        )


@dataclass(frozen=True)
class Layout:
    """Where the grid sits in a picture of ``width`` x ``height`` pixels."""

    width: int
    height: int
    square: float
    left: float
    top: float

    def point(self, point: Point) -> tuple[float, float]:
        return self.left + point[0] * self.square, self.top + point[1] * self.square

    def square_box(self, board: Board, square: int) -> tuple[float, float, float, float]:
        row, col = board.position_of(square)
        x, y = self.left + col * self.square, self.top + row * self.square
        return x, y, x + self.square, y + self.square


def layout_for(board: Board, width: int, height: int) -> Layout:
    """The largest grid of square squares that fits ``width`` x ``height``, centred."""
    square = min(width / board.cols, height / board.rows)
    left = (width - square * board.cols) / 2
    top = (height - square * board.rows) / 2
    return Layout(width, height, square, left, top)


def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return _font_cached(max(6, round(size)), ImageFont)


@lru_cache(maxsize=32)
def _font_cached(size: int, module: object) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    # Pillow's own font (no system font needed); a bitmap font where FreeType is missing.
    return ImageFont.load_default(size)


RGB = tuple[int, int, int]


@lru_cache(maxsize=8)
def board_image(
    board: Board,
    width: int,
    height: int,
    background: RGB = (255, 255, 255),
    jumps: bool = True,
) -> PILImage.Image:
    """The board without tokens, ``width`` x ``height`` pixels on ``background`` (cached
    per board and size: a frame starts from a copy); ``jumps`` False leaves out the
    snakes and ladders (drawn while they are being routed)."""
    from PIL import Image, ImageDraw

    colours = THEME_COLOURS["colour"]
    big = layout_for(board, width * SUPERSAMPLE, height * SUPERSAMPLE)
    image = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE), background)
    draw = ImageDraw.Draw(image)
    s = big.square
    for square in range(1, board.goal + 1):
        row, col = board.position_of(square)
        if square == board.goal:
            fill = colours.goal
        else:
            fill = colours.light if (row + col) % 2 == 0 else colours.dark
        x0, y0, x1, y1 = big.square_box(board, square)
        draw.rectangle((x0, y0, x1, y1), fill=fill, outline=colours.muted, width=1)
    for path in jump_paths(board) if jumps else ():
        _draw_jump(draw, path, big, colours.ladder, colours.snake, colours.snake_belly)
    font = _font(number_size(s))
    # Where the routing left each number (moved to a clear corner when a jump crosses
    # it); while the jumps are being routed, the usual corner.
    if jumps:
        boxes = number_boxes(board)
    else:
        boxes = {square: number_box(board, square) for square in range(1, board.goal + 1)}
    for square in range(1, board.goal + 1):
        row, col = board.position_of(square)
        if square == board.goal:
            fill = colours.goal
        else:
            fill = colours.light if (row + col) % 2 == 0 else colours.dark
        bx0, by0, bx1, by1 = boxes[square]
        (px0, py0), (px1, py1) = big.point((bx0, by0)), big.point((bx1, by1))
        # The number on a patch of its square's colour, as on paper.
        draw.rectangle((px0, py0, px1, py1), fill=fill)
        draw.text((px0 + s * 0.02, py0), str(square), fill=colours.text, font=font)
    # A box filter halving the size (Pillow's reduce): smooth edges, several times
    # faster than a Lanczos resize of the same picture.
    return image.reduce(SUPERSAMPLE)


def number_size(square: float) -> float:
    """The square numbers' font size in pixels for squares ``square`` pixels wide (the
    geometry's number box is 1.15 times as tall)."""
    return max(7.0, square * NUMBER_HEIGHT / 1.15)


def _draw_jump(
    draw: object,
    path: JumpPath,
    layout: Layout,
    ladder: tuple[str, str],
    snake: tuple[str, str],
    belly: tuple[str, str],
) -> None:
    from PIL import ImageDraw

    assert isinstance(draw, ImageDraw.ImageDraw)
    s = layout.square
    if path.kind == "ladder":
        colour = ladder[path.lane]
        rail = max(2, round(s * 0.05))
        for a, b in path.rungs:
            draw.line([layout.point(a), layout.point(b)], fill=colour, width=max(1, rail * 4 // 5))
        for line in path.rails:
            draw.line([layout.point(p) for p in line], fill=colour, width=rail, joint="curve")
        return
    colour, stripe = snake[path.lane], belly[path.lane]
    width = max(3, round(s * 0.11))
    points = [layout.point(p) for p in path.body]
    draw.line(points, fill=colour, width=width, joint="curve")
    draw.line(points, fill=stripe, width=max(1, width // 3), joint="curve")
    hx, hy = layout.point(path.start)
    radius = width * 1.05
    draw.ellipse((hx - radius, hy - radius, hx + radius, hy + radius), fill=colour)
    eye = radius * 0.28
    for dx in (-0.4, 0.4):
        ex, ey = hx + dx * radius, hy - radius * 0.25
        draw.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill="#ffffff")


def frame_image(
    board: Board,
    width: int,
    height: int,
    marks: Marks,
    background: RGB = (255, 255, 255),
    jumps: bool = True,
) -> PILImage.Image:
    """The board with ``marks`` laid over it, ``width`` x ``height`` pixels."""
    from PIL import ImageDraw

    image = board_image(board, width, height, background, jumps).copy()
    draw = ImageDraw.Draw(image, "RGBA")
    layout = layout_for(board, width, height)
    s = layout.square
    for square, heat in marks.heat.items():
        if 1 <= square <= board.goal and heat > 0:
            draw.rectangle(
                layout.square_box(board, square),
                fill=(*HEAT_COLOUR, HEAT_ALPHAS[round(4 * min(1.0, heat))]),
            )
    line = max(2, round(s * 0.06))
    if marks.landed is not None and 1 <= marks.landed <= board.goal:
        draw.rectangle(layout.square_box(board, marks.landed), outline=LANDED_COLOUR, width=line)
    if marks.cursor is not None and 1 <= marks.cursor <= board.goal:
        draw.rectangle(layout.square_box(board, marks.cursor), outline=CURSOR_COLOUR, width=line)
    if marks.pending is not None:
        _draw_pending(draw, board, layout, *marks.pending)
    small = _font(max(7.0, s * 0.2))
    for step, square in enumerate(marks.route, start=1):
        if not 1 <= square <= board.goal:
            continue
        x0, y0, x1, y1 = layout.square_box(board, square)
        top, left = _number_side(board, square, jumps)
        r = s * 0.14
        # Beside the number, on the other side of the square from it.
        cx = x0 + r * 1.3 if not left else x1 - r * 1.3
        cy = y0 + r * 1.3 if top else y1 - r * 1.3
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ROUTE_COLOUR)
        draw.text((cx, cy), str(step), fill="#ffffff", font=small, anchor="mm")
    for square, seats in marks.tokens.items():
        if not 1 <= square <= board.goal or not seats:
            continue
        top, _ = _number_side(board, square, jumps)
        _draw_tokens(draw, layout.square_box(board, square), seats, marks, foot=top)
    if marks.moving is not None:
        seat, point = marks.moving
        x, y = layout.point(point)
        r = s * 0.17
        _draw_tokens(draw, (x - s / 2, y - s / 2 - r, x + s / 2, y + s / 2 - r), (seat,), marks)
    return image


def _number_side(board: Board, square: int, jumps: bool) -> tuple[bool, bool]:
    """(top, left): which half of its square ``square``'s number sits in, up or down and
    left or right (the routing may move it to any corner: ``geometry.number_boxes``)."""
    if not jumps:
        return True, True
    x0, y0, x1, y1 = number_boxes(board)[square]
    row, col = board.position_of(square)
    return (y0 + y1) / 2 - row < 0.5, (x0 + x1) / 2 - col < 0.5


def _draw_tokens(
    draw: object,
    box: tuple[float, float, float, float],
    seats: Sequence[int],
    marks: Marks,
    foot: bool = True,
) -> None:
    """Up to four tokens side by side at the foot of the square (at its head with
    ``foot`` False: where its number is not); more are counted."""
    from PIL import ImageDraw

    assert isinstance(draw, ImageDraw.ImageDraw)
    x0, y0, x1, y1 = box
    s = x1 - x0
    shown = list(seats[:4])
    count = len(shown)
    r = min(s * 0.17, s * 0.9 / (2 * count + 0.5))
    font = _font(r * 1.3)
    cy = y1 - r - s * 0.06 if foot else y0 + r + s * 0.06
    for index, seat in enumerate(shown):
        cx = x0 + s / 2 + (index - (count - 1) / 2) * (2 * r + s * 0.02)
        colour = seat_colour(seat)
        ring = "#ffffff" if seat != marks.current else "#111111"
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=colour.fill,
            outline=ring,
            width=max(1, round(r / 4)),
        )
        letter = marks.letters[seat] if seat < len(marks.letters) else str(seat + 1)
        draw.text((cx, cy), letter[:1], fill=colour.letter, font=font, anchor="mm")
    if len(seats) > 4:
        draw.text((x1 - s * 0.05, y1 - s * 0.05), f"+{len(seats) - 4}", fill="#000000", anchor="rb")


def _draw_pending(draw: object, board: Board, layout: Layout, start: int, end: int) -> None:
    """The editor's jump in progress: its start ringed, and an arrow to where it would
    end (green going up, red going down; a dot while it ends where it starts)."""
    from PIL import ImageDraw

    assert isinstance(draw, ImageDraw.ImageDraw)
    if not (1 <= start <= board.goal and 1 <= end <= board.goal):
        return
    s = layout.square
    up = board.position_of(end)[0] < board.position_of(start)[0]
    colour = PENDING_COLOURS[0 if up or end == start else 1]
    x0, y0, x1, y1 = layout.square_box(board, start)
    a = ((x0 + x1) / 2, (y0 + y1) / 2)
    r = s * 0.22
    line = max(2, round(s * 0.06))
    draw.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), outline=colour, width=line)
    if end == start:
        return
    x0, y0, x1, y1 = layout.square_box(board, end)
    b = ((x0 + x1) / 2, (y0 + y1) / 2)
    draw.line([a, b], fill=colour, width=line)
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    head = s * 0.25
    left = (b[0] - head * (ux - uy * 0.5), b[1] - head * (uy + ux * 0.5))
    right = (b[0] - head * (ux + uy * 0.5), b[1] - head * (uy - ux * 0.5))
    draw.polygon([b, left, right], fill=colour)


@dataclass(frozen=True)
class Palette:
    """The colours of a board's frames (at most 255): the board picture's own, quantised
    once per board and size, then every mark's exactly (tokens, rings, route, cursor,
    the heat map's steps over the square colours). A frame is mapped onto it, so its
    tiles share one palette and a tile that did not change encodes the same."""

    colours: tuple[RGB, ...]
    image: PILImage.Image
    """A 'P' picture carrying ``colours`` (what Pillow maps onto)."""

    def indices(self, frame: PILImage.Image) -> np.ndarray:
        """``frame`` (RGB) as rows of indices into ``colours``."""
        import numpy as np
        from PIL import Image

        mapped = frame.quantize(palette=self.image, dither=Image.Dither.NONE)
        indices: np.ndarray = np.minimum(np.asarray(mapped), len(self.colours) - 1)
        return indices


def _rgb(colour: str) -> RGB:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _blend(under: RGB, over: RGB, alpha: int) -> RGB:
    r, g, b = (round(u + (o - u) * alpha / 255) for u, o in zip(under, over, strict=True))
    return r, g, b


@lru_cache(maxsize=8)
def board_palette(
    board: Board,
    width: int,
    height: int,
    background: RGB = (255, 255, 255),
    jumps: bool = True,
) -> Palette:
    """The palette of ``board``'s frames at this size (see ``Palette``)."""
    import numpy as np
    from PIL import Image

    colours = THEME_COLOURS["colour"]
    squares = [_rgb(colours.light), _rgb(colours.dark), _rgb(colours.goal)]
    marks = [
        *(_rgb(colour) for colour in TOKEN_COLOURS),
        *(_rgb(colour) for colour in (ROUTE_COLOUR, LANDED_COLOUR, CURSOR_COLOUR)),
        *(_rgb(colour) for colour in PENDING_COLOURS),
        (255, 255, 255),
        (17, 17, 17),
        (0, 0, 0),
        *(_blend(square, HEAT_COLOUR, alpha) for square in squares for alpha in HEAT_ALPHAS),
    ]
    base = board_image(board, width, height, background, jumps)
    # Every other pixel each way (the same colours, a quarter of the work).
    sample = base.resize((max(1, width // 2), max(1, height // 2)), Image.Resampling.NEAREST)
    quantised = sample.quantize(colors=BOARD_COLOURS, method=Image.Quantize.FASTOCTREE)
    flat = quantised.getpalette() or []
    own = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
    used = sorted({own[index] for index in np.unique(np.asarray(quantised)).tolist()})
    every = tuple(dict.fromkeys([*used, *marks]))
    padded = [*every, *(every[-1],) * (256 - len(every))]
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in padded for channel in colour])
    return Palette(every, image)
