"""Share codes: a whole board (squares, jumps, rules, name, description) as one line to
paste in a chat, ``snl1-<data>-<check>`` (SPEC 12).

The data is the board's JSON document, compressed (zlib) and written in URL-safe base64
without padding; the check is its CRC-32 in hex (8 digits), so a code cut short or
mistyped is refused, not read as another board; ``snl1`` is the version, so a later format
can be told apart. A code is about as long as the board's file compressed (classic: some
540 characters, most of them its description). Decoding checks the version, the
characters, the check and the size once unpacked; ``formats.load_board`` then checks the
board itself, as it checks a file (every command that takes a BOARD takes a code). No
Textual here.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from ..board import Board
from ..errors import BoardError
from .json_board import dump_document

PREFIX = "snl1-"
"""Version 1 of the code (the only one so far)."""
CODE = re.compile(r"snl(\d+)-([A-Za-z0-9_-]+)-([0-9a-f]{8})")
MAX_CODE_CHARS = 100_000
"""A code longer than this is refused before it is decoded."""
MAX_DOCUMENT_BYTES = 4 * 1024 * 1024
"""The most a code may unpack to (a hostile code cannot fill the memory)."""


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a share code (``snl<N>-...``), right or wrong."""
    return text.startswith("snl") and text[3:4].isdigit()


def board_code(board: Board) -> str:
    """The share code of ``board``."""
    document = dump_document(board).encode("utf-8")
    packed = zlib.compress(document, 9)
    data = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    return f"{PREFIX}{data}-{zlib.crc32(packed):08x}"


def code_document(code: str) -> str:
    """The board document (JSON text) a share code holds; BoardError (one line) for
    anything that is not a whole, undamaged code of a version this snl reads."""
    code = code.strip()
    source = "share code"
    if len(code) > MAX_CODE_CHARS:
        raise BoardError("far too long to be a share code", source=source)
    found = CODE.fullmatch(code)
    if found is None:
        raise BoardError(
            "not a share code (they look like snl1-...-1a2b3c4d: copy the whole line)",
            source=source,
        )
    if found.group(1) != "1":
        raise BoardError(
            f"made by a newer snl (version {found.group(1)}); this snl reads version 1",
            source=source,
        )
    data, check = found.group(2), found.group(3)
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise BoardError("damaged (not base64): copy the whole line", source=source) from None
    if f"{zlib.crc32(packed):08x}" != check:
        raise BoardError("damaged (its check does not match): copy the whole line", source=source)
    unpacker = zlib.decompressobj()
    try:
        document = unpacker.decompress(packed, MAX_DOCUMENT_BYTES)
    except zlib.error:
        raise BoardError("damaged (cannot be unpacked)", source=source) from None
    if unpacker.unconsumed_tail or not unpacker.eof:
        raise BoardError("too large once unpacked, or cut short", source=source)
    try:
        return document.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardError("damaged (not text once unpacked)", source=source) from None
