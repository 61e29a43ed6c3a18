"""Every check of ``snl check`` (SPEC 2 and SPEC 6), in one place, as findings.

A ``Finding`` is a small value (what kind, which squares, a message) that the CLI prints
and an editor can show live. ``board_findings`` holds the checks on the board alone
(unreachable goal, a jump on square 1 under start = 1, snake walls, jumps ending where
another starts); ``odds_findings`` adds those that need the Markov chain (jumps that never
fire, traps) and ``check_board`` returns both plus the notes on what each jump does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..board import Board, Jump
from ..engine import idle_jumps, reachable_positions
from ..solver import solve
from ..text import percent, place, runs, square_ranges, turns_text

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as the per-jump impacts are worked through."""

FindingKind = Literal[
    "unreachable-goal",
    "jump-on-square-one",
    "snake-wall",
    "jump-meets-jump",
    "idle-jump",
    "trap",
    "odds-unavailable",
    "jump-hides",
]


@dataclass(frozen=True)
class Finding:
    """One thing ``snl check`` says about a board: ``kind``, the ``squares`` concerned
    (sorted, 0 = off the board) and a one-line ``message``."""

    kind: FindingKind
    squares: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class CheckReport:
    """``snl check``'s whole answer: warnings (exit 1 when any) and notes."""

    warnings: tuple[Finding, ...]
    notes: tuple[str, ...]


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
    """Jumps that, drawn on the page and the screen, still hide another jump's head or
    foot or a square's number: no route the geometry tried misses them all."""
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

    chain = chain_of(board)
    reachable = reachable_positions(board)
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
    notes = [f"expected game length: {turns_text(expected)}; what each jump does to it:"]
    notes.extend(f"  {impact.describe()}" for impact in jump_impacts(board, progress))
    return warnings, notes


def check_board(
    board: Board, progress: Progress | None = None, *, drawing: bool = False
) -> CheckReport:
    """Everything ``snl check`` says: the board's findings, with ``drawing`` where its
    drawn jumps hide a number or another jump's end (routing them takes a while on a big
    board: ``snl check`` asks for it), then the odds' ones."""
    odds_warnings, notes = odds_findings(board, progress)
    drawn = drawing_findings(board) if drawing else []
    return CheckReport((*board_findings(board), *drawn, *odds_warnings), tuple(notes))
