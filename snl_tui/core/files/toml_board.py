"""TOML board files: the board document, the format for hand editing. Read with the
standard ``tomllib``; written with ``tomlkit`` (one ``[from, to]`` pair per line, the
rules in a ``[rules]`` table), which can also keep a designer's comments. ``tomlkit``
loads only to write: reading a board (every game's first frame) does without it."""

from __future__ import annotations

import re
import tomllib

from ..board import Board
from ..errors import BoardError
from .common import RULE_ORDER, NotThisFormat, Parsed, document, parse_document

NAME = "toml"
SUFFIX = ".toml"
WRITES: tuple[str, ...] = ("toml",)


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def parse(text: str) -> Parsed:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = None
        found = _TOML_POSITION.search(message)
        if found:
            where = f"line {found.group(1)}, column {found.group(2)}"
            message = message[: found.start()]
        if message.endswith(" (at end of document)"):
            message, where = message.removesuffix(" (at end of document)"), "end of file"
        raise NotThisFormat(BoardError(f"malformed TOML: {message}", where=where)) from None
    except RecursionError:
        raise NotThisFormat(BoardError("malformed TOML: nested too deeply")) from None
    except ValueError:
        # tomllib converts integers itself: one of over 4,300 digits raises ValueError.
        raise BoardError("a number in the file is far too large") from None
    return parse_document(data)


def dump(board: Board, fmt: str = "toml") -> str:
    """The board document as TOML (``fmt`` is always ``toml``).

    The scalars and the rules table go through tomlkit (its quoting and escapes); the
    ``[from, to]`` pairs are written here, one per line as tomlkit writes a multi-line
    array: tomlkit's ``Array.extend`` takes quadratic time (100,000 jumps: minutes)."""
    import tomlkit  # 5-7 ms to import: only here

    data = document(board)
    head = tomlkit.document()
    for key, value in data.items():
        if key not in ("rules", "ladders", "snakes"):
            head[key] = value
    text = tomlkit.dumps(head)
    for key in ("ladders", "snakes"):
        text += _pairs(key, data[key])
    rules = data.get("rules")
    if rules:
        table = tomlkit.table()
        for key in RULE_ORDER:
            if key in rules:
                table[key] = rules[key]
        tail = tomlkit.document()
        tail["rules"] = table
        text += "\n" + tomlkit.dumps(tail)
    return text


def _pairs(key: str, pairs: list[list[int]]) -> str:
    """``key = [...]``: one ``[from, to]`` pair a line (``[]`` when there are none)."""
    if not pairs:
        return f"{key} = []\n"
    lines = "".join(f"    [{start}, {end}],\n" for start, end in pairs)
    return f"{key} = [\n{lines}]\n"
