"""Real hands for longer than the suite's few dozen actions (issue 40): snl in a real
terminal under Xvfb, the pointer all over the board, clicks, drags, the wheel, keys and
a resize, ACTIONS of them (the same ones each run), then ``q``; prints what a player
would notice and where the screenshots are. About 20 actions a second on a quiet machine.

    python scripts/real_hands.py xterm 1200 play classic --players You,cpu
    python scripts/real_hands.py kitty 1200 edit classic
    python scripts/real_hands.py mlterm 1200 learn classic
    python scripts/real_hands.py xterm 1200 replay --last   (plays a short game first)
    python scripts/real_hands.py xterm 600 --open l play classic   (the load dialog)
    python scripts/real_hands.py mlterm 600 --text --open F2 edit new.toml --size 12

``--open KEYS`` (xdotool's key names, comma-separated) are typed once the screen is up;
``--text``: no picture to wait for (a dialog, ``--graphics text``), the pointer goes all
over the window.

The terminals: xterm (-ti vt340, Sixel), mlterm (Sixel), kitty (Kitty's protocol; its
software GL under Xvfb swaps red and blue in cell backgrounds once a picture is shown:
the renderer's, not snl's). Needs Xvfb, xdotool, ImageMagick and the terminal.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.real_hands import hands_run, missing  # noqa: E402

SNL = Path(sys.executable).with_name("snl")


def a_saved_game(data: Path) -> str:
    """Play a short computer game into ``data``'s store; its id."""
    env = {"SNL_DATA_DIR": str(data), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [str(SNL), "play", "classic", "--players", "cpu,cpu", "--seed", "5", "--screen-reader"],
        input="quit\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    games = subprocess.run(
        [str(SNL), "games"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    for word in games.stdout.split():
        if word.isdigit():
            return word
    raise SystemExit(f"no saved game to replay: {games.stdout or games.stderr}")


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        raise SystemExit(__doc__)
    terminal, actions, command = argv[0], int(argv[1]), argv[2:]
    opening: list[str] = []
    text = False
    while command and command[0] in ("--open", "--text"):
        if command[0] == "--open":
            opening, command = command[1].split(","), command[2:]
        else:
            text, command = True, command[1:]
    needs = missing(terminal)
    if needs:
        raise SystemExit(f"needs {', '.join(needs)}")
    shots = Path(tempfile.mkdtemp(prefix=f"real-hands-{terminal}-"))
    if command[:2] == ["replay", "--last"]:
        command = ["replay", a_saved_game(shots / "data")]
    # The learn screen draws the character board; a dialog covers the picture.
    picture = command[0] != "learn" and not text and not opening
    keys = ("r", "space", "Up", "Down", "Left", "Right", "Tab", "Return", "z", "v", "1")
    report = hands_run(
        terminal, [str(SNL), *command], actions, shots, picture=picture, opening=opening, keys=keys
    )
    print(f"{terminal} {' '.join(command)}: {report}")
    print(f"screenshots and data: {shots}")
    ok = report.alive_before_quit and not report.crashes and report.status == 0 and report.clean
    print("OK" if ok else "NOT OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
