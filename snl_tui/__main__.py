"""``python -m snl_tui``: the same as the ``snl`` command."""

from snl_tui.cli.main import run

raise SystemExit(run())
