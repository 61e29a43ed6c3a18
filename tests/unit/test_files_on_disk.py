"""Files snl writes get the user's umask, not 0600 (issue 36, item 12), through the one
atomic writer (``core.files.disk``); a replaced file keeps its mode; a failed write leaves
nothing behind. The one reading guard refuses what is not a regular file."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.files.disk import UnreadableFile, read_user_file, write_atomically
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.settings import Settings, save_settings
from snl_tui.core.studio.board_file import save_board
from snl_tui.export import export_board

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    """Set the process's umask for the test; the old one comes back after."""
    old = os.umask(0o022)
    os.umask(old)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(old)


def write_export(path: Path) -> Path:
    export_board(load_board("leetcode-2"), path.with_suffix(".svg"))
    return path.with_suffix(".svg")


def write_saved_board(path: Path) -> Path:
    save_board(load_board("leetcode-1"), path.with_suffix(".toml"), "toml")
    return path.with_suffix(".toml")


def write_settings(path: Path) -> Path:
    assert save_settings(Settings(theme="nord"), path.with_suffix(".toml")) is None
    return path.with_suffix(".toml")


def write_generated(path: Path) -> Path:
    target = path.with_suffix(".json")
    status = main(
        ["generate", "--size", "5", "--seed", "3", "--time-limit", "5", "-o", str(target)]
    )
    assert status == 0
    return target


WRITERS = [write_export, write_saved_board, write_settings, write_generated]


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.__name__)
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_the_users_umask(
    tmp_path: Path, umask: Callable[[int], None], writer: Callable[[Path], Path], mask: int
) -> None:
    umask(mask)
    written = writer(tmp_path / "out")
    assert mode_of(written) == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == [written.name]  # no temporary left


def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask: Callable[[int], None]) -> None:
    umask(0o022)
    path = tmp_path / "board.toml"
    path.write_text("old")
    path.chmod(0o640)
    write_atomically(path, "new")
    assert path.read_text() == "new" and mode_of(path) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "board.toml"
    path.write_text("old")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_atomically(path, b"new")
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["board.toml"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_the_reading_guard_refuses_a_fifo_a_folder_and_a_large_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    large = tmp_path / "large"
    large.write_bytes(b"x" * 101)
    for path, fragment in [
        (fifo, "not a regular file"),
        (tmp_path, "is a directory, not a thing"),
        (large, "too large for a thing"),
        (tmp_path / "missing", "no such file"),
    ]:
        with pytest.raises(UnreadableFile, match=fragment):
            read_user_file(path, 100, what="thing")
    assert read_user_file(large, 101) == b"x" * 101
