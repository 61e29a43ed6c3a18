"""Rule options of a game (SPEC 1, 12). The defaults give LeetCode 909 semantics.

Each option is one field of ``Rules`` and its metadata (``RuleOption``): its words, its
values, its default, its help, its key in a board file and how the rules line says it.
That is the one source the command line's options, the board formats, the editor's form,
the generate dialog, the rules line under the board and the help are built from, so a new
rule is a field here and what it does in the engine (and nothing else).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from .errors import RulesError
from .text import quote

Overshoot = Literal["stay", "bounce", "finish"]
OVERSHOOT_VALUES: tuple[str, ...] = ("stay", "bounce", "finish")
MIN_FACES = 2
MAX_FACES = 20


@dataclass(frozen=True)
class RuleOption:
    """What a person and a file see of one rule option."""

    name: str
    """The field's name, also its key in a board file ('six_again')."""
    label: str
    """Its name in a form ('Top face again')."""
    kind: type
    """bool, int or str."""
    default: Any
    values: tuple[Any, ...]
    """Every value it takes (for a number: MIN..MAX)."""
    help: str
    """One sentence for ``--help``, the editor and the help screen."""
    value_labels: Mapping[Any, str] = field(default_factory=dict)
    """How each value reads in a form (for the options that are not plain numbers)."""
    describe: Callable[[Rules], str | None] = field(default=lambda rules: None)
    """Its words in the rules line under the board (None: nothing to say)."""
    requires: str | None = None
    """Another (boolean) option that must be on for this one to be."""

    @property
    def flag(self) -> str:
        """The command-line flag: ``--six-again``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: object) -> None:
        """Raise RulesError when ``value`` is not one of this option's values."""
        if isinstance(value, str) and self.kind is not str:
            kind = "true or false" if self.kind is bool else "a number"
            raise RulesError(
                f"rule {self.name!r} must be {kind} without quotes, not the text {quote(value)}"
            )
        if type(value) is not self.kind or value not in self.values:
            raise RulesError(f"rule {self.name!r} must be {self.expected()}, not {quote(value)}")

    def expected(self) -> str:
        """'true or false', 'a whole number from 2 to 20', 'one of stay, bounce, finish'."""
        if self.kind is bool:
            return "true or false"
        if self.kind is int and len(self.values) > 2:
            return f"a whole number from {self.values[0]} to {self.values[-1]}"
        if self.kind is int:
            return " or ".join(str(v) for v in self.values)
        return "one of " + ", ".join(str(v) for v in self.values)


def _option(
    label: str,
    kind: type,
    default: Any,
    values: tuple[Any, ...],
    help: str,
    **extra: Any,
) -> Any:
    """A ``Rules`` field carrying its ``RuleOption`` (the name is filled in later)."""
    option = RuleOption("", label, kind, default, values, help, **extra)
    return field(default=default, metadata={"option": option})


def _overshoot_words(rules: Rules) -> str:
    return {
        "stay": "exact finish",
        "bounce": "bounce back from the goal",
        "finish": "any roll past the goal wins",
    }[rules.overshoot]


def _again_words(rules: Rules) -> str | None:
    if not rules.six_again:
        return None
    article = "an" if rules.faces in (8, 11, 18) else "a"
    return f"{article} {rules.faces} rolls again"


