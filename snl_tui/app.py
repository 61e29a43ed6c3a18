"""The Textual app: ``SnlApp(board, players, seed, mode, animate).run()``.

The app holds the settings and pushes the game screen; the game itself lives in
``screens/game.py`` and every rule in ``core``. ``snl`` / ``snl play`` (``cli/play.py``) create
it; ``q`` quits with exit code 0.

Saved games (SPEC 8): ``store`` saves after every move (None, the default, saves
nothing: tests and ``--no-save``); ``offer`` asks first whether to resume that saved
game; ``resume`` (a saved session and its id) continues one. ``open_store`` (the command
line's way) opens the store only after the game's first frame, and with ``offer_last``
then offers its last unfinished game, before the game begins.

The game is the base screen; ``SnlApp.editing`` (``snl edit``), ``SnlApp.joining``
(``snl join``) and ``SnlApp.replaying`` (``snl replay``) make an app whose base screen is
the editor, a room or a replay instead, and no game screen is built for them. The app
holds the store itself (``saver``), whichever screen it shows.
"""

from __future__ import annotations

import gc
import io
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from textual import events
from textual.app import App, ScreenStackError, SystemCommand
from textual.command import CommandPalette
from textual.errors import NoWidget
from textual.reactive import var
from textual.screen import Screen
from textual.theme import ThemeProvider
from textual.worker import WorkerFailed

from .commands import GameCommands
from .core.board import Board
from .core.colours import seat_css
from .core.engine import Player
from .core.errors import SnlError
from .core.files.formats import load_board
from .core.session import MODES, GameSession, GameSettings
from .core.store.saving import GameSaver
from .messages import EditRequested, ResumeRequested, SettingChanged
from .screens.game import GameScreen

if TYPE_CHECKING:
    from .core.store.games import SavedGame, Store
    from .core.store.settings import Settings
    from .net.client import RoomClient
    from .palette import SnlCommandPalette
    from .widgets.board_picture import Protocol

DEFAULT_PLAYERS = (Player("You"), Player("CPU", computer=True))
DEFAULT_BOARD = "classic"
"""The built-in board a game starts on when none is given."""
EDITOR_CSS = Path(__file__).parent / "screens" / "editor.tcss"


