"""Which picture protocol the terminal speaks, and its cell size in pixels: asked once,
before Textual starts (afterwards Textual reads every answer from the terminal).

One round trip: Kitty's graphics query, the cell-size report (``CSI 16 t``), the
terminal's name and version (XTVERSION, ``CSI > 0 q``: kitty answers ``DCS >|kitty(0.26.5)
ST``), then Device Attributes (``CSI c``), which every terminal answers, and answers last,
so the others are known to be unanswered once it arrives: no waiting for a timeout.
Sixel is attribute 4 of the answer. No image library is loaded for this (the first frame does
not wait for Pillow or NumPy).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Mapping
from typing import Literal

Protocol = Literal["sixel", "kitty"]
DEFAULT_CELL = (10, 20)
"""A cell's pixels when the terminal does not say (a VT340's)."""
ANSWER_TIMEOUT = 1.0
"""Seconds to wait for Device Attributes' answer. A local terminal answers in a few ms
and the wait ends with its answer; over ssh across the world, or on a loaded machine, it
can take a few hundred: a shorter wait lost the picture there (the answers then came in
as keys)."""
_ATTRIBUTES = re.compile(rb"\x1b\[\?([\d;]*)c")
_CELL = re.compile(rb"\x1b\[6;(\d+);(\d+)t")
_KITTY_OK = re.compile(rb"\x1b_G[^\x1b]*;OK\x1b\\")
_VERSION = re.compile(rb"\x1bP>\|([\x20-\x7e]{0,80})\x1b\\")
_KITTY_VERSION = re.compile(r"kitty\((\d+)\.(\d+)")
KITTY_PLACES_BELOW = (0, 20)
"""The first kitty that draws a picture beneath the cells with a background of their own
(``export.kitty``): an older one gets the character board."""
KITTY_QUERY = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"
"""Kitty's graphics query: a terminal that speaks the protocol answers ``..;OK``; others
ignore it."""


class Answers:
    """What the terminal said (filled by ``ask_terminal``)."""

    cell: tuple[int, int] = DEFAULT_CELL
    asked = False
    terminal = ""
    """The terminal's XTVERSION answer (``kitty(0.26.5)``, ``XTerm(379)``), if any."""


def parse_answers(data: bytes) -> tuple[set[str], bool, tuple[int, int] | None]:
    """(Device Attributes' numbers, Kitty answered OK, cell (w, h) or None) read off the
    terminal's answers."""
    attributes = _ATTRIBUTES.search(data)
    numbers = set(attributes.group(1).decode().split(";")) if attributes else set()
    cell = _CELL.search(data)
    size = (int(cell.group(2)), int(cell.group(1))) if cell else None
    return numbers, bool(_KITTY_OK.search(data)), size


def terminal_version(data: bytes) -> str:
    """The terminal's XTVERSION answer in ``data`` ('' when it gave none)."""
    found = _VERSION.search(data)
    return found.group(1).decode("ascii") if found else ""


def choose(numbers: set[str], kitty: bool, terminal: str = "") -> Protocol | None:
    """Sixel where the terminal says so (xterm, mlterm, foot, WezTerm, Konsole, ...
    some of which speak Kitty's protocol too), else Kitty's protocol where it answered
    (kitty, Ghostty) and can place a picture beneath the text, else none: the
    character board, never a picture the terminal draws wrong."""
    if "4" in numbers:
        return "sixel"
    if not kitty:
        return None
    version = _KITTY_VERSION.match(terminal)
    if version and (int(version.group(1)), int(version.group(2))) < KITTY_PLACES_BELOW:
        return None
    return "kitty"


def _window_cell() -> tuple[int, int] | None:
    """The cell size from the terminal's window size in pixels (where it fills it in)."""
    try:
        import fcntl
        import struct
        import termios

        packed = fcntl.ioctl(sys.__stdout__.fileno(), termios.TIOCGWINSZ, b"\0" * 8)  # type: ignore[union-attr]
        rows, columns, width, height = struct.unpack("HHHH", packed)
    except (OSError, ImportError, AttributeError, ValueError):
        return None
    if rows and columns and width and height:
        return width // columns, height // rows
    return None


