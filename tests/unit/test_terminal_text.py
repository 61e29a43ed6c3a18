"""No text reaches the terminal raw, whatever its source (issue 18): arguments echoed in
errors, board files and their names, names and boards from the saved-games store. Every
line the CLI prints is checked for control characters (ESC, BEL, C1, bidi overrides)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snl_tui.cli.main import COMMANDS as SNL_COMMANDS
from snl_tui.cli.main import main
from snl_tui.core.files.formats import load_board
from snl_tui.core.store.games import DB_NAME, open_store
from snl_tui.core.text import is_unsafe_char

# Text as an attacker types it: every control character, bidi overrides, and plain text.
HOSTILE = st.text(
    st.sampled_from([chr(c) for c in range(0, 0x20)] + ["\x7f", "\x9b", "\u202e", "\u2028"])
    | st.characters(codec="utf-8", exclude_categories=("Cs",)),
    min_size=1,
    max_size=40,
)
COMMANDS = (
    ["solve"],
    ["check"],
    ["analyze"],
    ["convert", "--to", "toml"],
    ["stats"],
)


def run(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(argv)
    return out.getvalue() + err.getvalue()


def assert_clean(text: str) -> None:
    bad = [char for char in text if is_unsafe_char(char, allowed="\n")]
    assert not bad, (bad[:5], text[:300])


SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(command=st.sampled_from(COMMANDS), word=HOSTILE)
def test_arguments_are_never_echoed_raw(tmp_path: Path, monkeypatch, command, word) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SNL_DATA_DIR", str(tmp_path))
    assert_clean(run([*command, word]))
    assert_clean(run(["solve", "classic", word]))  # an unknown option or extra argument
    if word.strip() not in SNL_COMMANDS and not word.startswith("-"):
        # An unknown command (a real one, or a top-level option, would start a game or a
        # server and wait for a player).
        assert_clean(run([word]))
    assert_clean(run(["resume", word]))
    assert_clean(run(["analyze", "classic", "--players", word]))


@SETTINGS
@given(name=HOSTILE, content=st.binary(max_size=300) | HOSTILE.map(str.encode))
def test_board_files_and_their_names_are_never_echoed_raw(
    tmp_path_factory, monkeypatch, name: str, content: bytes
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("files")
    safe_name = name.replace("/", "_").replace("\x00", "_")[:40] + ".toml"
    path = folder / safe_name
    try:
        path.write_bytes(content)
    except OSError:
        return  # a name this file system refuses
    monkeypatch.setenv("SNL_DATA_DIR", str(folder))
    for command in COMMANDS:
        assert_clean(run([*command, str(path)]))


@SETTINGS
@given(names=st.lists(HOSTILE, min_size=1, max_size=3), board_name=HOSTILE)
def test_names_from_the_store_are_never_printed_raw(
    tmp_path_factory, monkeypatch, names: list[str], board_name: str
) -> None:  # type: ignore[no-untyped-def]
    """The store is untrusted too: a name written into it by another program (or an old
    snl) is escaped by `snl games` and `snl stats`."""
    folder = tmp_path_factory.mktemp("store")
    monkeypatch.setenv("SNL_DATA_DIR", str(folder))
    board = load_board("leetcode-2")
    with open_store(folder / DB_NAME) as store:
        game = store.save_game(None, board=board, players=names, mode="classic", data={"x": 1})
        assert game is not None
        store.finish(game, names[0], 3, 3)
        store._conn.execute("UPDATE games SET board_name = ?", (board_name,))  # type: ignore[union-attr]
    for command in (["games"], ["stats"], ["stats", board_name]):
        assert_clean(run(command))