class SnlApp(App[None]):
    """Snakes & Ladders in the terminal."""

    CSS_PATH = Path(__file__).with_name("snl.tcss")
    """Absolute, so that a subclass defined elsewhere (tests, benchmarks) keeps it."""
    CSS = seat_css()
    """The seats' token colours: one set for the picture, the boards and the panels."""
    TITLE = "snl"
    SUB_TITLE = "Snakes & Ladders"
    COMMANDS = App.COMMANDS | {GameCommands}
    jumps_drawn: var[bool] = var(True)
    """Snakes and ladders drawn end to end on every board, or marked only (``j``; the
    boards follow it, and it is remembered with the other settings)."""

    def __init__(
        self,
        board: Board | None = None,
        players: Sequence[Player] | None = None,
        seed: int | None = None,
        mode: str = "classic",
        animate: bool = True,
        *,
        store: Store | None = None,
        offer: SavedGame | None = None,
        resume: tuple[GameSession, int] | None = None,
        open_store: Callable[[], Store] | None = None,
        offer_last: bool = False,
        offer_only: Callable[[SavedGame], bool] | None = None,
        settings: Settings | None = None,
        notices: Sequence[str] = (),
        front: Screen[Any] | None = None,
        front_css: Path | None = None,
    ) -> None:
        """The game, as ``snl play`` sets it up. ``front`` (with its styles) is another
        base screen instead of the game: ``SnlApp.editing`` and ``SnlApp.replaying``
        make those apps."""
        # Textual loads a screen's own CSS_PATH when the screen is pushed, never for the
        # default screen: as the base screen, the editor's styles come with the app's.
        super().__init__(css_path=None if front_css is None else [self.CSS_PATH, front_css])
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.settings = GameSettings(
            board if board is not None else load_board(DEFAULT_BOARD),
            tuple(players) if players else DEFAULT_PLAYERS,
            seed,
            mode,
        )
        self.animation_on = animate
        if settings is not None:
            self.set_reactive(SnlApp.jumps_drawn, settings.drawn_jumps)
        self.offer = offer
        self.offer_last = offer_last and store is None and open_store is not None
        """Offer the last unfinished game once ``open_store`` has opened the store."""
        self.offer_only = offer_only
        """Offer only an unfinished game that passes this (the board and mode named on
        the command line); None: the last one, whatever it is."""
        self.remembered = settings
        """What snl remembers between runs (None: remember nothing, e.g. tests and
        ``--no-save``): changes are written back as the player makes them."""
        self.notices = list(notices)
        self.saver = GameSaver(store, opener=open_store)
        """Where the game saves (its store opened on first use): the app's, whatever
        screen it shows; the game screen saves through it."""
        self.game_screen: GameScreen | None = None
        """The game as the base screen (None when ``front`` is another screen)."""
        if front is None:
            session, game_id = resume if resume is not None else (None, None)
            self.game_screen = GameScreen(
                self.settings,
                animate=animate,
                saver=self.saver,
                before_game=self._offer_last if self.offer_last else None,
                session=session,
                game_id=game_id,
            )
        self.open_palette: SnlCommandPalette | None = None
        """The palette ctrl+p opened last (none open twice at once)."""
        self.front_screen = front
        """The base screen when it is not the game (the editor, a replay)."""
        self.graphics = settings.graphics if settings is not None else "auto"
        """``--graphics`` (or the setting): "auto", "pixels" or "text"."""
        self.pixels: Protocol | None = None
        """The picture protocol the board uses (None: the character board): asked of
        the terminal by ``run_app``, before Textual starts."""

    @classmethod
    def editing(cls, editor: Screen[Board | None], board: Board, animate: bool = True) -> SnlApp:
        """``snl edit``: the board editor as the base screen (``p`` plays its board)."""
        return cls(board=board, animate=animate, front=editor, front_css=EDITOR_CSS)

    @classmethod
    def joining(
        cls,
        client: RoomClient,
        *,
        join_line: str | None = None,
        animate: bool = True,
        settings: Settings | None = None,
        bell: bool = True,
        notices: Sequence[str] = (),
    ) -> SnlApp:
        """``snl join`` (and ``snl host --name``): a room's game as the base screen,
        from this terminal's seat; ``client`` has been welcomed in the room. ``settings``
        are remembered (the bell's ``b``); ``bell`` False: no bell for your turn;
        ``notices``: this terminal's own words about the room, shown on the screen."""
        from .screens.room import room_screen

        ring = bell and (settings is None or settings.turn_bell)
        room = room_screen(client, animate=animate, join_line=join_line, bell=ring, notices=notices)
        board = room.session.board
        return cls(board=board, animate=animate, front=room, settings=settings)

    @classmethod
    def replaying(cls, session: GameSession, animate: bool = True) -> SnlApp:
        """``snl replay``: a saved session's moves again, as the base screen."""
        from .screens.replay import ReplayScreen

        settings = session.settings
        replay = ReplayScreen(session, animate=animate)
        return cls(
            settings.board, settings.players, mode=session.mode, animate=animate, front=replay
        )

    @property
    def store(self) -> Store | None:
        """Where the game saves (None: nothing is saved); opened on first use when the
        app was given ``open_store`` (after the first frame)."""
        return self.saver.store

    def get_default_screen(self) -> Screen[None] | Screen[Board | None]:
        # The game (or the front screen) is the base screen: no blank default screen first.
        if self.front_screen is not None:
            return self.front_screen
        if self.game_screen is None:
            raise RuntimeError("an app with neither a game nor a front screen")
        return self.game_screen

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.MouseDown) and self._pressed_on_a_removed_widget(event):
            return  # nothing there any more: the press does nothing (as on empty screen)
        await super().on_event(event)

    def _pressed_on_a_removed_widget(self, event: events.MouseDown) -> bool:
        """Whether the screen's map still puts a widget under the pointer that has just
        been removed (a toast as its time runs out): Textual's text selection starts in
        that widget's parent, which is gone (an AttributeError, a crash of a click)."""
        try:
            widget, _ = self.screen.get_widget_and_offset_at(event.x, event.y)
        except (ScreenStackError, NoWidget):
            return False
        return widget is not None and not isinstance(widget, Screen) and widget.parent is None

    def action_help_quit(self) -> None:
        """ctrl+c (where no input takes it) does what ``q`` does on the screen shown:
        the game ends at once, the editor asks about unsaved work. Textual only says
        which key quits; a player's reflex is ctrl+c."""
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                self.call_later(self.run_action, active.binding.action, active.node)
                return
        super().action_help_quit()

    # -- the command palette: Textual's, with its page keys guarded (palette.py) ------------

    def action_command_palette(self) -> None:
        """ctrl+p: the guarded palette, once. Checking the current screen is not enough:
        a second ctrl+p in the same burst arrives before the first palette is current."""
        palette = self.open_palette
        if not self.use_command_palette or isinstance(self.screen, CommandPalette):
            return
        if palette is not None and palette.is_attached and not palette.dismissed:
            return
        from .palette import SnlCommandPalette  # loads on the first ctrl+p, not before a frame

        self.open_palette = SnlCommandPalette()
        self.push_screen(self.open_palette)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's system commands, with a "Screenshot" that saves where it can and
        says where (Textual's saved to a Downloads folder that may not exist, and said
        only "Failed to save screenshot"). In a browser Textual's own downloads it."""
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot" and not self.is_web:
                from .palette import save_screenshot

                yield SystemCommand(
                    "Screenshot",
                    "Save an SVG picture of the screen (the notification says where)",
                    lambda: self.set_timer(0.1, lambda: save_screenshot(self)),
                )
            else:
                yield command

    def search_themes(self) -> None:
        """The palette's "Theme" command: the theme list, in the guarded palette."""
        from .palette import SnlCommandPalette

        self.push_screen(
            SnlCommandPalette(providers=[ThemeProvider], placeholder="Search for themes…")
        )

    def on_edit_requested(self, event: EditRequested) -> None:
        from .screens.editor import EditorScreen  # the editor loads only when used

        self.push_screen(EditorScreen(event.board), event.done)

    def on_mount(self) -> None:
        if self.offer is not None:
            self._offer(self.offer)
        remembered = self.remembered
        if remembered is not None:
            if remembered.theme in self.available_themes:
                self.theme = remembered.theme
            elif remembered.theme:
                self.notices.append(f"settings: no theme called {remembered.theme!r}")
            self.theme_changed_signal.subscribe(self, self._theme_changed)
        for notice in self.notices:
            self.notify(notice, severity="warning", timeout=8, markup=False)

    def _theme_changed(self, theme: object) -> None:
        self.post_message(SettingChanged("theme", self.theme))

    def on_setting_changed(self, event: SettingChanged) -> None:
        """Remember a changed setting (a failure to write is said once, never fatal)."""
        if event.name == "drawn_jumps":
            self.jumps_drawn = bool(event.value)  # every board follows (BoardView.on_mount)
        if self.remembered is None or getattr(self.remembered, event.name) == event.value:
            return
        from .core.store.settings import save_settings

        self.remembered = self.remembered.with_changes(**{event.name: event.value})
        problem = save_settings(self.remembered)
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)

    def on_resume_requested(self, event: ResumeRequested) -> None:
        """Continue a saved game picked on the saved-games screen: the game on screen
        stays saved as it is (every move was), so nothing is lost by leaving it."""
        store = self.store
        if store is None:
            return
        try:
            saved = store.load_game(event.game_id)
            session = GameSession.from_dict(saved.data)
        except SnlError as error:
            self.notify(
                f"Cannot resume game {event.game_id}: {error}", severity="error", markup=False
            )
            return
        if self.game_screen is None or not self.game_screen.resume(session, saved.id):
            self.notify(playing_elsewhere(saved.id), severity="warning", markup=False)
            return
        self.notify(f"Resumed saved game {saved.id}.")

    def _offer_last(self) -> None:
        """Open the store and offer its last unfinished game, if there is one: after the
        game's first frame, before the game begins (``GameScreen.mount_panels``), so no
        move is made or saved before the player has answered."""
        from .core.store.saving import last_offers, room_line

        store = self.store
        offer, room = last_offers(store, self.offer_only) if store is not None else (None, None)
        if room is not None:  # a room left since: reopened by snl host --resume, not here
            self.notify(room_line(room, sentence=True), timeout=12, markup=False)
        if offer is not None:
            self.offer = offer
            self._offer(offer)

    def _offer(self, offer: SavedGame) -> None:
        from .screens.resume import ResumeScreen

        # Held while it is offered, so no other snl takes it meanwhile; one that another
        # snl took since it was found is not offered at all.
        if self.store is not None and not self.store.live.hold(offer.id):
            self.offer = None
            return
        self.push_screen(ResumeScreen(offer), self._resume_chosen)

    def _resume_chosen(self, resume: bool | None) -> None:
        """Resume the offered game, or mark it abandoned for a new one (else it would
        be offered again every time)."""
        offered, self.offer = self.offer, None
        if offered is None:
            return
        if not resume:
            if self.store is not None:
                self.store.mark_abandoned(offered.id)
                self.store.live.release(offered.id)
            return
        try:
            session = GameSession.from_dict(offered.data)
        except SnlError as error:
            self.notify(f"Cannot resume game {offered.id}: {error}", severity="error", markup=False)
            if self.store is not None:
                self.store.live.release(offered.id)
            return
        if self.game_screen is None or not self.game_screen.resume(session, offered.id):
            # Taken by another snl while the offer was open: this one starts afresh.
            self.notify(playing_elsewhere(offered.id), severity="warning", markup=False)


