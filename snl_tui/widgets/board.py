"""The board: one Line-API widget drawing every square through ``render_line``.

A board of any size is one ``ScrollView``: each square is a block of ``cell_height`` lines
by ``cell_width`` columns (sized to the room: they grow on a big terminal and shrink to two
lines on a short one, so a 10x10 board fits 80x24 whole), drawn from the immutable
``Board`` plus a small per-square state (tokens, route step). Lines are cached; after a
move only the lines of squares whose state changed are invalidated and repainted, so a
20x20 board repaints a few lines, not the whole grid. The widget holds no rules: it only
draws what the app tells it.

The widget holds its drawing as a strategy (``BoardRenderer``): ``TextRenderer`` draws
the characters (with the drawing of ``board_text.TextBoard``, the widget's base);
``board_picture.PictureRenderer`` draws the same board in pixels
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
from typing import TYPE_CHECKING

from rich.style import Style
from textual.geometry import Region, Size
from textual.reactive import var
from textual.strip import Strip

from ..commands import keys_of
from ..core.board import Board
from ..core.cells import cell_width
from ..core.engine import Turn
from ..messages import SettingChanged
from .board_text import (
    BARE,
    CELL_HEIGHT,
    EMPTY,
    FULL,
    LADDER,
    LADDER_END,
    ROUTE_MARK,
    SNAKE,
    SNAKE_END,
    STATUS_ONLY,
    BoardRenderer,
    CellState,
    Piece,
    TextBoard,
)

if TYPE_CHECKING:
    from ..core.geometry import JumpPath
    from ..export.picture import Marks
    from .jump_art import Art

STEP_DELAY = 0.06
"""Seconds per square as a token walks (``BoardView.walk``, at pace 1)."""
JUMP_DELAY = 0.18
"""Seconds before a token takes the jump it landed on."""
DRAW_MIN_EXTRA = 4
"""Jumps are drawn on squares at least this many columns wider than the goal's number
and ``CELL_HEIGHT`` lines tall: on smaller squares (classic at 80x24) the braille lines
are fragments between the labels that nobody can follow, and the markers read better."""
MIN_CELL_HEIGHT, MAX_CELL_HEIGHT = 2, 6
"""Two lines still read (the tokens share the jump's line); taller squares only on big
terminals."""
LEGEND_ITEMS = (
    f"{LADDER} ladder",
    f"{SNAKE} snake",
    f"{LADDER_END}{SNAKE_END} jump ends",
    f"{ROUTE_MARK}n route step",
)
LEGEND_GAP = "  "


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


class BoardView(TextBoard, can_focus=True):
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

    def decorate_marks(self, marks: Marks) -> Marks:
        """What the picture lays over the board: a subclass adds its marks, as it does
        to the characters in ``decorate_square``; the game's board adds none."""
        return marks

    def square_at_offset(self, x: int, y: int) -> int | None:
        """The square under content offset (x, y) (a click), None off the board."""
        return self.renderer.square_at(x, y)
