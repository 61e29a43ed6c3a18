"""The board picture's Sixel encoder (``export/sixel.py``) and the terminal's answers
(``widgets/graphics_query.py``): a picture decodes back to its own pixels, colours are
all defined before the first pixel, and the protocol chosen follows the answers."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from snl_tui.export.sixel import START, encode, percent
from snl_tui.widgets.graphics_query import choose, parse_answers, terminal_version

_COMMAND = re.compile(r"#(\d+)(;2;\d+;\d+;\d+)?|!(\d+)(.)|([?-~])|(\$)|(-)")


def decode(sixel: str, width: int, height: int) -> tuple[np.ndarray, dict[int, tuple[int, ...]]]:
    """A minimal Sixel reader: each pixel's register (-1: never painted), and the
    registers' colours (in Sixel's percent). Fails on a colour used before defined."""
    assert sixel.startswith(START + f"{width};{height}") and sixel.endswith("\x1b\\")
    body = sixel[len(START + f"{width};{height}") : -2]
    pixels = np.full((height + 6, width), -1)
    colours: dict[int, tuple[int, ...]] = {}
    register, x, band = 0, 0, 0
    position = 0
    while position < len(body):
        match = _COMMAND.match(body, position)
        assert match is not None, body[position : position + 20]
        position = match.end()
        if match.group(1) is not None:
            register = int(match.group(1))
            if match.group(2):
                colours[register] = tuple(int(v) for v in match.group(2)[3:].split(";"))
            assert register in colours, "a colour used before it is defined"
            continue
        if match.group(6):
            x = 0
            continue
        if match.group(7):
            x, band = 0, band + 1
            continue
        if match.group(3):
            count, char = int(match.group(3)), match.group(4)
        else:
            count, char = 1, match.group(5)
        bits = ord(char) - 63
        for _ in range(count):
            for row in range(6):
                if bits >> row & 1:
                    pixels[band * 6 + row, x] = register
            x += 1
    return pixels[:height], colours


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 20), st.integers(1, 30)), elements=st.integers(0, 5)),
)
def test_a_picture_decodes_back_to_its_own_pixels(indices: np.ndarray) -> None:
    palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30), (255, 255, 255), (0, 0, 0)]
    height, width = indices.shape
    registers, colours = decode(encode(indices, palette), width, height)
    assert (registers >= 0).all()  # every pixel painted
    wanted = np.array([tuple(percent(c) for c in palette[i]) for i in indices.ravel()])
    got = np.array([colours[r] for r in registers.ravel()])
    assert (wanted == got).all()


def test_long_runs_are_compressed() -> None:
    flat = np.zeros((6, 200), dtype=np.uint8)
    sixel = encode(flat, [(255, 255, 255)])
    assert "!200~" in sixel and len(sixel) < 60


def test_the_protocol_follows_the_terminals_answers() -> None:
    xterm = b"\x1b[6;20;10t\x1b[?63;1;2;4;6;9;15;16;22;28c"
    numbers, kitty, cell = parse_answers(xterm)
    assert choose(numbers, kitty) == "sixel" and cell == (10, 20)
    kitty_term = b"\x1b_Gi=31;OK\x1b\\\x1b[6;18;9t\x1b[?62;c"
    numbers, kitty, cell = parse_answers(kitty_term)
    assert choose(numbers, kitty) == "kitty" and cell == (9, 18)
    both = b"\x1b_Gi=31;OK\x1b\\\x1b[?65;4;1c"  # WezTerm, Konsole: Sixel, not placeholders
    assert choose(*parse_answers(both)[:2]) == "sixel"
    plain = b"\x1b[?1;2c"
    assert choose(*parse_answers(plain)[:2]) is None
    refused = b"\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\\x1b[?62c"
    assert choose(*parse_answers(refused)[:2]) is None


def test_kitty_is_told_by_its_version_and_an_old_one_gets_the_character_board() -> None:
    debian = b"\x1b_Gi=31;OK\x1b\\\x1bP>|kitty(0.26.5)\x1b\\\x1b[?62;c"
    numbers, kitty, _ = parse_answers(debian)
    assert terminal_version(debian) == "kitty(0.26.5)"
    assert choose(numbers, kitty, terminal_version(debian)) == "kitty"  # placed directly
    assert choose(numbers, kitty, "kitty(0.19.3)") is None  # cannot place beneath text
    assert choose(numbers, kitty, "ghostty 1.1.3") == "kitty"
    assert terminal_version(b"\x1bP>|\x1b]0;owned\x07\x1b\\") == ""  # never an escape


def test_xterm_and_mlterm_are_drawn_in_256_colours_unless_told_otherwise() -> None:
    """Debian's xterm says TERM=xterm, mlterm TERM=mlterm: 8 colours by their names, so
    Textual drew 16 and the learn screen's shading key was one grey in mlterm. Each is
    known by the variable only it sets; COLORTERM, NO_COLOR or the user's own
    TEXTUAL_COLOR_SYSTEM are left to say."""
    from snl_tui.widgets.graphics_query import terminal_colours

    assert terminal_colours({"TERM": "mlterm", "MLTERM": "3.9.0"}) == "256"
    assert terminal_colours({"TERM": "xterm", "XTERM_VERSION": "XTerm(379)"}) == "256"
    assert terminal_colours({"TERM": "xterm"}) is None  # some other terminal calling itself xterm
    assert terminal_colours({"TERM": "screen", "XTERM_VERSION": "XTerm(379)"}) is None  # tmux
    assert terminal_colours({"TERM": "xterm-kitty", "COLORTERM": "truecolor"}) is None
    told = {"TERM": "mlterm", "MLTERM": "3.9.0"}
    assert terminal_colours(told | {"COLORTERM": "truecolor"}) is None
    assert terminal_colours(told | {"NO_COLOR": "1"}) is None
    assert terminal_colours(told | {"TEXTUAL_COLOR_SYSTEM": "standard"}) is None
