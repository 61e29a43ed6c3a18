"""The lines are meant to be heard: a short game spoken by espeak-ng to a WAV file.

Skipped, with the reason, without ``espeak-ng`` (Debian's package of that name; ``.ci/run``
installs it when it can).
"""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from snl_tui.core.engine import Player
from snl_tui.core.files.formats import load_board
from snl_tui.core.session import GameSession, GameSettings
from snl_tui.plain.console import Console
from snl_tui.plain.game import PlainGame


def spoken_game() -> list[str]:
    """Every line of a short game on throws-30, one player rolling to the end."""
    board = load_board("throws-30")
    session = GameSession(GameSettings(board, (Player("Ann"),), seed=2))
    console = Console(io.StringIO(), io.StringIO("roll\n" * 60 + "quit\n"))
    assert PlainGame(session, console, luck=lambda _: None).run() == 0
    assert session.game.over
    return console.said


def test_a_short_game_speaks_to_a_wav_file(tmp_path: Path) -> None:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    lines = spoken_game()
    assert any("finished in" in line for line in lines)
    text = tmp_path / "game.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    sound = tmp_path / "game.wav"
    subprocess.run(
        [espeak, "-v", "en", "-w", str(sound), "-f", str(text)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    with wave.open(str(sound), "rb") as recording:
        assert recording.getsampwidth() == 2
        rate, frames = recording.getframerate(), recording.getnframes()
        samples = array.array("h", recording.readframes(frames))
    seconds = frames / rate
    words = sum(len(line.split()) for line in lines)
    # Spoken at espeak-ng's usual pace (about 175 words a minute), with room either way.
    assert words / 6 < seconds < words, (words, seconds)
    loud = sum(1 for sample in samples if abs(sample) > 1000)
    assert loud > len(samples) // 10  # speech, not silence


def test_a_whole_game_by_ear_takes_no_more_than_its_words(tmp_path: Path) -> None:
    """Far more rolls typed than the game needs (a script's ``yes roll``): the end is
    said once, so the speech is the moves and a few lines, not minutes of repeats."""
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    board = load_board("throws-30")
    session = GameSession(GameSettings(board, (Player("Ann"), Player("CPU", True)), seed=4))
    console = Console(io.StringIO(), io.StringIO("roll\n" * 235))
    assert PlainGame(session, console, luck=lambda _: None).run() == 0
    lines = console.said
    moves = len(session.game.history)
    assert (
        session.game.over and lines.count("The game is over: type new for another, or quit.") == 1
    )
    assert len(lines) <= moves + 8  # the opening, the moves, the end, goodbye
    text = tmp_path / "game.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    sound = tmp_path / "game.wav"
    subprocess.run(
        [espeak, "-v", "en", "-w", str(sound), "-f", str(text)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    with wave.open(str(sound), "rb") as recording:
        seconds = recording.getnframes() / recording.getframerate()
    words = sum(len(line.split()) for line in lines)
    assert words / 6 < seconds < words / 1.5, (words, seconds)
