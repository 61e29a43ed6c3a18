"""The game in words: every sentence the screen-reader mode says, from the core's values.

Pure functions from the engine's ``Turn`` and ``Game``, the solver and the odds to one
line of plain text each: numbers in digits, no symbols a screen reader would spell out
(no arrows, middle dots, box drawing, braille or emoji), every name from outside escaped.
Nothing here decides a rule: what a move did comes whole from ``core.engine``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.board import Board, Jump
from ..core.engine import Game, Move, Player, Turn, move
from ..core.odds.standing import CERTAIN, Odds
from ..core.solver import Solution, least_rolls_from, optimal_dice, optimal_route
from ..core.text import escape_controls, one_line, percent, plural
from .console import plain_text

ROUTE_SPOKEN = 12
"""Moves of an optimal route the ``route`` command spells out before '... and N more'."""

NEAR_TURNS = 2
"""``board`` names the jumps within this many turns' reach (``faces`` squares a turn)."""


def plain_name(text: str, seat: int | None = None) -> str:
    """A name from outside (a player, a seat in a room) as said: one line, control
    characters escaped, without what a screen reader would spell out or skip (emoji,
    skin tones, joiners). A name with nothing left to say (emoji only) is 'seat N'
    (``seat`` counts from 0), or 'someone' when the seat is not known."""
    said = plain_text(text)
    if not any(char.isalnum() for char in said):
        return f"seat {seat + 1}" if seat is not None else "someone"
    return said


def name(player: Player, seat: int | None = None) -> str:
    """A player's name as said (``seat``: its index, for a name with nothing to say)."""
    return plain_name(player.name, seat)


def to_move(player: Player, seat: int | None = None) -> str:
    """'Bo to move.', and 'Your move.' for the player called You."""
    who = name(player, seat)
    return "Your move." if who.casefold() == "you" else f"{who} to move."


def and_list(words: Sequence[str], last: str = "and") -> str:
    """'Ann', 'Ann and Bo', 'Ann, Bo and Cy' (``last``: 'or' for '4, 5 or 6')."""
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def where(square: int) -> str:
    """'off the board' (square 0) or 'on 12'."""
    return "off the board" if square <= 0 else f"on {square}"


def from_where(square: int) -> str:
    return "from off the board" if square <= 0 else f"from {square}"


def to_where(square: int) -> str:
    return "off the board" if square <= 0 else f"to {square}"


def jump_words(jump: Jump) -> str:
    """'a ladder up to 31', 'a snake down to 6'."""
    if jump.kind == "ladder":
        return f"a ladder up to {jump.end}"
    return f"a snake down to {jump.end}"


def move_words(moved: Move) -> str:
    """Where a die takes a token, in words: 'from off the board to 1, a ladder up to 38',
    'from 45 to 48, bounced back from the goal', 'past the goal, stays on 97'."""
    if moved.forfeited:
        return f"past the goal, stays {where(moved.start)}"
    text = f"{from_where(moved.start)} to {moved.landed}"
    if moved.bounced:
        text += ", bounced back from the goal"
    for index, jump in enumerate(moved.jumps):
        text += ", then " if index else ", "
        text += jump_words(jump)
    return text + (", the goal" if moved.won else "")


SOLVE_SPOKEN = 40
"""Moves ``snl solve --screen-reader`` says one a line; a longer route says its ends."""


def solve_lines(board: Board, label: str, solution: Solution, routes: int | None) -> list[str]:
    """``snl solve --screen-reader``: the least rolls, then each roll of one optimal
    route in words ('Roll 1. A 1: from off the board to 1, a ladder up to 38.')."""
    title = escape_controls(one_line(label)) or "The board"
    origin = "off the board" if solution.start <= 0 else f"square {solution.start}"
    if not solution.reachable:
        return [f"{title}: the goal, square {board.goal}, cannot be reached from {origin}."]
    if solution.moves == 0:
        return [f"{title}: already on the goal, square {board.goal}."]
    lines = [
        f"{title}: {plural(solution.moves, 'roll')} from {origin} to the goal, "
        f"square {board.goal}. One best route:"
    ]
    position = solution.start
    half = SOLVE_SPOKEN // 2
    for number, die in enumerate(solution.rolls, start=1):
        moved = move(board, position, die)
        if solution.moves <= SOLVE_SPOKEN or number <= half or number > solution.moves - half:
            lines.append(f"Roll {number}. A {die}: {move_words(moved)}.")
        elif number == half + 1:
            lines.append(f"... {solution.moves - SOLVE_SPOKEN} more rolls (--json has them all).")
        position = moved.end
    if routes is not None:
        only = ": this one is the only one" if routes == 1 else ""
        lines.append(f"Optimal routes: {routes} distinct sequences of die values{only}.")
    return lines


