"""Rule options of a game (SPEC 1). The defaults give LeetCode 909 semantics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .errors import RulesError
from .text import quote

Overshoot = Literal["stay", "bounce", "finish"]
OVERSHOOT_VALUES: tuple[str, ...] = ("stay", "bounce", "finish")
MIN_FACES = 2
MAX_FACES = 20

RULE_HELP: dict[str, str] = {
    "start": "1: the token starts on square 1; 0: it starts off the board",
    "overshoot": "stay (exact finish), bounce (count back from the goal) or finish",
    "chain": "true: keep following jumps until a square with none",
    "faces": f"sides of the die, {MIN_FACES}..{MAX_FACES}",
    "six_again": "true: rolling the die's highest face grants another roll",
}


@dataclass(frozen=True)
class Rules:
    """How a move works. Validated on construction: a bad value raises RulesError."""

    start: int = 1
    overshoot: Overshoot = "stay"
    chain: bool = False
    faces: int = 6
    six_again: bool = False

    def __post_init__(self) -> None:
        for option in ("start", "faces", "chain", "six_again"):
            value = getattr(self, option)
            if isinstance(value, str):  # "0" or "true" from a file: say why it is refused
                kind = "true or false" if option in ("chain", "six_again") else "a number"
                raise RulesError(
                    f"rule {option!r} must be {kind} without quotes, not the text {quote(value)}"
                )
        if type(self.start) is not int or self.start not in (0, 1):
            raise RulesError(f"rule 'start' must be 0 or 1, not {quote(self.start)}")
        if self.overshoot not in OVERSHOOT_VALUES:
            raise RulesError(
                f"rule 'overshoot' must be one of {', '.join(OVERSHOOT_VALUES)}, "
                f"not {quote(self.overshoot)}"
            )
        if type(self.chain) is not bool:
            raise RulesError(f"rule 'chain' must be true or false, not {quote(self.chain)}")
        if type(self.faces) is not int or not MIN_FACES <= self.faces <= MAX_FACES:
            raise RulesError(
                f"rule 'faces' must be a whole number from {MIN_FACES} to {MAX_FACES}, "
                f"not {quote(self.faces)}"
            )
        if type(self.six_again) is not bool:
            raise RulesError(f"rule 'six_again' must be true or false, not {quote(self.six_again)}")

    @property
    def start_position(self) -> int:
        """Where a token begins: square 1, or 0 meaning off the board."""
        return self.start

    def describe(self) -> str:
        """The rules in a few words: 'start off the board · exact finish · 6-sided die'."""
        parts = [
            "start off the board" if self.start == 0 else "start on square 1",
            {
                "stay": "exact finish",
                "bounce": "bounce back from the goal",
                "finish": "any roll past the goal wins",
            }[self.overshoot],
        ]
        if self.chain:
            parts.append("jumps chain")
        parts.append(f"{self.faces}-sided die")
        if self.six_again:
            article = "an" if self.faces in (8, 11, 18) else "a"
            parts.append(f"{article} {self.faces} rolls again")
        return " · ".join(parts)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new value)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise RulesError(f"unknown rule {quote(sorted(unknown)[0])}; known rules: {_known()}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def non_default(self) -> dict[str, Any]:
        """The options that differ from the defaults (what a board file needs to say)."""
        default = Rules()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], base: Rules | None = None) -> Rules:
        """Rules from a ``[rules]`` table: unknown names and bad values raise RulesError.

        Accepts ``six-again`` as a spelling of ``six_again`` and any case of the
        ``overshoot`` words. Every value has its own type, as a TOML or JSON file writes
        it: a number for ``start``/``faces`` (not ``"0"``, not ``3.0``), true/false for
        ``chain``/``six_again`` (not ``"true"``). The text format's ``# rules:`` line is
        read into those types before it gets here.
        """
        if not isinstance(mapping, Mapping):
            raise RulesError("'rules' must be a table of rule options")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for raw_name, raw_value in mapping.items():
            name = str(raw_name).replace("-", "_")
            if name not in known:
                raise RulesError(f"unknown rule {quote(raw_name)}; known rules: {_known()}")
            values[name] = _coerce(name, raw_value)
        return replace(base or cls(), **values)


def _known() -> str:
    return ", ".join(f.name for f in fields(Rules))


def _coerce(name: str, value: Any) -> Any:
    """The one lenient spelling: the overshoot word in any case. Other values go to the
    constructor as they are, which refuses a string where a number or true/false is
    due (``start = "0"`` is refused like ``faces = 6.0``)."""
    if name == "overshoot" and isinstance(value, str):
        return value.strip().lower()
    return value
