"""Every error of a board file, not only the first (``snl check`` on a file that does not
load): after each error the part it names is left out and the rest is read again."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from ..errors import BoardError
from ..files.common import DOCUMENT_KEYS

MAX_ERRORS = 50
"""``every_error`` stops listing after this many."""
REVIEW_BYTES = 1024 * 1024
"""A file larger than this gets its first error only (each error costs one more parse)."""
_ENTRY = re.compile(r"(ladders|snakes) entry (\d+)")
_LINE = re.compile(r"line (\d+)")
_CELL = re.compile(r"row (\d+), col (\d+)")


def every_error(spec: str) -> list[BoardError]:
    """Every error of the board file ``spec`` (empty when it loads): after each one, the
    part it names (an entry, a line, a cell, a rule, a key) is left out and the rest is
    read again, so a file with three mistakes gets three messages. A name, a share code,
    a file that cannot be read or parsed at all, or one too large: its first error."""
    from ..files.formats import load_board

    try:
        load_board(spec)
    except BoardError as failure:
        first = failure
    else:
        return []
    path = Path(spec)
    try:
        if not path.is_file() or path.stat().st_size > REVIEW_BYTES:
            return [first]
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return [first]
    try:
        repair = _Repair(text, path.suffix.lower())
    except Exception:  # a syntax error: the first error says where
        return [first]
    if not repair.has_size():
        return [first]  # not a board with mistakes, some other file: one line
    errors = [first]
    while len(errors) < MAX_ERRORS:
        if not repair.leave_out(errors[-1]):
            break
        try:
            repair.load(spec)
        except BoardError as next_error:
            latest = repair.original_where(next_error)
            if str(latest) == str(errors[-1]):
                break  # the part could not be left out: stop rather than repeat
            errors.append(latest)
        except Exception:
            break
        else:
            break
    return errors


class _Repair:
    """A board file's content with the parts named by errors left out, one by one."""

    def __init__(self, text: str, suffix: str) -> None:
        self.suffix = suffix
        self.lines: list[str] | None = None
        self.data: Any = None
        self.kept: dict[str, list[int]] = {}
        if suffix == ".txt":
            self.lines = text.replace("\r\n", "\n").split("\n")
        elif suffix == ".toml":
            self.data = tomllib.loads(text)
        else:
            self.data = json.loads(text)
        if isinstance(self.data, dict):
            for key in ("ladders", "snakes"):
                entries = self.data.get(key)
                if isinstance(entries, list):
                    self.kept[key] = list(range(1, len(entries) + 1))

    def has_size(self) -> bool:
        if isinstance(self.data, dict):
            return "size" in self.data or ("rows" in self.data and "cols" in self.data)
        return self.lines is not None or isinstance(self.data, list)

    def load(self, spec: str) -> None:
        from ..files.formats import parse_board

        if self.lines is not None:
            parse_board("\n".join(self.lines), source=spec, suffix=".txt")
        else:
            parse_board(json.dumps(self.data), source=spec, suffix=".json")

    def original_where(self, error: BoardError) -> BoardError:
        """The error with an entry's number as the file has it (entries left out
        before it shift the numbers)."""
        found = _ENTRY.fullmatch(error.where or "")
        if found is None:
            return error
        key, index = found.group(1), int(found.group(2))
        kept = self.kept.get(key, [])
        if not 1 <= index <= len(kept):
            return error
        return type(error)(
            error.message, source=error.source, where=f"{key} entry {kept[index - 1]}"
        )

    def leave_out(self, error: BoardError) -> bool:
        """Leave out what ``error`` names; False when it names nothing that can go."""
        where = error.where or ""
        if self.lines is not None:
            line = _LINE.match(where)
            if line is None or not 2 <= int(line.group(1)) <= len(self.lines):
                return False  # the size line (line 1) cannot go
            self.lines[int(line.group(1)) - 1] = ""
            return True
        data = self.data
        if isinstance(data, list):
            cell = _CELL.match(where)
            if cell is None:
                return False
            row, col = int(cell.group(1)), int(cell.group(2))
            try:
                data[row][col] = -1
            except (IndexError, TypeError):
                return False
            return True
        if not isinstance(data, dict):
            return False
        entry = _ENTRY.fullmatch(where)
        if entry is not None:
            key, index = entry.group(1), int(entry.group(2))
            entries, kept = data.get(key), self.kept.get(key)
            for original_at, original in enumerate(kept or []):
                if original == index and isinstance(entries, list):
                    del entries[original_at]
                    del kept[original_at]  # type: ignore[union-attr]
                    return True
            return False
        if where == "rules" and isinstance(data.get("rules"), dict):
            return self._leave_out_rules(data["rules"])
        if where in ("name", "description") and where in data:
            del data[where]
            return True
        unknown = [key for key in data if key not in DOCUMENT_KEYS]
        for key in unknown:
            del data[key]
        return bool(unknown)

    @staticmethod
    def _leave_out_rules(table: dict[str, Any]) -> bool:
        from ..rules import Rules

        for key in list(table):
            try:
                Rules.from_mapping({key: table[key]})
            except BoardError:
                del table[key]
                return True
        return False
