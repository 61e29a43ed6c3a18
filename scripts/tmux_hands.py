"""Real hands in tmux, without graphics (issue 40): snl in a private tmux server
(``-L snl-hands``) at 80x24, SGR mouse reports sent into the pane as a terminal sends
them (moves, clicks, drags, the wheel), keys and resizes, over the game, the editor
(classic and a new 12x12), learn, help, the load dialog, puzzle mode and the winner
dialog; then Escape, Escape, q (d for the editor's question). Prints, for each, whether
snl ran throughout, its exit status and its crash files.

    python scripts/tmux_hands.py [EVENTS]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SNL = Path(sys.executable).with_name("snl")


def tm(*args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", "snl-hands", *args], capture_output=True, text=True, timeout=20
    )
    return done.stdout


def run(name: str, cmd: str, opening: tuple[str, ...] = (), n: int = 250, seed: int = 1) -> bool:
    data = tempfile.mkdtemp()
    rng = random.Random(seed)
    script = f"SNL_DATA_DIR={data} {cmd}; echo STATUS $?; sleep 30"
    tm("new-session", "-d", "-s", "h", "-x", "80", "-y", "24", script)
    time.sleep(6)
    for key in opening:
        tm("send-keys", "-t", "h", key)
        time.sleep(0.5)
    w, h = 80, 24
    keys = ["Up", "Down", "Left", "Right", "Tab", "Enter", "Space", "r", "1"]
    for i in range(n):
        x, y = rng.randrange(1, w + 1), rng.randrange(1, h + 1)
        kind = rng.randrange(6)
        if kind == 0:
            seq = f"\x1b[<35;{x};{y}M"
        elif kind == 1:
            seq = f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"
        elif kind == 2:
            seq = f"\x1b[<{rng.choice((64, 65))};{x};{y}M"
        elif kind == 3:
            seq = f"\x1b[<0;{x};{y}M\x1b[<32;{rng.randrange(1, w + 1)};{y}M\x1b[<0;{x};{y}m"
        else:
            tm("send-keys", "-t", "h", rng.choice(keys))
            continue
        tm("send-keys", "-t", "h", "-l", seq)
        if i % 80 == 40:
            w, h = rng.choice([(80, 24), (120, 40), (60, 18), (100, 30)])
            tm("resize-window", "-t", "h", "-x", str(w), "-y", str(h))
        time.sleep(0.02)
    time.sleep(2)
    alive = "STATUS" not in tm("capture-pane", "-p", "-t", "h")
    for key in ("Escape", "Escape", "q"):
        tm("send-keys", "-t", "h", key)
        time.sleep(1)
    time.sleep(3)
    after = tm("capture-pane", "-p", "-t", "h")
    if "STATUS" not in after:
        tm("send-keys", "-t", "h", "d")
        time.sleep(3)
        after = tm("capture-pane", "-p", "-t", "h")
    tm("kill-session", "-t", "h")
    crashes = [f for f in os.listdir(data) if f.startswith("crash")]
    status = [line.split()[-1] for line in after.splitlines() if "STATUS" in line]
    print(f"{name}: ran throughout={alive} status={status} crashes={crashes}", flush=True)
    return alive and status == ["0"] and not crashes


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 250
    play = f"{SNL} play classic --no-save"
    runs = [
        ("game", play, ()),
        ("editor", f"{SNL} edit classic", ()),
        ("editor 12", f"{SNL} edit new.toml --size 12", ()),
        ("learn", f"{SNL} learn classic", ()),
        ("help", play, ("?",)),
        ("load", play, ("l",)),
        ("puzzle", f"{play} --mode puzzle", ()),
        ("winner", f"{play} --players cpu,cpu", ()),
    ]
    ok = [run(name, cmd, opening, n) for name, cmd, opening in runs]
    print(f"{ok.count(False)} not ok")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
