"""End to end: ``snl play classic`` at 80x24 in a real xterm with Sixel (issue 35).

The board on the screen is a picture, not text (the squares' colours fill a square
region of the screenshot), it is the export's picture of the board (the screenshot's
grid matches ``export.picture.board_image`` drawn at the same size), and it changes
when a token moves. Skipped where Xvfb, xterm, ImageMagick or xdotool are missing
(``.ci/run`` installs them).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from snl_tui.core.files.formats import load_board
from snl_tui.export.picture import board_image
from snl_tui.export.svg import THEME_COLOURS

from .terminal import SNL
from .xterm import missing_programs, xterm_running

pytestmark = pytest.mark.e2e

TIMEOUT = 30.0
THUMB = (80, 80)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def grid_box(path: Path) -> tuple[int, int, int, int] | None:
    """The bounding box of the board's square colours in a screenshot (None: none)."""
    from PIL import Image

    colours = THEME_COLOURS["colour"]
    wanted = [_rgb(colours.light), _rgb(colours.dark)]
    image = Image.open(path).convert("RGB")
    mask = Image.new("1", image.size)
    pixels, out = image.load(), mask.load()
    assert pixels is not None and out is not None
    for y in range(image.height):
        for x in range(image.width):
            r, g, b = pixels[x, y]  # type: ignore[misc]
            if any(abs(r - a) + abs(g - c) + abs(b - d) < 24 for a, c, d in wanted):
                out[x, y] = 1
    return mask.getbbox()


def difference(path: Path, box: tuple[int, int, int, int], reference: object) -> float:
    """Mean absolute difference (0-255) between the screenshot's ``box`` and
    ``reference`` (an image of the box's size), both scaled down to a square's
    resolution of a few pixels: a pixel's shift in where the box was found is not a
    difference, a missing ladder or a text board is."""
    from PIL import Image, ImageChops, ImageStat

    assert isinstance(reference, Image.Image)
    crop = Image.open(path).convert("RGB").crop(box).resize(THUMB, Image.Resampling.BOX)
    scaled = reference.convert("RGB").resize(THUMB, Image.Resampling.BOX)
    stat = ImageStat.Stat(ImageChops.difference(crop, scaled))
    return sum(stat.mean) / 3


def changed_pixels(before: Path, after: Path, box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` differ clearly between two screenshots."""
    from PIL import Image, ImageChops

    one = Image.open(before).convert("L").crop(box)
    two = Image.open(after).convert("L").crop(box)
    return sum(
        ImageChops.difference(one, two).point(lambda v: 255 if v > 60 else 0).histogram()[255:]
    )


def test_classic_at_80x24_is_a_picture_that_moves(tmp_path: Path) -> None:
    missing = missing_programs()
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (Debian: xvfb, xterm, imagemagick, xdotool)")
    if not SNL.exists():
        pytest.skip("the snl console script is not installed in this virtualenv")
    command = (
        f"env SNL_DATA_DIR='{tmp_path}' '{SNL}' play classic --seed 3 --no-save "
        "--players You,cpu --graphics auto --no-animation"
    )
    board = load_board("classic")
    with xterm_running(command, 80, 24) as term:
        shot = tmp_path / "before.png"
        box = None

        def square(box: tuple[int, int, int, int] | None) -> bool:
            # A picture fills a square: 10x10 squares of the export's colours, not text.
            width, height = (box[2] - box[0], box[3] - box[1]) if box else (0, 0)
            return width > 150 and abs(width - height) <= max(4, width // 30)

        # The first frame, the panels' arrival, then the snakes and ladders once routed
        # (in a thread): wait for the picture to settle into the export's board.
        deadline = time.monotonic() + TIMEOUT
        matched = False
        while not matched and time.monotonic() < deadline:
            box = grid_box(term.shot(shot))
            if box is not None and square(box):
                reference = board_image(board, box[2] - box[0], box[3] - box[1])
                matched = difference(shot, box, reference) < 8
        assert box is not None and square(box), f"no board picture appeared ({box})"
        assert matched, "the picture is not the export's board"
        term.press("r")
        after = tmp_path / "after.png"
        changed = False
        deadline = time.monotonic() + TIMEOUT
        while not changed and time.monotonic() < deadline:
            term.shot(after)
            changed = changed_pixels(shot, after, box) > 40  # a token the size of a square's third
        assert changed, "the picture did not change when a token moved"
