"""The character board: ``TextBoard``, the squares drawn as characters through ``render_line``.

``board.BoardView`` is a ``TextBoard`` that keeps the game's state (tokens, route, the
drawn jumps, zoom) and holds its drawing as a strategy (``BoardRenderer``): its
``TextRenderer`` draws with the ``text_*`` methods here, ``board_picture.PictureRenderer``
with pixels. Lines are cached per grid line and squares per square (``line_cache``,
``cell_memo``); the layout (cell size, legend, status line) is set by ``BoardView``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..core.board import Board
from ..core.cells import cell_width, cut_cells
from ..core.engine import Turn

if TYPE_CHECKING:
    from ..core.geometry import JumpPath
    from .jump_art import Art


CELL_HEIGHT = 3
"""Lines per square when the board scrolls anyway (the number, the jump, the tokens)."""
LADDER, SNAKE = "▲", "▼"
LADDER_END, SNAKE_END = "△", "▽"
ROUTE_MARK = "»"
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


class TextBoard(ScrollView):
    """The board drawn as characters: the painting, caching and scrolling of the grid.
    ``BoardView`` (its only subclass) sets the state below and the layout."""

    board: Board
    letters: tuple[str, ...]
    current_seat: int | None
    cell_states: dict[int, CellState]
    off_board: tuple[int, ...]
    line_cache: dict[int, Strip]
    cell_memo: dict[int, list[list[Piece]]]
    cache_geometry: tuple[int, int | None]
    base_style: Style | None
    palette: dict[tuple[str, bool], Style]
    restyled: bool
    pending_follow: int | None
    followed: int | None
    fitted_size: Size | None
    lines_painted: int
    squares_painted: int
    art_paths: tuple[JumpPath, ...]
    cell_width: int
    cell_height: int
    extras: int
    legend: list[str]
    jump_ends: dict[int, str]
    renderer: BoardRenderer

    def fit_to_size(self) -> None:
        """Size the squares to the view (``BoardView`` lays them out)."""

    def jump_art_now(self) -> Art | None:
        """The drawn jumps for the current squares (``BoardView`` makes them)."""
        return None

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
