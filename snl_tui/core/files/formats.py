"""Board files: reading, writing and checking them, and the built-in boards (SPEC 2).

Three formats, told apart by their content (the extension only breaks ties and picks
which parse error to report):

* **LeetCode 909 matrix** (JSON list of rows): ``-1`` = no jump, otherwise the destination.
  A cell holding its own square number (the "resolved" board) also means no jump.
* **Board document** (TOML, or a JSON object with the same keys): ``name``,
  ``description``, ``rows`` + ``cols`` or ``size``, ``ladders`` and ``snakes`` as lists of
  ``[from, to]`` pairs, and an optional ``rules`` table.
* **Jump list** (text): the first line is ``rows cols`` (or one number for a square board),
  then one ``from to`` pair per line; ``#`` starts a comment. Before the size line, three
  comment lines carry what the other formats hold, so the text format is lossless too::

      # name: Chutes and Ladders
      # description: The Milton Bradley board.
      # rules: start=0 overshoot=stay
      10 10
      1 38

  A file without them is a plain jump list with the default rules.

Every error is a ``BoardError`` naming the file and, where it applies, the line, entry,
row/column and square. What is legal but probably unintended is ``checks``' business.

A board file is whatever a user points at, so reading is defensive: only a regular file
is read (a FIFO, ``/dev/zero`` or a directory is refused without blocking), at most
``MAX_FILE_BYTES``; numbers are at most ``MAX_DIGITS`` digits; and any failure of a
parser on hostile text (nesting that hits the recursion limit, a value of the wrong
type deep in a structure) ends as one ``BoardError``, never another exception.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..board import Board
from ..errors import BoardError
from ..rules import Rules
from . import json_board, text_board, toml_board
from .common import NotThisFormat, Parsed
from .disk import UnreadableFile, read_user_file
from .share import code_document, looks_like_code


class FileFormat(Protocol):
    """What a format's module provides (``files/*_board.py``)."""

    NAME: str
    SUFFIX: str
    WRITES: tuple[str, ...]

    def parse(self, text: str) -> Parsed: ...

    def dump(self, board: Board, fmt: str) -> str: ...


FILE_FORMATS: tuple[FileFormat, ...] = (json_board, toml_board, text_board)
"""Every board file format, one module each (``NAME``, ``SUFFIX``, ``WRITES``, ``parse``,
``dump``): adding a format is one module and its line here."""

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

Format = Literal["matrix", "toml", "txt", "json"]
FORMATS: tuple[str, ...] = ("matrix", "toml", "txt", "json")
"""Formats ``dump_board`` writes: ``json`` is the board document as a JSON object."""

BOARD_SUFFIXES = (".toml", ".json", ".txt")

