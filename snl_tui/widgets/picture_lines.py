"""The board picture's lines for any crop: what ``PictureRenderer.render_lines`` returns.

Textual asks a Line-API widget for any region of itself: the whole widget when it paints
(only the lines it has to are written), one line when the pointer moves over it
(``get_style_at``), part of it when it is partly hidden. The answer is always exactly
``crop.height`` strips of ``crop.width`` cells, whatever the tiles and the crop.

A picture goes out as escapes: a tile's escape (a Sixel picture, or Kitty's transmission
and placement) moves the cursor to the tile's top left corner itself, so it rides on the
strip of any line of the tile; it goes on its last line, so that a tile is sent only
when the whole of it is in the crop (never a picture spilling over lines outside it).
Pure functions: the widget decides which tiles are due, these place them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.control import Control
from rich.segment import ControlType, Segment
from rich.style import Style
from textual.geometry import Offset, Region
from textual.strip import Strip

NO_OP = ((ControlType.CURSOR_FORWARD, 0),)
"""Marks a segment as control data, so that nothing measures or splits it."""
_NONE = Style()


def inside(tile: Region, crop: Region) -> bool:
    """Whether the whole of ``tile`` lies in ``crop`` (both in the widget's cells)."""
    return (
        crop.x <= tile.x
        and tile.right <= crop.right
        and crop.y <= tile.y
        and tile.bottom <= crop.bottom
    )


def tile_segment(tile: Region, data: str, origin: Offset) -> Segment:
    """One control segment that draws ``data`` (the tile's escape) at ``tile`` on the
    screen (the widget's top left corner at ``origin``) and leaves the cursor at the
    tile's right on its last line, however Textual cuts or joins the line."""
    there = Control.move_to(origin.x + tile.x, origin.y + tile.y).segment.text
    back = Control.move_to(origin.x + tile.right, origin.y + tile.bottom - 1).segment.text
    return Segment(there + data + back, _NONE, NO_OP)


def picture_strips(
    crop: Region,
    lines: int,
    tiles: Iterable[tuple[Region, str]],
    origin: Offset,
    status: Strip,
    blank: Style | None = None,
    stops: Mapping[int, int] | None = None,
    erase: Iterable[Region] = (),
    erase_sgr: str = "",
) -> list[Strip]:
    """Exactly ``crop.height`` strips for ``crop`` of a widget whose first ``lines``
    lines are the picture and whose lines below show ``status`` (cropped to the crop's
    columns): each tile of ``tiles`` (region, escape) wholly inside the crop rides on
    its last line. A picture line is empty (``blank`` None: whatever the terminal shows
    there stays, as Sixel's pixels must), or spaces in ``blank``'s style (Kitty's
    placement shows through the cells with the terminal's default background).
    ``stops``: for a line (widget's y) where another widget lies over the picture, the
    column where the first of them begins: the line's cursor goes there, not to the
    crop's end (a full update writes that widget's text where the cursor is).
    ``erase``: tiles held back (under a toast) whose pixels were never sent at this
    place: their cells left of any widget over the line are erased (Sixel), so that no
    text from before (the character board, a smaller layout) shows round the toast,
    in the colours of ``erase_sgr`` (an SGR's parameters: the widget's background)."""
    width = crop.width
    on_line: dict[int, list[Segment]] = {}
    for tile, data in tiles:
        if inside(tile, crop):
            on_line.setdefault(tile.bottom - 1 - crop.y, []).append(
                tile_segment(tile, data, origin)
            )
    status_line = status.crop_extend(crop.x, crop.right, None) if crop.bottom > lines else None
    strips: list[Strip] = []
    for index, y in enumerate(range(crop.y, crop.bottom)):
        if y >= lines:
            assert status_line is not None
            strips.append(status_line)
            continue
        # The tiles first: zero cells wide, they stay with the line's first part when
        # Textual cuts it round a widget lying over it (the rest may be dropped).
        segments = list(on_line.get(index, []))
        if blank is not None:
            if segments:  # a tile leaves the cursor at its end: back to the line's start
                start = Control.move_to(origin.x + crop.x, origin.y + y).segment.text
                segments.append(Segment(start, _NONE, NO_OP))
            segments.append(Segment(" " * width, blank))
        else:
            # Nothing written over the pixels; the cursor goes past them (to where a
            # widget over the line begins, if one does), so that text Textual writes
            # after this strip (a full update joins a line's strips without moving the
            # cursor) lands where it belongs.
            end = crop.right if stops is None else stops.get(y, crop.right)
            for tile in erase:
                left, right = max(tile.x, crop.x), min(tile.right, end)
                if tile.y <= y < tile.bottom and left < right:
                    there = Control.move_to(origin.x + left, origin.y + y).segment.text
                    erased = f"\x1b[{erase_sgr}m\x1b[{right - left}X\x1b[0m"
                    segments.append(Segment(there + erased, _NONE, NO_OP))
            past = Control.move_to(origin.x + end, origin.y + y).segment.text
            segments.append(Segment(past, _NONE, NO_OP))
        strips.append(Strip(segments, cell_length=width))
    return strips


def due_in_crop(
    crop: Region, due: Mapping[Region, str] | Iterable[tuple[Region, str]]
) -> list[tuple[Region, str]]:
    """The due tiles (region, escape) that a paint of ``crop`` sends."""
    items = due.items() if isinstance(due, Mapping) else due
    return [(tile, data) for tile, data in items if inside(tile, crop)]
