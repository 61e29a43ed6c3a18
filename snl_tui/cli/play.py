"""``snl play``, ``snl resume`` and ``snl replay``: the commands that open the game."""

from __future__ import annotations

import argparse
import gc
from typing import TYPE_CHECKING

from ..core.errors import SnlError
from ..core.limits import check_playable

if TYPE_CHECKING:
    from ..core.board import Board
    from ..core.engine import Player
    from ..core.session import GameSession
    from ..core.store.games import GameSummary, SavedGame, Store
    from ..core.store.settings import Settings
from .common import (
    BOARD_HELP,
    Subcommands,
    UsageError,
    add_no_save,
    add_rule_options,
    add_screen_reader,
    board_from_args,
    parse_players,
    saved_game_id,
    screen_reader_wanted,
    whole_number,
)

DEFAULT_PLAYERS = "You,cpu"


def cmd_play(args: argparse.Namespace) -> int:
    """``snl play``: what was named on the command line is played. Only a bare ``snl``
    (no board, mode or players named) offers the last unfinished game; with a board or
    mode named, only an unfinished game of that board and mode is offered."""
    named = args.board is not None or args.mode is not None or args.players is not None
    args.board = args.board or "classic"
    mode = args.mode or "classic"
    board = board_from_args(args)
    check_playable(board)
    remembered, notices = _remembered(args)
    named_players = args.players  # "" is a mistake to report, not "not given"
    if named_players is None:
        named_players = remembered.players or DEFAULT_PLAYERS
    players = parse_players(named_players)
    if screen_reader_wanted(args):
        return _play_plain(args, board, players, mode, named)
    # Textual and the app import some 100,000 objects that live as long as the process:
    # collecting among them as they load (a dozen collections, 10-15 ms before the first
    # frame) frees nothing. They are frozen as they stand, so no collection walks them.
    gc.disable()
    try:
        from ..app import SnlApp, run_app  # Textual loads only to play
    finally:
        gc.freeze()
        gc.enable()

    def same_game(saved: SavedGame) -> bool:
        return saved.board == board and saved.mode == mode

    app = SnlApp(
        board=board,
        players=players,
        seed=args.seed,
        mode=mode,
        animate=not args.no_animation and remembered.animation,
        # The saved games open after the first frame (the store's module and SQLite
        # load then), and the last unfinished game is offered then.
        open_store=None if args.no_save else _game_store,
        offer_last=not args.no_resume_offer,
        offer_only=same_game if named else None,
        settings=None if args.no_save else remembered,
        notices=notices,
    )
    app.graphics = args.graphics or remembered.graphics
    return run_app(app)  # non-zero after a crash, which leaves a short note on stderr


def _play_plain(
    args: argparse.Namespace, board: Board, players: list[Player], mode: str, named: bool
) -> int:
    """``snl play --screen-reader``: the same game in plain lines (``snl_tui.plain``)."""

    from ..core.session import GameSession, GameSettings
    from ..core.store.saving import GameSaver
    from ..plain.console import Console
    from ..plain.game import PlainGame

    session = GameSession(GameSettings(board, tuple(players), args.seed, mode))
    saver = None if args.no_save else GameSaver(None, opener=_game_store)
    offer = room = None
    if saver is not None and not args.no_resume_offer and saver.store is not None:
        # As on screen: a bare ``snl`` offers the last unfinished game, a named board or
        # mode only an unfinished game of that board and mode (a room's left since is
        # told with how to reopen it, never offered).
        from ..core.store.saving import last_offers

        def same_game(saved: SavedGame) -> bool:
            return saved.board == board and saved.mode == mode

        offer, room = last_offers(saver.store, same_game if named else None)
    console = Console.standard()
    try:
        return PlainGame(session, console, saver, offer=offer, room=room).run()
    finally:
        if saver is not None and saver.store is not None:
            saver.store.close()


def _remembered(args: argparse.Namespace) -> tuple[Settings, list[str]]:
    """The settings remembered from earlier runs (defaults with ``--no-save``, which
    touches nothing in the data folder)."""
    from ..core.store.settings import Settings, load_settings

    if args.no_save:
        return Settings(), []
    return load_settings()


def _game_store() -> Store:
    """The store a game saves to: a short busy timeout, so a locked store costs one
    short wait, after which the game goes on without saving (and says so once)."""
    from ..core.store.games import open_store
    from ..core.store.saving import GAME_TIMEOUT

    return open_store(timeout=GAME_TIMEOUT)


def _saved_game(store: Store, text: str | None) -> SavedGame:
    """Saved game ``text`` (an id), or the last unfinished one not a room's when None."""
    if not store.enabled:
        raise UsageError(
            (store.disabled_reason or "the store cannot be opened").removeprefix("not saving: ")
        )
    if text is None:
        # The last game to go on with alone: a room's is reopened by snl host --resume.
        room: GameSummary | None = None
        for saved in store.unfinished(limit=20):
            if not saved.room:
                return saved
            room = room or saved
        if room is None:  # a room saved as it opened (no moves) is not in unfinished()
            listed = store.list_games().games
            room = next((g for g in listed if g.room and g.status == "playing"), None)
        if room is not None:
            from ..core.store.saving import room_line

            raise UsageError(f"no unfinished game to resume alone: {room_line(room)}")
        raise UsageError("no unfinished game to resume ('snl games' lists saved games)")
    return store.load_game(saved_game_id(text))


