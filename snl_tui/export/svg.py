"""A board as a printable page, in SVG: the squares, the jumps, the name, rules and legend.

The page is drawn in points (1/72 inch) on A4 or US Letter with margins, the grid as
large as fits under the title. The snakes and ladders follow ``core.geometry`` (the
shapes the terminal draws in braille, here as smooth lines). Each jump is one
``<g class="ladder">`` or ``<g class="snake">`` with ``data-from`` and ``data-to``, so
the file can be read back or styled. The ``print`` theme is black on white (snakes and
ladders told apart by shape and by shade), ``colour`` adds colour. No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from itertools import pairwise

from ..core.board import Board
from ..core.geometry import NUMBER_HEIGHT, JumpPath, Point, jump_paths, number_boxes

PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
"""Page sizes in points, portrait."""
PAPER_SIZES_MM = {"a4": ("210mm", "297mm"), "letter": ("215.9mm", "279.4mm")}
THEMES = ("print", "colour")
MARGIN = 40.0
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


@dataclass(frozen=True)
class Theme:
    """The page's colours: squares, text, and each kind of jump in its two lanes."""

    light: str
    dark: str
    goal: str
    text: str
    muted: str
    ladder: tuple[str, str]
    snake: tuple[str, str]
    snake_belly: tuple[str, str]


THEME_COLOURS = {
    "print": Theme(
        light="#ffffff",
        dark="#e6e6e6",
        goal="#c8c8c8",
        text="#000000",
        muted="#444444",
        ladder=("#222222", "#555555"),
        snake=("#111111", "#444444"),
        snake_belly=("#ffffff", "#d0d0d0"),
    ),
    "colour": Theme(
        light="#fff8e7",
        dark="#f3e2b8",
        goal="#f6c945",
        text="#1f1a10",
        muted="#5a4d33",
        ladder=("#7a4b1e", "#2f6d3a"),
        snake=("#b3261e", "#1f5fa8"),
        snake_belly=("#f4b400", "#9fd3f5"),
    ),
}


@dataclass(frozen=True)
class PageOptions:
    """What ``snl export`` was asked for."""

    paper: str = "a4"
    theme: str = "print"
    title: str | None = None
    rules: bool = True


def _smooth_path(points: tuple[Point, ...], scale: float, left: float, top: float) -> str:
    """An SVG path through the middles of ``points``' segments, each corner a quadratic
    curve: the geometry's sampled wave, drawn smooth."""
    placed = [(left + x * scale, top + y * scale) for x, y in points]
    (x0, y0), rest = placed[0], placed[1:]
    commands = [f"M {x0:.2f} {y0:.2f}"]
    for (ax, ay), (bx, by) in pairwise(rest):
        commands.append(f"Q {ax:.2f} {ay:.2f} {(ax + bx) / 2:.2f} {(ay + by) / 2:.2f}")
    x1, y1 = placed[-1]
    commands.append(f"L {x1:.2f} {y1:.2f}")
    return " ".join(commands)


def _points(points: tuple[Point, ...], scale: float, left: float, top: float) -> str:
    return " ".join(f"{left + x * scale:.2f},{top + y * scale:.2f}" for x, y in points)


