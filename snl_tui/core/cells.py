"""Text width in terminal cells: the one measure for board lines and the CLI's tables.

``len`` counts characters, but a terminal gives East Asian wide letters (``小明``) two
cells and combining marks none, so a column padded with ``len`` comes out ragged. Every
place that lines text up in columns measures it here.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)
def char_cells(char: str) -> int:
    """Cells one character takes: 2 for wide and full-width letters, 0 for combining
    marks and format characters, else 1."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cell_width(text: str) -> int:
    """Cells ``text`` takes in a terminal."""
    if text.isascii():
        return len(text)
    return sum(char_cells(char) for char in text)


def cut_cells(text: str, width: int) -> str:
    """The longest start of ``text`` that takes at most ``width`` cells."""
    if text.isascii():
        return text[: max(width, 0)]
    used = 0
    for index, char in enumerate(text):
        used += char_cells(char)
        if used > width:
            return text[:index]
    return text


def pad_cells(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` cells (on the left when ``right``-aligned);
    text already as wide or wider is left as it is."""
    gap = " " * max(0, width - cell_width(text))
    return gap + text if right else text + gap