def ask_terminal() -> tuple[set[str], bool, tuple[int, int] | None]:
    """Ask the terminal (stdin and stdout must be it): see ``parse_answers``."""
    import termios

    stdin = sys.__stdin__.fileno()  # type: ignore[union-attr]
    saved = termios.tcgetattr(stdin)
    quiet = list(saved)
    # No flow control while asking: a ctrl+s typed before snl started (the terminal's
    # XOFF) would stop our output and the query's write would wait for ever; turning
    # IXON off starts the output again, as Textual's raw mode does.
    quiet[0] &= ~termios.IXON
    quiet[3] &= ~(termios.ICANON | termios.ECHO)
    quiet[6] = list(saved[6])
    quiet[6][termios.VMIN], quiet[6][termios.VTIME] = 0, 0
    data = b""
    try:
        termios.tcsetattr(stdin, termios.TCSANOW, quiet)
        out = sys.__stdout__
        assert out is not None
        out.write(KITTY_QUERY + "\x1b[16t\x1b[>0q\x1b[c")
        out.flush()
        import select

        deadline = time.monotonic() + ANSWER_TIMEOUT
        while not _ATTRIBUTES.search(data):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stdin], [], [], left)[0]:
                break
            chunk = os.read(stdin, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        termios.tcsetattr(stdin, termios.TCSANOW, saved)
    Answers.terminal = terminal_version(data)
    return parse_answers(data)


def detect_graphics(choice: str) -> Protocol | None:
    """The picture protocol to use for ``--graphics choice`` ('auto', 'pixels' or
    'text'), asked of the terminal now (before Textual starts): None for text.
    'pixels' draws Sixel even when the terminal does not say it can (tmux built with
    sixel, which answers for the terminal)."""
    if choice == "text" or not (sys.__stdout__ and sys.__stdout__.isatty()):
        return None
    if sys.__stdin__ is None or not sys.__stdin__.isatty():
        return None
    try:
        numbers, kitty, cell = ask_terminal()
    except Exception:  # no termios (Windows), or a terminal that answers garbage
        numbers, kitty, cell = _library_answers()
    Answers.asked = True
    Answers.cell = _window_cell() or cell or _environment_cell() or DEFAULT_CELL
    chosen = choose(numbers, kitty, Answers.terminal)
    if chosen is None and choice == "pixels":
        return "sixel"
    return chosen


def _library_answers() -> tuple[set[str], bool, tuple[int, int] | None]:
    """Where the terminal cannot be asked as above (Windows' console): textual-image's
    public choice of renderable, which asks it its own way."""
    try:
        from textual_image import renderable
    except Exception:
        return set(), False, None
    if renderable.Image is renderable.SixelImage:
        return {"4"}, False, None
    return set(), renderable.Image is renderable.TGPImage, None


def _environment_cell() -> tuple[int, int] | None:
    """The cell size textual-serve's web terminal gives (``TEXTUAL_CELL_WIDTH``...)."""
    width = os.environ.get("TEXTUAL_CELL_WIDTH", "")
    height = os.environ.get("TEXTUAL_CELL_HEIGHT", "")
    if width.isdigit() and height.isdigit() and int(width) and int(height):
        return int(width), int(height)
    return None


RICHER_THAN_TERM = {"xterm": "XTERM_VERSION", "mlterm": "MLTERM"}
"""Terminals that set ``TERM`` to a name of 8 colours but show 256 (and more), each with
the variable only it sets: xterm (Debian's sets ``TERM=xterm``) and mlterm
(``TERM=mlterm``). Told nothing, Rich and Textual draw them in 16 colours, where the
theme's blended shades (the learn screen's key, the board's marks) all come out the same
grey."""


def terminal_colours(environ: Mapping[str, str]) -> str | None:
    """The colour system to tell Textual (``TEXTUAL_COLOR_SYSTEM``) for the terminal
    ``environ`` describes: '256' in xterm and mlterm when nothing else says (no
    ``COLORTERM``, no ``NO_COLOR``, no choice of the user's); None: Textual's own."""
    if any(environ.get(name) for name in ("TEXTUAL_COLOR_SYSTEM", "COLORTERM", "NO_COLOR")):
        return None
    own = RICHER_THAN_TERM.get(environ.get("TERM", ""))
    return "256" if own and environ.get(own) else None


def use_terminal_colours() -> None:
    """Before Textual is imported (it reads ``TEXTUAL_COLOR_SYSTEM`` then): the colours
    the terminal has (``terminal_colours``), when Textual's output (stderr) is that
    terminal."""
    if not (sys.__stderr__ and sys.__stderr__.isatty()):
        return  # a pipe, a test's capture: nothing of the terminal's to go by
    colours = terminal_colours(os.environ)
    if colours is not None:
        os.environ["TEXTUAL_COLOR_SYSTEM"] = colours


def cell_pixels() -> tuple[int, int]:
    """A terminal cell's (width, height) in pixels, as the terminal told."""
    return Answers.cell
