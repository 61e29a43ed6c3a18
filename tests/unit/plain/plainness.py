"""What "plain" means for the screen-reader mode's output, checked line by line."""

from __future__ import annotations

import re
import unicodedata

ESCAPE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters (ESC among them), newline and tab excepted."""


def unplain(text: str) -> list[str]:
    """Every character of ``text`` that a screen reader should not meet: a control
    character, box drawing (U+2500-U+259F), braille (U+2800-U+28FF), a symbol of
    category So (emoji, dingbats, arrows drawn as pictures) or an emoji presentation."""
    found = []
    for char in text:
        code = ord(char)
        if (
            ESCAPE.match(char)
            or 0x2500 <= code <= 0x259F
            or 0x2800 <= code <= 0x28FF
            or unicodedata.category(char) == "So"
            or 0x1F000 <= code < 0x20000  # emoji and pictographs (not CJK beyond)
            or char in "\ufe0f\u200d\u2192\u00b7"  # also no arrows or middle dots
        ):
            found.append(f"U+{code:04X}")
    return found
