"""Share codes: a board as one short line to paste in a chat (SPEC 12).

Version 2, ``snl2-<data>`` (what ``board_code`` writes): the data is URL-safe base64
(no padding) of a small binary record: the rows and the columns, the rules that differ
from the defaults, the jumps packed as bit fields just wide enough for the board's
squares, the name (unless asked not to) and optionally the description (``with_text``),
and last a CRC-32 of all that, so a code cut short or mistyped is refused, not read as
another board. Classic's code is some 90 characters (its jumps and name); with its
description, some 560.

Version 1, ``snl1-<data>-<check>`` (what earlier snl wrote, still read): the board's JSON
document, zlib-compressed, in URL-safe base64, then its CRC-32 in hex.

Decoding checks the version, the characters, the check and the sizes; both versions are
turned into a board document (JSON text) that ``formats.load_board`` then checks as it
checks a file (every command that takes a BOARD takes a code). No Textual here.
"""

from __future__ import annotations

import re

from ..board import Board
from ..errors import BoardError
from .json_board import dump_document

PREFIX = "snl2-"
"""The version ``board_code`` writes."""
PREFIX_V1 = "snl1-"
"""The first version (a compressed JSON document), still read."""
CODE = re.compile(r"snl(\d+)-([A-Za-z0-9_-]+)-([0-9a-f]{8})")
CODE_V2 = re.compile(r"snl2-([A-Za-z0-9_-]+)")
HAS_TEXT = 1
HAS_RULES = 2
MAX_CODE_CHARS = 100_000
"""A code longer than this is refused before it is decoded."""
MAX_DOCUMENT_BYTES = 4 * 1024 * 1024
"""The most a code may unpack to (a hostile code cannot fill the memory)."""


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a share code (``snl<N>-...``), right or wrong."""
    return text.startswith("snl") and text[3:4].isdigit()


def board_code(board: Board, with_text: bool = False, *, with_name: bool = True) -> str:
    """The share code of ``board``: its size, rules and jumps, its name (unless
    ``with_name`` is False and ``with_text`` too) and with ``with_text`` its description.
    The name goes in the text field with an empty description, which every snl2 reader
    takes: a code opens with the name it was shared under."""
    import base64
    import json
    import zlib

    out = bytearray()
    rules = board.rules.non_default()
    named = (with_name and bool(board.name)) or with_text
    flags = (HAS_TEXT if named else 0) | (HAS_RULES if rules else 0)
    out += _varint(board.rows) + _varint(board.cols) + bytes([flags])
    if rules:
        out += _text_field(json.dumps(rules, separators=(",", ":"), sort_keys=True))
    jumps = sorted(board.jumps.items())
    out += _varint(len(jumps))
    out += _pack([square for jump in jumps for square in jump], board.goal.bit_length())
    if named:
        description = board.description if with_text else ""
        out += _text_field(board.name) + _text_field(description)
    out += zlib.crc32(out).to_bytes(4, "big")
    return PREFIX + base64.urlsafe_b64encode(bytes(out)).decode("ascii").rstrip("=")


def board_code_v1(board: Board) -> str:
    """The version 1 code of ``board`` (its whole document, compressed): kept to prove
    that old codes still open."""
    import base64
    import zlib

    document = dump_document(board).encode("utf-8")
    packed = zlib.compress(document, 9)
    data = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    return f"{PREFIX_V1}{data}-{zlib.crc32(packed):08x}"


def _pack(values: list[int], width: int) -> bytes:
    """``values`` as bit fields ``width`` bits each, big-endian, zero-padded to whole
    bytes. Through one binary string: linear in the values (shifting one growing integer
    field by field is quadratic: 18.7 s for 142k jumps)."""
    if not values:
        return b""
    field = f"0{width}b"
    text = "".join([format(value, field) for value in values])
    text += "0" * (-len(text) % 8)
    return int(text, 2).to_bytes(len(text) // 8, "big")


def _unpack(data: bytes, count: int, width: int) -> list[int]:
    """The first ``count`` fields of ``width`` bits in ``data`` (``_pack``'s inverse)."""
    if not count:
        return []
    text = format(int.from_bytes(data, "big"), f"0{len(data) * 8}b")
    return [int(text[at : at + width], 2) for at in range(0, count * width, width)]


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _text_field(text: str) -> bytes:
    raw = text.encode("utf-8")
    return _varint(len(raw)) + raw


class _Reader:
    """Reads a version 2 record; BoardError (one line) when it runs out or overflows."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def damaged(self) -> BoardError:
        return BoardError("damaged (it ends too soon): copy the whole line", source="share code")

    def varint(self) -> int:
        value = shift = 0
        for _ in range(5):
            if self.at >= len(self.data):
                raise self.damaged()
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value
        raise self.damaged()

    def take(self, count: int) -> bytes:
        if count > len(self.data) - self.at:
            raise self.damaged()
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def text(self) -> str:
        try:
            return self.take(self.varint()).decode("utf-8")
        except UnicodeDecodeError:
            raise BoardError("damaged (not text)", source="share code") from None


def _document_v2(data: str) -> str:
    import base64
    import json
    import zlib

    source = "share code"
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except ValueError:  # binascii.Error is one
        raise BoardError("damaged (not base64): copy the whole line", source=source) from None
    if len(raw) < 5 or zlib.crc32(raw[:-4]).to_bytes(4, "big") != raw[-4:]:
        raise BoardError("damaged (its check does not match): copy the whole line", source=source)
    reader = _Reader(raw[:-4])
    rows, cols = reader.varint(), reader.varint()
    flags = reader.take(1)[0]
    rules: object = {}
    if flags & HAS_RULES:
        try:
            rules = json.loads(reader.text())
        except ValueError:
            raise BoardError("damaged (its rules cannot be read)", source=source) from None
    count = reader.varint()
    goal = rows * cols
    width = goal.bit_length()
    if count > goal:
        raise BoardError("damaged (more jumps than squares)", source=source)
    size = (2 * width * count + 7) // 8
    squares = _unpack(reader.take(size), 2 * count, width)
    pairs = list(zip(squares[::2], squares[1::2], strict=True))
    document: dict[str, object] = {"name": "", "rows": rows, "cols": cols}
    if flags & HAS_TEXT:
        document["name"] = reader.text()
        description = reader.text()
        if description:
            document["description"] = description
    if reader.at != len(reader.data):
        raise BoardError("damaged (it has bytes to spare)", source=source)
    document["ladders"] = [[s, e] for s, e in pairs if e > s]
    document["snakes"] = [[s, e] for s, e in pairs if e <= s]
    if rules:
        document["rules"] = rules
    return json.dumps(document, ensure_ascii=False)


def code_document(code: str) -> str:
    """The board document (JSON text) a share code holds; BoardError (one line) for
    anything that is not a whole, undamaged code of a version this snl reads."""
    import base64
    import zlib

    code = code.strip()
    source = "share code"
    if len(code) > MAX_CODE_CHARS:
        raise BoardError("far too long to be a share code", source=source)
    found_v2 = CODE_V2.fullmatch(code)
    if found_v2 is not None:
        return _document_v2(found_v2.group(1))
    found = CODE.fullmatch(code)
    if found is None:
        raise BoardError(
            "not a share code (they look like snl2-AbC_dEf...: copy the whole line)",
            source=source,
        )
    if found.group(1) != "1":
        raise BoardError(
            f"made by a newer snl (version {found.group(1)}); this snl reads versions 1 and 2",
            source=source,
        )
    data, check = found.group(2), found.group(3)
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except ValueError:  # binascii.Error is one
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
