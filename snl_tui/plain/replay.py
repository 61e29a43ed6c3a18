"""``snl replay ID --screen-reader``: a saved game told again, one move a line.

The engine plays the saved game again from its start (a rolled die is drawn again from
the game's own seed, a chosen one played as chosen, so every move, extra roll and
cancelled turn comes out as it happened), and each move is said as in the game.
"""

from __future__ import annotations

from ..core.engine import Game
from ..core.session import GameSession
from . import words
from .console import Console


def replay_lines(session: GameSession) -> list[str]:
    """Every line of the replay: the board, the players, each move, the result."""
    played = session.game
    game = Game(played.board, played.players, played.seed)
    lines = [words.board_line(played.board), words.start_line(game, session.mode)]
    chosen = session.puzzle
    for number, saved in enumerate(played.history, start=1):
        turn = game.roll() if saved.drawn else game.play(saved.move.die)
        if turn.move.die != saved.move.die:
            # Rolls drawn out of order (a save made by hand): rebuilt the way loading
            # the save did, from its first moves.
            history = played.history[:number]
            drawn = sum(t.drawn for t in history)
            rolls = [t.move.die for t in history]
            game = Game.replay(played.board, played.players, rolls, played.seed, drawn)
            turn = game.history[-1]
        lines.append(f"Move {number}. {words.turn_line(game, turn, chosen=chosen)}")
    if game.winner is None:
        lines.append(f"The game was left here, after {len(game.history)} moves.")
        lines.append(words.positions_line(game))
    return lines


def replay(session: GameSession, console: Console) -> int:
    for line in replay_lines(session):
        console.say(line)
    return 0


__all__ = ["replay", "replay_lines"]
