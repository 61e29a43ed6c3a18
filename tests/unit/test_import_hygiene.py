"""The core never imports Textual: scripts and the CLI's non-game commands stay light."""

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "snl_tui" / "core"


def test_no_core_module_names_textual_in_an_import():
    offenders = []
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "textual"]
    assert offenders == []
    assert len(list(CORE.glob("*.py"))) >= 6  # the scan really looked at the core


def test_importing_the_library_api_does_not_load_textual():
    code = (
        "import sys, importlib, pkgutil, snl_tui.core as core\n"
        "from snl_tui import Board, Rules, solve, load_board, analyze\n"
        "for m in pkgutil.iter_modules(core.__path__):\n"
        "    importlib.import_module('snl_tui.core.' + m.name)\n"
        "solve(load_board('classic'))\n"
        "print('textual' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
