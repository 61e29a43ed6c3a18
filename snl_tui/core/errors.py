"""The small family of errors the core raises, each with a message written for a person.

Every user mistake (a bad board file, a bad rule value, an illegal die value) raises one of
these; the CLI and the app show ``str(error)`` and never a traceback.
"""

from __future__ import annotations

from .text import clip, escape_controls

SOURCE_LIMIT = 80
"""How much of a file name an error message shows (a path can be any length)."""


class SnlError(Exception):
    """Base class of every error snl reports to a person."""


class BoardError(SnlError, ValueError):
    """A board (or board file) is malformed or breaks a rule of SPEC 2.

    ``source`` names the file (or built-in board) when known; ``where`` the line, row,
    column or entry inside it. ``str()`` gives the whole one-line message, with any
    control character (from a file name or a quoted value) escaped.
    """

    def __init__(self, message: str, *, source: str | None = None, where: str | None = None):
        self.message = message
        self.source = source
        self.where = where
        super().__init__(self._render())

    def _render(self) -> str:
        prefix = ""
        if self.source:
            prefix = f"{clip(escape_controls(self.source), SOURCE_LIMIT)}: "
        if self.where:
            prefix += f"{self.where}: "
        return escape_controls(prefix + self.message)

    def with_source(self, source: str) -> BoardError:
        """The same error, naming the file it came from (keeps the subclass)."""
        error = type(self).__new__(type(self))
        BoardError.__init__(error, self.message, source=source, where=self.where)
        return error


class RulesError(BoardError):
    """A rule option has an unknown name or a value outside its range."""


class MoveError(SnlError, ValueError):
    """A die value that is not allowed from the current position, or a move after the end."""
