"""Jump lists (``.txt``): ``rows cols``, then one ``from to`` pair per line; ``#`` starts a
comment, and three comment lines before the size carry the name, description and rules,
so the text format is lossless too."""

from __future__ import annotations

import re
from typing import Any

from ..board import Board, JumpSpec
from ..errors import BoardError, RulesError
from ..matrix import check_dimensions
from ..rules import Rules
from ..text import quote
from .common import INT, RULE_ORDER, NotThisFormat, Parsed, checked_int, read_rules

NAME = "txt"
SUFFIX = ".txt"
WRITES: tuple[str, ...] = ("txt",)

_DIRECTIVE = re.compile(r"#\s*(name|description|rules)\s*:(.*)$", re.IGNORECASE)


def _whole(token: str, where: str, what: str) -> int:
    if not INT.fullmatch(token):
        raise BoardError(f"{what} must be a whole number, not {quote(token)}", where=where)
    return checked_int(token, where, what)


def parse(text: str) -> Parsed:
    name: str | None = None
    description: list[str] = []
    rules = Rules()
    size: tuple[int, int] | None = None
    jumps: list[JumpSpec] = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"line {number}"
        stripped = line.strip()
        directive = _DIRECTIVE.match(stripped) if size is None else None
        if directive:
            key, value = directive.group(1).lower(), directive.group(2).strip()
            if key == "description":
                # Kept as written after 'description: ' (indents and tabs survive).
                raw = _DIRECTIVE.match(line.lstrip())
                value = raw.group(2).removeprefix(" ") if raw else value
            if key == "name":
                name = value
            elif key == "description":
                description.append(value)
            else:
                rules = _rules_line(value, where)
            continue
        content = stripped.split("#", 1)[0].split()
        if not content:
            continue
        if size is None:
            if len(content) not in (1, 2):
                # A broken first line may mean the file is not a jump list at all.
                raise NotThisFormat(
                    BoardError(
                        f"the first line must be 'rows cols', not {quote(' '.join(content))}",
                        where=where,
                    )
                )
            try:
                sides = [_whole(token, where, "the board size") for token in content]
            except BoardError as error:
                raise NotThisFormat(error) from None
            size = check_dimensions(sides[0], sides[-1], where=where)
            continue
        if len(content) != 2:
            raise BoardError(f"expected 'from to', not {quote(' '.join(content))}", where=where)
        start = _whole(content[0], where, "a jump's start")
        end = _whole(content[1], where, "a jump's destination")
        jumps.append(JumpSpec(start, end, None, where))
    if size is None:
        raise BoardError("no 'rows cols' line: the file has only comments")
    return Parsed(size[0], size[1], jumps, rules, name, "\n".join(description))


def _rules_line(text: str, where: str) -> Rules:
    """``start=0 overshoot=bounce chain=true`` (commas between options are fine too)."""
    options: dict[str, Any] = {}
    for item in text.replace(",", " ").split():
        option, sep, value = item.partition("=")
        if not sep or not option or not value:
            raise RulesError(f"rules: expected name=value, not {quote(item)}", where=where)
        if option in options:
            raise RulesError(f"rules: {quote(option)} is given twice", where=where)
        options[option] = _rule_value(value, where)
    return read_rules(options, where)


def _rule_value(text: str, where: str) -> int | bool | str:
    """A ``# rules:`` value as the type a TOML file would give it: 8 is a number, true
    a boolean, anything else a word (the rules then check each option's type)."""
    if INT.fullmatch(text):
        return checked_int(text, where, "a rule value")
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


def _rules_text(rules: Rules) -> str:
    options = rules.non_default()
    return " ".join(f"{key}={_word(options[key])}" for key in RULE_ORDER if key in options)


def _dump_txt(board: Board) -> str:
    lines = []
    if board.name:
        lines.append(f"# name: {board.name}")  # one line, no edge spaces: Board checks
    if board.description:
        lines.extend(f"# description: {line}" for line in board.description.split("\n"))
    if board.rules.non_default():
        lines.append(f"# rules: {_rules_text(board.rules)}")
    lines.append(f"{board.rows} {board.cols}")
    if board.ladders:
        lines.append("# ladders")
        lines.extend(f"{jump.start} {jump.end}" for jump in board.ladders)
    if board.snakes:
        lines.append("# snakes")
        lines.extend(f"{jump.start} {jump.end}" for jump in board.snakes)
    return "\n".join(lines) + "\n"


def dump(board: Board, fmt: str = "txt") -> str:
    """The board as a jump list (``fmt`` is always ``txt``)."""
    return _dump_txt(board)


def _word(value: Any) -> str:
    """A rule value as the ``# rules:`` line writes it: true/false, a number or a word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