def rules_words(board: Board) -> str:
    """The board's rules as a clause: 'start off the board; exact finish; 6-sided die'."""
    return board.rules.describe().replace(" · ", "; ")


def turn_line(game: Game, turn: Turn, *, chosen: bool = False) -> str:
    """One move, in words: 'Ann rolled 4: from 10 to 14, a ladder up to 31.', then what
    happens next ('Bo to move.', 'Ann rolls again.', 'Ann wins in 23 turns!'). ``game``
    is the game after the move (its winner and whose move is next)."""
    move = turn.move
    who = name(game.players[turn.player], turn.player)
    if turn.passed:
        return f"{who}'s turn is skipped, {where(move.start)}. {next_words(game, turn)}".rstrip()
    verb = "chose" if chosen else "rolled"
    text = f"{who} {verb} {move.die}: "
    if turn.cancelled:
        back = game.positions[turn.player]
        text += f"a third {move.die} in a row cancels the turn, back {to_where(back)}."
    elif move.forfeited:
        text += f"past the goal, stays {where(move.start)}."
    else:
        text += f"{from_where(move.start)} to {move.landed}"
        if move.bounced:
            text += ", bounced back from the goal"
        for index, jump in enumerate(move.jumps):
            text += ", then " if index else ", "
            text += jump_words(jump)
        text += ", the goal!" if move.won else "."
    return f"{text} {next_words(game, turn)}".rstrip()


def next_words(game: Game, turn: Turn) -> str:
    """What comes after ``turn``: the winner, an extra roll, or who moves next."""
    if game.winner is not None:
        winner = game.winner
        turns = plural(game.turns_taken[winner], "turn")
        who = name(game.players[winner], winner)
        if len(game.players) == 1:
            return f"{who} finished in {turns} and {plural(len(game.history), 'roll')}."
        return f"{who} {'win' if who.casefold() == 'you' else 'wins'} in {turns}!"
    if turn.again and game.current == turn.player:
        who = name(game.players[turn.player], turn.player)
        return f"{who} {'roll' if who.casefold() == 'you' else 'rolls'} again."
    if len(game.players) == 1:
        return ""
    return to_move(game.players[game.current], game.current)


def positions_line(game: Game) -> str:
    """'Ann on 14, Bo off the board. Bo to move. The goal is 100.'"""
    parts = [
        f"{name(player, seat)} {where(game.positions[seat])}"
        for seat, player in enumerate(game.players)
    ]
    text = and_list(parts) + "."
    if game.winner is not None:
        text += f" {name(game.players[game.winner], game.winner)} won."
    elif len(game.players) > 1:
        text += f" {to_move(game.players[game.current], game.current)}"
    return f"{text} The goal is {game.board.goal}."


def board_line(board: Board) -> str:
    """What the board is: 'Chutes and Ladders: 10 by 10, goal 100, 9 ladders and 10
    snakes; start off the board; exact finish; 6-sided die.'"""
    title = escape_controls(one_line(board.name)) or "A board"
    ladders, snakes = len(board.ladders), len(board.snakes)
    return (
        f"{title}: {board.rows} by {board.cols}, goal {board.goal}, "
        f"{plural(ladders, 'ladder')} and {plural(snakes, 'snake')}; {rules_words(board)}."
    )


def near_jumps_line(board: Board, square: int, who: str = "you") -> str:
    """The jumps within reach of ``square`` in the next ``NEAR_TURNS`` turns: 'Ahead of
    Ann, on 14, within 12 squares: a snake on 16 down to 6, 2 away; a ladder on 21 up to
    42, 7 away.'"""
    reach = board.rules.faces * NEAR_TURNS
    if square >= board.goal:
        return f"{who} {where(square)}: the goal, nothing ahead."
    ahead = [
        jump
        for jump in sorted(board.jumps.items())
        if square < jump[0] <= min(square + reach, board.goal)
    ]
    head = f"Ahead of {who}, {where(square)}, within {reach} squares"
    if not ahead:
        return f"{head}: no snakes or ladders. The goal is {board.goal}."
    spoken = [
        f"a {'ladder' if end > start else 'snake'} on {start} "
        f"{'up' if end > start else 'down'} to {end}, {start - square} away"
        for start, end in ahead
    ]
    return f"{head}: " + "; ".join(spoken) + "."


def square_line(board: Board, square: int) -> str:
    """What is on ``square``: 'Square 47: a snake starts here, down to 26.', or where a
    snake or ladder ends, or nothing."""
    if not 1 <= square <= board.goal:
        return f"There is no square {square}: the squares go from 1 to {board.goal}."
    jump = board.jump_at(square)
    parts = []
    if square == board.goal:
        parts.append("the goal")
    if jump is not None:
        way = "up" if jump.kind == "ladder" else "down"
        parts.append(f"a {jump.kind} starts here, {way} to {jump.end}")
    parts += [
        f"the {j.kind} from {j.start} ends here"
        for j in board.ladders + board.snakes
        if j.end == square
    ]
    said = "; ".join(parts) if parts else "nothing: no snake or ladder starts or ends here"
    return f"Square {square}: {said}."


