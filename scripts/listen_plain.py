"""Listen to plain mode as a blind player would: a whole game, a learn session and an
edit session typed into ``snl --screen-reader``, each spoken by espeak-ng to a WAV file.

Prints, per session: the lines and words said, the seconds of speech, the lines said
twice in a row, the commands typed that got no answer, and the characters a speech
synthesizer spells out or reads as a symbol. The WAV files and the transcripts stay in
the folder given (default: a new temporary one) to be played back.

    python scripts/listen_plain.py [FOLDER]
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

SESSIONS = {
    "game": (
        ["play", "classic", "--seed", "3", "--no-save"],
        "help\nwhere\nboard\nboard 47\nhint\nodds\nroute\nsay\nsay 3\n"
        + "roll\n" * 200
        + "where\nhelp\nquit\n",
    ),
    "learn": (
        ["learn", "leetcode-1"],
        "\n\n\nwhere\nqueue\nlevel\nback\nnext 5\nboard\ncode\nrun\nroute\nwhere\nhelp\nquit\n",
    ),
    "edit": (
        ["edit"],
        "where\nboard\nladder 3 19\nsnake 45 27\nremove 45\nundo\nnumbers\n"
        "rule six again on\ncheck\nsay 2\nsave as listened.toml\nwhere\nhelp\nquit\n",
    ),
}
SPELLED = re.compile(r"[_/\\|#*~^=<>{}\[\]@&+\u2190-\u21ff]|\b[A-Z]{2,}\b|->")
"""What espeak-ng reads as a symbol ('slash', 'equals') or spells out ('S T D')."""


def session(folder: Path, name: str, args: list[str], typed: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "snl_tui", *args, "--screen-reader"],
        input=typed,
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=300,
        check=False,
    )
    lines = result.stdout.splitlines()
    transcript = folder / f"{name}.txt"
    transcript.write_text(result.stdout, encoding="utf-8")
    repeated = [a for a, b in itertools.pairwise(lines) if a == b]
    spelled = sorted({found for line in lines for found in SPELLED.findall(line)})
    seconds = speak(transcript, folder / f"{name}.wav")
    words = sum(len(line.split()) for line in lines)
    print(
        f"{name}: {len(lines)} lines, {words} words, {seconds:.0f} s of speech; "
        f"said twice in a row: {len(repeated)} {repeated[:3]}; spelled or symbols: "
        f"{spelled}; stderr: {result.stderr.strip()[:200]!r}"
    )


def speak(transcript: Path, sound: Path) -> float:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        return float("nan")
    subprocess.run(
        [espeak, "-v", "en", "-w", str(sound), "-f", str(transcript)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    with wave.open(str(sound), "rb") as recording:
        return recording.getnframes() / recording.getframerate()


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    for name, (args, typed) in SESSIONS.items():
        session(folder, name, args, typed)
    print(f"transcripts and WAV files in {folder}")


if __name__ == "__main__":
    main()
