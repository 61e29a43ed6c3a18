"""What every board file format shares: what a file says before the board is built
(``Parsed``), the board document (a TOML table or a JSON object) read and written, and the
checks on numbers from a file. No format is defined here: each is one module beside it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Board, JumpSpec
from ..errors import BoardError, RulesError
from ..matrix import check_dimensions
from ..rules import OPTIONS, RULE_NAMES, RULE_OPTIONS, Rules
from ..text import quote

DOCUMENT_KEYS = ("name", "description", "rows", "cols", "size", "ladders", "snakes", "rules")
RULE_ORDER = RULE_NAMES  # the order files write the rules in: the fields' order
MAX_DIGITS = 20
"""The longest number read from a file: every square number fits in 7 digits, and
Python refuses to convert integers of over 4,300 digits anyway."""
INT = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: str.isdigit() takes '٣' too


@dataclass(frozen=True)
class Parsed:
    """What a file says, before the rules are settled and the board is validated."""

    rows: int
    cols: int
    jumps: list[JumpSpec]
    rules: Rules
    name: str | None = None
    description: str = ""
    matrix: list[Any] | None = None
    careful: Callable[[], Parsed] | None = None
    """The same text parsed with every check, for a matrix its board refuses: the error
    then is the careful parse's (a number far too large, say), else the board's own."""


class NotThisFormat(Exception):
    """The text does not parse in the format tried: try the next one."""

    def __init__(self, error: BoardError):
        super().__init__(str(error))
        self.error = error


def checked_int(token: str, where: str | None, what: str) -> int:
    digits = len(token.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise BoardError(f"{what} is far too large ({digits} digits)", where=where)
    return int(token)


def json_type(value: object) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "a string"}
    return names.get(type(value), "null" if value is None else type(value).__name__)


def parse_document(data: Mapping[str, Any]) -> Parsed:
    """A board document (TOML table or JSON object): check every key and entry."""
    for key in data:
        if key not in DOCUMENT_KEYS:
            raise BoardError(
                f"unknown key {quote(key)}; a board document has {', '.join(DOCUMENT_KEYS)}"
            )
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise BoardError(f"'name' must be a string, not {json_type(name)}", where="name")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise BoardError(
            f"'description' must be a string, not {json_type(description)}",
            where="description",
        )
    rows, cols = document_size(data)
    jumps: list[JumpSpec] = []
    for key, kind in (("ladders", "ladder"), ("snakes", "snake")):
        entries = data.get(key, [])
        if not isinstance(entries, list):
            raise BoardError(
                f"'{key}' must be a list of [from, to] pairs, not {json_type(entries)}", where=key
            )
        for index, entry in enumerate(entries, start=1):
            where = f"{key} entry {index}"
            if not isinstance(entry, list) or len(entry) != 2:
                raise BoardError(f"expected a [from, to] pair, not {quote(entry)}", where=where)
            for value in entry:
                if type(value) is not int:
                    raise BoardError(
                        f"squares must be whole numbers, not {json_type(value)} {quote(value)}",
                        where=where,
                    )
            jumps.append(JumpSpec(entry[0], entry[1], kind, where))  # type: ignore[arg-type]
    rules = read_rules(data.get("rules", {}), "rules")
    return Parsed(rows, cols, jumps, rules, name, description)


def read_rules(table: object, where: str) -> Rules:
    """The rules a file gives (its ``[rules]`` table, or the ``# rules:`` line read into
    a table); a bad one raises RulesError at ``where``, and a near miss of a rule's name
    or of a worded value says which was meant, as the command line does ("not 'bonce':
    did you mean 'bounce'?")."""
    try:
        return Rules.from_mapping(table)  # type: ignore[arg-type]  # it says what is not a table
    except RulesError as error:
        raise RulesError(error.message + _near_miss(table), where=where) from None


def _near_miss(table: object) -> str:
    """': did you mean ...?' for the rule ``Rules.from_mapping`` refused, or ''. It
    refuses the first unknown name in the file's order, else the first bad value in the
    rules' order: the guess is about that one."""
    if not isinstance(table, Mapping):
        return ""
    given = {str(name).replace("-", "_"): value for name, value in table.items()}
    for name in given:
        if name not in OPTIONS:
            return _did_you_mean(name, RULE_NAMES)
    for option in RULE_OPTIONS:
        if option.name not in given:
            continue
        value = given[option.name]
        if isinstance(value, str) and option.kind is str:
            value = value.strip().lower()  # the one lenient spelling (from_mapping's)
        try:
            option.check(value)
        except RulesError:
            worded = option.kind is str and isinstance(value, str)
            return _did_you_mean(value, [str(v) for v in option.values]) if worded else ""
    return ""


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    import difflib  # only for a near miss

    near = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f": did you mean {near[0]!r}?" if near else ""


def document_size(data: Mapping[str, Any]) -> tuple[int, int]:
    has_size = "size" in data
    has_sides = "rows" in data or "cols" in data
    if has_size and has_sides:
        raise BoardError("give either 'size' or 'rows' and 'cols', not both", where="size")
    if has_size:
        size = data["size"]
        if type(size) is not int:
            raise BoardError(f"'size' must be a whole number, not {quote(size)}", where="size")
        return check_dimensions(size, size, where="size")
    if not has_sides:
        raise BoardError("missing the board size: give 'rows' and 'cols', or 'size'")
    for key in ("rows", "cols"):
        if key not in data:
            raise BoardError(f"missing '{key}' (give 'rows' and 'cols', or 'size')")
    return check_dimensions(data["rows"], data["cols"], where="rows/cols")


def pairs(board: Board, kind: str) -> list[list[int]]:
    jumps = board.ladders if kind == "ladders" else board.snakes
    return [[jump.start, jump.end] for jump in jumps]


def document(board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {"name": board.name}
    if board.description:
        data["description"] = board.description
    if board.rows == board.cols:
        data["size"] = board.rows
    else:
        data["rows"], data["cols"] = board.rows, board.cols
    data["ladders"] = pairs(board, "ladders")
    data["snakes"] = pairs(board, "snakes")
    rules = board.rules.non_default()
    if rules:
        data["rules"] = rules
    return data
