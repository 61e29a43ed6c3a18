"""How the figures are written: text, JSON, histogram, percentages and square lists.

One module for the wording both ``snl analyze``/``snl check`` and the hint panel use, so
"off the board", a share of games or a run of squares reads the same everywhere. Pure
text: no numpy, no Textual (the analysis is only a type here).
"""

from __future__ import annotations

import math
import reprlib
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Analysis
    from .board import Board

REPORT_TURNS = (10, 20, 30, 50, 100)
REPORT_PERCENTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


# -- words and numbers -----------------------------------------------------------------


def place(position: int) -> str:
    """'off the board' for position 0, 'square 12' otherwise."""
    return "off the board" if position <= 0 else f"square {position}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 turn', '2 turns', '0 snakes': ``count`` and ``word``, plural unless it is 1
    (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) as one space."""
    return " ".join(text.split())


QUOTE_LIMIT = 60
"""How much of a value from a file an error message quotes."""
LINE_LIMIT = 200
"""The longest error line the CLI prints."""
ELLIPSIS = "..."

# Bidirectional overrides and isolates can make a terminal show text in another order
# than it is stored ("Trojan Source"): escaped like the control characters.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_unsafe_char(char: str, allowed: str = "") -> bool:
    """Whether ``char`` must never reach a terminal raw: a control character (C0, DEL,
    C1), a line or paragraph separator, or a bidirectional override."""
    if char in allowed:
        return False
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI


def escape_controls(text: str, allowed: str = "") -> str:
    """``text`` with every unsafe character (``is_unsafe_char``) written as an escape:
    ESC shows as ``\\x1b``, so an echoed file name cannot drive the terminal."""
    if not any(is_unsafe_char(char, allowed) for char in text):
        return text
    return "".join((_escape(char) if is_unsafe_char(char, allowed) else char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, ending in '...' when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 1)] + ELLIPSIS


class _ShortRepr(reprlib.Repr):
    """``repr`` bounded in depth, length and digits; never raises on a deep or huge value
    (``repr`` itself hits the recursion limit, or int's 4,300-digit limit)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6
        self.maxstring = QUOTE_LIMIT
        self.maxother = QUOTE_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<a number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return repr(x)


_SHORT_REPR = _ShortRepr()


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value from a file, quoted for an error message: ``repr``-like, at most ``limit``
    characters, control characters escaped, whatever the value (deep, huge or odd)."""
    try:
        text = _SHORT_REPR.repr(value)
    except Exception:  # a value whose repr fails is still named, not crashed on
        text = f"<{type(value).__name__}>"
    return clip(escape_controls(text), limit)


def safe_line(text: str, limit: int = LINE_LIMIT) -> str:
    """``text`` made fit for one line on a terminal: whitespace runs as one space,
    control characters escaped, at most ``limit`` characters."""
    return clip(escape_controls(one_line(text)), limit)


def percent(p: float | None, digits: int = 1, certain: float = 0.0) -> str:
    """A share as a percentage that never rounds a possibility to 0% or a doubt to 100%.

    With ``digits`` decimals: a share below the smallest step shows as '<0.1%' (or '<1%'
    with no decimals) and one above the largest as '>99.9%'. Shares within ``certain``
    of 0 or 1 are shown as exactly '0%' or '100%' (floating-point crumbs are not
    doubts). None (no figure) is 'n/a'.
    """
    if p is None:
        return "n/a"
    step = 10.0**-digits
    if p <= certain:
        return f"{0:.{digits}f}%"
    if p >= 1.0 - certain:
        return f"{100:.{digits}f}%"
    if p * 100 < step:
        return f"<{step:.{digits}f}%"
    if p * 100 > 100 - step:
        return f">{100 - step:.{digits}f}%"
    return f"{p * 100:.{digits}f}%"


def runs(squares: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive numbers in sorted ``squares``: [(low, high), ...]."""
    found: list[tuple[int, int]] = []
    for square in squares:
        if found and found[-1][1] == square - 1:
            found[-1] = (found[-1][0], square)
        else:
            found.append((square, square))
    return found


def square_ranges(squares: Sequence[int]) -> str:
    """'squares 5-9, 14' from sorted squares (0 reads 'start')."""
    parts = []
    for low, high in runs(squares):
        label = "start" if low == 0 else str(low)
        parts.append(label if low == high else f"{label}-{high}")
    word = "square" if len(squares) == 1 else "squares"
    return f"{word} {', '.join(parts)}"


def turns_text(expected: float, digits: int = 2) -> str:
    """'38.45 turns'; 'infinite' when some games never finish; 'too large to compute'
    for ``nan`` (every game finishes, but the figure overflows)."""
    if math.isnan(expected):
        return "finite, but too large to compute"
    return f"{expected:.{digits}f} turns" if math.isfinite(expected) else "infinite"


# -- snl analyze -------------------------------------------------------------------------


def analysis_json(analysis: Analysis, visits: bool = False) -> dict[str, object]:
    """SPEC 4's ``snl analyze --json`` object.

    JSON has no infinity: when the goal may never be reached ``expected_turns`` is
    ``null`` and ``finite`` is false; when every game finishes but the expectation is too
    large to compute it is ``null`` with ``finite`` true and ``too_large`` true. A
    median, percentile or figure that is never reached (or not computable) is ``null``
    as well. Extra keys: ``finite``, ``too_large``, ``players``, ``percentiles`` (turns
    by percent), ``never_finishes``, ``no_winner``, ``std_turns``, ``mode_turns``,
    ``game_rounds`` (expected rounds until the first of ``players`` seats finishes) and,
    with ``visits``, ``visits`` (expected turns begun on each square, index = square).
    """
    expected = analysis.expected_turns
    percentiles = {}
    for q in REPORT_PERCENTILES:
        turns = analysis.percentile_turns(q)
        percentiles[str(round(q * 100))] = turns if isinstance(turns, int) else None
    median = analysis.median_turns
    mode = analysis.mode_turns
    data: dict[str, object] = {
        "expected_turns": _number(expected),
        "finite": analysis.finite,
        "too_large": analysis.too_large,
        "median_turns": median if median >= 0 else None,
        "least_rolls": analysis.least_rolls,
        "finish_within": {str(k): analysis.finish_within(k) for k in REPORT_TURNS},
        "win_chances": analysis.win_chances,
        "players": analysis.players,
        "percentiles": percentiles,
        "never_finishes": analysis.never_finishes,
        "no_winner": analysis.no_winner,
        "std_turns": _number(analysis.std_turns),
        "mode_turns": mode if mode >= 0 else None,
        "game_rounds": _number(analysis.game_rounds),
    }
    if visits:
        counts = analysis.visits()
        data["visits"] = None if counts is None else [_number(v) for v in counts]
    return data


def _number(value: float) -> float | None:
    """A float for JSON, or None for infinity and not-a-number (JSON has neither)."""
    return value if math.isfinite(value) else None


def expected_text(analysis: Analysis, digits: int = 4) -> str:
    """'38.4528', 'infinite (50.0% of games never finish)' or, when every game ends
    but the figure overflows, 'finite, but too large to compute'."""
    expected = analysis.expected_turns
    if math.isfinite(expected):
        return f"{expected:.{digits}f}"
    if analysis.finite:
        return "finite, but too large to compute"
    return f"infinite ({percent(analysis.never_finishes)} of games never finish)"


def _turn_label(analysis: Analysis, turns: float) -> str:
    """A turn count, or why there is none: 'never', or past a truncated table."""
    if isinstance(turns, int):
        return str(turns)
    if analysis.truncated and analysis.finite:
        return f"after {analysis.horizon}"
    return "never"


_EIGHTHS = " ▏▎▍▌▋▊▉"


def _bar(value: float, full: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at ``full``, in eighths of a cell."""
    if full <= 0:
        return ""
    eighths = round(value / full * width * 8)
    whole, part = divmod(eighths, 8)
    return "█" * whole + (_EIGHTHS[part] if part else "")


def histogram(analysis: Analysis, rows: int = 12, width: int = 30) -> list[str]:
    """Text histogram of the finishing turn from ``start``: turn ranges and bars.

    Covers the turns up to the 99th percentile of the games that finish (or the table's
    end) in at most ``rows`` equal ranges, then "later" and "never" rows when they are
    not negligible; single-width block elements only.
    """
    dist = analysis.distribution
    first = next((t for t, p in enumerate(dist) if p > 0), None)
    if first is None:
        return ["  (no game ever finishes)"]
    never = analysis.never_finishes
    last = analysis.percentile_turns(0.99 * (1.0 - never))
    if not isinstance(last, int):
        last = len(dist) - 1
    step = max(1, math.ceil((last - first + 1) / rows))
    last = first + step * math.ceil((last - first + 1) / step) - 1  # whole bins only
    bins = []
    for low in range(first, last + 1, step):
        high = low + step - 1
        bins.append((low, high, sum(dist[low : high + 1])))
    tallest = max(share for _, _, share in bins)
    label_width = len(str(last))
    lines = []
    for low, high, share in bins:
        label = (
            f"{low:>{label_width}}"
            if low == high
            else f"{low:>{label_width}}-{high:<{label_width}}"
        )
        label = label.ljust(2 * label_width + 1)
        lines.append(f"  {label}  {_bar(share, tallest, width):<{width}}  {percent(share):>6}")
    later = 1.0 - analysis.finish_within(last) - never
    for label, share in (("later", later), ("never", never)):
        if share > 5e-5:
            lines.append(
                f"  {label.ljust(2 * label_width + 1)}  {'':<{width}}  {percent(share):>6}"
            )
    return lines


def format_report(analysis: Analysis, board: Board | None = None, visits: bool = False) -> str:
    """The text of ``snl analyze`` (without ``--json``); ``board`` defaults to the
    analysed one (pass the loaded board to show its name); ``visits`` adds the
    expected turns begun on each square."""
    board = board if board is not None else analysis.board
    name = board.name or "board"
    start = place(analysis.start)
    lines = [f"{name} ({board.rows}x{board.cols}): random play from {start}, exact odds"]
    lines.append(f"  expected turns    {expected_text(analysis)}")
    std = analysis.std_turns
    if math.isfinite(std):
        lines.append(f"  std deviation     {std:.4f}")
    lines.append(f"  median turns      {_turn_label(analysis, analysis.percentile_turns(0.5))}")
    mode = analysis.mode_turns
    lines.append(f"  most likely turn  {mode if mode >= 0 else 'never'}")
    least = analysis.least_rolls
    lines.append(f"  least rolls       {least if least >= 0 else 'unreachable'}")
    parts = []
    for q in REPORT_PERCENTILES:
        turns = analysis.percentile_turns(q)
        parts.append(f"{round(q * 100)}%: {_turn_label(analysis, turns)}")
    lines.append("  percentiles       " + "  ".join(parts) + "  (turns)")
    within = [f"{k}: {percent(analysis.finish_within(k))}" for k in REPORT_TURNS]
    lines.append("  finished within   " + "  ".join(within) + "  (turns)")
    if analysis.players > 1:
        seats = [f"seat {i + 1}: {percent(p, 2)}" for i, p in enumerate(analysis.win_chances)]
        lines.append("  win chances       " + "  ".join(seats))
        if analysis.no_winner > 0:
            lines.append(f"  no winner ever    {percent(analysis.no_winner)}")
        rounds = analysis.game_rounds
        label = f"{rounds:.4f}" if math.isfinite(rounds) else "infinite"
        lines.append(f"  game rounds       {label} (expected, until the first seat finishes)")
    if analysis.truncated:
        lines.append(
            f"  note: the distribution is cut at turn {analysis.horizon}; "
            "figures past it are lower bounds"
        )
    lines.append("")
    lines.append("  finishing turn    share of games")
    lines.extend(histogram(analysis))
    if visits:
        lines.append("")
        lines.extend(visits_lines(analysis))
    return "\n".join(lines)


def visits_lines(analysis: Analysis) -> list[str]:
    """'square  expected turns begun there', one line per square a game visits."""
    counts = analysis.visits()
    if counts is None:
        return ["  visits per square: not finite (some games never finish)"]
    lines = ["  square  expected turns begun there (one player)"]
    for square, count in enumerate(counts):
        if count > 0:
            label = "start" if square == 0 else str(square)
            lines.append(f"  {label:>6}  {count:.4f}")
    return lines
