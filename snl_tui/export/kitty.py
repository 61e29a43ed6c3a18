"""Kitty's graphics protocol: a picture sent to the terminal and placed in its cells.

The picture is transmitted once per frame (PNG, base64, in chunks) under an image id and
placed at the cursor over ``columns`` x ``lines`` cells, beneath the text and beneath
every cell that has a background colour of its own (``z`` below ``BELOW_BACKGROUNDS``):
it shows only through cells left in the terminal's default background, which the board
writes and nothing else does. So a toast, a dialog or another screen over the picture
hides it as text would, with no placement to take away; the cursor stays where it was
(``C=1``), and the terminal answers nothing (``q=2``).

Placed directly, not through Unicode placeholders (``U=1``): kitty reads those from
0.28 only (Debian 12's 0.26.5 rejects the key and shows boxes), and a direct placement
with a ``z`` below the backgrounds works in kitty since 0.20 and in Ghostty. No Textual
here.
"""

from __future__ import annotations

import base64

START = "\x1b_G"
END = "\x1b\\"
CHUNK = 4096
"""Base64 characters per escape (the protocol's limit)."""
PLACEMENT = 1
"""The one placement of each image: placing it again moves it, never doubles it."""
BELOW_BACKGROUNDS = -1_073_741_825
"""A ``z`` under ``INT32_MIN / 2``: drawn below cells with a background colour."""


def _placing(columns: int, lines: int) -> str:
    return f"p={PLACEMENT},c={columns},r={lines},C=1,z={BELOW_BACKGROUNDS},q=2"


def transmit_and_place(image_id: int, png: bytes, columns: int, lines: int) -> str:
    """The escapes that send ``png`` as image ``image_id`` and place it at the cursor,
    scaled to ``columns`` x ``lines`` cells."""
    data = base64.standard_b64encode(png).decode("ascii")
    parts = []
    for offset in range(0, len(data), CHUNK) or [0]:
        chunk = data[offset : offset + CHUNK]
        more = int(offset + CHUNK < len(data))
        if offset == 0:
            keys = f"a=T,f=100,i={image_id},{_placing(columns, lines)},m={more}"
        else:
            keys = f"m={more}"
        parts.append(f"{START}{keys};{chunk}{END}")
    return "".join(parts)


def place(image_id: int, columns: int, lines: int) -> str:
    """The escape that places image ``image_id`` (already sent) at the cursor again."""
    return f"{START}a=p,i={image_id},{_placing(columns, lines)}{END}"


def hide(image_id: int) -> str:
    """The escape that takes image ``image_id``'s placement away, keeping the image (it
    is placed again, not sent again)."""
    return f"{START}a=d,d=i,i={image_id},q=2{END}"


def delete(image_id: int) -> str:
    """The escape that frees image ``image_id`` and its placements."""
    return f"{START}a=d,d=I,i={image_id},q=2{END}"
