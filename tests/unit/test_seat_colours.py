"""One set of seat colours (issue 40): four colours a colour-blind player tells apart,
each seat's letter readable on its colour, and the same colours in the picture, on the
character board and in the players panel."""

from __future__ import annotations

import itertools
import math

from snl_tui.core.colours import SEAT_COLOURS, contrast, rgb, seat_colour, seat_css
from snl_tui.export.picture import TOKEN_COLOURS

SIMULATIONS = {
    # Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
    "full colour vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}  # fmt: skip
APART = 20.0
"""The least CIE76 difference between two seats as one vision sees them (2.3 is just
noticeable; 20 is told apart at a glance, a token's size)."""


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _lab(linear: list[float]) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    linear = [_linear(channel) for channel in rgb(colour)]
    simulated = [
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear, strict=True)))) for row in matrix
    ]
    return _lab(simulated)


def test_four_seats_told_apart_with_every_kind_of_colour_vision() -> None:
    assert len(SEAT_COLOURS) == 4
    for vision, matrix in SIMULATIONS.items():
        for one, two in itertools.combinations(SEAT_COLOURS, 2):
            difference = math.dist(seen(one.fill, matrix), seen(two.fill, matrix))
            assert difference >= APART, (vision, one.name, two.name, round(difference, 1))


def test_each_seats_letter_is_readable_on_its_colour() -> None:
    for colour in SEAT_COLOURS:
        assert contrast(colour.fill, colour.letter) >= 4.5, colour  # WCAG AA, normal text


def test_the_contrast_ratio_is_wcags() -> None:
    assert math.isclose(contrast("#000000", "#ffffff"), 21.0)
    assert math.isclose(contrast("#777777", "#777777"), 1.0)
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54  # WCAG's grey on white


def test_the_picture_and_the_app_use_the_one_set() -> None:
    assert tuple(colour.fill for colour in SEAT_COLOURS) == TOKEN_COLOURS
    css = seat_css()
    for seat, colour in enumerate(SEAT_COLOURS, start=1):
        assert f".board--token-{seat} {{ background: {colour.fill}; color: {colour.letter};" in css
    assert seat_colour(4) == seat_colour(0)


def test_in_sixteen_colours_each_seat_keeps_its_hue() -> None:
    """A terminal that says 16 colours gets the nearest ANSI colour (Rich's choice):
    blue stays blue, orange yellow, red red, teal cyan, all four different."""
    from rich.color import Color, ColorSystem

    nearest = [
        Color.parse(colour.fill).downgrade(ColorSystem.STANDARD).number % 8
        for colour in SEAT_COLOURS
    ]
    assert nearest == [4, 3, 1, 6]  # blue, yellow, red, cyan