def all_jumps_lines(board: Board) -> list[str]:
    """Every ladder, then every snake, one line each kind."""
    ladders = ", ".join(f"{j.start} up to {j.end}" for j in board.ladders)
    snakes = ", ".join(f"{j.start} down to {j.end}" for j in board.snakes)
    return [
        f"Ladders: {ladders or 'none'}.",
        f"Snakes: {snakes or 'none'}.",
    ]


def hint_line(board: Board, square: int, who: str) -> str:
    """The solver's hint from ``square``: the least rolls left and the die values that
    keep to an optimal route."""
    if square >= board.goal:
        return f"{who} is on the goal."
    least = least_rolls_from(board, square)
    if least < 0:
        return f"From {square if square else 'off the board'} the goal cannot be reached."
    best = optimal_dice(board, square)
    values = and_list([str(die) for die in best], "or")
    return (
        f"Hint for {who}, {where(square)}: at least {plural(least, 'roll')} left; "
        f"the best {'roll is' if len(best) == 1 else 'rolls are'} {values}."
    )


def route_line(board: Board, square: int, who: str) -> str:
    """One optimal route from ``square``: 'Route for Ann from 14: roll 4 to 18, then 3
    to 21, ...'."""
    if square >= board.goal:
        return f"{who} is on the goal."
    solution = optimal_route(board, square, limit=ROUTE_SPOKEN)
    if solution.moves < 0:
        return f"From {square if square else 'off the board'} the goal cannot be reached."
    steps = [f"{die} to {end}" for die, end in zip(solution.rolls, solution.squares, strict=True)]
    text = (
        f"Route for {who} {from_where(square)}, {plural(solution.moves, 'roll')}: "
        f"roll {', then '.join(steps)}"
    )
    hidden = solution.moves - len(solution.rolls)
    if hidden > 0:
        text += f", and {hidden} more"
    return text + "."


def share(value: float | None) -> str:
    return percent(value, digits=0, certain=CERTAIN).replace("<", "under ").replace(">", "over ")


def odds_line(odds: Odds, game: Game, seat: int) -> str:
    """The odds of random play for ``seat``: expected turns left, the chance to finish
    within 5 and 10 turns, each seat's chance to win."""
    who = name(game.players[seat], seat)
    if odds.finished:
        return f"{who} is on the goal."
    if odds.why_unavailable is not None and odds.expected_turns is None:
        return f"No odds here: {escape_controls(one_line(odds.why_unavailable))}."
    if odds.never:
        return f"From here {who} can never reach the goal by random rolls."
    expected = odds.expected_turns
    if expected is None or math.isnan(expected):
        turns = "more turns than can be computed"
    elif math.isinf(expected):
        turns = "no finite number of turns (some games never end)"
    else:
        turns = f"{expected:.1f} turns"
    text = f"Odds for {who}: {turns} left on average"
    if odds.within_5 is not None and odds.within_10 is not None:
        text += (
            f"; {share(odds.within_5)} chance to finish within 5 turns, "
            f"{share(odds.within_10)} within 10"
        )
    text += "."
    if len(odds.win_chances) > 1:
        chances = [
            f"{name(player, seat)} {share(chance)}"
            for seat, (player, chance) in enumerate(
                zip(game.players, odds.win_chances, strict=False)
            )
        ]
        text += f" Chances to win: {', '.join(chances)}."
    if odds.why_unavailable is not None:
        text += f" ({escape_controls(one_line(odds.why_unavailable))}.)"
    return text


def start_line(game: Game, mode: str) -> str:
    """The first line of a game: who plays, in which order, and who starts."""
    players = [
        name(player, seat) + (" (computer)" if player.computer else "")
        for seat, player in enumerate(game.players)
    ]
    if mode == "puzzle":
        return (
            f"Puzzle for {players[0]}: choose every die value and reach {game.board.goal} "
            "in as few moves as you can."
        )
    if len(players) == 1:
        return f"{players[0]} plays alone, to reach {game.board.goal}."
    return f"Players in turn order: {and_list(players)}. First to {game.board.goal} wins."


__all__ = [
    "all_jumps_lines",
    "and_list",
    "board_line",
    "hint_line",
    "move_words",
    "name",
    "near_jumps_line",
    "next_words",
    "odds_line",
    "positions_line",
    "route_line",
    "rules_words",
    "solve_lines",
    "square_line",
    "start_line",
    "turn_line",
]
