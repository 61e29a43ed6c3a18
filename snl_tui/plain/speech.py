"""Printed text made to be heard: arrows, glyphs, sizes, ranges and dates said in words.

The printing commands (``snl solve``, ``analyze``, ``check``, ``games``, ``stats``) write
their reports for the eye: ``ladder 1->38`` (heard as "one hundred thirty-eight"),
``38 -> 39``, ``10x10``, ``1..6``, histogram bars of block characters, aligned columns.
``spoken`` rewrites one such line for a screen reader without changing what it says, so
the reports keep one source (their own modules) and plain mode only changes how they are
read. ``date_words`` says a moment as a date ("28 November 2026 at 21:50").
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TextIO

from .console import plain_text

_JUMP = re.compile(r"\b(ladder|snake)\s+(\d+)\s*->\s*(\d+)")
"""'ladder 1->38', 'the snake 16 -> 6'."""
_CHAIN = re.compile(r"\b\d+(?:\s*->\s*\d+){2,}")
"""'1 -> 38 -> 39 -> 45': a route or a cycle."""
_PAIR = re.compile(r"(?<![\w.])(-?[\w.]+%?)\s*->\s*(-?[\w.]+%?)")
"""'38 -> 39', 'start -> 1', '39.2 -> 35.1': a change from one thing to another."""
_ROLLED = re.compile(r"\s*-\((\d+)\)->\s*")
"""'1 -(1)-> 2 -(6)-> 8': a route with the die of each move."""
_RANGE = re.compile(r"\b(\d+)\.\.(\d+)\b")
_DASH = re.compile(r"(?<![\d-])(?<!\d\.)(\d+)-(\d+)(?![\d-])(?!\.\d)")
"""'2-15': a jump or a range written with a hyphen (not a date, not a minus)."""
_SIZE = re.compile(r"(?<![\w-])(\d+)x(\d+)\b")
"""'10x10' (not inside a name such as lld-6x6)."""
_ARROW = re.compile(r"\s*-+>\s*")
"""Any other '->' (to a file name: '-> board.toml')."""
_LESS = re.compile(r"(?<![\w)\-])<\s?(?=\d)")
_MORE = re.compile(r"(?<![\w)\-])>\s?(?=\d)")
_COLUMNS = re.compile(r"\s{2,}")
_HISTOGRAM = re.compile(
    r"^\s*(?P<low>\d+)(?:-(?P<high>\d+))?\s+[\u2580-\u259f ]*?\s*(?P<share>[<>]?[\d.]+%)\s*$"
)
_TAIL = re.compile(r"^\s*(?P<label>later|never)\s+(?P<share>[<>]?[\d.]+%)\s*$")

GLYPHS = {
    "\u2192": " to ",  # →
    "\u2190": " from ",  # ←
    "\u2191": " up ",  # ↑
    "\u2193": " down ",  # ↓
    "\u25b2": " up ",  # ▲
    "\u25bc": " down ",  # ▼
    "\u00b7": ";",  # middle dot between clauses
    "\u2026": "...",  # …
    "\u00d7": " times ",  # the multiplication sign
    "\u2264": " at most ",  # ≤
    "\u2265": " at least ",  # ≥
    "\u2248": " about ",  # ≈
    "\u00b1": " plus or minus ",  # ±
    "\u2212": "-",  # minus sign
    "\u2013": " to ",  # en dash in ranges
    "\u2014": ", ",  # em dash
}


ABBREVIATIONS = (
    (re.compile(r"\bstd dev(?:iation)?\b"), "standard deviation"),
    (re.compile(r"\b(\d+)(st|nd|rd|th) pct\b"), r"\1\2 percentile"),
)
"""Short forms for the eye that a speech synthesizer spells out ('S T D')."""


def _jump(match: re.Match[str]) -> str:
    kind, start, end = match[1], match[2], match[3]
    return f"{kind} from {start} {'up' if kind == 'ladder' else 'down'} to {end}"


def _chain(match: re.Match[str]) -> str:
    squares = re.split(r"\s*->\s*", match[0])
    return ", ".join(squares[:-1]) + " and " + squares[-1]


def _pair(match: re.Match[str]) -> str:
    return f"from {match[1]} to {match[2]}"


def spoken(line: str) -> str:
    """One printed line as it should be heard (see the module's docstring); no block,
    box-drawing or braille character survives, nor any control character."""
    histogram = _HISTOGRAM.match(line)
    if histogram is not None:
        low, high, share = histogram["low"], histogram["high"], histogram["share"]
        turns = f"turn {low}" if high is None else f"turns {low} to {high}"
        line = f"{turns}: {share} of games"
    tail = _TAIL.match(line)
    if tail is not None:
        line = f"{tail['label']}: {tail['share']} of games"
    for glyph, words in GLYPHS.items():
        line = line.replace(glyph, words)
    for short, words in ABBREVIATIONS:
        line = short.sub(words, line)
    line = _ROLLED.sub(r", a \1 to ", line)
    line = _JUMP.sub(_jump, line)
    line = _CHAIN.sub(_chain, line)
    line = _PAIR.sub(_pair, line)
    line = _ARROW.sub(" to ", line)
    line = _RANGE.sub(r"\1 to \2", line)
    line = _DASH.sub(r"\1 to \2", line)
    line = _SIZE.sub(r"\1 by \2", line)
    line = _LESS.sub("under ", line)
    line = _MORE.sub("over ", line)
    # Block elements (bars), box drawing and braille: pictures, never words.
    line = re.sub(r"[\u2500-\u259f\u2800-\u28ff]", " ", line)
    stripped = line.strip()
    if _COLUMNS.search(stripped):  # aligned columns: 'label    value    value'
        first, *rest = _COLUMNS.split(stripped)
        colon = "" if first.endswith(":") else ":"
        stripped = f"{first}{colon} {', '.join(rest)}" if rest else first
    stripped = stripped.replace(", (", " (")
    return plain_text(stripped)


class SpokenOut:
    """A text stream that says each whole line written to it through ``spoken`` (blank
    lines left out) on ``out``: a printing command's report, unchanged, heard in words."""

    spoken = True
    """A report may tell (``getattr(out, "spoken", False)``) and write words for a
    drawing."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.pending = ""

    def write(self, text: str) -> int:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            said = spoken(line)
            if said:
                self.out.write(said + "\n")
        return len(text)

    def flush(self) -> None:
        if self.pending:
            said, self.pending = spoken(self.pending), ""
            if said:
                self.out.write(said + "\n")
        self.out.flush()

    def isatty(self) -> bool:
        return False


def spoken_lines(text: str) -> list[str]:
    """Every line of a printed report, spoken; empty lines are left out."""
    lines = (spoken(line) for line in text.splitlines())
    return [line for line in lines if line]


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def date_words(moment: datetime) -> str:
    """'28 November 2026 at 21:50', in the local time zone."""
    local = moment.astimezone()
    return f"{local.day} {MONTHS[local.month - 1]} {local.year} at {local:%H:%M}"


__all__ = ["SpokenOut", "date_words", "spoken", "spoken_lines"]
