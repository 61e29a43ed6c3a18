"""What the game screen says about a key or a click: why a key does nothing now, and
what a clicked square holds with the expected turns left from it.

Plain functions of the session: the screen (``screens/game.py``) keeps the keys' Textual
mechanics (its bindings, ``check_action``, ``on_key``) and shows what these return.
"""

from __future__ import annotations

from collections.abc import Container

from ..commands import DIE_KEYS, command, keys_of
from ..core.board import Board
from ..core.session import GameSession, dice_keys
from ..core.text import quote
from .background import NOTHING

__all__ = ["key_refusal", "square_odds_text", "unbound_key_text"]


def key_refusal(
    session: GameSession, key: str, character: str | None, *, printable: bool, bound: Container[str]
) -> str | None:
    """Why a key does nothing now (``r`` after the game, ``u`` in classic mode, a key
    bound to nothing), or None when it acts or is not the game's to explain."""
    for action in ("roll", "undo", "learn"):
        if key in command(action).keys.split(","):
            return session.why_unavailable(action, keys_of)
    if key in DIE_KEYS:
        return session.why_unavailable("pick", keys_of)
    if printable and key not in bound:
        # A key that means nothing here says so, instead of doing nothing.
        return unbound_key_text(session, character or key)
    return None


def unbound_key_text(session: GameSession, key: str) -> str:
    shown = quote(key)
    if session.puzzle and key.isdigit():
        faces = session.board.rules.faces
        return f"{shown} is not a die value: choose {dice_keys(faces, keys_of)}."
    return f"{shown} does nothing here: {keys_of('help')} lists the keys."


def square_odds_text(session: GameSession, board: Board, square: int) -> str:
    """What a clicked square holds with the expected turns left from it (the analysis:
    call it in a worker); ``NOTHING`` when the analysis has no answer."""
    from ..core.engine import landing_table
    from ..core.errors import SnlError
    from ..core.odds.markov import expected_turns

    # A token never rests on a jump's start: it goes on from where the engine lands it
    # (under ``chain``, the end of the last jump).
    rests = landing_table(board)[square]
    try:
        expected = expected_turns(board, rests)
    except SnlError:
        return NOTHING  # type: ignore[no-any-return]
    return session.square_text(square, expected)
