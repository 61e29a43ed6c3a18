"""Each seat's one colour, everywhere: the picture's token, the character board's token,
the players panel (and so the browser, which shows the same screen).

Four colours a colour-blind player tells apart (checked under simulated protanopia,
deuteranopia and tritanopia by ``tests/unit/test_seat_colours.py``), by hue and by
lightness both, each with its letter in black or white at a contrast of at least
WCAG AA's 4.5:1. A fifth seat takes the first colour again (its letter tells it apart).
No Textual here: the export draws with these, the app's styles are made from them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatColour:
    name: str
    fill: str
    """The token's colour (``#rrggbb``)."""
    letter: str
    """The colour of the seat's letter on it."""


SEAT_COLOURS = (
    SeatColour("blue", "#1d4ed8", "#ffffff"),
    SeatColour("orange", "#e69f00", "#000000"),
    SeatColour("red", "#b2182b", "#ffffff"),
    SeatColour("teal", "#2a9d8f", "#000000"),
)
"""In a terminal of 16 colours (one that says only ``TERM=xterm``) they come out bright blue,
yellow, red and cyan: the same hues as the picture's (``tests/unit/test_seat_colours``)."""


def seat_colour(seat: int) -> SeatColour:
    """Seat ``seat``'s (0-based) colour."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as (r, g, b) in 0-255."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(channel) for channel in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio between two colours (1 to 21)."""
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def seat_css() -> str:
    """The app's styles for the seats' tokens (``board--token-1`` ..), made from
    ``SEAT_COLOURS``: the same whatever the theme, as on the picture."""
    return "\n".join(
        f".board--token-{seat} {{ background: {colour.fill}; color: {colour.letter}; "
        "text-style: bold; }"
        for seat, colour in enumerate(SEAT_COLOURS, start=1)
    )
