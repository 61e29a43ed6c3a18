"""Lines in and out: what the screen-reader mode writes and reads, and nothing else.

``Console.say`` writes one line and flushes it at once (through a pipe too, so a screen
reader or another program hears each event when it happens). Every line is made safe on
the way out: control characters escaped (no escape sequence ever reaches the terminal),
symbols that a screen reader spells out or a braille display shows as noise (box drawing,
braille, emoji, other pictographs) left out. ``Console.read`` returns one line typed by
the player, or None at the end of the input (Ctrl+D, or the end of a pipe).
"""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import TextIO

from ..core.text import escape_controls, one_line

SPOKEN_LIMIT = 2000
"""The longest line said: a longer one (a huge board's jump list) is cut with '...'."""
SILENT = ("So", "Cn", "Co")
"""Categories left out: symbols (pictures), unassigned and private-use characters."""
LEGACY_COMPUTING = "\U0001fb00"
"""Symbols for Legacy Computing (to U+1FBFF): block mosaics and segmented digits."""
SKIN_TONES = "\U0001f3fb"
"""The first of the five skin-tone modifiers (to U+1F3FF): read aloud alone, left out."""
INPUT_LIMIT = 1000
"""The longest command line read; the rest of a longer one is ignored."""


def plain_text(text: str) -> str:
    """``text`` as one plain line: whitespace runs as one space, controls escaped, no
    symbol characters (Unicode category So: box drawing, braille, emoji, dingbats; the
    legacy computing mosaics), no unassigned or private-use characters, and no skin
    tones, variation selectors or joiners that only dress emoji."""
    kept = []
    for char in one_line(text):
        category = unicodedata.category(char)
        if (
            category in SILENT
            or char in "\u200d\ufe0e\ufe0f"
            or SKIN_TONES <= char <= "\U0001f3ff"
            or LEGACY_COMPUTING <= char <= "\U0001fbff"
        ):
            continue
        if "\U0001f000" <= char <= "\U0001ffff":  # enclosed and pictographic supplements:
            # a compatibility form is said as what it stands for (U+1F100 is "0."), the rest
            # are pictures with nothing to say.
            char = unicodedata.normalize("NFKC", char)
            if char >= "\U0001f000":
                continue
        kept.append(char)
    line = escape_controls(one_line("".join(kept)))
    if len(line) > SPOKEN_LIMIT:
        line = line[: SPOKEN_LIMIT - 3] + "..."
    return line


def line_editor() -> bool:
    """Turn on the standard library's line editor (GNU readline, or libedit) for
    ``input()``: Left and Right, Home and End, Backspace, Up and Down through the lines
    typed before, as in a shell. Bracketed paste is turned off, so no mode escape is
    written around each line. False where there is no ``readline`` module."""
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return False
    if "libedit" not in (readline.__doc__ or ""):
        for setting in ("set enable-bracketed-paste off", "set enable-meta-key off"):
            with contextlib.suppress(Exception):  # an older readline without the setting
                readline.parse_and_bind(setting)
    return True


def keys_as_typed(fileno: int) -> Callable[[bool], None] | None:
    """Keep the terminal out of its line mode for the whole session, as the line editor
    has it while a line is typed, so that what is typed while the game is speaking
    waits for the editor as typed: a Ctrl+D then ends the input (in line mode the
    terminal keeps it as a NUL, which the editor ignores). Ctrl+C still interrupts.
    The terminal's modes come back at exit, and on SIGTERM (which then exits as
    interrupted).

    Outside the editor the terminal does not echo either: a key typed while the game
    speaks is shown once, by the editor, when it reads the line (echoed then too, it
    was said twice). Returns ``echo(on)``, which the reader turns on just before the
    editor starts (GNU readline echoes only on a terminal that echoes) and off after;
    None when ``fileno`` is no terminal."""
    import atexit
    import signal
    import termios

    try:
        saved = termios.tcgetattr(fileno)
        keys = termios.tcgetattr(fileno)
        keys[3] &= ~(termios.ICANON | termios.ECHO)
        keys[6][termios.VMIN], keys[6][termios.VTIME] = 1, 0
        termios.tcsetattr(fileno, termios.TCSADRAIN, keys)
    except (OSError, termios.error):
        return None

    def restore() -> None:
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(fileno, termios.TCSADRAIN, saved)

    def echo(on: bool) -> None:
        with contextlib.suppress(OSError, termios.error):
            modes = termios.tcgetattr(fileno)
            modes[3] = modes[3] | termios.ECHO if on else modes[3] & ~termios.ECHO
            termios.tcsetattr(fileno, termios.TCSANOW, modes)

    atexit.register(restore)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:

        def terminated(number: int, frame: object) -> None:
            raise SystemExit(128 + number)

        signal.signal(signal.SIGTERM, terminated)
    return echo


