"""``snl learn``: the breadth-first search of LeetCode 909, one step at a time.

The board shows each square's distance as the search reaches it, the queue and the
square being expanded; the side shows the step in words, the queue by levels and the
textbook code with the step's lines marked. Keys step one square (one die value), one
level, or run; ``b`` goes back. The steps are data (``lab.search``): going back is
reading an earlier step, never undoing anything.

Opened by ``snl judge --show`` it starts on the judged board as the judge saw it: the
expected and returned answers, an optimal route, and the squares the wrong answer could
come from.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..core.board import Board
from ..lab.search import Search, View, breadth_first
from ..widgets.board import LEGEND_ITEMS, min_cell_width
from ..widgets.code_panel import CodePanel
from ..widgets.learn_board import LearnBoard

if TYPE_CHECKING:
    from ..lab.report import Explained

LEARN_CSS = Path(__file__).with_name("learn.tcss")
RUN_DELAYS = (1.0, 0.5, 0.25, 0.15, 0.08, 0.04, 0.02)
"""Seconds between steps while the search runs by itself, slowest first (``+``/``-``)."""
RUN_SPEED = 3
"""The speed a run starts at: an index of ``RUN_DELAYS``."""
SHADES = (
    ("board--route", "reached (»n: in n rolls)"),
    ("queued", "in the queue"),
    ("expanding", "taken off the queue"),
    ("ended", "where the move ends"),
    ("one-jump", "a jump not taken (one a move)"),
    ("route", "the route"),
)
"""The search's shading, as the key beside the board explains it."""
INTRO = -1
"""The position before the first step when a judged board is shown."""
SIDE_WIDTH = 62
"""The side's widest (at most half the screen): every line of the code in one line."""
NARROWEST_SIDE = 28
"""The side's width (borders included) below which the board gives up its whole width."""


