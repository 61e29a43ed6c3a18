"""Shared by the lab's tests: the folder of solutions, and writing a solution file."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

SOLUTIONS = Path(__file__).parent / "solutions"


@pytest.fixture
def write_solution(tmp_path: Path) -> Callable[[str], Path]:
    """``write_solution(source)``: a solution file in a fresh folder (dedented)."""

    def write(source: str, name: str = "solution.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write