RulesOverride = Rules | Mapping[str, Any] | None

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest board file read: a 1000x1000 matrix (the largest board) is about 5 MB."""


# -- loading -------------------------------------------------------------------------------


def load_board(name_or_path: str | Path, rules: RulesOverride = None) -> Board:
    """A board from the name of a built-in board or from a file path.

    ``rules`` overrides the file's rules: a ``Rules`` value replaces them, a mapping of
    option names (``{"faces": 8}``) changes just those options. A plain name such as
    ``classic`` means the built-in board; write ``./classic`` for a file of that name. A
    share code (``snl1-...``, ``core.files.share``) is a board too.
    Raises ``BoardError`` naming the file (and line, entry, row/column, square).
    """
    text = str(name_or_path)
    if isinstance(name_or_path, str) and looks_like_code(text) and not os.path.lexists(text):
        return _load_text(
            code_document(text), source="share code", stem="", rules=rules, suffix=".json"
        )
    if isinstance(name_or_path, str) and text in _builtin_files():
        resource = _builtin_files()[text]
        return _load_text(
            _read(resource, text),
            source=text,
            stem=text,
            rules=rules,
            description=_MATRIX_DESCRIPTIONS.get(text, ""),
        )
    path = Path(name_or_path)
    if not os.path.lexists(path) and "/" not in text and "\\" not in text and not path.suffix:
        import difflib

        known = ", ".join(_builtin_files())
        near = difflib.get_close_matches(text, list(_builtin_files()), n=1, cutoff=0.6)
        if near:  # a near miss: the board meant, not the whole list
            raise BoardError(
                f"no such file or built-in board: did you mean {near[0]!r}?", source=text
            )
        raise BoardError(f"no such file or built-in board (built-in boards: {known})", source=text)
    return _load_text(_read_file(path, text), source=text, stem=path.stem, rules=rules)


MAX_JUMPS_TO_FIX = 2000
"""The most jumps a broken file may have to be opened for fixing (each kept jump is checked
with the ones before it: a board, not a data dump)."""


def load_board_to_fix(path: Path) -> tuple[Board, list[str]]:
    """A board file that may break the board rules, for the editor to fix: the board
    with every jump that can be kept, and one line per jump left out and why ("line 4:
    two jumps start on square 12 ... (left out)"). A file that cannot be read at all
    (syntax, size, rules, a matrix) raises BoardError as ``load_board`` does."""
    label = str(path)
    try:
        return load_board(path), []
    except BoardError as error:
        first = error
    try:  # hostile text fails here as it did above: the first, clean error is the answer
        parsed = _parse(_read_file(path, label).replace("\r\n", "\n"), path.suffix.lower())
    except Exception:
        raise first from None
    if parsed.matrix is not None or not 0 < len(parsed.jumps) <= MAX_JUMPS_TO_FIX:
        raise first
    name = parsed.name if parsed.name is not None else path.stem
    try:
        board = Board(
            parsed.rows, parsed.cols, rules=parsed.rules, name=name, description=parsed.description
        )
    except BoardError:
        raise first from None
    problems = []
    for spec in parsed.jumps:
        try:
            board = board.with_jumps([*board.jumps.items(), spec])
        except BoardError as error:
            problems.append(f"{error} (left out)")
    if not problems:
        raise first  # not a matter of jumps: nothing the editor can fix here
    return board, problems


def parse_board(
    text: str,
    *,
    source: str = "<board>",
    suffix: str = "",
    rules: RulesOverride = None,
    name: str = "",
) -> Board:
    """A board from the text of a board file (any format); errors name ``source``."""
    return _load_text(text, source=source, stem=name, rules=rules, suffix=suffix)


def _read(location: Traversable, label: str) -> str:
    """A built-in board's text (a file inside the package: trusted)."""
    return _decode(location.read_bytes(), label)


def _read_file(path: Path, label: str) -> str:
    """The text of a user's board file: a regular file of at most ``MAX_FILE_BYTES``
    (``disk.read_user_file``: a FIFO, ``/dev/zero`` or a directory is refused at once)."""
    try:
        data = read_user_file(path, MAX_FILE_BYTES, what="board file")
    except UnreadableFile as error:
        raise BoardError(str(error), source=label) from None
    return _decode(data, label)


def _decode(data: bytes, label: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) and len(data) % 2 == 0:
        raise BoardError("the file is UTF-16 text: save it as UTF-8", source=label)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BoardError(
            f"not a text file (byte {error.start} is not UTF-8)", source=label
        ) from None


def _load_text(
    text: str,
    *,
    source: str,
    stem: str,
    rules: RulesOverride,
    suffix: str | None = None,
    description: str = "",
) -> Board:
    if suffix is None:
        suffix = Path(source).suffix
    try:
        parsed = _parse(text, suffix.lower())
        final_rules = _settle_rules(parsed.rules, rules)
        name = parsed.name if parsed.name is not None else stem
        description = parsed.description or description
        if parsed.matrix is not None:
            try:
                return Board.from_matrix(
                    parsed.matrix, final_rules, name=name, description=description
                )
            except BoardError:
                careful = parsed.careful() if parsed.careful is not None else None
                if careful is None or careful.matrix is None:  # the careful parse raises
                    raise  # its own error first, if it has one: else the board's
                return Board.from_matrix(
                    careful.matrix, final_rules, name=name, description=description
                )
        return Board(
            parsed.rows,
            parsed.cols,
            parsed.jumps,
            rules=final_rules,
            name=name,
            description=description,
        )
    except BoardError as error:
        raise error.with_source(source) from None
    except RecursionError:
        raise BoardError("the file is nested too deeply", source=source) from None
    except Exception as error:
        # A parser or check meeting hostile text in a way not foreseen above still ends
        # as one line naming the file: the CLI exits 2 and the load dialog shows it.
        raise BoardError(f"cannot read the board ({type(error).__name__})", source=source) from None


def _settle_rules(from_file: Rules, override: RulesOverride) -> Rules:
    if override is None:
        return from_file
    if isinstance(override, Rules):
        return override
    return Rules.from_mapping(override, base=from_file)


def _parse(text: str, suffix: str) -> Parsed:
    if not text.strip():
        raise BoardError("the file is empty")
    # A file saved on Windows: TOML keeps CRLF inside a multi-line string, and a CR in a
    # description would be refused as a control character. No format allows a raw CR
    # anywhere else, so this changes no value.
    text = text.replace("\r\n", "\n")
    parsers: dict[str, Callable[[str], Parsed]] = {f.NAME: f.parse for f in FILE_FORMATS}
    by_suffix = {f.SUFFIX: f.NAME for f in FILE_FORMATS}.get(suffix)
    # The extension goes first, then what the content looks like; only a syntax failure
    # moves on to the next format, so a board error is reported in the format that parsed.
    order = [by_suffix] if by_suffix else []
    order += [kind for kind in _sniff(text) if kind != by_suffix]
    failures: dict[str, BoardError] = {}
    for kind in order:
        try:
            return parsers[kind](text)
        except NotThisFormat as failure:
            failures[kind] = failure.error
    # Nothing parsed: report what the extension promised, since that is what the author
    # meant to write, or else the likeliest format.
    raise failures[order[0]]


def _sniff(text: str) -> list[str]:
    """The formats the text looks like, most likely first."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return ["json"]
    if stripped.startswith("["):
        # A JSON list of rows, or a TOML file opening with a [table] header.
        return ["json", "toml"]
    first = _first_content_line(text)
    if "=" in first:
        return ["toml"]
    return ["txt", "toml"]


def _first_content_line(text: str) -> str:
    for line in text.splitlines():
        content = line.split("#", 1)[0].strip()
        if content:
            return content
    return ""


# -- JSON ------------------------------------------------------------------------------------


# -- TOML and board documents -----------------------------------------------------------------

# -- jump lists ------------------------------------------------------------------------------

# -- writing ---------------------------------------------------------------------------------


def dump_board(board: Board, fmt: str) -> str:
    """The board as text in ``fmt`` (matrix, toml, txt or json); loading it gives it back.

    A ``matrix`` holds only the squares and jumps: not the rules, name or description.
    Callers that care (``snl convert``) check ``lost_in_matrix`` first.
    """
    for module in FILE_FORMATS:
        if fmt in module.WRITES:
            return module.dump(board, fmt)
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")


# -- built-in boards ---------------------------------------------------------------------------

# The boards every install ships, in the order `snl boards` lists them; any other file in
# boards/ follows alphabetically.
_BUILTIN_ORDER = ("classic", "leetcode-1", "leetcode-2", "throws-30", "lld-6x6")

# A LeetCode matrix has no room for a description: these fill the gap.
_MATRIX_DESCRIPTIONS = {
    "leetcode-1": "LeetCode 909, example 1: ladders 2-15 and 14-35 and a snake 17-13. "
    "Least rolls 4.",
    "leetcode-2": "LeetCode 909, example 2: the 2x2 board [[-1,-1],[-1,3]]. Least rolls 1.",
    "lld-6x6": "The resolved 6x6 matrix of a low-level-design write-up: every cell says "
    "where a token landing there ends up. The write-up claims 4 rolls; the matrix gives 3.",
}


@dataclass(frozen=True)
class BuiltinBoard:
    """A board shipped inside the package, addressable by ``name``."""

    name: str
    filename: str
    board: Board

    @property
    def description(self) -> str:
        return self.board.description

    @property
    def size_label(self) -> str:
        return f"{self.board.rows}x{self.board.cols}"


def _builtin_folder() -> Traversable:
    # Installed, the top-level boards/ folder ships inside the package (pyproject maps it
    # to snl_tui/boards); run from a source tree (editable install, tests), it is beside it.
    # Both are looked for on disk first: importlib.resources (its import and a reader cost
    # a few milliseconds before the first frame) only serves a package that is not on
    # disk (a zip).
    package = Path(__file__).resolve().parents[2]
    for folder in (package / "boards", package.parent / "boards"):
        if folder.is_dir():
            return folder
    from importlib import resources

    return resources.files("snl_tui") / "boards"


@cache
def _builtin_files() -> dict[str, Traversable]:
    folder = _builtin_folder()
    found = {
        Path(entry.name).stem: entry
        for entry in folder.iterdir()
        if entry.is_file() and Path(entry.name).suffix in BOARD_SUFFIXES
    }
    first = [name for name in _BUILTIN_ORDER if name in found]
    rest = sorted(set(found) - set(first))
    return {name: found[name] for name in first + rest}


@cache
def _builtin_boards() -> tuple[BuiltinBoard, ...]:
    return tuple(
        BuiltinBoard(name, resource.name, load_board(name))
        for name, resource in _builtin_files().items()
    )


def builtin_boards() -> list[BuiltinBoard]:
    """Every built-in board, loaded (they are small), in display order."""
    return list(_builtin_boards())


def builtin_names() -> list[str]:
    """The names ``load_board`` accepts besides paths."""
    return list(_builtin_files())


def is_board_file(path: Path) -> bool:
    """Whether a path looks like a board file (for listing a folder's boards): a regular
    file with a board extension. Never raises (a symlink loop or an unreadable folder
    is simply not a board file)."""
    try:
        return path.suffix.lower() in BOARD_SUFFIXES and stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


SNIFF_BYTES = 64 * 1024
"""How much of a file ``looks_like_board`` reads: a whole board file, but a small one."""

_MATRIX_START = re.compile(r"\[\s*\[\s*[-+]?[0-9]")
_JSON_SIZE_KEY = re.compile(r'"(size|rows)"\s*:')
_TOML_SIZE_KEY = re.compile(r"""(size|rows|"size"|"rows"|'size'|'rows')\s*=""")
_TXT_SIZE_LINE = re.compile(r"[-+]?[0-9]+(\s+[-+]?[0-9]+)?")


def looks_like_board(path: Path) -> bool:
    """Whether a file's content looks like a board, cheaply (its first 64 KiB).

    Yes for a JSON list of rows, a board document (a JSON object or TOML table with a
    top-level ``size`` or ``rows``) and a jump list (the first line that is not a comment
    is ``rows cols``); no for other JSON and TOML such as ``pyproject.toml``. A file that
    looks like a board but is broken still counts, so the dialog can show its error.
    Never raises and never blocks, whatever the file holds: it lists a folder's files.
    """
    try:
        return _looks_like_board(path)
    except Exception:  # hostile content (deep nesting, huge numbers) is not a board
        return False


def _looks_like_board(path: Path) -> bool:
    import json

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False  # a FIFO or device: reading it could block or never end
        head = os.read(fd, SNIFF_BYTES)
    except OSError:
        return False
    finally:
        os.close(fd)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    whole = len(head) < SNIFF_BYTES
    if text.startswith("{"):
        if whole:
            try:
                data = json.loads(text)
            except ValueError:
                pass  # a broken board document is still a board document
            else:
                return isinstance(data, dict) and ("size" in data or "rows" in data)
        return _JSON_SIZE_KEY.search(text) is not None
    if _MATRIX_START.match(text):
        return True
    return _toml_has_size(text, whole) or _txt_has_size(text)


def _toml_has_size(text: str, whole: bool) -> bool:
    if whole:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            pass
        else:
            return "size" in data or "rows" in data
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):  # a table: top-level keys come before any
            return False
        if _TOML_SIZE_KEY.match(line):
            return True
    return False


def _txt_has_size(text: str) -> bool:
    return _TXT_SIZE_LINE.fullmatch(_first_content_line(text)) is not None