class LearnScreen(Screen[None]):
    """The search on one board, step by step."""

    CSS_PATH = "learn.tcss"
    AUTO_FOCUS = "#board"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,n,right", "step", "Step"),
        Binding("l", "level", "Level"),
        Binding("r", "run", "Run"),
        Binding("plus,equals_sign", "faster", "Faster"),
        Binding("minus", "slower", "Slower"),
        Binding("b,left", "back", "Back"),
        Binding("home", "first", "Start", show=False),
        Binding("end", "last", "End", show=False),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(
        self, board: Board, *, judged: Explained | None = None, pushed: bool = False
    ) -> None:
        """``judged``: a judge's failing board (``snl judge --show``), shown first;
        ``pushed``: over the game (puzzle mode's key), so ``q`` goes back to it."""
        super().__init__()
        self.board = board
        self.judged = judged
        self.pushed = pushed
        self.search: Search = breadth_first(board)
        self.position = INTRO if judged is not None else 0
        self.runner: Timer | None = None
        self.speed = RUN_SPEED
        labels = [line.label for line in self.search.code]
        self.code_lines = {
            label: [i for i, other in enumerate(labels) if other == label] for label in labels
        }

    def compose(self) -> ComposeResult:
        yield Static(id="learn-title", markup=False)
        with Horizontal(id="learn-main"):
            yield LearnBoard(self.board, judged=self.judged is not None, id="board")
            with VerticalScroll(id="learn-side"):
                yield Static(id="learn-step", markup=False)
                yield Static(id="learn-queue", markup=False)
                yield Static(id="learn-key", markup=False)
                yield Static(id="learn-shading", markup=False)
                if self.judged is not None:
                    yield Static(self._judged_text(), id="learn-judged", markup=False)
                with VerticalScroll(id="learn-code-scroll"):
                    yield CodePanel([line.text for line in self.search.code], id="learn-code")
        yield Footer()

    def on_mount(self) -> None:
        self._fit_side()
        self.show_position()
        self.call_after_refresh(self._show_key)
        self.query_one("#learn-shading", Static).update(self._shading_text())

    def _shading_text(self) -> Text:
        """What each shade on the board means: a sample of the shade, then its words,
        one a line."""
        board = self.query_one(LearnBoard)
        text = Text("Shading:")
        shades = [*SHADES, ("suspect", "your answer's squares")] if self.judged else SHADES
        for mark, words in shades:
            name = mark if mark.startswith("board--") else f"learn--{mark}"
            style = board.rich_style + board.get_component_rich_style(name)
            text.append("\n")
            text.append("    ", style)
            text.append(f" {words}")
        return text

    def on_resize(self) -> None:
        self._fit_side()
        self.call_after_refresh(self._show_key)

    def _show_key(self) -> None:
        """The search's marks in words beside the board when the board has no room for
        its legend (80x24)."""
        board = self.query_one(LearnBoard)
        marks = [item for item in board.LEGEND if item not in LEGEND_ITEMS]
        key = self.query_one("#learn-key", Static)
        key.update(", ".join(marks))
        key.display = not board.legend

    def _fit_side(self) -> None:
        """The side takes half the screen, up to ``SIDE_WIDTH``; less when that shows
        the whole board (80x24: classic whole beside a side 28 wide), never less than
        ``NARROWEST_SIDE`` (a board too wide for that scrolls anyway)."""
        board = self.query_one(LearnBoard)
        whole = min_cell_width(self.board) * self.board.cols + board.styles.gutter.width
        width = min(SIDE_WIDTH, self.size.width // 2)
        left = self.size.width - whole
        if left < width and left >= NARROWEST_SIDE:
            width = left
        self.query_one("#learn-side").styles.width = max(width, 1)

    # -- what is shown -----------------------------------------------------------------

    @property
    def view(self) -> View | None:
        """The search after the current step (None: the judged board's introduction)."""
        return None if self.position == INTRO else self.search.view(self.position)

    def show_position(self) -> None:
        view = self.view
        board = self.query_one(LearnBoard)
        code = self.query_one(CodePanel)
        total = len(self.search.steps)
        name = self.board.name or "board"
        title = f"Breadth-first search on {name} ({self.board.rows}x{self.board.cols})"
        if view is None:
            assert self.judged is not None
            judged = self.judged
            route = judged.route
            board.show_search(
                {square: index for index, square in enumerate(route) if index},
                {square: "route" for square in route[1:]},
                suspects=judged.suspects,
            )
            code.show_lines(())
            self.query_one("#learn-title", Static).update(f"{title}: the judged board")
            marked = "; ? marks the squares your answer could come from" if judged.suspects else ""
            shown = (
                f"The optimal route is marked »1, »2...{marked}."
                if route
                else f"No roll sequence reaches the goal here{marked}."
            )
            self.query_one("#learn-step", Static).update(
                f"Expected {judged.expected}, your solution: {judged.got}. {shown} Press "
                "space to step through the search."
            )
            self.query_one("#learn-queue", Static).update("")
            return
        step = view.step
        marks: dict[int, str] = {square: "queued" for square in view.queue}
        for square in view.route:
            marks[square] = "route"
        if step.one_jump is not None:
            marks[step.one_jump] = "one-jump"
        if step.end is not None and not view.route:
            marks[step.end] = "ended"
        if step.here is not None and not view.route:
            marks[step.here] = "expanding"
        done = step.labels in (("done",), ("fail",))
        suspects = self.judged.suspects if self.judged is not None and done else ()
        board.show_search(
            view.distances,
            marks,
            here=step.here if not view.route else None,
            landed=step.landed if step.landed != step.end else None,
            suspects=suspects,
        )
        # The view follows the search: where the move ended, else the square expanded.
        followed = step.end if step.end is not None else step.here
        if followed is not None:
            board.follow(followed)
        current = [i for label in step.labels for i in self.code_lines.get(label, [])]
        code.show_lines(current)
        self.call_after_refresh(self._code_in_view, current)
        running = ""
        if self.runner is not None:
            running = f", running: {RUN_DELAYS[self.speed]:g} s a step (+ faster, - slower)"
        self.query_one("#learn-title", Static).update(
            f"{title}: step {self.position + 1} of {total}, level {step.level}{running}"
        )
        self.query_one("#learn-step", Static).update(step.text)
        self.query_one("#learn-queue", Static).update(self._queue_text(view))

    def _code_in_view(self, current: list[int]) -> None:
        """Scroll the code (when the side is too short for all of it) to its current
        lines."""
        if current:
            first, last = min(current), max(current)
            region = Region(0, first, 1, last - first + 1)
            self.query_one("#learn-code-scroll", VerticalScroll).scroll_to_region(
                region, animate=False, immediate=True, center=True
            )

    def _queue_text(self, view: View) -> Text:
        """'Queue, front first: 4 5 6 7 | 16 13' (a bar between levels), the squares
        reached and, while it is read back, the route."""
        distance = self.search.distance
        parts: list[str] = []
        level = None
        for square in view.queue:
            if level is not None and distance[square] != level:
                parts.append("|")
            level = distance[square]
            parts.append(str(square))
        text = Text("Queue, front first: ")
        text.append(" ".join(parts) if parts else "empty", "bold")
        text.append(f"\nSquares reached: {len(view.distances)}")
        if view.route:
            text.append("\nRoute, from the goal: " + " <- ".join(map(str, view.route)))
        for note in self.search.notes:
            text.append(f"\nNote: {note}")
        return text

    def _judged_text(self) -> Text:
        judged = self.judged
        assert judged is not None
        text = Text("Your solution", "bold")
        text.append(f"\nexpected {judged.expected}, got {judged.got}\n")
        text.append(judged.reason)
        return text

    # -- keys --------------------------------------------------------------------------

    def go(self, position: int) -> None:
        first = INTRO if self.judged is not None else 0
        self.position = max(first, min(position, len(self.search.steps) - 1))
        self.show_position()

    def action_step(self) -> None:
        self.stop_running()
        self.go(self.position + 1)

    def action_back(self) -> None:
        self.stop_running()
        self.go(self.position - 1)

    def action_level(self) -> None:
        """The rest of this level at once: on to the first square of the next level (or
        the end)."""
        self.stop_running()
        steps = self.search.steps
        level = steps[self.position].level if self.position >= 0 else -1
        following = [
            i for i in self.search.level_starts() if i > self.position and steps[i].level > level
        ]
        self.go(following[0] if following else len(self.search.steps) - 1)

    def action_first(self) -> None:
        self.stop_running()
        self.go(0)

    def action_last(self) -> None:
        self.stop_running()
        self.go(len(self.search.steps) - 1)

    def action_run(self) -> None:
        """Step by itself until the end (again: stop)."""
        if self.runner is not None:
            self.stop_running()
            self.show_position()
            return
        self.runner = self.set_interval(RUN_DELAYS[self.speed], self._tick)
        self.show_position()

    def action_faster(self) -> None:
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self.speed - 1)

    def _set_speed(self, speed: int) -> None:
        """Another speed for the run (kept for the next run when none is going)."""
        self.speed = max(0, min(speed, len(RUN_DELAYS) - 1))
        if self.runner is not None:  # the title shows the speed
            self.runner.stop()
            self.runner = self.set_interval(RUN_DELAYS[self.speed], self._tick)
        else:
            self.notify(f"Run speed: {RUN_DELAYS[self.speed]:g} s a step", timeout=1.5)
        if self.position != INTRO:
            self.show_position()

    def _tick(self) -> None:
        self.go(self.position + 1)
        if self.position >= len(self.search.steps) - 1:
            self.stop_running()  # at the end: stop with the last step shown

    def stop_running(self) -> None:
        if self.runner is not None:
            self.runner.stop()
            self.runner = None

    def action_quit(self) -> None:
        self.stop_running()
        if self.pushed:
            self.dismiss(None)
        else:
            self.app.exit(return_code=0)
