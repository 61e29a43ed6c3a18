"""Every check of ``snl check`` (SPEC 2 and SPEC 6), in one place, as findings.

A ``Finding`` is a small value (what kind, which squares, a message) that the CLI prints
and an editor can show live. ``board_findings`` holds the checks on the board alone
(unreachable goal, a jump on square 1 under start = 1, snake walls, jumps ending where
another starts); ``odds_findings`` adds those that need the Markov chain (jumps that never
fire, traps), ``drawing_findings`` what the drawn jumps hide, and ``check_board`` puts
them all together within ``core.limits``' bounds, with the notes on what each jump does
and the notes on the board's looks (``looks``). Every error of a file that does not load:
``file_errors``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..board import Board, Jump
from ..limits import (
    CHECK_DRAWING_MAX_JUMPS,
    CHECK_DRAWING_MAX_SQUARES,
    CHECK_IMPACTS_MAX_WORK,
    CHECK_ODDS_MAX_SQUARES,
    check_drawing_fits,
    check_impacts_fit,
    check_odds_fits,
    size_text,
)
from ..solver import solve
from ..text import percent, place, runs, square_ranges, turns_text
from .findings import Finding, FindingKind

__all__ = ["CheckReport", "Finding", "FindingKind", "check_board"]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as the per-jump impacts are worked through."""


@dataclass(frozen=True)
class CheckReport:
    """``snl check``'s whole answer: warnings (exit 1 when any), notes and the notes on
    the board's looks (``looks.look_findings``: jumps within a row, twins), which a
    designer reviews but a board may keep (classic's snake 56 -> 53 stays in its row)."""

    warnings: tuple[Finding, ...]
    notes: tuple[str, ...]
    looks: tuple[Finding, ...] = ()


# -- on the board alone ----------------------------------------------------------------


def board_findings(board: Board) -> list[Finding]:
    """What is legal but probably unintended (SPEC 2), one finding each."""
    findings: list[Finding] = []
    if solve(board).moves < 0:
        # Traps (squares a token can reach but never leave for the goal) are the odds'
        # business: ``odds_findings`` adds them with the share of games that never end.
        start = board.rules.start_position
        findings.append(
            Finding(
                "unreachable-goal",
                (start, board.goal),
                f"the goal (square {board.goal}) cannot be reached from the start ({place(start)})",
            )
        )
    if board.rules.start == 1:
        jump = board.jump_at(1)
        if jump is not None:
            findings.append(
                Finding(
                    "jump-on-square-one",
                    (1,),
                    f"the {jump.kind} on square 1 (to {jump.end}) can never fire: tokens "
                    "start on square 1 (start = 1); use start = 0 to start off the board",
                )
            )
    faces = board.rules.faces
    for low, high in runs(sorted(jump.start for jump in board.snakes)):
        if high - low + 1 >= faces:
            findings.append(
                Finding(
                    "snake-wall",
                    tuple(range(low, high + 1)),
                    f"snake heads on squares {low}-{high} ({high - low + 1} in a row) form "
                    f"a wall: no roll of a {faces}-sided die gets past it without a ladder",
                )
            )
    jumps = board.jumps
    for start, end in jumps.items():
        if end in jumps:
            first = Jump(start, end)
            second = Jump(end, jumps[end])
            behaviour = (
                f"with chain = true the token goes on to {second.end}"
                if board.rules.chain
                else f"the token stops on {end} (it would go on to {second.end} with chain = true)"
            )
            findings.append(
                Finding(
                    "jump-meets-jump",
                    (start, end),
                    f"the {first.kind} {start} -> {end} ends where the {second.kind} "
                    f"{end} -> {second.end} starts: {behaviour}",
                )
            )
    return findings


def drawing_findings(board: Board) -> list[Finding]:
    """Jumps that, drawn on the page and the screen, hide another jump's head or foot, a
    square's number (in every corner of its square) or run off the board: no route the
    geometry tried avoids it. None for a board past ``limits.check_drawing_fits`` (its
    routing is not worth the wait: ``check_board`` says so in a note)."""
    if not check_drawing_fits(board):
        return []
    from ..geometry import overlaps  # the routing loads only for a full check

    return [
        Finding(
            "jump-hides",
            tuple(sorted((overlap.jump.start, overlap.jump.end))),
            f"the {overlap.jump.kind} {overlap.jump.start} -> {overlap.jump.end} is drawn over "
            f"{', '.join(overlap.hidden)}: no route misses them (move a jump's end)",
        )
        for overlap in overlaps(board)
    ]