def typed_ahead(fileno: int) -> tuple[list[str], str]:
    """The whole lines typed before the line editor took the terminal (while snl
    started, in the terminal's line mode, which echoed them already): taken from the
    terminal here, so that the editor does not show them a second time; and the part
    of a line typed after them (echoed too), which the editor gets as if typed now."""
    import fcntl
    import termios

    try:
        waiting = int.from_bytes(fcntl.ioctl(fileno, termios.FIONREAD, b"\0\0\0\0"), "little")
    except OSError:
        return [], ""
    if waiting <= 0:
        return [], ""
    import os

    # Only up to the last line's end: a key typed after it is no line yet.
    data = os.read(fileno, min(waiting, INPUT_LIMIT * 4))
    text = data.decode("utf-8", "replace").replace("\r", "\n")
    whole, ended, rest = text.rpartition("\n")
    if rest:  # typed after the last Enter: the editor gets it as if typed now
        with contextlib.suppress(ImportError):
            import readline

            def put_back() -> None:
                readline.insert_text(rest)
                readline.set_pre_input_hook(None)

            readline.set_pre_input_hook(put_back)
    return (whole.split("\n") if ended else []), rest


_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?")


def strip_escapes(line: str) -> str:
    """``line`` without terminal escape sequences (an arrow key as ``ESC [ D``) nor other
    control characters: what was typed, never what a key sent."""
    line = _ESCAPE.sub("", line)
    return "".join(char for char in line if char == "\t" or unicodedata.category(char) != "Cc")


class Console:
    """One player's plain lines: ``say`` to ``out``, ``read`` from ``inp``."""

    def __init__(
        self,
        out: TextIO,
        inp: TextIO,
        *,
        edited: bool = False,
        echo: Callable[[bool], None] | None = None,
        ahead: list[str] | None = None,
    ) -> None:
        self.out = out
        self.inp = inp
        self.edited = edited
        """Lines are read with ``input()`` and the line editor (a terminal)."""
        self.echo = echo
        """Turns the terminal's echo on for the editor and off after (``keys_as_typed``)."""
        self.ahead = list(ahead or [])
        """Lines typed before the editor started, already shown: read first, as they are."""
        self.said: list[str] = []
        """Every line said, in order (the tests and the speech script read them)."""
        self.reading = False
        """The line editor is reading a line (``read`` is in ``input()``)."""
        self.last_read: str | None = None
        """The last line the editor returned (it stays in its buffer for a moment)."""

    @classmethod
    def standard(cls) -> Console:
        """Standard output and input; on a terminal, typed lines are edited with the
        line editor (``line_editor``); through a pipe, plain lines are read."""
        edited = sys.stdin.isatty() and sys.stdout.isatty() and line_editor()
        if not edited:
            return cls(sys.stdout, sys.stdin)
        echo = keys_as_typed(sys.stdin.fileno())
        ahead, part = typed_ahead(sys.stdin.fileno()) if echo is not None else ([], "")
        if part:  # its echo is on the line the first line said would be glued to
            sys.stdout.write("\n")
        return cls(sys.stdout, sys.stdin, edited=True, echo=echo, ahead=ahead)

    def say(self, text: str) -> None:
        """Write ``text`` as one safe line, flushed now. Nothing is said for ''."""
        line = plain_text(text)
        if not line:
            return
        self.said.append(line)
        typed = self.typing()
        try:
            if typed:  # said while a line is half typed: on a line of its own, then
                # the typed part again, where the editor goes on (no escape: plain text)
                self.out.write(f"\n{line}\n{typed}")
            else:
                self.out.write(line + "\n")
        except UnicodeEncodeError:  # an ASCII-only terminal or pipe: names stay readable
            encoding = getattr(self.out, "encoding", None) or "ascii"
            safe = line.encode(encoding, "backslashreplace").decode(encoding)
            self.out.write(safe + "\n")
        self.out.flush()

    def typing(self) -> str:
        """What is half typed in the line editor while another thread says a line (a
        room's move), or ''. The editor's buffer still holds the line it returned
        until it reads the next one: that one is not half typed."""
        if not (self.edited and self.reading):
            return ""
        try:
            import readline
        except ImportError:
            return ""
        buffer = readline.get_line_buffer()
        if buffer == self.last_read or not buffer.isprintable():
            return ""
        return buffer

    def read(self) -> str | None:
        """The next line typed (without its newline), or None at the end of the input."""
        if self.ahead:
            line = strip_escapes(self.ahead.pop(0)[:INPUT_LIMIT])
            if line.strip():
                with contextlib.suppress(ImportError):
                    import readline

                    readline.add_history(line)  # Up brings it back, as any line typed
            return line
        if self.edited:
            self.reading = True
            if self.echo is not None:
                self.echo(True)
            try:
                line = input()
            except EOFError:
                return None
            finally:
                self.reading = False
                if self.echo is not None:
                    self.echo(False)
            self.last_read = line
            # A key the editor does not bind may still slip an escape into the line:
            # a command never holds one.
            return strip_escapes(line[:INPUT_LIMIT])
        with contextlib.suppress(ValueError):  # input closed under us: treat as its end
            line = self.inp.readline(INPUT_LIMIT)
            if not line:
                return None
            rest = line
            while len(rest) == INPUT_LIMIT and not rest.endswith("\n"):
                rest = self.inp.readline(INPUT_LIMIT)  # the rest of a huge line: dropped
            return strip_escapes(line.rstrip("\r\n"))
        return None


__all__ = ["INPUT_LIMIT", "Console", "line_editor", "plain_text", "strip_escapes"]
