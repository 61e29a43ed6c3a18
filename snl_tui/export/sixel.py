"""Sixel, the DEC terminals' picture escape: a paletted picture's pixels as text.

The board's picture has few colours, flat areas and one palette per board and size
(``picture.Palette``), so the encoder is small and made for it: every colour a picture
uses is defined once at its start (xterm paints a picture's first bands wrongly when a
colour is defined mid-band), then each band of six pixel rows sends, colour by colour,
one row of six-bit columns from its first to its last pixel, long runs compressed. The
work per band is a few NumPy operations over all its colours at once; only the emitting
is a Python loop, over the (band, colour) pairs that have a pixel.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

START = '\x1bP0;1;0q"1;1;'
"""A picture's start (DCS ... q): pixel aspect 1:1 (``0``), bits left at 0 keep the
pixels below them (``1``: the colours are all painted, nothing is cleared first), then
the raster size."""
END = "\x1b\\"
NO_COLOUR = 255
"""The palette index that pads the last band: never painted (a palette has at most 255
colours)."""
_WEIGHTS = np.array([1, 2, 4, 8, 16, 32], dtype=np.uint8)
_RUN = re.compile(rb"(.)\1{3,}")
_EMPTY = ord("?")


def _compress(match: re.Match[bytes]) -> bytes:
    return b"!%d%s" % (match.end() - match.start(), match.group(1))


def percent(channel: int) -> int:
    """A 0-255 colour channel as Sixel's 0-100."""
    return (channel * 100 + 127) // 255


def encode(indices: np.ndarray, palette: Sequence[tuple[int, int, int]]) -> str:
    """The Sixel picture of ``indices`` (rows x columns of palette indices, uint8) in
    ``palette``'s colours (RGB 0-255)."""
    height, width = indices.shape
    bands = -(-height // 6)
    if bands * 6 != height:
        pad = np.full((bands * 6 - height, width), NO_COLOUR, dtype=np.uint8)
        indices = np.concatenate([indices, pad])
    cube = indices.reshape(bands, 6, width)
    used = np.unique(cube)
    used = used[used != NO_COLOUR]
    # (colours, bands, 6, width) -> each colour's six-bit column per band and column.
    hits = cube[None, :, :, :] == used[:, None, None, None]
    columns = np.einsum("kbrw,r->kbw", hits.astype(np.uint8), _WEIGHTS)
    present = columns.any(axis=2)
    text = (columns + _EMPTY).astype(np.uint8)
    out = [START.encode(), b"%d;%d" % (width, height)]
    for register, index in enumerate(used.tolist()):
        r, g, b = palette[index]
        out.append(b"#%d;2;%d;%d;%d" % (register, percent(r), percent(g), percent(b)))
    for band in range(bands):
        first = True
        for register in np.flatnonzero(present[:, band]).tolist():
            row = text[register, band].tobytes().rstrip(b"?")
            out.append(b"#%d" % register if first else b"$#%d" % register)
            out.append(_RUN.sub(_compress, row))
            first = False
        out.append(b"-")
    out.append(END.encode())
    return b"".join(out).decode("ascii")
