"""The board: one Line-API widget drawing every square through ``render_line``.

A board of any size is one ``ScrollView``: each square is a block of ``cell_height`` lines
by ``cell_width`` columns (sized to the room: they grow on a big terminal and shrink to two
lines on a short one, so a 10x10 board fits 80x24 whole), drawn from the immutable
``Board`` plus a small per-square state (tokens, route step). Lines are cached; after a
move only the lines of squares whose state changed are invalidated and repainted, so a
20x20 board repaints a few lines, not the whole grid. The widget holds no rules: it only
draws what the app tells it.

The widget holds its drawing as a strategy (``BoardRenderer``): ``TextRenderer`` draws
the characters below; ``board_picture.PictureRenderer`` draws the same board in pixels
(``board_picture.as_picture``), the character board standing in until its picture is
made. A subclass (the editor's, the learn screen's) adds its marks to both
(``decorate_square``, ``decorate_marks``), whichever renderer draws it.

Every cell reads without colour: ``▲38`` starts a ladder to 38, ``▼6`` a snake to 6,
``△``/``▽`` mark where a ladder/snake ends, ``»3`` is step 3 of the shown route, and
tokens are their players' letters. Colours (theme variables in ``snl.tcss``) repeat the
same information.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..commands import keys_of
from ..core.board import Board
from ..core.cells import cell_width, cut_cells
from ..core.engine import Turn
from ..messages import SettingChanged

if TYPE_CHECKING:
    from ..core.geometry import JumpPath
    from ..export.picture import Marks
    from .jump_art import Art

CELL_HEIGHT = 3
"""Lines per square when the board scrolls anyway (the number, the jump, the tokens)."""
MIN_CELL_HEIGHT, MAX_CELL_HEIGHT = 2, 6
"""Two lines still read (the tokens share the jump's line); taller squares only on big
terminals."""
LADDER, SNAKE = "▲", "▼"
LADDER_END, SNAKE_END = "△", "▽"
ROUTE_MARK = "»"
LEGEND_ITEMS = (
    f"{LADDER} ladder",
    f"{SNAKE} snake",
    f"{LADDER_END}{SNAKE_END} jump ends",
    f"{ROUTE_MARK}n route step",
)
LEGEND_GAP = "  "
STEP_DELAY = 0.06
"""Seconds per square as a token walks (``BoardView.walk``, at pace 1)."""
JUMP_DELAY = 0.18
"""Seconds before a token takes the jump it landed on."""
DRAW_MIN_EXTRA = 4
"""Jumps are drawn on squares at least this many columns wider than the goal's number
and ``CELL_HEIGHT`` lines tall: on smaller squares (classic at 80x24) the braille lines
are fragments between the labels that nobody can follow, and the markers read better."""
ART_CLASSES = {
    ("ladder", 0): "board--ladder-line",
    ("ladder", 1): "board--ladder-line-alt",
    ("snake", 0): "board--snake-line",
    ("snake", 1): "board--snake-line-alt",
}
"""The style of a drawn jump by (kind, lane): neighbouring jumps get the other shade."""
FULL, STATUS_ONLY, BARE = 2, 1, 0
"""What goes below the grid: the status line and the legend, the status line, nothing."""

Piece = tuple[str, Style]


@dataclass(frozen=True)
class CellState:
    """What can change on a square during a game."""

    tokens: tuple[int, ...] = ()
    """Seats (0-based) whose token stands here, in seat order."""
    route_step: int | None = None
    """Step number of the shown optimal route that ends here."""
    current: int | None = None
    """The seat to move, when its token stands here (it is underlined): a seat, not a
    flag, so that the turn passing between two tokens on one square repaints it."""


EMPTY = CellState()


def cell_width_for(board: Board) -> int:
    """Columns per square when there is room: the number and a route step side by side,
    and a jump label with its end mark."""
    digits = len(str(board.goal))
    return max(7, digits + 4)


def min_cell_width(board: Board) -> int:
    """The narrowest square that still reads: a space, then the number, or a jump's
    glyph and destination (``▲100``). Route steps move below when they do not fit."""
    return len(str(board.goal)) + 2


def legend_lines(width: int, items: tuple[str, ...] = LEGEND_ITEMS) -> list[str]:
    """The legend's ``items`` packed into lines of at most ``width`` columns."""
    lines: list[str] = []
    for item in items:
        if lines and cell_width(lines[-1]) + len(LEGEND_GAP) + cell_width(item) <= width:
            lines[-1] += LEGEND_GAP + item
        else:
            lines.append(item)
    return lines


def _length(pieces: Sequence[Piece]) -> int:
    """Terminal cells the pieces take."""
    return sum(cell_width(text) for text, _ in pieces)


class BoardRenderer(Protocol):
    """One way of drawing the board widget (the strategy it holds): the character board
    (``TextRenderer``) or the picture (``board_picture.PictureRenderer``). The widget
    keeps the game's state (tokens, route, scroll) and asks its renderer for the lines,
    the clicks and the moves."""

    @property
    def picture_shown(self) -> bool:
        """The board is on screen as a picture (not characters)."""
        ...

    def render_lines(self, crop: Region) -> list[Strip]:
        """Exactly ``crop.height`` strips for ``crop``."""
        ...

    def placed(self, positions: Sequence[int], route: Sequence[int]) -> None:
        """The widget's tokens and route changed (``BoardView.show``)."""
        ...

    def refresh_squares(self, squares: Iterable[int | None]) -> None: ...

    def refresh_lines(self, lines: Sequence[int]) -> None:
        """Grid ``lines`` of the character board changed."""
        ...

    def status_y(self) -> int | None: ...

    def board_set(self) -> None:
        """Another board is about to be shown."""
        ...

    async def take_jumps(self, shown: list[int], turn: Turn, pace: float) -> None: ...

    def follow(self, square: int) -> None:
        """After the widget scrolled to ``square``: the renderer's own following."""
        ...

    def out_of_view(self) -> list[tuple[int, int, str]]: ...

    def toggle_fit(self) -> str: ...

    def square_at(self, x: int, y: int) -> int | None: ...


class TextRenderer:
    """The board as characters: the widget's own drawing (``BoardView.text_*``)."""

    def __init__(self, view: BoardView) -> None:
        self.view = view

    @property
    def picture_shown(self) -> bool:
        return False

    def render_lines(self, crop: Region) -> list[Strip]:
        return self.view.text_lines(crop)

    def placed(self, positions: Sequence[int], route: Sequence[int]) -> None:
        pass

    def refresh_squares(self, squares: Iterable[int | None]) -> None:
        self.view.text_refresh_squares(squares)

    def refresh_lines(self, lines: Sequence[int]) -> None:
        self.view.text_refresh_lines(lines)

    def status_y(self) -> int | None:
        return self.view.text_status_y()

    def board_set(self) -> None:
        pass

    async def take_jumps(self, shown: list[int], turn: Turn, pace: float) -> None:
        await self.view.text_take_jumps(shown, turn, pace)

    def follow(self, square: int) -> None:
        pass

    def out_of_view(self) -> list[tuple[int, int, str]]:
        return self.view.text_out_of_view()

    def toggle_fit(self) -> str:
        return self.view.text_toggle_fit()

    def square_at(self, x: int, y: int) -> int | None:
        return self.view.text_square_at(x, y)


class BoardView(ScrollView, can_focus=True):
    """The numbered grid with jumps, tokens and the optional route overlay."""

    COMPONENT_CLASSES = {
        "board--light",
        "board--dark",
        "board--number",
        "board--ladder",
        "board--snake",
        "board--goal",
        "board--route",
        "board--route-step",
        "board--token-1",
        "board--token-2",
        "board--token-3",
        "board--token-4",
        "board--current",
        "board--legend",
        "board--ladder-line",
        "board--ladder-line-alt",
        "board--snake-line",
        "board--snake-line-alt",
    }
    """The game's styles. Textual styles each component class afresh whenever the CSS
    is applied to the widget (three times before the game's first frame: mounted,
    focused, shown), so the editor's own are left to the editor's board
    (``edit_board.EditBoard``)."""
    LEGEND: tuple[str, ...] = LEGEND_ITEMS
    """What the legend below the grid explains (the editor's board shows no route)."""
    fit_zoom: var[bool] = var(False, init=False)
    """Zoomed out: squares as narrow as their numbers, so that big boards fit whole
    (``z`` switches)."""
    jumps_drawn: var[bool] = var(True, init=False)
    """Snakes and ladders drawn from end to end (True) or only marked at their ends
    (``j`` switches; the squares' ``▲38``/``▼6`` labels show either way)."""

    def __init__(
        self,
        board: Board,
        *,
        letters: Sequence[str] = ("A",),
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board = board
        self.letters: tuple[str, ...] = tuple(letters)
        self.current_seat: int | None = 0
        self.cell_states: dict[int, CellState] = {}
        self.off_board: tuple[int, ...] = ()
        self.line_cache: dict[int, Strip] = {}
        self.cell_memo: dict[int, list[list[Piece]]] = {}
        """Every line of each square painted so far: a repainted grid line makes only the
        squares that changed afresh (``show`` and ``refresh_squares`` drop theirs), and
        all are dropped when the squares' size, styles or drawn jumps change."""
        self.cache_geometry: tuple[int, int | None] = (0, None)
        """(left padding, view width) the cached lines were painted for."""
        self.base_style: Style | None = None
        """The widget's own style (``rich_style`` walks every ancestor: looked up once)."""
        self.palette: dict[tuple[str, bool], Style] = {}
        """Component styles in use, by (name, partial)."""
        self.restyled = False
        """The CSS was applied again: check whether the painted lines are still right."""
        self.pending_follow: int | None = None
        """A square to scroll to once the widget has a size (``follow`` before layout)."""
        self.followed: int | None = None
        """The square last followed: kept in view when the squares are resized."""
        self.fitted_size: Size | None = None
        """The view size the squares were last fitted to (``fit_to_size``)."""
        self.lines_painted = 0
        """How many grid lines were rendered afresh (the benchmark and tests read it)."""
        self.squares_painted = 0
        """How many squares' lines were made afresh (tests read it)."""
        self.art: Art | None = None
        """The drawn jumps for the current square size (None: not drawn at this size, or
        not made yet: ``jump_art_now``)."""
        self.art_made = False
        self.art_paths: tuple[JumpPath, ...] = ()
        """The paths ``art`` draws (its glyphs name them by index)."""
        self.art_waits: bool | None = True
        """True until the first frame, which goes out without the drawn jumps (they take
        a few milliseconds on a big board); None while they are due in the next frame
        (``_draw_art_now``); False after."""
        self._set_geometry()
        self.renderer: BoardRenderer = TextRenderer(self)
        """How the board is drawn: as characters, or as a picture
        (``board_picture.as_picture``)."""

    # -- state from the app ------------------------------------------------------------

    def watch_fit_zoom(self) -> None:
        self.fitted_size = None  # the next frame fits the squares again
        self.refresh()

    def toggle_fit(self) -> str:
        """``z``: what the renderer does with it, and what to tell the player."""
        return self.renderer.toggle_fit()

    def text_toggle_fit(self) -> str:
        """Zoom out to fit the whole board, or back; what to tell the player (the truth:
        when the whole board cannot fit, it says so and what size it needs)."""
        self.fit_zoom = not self.fit_zoom
        if not self.fit_zoom:
            return "Zoomed in."
        need_w, need_h = self.whole_board_size()
        size = self.outer_size
        if need_w <= size.width and need_h <= size.height:
            return "Zoomed out: the whole board fits."
        # What the terminal would need: the board's room grows as the terminal does.
        screen = self.app.size
        wide = screen.width + max(0, need_w - size.width)
        tall = screen.height + max(0, need_h - size.height)
        return (
            f"Zoomed out, but the whole board does not fit: it needs a terminal of at "
            f"least {wide}x{tall} (this one is {screen.width}x{screen.height})."
        )

    def whole_board_size(self) -> tuple[int, int]:
        """(columns, lines) the widget needs, border included, to show the whole board
        zoomed out: squares as narrow as their numbers, two lines tall, nothing below."""
        styles = self.styles
        narrowest = len(str(self.board.goal)) + 1
        return (
            narrowest * self.board.cols + styles.gutter.width,
            MIN_CELL_HEIGHT * self.board.rows + styles.gutter.height,
        )

    def on_mount(self) -> None:
        # The choice of drawn jumps is the app's when it keeps one (SnlApp remembers it
        # between runs, and ``j`` on one board switches every board): follow it.
        if hasattr(self.app, "jumps_drawn"):
            self.watch(self.app, "jumps_drawn", self._follow_jumps_setting)

    def _follow_jumps_setting(self, drawn: bool) -> None:
        self.jumps_drawn = drawn

    def toggle_jumps(self) -> str:
        """Draw the snakes and ladders, or mark only their ends; what to tell the player.
        The app hears of it (``SettingChanged``), to remember it."""
        self.jumps_drawn = not self.jumps_drawn
        self.post_message(SettingChanged("drawn_jumps", self.jumps_drawn))
        if not self.jumps_drawn:
            return "Jumps marked at their ends only."
        if not self.draws_jumps:
            return f"Jumps drawn when the squares are bigger ({keys_of('toggle_fit')} zooms)."
        return "Snakes and ladders drawn."

    def _draw_art_now(self) -> None:
        from ..core.geometry import jump_paths_known

        if self.draws_jumps and self.board.jumps and not jump_paths_known(self.board):
            # Routing the jumps round the numbers takes a big board a while: in a
            # thread, the markers meanwhile.
            self.route_jumps(self._draw_art_now)
            return
        self.art_waits = False
        if self.draws_jumps and self.board.jumps:
            self.watch_jumps_drawn()

    def route_jumps(self, then: Callable[[], object]) -> None:
        """Route the board's jumps (``core.geometry.jump_paths``) in a thread, then call
        ``then`` on the app's thread (if the board is still this widget's)."""
        board = self.board

        def route() -> None:
            from ..core.geometry import jump_paths

            jump_paths(board)
            if self.board is board:
                self.app.call_from_thread(then)

        self.run_worker(route, thread=True, group="route-jumps", exclusive=True)

    def watch_jumps_drawn(self) -> None:
        self.art, self.art_made = None, False
        self.line_cache.clear()
        self.cell_memo.clear()
        self.refresh()

    @property
    def draws_jumps(self) -> bool:
        """Jumps are drawn: switched on, and the squares leave room beside their text
        (the smallest squares show only the markers)."""
        digits = len(str(self.board.goal))
        return (
            self.jumps_drawn
            and self.cell_height >= CELL_HEIGHT
            and self.cell_width >= digits + DRAW_MIN_EXTRA
        )

    def jump_art_now(self) -> Art | None:
        """The drawn jumps for the current squares (made on first use)."""
        if self.art_waits is not False:
            if self.art_waits:
                self.art_waits = None
                self.call_after_refresh(self._draw_art_now)
            return None
        if not self.art_made:
            self.art_made = True
            drawn = self.draws_jumps and bool(self.board.jumps)
            # The drawing (and the jumps' geometry) loads with the first drawn jumps,
            # after the first frame, not with the board.
            from ..core.geometry import jump_paths
            from .jump_art import draw_jumps

            self.art = draw_jumps(self.board, self.cell_width, self.cell_height) if drawn else None
            self.art_paths = jump_paths(self.board) if drawn else ()
        return self.art

    def _set_geometry(self) -> None:
        ends: dict[int, str] = {}
        for jump in self.board.ladders:
            ends[jump.end] = LADDER_END
        for jump in self.board.snakes:
            ends.setdefault(jump.end, SNAKE_END)
        self.jump_ends = ends
        fitted = self._fitted_cell(self.outer_size)
        self._set_cell(*(fitted or (cell_width_for(self.board), CELL_HEIGHT, True)))

    def _set_cell(self, width: int, height: int = CELL_HEIGHT, extras: int = FULL) -> None:
        """Lay the grid out with squares ``width`` columns by ``height`` lines, with the
        status line and the legend below (``FULL``), the status line only
        (``STATUS_ONLY``) or neither (``BARE``); all lines are repainted."""
        self.cell_width, self.cell_height, self.extras = width, height, extras
        board_width = width * self.board.cols
        self.legend = legend_lines(board_width, self.LEGEND) if extras == FULL else []
        self.art, self.art_made = None, False
        self.line_cache.clear()
        self.cell_memo.clear()
        # The grid, the off-board line (tokens not yet on square 1), then the legend.
        self.virtual_size = Size(board_width, self.grid_lines + self.extra_lines)

    @property
    def cell(self) -> tuple[int, int, int]:
        """(width, height, extras): the layout ``_fitted_cell`` compares with."""
        return self.cell_width, self.cell_height, self.extras

    @property
    def extra_lines(self) -> int:
        return (1 + len(self.legend)) if self.extras != BARE else 0

    @property
    def grid_lines(self) -> int:
        return self.cell_height * self.board.rows

    def _fitted_cell(self, size: Size) -> tuple[int, int, int] | None:
        """The squares' (width, height, extras) for the widget's outer ``size`` (border
        and scrollbars included), or None before the widget
        has a size. The tallest squares (2 to ``MAX_CELL_HEIGHT`` lines) that fit the
        whole grid with the status line and legend below, else with the status line,
        else without either (if the row fits too), else a scrolling board of
        ``CELL_HEIGHT``-line squares (of 2-line squares when zoomed out to fit); then
        the widest that fit the row (from the narrowest that reads to about square on
        screen). Zoomed out (``fit_zoom``), the narrowest square is the number alone."""
        if not size.area:
            return None
        board, styles = self.board, self.styles
        cols, rows = board.cols, board.rows
        room_x = size.width - styles.gutter.width
        room_y = size.height - styles.gutter.height
        narrowest = len(str(board.goal)) + 1 if self.fit_zoom else min_cell_width(board)

        def fit(room: int, height: int) -> int:
            widest = max(cell_width_for(board), 3 * height)  # terminal cells are tall
            return max(narrowest, min(widest, room // cols))

        for extras in (FULL, STATUS_ONLY, BARE):
            width = fit(room_x, MIN_CELL_HEIGHT)
            if extras == BARE and width * cols > room_x:
                break  # a board that scrolls sideways keeps its status line
            extra = 1 + len(legend_lines(width * cols, self.LEGEND)) if extras == FULL else 0
            extra += extras == STATUS_ONLY
            height = min(MAX_CELL_HEIGHT, (room_y - extra) // rows)
            if height >= MIN_CELL_HEIGHT:
                return fit(room_x, height), height, extras
        # Too tall for the view: it will scroll up and down.
        height = MIN_CELL_HEIGHT if self.fit_zoom else CELL_HEIGHT
        return fit(room_x - styles.scrollbar_size_vertical, height), height, FULL

    def set_board(self, board: Board, letters: Sequence[str]) -> None:
        """Show another board (a new game): everything is redrawn."""
        self.renderer.board_set()
        self.board = board
        self.letters = tuple(letters)
        self.cell_states = {}
        self.off_board = ()
        self._set_geometry()  # clears the painted lines
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def show(
        self,
        positions: Sequence[int],
        route: Sequence[int] = (),
        current: int | None = None,
    ) -> None:
        """Place the tokens and the route overlay; repaints only squares that changed.

        ``positions`` are per seat (0 = off the board); ``route`` lists the squares of the
        shown route in order (step 1 first).
        """
        tokens: dict[int, list[int]] = {}
        off: list[int] = []
        for seat, square in enumerate(positions):
            if square <= 0:
                off.append(seat)
            else:
                tokens.setdefault(square, []).append(seat)
        steps: dict[int, int] = {}
        for index, square in enumerate(route, start=1):
            steps.setdefault(square, index)
        states = {
            square: CellState(
                tuple(tokens.get(square, ())),
                steps.get(square),
                current if current in tokens.get(square, ()) else None,
            )
            for square in tokens.keys() | steps.keys()
        }
        changed = [
            square
            for square in states.keys() | self.cell_states.keys()
            if states.get(square, EMPTY) != self.cell_states.get(square, EMPTY)
        ]
        lines: set[int] = set()
        for square in changed:
            row, _ = self.board.position_of(square)
            lines.update(range(row * self.cell_height, (row + 1) * self.cell_height))
        self.cell_states = states
        self.off_board = tuple(off)
        self.current_seat = current
        for square in changed:
            self.cell_memo.pop(square, None)
        for line in lines:
            self.line_cache.pop(line, None)
        self._refresh_virtual_lines(sorted(lines))
        status_y = self._status_y()
        if status_y is not None and self.is_mounted:
            self.refresh(Region(0, status_y, self.size.width, 1))
        self.renderer.placed(positions, route)

    def follow(self, square: int) -> None:
        """Keep ``square`` in view: the character board scrolls to it (standing in for
        the picture too), then the renderer follows it its own way."""
        self.text_follow(square)
        self.renderer.follow(square)

    def text_follow(self, square: int) -> None:
        """Scroll so that ``square`` is in view (large boards)."""
        self.followed = square
        if not self.size.area:  # not laid out yet: as soon as it is (``fit_to_size``)
            self.pending_follow = square
            return
        self.pending_follow = None
        height = self.cell_height
        # A token off the board enters on square 1: that corner is shown (the line that
        # names who is off the board stays in view below the grid anyway).
        row, col = self.board.position_of(max(1, min(square, self.board.goal)))
        # The status line and the legend stay at the bottom of the view, over the grid
        # while it scrolls: the square must be in view above them.
        region = Region(
            col * self.cell_width, row * height, self.cell_width, height + self.extra_lines
        )
        self.scroll_to_region(region, animate=False, immediate=True, spacing=None, force=True)

    async def walk(self, positions: Sequence[int], turn: Turn, pace: float = 1.0) -> None:
        """Animate ``turn``: its player's token steps through the move's squares, then
        takes its jump, the view following it. ``positions`` are everyone's squares
        (the mover's is taken from the move's start); ``pace`` 2.0 goes twice as fast."""
        move, player = turn.move, turn.player
        shown = list(positions)
        shown[player] = move.start
        for square in move.steps:
            await asyncio.sleep(STEP_DELAY / pace)
            shown[player] = square
            self.show(shown, (), player)
            self.follow(square)
        if move.jumps:
            await asyncio.sleep(JUMP_DELAY / pace)
            await self.take_jumps(shown, turn, pace)

    async def take_jumps(self, shown: list[int], turn: Turn, pace: float) -> None:
        """The end of ``walk``: the token takes its move's jumps (the renderer's way)."""
        await self.renderer.take_jumps(shown, turn, pace)

    async def text_take_jumps(self, shown: list[int], turn: Turn, pace: float) -> None:
        """The character board's jumps: straight to where they end (the picture slides
        the token along them). ``shown`` is everyone's squares."""
        shown[turn.player] = turn.move.end
        self.show(shown, (), turn.player)
        self.follow(turn.move.end)

    def fit_to_size(self) -> None:
        """Size the squares to the view, and make a ``follow`` asked for before the view
        had a size. ``render_line`` calls this at the first paint after a size change, so
        that frame already shows the fitted squares and, on a large board, the token
        rather than the top rows."""
        size = self.outer_size  # border and scrollbars included: they are fitted in
        self.fitted_size = size
        fitted = self._fitted_cell(size)
        if fitted is not None and fitted != self.cell:
            self._set_cell(*fitted)
            if self.pending_follow is None and self.followed is not None:
                self.pending_follow = self.followed  # keep the followed square in view
        if self.pending_follow is not None and size.area:
            self.follow(self.pending_follow)

    # -- repainting some squares ---------------------------------------------------------

    def refresh_squares(self, squares: Iterable[int | None]) -> None:
        """Repaint ``squares`` (a subclass's decorations changed), the renderer's way."""
        self.renderer.refresh_squares(squares)

    def text_refresh_squares(self, squares: Iterable[int | None]) -> None:
        """Repaint only the rows of ``squares`` on the character board."""
        lines: set[int] = set()
        for square in squares:
            if square is not None and 1 <= square <= self.board.goal:
                self.cell_memo.pop(square, None)
                row, _ = self.board.position_of(square)
                lines.update(range(row * self.cell_height, (row + 1) * self.cell_height))
        for line in lines:
            self.line_cache.pop(line, None)
        self._refresh_virtual_lines(sorted(lines))

    def decorate_square(self, square: int, base: Style) -> Style:
        """The style of ``square``'s background: a subclass adds its marks (the editor's
        cursor, pending jump and heat map); the game's board adds none."""
        return base

    def decorate_marks(self, marks: Marks) -> Marks:
        """What the picture lays over the board: a subclass adds its marks, as it does
        to the characters in ``decorate_square``; the game's board adds none."""
        return marks

    def square_at_offset(self, x: int, y: int) -> int | None:
        """The square under content offset (x, y) (a click), None off the board."""
        return self.renderer.square_at(x, y)

    def text_square_at(self, x: int, y: int) -> int | None:
        """The square under content offset (x, y) (as ``get_content_offset`` gives it),
        with the scroll position and the centring taken into account; None off the grid."""
        pad_x, pad_y = self._offsets()
        line = y + round(self.scroll_offset.y) - pad_y
        column = x + (0 if pad_x else self._view_x()) - pad_x
        if not (0 <= line < self.grid_lines and 0 <= column < self.cell_width * self.board.cols):
            return None
        if not pad_x and x >= self._whole_width():
            return None  # the blank past the last whole square
        return self.board.square_at(line // self.cell_height, column // self.cell_width)

    def _view_x(self) -> int:
        """The first column shown: the scroll position rounded up to a whole square, so
        a board scrolled sideways never shows a cut-off fragment of a square."""
        width = self.cell_width
        return -(-round(self.scroll_offset.x) // width) * width

    def _whole_width(self, size: Size | None = None) -> int:
        """The columns of the whole squares that fit the view (the rest stays blank)."""
        width = (self.size if size is None else size).width
        return max(self.cell_width, width // self.cell_width * self.cell_width)

    # -- painting ----------------------------------------------------------------------

    def notify_style_update(self) -> None:
        # Called whenever the CSS is applied again: a theme change, but also focus or a
        # class change anywhere above. Painted lines are dropped only if a style they use
        # really changed (``_check_styles``), not on every restyle.
        super().notify_style_update()
        self.restyled = True
        self.fitted_size = None  # a new border or scrollbar size changes the room

    def _check_styles(self) -> None:
        self.restyled = False
        base = self.rich_style
        palette = {key: self._resolve(*key) for key in self.palette}
        if base != self.base_style or palette != self.palette:
            self.line_cache.clear()
            self.cell_memo.clear()
            self.palette = {}
        self.base_style = base

    def _offsets(self, size: Size | None = None) -> tuple[int, int]:
        """Padding that centres a board smaller than the view (of ``size``: the widget's
        size, which each lookup finds again through the screen's layout)."""
        width, height = self.size if size is None else size
        virtual = self.virtual_size
        return max(0, (width - virtual.width) // 2), max(0, (height - virtual.height) // 2)

    def _refresh_virtual_lines(self, lines: Sequence[int]) -> None:
        self.renderer.refresh_lines(lines)

    def text_refresh_lines(self, lines: Sequence[int]) -> None:
        """Repaint the character board's grid ``lines`` (virtual lines)."""
        if not lines or not self.is_mounted:
            return
        _, pad_y = self._offsets()
        scroll_y = round(self.scroll_offset.y)
        width = self.size.width
        # Group consecutive lines into one region each.
        start = previous = lines[0]
        for line in [*lines[1:], None]:
            if line is not None and line == previous + 1:
                previous = line
                continue
            self.refresh(Region(0, pad_y + start - scroll_y, width, previous - start + 1))
            if line is not None:
                start = previous = line

    def render_lines(self, crop: Region) -> list[Strip]:
        return self.renderer.render_lines(crop)

    def text_lines(self, crop: Region) -> list[Strip]:
        """The character board's lines for ``crop`` (``render_line`` each)."""
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if self.outer_size != self.fitted_size:
            self.fit_to_size()
        scroll_x, scroll_y = self.scroll_offset
        size = self.size  # looked up once a line: each lookup walks to the screen
        pad_x, pad_y = self._offsets(size)
        width = size.width
        if self.restyled or self.base_style is None:
            self._check_styles()
        base = self.base_style
        assert base is not None
        line = y + scroll_y - pad_y
        legend_top = min(self.grid_lines + 1 - scroll_y + pad_y, size.height - len(self.legend))
        if self.extras != BARE and y == legend_top - 1:
            # The status line: off the board, crowded squares, tokens out of view.
            return self._join([(" " * pad_x, base), *self.status_pieces()], base, width)
        if self.legend and legend_top <= y < legend_top + len(self.legend):
            # The legend stays in view (below the grid, or at the bottom while the board
            # scrolls) and does not scroll sideways.
            text = self.legend[y - legend_top]
            style = self.component_style("board--legend")
            return self._join([(" " * pad_x, base), (text, style)], base, width)
        if not 0 <= line < self.grid_lines:
            return Strip.blank(width, base)
        # A board narrower than the view is cached centred and view-wide, so a line is
        # one Strip (each Strip carries several caches: making them is not free).
        geometry = (pad_x, width if pad_x else None)
        if geometry != self.cache_geometry:
            self.line_cache.clear()
            self.cache_geometry = geometry
        strip = self.line_cache.get(line)
        if strip is None:
            strip = self.line_cache[line] = self.paint_line(line, *geometry)
        if pad_x or (scroll_x == 0 and strip.cell_length == width):
            return strip
        left = self._view_x()
        return strip.crop(left, left + self._whole_width(size)).extend_cell_length(width, base)

    def component_style(self, name: str, partial: bool = False) -> Style:
        """The Rich style of component class ``name``; ``partial`` gives only what its
        rules set, to lay over a square's own style."""
        style = self.palette.get((name, partial))
        if style is None:
            style = self.palette[name, partial] = self._resolve(name, partial)
        return style

    def _resolve(self, name: str, partial: bool) -> Style:
        full = self.get_component_rich_style(name)
        return self._overlay(name, full) if partial else full

    def _overlay(self, name: str, full: Style) -> Style:
        # Textual's partial styles leave relative colours unresolved: `$text-muted` is
        # "auto 60%", a contrast colour, and with no background to contrast with it comes
        # out white (unreadable on a light theme's squares). The full style resolves it
        # against the board's background, which the squares' colours are close to; keep
        # only what the class's rules set.
        rules = self.get_component_styles(name)
        overlay = full.without_color
        if rules.has_rule("color"):
            overlay += Style(color=full.color)
        if rules.has_rule("background"):
            overlay += Style(bgcolor=full.bgcolor)
        return overlay

    def paint_line(self, line: int, left: int = 0, width: int | None = None) -> Strip:
        """Virtual line ``line`` as one Strip: ``left`` blank columns, then the board's
        line, then blanks up to ``width`` (default: the board's own width)."""
        self.lines_painted += 1
        board = self.board
        grid_lines = self.grid_lines
        board_width = self.cell_width * board.cols
        fill = self.base_style or self.rich_style
        pieces: list[Piece] = [(" " * left, fill)] if left else []
        if line < grid_lines:
            row, part = divmod(line, self.cell_height)
            memo = self.cell_memo
            for col in range(board.cols):
                square = board.square_at(row, col)
                lines = memo.get(square)
                if lines is None:
                    lines = memo[square] = self._cell_lines(square, row, col)
                pieces += lines[part]
        return self._join(pieces, fill, left + board_width if width is None else width)

    def _status_y(self) -> int | None:
        """The view line of the status line (None: no room for one)."""
        return self.renderer.status_y()

    def text_status_y(self) -> int | None:
        """The character board's status line (below the grid, above the legend)."""
        if self.extras == BARE:
            return None
        _, pad_y = self._offsets()
        scroll_y = round(self.scroll_offset.y)
        return min(self.grid_lines - scroll_y + pad_y, self.size.height - len(self.legend) - 1)

    def status_pieces(self) -> list[Piece]:
        """The line below the grid: who is off the board, every token of a square too
        narrow to show them all, and where the tokens out of view are."""
        legend = self.component_style("board--legend")
        pieces: list[Piece] = []

        def name(seat: int) -> None:
            pieces.append((" ", legend))
            pieces.append((self._letter(seat), self._token_style(seat, legend)))

        if self.off_board:
            pieces.append((" off the board:", legend))
            for seat in self.off_board:
                name(seat)
        for square, state in sorted(self.cell_states.items()):
            if len(state.tokens) > self.cell_width:
                pieces.append((f" on {square}:", legend))
                for seat in state.tokens:
                    name(seat)
        away = self.out_of_view()
        if away:
            pieces.append((" out of view:", legend))
            for seat, square, arrow in away:
                pieces.append((f" {arrow}", legend))
                pieces.append((self._letter(seat), self._token_style(seat, legend)))
                pieces.append((str(square), legend))
        return pieces

    def out_of_view(self) -> list[tuple[int, int, str]]:
        """(seat, square, arrow) for each token on a square not wholly in view; the arrow
        points the way to scroll (up and down before left and right)."""
        return self.renderer.out_of_view()

    def text_out_of_view(self) -> list[tuple[int, int, str]]:
        """``out_of_view`` on the character board (scrolled squares)."""
        if not self.size.area:
            return []
        width, height = self.cell_width, self.cell_height
        pad_x, _ = self._offsets()
        top = round(self.scroll_offset.y)
        below = (1 + len(self.legend)) if self.extras != BARE else 0
        bottom = top + self.size.height - below
        left = 0 if pad_x else self._view_x()
        right = left + (self.virtual_size.width if pad_x else self._whole_width())
        away = []
        for square, state in self.cell_states.items():
            if not state.tokens:
                continue
            row, col = self.board.position_of(square)
            arrow = (
                "↑"
                if row * height < top
                else "↓"
                if (row + 1) * height > bottom
                else "←"
                if col * width < left
                else "→"
                if (col + 1) * width > right
                else None
            )
            if arrow is not None:
                away += [(seat, square, arrow) for seat in state.tokens]
        return sorted(away)

    @staticmethod
    def _join(pieces: list[Piece], fill: Style, width: int) -> Strip:
        """One Strip of exactly ``width`` cells: neighbouring pieces of one style become
        one segment, ``fill`` pads the end, and anything past ``width`` is cut."""
        segments: list[Segment] = []
        text, style = "", fill
        room = width
        for piece_text, piece_style in pieces:
            cells = cell_width(piece_text)
            if cells > room:
                piece_text = cut_cells(piece_text, room)
                cells = cell_width(piece_text)
            if not piece_text:
                continue
            room -= cells
            if piece_style is style or piece_style == style:
                text += piece_text
                continue
            if text:
                segments.append(Segment(text, style))
            text, style = piece_text, piece_style
        if room and (style is fill or style == fill):
            text, room = text + " " * room, 0
        if text:
            segments.append(Segment(text, style))
        if room:
            segments.append(Segment(" " * room, fill))
        return Strip(segments, width)

    def _letter(self, seat: int) -> str:
        return self.letters[seat] if seat < len(self.letters) else str(seat + 1)

    def _token_style(self, seat: int, base: Style) -> Style:
        style = base + self.component_style(f"board--token-{seat % 4 + 1}", partial=True)
        if seat == self.current_seat:
            style += self.component_style("board--current", partial=True)
        return style

    def _cell_lines(self, square: int, row: int, col: int) -> list[list[Piece]]:
        """Each line of one square as (text, style) pieces, exactly ``cell_width`` wide."""
        self.squares_painted += 1
        board = self.board
        state = self.cell_states.get(square, EMPTY)
        if state.route_step is not None:
            base = self.component_style("board--route")
        elif square == board.goal:
            base = self.component_style("board--goal")
        else:
            base = self.component_style("board--light" if (row + col) % 2 == 0 else "board--dark")
        base = self.decorate_square(square, base)
        width = self.cell_width
        number = f" {square}"
        step = None if state.route_step is None else f"{ROUTE_MARK}{state.route_step}"
        # The route step sits beside the number, or on the token line when that is
        # too narrow (compact squares).
        step_on_top = step is not None and len(number) + cell_width(step) <= width
        top: list[Piece] = [(number, base + self.component_style("board--number", partial=True))]
        label: list[Piece] = []
        if square == board.goal:
            label.append(("GOAL", base + self.component_style("board--number", partial=True)))
        jump = board.jump_at(square)
        if jump is not None:
            kind = "board--ladder" if jump.kind == "ladder" else "board--snake"
            glyph = LADDER if jump.kind == "ladder" else SNAKE
            label.append((f"{glyph}{jump.end}", base + self.component_style(kind, partial=True)))
        end_mark = self.jump_ends.get(square)
        if end_mark is not None:
            kind = "board--ladder" if end_mark == LADDER_END else "board--snake"
            label.append((end_mark, base + self.component_style(kind, partial=True)))
        if label and _length(label) < width:
            label.insert(0, (" ", base))
        tokens: list[Piece] = [(self._letter(s), self._token_style(s, base)) for s in state.tokens]
        if len(tokens) > width:  # the status line names them all
            keep = max(1, width - 2)
            more = base + self.component_style("board--number", partial=True)
            tokens = [*tokens[:keep], (f"+{len(tokens) - keep}", more)]
        bottom: list[Piece] = [(" ", base), *tokens] if tokens else []
        if _length(bottom) > width:
            bottom = tokens
        if self.cell_height < CELL_HEIGHT and tokens:
            # Two lines: the tokens join the jump's line, else the number's, else they
            # take the jump's line (where everyone stands matters most in a game).
            if _length(label) + _length(tokens) + 1 <= width:
                label, bottom = label + bottom, []
            elif label and _length(label) + _length(tokens) <= width:
                label, bottom = label + tokens, []
            elif _length(top) + _length(tokens) + 1 <= width and not step_on_top:
                top, bottom = top + bottom, []
            else:
                label, bottom = bottom, []
        parts = [top, label, bottom] if self.cell_height >= CELL_HEIGHT else [top, label]
        step_part = 0 if step_on_top else len(parts) - 1
        lines = [
            self._fit_cell_line(
                parts[part] if part < len(parts) else [], base, step, part == step_part
            )
            for part in range(self.cell_height)
        ]
        art = self.jump_art_now()
        if art is not None:
            first = row * self.cell_height
            for part in range(self.cell_height):
                drawn = art.get(first + part)
                if drawn:
                    lines[part] = self._under_art(lines[part], drawn, col * width, base)
        return lines

    def _under_art(
        self, pieces: list[Piece], drawn: dict[int, tuple[str, int]], left: int, base: Style
    ) -> list[Piece]:
        """One line of a square with the drawn jumps showing through its blanks: a blank
        next to text stays blank, so numbers, labels and tokens read clearly."""
        width = self.cell_width
        if not any(column in drawn for column in range(left, left + width)):
            return pieces
        cells: list[Piece] = [(char, style) for text, style in pieces for char in text]
        paths = self.art_paths
        out: list[Piece] = []
        for index, (char, style) in enumerate(cells):
            art = drawn.get(left + index)
            if art is not None and char == " ":
                before = cells[index - 1][0] if index else " "
                after = cells[index + 1][0] if index + 1 < len(cells) else " "
                if before == " " and after == " ":
                    glyph, which = art
                    path = paths[which]
                    name = ART_CLASSES[path.kind, path.lane]
                    out.append((glyph, base + self.component_style(name, partial=True)))
                    continue
            out.append((char, style))
        return out

    def _fit_cell_line(
        self, part: list[Piece], base: Style, step: str | None, step_here: bool
    ) -> list[Piece]:
        """One line of a square: its pieces, the route step when it goes on this line,
        padded or cut to exactly ``cell_width``."""
        width = self.cell_width
        pieces = list(part)
        if step is not None and step_here:
            gap = width - _length(pieces) - cell_width(step)
            if gap >= 0:
                pieces.append((" " * gap, base))
                step_style = base + self.component_style("board--route-step", partial=True)
                pieces.append((step, step_style))
        used = _length(pieces)
        if used < width:
            pieces.append((" " * (width - used), base))
        elif used > width:
            # Never wider than a cell (labels are sized to fit; this is a safety net).
            trimmed: list[Piece] = []
            room = width
            for text, style in pieces:
                if room <= 0:
                    break
                text = cut_cells(text, room)
                trimmed.append((text, style))
                room -= cell_width(text)
            pieces = trimmed
        return pieces
