"""``snl export``: the printable page's structure, its formats, and its one-line errors."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from snl_tui.cli.main import main
from snl_tui.core.files.formats import load_board
from snl_tui.export import PageOptions, export_board
from snl_tui.export.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["classic", "everest", "river", "leetcode-1"])
def test_the_svg_has_one_group_per_jump_and_every_square_number(name: str) -> None:
    board = load_board(name)
    root = ET.fromstring(board_svg(board))
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") in ("ladder", "snake")]
    found = {(g.get("class"), int(g.get("data-from", 0)), int(g.get("data-to", 0))) for g in groups}
    expected = {(j.kind, j.start, j.end) for j in (*board.ladders, *board.snakes)}
    assert len(groups) == len(expected) and found == expected
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "number"]
    assert sorted(int(n or 0) for n in numbers) == list(range(1, board.goal + 1))


def test_the_title_rules_and_theme_follow_the_options() -> None:
    board = load_board("classic")
    page = board_svg(board, PageOptions(title="<Our & board>", rules=False, theme="colour"))
    root = ET.fromstring(page)  # the title is escaped: still well-formed XML
    titles = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"]
    assert titles == ["<Our & board>"]
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "rules"]
    with_rules = ET.fromstring(board_svg(board))
    rules = [t.text for t in with_rules.iter(f"{SVG}text") if t.get("class") == "rules"]
    assert rules == [f"Rules: {board.rules.describe()}"]
    assert page != board_svg(board, PageOptions(title="<Our & board>", rules=False))


@pytest.mark.parametrize(("paper", "size"), [("a4", "210mm"), ("letter", "215.9mm")])
def test_the_paper_size(paper: str, size: str) -> None:
    root = ET.fromstring(board_svg(load_board("classic"), PageOptions(paper=paper)))
    assert root.get("width") == size


def test_a_builtin_board_exports_by_name_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run("export", "classic", "-o", "page.svg")
    assert (status, err) == (0, "")
    assert "page.svg" in out
    assert (tmp_path / "page.svg").read_text().startswith("<?xml")


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("page.txt", "use .svg, .pdf or .png"),
        ("page", "use .svg, .pdf or .png"),
        ("missing/page.svg", "there is no folder"),
    ],
)
def test_a_bad_output_is_one_line_exit_2_and_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run("export", "classic", "-o", target)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_unwritable_folder_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        status, _, err = run("export", "classic", "-o", str(folder / "page.pdf"))
        assert status == 2 and err.count("\n") == 1 and "cannot write" in err
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_an_existing_page_is_kept_unless_forced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: `snl export` overwrote silently while `snl generate` refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "page.svg").write_text("mine")
    status, out, err = run("export", "classic", "-o", "page.svg")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "the file exists; --force replaces it" in err
    assert (tmp_path / "page.svg").read_text() == "mine"
    status, _, err = run("export", "classic", "-o", "page.svg", "--force")
    assert (status, err) == (0, "")
    assert (tmp_path / "page.svg").read_text().startswith("<?xml")


def test_a_bad_board_is_one_line(tmp_path: Path) -> None:
    status, _, err = run("export", "no-such-board", "-o", str(tmp_path / "x.svg"))
    assert status == 2 and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_png_page(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG export needs CairoSVG")
    path = tmp_path / "page.png"
    assert export_board(load_board("classic"), path) == "png"
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["page.png"]  # no temporary file left


def test_a_pdf_page_renders_with_pdftoppm(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PDF export needs CairoSVG")
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: the PDF cannot be rendered")
    path = tmp_path / "page.pdf"
    status, _, err = run("export", "classic", "-o", str(path), "--paper", "letter")
    assert (status, err) == (0, "")
    subprocess.run(
        ["pdftoppm", "-r", "20", "-gray", "-singlefile", str(path), str(tmp_path / "page")],
        check=True,
    )
    header, pixels = _read_pgm(tmp_path / "page.pgm")
    width, height = header
    assert (width, height) == (170, 220)  # US Letter at 20 dpi: one page, portrait
    dark = sum(1 for value in pixels if value < 128)
    assert 0.02 < dark / len(pixels) < 0.5  # lines and numbers drawn, not a blank page


def _read_pgm(path: Path) -> tuple[tuple[int, int], bytes]:
    data = path.read_bytes()
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P5"
    width, height = int(fields[1]), int(fields[2])
    return (width, height), fields[4][: width * height]
