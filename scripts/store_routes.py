"""Route the built-in boards and store the routings (``core.geometry.stored``): run after
any change to the routing's code (tests/unit/test_stored_routes.py says when).

Run:  python scripts/store_routes.py
"""

from __future__ import annotations

from snl_tui.core.files.formats import builtin_names, load_board
from snl_tui.core.geometry.stored import ROUTES, write_routes

if __name__ == "__main__":
    write_routes([load_board(name) for name in builtin_names()])
    print(f"wrote {ROUTES} ({ROUTES.stat().st_size:,} bytes)")