def board_warnings(board: Board) -> list[str]:
    """The messages of ``board_findings`` (the shape older callers know)."""
    return [finding.message for finding in board_findings(board)]


# -- with the odds of random play -------------------------------------------------------


@dataclass(frozen=True)
class Traps:
    """Where a game from the start can get stuck.

    ``doomed``: reachable squares from which the goal can never be reached. ``risky``:
    reachable squares from which it is reached with a probability strictly below 1.
    ``never_finishes``: the chance a token starting the game never finishes.
    """

    doomed: tuple[int, ...]
    risky: tuple[int, ...]
    never_finishes: float

    def __bool__(self) -> bool:
        return bool(self.doomed or self.risky)


def find_traps(board: Board) -> Traps:
    """The doomed and risky squares a game can reach, and the share never finishing."""
    from ..odds.markov import chain_of  # numpy loads only for the odds
    from ..odds.model import resting_positions

    chain = chain_of(board)
    reachable = resting_positions(board)
    doomed = tuple(p for p in sorted(reachable) if chain.doomed[p])
    risky = tuple(p for p in sorted(reachable) if chain.risky[p])
    start = board.rules.start_position
    return Traps(doomed, risky, 1.0 - float(chain.finish_probability[start]))


def odds_warnings(board: Board) -> list[Finding]:
    """The warnings that need the odds of random play: jumps that never fire in a game
    (except one on square 1 under start = 1, which ``board_findings`` already names) and
    traps, with the share of games that never finish. None for a board too large to
    analyse (``odds_findings`` says why in a note)."""
    from ..odds.markov import AnalysisError, chain_of  # numpy loads only for the odds
    from ..odds.model import idle_jumps

    try:
        chain_of(board)
    except AnalysisError:
        return []
    warnings = []
    for jump in idle_jumps(board):
        if jump.start == 1 and board.rules.start == 1:
            continue
        warnings.append(
            Finding(
                "idle-jump",
                (jump.start,),
                f"the {jump.kind} {jump.start} -> {jump.end} never fires in a game",
            )
        )
    traps = find_traps(board)
    if traps.doomed:
        risky = ""
        if traps.risky:
            risky = f" (a token on {square_ranges(traps.risky)} may fall into it)"
        warnings.append(
            Finding(
                "trap",
                tuple(sorted({*traps.doomed, *traps.risky})),
                f"trap: {percent(traps.never_finishes, 2)} of games never finish; the goal "
                f"cannot be reached from {square_ranges(traps.doomed)}{risky}",
            )
        )
    return warnings


def odds_findings(
    board: Board, progress: Progress | None = None
) -> tuple[list[Finding], list[str]]:
    """The checks that need the odds of random play: (warnings, notes).

    Warnings: ``odds_warnings``. Notes: how each jump changes the expected game length.
    A board too large to analyse gets a note instead. ``progress(done, total)`` follows
    the jumps.
    """
    from ..odds.markov import AnalysisError, chain_of  # numpy loads only for the odds
    from .impacts import jump_impacts

    try:
        chain = chain_of(board)
    except AnalysisError as error:
        return [], [f"odds not computed: {error}"]
    warnings = odds_warnings(board)
    expected = float(chain.expected[board.rules.start_position])
    if not board.jumps:
        return warnings, [f"expected game length: {turns_text(expected)}"]
    notes = [f"expected game length: {turns_text(expected)}; what each jump does to it:"]
    notes.extend(f"  {impact.describe()}" for impact in jump_impacts(board, progress))
    return warnings, notes