def playing_elsewhere(game_id: int) -> str:
    return f"Saved game {game_id} is being played in another snl right now: not resumed here."


# -- running the app, and what a crash leaves behind ------------------------------------

EXIT_CRASH = 1
"""The exit status after an unhandled exception in the app (Textual's own return code)."""


def run_app(app: SnlApp, **run_options: Any) -> int:
    """Run ``app`` (``run_options`` go to ``App.run``) and return the exit status.

    Textual catches an unhandled exception, exits with return code 1 and prints the
    traceback (a screenful, with locals) on its ``error_console`` after leaving the
    screen. snl gives that console a buffer instead, writes the traceback to a crash
    file, and prints two short lines: where the file is, and that the game was saved
    (every move is; nothing marks it abandoned, so ``snl`` offers to resume it).
    """
    if "web_driver" in os.environ.get("TEXTUAL_DRIVER", ""):
        exit_with_server()
    if app.graphics != "text":
        from .widgets.board_picture import detect_graphics

        app.pixels = detect_graphics(app.graphics)
    # What is alive now (every module, class and function imported) lives as long as the
    # process: full collections need not walk it again. Without this the first full
    # collection, walking some 50,000 objects (15-20 ms), lands in the first frame when
    # drawing it allocates a little more (a 20x20 board's).
    gc.freeze()
    captured = io.StringIO()
    app.error_console = Console(
        file=captured, width=120, markup=False, highlight=False, no_color=True
    )
    try:
        app.run(**run_options)
    except Exception:  # an error outside the app's message loop (the driver, startup)
        captured.write(traceback.format_exc())
        code = EXIT_CRASH
    else:
        code = app.return_code or 0
    finally:
        app.saver.let_go()  # the saved game is free again, now, for any snl
    details = captured.getvalue()
    if code == 0 and not details:
        return 0
    # The one seam on Textual's internals: the exception it caught. Its own report is
    # drawn at the terminal's width at the moment of the crash (unreadable from a narrow
    # terminal), so the crash file leads with a plain traceback when there is one. If a
    # Textual upgrade renames the attribute, the file still holds Textual's report
    # (tests/unit/test_crash.py checks that the plain traceback is there).
    error = getattr(app, "_exception", None)
    if isinstance(error, BaseException):
        plain = "".join(traceback.format_exception(error))
        cause = error.error if isinstance(error, WorkerFailed) else None  # in a worker
        if isinstance(cause, BaseException):
            plain += "".join(traceback.format_exception(cause))
        details = f"{plain}\n--- as Textual reported it ---\n{details}"
    where = write_crash_report(details or f"snl exited with status {code}\n")
    print(f"snl: crashed (an internal error); the details are in {where}", file=sys.stderr)
    game = app.game_screen.game if app.game_screen is not None else None
    if app.saver.game_id is not None and game is not None and not game.over:
        print("snl: your game was saved after its last move: run snl to resume it", file=sys.stderr)
    return code or EXIT_CRASH


SERVER_CHECK = 0.5
"""Seconds between two looks at whether the server of a browser game is still there."""


def exit_with_server() -> None:
    """A browser game (``snl serve``) ends when its server does.

    Textual's web driver reads the game's keys from the server through a pipe; when the
    server is gone (killed, crashed) that pipe only ever says "end of file" and the
    driver spins on it at full speed, forever. A daemon thread watches the parent
    process instead and ends the game the moment it changes (every move is saved
    already, so nothing is lost)."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(SERVER_CHECK)
        os._exit(0)  # the server is gone: nobody can see or play this game any more

    threading.Thread(target=watch, name="snl-server-watch", daemon=True).start()


def write_crash_report(text: str) -> Path:
    """Write ``text`` to ``crash-<time>.txt`` in the data folder (else the temporary
    folder), atomically; returns its path."""
    from .core.store.data_dir import default_dir

    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (default_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            partial = path.with_suffix(".part")
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
            return path
        except OSError:
            continue
    return Path(name)  # nowhere writable: the name still says what happened


def main() -> None:  # pragma: no cover - the CLI is the real entry point
    sys.exit(run_app(SnlApp()))


if __name__ == "__main__":  # pragma: no cover
    main()
