"""Hands in process (issue 40, SPEC 17): every screen of snl handled as a person would
through Textual's pilot, at several terminal sizes, with the picture (Sixel, Kitty's
protocol) or the character board: the pointer moved all over the screen, clicks, drags,
the wheel, keys typed fast and resizes. ``hands(app, opening, sizes, seed, actions)``
returns what it did; an exception in the app fails the ``run_test`` around it.

``SCREENS`` names each screen and how to reach it (an app and the keys that open it);
``scripts/pilot_hands.py`` runs them all for longer, the suite a few short ones."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual import events
from textual.pilot import Pilot

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings

KEYS = ("up", "down", "left", "right", "tab", "shift+tab", "enter", "space", "r", "1", "2")
"""Keys a person types while looking around (never q: the run ends by itself)."""


@dataclass(frozen=True)
class Hands:
    """One screen to handle: an app (its protocol set), the keys that open the screen,
    the keys typed at random while there (besides the pointer)."""

    name: str
    app: Callable[[], SnlApp]
    opening: tuple[str, ...] = ()
    keys: tuple[str, ...] = KEYS


def _game(mode: str = "classic", players: Sequence[Player] | None = None) -> SnlApp:
    players = players or [Player("You"), Player("CPU", computer=True)]
    app = SnlApp(load_board("classic"), players, seed=7, mode=mode, animate=False)
    if app.game_screen is not None:
        app.game_screen.computer_delay = 0
    return app


def _editor(size: int | None = None) -> SnlApp:
    from snl_tui.core.studio.board_file import open_for_editing
    from snl_tui.screens.editor import EditorScreen

    name = "new.toml" if size else "classic"
    board, source, note = open_for_editing(name, size, size)
    editor = EditorScreen(board, source, exit_on_leave=True, note=note)  # as snl edit makes it
    return SnlApp.editing(editor, board, animate=False)


def _learn() -> SnlApp:
    from snl_tui.screens.learn import LEARN_CSS, LearnScreen

    board = load_board("classic")
    return SnlApp(board=board, front=LearnScreen(board), front_css=LEARN_CSS, animate=False)


def _replay() -> SnlApp:
    players = (Player("Ann"), Player("Bob"))
    session = GameSession(GameSettings(load_board("classic"), players, 21))
    for _ in range(14):
        session.move()
    return SnlApp.replaying(GameSession.from_dict(session.to_dict()), animate=False)


def _won() -> SnlApp:
    """A game of two computers that ends at once: the winner dialog over the board."""
    return _game(players=[Player("A", computer=True), Player("B", computer=True)])


SCREENS: tuple[Hands, ...] = (
    Hands("game", _game),
    Hands("puzzle", lambda: _game("puzzle"), keys=(*KEYS, "3", "4", "5", "6", "u")),
    Hands("help", _game, ("question_mark",)),
    Hands("load", _game, ("l",)),
    Hands("new game", _game, ("n",)),
    Hands("stats", _game, ("s",)),
    Hands("palette", _game, ("ctrl+p",), keys=("up", "down", "a", "backspace")),
    Hands("winner", _won, keys=("tab", "left", "right")),
    Hands("editor", _editor, keys=(*KEYS, "v", "l", "ctrl+z", "ctrl+y")),
    Hands("editor 12", lambda: _editor(12), keys=(*KEYS, "v", "ctrl+z")),
    Hands("editor form", _editor, ("tab",), keys=("tab", "down", "up", "1", "backspace")),
    Hands("generate", _editor, ("g",)),
    Hands("save as", lambda: _editor(12), ("f2",), keys=("a", "b", "backspace", "tab")),
    Hands("editor help", _editor, ("question_mark",)),
    Hands("learn", _learn, keys=(*KEYS, "n", "b")),
    Hands("replay", _replay, keys=("space", "left", "right", "n", "b")),
)


async def wheel(pilot: Pilot[None], x: int, y: int, down: bool) -> None:
    """The wheel turned once at screen cell (x, y), as the terminal's driver posts it."""
    kind = events.MouseScrollDown if down else events.MouseScrollUp
    pilot.app.post_message(
        kind(None, x, y, 0, 1 if down else -1, 0, False, False, False, screen_x=x, screen_y=y)
    )
    await pilot.pause()


async def hands(
    pilot: Pilot[None],
    opening: Sequence[str],
    sizes: Sequence[tuple[int, int]],
    seed: int,
    actions: int,
    keys: Sequence[str] = KEYS,
) -> int:
    """Open the screen, then ``actions`` random pointer moves, clicks, drags, wheel
    turns and keys, resizing to each of ``sizes`` in turn along the way."""
    rng = random.Random(seed)
    for key in opening:
        await pilot.press(key)
    await pilot.pause()
    done = 0
    per_size = max(1, actions // max(1, len(sizes)))
    for width, height in sizes:
        await pilot.resize_terminal(width, height)
        await pilot.pause()
        for _ in range(per_size):
            if not pilot.app.is_running:  # a click on the footer's Quit: a way out too
                return done
            x, y = rng.randrange(width), rng.randrange(height)
            kind = rng.randrange(10)
            if kind < 4:
                await pilot.hover(None, offset=(x, y))
            elif kind < 6:
                await pilot.click(None, offset=(x, y))
            elif kind == 6:
                await wheel(pilot, x, y, rng.random() < 0.5)
            elif kind == 7:
                await pilot.mouse_down(None, offset=(x, y))
                await pilot.hover(None, offset=(rng.randrange(width), y))
                await pilot.mouse_up(None, offset=(rng.randrange(width), y))
            else:
                await pilot.press(rng.choice(keys))
            done += 1
    return done
