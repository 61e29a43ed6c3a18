"""Starter boards for the editor (``snl edit --template NAME``): a designer begins from a
board made for a purpose instead of an empty grid, then edits it with the numbers in view.
Each is checked like any board (valid, no warnings: ``tests/unit/test_templates.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board
from ..rules import Rules


@dataclass(frozen=True)
class Template:
    name: str
    summary: str
    """What it is for, in a few words (``snl edit --help``)."""
    rows: int
    ladders: tuple[tuple[int, int], ...]
    snakes: tuple[tuple[int, int], ...]
    rules: Rules

    def board(self, name: str | None = None) -> Board:
        """The starter board (named ``name``, else after the template)."""
        return Board.from_jumps(
            self.rows,
            self.rows,
            ladders=list(self.ladders),
            snakes=list(self.snakes),
            rules=self.rules,
            name=name or f"{self.name.capitalize()} board",
            description=self.summary[:1].upper() + self.summary[1:] + ".",
        )


TEMPLATES: dict[str, Template] = {
    template.name: template
    for template in (
        Template(
            "toddler",
            "short games for small children: a small board, a few short snakes, and any "
            "roll that reaches the goal wins",
            6,
            ((3, 15), (8, 20), (14, 27)),
            ((18, 10), (32, 25)),
            Rules(start=0, overshoot="finish"),
        ),
        Template(
            "classroom",
            "a fair 10x10 for a class taking turns: the classic rules, a steady mix of "
            "ladders and snakes",
            10,
            ((4, 25), (13, 46), (27, 53), (42, 63), (50, 69), (62, 81), (74, 92)),
            ((30, 11), (47, 26), (56, 37), (73, 52), (87, 57), (95, 75), (99, 80)),
            Rules(start=0),
        ),
        Template(
            "puzzle",
            "a puzzle to set: the player chooses every roll; snl solve --count tells "
            "whether its answer is unique",
            8,
            ((5, 27), (12, 40), (29, 50)),
            ((44, 22), (55, 34), (61, 43)),
            Rules(),
        ),
        Template(
            "race",
            "a fast, noisy race: many ladders, the top face rolls again, and any roll "
            "past the goal wins",
            10,
            ((2, 23), (8, 34), (20, 41), (32, 51), (45, 66), (58, 79), (70, 88)),
            ((48, 30), (64, 44), (83, 63), (97, 78)),
            Rules(overshoot="finish", six_again=True),
        ),
    )
}
