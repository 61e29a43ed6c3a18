"""The board's pictures on disk: each board's encoded tiles, per size, in the user's cache.

``board_picture.PictureRenderer`` saves a board's Sixel tiles once it has drawn them
(``save_tiles``) and finds them there the next time (``load_tiles``), so that a board's
first picture comes without loading Pillow or NumPy or routing a jump. A file that is
not exactly what snl wrote is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from textual.geometry import Region

from ..core.board import Board

CACHE_VERSION = 1
CACHED_PICTURES = 24
CACHE_BYTES = 64 << 20
"""Board pictures kept on disk, and their bytes in all (the oldest go first)."""
_SIXEL = re.compile(r'\x1bP[0-9;]*q"1;1;(\d+;\d+)[\x20-\x7e]*\x1b\\')
"""A cached tile must be one Sixel picture and nothing else (a damaged or planted cache
file never reaches the terminal)."""


def picture_cache_dir() -> Path:
    """Where the encoded board pictures are kept: the user's cache folder, or beside the
    data in ``$SNL_DATA_DIR`` when that is set (tests, scripts)."""
    from ..core.store.data_dir import DATA_DIR_ENV, default_dir

    if os.environ.get(DATA_DIR_ENV):
        return default_dir() / "cache" / "pictures"
    import platformdirs

    return Path(platformdirs.user_cache_dir("snl", appauthor=False)) / "pictures"


@lru_cache(maxsize=1)
def _code_stamp() -> str:
    """The drawing code's fingerprint: a cached picture drawn by other code is not used."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    geometry = sorted(
        f"core/geometry/{path.name}" for path in (root / "core/geometry").glob("*.py")
    )
    for name in (*geometry, "export/picture.py", "export/sixel.py"):
        try:
            digest.update((root / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()[:16]


def cache_name(board: Board, key: tuple[object, ...]) -> str:
    """The file name of ``board``'s picture for ``key`` (its size, cells, background)."""
    what = (CACHE_VERSION, _code_stamp(), board.rows, board.cols, sorted(board.jumps.items()))
    return hashlib.sha256(repr((what, key)).encode()).hexdigest()[:32] + ".json"


def cache_limit(width: int, height: int) -> int:
    """The most bytes a cached picture of ``width`` x ``height`` pixels may take: about
    ten times what a board's picture takes (a Sixel of the board's few flat colours is
    under a byte for four pixels), never the 630 MB a planted file once sent."""
    return 2 * width * height + (1 << 20)


def load_tiles(name: str, key: tuple[object, ...]) -> dict[Region, str] | None:
    """The encoded tiles saved as ``name`` for the picture ``key`` (columns, lines, cell
    size, ...), or None: none, or not what snl wrote. Read through the board files'
    guard (a regular file, at most ``cache_limit`` bytes: a FIFO never blocks, a link to
    ``/dev/zero`` is refused); each tile must be one Sixel picture of exactly its own
    size in pixels."""
    from ..core.files.disk import UnreadableFile, read_user_file

    columns, lines, cell = key[0], key[1], key[2]
    assert isinstance(columns, int) and isinstance(lines, int) and isinstance(cell, tuple)
    cell_w, cell_h = cell
    limit = cache_limit(columns * cell_w, lines * cell_h)
    try:
        raw = read_user_file(picture_cache_dir() / name, limit, "cached picture")
        data = json.loads(raw.decode("ascii"))
        tiles = {Region(x, y, w, h): sixel for x, y, w, h, sixel in data}
    except (UnreadableFile, ValueError, TypeError, UnicodeDecodeError):
        return None
    for tile, sixel in tiles.items():
        found = isinstance(sixel, str) and _SIXEL.fullmatch(sixel)
        if not found or found.group(1) != f"{tile.width * cell_w};{tile.height * cell_h}":
            return None
    return tiles


def save_tiles(name: str, tiles: dict[Region, str]) -> None:
    """Keep ``tiles`` as ``name`` (atomically; the oldest pictures go beyond
    ``CACHED_PICTURES`` of them or ``CACHE_BYTES`` in all). A cache that cannot be
    written is no error."""
    from ..core.files.disk import write_atomically

    folder = picture_cache_dir()
    data = [[*tile, sixel] for tile, sixel in tiles.items()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / name, json.dumps(data))
        kept = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime)
        sizes = [path.stat().st_size for path in kept]
        while kept and (len(kept) > CACHED_PICTURES or sum(sizes) > CACHE_BYTES):
            kept.pop(0).unlink(missing_ok=True)
            sizes.pop(0)
    except OSError:
        pass