def check_board(
    board: Board, progress: Progress | None = None, *, drawing: bool = False
) -> CheckReport:
    """Everything ``snl check`` says, within ``core.limits``' bounds (the one place it is
    put together). Warnings: the board's own findings, a dull board (``looks``), the
    odds' (jumps that never
    fire, traps with the share of games that never end), the designer's review
    (``design_findings``) and, with ``drawing``, where the drawn jumps hide a number or
    another jump's end (``drawing_findings``). Notes: what each jump does to the
    expected game length. A board past a bound gets what fits and a note naming what
    was left out. Looks: jumps that stay in a row, twins (``looks.look_findings``) and,
    with ``drawing``, drawn jumps running close (``looks.drawn_look_findings``).
    ``progress(done, total)`` follows the jumps' impacts."""
    from .looks import (
        LOOKS_MAX_JUMPS,
        drawn_look_findings,
        dull_findings,
        look_findings,
        looks_fit,
    )

    warnings = [*board_findings(board), *dull_findings(board)]
    looks = tuple(look_findings(board))
    notes: list[str] = []
    if not looks_fit(board):
        notes.append(
            f"looks left out (jumps within a row, twins): {len(board.jumps):,} jumps "
            f"(at most {LOOKS_MAX_JUMPS:,})"
        )
    if drawing:
        if check_drawing_fits(board):
            drawn = drawing_findings(board)
            looks = (*looks, *drawn_look_findings(board))
        else:
            drawn = []
            notes.append(
                f"drawing: what the drawn jumps hide left out: {len(board.jumps):,} jumps on "
                f"{size_text(board)} (at most {CHECK_DRAWING_MAX_JUMPS} jumps on "
                f"{CHECK_DRAWING_MAX_SQUARES:,} squares)"
            )
    else:
        drawn = []
    if not check_odds_fits(board):
        notes.append(
            "odds checks left out (jumps that never fire, traps, the design review, "
            f"what each jump does): {size_text(board)} is more than "
            f"{CHECK_ODDS_MAX_SQUARES:,}; 'snl analyze' gives the expected game length"
        )
        return CheckReport((*warnings, *drawn), tuple(notes), looks)
    if not check_impacts_fit(board):
        odds = odds_warnings(board)
        notes.append(
            f"what each jump does to the game's length left out: {len(board.jumps):,} jumps "
            f"on {board.goal:,} squares (at most {CHECK_IMPACTS_MAX_WORK:,} jumps x squares)"
        )
    else:
        odds, impacts = odds_findings(board, progress)
        notes += impacts
    design = design_findings(board)
    return CheckReport((*warnings, *odds, *design, *drawn), tuple(notes), looks)


# -- a designer's review: what plays badly, and what the drawing hides -------------------

LONG_GAMES = 4.0
"""Games this many times longer than on the same board without jumps: nobody finishes."""
SHORT_GAMES = 0.3
"""Games this share of the jump-free board's length or less: over before they start."""
DRAWN_NEAR = 0.3
"""A jump's end closer than this (in squares) to another jump's line is hidden by it."""


