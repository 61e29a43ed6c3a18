"""What the game says (issue 18, item 11): no "You rolls", a solo game's own status,
'chose' for a chosen value, no key that does nothing silently, the die after an undo,
help's own footer, and the game's title shown once."""

from __future__ import annotations

from textual.widgets import Footer, Static

from snl_tui.app import SnlApp
from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.screens.help import HelpScreen
from snl_tui.widgets.dice import DiceFace
from snl_tui.widgets.move_log import MoveLog
from snl_tui.widgets.title_bar import TitleBar

from .helpers import SIZE, started, wait_until


def status(app: SnlApp) -> str:
    return str(app.game_screen.query_one("#status", Static).render())


async def test_a_solo_game_says_roll_again_and_keys_that_do_nothing_say_why():
    app = SnlApp(players=(Player("You"),), seed=4, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("u")
        assert status(app) == "Undo is for puzzle mode (m switches): dice are random here."
        await pilot.press("3")
        assert status(app).startswith("Classic mode: the die decides.")
        await pilot.press("t")
        assert status(app) == "'t' does nothing here: ? lists the keys."
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.session.game.history) == 1)
        die = screen.session.game.history[0].move.die
        assert status(app) == f"You rolled {die}. Press r or space to roll again."
        title = str(app.screen.query_one(TitleBar).render())
        assert "Chutes and Ladders" not in title  # the board's border names the game


async def test_a_puzzle_logs_chosen_values_and_undo_clears_the_die():
    app = SnlApp(board=load_board("leetcode-1"), mode="puzzle", animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("u")
        assert status(app) == "Nothing to undo yet: no move has been made."
        await pilot.press("0")
        assert status(app) == "'0' is not a die value: choose 1-6."
        await pilot.press("2")
        await wait_until(pilot, lambda: len(screen.session.game.history) == 1)
        log = screen.query_one(MoveLog)
        assert log.move_texts[0].strip().startswith("1. You chose 2:")
        assert screen.query_one(DiceFace).value == 2
        await pilot.press("u")
        assert screen.session.game.history == [] and screen.query_one(DiceFace).value is None


async def test_help_shows_its_own_keys_in_the_footer():
    app = SnlApp(animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        footer = app.screen.query_one(Footer)
        await pilot.pause()
        shown = " ".join(str(key.render()) for key in footer.query("FooterKey"))
        assert "Close" in shown and "Roll" not in shown and "Hint" not in shown


def test_help_sentences_end_with_one_full_stop() -> None:
    """Issue 22: the editor's help read "Save the board as...." (the title's own dots and
    one more)."""
    from snl_tui.screens.editor import editor_help_text
    from snl_tui.screens.help import sentence

    text = editor_help_text()
    assert "Save the board as...**" in text and "Export...**" in text
    assert "...." not in text
    assert sentence("Roll the die", "Roll.") == "**Roll the die.** Roll."