def board_svg(board: Board, options: PageOptions | None = None) -> str:
    """The page for ``board`` as an SVG document."""
    options = options or PageOptions()
    colours = THEME_COLOURS[options.theme]
    page_w, page_h = PAPERS[options.paper]
    title = options.title if options.title is not None else (board.name or "Snakes & Ladders")
    title_size = 22.0
    header_h = title_size + 18
    footer_h = 18.0 * (2 if options.rules else 1) + 12
    room_w = page_w - 2 * MARGIN
    room_h = page_h - 2 * MARGIN - header_h - footer_h
    square = min(room_w / board.cols, room_h / board.rows)
    grid_w, grid_h = square * board.cols, square * board.rows
    left = (page_w - grid_w) / 2
    # The title, grid and footer as one block, centred on the page.
    block_top = MARGIN + (room_h - grid_h) / 2
    top = block_top + header_h
    width_mm, height_mm = PAPER_SIZES_MM[options.paper]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_mm}" height="{height_mm}" '
        f'viewBox="0 0 {page_w:.2f} {page_h:.2f}" font-family="{FONT}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{page_w:.2f}" height="{page_h:.2f}" fill="#ffffff"/>',
        f'<text class="title" x="{page_w / 2:.2f}" y="{block_top + title_size:.2f}" '
        f'font-size="{title_size}" font-weight="bold" text-anchor="middle" '
        f'fill="{colours.text}">{escape(title)}</text>',
        '<g class="squares">',
    ]
    # The numbers' boxes are the geometry's (``number_boxes``): the jumps are routed round
    # them, and a number a jump still crosses sits in a clear corner of its square.
    boxes = number_boxes(board)
    number_size = square * NUMBER_HEIGHT / 1.15
    numbers = ['<g class="numbers">']  # drawn over the jumps: they stay readable
    for square_number in range(1, board.goal + 1):
        row, col = board.position_of(square_number)
        x, y = left + col * square, top + row * square
        if square_number == board.goal:
            fill = colours.goal
        else:
            fill = colours.light if (row + col) % 2 == 0 else colours.dark
        out.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{square:.2f}" height="{square:.2f}" '
            f'fill="{fill}" stroke="{colours.muted}" stroke-width="0.5"/>'
        )
        bx0, by0, bx1, by1 = boxes[square_number]
        # On a patch of its square's colour: where no route missed it (``snl check``
        # warns), the number still reads over the jump.
        numbers.append(
            f'<rect x="{left + bx0 * square:.2f}" y="{top + by0 * square:.2f}" '
            f'width="{(bx1 - bx0) * square:.2f}" height="{(by1 - by0) * square:.2f}" '
            f'fill="{fill}"/>'
        )
        numbers.append(
            f'<text class="number" x="{left + (bx0 + 0.02) * square:.2f}" '
            f'y="{top + by0 * square + number_size:.2f}" font-size="{number_size:.2f}" '
            f'fill="{colours.text}">{square_number}</text>'
        )
    out.append("</g>")
    out.append(
        f'<rect x="{left:.2f}" y="{top:.2f}" width="{grid_w:.2f}" height="{grid_h:.2f}" '
        f'fill="none" stroke="{colours.text}" stroke-width="1.5"/>'
    )
    out.append('<g class="jumps">')
    for path in jump_paths(board):
        out.append(_jump_svg(path, square, left, top, colours))
    out.append("</g>")
    out += [*numbers, "</g>"]
    # The footer: the rules line, then the legend.
    y = top + grid_h + 22
    if options.rules:
        out.append(
            f'<text class="rules" x="{page_w / 2:.2f}" y="{y:.2f}" font-size="11" '
            f'text-anchor="middle" fill="{colours.muted}">'
            f"Rules: {escape(board.rules.describe())}</text>"
        )
        y += 18
    out.append(_legend_svg(page_w / 2, y, colours))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _jump_svg(path: JumpPath, scale: float, left: float, top: float, colours: Theme) -> str:
    jump = path.jump
    head = f'<g class="{jump.kind}" data-from="{jump.start}" data-to="{jump.end}">'
    parts = [head, f"<title>{jump.kind} {jump.start} to {jump.end}</title>"]
    if jump.kind == "ladder":
        colour = colours.ladder[path.lane]
        rail = max(1.2, scale * 0.05)
        for a, b in path.rungs:
            parts.append(
                f'<polyline points="{_points((a, b), scale, left, top)}" fill="none" '
                f'stroke="{colour}" stroke-width="{rail * 0.8:.2f}" stroke-linecap="round"/>'
            )
        for rail_line in path.rails:
            parts.append(
                f'<polyline points="{_points(rail_line, scale, left, top)}" fill="none" '
                f'stroke="{colour}" stroke-width="{rail:.2f}" stroke-linecap="round"/>'
            )
    else:
        colour, belly = colours.snake[path.lane], colours.snake_belly[path.lane]
        body = max(2.0, scale * 0.11)
        body_path = _smooth_path(path.body, scale, left, top)
        parts.append(
            f'<path d="{body_path}" fill="none" stroke="{colour}" '
            f'stroke-width="{body:.2f}" stroke-linecap="round" stroke-linejoin="round"/>'
        )
        # A stripe down the back: a snake reads as a snake in black and white too.
        parts.append(
            f'<path d="{body_path}" fill="none" stroke="{belly}" '
            f'stroke-width="{body * 0.3:.2f}" stroke-linecap="round" '
            f'stroke-dasharray="{body * 0.6:.2f} {body * 0.6:.2f}"/>'
        )
        hx, hy = left + path.start[0] * scale, top + path.start[1] * scale
        radius = body * 1.05
        parts.append(
            f'<circle class="head" cx="{hx:.2f}" cy="{hy:.2f}" r="{radius:.2f}" fill="{colour}"/>'
        )
        eye = radius * 0.28
        for dx in (-0.4, 0.4):
            parts.append(
                f'<circle cx="{hx + dx * radius:.2f}" cy="{hy - radius * 0.25:.2f}" '
                f'r="{eye:.2f}" fill="#ffffff"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def _legend_svg(centre: float, y: float, colours: Theme) -> str:
    """A ladder and a snake, each with its meaning, centred at ``centre``."""
    ladder, snake = colours.ladder[0], colours.snake[0]
    x = centre - 230
    return (
        '<g class="legend" font-size="11">'
        f'<polyline points="{x:.2f},{y:.2f} {x + 18:.2f},{y - 10:.2f}" stroke="{ladder}" '
        f'stroke-width="2" fill="none"/>'
        f'<polyline points="{x + 4:.2f},{y + 3:.2f} {x + 22:.2f},{y - 7:.2f}" '
        f'stroke="{ladder}" stroke-width="2" fill="none"/>'
        f'<text x="{x + 28:.2f}" y="{y:.2f}" fill="{colours.text}">'
        "Ladder: climb from its foot to its top</text>"
        f'<path d="M {x + 250:.2f} {y - 4:.2f} q 6 -6 12 0 t 12 0 t 12 0" stroke="{snake}" '
        f'stroke-width="3" fill="none" stroke-linecap="round"/>'
        f'<circle cx="{x + 248:.2f}" cy="{y - 4:.2f}" r="3.5" fill="{snake}"/>'
        f'<text x="{x + 292:.2f}" y="{y:.2f}" fill="{colours.text}">'
        "Snake: slide from its head to its tail</text>"
        "</g>"
    )
