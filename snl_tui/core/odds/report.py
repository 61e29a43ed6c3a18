"""How the analysis is written: the ``snl analyze`` report and JSON, histograms, luck.

The words and numbers it is written with (squares, shares, plurals, escaping) live in
``text.py``, which every layer uses. Pure text: no numpy, no Textual. It writes a
``Summary`` (``summary.py``: every figure read off the analysis at once) and asks the
analysis nothing itself.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from typing import TYPE_CHECKING

from ..text import percent, place, plural
from .summary import REPORT_PERCENTILES, Summary

if TYPE_CHECKING:
    from ..board import Board
    from .analysis import Bars


def luck_text(share: float, players: int, turns: int) -> str:
    """The luck of a game (``analysis.luck``) in words that read right for a quick game
    and for a long one."""
    games = "one-player games" if players == 1 else f"{players}-player games"
    within = f"end within {plural(turns, 'turn')}"
    if share <= 0.5:
        return f"A quick game: only {percent(share, 0)} of {games} {within}."
    return f"A long game: {percent(share, 0)} of {games} {within}."


LUCK_LEGEND = (
    "luck: the share of games with as many players that end within as many turns, "
    "median over the games won (lower is luckier)"
)


# -- snl analyze -------------------------------------------------------------------------


def analysis_json(summary: Summary, visits: bool = False) -> dict[str, object]:
    """SPEC 4's ``snl analyze --json`` object.

    JSON has no infinity: when the goal may never be reached ``expected_turns`` is
    ``null`` and ``finite`` is false; when every game finishes but the expectation is too
    large to compute it is ``null`` with ``finite`` true and ``too_large`` true. A
    median, percentile or figure that is never reached (or not computable) is ``null``
    as well. Extra keys: ``finite``, ``too_large``, ``players``, ``percentiles`` (turns
    by percent), ``never_finishes``, ``no_winner``, ``std_turns``, ``mode_turns``,
    ``game_rounds`` (expected rounds until the first of ``players`` seats finishes),
    ``accuracy`` (per figure: ``status`` "exact", "bounded" or "left out", ``error``, the
    bound on how far it may be off, and ``why``) and, with ``visits``, ``visits``
    (expected turns begun on each square, index = square). Figures left out are ``null``.
    """
    rounds = summary.game_rounds
    data: dict[str, object] = {
        "expected_turns": _number(summary.expected_turns),
        "finite": summary.finite,
        "too_large": summary.too_large,
        "median_turns": None,
        "least_rolls": summary.least_rolls,
        "finish_within": None,
        "win_chances": None,
        "players": summary.players,
        "percentiles": None,
        "never_finishes": summary.never_finishes,
        "no_winner": summary.no_winner,
        "std_turns": _number(summary.std_turns),
        "mode_turns": None,
        "game_rounds": None if rounds is None else _number(rounds),
    }
    if summary.left_out is None:
        percentiles = {}
        for q in REPORT_PERCENTILES:
            turns = summary.percentiles[q]
            percentiles[str(round(q * 100))] = turns if isinstance(turns, int) else None
        median, mode = summary.median_turns, summary.mode_turns
        data.update(
            median_turns=median if median >= 0 else None,
            finish_within={str(k): share for k, share in summary.finish_within.items()},
            win_chances=summary.win_chances,
            percentiles=percentiles,
            mode_turns=mode if mode >= 0 else None,
        )
    data["accuracy"] = {
        entry.figure: {"status": entry.status, "error": _number(entry.error), "why": entry.why}
        for entry in summary.accuracy
    }
    if visits:
        counts = summary.visits
        data["visits"] = None if counts is None else [_number(v) for v in counts]
    return data


def _number(value: float) -> float | None:
    """A float for JSON, or None for infinity and not-a-number (JSON has neither)."""
    return value if math.isfinite(value) else None


def expected_text(summary: Summary, digits: int = 4) -> str:
    """'38.4528', 'infinite (50.0% of games never finish)' or, when every game ends
    but the figure overflows, 'finite, but too large to compute'."""
    expected = summary.expected_turns
    if math.isfinite(expected):
        return f"{expected:.{digits}f}"
    if summary.finite:
        return "finite, but too large to compute"
    return f"infinite ({percent(summary.never_finishes)} of games never finish)"


def _turn_label(summary: Summary, turns: float) -> str:
    """A turn count, or why there is none: 'never', or past a truncated table."""
    if isinstance(turns, int):
        return str(turns)
    if summary.truncated and summary.finite:
        return f"after {summary.horizon}"
    return "never"


_EIGHTHS = " ▏▎▍▌▋▊▉"


def _bar(value: float, full: float, width: int) -> str:
    """A horizontal bar of ``width`` cells at ``full``, in eighths of a cell."""
    if full <= 0:
        return ""
    eighths = round(value / full * width * 8)
    whole, part = divmod(eighths, 8)
    return "█" * whole + (_EIGHTHS[part] if part else "")


def histogram(bars: Bars, width: int = 30) -> list[str]:
    """Text histogram of the finishing turn (``Analysis.finish_bars``): turn ranges and
    bars, then "later" and "never" rows when they are not negligible; single-width
    block elements only."""
    if not bars.bins:
        return ["  (no game ever finishes)"]
    tallest = max(share for _, _, share in bars.bins)
    label_width = len(str(bars.bins[-1][1]))
    lines = []
    for low, high, share in bars.bins:
        label = (
            f"{low:>{label_width}}"
            if low == high
            else f"{low:>{label_width}}-{high:<{label_width}}"
        )
        label = label.ljust(2 * label_width + 1)
        lines.append(f"  {label}  {_bar(share, tallest, width):<{width}}  {percent(share):>6}")
    for label, share in (("later", bars.later), ("never", bars.never)):
        if share > 5e-5:
            lines.append(
                f"  {label.ljust(2 * label_width + 1)}  {'':<{width}}  {percent(share):>6}"
            )
    return lines


ACCURACY_LABELS = {
    "expected_turns": "expected turns",
    "std_turns": "std deviation",
    "visits": "visits",
    "distribution": "median, percentiles, finished within",
    "mode_turns": "most likely turn",
    "win_chances": "win chances",
    "game_rounds": "game rounds",
}


def accuracy_lines(summary: Summary, visits: bool = False) -> list[str]:
    """One line per figure shown that is not exact: bounded (with its error bound) or
    left out (with the reason). Empty when every figure is exact."""
    lines = []
    left_out: list[str] = []
    for entry in summary.accuracy:
        if entry.figure == "visits" and not visits:
            continue
        label = ACCURACY_LABELS.get(entry.figure, entry.figure)
        if entry.status == "bounded":
            lines.append(f"  note: {label} within {entry.error:.1e} ({entry.why})")
        elif entry.status == "left out" and entry.why != summary.left_out:
            lines.append(f"  note: {label} left out ({entry.why})")
        elif entry.status == "left out":
            left_out.append(label)
    if left_out:
        lines.append(f"  left out: {', '.join(left_out)}: {summary.left_out}")
    return lines


def format_report(summary: Summary, board: Board | None = None, visits: bool = False) -> str:
    """The text of ``snl analyze`` (without ``--json``); ``board`` defaults to the
    analysed one (pass the loaded board to show its name); ``visits`` adds the
    expected turns begun on each square. A figure that is not exact says so (its bound,
    or why it is left out)."""
    board = board if board is not None else summary.board
    name = board.name or "board"
    start = place(summary.start)
    lines = [f"{name} ({board.rows}x{board.cols}): random play from {start}, exact odds"]
    players = summary.players
    if players > 1:
        # Which game each figure describes: the turns are one token's, alone.
        lines.append(
            f"  (turns: one player's game; win chances and game rounds: {players} players)"
        )
    lines.append(f"  expected turns    {expected_text(summary)}")
    std = summary.std_turns
    if math.isfinite(std):
        lines.append(f"  std deviation     {std:.4f}")
    least = summary.least_rolls
    distribution = summary.left_out is None
    if distribution:
        lines.append(f"  median turns      {_turn_label(summary, summary.percentiles[0.5])}")
        mode = summary.mode_turns
        lines.append(f"  most likely turn  {mode if mode >= 0 else 'never'}")
    lines.append(f"  least rolls       {least if least >= 0 else 'unreachable'}")
    if distribution:
        parts = []
        for q in REPORT_PERCENTILES:
            turns = summary.percentiles[q]
            parts.append(f"{round(q * 100)}%: {_turn_label(summary, turns)}")
        lines.append("  percentiles       " + "  ".join(parts) + "  (turns)")
        within = [f"{k}: {percent(share)}" for k, share in summary.finish_within.items()]
        lines.append("  finished within   " + "  ".join(within) + "  (turns)")
    if players > 1 and distribution:
        seats = [f"seat {i + 1}: {percent(p, 2)}" for i, p in enumerate(summary.win_chances)]
        lines.append("  win chances       " + "  ".join(seats))
        if summary.no_winner > 0:
            lines.append(f"  no winner ever    {percent(summary.no_winner)}")
        rounds = summary.game_rounds
        assert rounds is not None  # several seats with a distribution: computed
        label = f"{rounds:.4f}" if math.isfinite(rounds) else "infinite"
        lines.append(f"  game rounds       {label} (expected, until the first seat finishes)")
    lines.extend(accuracy_lines(summary, visits))
    if distribution and summary.bars is not None:
        lines.append("")
        lines.append("  finishing turn    share of games")
        lines.extend(histogram(summary.bars))
    if visits:
        lines.append("")
        lines.extend(visits_lines(summary))
    return "\n".join(lines)


EXACT_DECIMALS = 20
"""Decimals ``snl analyze --exact`` shows of each fraction by default."""
SHORT_FRACTION = 40
"""A fraction written in at most this many characters is shown whole by default."""


def truncated_decimals(value: Fraction, digits: int) -> str:
    """``value``'s first ``digits`` decimals, cut (not rounded), with "..." when more
    follow: the digits shown are the fraction's own."""
    from .exact import integer_text

    if value.denominator == 1:
        return integer_text(value.numerator)
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**digits
    whole = scaled.numerator // scaled.denominator
    text = integer_text(whole).rjust(digits + 1, "0")
    shown = f"{text[:-digits]}.{text[-digits:]}" if digits else text
    more = "..." if scaled.denominator != 1 else ""
    return f"{sign}{shown}{more}"