def _session(saved: SavedGame) -> GameSession:
    from ..core.session import GameSession  # the game's modules: only for its commands

    try:
        check_playable(saved.board)
        return GameSession.from_dict(saved.data)
    except SnlError as error:
        raise UsageError(f"saved game {saved.id} cannot be read back: {error}") from None


def cmd_resume(args: argparse.Namespace) -> int:
    """``snl resume [ID]``: continue a saved game (``--no-save``: without saving)."""
    from ..core.store.games import open_store

    store = _game_store() if not args.no_save else open_store(create=False)
    with store:
        saved = _saved_game(store, args.game)
        if store.live.live_elsewhere(saved.id) or not (args.no_save or store.live.hold(saved.id)):
            raise UsageError(
                f"saved game {saved.id} is being played in another snl right now: "
                "go on with it there (or quit it there first)"
            )
        if saved.status == "won":
            raise UsageError(
                f"game {saved.id} is over ({saved.status_text}): 'snl replay {saved.id}' shows it"
            )
        if saved.room:
            # Played here alone, its other seats would wait for no one, and its saved
            # room (seats, tokens, clocks) would be overwritten by a game alone.
            from ..core.store.saving import room_line

            raise UsageError(room_line(saved))
        session = _session(saved)
        if args.no_save:
            store.close()  # read, never written
        if screen_reader_wanted(args):
            return _resume_plain(session, None if args.no_save else store, saved.id)
        from ..app import SnlApp, run_app  # Textual loads only to play

        app = SnlApp(
            board=session.settings.board,
            players=session.settings.players,
            mode=session.mode,
            animate=not args.no_animation,
            store=None if args.no_save else store,
            resume=(session, saved.id),
        )
        app.graphics = _graphics(args)
        return run_app(app)


def _resume_plain(session: GameSession, store: Store | None, game_id: int) -> int:
    """``snl resume --screen-reader``: the saved game goes on in plain lines."""

    from ..core.store.saving import GameSaver
    from ..plain.console import Console
    from ..plain.game import PlainGame

    saver = None
    if store is not None:
        saver = GameSaver(store)
        saver.resumed(session, game_id)
    console = Console.standard()
    return PlainGame(session, console, saver, resumed=game_id).run()


def cmd_replay(args: argparse.Namespace) -> int:
    """``snl replay ID``: show a saved game again, move by move (nothing is written)."""
    from ..core.store.games import open_store

    with open_store(create=False) as store:
        saved = _saved_game(store, args.game)
    session = _session(saved)
    if screen_reader_wanted(args):
        import sys

        from ..plain.console import Console
        from ..plain.replay import replay

        return replay(session, Console(sys.stdout, sys.stdin))
    from ..app import SnlApp, run_app

    app = SnlApp.replaying(session, animate=not args.no_animation)
    app.graphics = _graphics(args)
    return run_app(app)


def _graphics(args: argparse.Namespace) -> str:
    """``--graphics``, else the remembered setting."""
    if args.graphics:
        return str(args.graphics)
    from ..core.store.settings import load_settings

    return load_settings()[0].graphics


def add_graphics(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--graphics",
        choices=("auto", "pixels", "text"),
        help="the board as a picture where the terminal shows images (auto, the default), "
        "always as a picture (pixels: Sixel) or as characters (text)",
    )


def add_play_parser(commands: Subcommands) -> None:
    play = commands.add_parser("play", help="play a board in the terminal (the default)")
    play.add_argument("board", nargs="?", metavar="BOARD", help=BOARD_HELP + " (default: classic)")
    play.add_argument(
        "--players",
        metavar="LIST",
        help="1-4 comma-separated names; 'cpu' or 'cpu:Name' is a computer "
        "(default: the last game's players, at first You,cpu)",
    )
    play.add_argument("--seed", type=whole_number(0), help="seed the dice (same seed, same game)")
    play.add_argument(
        "--mode",
        choices=("classic", "puzzle"),
        help="classic (the default): random dice; puzzle: you choose each die value",
    )
    play.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    add_graphics(play)
    add_no_save(play)
    play.add_argument(
        "--no-resume-offer",
        action="store_true",
        help="start a new game without offering the last unfinished one (snl serve's tabs)",
    )
    add_screen_reader(play)
    add_rule_options(play)


def add_resume_parser(commands: Subcommands) -> None:
    resume = commands.add_parser("resume", help="continue a saved game (default: the last)")
    resume.add_argument(
        "game", nargs="?", metavar="ID", help="the game's id in 'snl games' (default: the last)"
    )
    resume.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    add_graphics(resume)
    add_no_save(resume)
    add_screen_reader(resume)


def add_replay_parser(commands: Subcommands) -> None:
    replay = commands.add_parser("replay", help="show a saved game again, move by move")
    replay.add_argument("game", metavar="ID", help="the game's id in 'snl games'")
    replay.add_argument("--no-animation", action="store_true", help="move tokens instantly")
    add_screen_reader(replay)
    add_graphics(replay)
