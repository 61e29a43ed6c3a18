"""What a person types into a room, checked: names (``check_name``, compared by
``name_key``), chat lines (``check_chat``), and the texts from the other end as shown
(``shown_text``). ``ProtocolError`` lives here so the checks can raise it; everything
here is importable from ``net.protocol`` too."""

from __future__ import annotations

import unicodedata

from ..core.engine import Player
from ..core.errors import SnlError
from ..core.text import is_unsafe_char, quote, safe_line


class ProtocolError(SnlError):
    """A frame that breaks the protocol; ``code`` is the short name sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


MAX_SHOWN = 300
"""Characters of a host's notice or error a client shows at most."""


def shown_text(text: str) -> str:
    """A text from the other end (a notice, an error, a refusal) as a client shows it:
    one line, control characters escaped, ``MAX_SHOWN`` characters at most."""
    return safe_line(text, MAX_SHOWN)


def is_invisible(char: str) -> bool:
    """A format, zero-width or tag character (Unicode category Cf: U+200B, U+2060, U+FEFF,
    U+200E/F, the tags U+E0000-U+E007F...): it shows as nothing, so ``B\u200bob`` would
    read as Bob. Names refuse them, chat lines lose them."""
    return unicodedata.category(char) == "Cf" or 0xE0000 <= ord(char) <= 0xE007F


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, spaces collapsed, so that
    "Ann" in full-width letters, "ANN" and "ann" are one person's name at a table."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def check_chat(text: str) -> str:
    """A chat line, stripped, without invisible characters (``is_invisible``);
    ProtocolError with the reason otherwise (the server checks, and every screen escapes
    what it shows anyway)."""
    text = " ".join("".join(char for char in text if not is_invisible(char)).split())
    if not text:
        raise ProtocolError("bad-chat", "an empty chat line")
    if any(is_unsafe_char(char) or unicodedata.category(char) == "Cs" for char in text):
        raise ProtocolError("bad-chat", "a chat line cannot contain control characters")
    return text


def check_name(name: str) -> str:
    """A person's name for a seat, stripped; ProtocolError with the reason otherwise."""
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("bad-name", "a name is needed to join")
    if any(is_unsafe_char(char) or unicodedata.category(char) == "Cs" for char in name):
        raise ProtocolError("bad-name", "a name cannot contain control characters")
    if any(is_invisible(char) for char in name):
        raise ProtocolError(
            "bad-name", "a name cannot contain invisible (zero-width or format) characters"
        )
    if not name_key(name):
        raise ProtocolError("bad-name", "a name is needed to join")
    if "," in name:
        raise ProtocolError("bad-name", "a name cannot contain a comma")
    if Player.parse(name).computer:
        raise ProtocolError("bad-name", f"{quote(name)} names a computer player: choose another")
    return name
