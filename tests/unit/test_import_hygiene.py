"""The core never imports Textual or Rich: scripts and the CLI's non-game commands stay light.

Each check runs in a fresh interpreter, so what another test imported cannot hide a leak.
The import-linter contracts in pyproject.toml (run by ``lint-imports`` in ``.ci/run``) say
the same about the source; these tests prove it about what really gets loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "snl_tui" / "core"
UI_PACKAGES = ("textual", "rich")


def loaded_ui_packages(code: str) -> tuple[int, list[str]]:
    """Run ``code`` in a fresh interpreter; its exit status and the UI packages it loaded."""
    probe = (
        "import sys\n"
        f"{code}\n"
        f"loaded = sorted(m for m in {UI_PACKAGES!r} if m in sys.modules)\n"
        "print('LOADED', *loaded, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
    assert last.startswith("LOADED"), result.stderr
    return result.returncode, last.split()[1:]


def test_no_core_module_names_textual_or_rich_in_an_import() -> None:
    offenders = []
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in UI_PACKAGES]
    assert offenders == []
    assert len(list(CORE.glob("*.py"))) >= 6  # the scan really looked at the core


def test_importing_the_library_api_loads_neither_textual_nor_rich() -> None:
    code = (
        "import importlib, pkgutil, snl_tui.core as core\n"
        "from snl_tui import Board, Rules, solve, load_board, analyze\n"
        "for m in pkgutil.iter_modules(core.__path__):\n"
        "    importlib.import_module('snl_tui.core.' + m.name)\n"
        "solve(load_board('classic'))\n"
        "status = 0\n"
    )
    assert loaded_ui_packages(code) == (0, [])


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "classic"],
        ["solve", "classic", "--json"],
        ["analyze", "leetcode-1"],
        ["analyze", "leetcode-1", "--json"],
        ["check", "classic"],
        ["convert", "classic", "--to", "txt"],
    ],
    ids=" ".join,
)
def test_the_non_game_commands_load_neither_textual_nor_rich(argv: list[str]) -> None:
    code = f"from snl_tui.cli.main import main\nstatus = main({argv!r})\n"
    status, loaded = loaded_ui_packages(code)
    assert status in (0, 1)  # 1: `check` found warnings; never a usage error
    assert loaded == []


def test_the_probe_sees_a_ui_package_when_one_is_loaded() -> None:
    # The check above is only worth something if it can fail.
    assert loaded_ui_packages("import rich.text\nstatus = 0\n") == (0, ["rich"])
