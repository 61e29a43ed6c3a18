"""Fixtures for the Pilot tests: apps with animation off and computer players instant."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from snl_tui.app import SnlApp


@pytest.fixture
def make_app() -> Callable[..., SnlApp]:
    """``make_app(board=..., players=[...], mode=..., seed=...)``: a quiet, seeded app."""

    def factory(**options: object) -> SnlApp:
        options.setdefault("seed", 7)
        options.setdefault("animate", False)
        app = SnlApp(**options)  # type: ignore[arg-type]
        app.game_screen.computer_delay = 0
        return app

    return factory
