"""JSON board files: a LeetCode 909 matrix (a list of rows) or a board document (an
object with the TOML document's keys); written as either (``matrix`` or ``json``)."""

from __future__ import annotations

from typing import Any

from ..board import Board
from ..errors import BoardError
from ..rules import Rules
from ..text import quote
from .common import (
    NotThisFormat,
    Parsed,
    checked_int,
    document,
    json_type,
    parse_document,
)

NAME = "json"
SUFFIX = ".json"
WRITES: tuple[str, ...] = ("matrix", "json")


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise BoardError(f"duplicate key {quote(key)}")
        result[key] = value
    return result


def _json_int(token: str) -> int:
    # Called by the JSON parser for every integer: a huge one is refused before int()
    # (which raises past 4,300 digits, and is slow well before that).
    return checked_int(token, None, "a number")


def parse(text: str) -> Parsed:
    # The per-integer hook is a Python call per cell (more than half the load time of
    # a 1000 x 1000 matrix). A matrix is parsed without it; a number far too large
    # (more than MAX_DIGITS digits) is outside every board, so the board refuses such a
    # matrix, and only then is the text parsed again with the hook (``Parsed.careful``),
    # which refuses that number exactly as before. A document, anything unusual or a
    # number past int()'s own limit goes to the careful parse at once.
    import json

    data: Any = None
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates)
    except (ValueError, RecursionError):  # JSONDecodeError too: the careful parse says
        data = None
    if isinstance(data, list):
        return Parsed(0, 0, [], Rules(), matrix=data, careful=lambda: _careful(text))
    return _careful(text)


def _careful(text: str) -> Parsed:
    import json

    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates, parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise NotThisFormat(
            BoardError(
                f"malformed JSON: {error.msg}", where=f"line {error.lineno}, column {error.colno}"
            )
        ) from None
    except RecursionError:
        raise NotThisFormat(BoardError("malformed JSON: nested too deeply")) from None
    return _parsed(data)


def _parsed(data: Any) -> Parsed:
    if isinstance(data, list):
        return Parsed(0, 0, [], Rules(), matrix=data)
    if isinstance(data, dict):
        return parse_document(data)
    raise BoardError(
        "a JSON board is a list of rows (LeetCode matrix) or an object (board document), "
        f"not {json_type(data)}"
    )


def lost_in_matrix(board: Board) -> dict[str, Any]:
    """The rule options a LeetCode matrix cannot hold (empty for default rules)."""
    return board.rules.non_default()


def dump_matrix(board: Board) -> str:
    import json

    rows = ",\n".join("  " + json.dumps(row) for row in board.to_matrix())
    return f"[\n{rows}\n]\n"


def dump_document(board: Board) -> str:
    import json

    data = document(board)
    # One pair per item but several pairs per line reads better than json's indent=2.
    lines = ["{"]
    items = list(data.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key in ("ladders", "snakes"):
            lines.append(f"  {json.dumps(key)}: {_pair_list(value, '  ')}{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _pair_list(pairs: list[list[int]], indent: str, per_line: int = 8) -> str:
    import json

    if not pairs:
        return "[]"
    chunks = [
        ", ".join(json.dumps(pair) for pair in pairs[i : i + per_line])
        for i in range(0, len(pairs), per_line)
    ]
    inner = f",\n{indent}  ".join(chunks)
    return f"[\n{indent}  {inner}\n{indent}]"


def dump(board: Board, fmt: str) -> str:
    """The board as a ``matrix`` (squares and jumps only) or a ``json`` document."""
    return dump_matrix(board) if fmt == "matrix" else dump_document(board)