def exact_report(
    board: Board, players: int, digits: int | None = EXACT_DECIMALS
) -> tuple[list[str], dict[str, object]]:
    """``snl analyze --exact``: (the text lines, the JSON object) of the expected turns
    and the seats' win chances as exact fractions.

    Text: each figure's first ``digits`` decimals (cut, not rounded) and, for a long
    fraction, how many digits its numerator and denominator have; a short fraction is
    shown whole. ``digits=None`` (``--digits all``) writes every digit of every fraction.
    The JSON always holds every digit. Each figure says which game it describes: the
    expected turns are a one-player game's; win chances are the table of ``players``
    (one player has none: that player always wins).

    Raises ``AnalysisError`` (one line) for a board past 12 x 12. More seats than exact
    fractions reach on the board (``exact.seats_out_of_reach``): the expected turns stay
    a fraction, the win chances are the floating-point analysis's with its error bound,
    and a note says why (JSON: ``win_chances`` null, ``win_chances_float``,
    ``win_chances_error`` and ``left_out``)."""
    from .analysis import analyze
    from .exact import (
        check_exact,
        decimal_text,
        exact_expected_turns,
        exact_win_chances,
        fraction_text,
        seats_out_of_reach,
    )

    check_exact(board, 1)  # the board's size: at most 12 x 12
    expected = exact_expected_turns(board)
    why = seats_out_of_reach(board, players) if players > 1 else None
    wins = exact_win_chances(board, players) if why is None and players > 1 else None
    name = board.name or "board"
    lines = [f"{name} ({board.rows}x{board.cols}): exact fractions, random play"]
    shown = EXACT_DECIMALS if digits is None else digits

    def figure(label: str, value: Fraction, indent: str = "  ") -> None:
        text = fraction_text(value)
        lines.append(f"{indent}{label:<18}{truncated_decimals(value, shown)}")
        pad = " " * (len(indent) + 18)
        if digits is None or len(text) <= SHORT_FRACTION:
            lines.append(f"{pad}= {text}")
            return
        top, bottom = (len(part) for part in text.split("/"))
        lines.append(f"{pad}(a fraction of {top:,} digits over {bottom:,}; --digits all prints it)")

    if expected is None:
        lines.append("  one player: expected turns infinite (some games never finish)")
    else:
        lines.append("  one player (a game alone):")
        figure("expected turns", expected, "    ")
    data: dict[str, object] = {
        "expected_turns": None if expected is None else fraction_text(expected),
        "expected_turns_decimal": None if expected is None else decimal_text(expected),
        "players": players,
    }
    if players == 1:
        data["win_chances"] = ["1"]
        data["win_chances_decimal"] = [decimal_text(Fraction(1))]
        return lines, data
    lines.append(f"  {players} players in turn order (seat 1 rolls first):")
    if wins is not None:
        for seat, chance in enumerate(wins, start=1):
            figure(f"seat {seat} wins", chance, "    ")
        data["win_chances"] = [fraction_text(chance) for chance in wins]
        data["win_chances_decimal"] = [decimal_text(chance) for chance in wins]
        return lines, data
    analysis = analyze(board, players=players)
    floats = analysis.win_chances
    error = analysis.accuracy_of("win_chances").error
    bound = f"within {max(error, 1e-15):.0e}"
    for seat, value in enumerate(floats, start=1):
        label = f"seat {seat} wins"
        lines.append(f"    {label:<18}{value:.15f}  (floating point, {bound})")
    note = f"note: win chances not as fractions: {why}"
    lines.extend(textwrap.wrap(note, width=92, initial_indent="  ", subsequent_indent="    "))
    data.update(
        win_chances=None,
        win_chances_decimal=None,
        win_chances_float=floats,
        win_chances_error=error,
        left_out={"win_chances": why},
    )
    return lines, data


def visits_lines(summary: Summary) -> list[str]:
    """'square  expected turns begun there', one line per square a game visits."""
    counts = summary.visits
    if counts is None:
        return ["  visits per square: not finite (some games never finish)"]
    lines = ["  square  expected turns begun there (one player)"]
    for square, count in enumerate(counts):
        if count > 0:
            label = "start" if square == 0 else str(square)
            lines.append(f"  {label:>6}  {count:.4f}")
    return lines
