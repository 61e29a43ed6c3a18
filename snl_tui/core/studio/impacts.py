"""What each snake and ladder does to the expected game length (``snl check``'s notes).

For every jump: the expected turns from the start with the board minus that jump, and
the difference. One shared factorisation serves all of them: removing a jump changes the
per-roll matrix in a couple of columns, so each jump costs a low-rank (Woodbury) update,
not a fresh solve of the whole board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..board import Board, JumpKind
from ..odds.markov import Chain, chain_of, expected_from_table
from ..odds.model import TurnModel, idle_jumps

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called as the jumps are worked through."""


@dataclass(frozen=True)
class JumpImpact:
    """How one snake or ladder changes the expected game length from the start.

    ``delta`` = expected turns with the jump minus without it: negative means the jump
    shortens the game. A ladder can lengthen it (it may skip past a better ladder or
    land next to a snake); ``lengthens`` says so. ``nan`` when the game may never end
    with or without the jump.
    """

    start: int
    end: int
    kind: JumpKind
    expected_turns_without: float
    delta: float
    fires: bool = True
    """False when no game from the start ever lands on the jump's start."""

    @property
    def lengthens(self) -> bool:
        return self.delta > 0

    def describe(self) -> str:
        """'ladder 80->100 shortens the game by 3.21 turns' and the like."""
        name = f"{self.kind} {self.start}->{self.end}"
        delta = self.delta
        if not self.fires:
            return f"{name} never fires in a game: removing it changes nothing"
        if math.isnan(delta):
            return f"{name}: the game may never end, with or without it"
        if delta == math.inf:
            return f"{name} can make the game endless (without it every game ends)"
        if delta == -math.inf:
            return f"{name} rescues the game: without it some games never end"
        if abs(delta) < 0.005:
            return f"{name} barely changes the game length ({delta:+.4f} turns)"
        # Capitals mark the surprise: a ladder that lengthens, a snake that shortens.
        if delta < 0:
            verb = "SHORTENS" if self.kind == "snake" else "shortens"
            return f"{name} {verb} the game by {-delta:.2f} turns"
        verb = "LENGTHENS" if self.kind == "ladder" else "lengthens"
        return f"{name} {verb} the game by {delta:.2f} turns"


def jump_impacts(board: Board, progress: Progress | None = None) -> list[JumpImpact]:
    """For each jump in square order, the expected game length without it.

    The board minus one jump lands as the engine says (the turn model reads its landing
    table: chains and overshoot behave as in play). Removing a jump changes the turn
    table in a few rows (those that counted onto its start), so with the base board
    factorised once each jump is a small Woodbury update (``odds.update``). Where the
    update does not apply (the jump's removal lets a game reach a square the base board
    never finishes from, or the start does not finish surely) the expectation is solved
    directly over the squares that finish surely.

    Kept with the board's chain (``snl check`` asks twice: for its notes and for the
    games' length), so a second call is a copy of the first one's answer.
    """
    chain = chain_of(board)
    known = _KNOWN.get(chain)
    if known is None:
        known = tuple(_worked_out(board, chain, progress))
        _KNOWN[chain] = known
    return list(known)


_KNOWN: WeakKeyDictionary[Chain, tuple[JumpImpact, ...]] = WeakKeyDictionary()
"""Each chain's jump effects (a chain is its board's, and cleared with the odds cache)."""


def _worked_out(board: Board, chain: Chain, progress: Progress | None) -> list[JumpImpact]:
    start = board.rules.start_position
    with_all = float(chain.expected[start])
    model = TurnModel.of(board)
    update = chain.expectation_update() if math.isfinite(with_all) else None
    jumps = board.jumps
    idle = {jump.start for jump in idle_jumps(board)}
    impacts = []
    for number, (origin, end) in enumerate(jumps.items()):
        table = model.table(
            model.landing_of_jumps([(a, b) for a, b in jumps.items() if a != origin])
        )
        without = update.expected_turns(table, start) if update is not None else None
        if without is None:
            without = expected_from_table(table, start)
        delta = math.nan if math.isinf(with_all) and math.isinf(without) else with_all - without
        kind: JumpKind = "ladder" if end > origin else "snake"
        impacts.append(JumpImpact(origin, end, kind, without, delta, origin not in idle))
        if progress is not None:
            progress(number + 1, len(jumps))
    return impacts