def _distance_to_segment(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    cx, cy = ax + t * dx, ay + t * dy
    return float(((px - cx) ** 2 + (py - cy) ** 2) ** 0.5)


def drawn_over(board: Board, jumps: dict[int, int] | None = None) -> list[tuple[int, int, int]]:
    """(covering jump's start, covered jump's start, covered square): a jump's straight
    line, between the usual anchors (``geometry.anchors``), passes over another jump's
    head or foot, so a player cannot tell where that one starts or ends. ``jumps``
    (start -> end) defaults to the board's; the generator asks about its candidates
    this way. The generator's own quick test: the drawing's routing bends jumps and
    slides their ends round each other, and ``drawing_findings`` says what it still
    hides."""
    from ..geometry import anchors

    if jumps is None:
        jumps = board.jumps
    elif jumps != board.jumps:
        board = board.with_jumps(list(jumps.items()))
    points = anchors(board)
    found = []
    for start, end in jumps.items():
        a, b = points[start, start], points[start, end]
        for other, other_end in jumps.items():
            if other == start:
                continue
            for square in (other, other_end):
                if square in (start, end):
                    continue  # meeting on a square is "jump-meets-jump", not hiding
                if _distance_to_segment(points[other, square], a, b) < DRAWN_NEAR:
                    found.append((start, other, square))
    return found


def overlap_findings(board: Board) -> list[Finding]:
    """One finding per jump end hidden under another jump's drawing."""
    findings = []
    jumps = board.jumps
    for start, other, square in drawn_over(board):
        covering, covered = Jump(start, jumps[start]), Jump(other, jumps[other])
        part = ("foot" if covered.kind == "ladder" else "head") if square == other else "end"
        findings.append(
            Finding(
                "drawn-over",
                tuple(sorted({start, other, square})),
                f"the {covering.kind} {start} -> {covering.end} is drawn over the {part} of "
                f"the {covered.kind} {other} -> {covered.end} (square {square}): players "
                "cannot see where that one goes",
            )
        )
    return findings


def snake_traps(board: Board) -> list[Finding]:
    """Half or more of one roll's squares are snake heads that fall a quarter of the
    board or more: a token before them goes back most of the time."""
    faces, goal = board.rules.faces, board.goal
    heads = {jump.start: jump.end for jump in board.snakes}
    need = max(2, -(-faces // 2))
    findings: list[Finding] = []
    low = 1
    while low <= goal - 1:
        window = [s for s in range(low, min(goal, low + faces)) if s in heads]
        if window and window[0] != low:
            low = window[0]  # windows start on a head: the trap's own first square
            continue
        falls = [s - heads[s] for s in window]
        if len(window) >= need and sum(falls) / len(falls) >= goal / 4:
            first, last = window[0], window[-1]
            ends = sorted({heads[s] for s in window})
            to = (
                "square " + str(ends[0])
                if len(ends) == 1
                else "squares " + ", ".join(map(str, ends))
            )
            findings.append(
                Finding(
                    "snake-trap",
                    tuple(window),
                    f"snake trap on {first}-{last}: {len(window)} of the {faces} squares one "
                    f"roll from {first - 1} reaches are snakes back to {to} "
                    f"({sum(falls) / len(falls):.0f} squares down on average)",
                )
            )
            low = last + 1
        else:
            low += 1
    return findings


def length_findings(board: Board) -> list[Finding]:
    """Games far longer or shorter than the same board without jumps, with the figures
    and the jumps that do the most."""
    from ..odds.markov import AnalysisError, chain_of
    from .impacts import jump_impacts

    try:
        chain = chain_of(board)
        plain_chain = chain_of(Board(board.rows, board.cols, rules=board.rules))
    except AnalysisError:
        return []
    start = board.rules.start_position
    expected = float(chain.expected[start])
    plain = float(plain_chain.expected[start])
    if not (expected < float("inf") and plain < float("inf")) or plain <= 0:
        return []
    ratio = expected / plain
    if not (ratio >= LONG_GAMES or ratio <= SHORT_GAMES):
        return []  # the jumps' effects only name the ones that do the most: not needed
    impacts = [impact for impact in jump_impacts(board) if impact.fires]
    findings: list[Finding] = []
    if ratio >= LONG_GAMES:
        worst = sorted((i for i in impacts if i.delta > 0), key=lambda i: -i.delta)[:3]
        blame = "; ".join(f"the {i.kind} {i.start} -> {i.end} adds {i.delta:.1f}" for i in worst)
        findings.append(
            Finding(
                "long-games",
                tuple(sorted(i.start for i in worst)),
                f"games are very long: {expected:.1f} expected turns, {ratio:.1f} times the "
                f"{plain:.1f} of this board without jumps" + (f" ({blame})" if blame else ""),
            )
        )
    if ratio <= SHORT_GAMES:
        best = sorted((i for i in impacts if i.delta < 0), key=lambda i: i.delta)[:3]
        blame = "; ".join(
            f"the {i.kind} {i.start} -> {i.end} takes {-i.delta:.1f} off" for i in best
        )
        findings.append(
            Finding(
                "short-games",
                tuple(sorted(i.start for i in best)),
                f"games are trivially short: {expected:.1f} expected turns, {ratio:.0%} of the "
                f"{plain:.1f} of this board without jumps" + (f" ({blame})" if blame else ""),
            )
        )
    return findings


def design_findings(board: Board) -> list[Finding]:
    """A designer's review beyond the rules: snake traps, games far too long or too
    short. (Jumps drawn over each other: the picture's
    own finding, where the drawing's routing is known; ``overlap_findings`` is the
    straight-line test the generator keeps its boards clear of.)"""
    return [*snake_traps(board), *length_findings(board)]
