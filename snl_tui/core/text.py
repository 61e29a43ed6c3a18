"""Words and numbers as snl writes them, and text made safe for a terminal.

Every layer uses this module (the board's validation, errors, the CLI, the app): squares
('off the board', 'square 12'), shares of games that never round a doubt away, plurals,
runs of squares, whole numbers typed by a person (ASCII digits only), and the one escaping
helper that every text from outside (arguments, files, the store, the network) passes
through before it reaches a terminal. Imports nothing of snl.
"""

from __future__ import annotations

import math
import re
import reprlib
import unicodedata
from collections.abc import Sequence

# -- words and numbers -----------------------------------------------------------------


def place(position: int) -> str:
    """'off the board' for position 0, 'square 12' otherwise."""
    return "off the board" if position <= 0 else f"square {position}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 turn', '2 turns', '0 snakes': ``count`` and ``word``, plural unless it is 1
    (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) as one space."""
    return " ".join(text.split())


QUOTE_LIMIT = 60
"""How much of a value from a file an error message quotes."""
LINE_LIMIT = 200
"""The longest error line the CLI prints."""
ELLIPSIS = "..."

# Bidirectional overrides and isolates can make a terminal show text in another order
# than it is stored ("Trojan Source"): escaped like the control characters.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_unsafe_char(char: str, allowed: str = "") -> bool:
    """Whether ``char`` must never reach a terminal raw: a control character (C0, DEL,
    C1), a line or paragraph separator, or a bidirectional override."""
    if char in allowed:
        return False
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI


def escape_controls(text: str, allowed: str = "") -> str:
    """``text`` with every unsafe character (``is_unsafe_char``) written as an escape:
    ESC shows as ``\\x1b``, so an echoed file name cannot drive the terminal."""
    if not any(is_unsafe_char(char, allowed) for char in text):
        return text
    return "".join((_escape(char) if is_unsafe_char(char, allowed) else char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in '...' when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 1)] + ELLIPSIS


class _ShortRepr(reprlib.Repr):
    """``repr`` bounded in depth, length and digits; never raises on a deep or huge value
    (``repr`` itself hits the recursion limit, or int's 4,300-digit limit)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6
        self.maxstring = QUOTE_LIMIT
        self.maxother = QUOTE_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<a number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return repr(x)


_SHORT_REPR = _ShortRepr()


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value from a file, quoted for an error message: ``repr``-like, at most ``limit``
    characters, control characters escaped, whatever the value (deep, huge or odd)."""
    try:
        text = _SHORT_REPR.repr(value)
    except Exception:  # a value whose repr fails is still named, not crashed on
        text = f"<{type(value).__name__}>"
    return clip(escape_controls(text), limit)


def safe_line(text: str, limit: int = LINE_LIMIT) -> str:
    """``text`` made fit for one line on a terminal: whitespace runs as one space,
    control characters escaped, at most ``limit`` characters."""
    return clip(escape_controls(one_line(text)), limit)


def percent(p: float | None, digits: int = 1, certain: float = 0.0) -> str:
    """A share as a percentage that never rounds a possibility to 0% or a doubt to 100%.

    With ``digits`` decimals: a share below the smallest step shows as '<0.1%' (or '<1%'
    with no decimals) and one above the largest as '>99.9%'. Shares within ``certain``
    of 0 or 1 are shown as exactly '0%' or '100%' (floating-point crumbs are not
    doubts). None (no figure) is 'n/a'.
    """
    if p is None:
        return "n/a"
    step = 10.0**-digits
    if p <= certain:
        return f"{0:.{digits}f}%"
    if p >= 1.0 - certain:
        return f"{100:.{digits}f}%"
    if p * 100 < step:
        return f"<{step:.{digits}f}%"
    if p * 100 > 100 - step:
        return f">{100 - step:.{digits}f}%"
    return f"{p * 100:.{digits}f}%"


def runs(squares: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive numbers in sorted ``squares``: [(low, high), ...]."""
    found: list[tuple[int, int]] = []
    for square in squares:
        if found and found[-1][1] == square - 1:
            found[-1] = (found[-1][0], square)
        else:
            found.append((square, square))
    return found


def square_ranges(squares: Sequence[int]) -> str:
    """'squares 5-9, 14' from sorted squares (0 reads 'start')."""
    parts = []
    for low, high in runs(squares):
        label = "start" if low == 0 else str(low)
        parts.append(label if low == high else f"{label}-{high}")
    word = "square" if len(squares) == 1 else "squares"
    return f"{word} {', '.join(parts)}"


def turns_text(expected: float, digits: int = 2) -> str:
    """'38.45 turns'; 'infinite' when some games never finish; 'too large to compute'
    for ``nan`` (every game finishes, but the figure overflows)."""
    if math.isnan(expected):
        return "finite, but too large to compute"
    return f"{expected:.{digits}f} turns" if math.isfinite(expected) else "infinite"


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,30}")
"""A whole number as a person types it: ASCII digits only (``int()`` and ``str.isdigit``
also take '٦' and other scripts' digits, which board files refuse)."""


def parse_whole(text: str) -> int | None:
    """``text`` as a whole number (surrounding spaces allowed), or None when it is not
    one written in ASCII digits."""
    stripped = text.strip()
    if not WHOLE_NUMBER.fullmatch(stripped):
        return None
    return int(stripped)


DECIMAL = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})")
"""A decimal number as a person types it, in ASCII digits ('2.5', '.5', '40')."""


def parse_decimal(text: str) -> float | None:
    """``text`` as a number (surrounding spaces allowed), or None when it is not one
    written in ASCII digits with an optional decimal point."""
    stripped = text.strip()
    if not DECIMAL.fullmatch(stripped):
        return None
    return float(stripped)


def has_visible_char(text: str) -> bool:
    """Whether ``text`` shows anything: a name of only spaces, zero-width characters,
    combining marks or other format characters reads as blank."""
    return any(
        unicodedata.category(char)[0] in "LNPS" and unicodedata.category(char) != "Cf"
        for char in text
    )
