"""Pilot tests of the move log: it follows the newest move, wraps long lines, re-wraps."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.strip import Strip

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.screens.game import GameScreen
from snl_tui.widgets.hint_panel import HintPanel
from snl_tui.widgets.move_log import MoveLog, describe_turn, wrap_move

from .helpers import SIZE, cpu, settle, started, wait_until

LONG_NAME = "Maximilian the Magnificent"


def visible_rows(log: MoveLog) -> list[str]:
    """The rows the log draws in its viewport right now (right padding stripped)."""
    height = log.scrollable_content_region.height
    return [log.render_line(y).text.rstrip() for y in range(height)]


def words(text: str) -> str:
    return " ".join(text.split())


def newest_is_visible(screen: GameScreen) -> bool:
    """The newest move, all of it (every row it wraps to), is in the viewport."""
    log = screen.query_one(MoveLog)
    game = screen.game
    newest = describe_turn(game.history[-1], game.players)
    return words(newest) in words(" ".join(visible_rows(log)))


async def roll(pilot: Pilot, screen: GameScreen) -> None:
    """One human roll, then whatever the computer plays, until the human may roll."""
    await wait_until(pilot, screen.can_move)
    await pilot.press("r")
    await settle(pilot)
    await wait_until(pilot, lambda: screen.can_move() or screen.game.over)


async def test_the_log_keeps_following_after_the_hint_panel_shrinks_it(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")], seed=18)  # a 108-move game
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        log = screen.query_one(MoveLog)
        for _ in range(12):  # 24 moves: they all fit, the log is not scrolled
            await roll(pilot, screen)
        assert not screen.game.over
        assert log.line_count == len(screen.game.history) == 24
        tall = log.size.height
        await pilot.press("h")  # the hint panel opens above the log, which shrinks
        await settle(pilot)
        assert screen.query_one(HintPanel).display
        assert log.size.height < tall
        assert log.max_scroll_y > 0
        assert newest_is_visible(screen)
        for _ in range(4):  # every new move comes into view
            await roll(pilot, screen)
            assert newest_is_visible(screen), visible_rows(log)
            # The log grows without a layout of the screen: its scrollbar still knows.
            rows = len(log.wrapped_rows)
            assert log.virtual_size.height == rows
            assert log.vertical_scrollbar.window_virtual_size == rows
            assert log.scroll_y == log.max_scroll_y == rows - log.scrollable_content_region.height
        # Closing and reopening the panel: still the newest move at the bottom.
        for _ in range(2):
            await pilot.press("h")
            await settle(pilot)
            assert newest_is_visible(screen), visible_rows(log)
            await roll(pilot, screen)
            assert newest_is_visible(screen), visible_rows(log)


async def test_the_newest_move_stays_in_view_when_the_terminal_shrinks(make_app) -> None:
    app = make_app(players=[Player("Ann"), cpu("Bot")], seed=18)
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        for _ in range(8):
            await roll(pilot, screen)
        await pilot.resize_terminal(SIZE[0], 24)  # a much shorter log
        await settle(pilot)
        assert newest_is_visible(screen)
        await pilot.resize_terminal(100, 30)  # narrower too: the lines are re-wrapped
        await settle(pilot)
        assert newest_is_visible(screen)
        await roll(pilot, screen)
        assert newest_is_visible(screen)


async def test_long_lines_wrap_under_the_move_text_and_rewrap_on_resize(make_app) -> None:
    board = load_board("classic")
    app = make_app(board=board, players=[Player(LONG_NAME), cpu("Bot")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        log = screen.query_one(MoveLog)
        for _ in range(3):
            await roll(pilot, screen)
        game = screen.game
        texts = [describe_turn(turn, game.players) for turn in game.history]
        width = log.scrollable_content_region.width
        assert any(len(text) > width for text in texts)  # "Maximilian ..." lines are long

        for size, columns in ((SIZE, 46), ((100, 40), 32), (SIZE, 46)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert log.outer_size.width == columns
            width = log.scrollable_content_region.width
            # No horizontal scrolling: every row fits, and the view shows it whole.
            assert not log.show_horizontal_scrollbar
            assert log.virtual_size.width <= width
            assert all(len(row) <= width for row in log.rows)
            # One move per logical line, each continuation row under the text after
            # the move number, and the rows say exactly what the move says.
            assert log.line_count == len(game.history)
            assert list(log.lines) == texts
            assert len(log.rows) > len(texts)
            rows = iter(log.rows)
            for text in texts:
                first = next(rows)
                assert text.startswith(first)
                shown = [first]
                while words(" ".join(shown)) != words(text):
                    row = next(rows)
                    assert row.startswith("     ") and not row.startswith("      "), row
                    shown.append(row)
            assert next(rows, None) is None
            # The screen draws those rows, the newest at the bottom.
            shown = visible_rows(log)
            while shown and not shown[-1]:
                shown.pop()
            assert shown == [row.rstrip() for row in log.rows][-len(shown) :]


def test_wrap_move_never_splits_a_number_and_folds_only_words_wider_than_a_row() -> None:
    text = "  6. You rolled 6: 169 -> 175, ladder to 236"
    for width in range(12, len(text)):
        rows = wrap_move(text, width)
        assert all(len(row) <= width for row in rows)
        assert words(" ".join(rows)) == words(text)  # every number whole, nothing lost
        assert rows[0].startswith("  6. You")
        assert all(row.startswith("     ") for row in rows[1:])
    assert wrap_move(text, len(text)) == [text]
    assert wrap_move(text, 0) == [text]  # not laid out yet
    assert wrap_move("  6. You rolled 6: 169 -> 175, ladder to 236", 30) == [
        "  6. You rolled 6: 169 -> 175,",
        "     ladder to 236",
    ]
    # A name wider than a row is folded; the rows still carry every character.
    rows = wrap_move(" 12. Bartholomew-Maximilian-Fitzgerald rolled 3: 95 -> 99", 20)
    assert all(len(row) <= 20 for row in rows)
    assert "".join("".join(rows).split()) == "12.Bartholomew-Maximilian-Fitzgeraldrolled3:95->99"
    # Wide characters count as two cells.
    rows = wrap_move("  1. 名前名前名前名前 rolled 3: start -> 3", 14)
    assert max(sum(2 if ord(c) > 0x2E80 else 1 for c in row) for row in rows) <= 14


async def test_a_theme_change_repaints_the_log_in_the_new_colours(make_app) -> None:
    app = make_app(players=[Player("Ann")])
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await roll(pilot, screen)
        log = screen.query_one(MoveLog)
        before = log.render_line(0)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settle(pilot)
        after = log.render_line(0)
        assert after.text == before.text
        base = log.rich_style  # the log's colours in the new theme

        def colours(strip: Strip) -> set[tuple[object, object]]:
            # The mover's name keeps its seat's colours (the same in every theme).
            return {
                (s.style.color, s.style.bgcolor)
                for s in strip
                if s.style is not None and s.text != "Ann"
            }

        assert colours(after) == {(base.color, base.bgcolor)} != colours(before)