@dataclass(frozen=True)
class Rules:
    """How a move works. Validated on construction: a bad value raises RulesError."""

    start: int = _option(
        "Start",
        int,
        1,
        (0, 1),
        "1: the token starts on square 1; 0: it starts off the board",
        value_labels={1: "on square 1", 0: "off the board"},
        describe=lambda r: "start off the board" if r.start == 0 else "start on square 1",
    )
    overshoot: Overshoot = _option(
        "Overshoot",
        str,
        "stay",
        OVERSHOOT_VALUES,
        "a roll past the goal: stay (exact finish), bounce back, or finish anyway",
        value_labels={
            "stay": "stay (exact finish)",
            "bounce": "bounce back",
            "finish": "finish anyway",
        },
        describe=_overshoot_words,
    )
    chain: bool = _option(
        "Chain jumps",
        bool,
        False,
        (False, True),
        "follow jumps until a square with none",
        describe=lambda r: "jumps chain" if r.chain else None,
    )
    faces: int = _option(
        "Die faces",
        int,
        6,
        tuple(range(MIN_FACES, MAX_FACES + 1)),
        f"sides of the die ({MIN_FACES}..{MAX_FACES})",
        describe=lambda r: f"{r.faces}-sided die",
    )
    six_again: bool = _option(
        "Top face again",
        bool,
        False,
        (False, True),
        "the highest face earns another roll",
        describe=_again_words,
    )
    three_sixes: bool = _option(
        "3 tops cancel",
        bool,
        False,
        (False, True),
        "with six-again: the highest face rolled three times in a row cancels the turn "
        "(the token goes back to where the turn began)",
        describe=lambda r: "three in a row go back" if r.three_sixes else None,
        requires="six_again",
    )

    def __post_init__(self) -> None:
        for option in RULE_OPTIONS:
            option.check(getattr(self, option.name))
        for option in RULE_OPTIONS:
            if (
                option.requires
                and getattr(self, option.name)
                and not getattr(self, option.requires)
            ):
                raise RulesError(f"rule {option.name!r} needs {option.requires!r} on")

    @property
    def start_position(self) -> int:
        """Where a token begins: square 1, or 0 meaning off the board."""
        return self.start

    def describe(self) -> str:
        """The rules in a few words: 'start off the board · exact finish · 6-sided die'."""
        words = (option.describe(self) for option in RULE_OPTIONS)
        return " · ".join(word for word in words if word)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new value)."""
        unknown = set(changes) - set(RULE_NAMES)
        if unknown:
            raise RulesError(f"unknown rule {quote(sorted(unknown)[0])}; known rules: {_known()}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def non_default(self) -> dict[str, Any]:
        """The options that differ from the defaults (what a board file needs to say)."""
        return {k: v for k, v in self.to_dict().items() if OPTIONS[k].default != v}

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], base: Rules | None = None) -> Rules:
        """Rules from a ``[rules]`` table: unknown names and bad values raise RulesError.

        Accepts ``six-again`` as a spelling of ``six_again`` and any case of the
        ``overshoot`` words. Every value has its own type, as a TOML or JSON file writes
        it: a number for ``start``/``faces`` (not ``"0"``, not ``3.0``), true/false for
        the switches (not ``"true"``). The text format's ``# rules:`` line is read into
        those types before it gets here.
        """
        if not isinstance(mapping, Mapping):
            raise RulesError("'rules' must be a table of rule options")
        values: dict[str, Any] = {}
        for raw_name, raw_value in mapping.items():
            name = str(raw_name).replace("-", "_")
            if name not in OPTIONS:
                raise RulesError(f"unknown rule {quote(raw_name)}; known rules: {_known()}")
            values[name] = _coerce(name, raw_value)
        return replace(base or cls(), **values)


def _collect() -> tuple[RuleOption, ...]:
    options = []
    for rule_field in fields(Rules):
        option: RuleOption = rule_field.metadata["option"]
        options.append(replace(option, name=rule_field.name))
    return tuple(options)


RULE_OPTIONS: tuple[RuleOption, ...] = _collect()
"""Every rule option, in the order files, forms and help list them."""
OPTIONS: dict[str, RuleOption] = {option.name: option for option in RULE_OPTIONS}
RULE_NAMES: tuple[str, ...] = tuple(OPTIONS)


def _known() -> str:
    return ", ".join(RULE_NAMES)


def _coerce(name: str, value: Any) -> Any:
    """The one lenient spelling: the overshoot word in any case. Other values go to the
    constructor as they are, which refuses a string where a number or true/false is
    due (``start = "0"`` is refused like ``faces = 6.0``)."""
    if name == "overshoot" and isinstance(value, str):
        return value.strip().lower()
    return value
