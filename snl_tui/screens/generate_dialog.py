"""The editor's "Generate" dialog (SPEC 7): the generator's options in a form.

The search (``core.studio.generate``) runs in a thread worker: the dialog shows "searching…"
and still answers keys. A board that meets every target is returned with ``dismiss``; when
none is found the dialog stays open with the generator's one line (the closest figures
reached). Escape closes the dialog at any time and stops a running search (through the
generator's ``clock``, which it reads at every step to know when to give up); ctrl+c
stops a running search and keeps the dialog, with the closest board found so far
(where no search runs, ctrl+c is the field's copy, as in any Textual input). Returns
``Board | None``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..core.board import Board
from ..core.errors import SnlError
from ..core.rules import Rules
from ..core.studio.generate import (
    DEFAULT_TIME_LIMIT,
    DEFAULT_TOLERANCE,
    Figures,
    GenerateResult,
    Targets,
    generate,
)
from ..core.text import parse_decimal, parse_whole, plural, quote
from .dialog import Dialog

SEARCHING = "searching… (ctrl+c stops, escape stops and closes)"
CANDIDATES = 3
"""How many boards "3 candidates" looks for (seeds in a row), to choose one from."""
# (select id, label, off, on): the targets that are a yes or a no, in words.
SWITCHES: tuple[tuple[str, str, str, str], ...] = (
    ("last-row", "Snakes, top row", "allowed", "none"),
    ("unique", "Optimal routes", "any number", "one only"),
)

# (input id, label, input type, default text, placeholder)
FIELDS: tuple[tuple[str, str, str, str, str], ...] = (
    ("rows", "Rows", "integer", "", ""),
    ("cols", "Columns", "integer", "", ""),
    ("ladders", "Ladders", "integer", "", "any"),
    ("snakes", "Snakes", "integer", "", "any"),
    ("expected", "Expected turns", "number", "", "any"),
    ("tolerance", "± tolerance", "number", f"{DEFAULT_TOLERANCE:g}", ""),
    ("least", "Least rolls", "integer", "", "any"),
    ("players", "Players", "integer", "2", ""),
    ("edge", "Max seat-1 edge", "number", "", "any, e.g. 0.02"),
    ("within", "Games within", "integer", "", "turns, e.g. 25"),
    ("share", "... at least", "number", "", "share, e.g. 0.9"),
    ("jumps", "Jumps in all", "integer", "", "any"),
    ("longest", "Longest jump", "integer", "", "any"),
    ("safe", "Snake-free start", "integer", "", "squares, e.g. 10"),
    ("seed", "Seed", "integer", "", "new each time"),
    ("time", "Time limit (s)", "number", f"{DEFAULT_TIME_LIMIT:g}", ""),
)


class GenerateScreen(Dialog[Board | None]):
    """Enter generates; escape cancels (and stops a search)."""

    DEFAULT_CSS = """
    GenerateScreen {
        align: center middle;
    }
    GenerateScreen > #generate {
        width: 80;
        max-width: 95%;
        height: auto;
        max-height: 95%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    GenerateScreen .dialog-title {
        text-style: bold;
        color: $text-primary;
    }
    GenerateScreen #generate-form {
        grid-size: 4;
        grid-columns: 16 1fr 16 1fr;
        grid-rows: 1;
        grid-gutter: 0 1;  /* one field per line: the whole form fits at 80x24 */
        height: auto;
        margin: 1 0;
    }
    GenerateScreen #generate-status {
        color: $text-muted;
    }
    GenerateScreen #generate-status.-failed {
        color: $text-error;
        text-style: bold;
    }
    GenerateScreen #generate-candidates {
        display: none;
        height: auto;
        max-height: 5;
    }
    GenerateScreen #generate-candidates.-shown {
        display: block;
    }
    GenerateScreen .buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: center;
    }
    GenerateScreen .buttons Button {
        margin: 0 1;
    }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        # Before the focused field's ctrl+c (copy), which takes it when no search runs.
        Binding("ctrl+c", "stop", "Stop the search", show=False, priority=True),
    ]

    def __init__(
        self,
        rows: int = 10,
        cols: int = 10,
        rules: Rules | None = None,
        *,
        keep: tuple[tuple[int, int], ...] = (),
        max_steps: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``keep``: the jumps locked in the editor, kept as they are. ``max_steps`` bounds
        the search by work instead of time (tests)."""
        super().__init__()
        self.rows, self.cols = rows, cols
        self.keep = keep
        self.candidates: list[GenerateResult] = []
        """The boards found by "3 candidates", to choose from."""
        self.rules = rules if rules is not None else Rules()
        self.max_steps = max_steps
        self.clock = clock
        self.searching = False
        self.last_seed: int | None = None
        """The seed of the last search started (typed, or drawn when none was)."""
        self.stopped = False
        """Set by escape: the running search's clock then reads infinity and it gives up."""
        self.closed = False
        self.result: GenerateResult | None = None

    def compose(self) -> ComposeResult:
        defaults = {"rows": str(self.rows), "cols": str(self.cols)}
        with Vertical(id="generate"):
            yield Label("Generate a board", classes="dialog-title")
            with Grid(id="generate-form"):
                for key, label, kind, default, placeholder in FIELDS:
                    yield Label(label)
                    yield Input(
                        defaults.get(key, default),
                        placeholder=placeholder,
                        type=kind,  # type: ignore[arg-type]
                        compact=True,
                        id=f"gen-{key}",
                    )
                for key, label, off, on in SWITCHES:  # in words: readable without colour
                    yield Label(label)
                    yield Select(
                        [(off, False), (on, True)],
                        value=False,
                        allow_blank=False,
                        compact=True,
                        id=f"gen-{key}",
                    )
            kept = f" Keeps the {plural(len(self.keep), 'locked jump')}." if self.keep else ""
            yield Static(
                "Targets left empty are free." + kept + " Rules: " + self.rules.describe(),
                id="generate-status",
                markup=False,
            )
            yield OptionList(id="generate-candidates")
            with Horizontal(classes="buttons"):
                yield Button("Generate", id="generate-go", variant="primary")
                yield Button(f"{CANDIDATES} candidates", id="generate-three")
                yield Button("Cancel", id="generate-cancel")

    def on_mount(self) -> None:
        self.query_one("#gen-expected", Input).focus()

    # -- the form ---------------------------------------------------------------------

    def _value(self, key: str, kind: type[int] | type[float]) -> int | float | None:
        text = self.query_one(f"#gen-{key}", Input).value.strip()
        if not text:
            return None
        value = parse_whole(text) if kind is int else parse_decimal(text)
        if value is None:
            label = next(label for k, label, *_ in FIELDS if k == key)
            raise SnlError(f"{label}: {quote(text)} is not a number") from None
        return value

    def _switch(self, key: str) -> bool:
        return self.query_one(f"#gen-{key}", Select).value is True

    def targets(self) -> Targets:
        """The form's targets; raises SnlError (shown in the dialog) when invalid."""

        def whole(key: str, default: int | None = None) -> int | None:
            value = self._value(key, int)
            return default if value is None else int(value)

        def real(key: str, default: float | None = None) -> float | None:
            value = self._value(key, float)
            return default if value is None else float(value)

        rows = whole("rows", self.rows)
        cols = whole("cols", self.cols)
        assert rows is not None and cols is not None
        players = whole("players", 2)
        assert players is not None
        tolerance = real("tolerance", DEFAULT_TOLERANCE)
        assert tolerance is not None
        return Targets(
            rows=rows,
            cols=cols,
            ladders=whole("ladders"),
            snakes=whole("snakes"),
            expected_turns=real("expected"),
            tolerance=tolerance,
            least_rolls=whole("least"),
            players=players,
            max_first_seat_edge=real("edge"),
            within=whole("within"),
            share=real("share"),
            rules=self.rules,
            keep=self.keep,
            jumps=whole("jumps"),
            longest_jump=whole("longest"),
            safe_start=whole("safe", 0) or 0,
            no_snakes_in_last_row=self._switch("last-row"),
            unique_route=self._switch("unique"),
        )

    def _status(self, text: str, failed: bool = False) -> None:
        status = self.query_one("#generate-status", Static)
        status.update(text)
        status.set_class(failed, "-failed")

    # -- actions ----------------------------------------------------------------------

    def start_search(self, count: int = 1) -> None:
        """Search for one board (it is returned when found), or ``count`` candidates from
        seeds in a row, listed with their figures to choose one."""
        if self.searching or self.closed:
            return
        try:
            targets = self.targets()
            seed = self._value("seed", int)
            time_limit = self._value("time", float)
            if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
                raise SnlError("Time limit: give a number of seconds above 0")
        except SnlError as error:
            self._status(str(error), failed=True)
            return
        self.searching = True
        self.stopped = False
        self._buttons(disabled=True)
        self._status(SEARCHING)
        # No seed typed: a new board each time (a typed seed gives the same board again).
        chosen = int(seed) if seed is not None else random.SystemRandom().randrange(1 << 31)
        self.last_seed = chosen
        limit = DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
        self._search(targets, chosen, limit, count)

    def _buttons(self, *, disabled: bool) -> None:
        for button in self.query(".buttons Button"):
            if button.id != "generate-cancel":
                button.disabled = disabled

    @work(thread=True, exclusive=True, group="generate", exit_on_error=False)
    def _search(self, targets: Targets, seed: int, time_limit: float, count: int) -> None:
        def clock() -> float:
            # Escape makes the search's clock run out: it stops at its next look.
            return math.inf if self.stopped else self.clock()

        results = []
        try:
            for offset in range(count):  # each candidate has the time limit to itself
                results.append(
                    generate(
                        targets,
                        seed=seed + offset,
                        time_limit=time_limit,
                        max_steps=self.max_steps,
                        clock=clock,
                        progress=lambda seconds, best: self.app.call_from_thread(
                            self._progress, targets, time_limit - seconds, best
                        ),
                    )
                )
        except SnlError as error:
            self.app.call_from_thread(self._failed, str(error))
            return
        if count == 1:
            self.app.call_from_thread(self._finished, results[0])
        else:
            self.app.call_from_thread(self._offer, results)

    def _progress(self, targets: Targets, left: float, best: Figures) -> None:
        """A long search: the best figures so far and the time left."""
        if self.searching and not self.closed:
            self._status(
                f"searching… best so far {best.describe(targets)}; {max(0.0, left):.0f} s "
                "left (ctrl+c stops)"
            )

    def _failed(self, message: str) -> None:
        self.searching = False
        if self.closed:
            return
        self._buttons(disabled=False)
        self._status(message, failed=True)

    def _offer(self, results: list[GenerateResult]) -> None:
        """The candidates found, each with its figures: enter (or a click) takes one."""
        self.searching = False
        if self.closed:
            return
        self._buttons(disabled=False)
        found = [result for result in results if result.board is not None]
        self.candidates = found
        if not found:
            self._status(results[-1].describe(), failed=True)
            return
        listing = self.query_one("#generate-candidates", OptionList)
        listing.clear_options()
        listing.add_options(
            Option(f"{n}. {result.describe()}", id=str(n - 1))
            for n, result in enumerate(found, start=1)
        )
        listing.add_class("-shown")
        listing.highlighted = 0
        listing.focus()
        missing = len(results) - len(found)
        more = f" ({missing} seed{'s' if missing > 1 else ''} found none)" if missing else ""
        self._status(f"{plural(len(found), 'candidate')}{more}: enter takes the one highlighted.")

    @on(OptionList.OptionSelected, "#generate-candidates")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == "closest":  # no board met the targets: the nearest one
            if self.result is not None and self.result.closest is not None:
                self._close(self.result.closest)
            return
        index = int(event.option.id or 0)
        self.last_seed = (self.last_seed or 0) + index
        board = self.candidates[index].board
        if board is not None:
            self._close(board)

    def _finished(self, result: GenerateResult) -> None:
        self.searching = False
        self.result = result
        if self.closed:
            return
        if result.board is not None:
            self._close(result.board)
            return
        self._buttons(disabled=False)
        stopped = "Stopped (ctrl+c). " if self.stopped else ""
        self._status(stopped + result.describe(), failed=True)
        if result.closest is not None and result.figures is not None:
            # Offered, not forced: the designer may take it to edit by hand.
            listing = self.query_one("#generate-candidates", OptionList)
            listing.clear_options()
            figures = result.figures.describe(result.targets)
            listing.add_option(Option(f"take the closest board: {figures}", id="closest"))
            listing.add_class("-shown")
            listing.highlighted = 0

    def _close(self, board: Board | None) -> None:
        """Dismiss once: a second Enter or a late result must not dismiss again."""
        if self.closed:
            return
        self.closed = True
        self.stopped = True
        self.dismiss(board)

    def action_cancel(self) -> None:
        self._close(None)

    def action_stop(self) -> None:
        """ctrl+c: stop the running search (it gives up at its next step) and stay, with
        what it reached; with no search running, the key goes on to the field (copy)."""
        if not self.searching or self.closed:
            raise SkipAction()
        self.stopped = True
        self._status("stopping…")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.start_search()

    @on(Button.Pressed, "#generate-go")
    def _go(self) -> None:
        self.start_search()

    @on(Button.Pressed, "#generate-three")
    def _three(self) -> None:
        self.start_search(CANDIDATES)

    @on(Button.Pressed, "#generate-cancel")
    def _cancel(self) -> None:
        self._close(None)
