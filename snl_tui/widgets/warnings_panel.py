"""The editor's warnings: what ``snl check`` says about the board being edited, live.

``board_warnings`` and the notes on the board's looks at once; whether the drawn jumps
hide a number or another jump's end takes the routing (a while on a big board), so
those are found in a thread and added when known, unless the board changed meanwhile.
"""

from __future__ import annotations

from textual.widgets import Static

from ..core.board import Board
from ..core.studio.checks import board_warnings

__all__ = ["WarningsPanel"]


class WarningsPanel(Static):
    """The board's warnings, one a line ("No warnings." when there are none)."""

    shown_board: Board | None = None

    def update_from(self, board: Board) -> None:
        """The warnings of ``board``, then the drawing's (from a thread)."""
        self.shown_board = board
        self._show_warnings(_warnings_and_looks(board))
        self.run_worker(
            lambda: self._drawing_checked(board), thread=True, group="drawing", exclusive=True
        )

    def _show_warnings(self, warnings: list[str]) -> None:
        """``warnings``: each a line ("look: ..." for a note on the board's looks, the
        others get "warning: ")."""
        lines = [w if w.startswith("look: ") else f"warning: {w}" for w in warnings]
        self.update("\n".join(lines) if lines else "No warnings.")
        self.set_class(bool(warnings), "-warn")

    def _drawing_checked(self, board: Board) -> None:
        from ..core.studio.checks import drawing_findings
        from ..core.studio.looks import drawn_look_findings

        found = [finding.message for finding in drawing_findings(board)]
        found += [f"look: {finding.message}" for finding in drawn_look_findings(board)]
        if found:
            self.app.call_from_thread(self._add_drawing_warnings, board, found)

    def _add_drawing_warnings(self, board: Board, found: list[str]) -> None:
        if board is self.shown_board:  # not edited since
            self._show_warnings([*_warnings_and_looks(board), *found])


def _warnings_and_looks(board: Board) -> list[str]:
    """The editor's live warnings: ``board_warnings`` and the notes on the board's looks
    (jumps within a row, twin jumps: ``core.studio.looks``), as ``snl check`` gives them."""
    from ..core.studio.looks import look_findings

    return [*board_warnings(board), *(f"look: {f.message}" for f in look_findings(board))]
