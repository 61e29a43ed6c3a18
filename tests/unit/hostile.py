"""A corpus of hostile board files, built by code in a temporary folder (issue 10).

Nothing big is committed: ``build_corpus(folder)`` writes every file (deep nesting, huge
numbers, wrong types in every field, control characters, NUL bytes, BOMs, UTF-16, huge
and negative sizes, jump cycles, binary junk, a 20 MB file, a FIFO, a symlink loop...)
and returns them by name. Every one must be refused by every reader with one line.
``tricky_valid`` are files that look odd but are fine boards: hardening must not
refuse them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

ESC_NAME = "\\u001b]0;pwned\\u0007"  # JSON/TOML escapes: the parsed name holds ESC and BEL


def _deep_list(depth: int) -> str:
    return "[" * depth + "]" * depth


def _matrix(rows: int, cols: int) -> str:
    row = "[" + ",".join(["-1"] * cols) + "]"
    return "[" + ",".join([row] * rows) + "]"


def hostile_texts() -> dict[str, bytes]:
    """File name -> content, for every hostile file that is plain bytes."""
    big = "9" * 5000
    rng = random.Random(10)
    texts: dict[str, str | bytes] = {
        # -- JSON: LeetCode matrices
        "deep-list.json": _deep_list(10_000),
        "deep-object.json": '{"a":' * 10_000 + "1" + "}" * 10_000,
        "cell-list.json": "[[[1],-1],[-1,-1]]",
        "cell-dict.json": '[[{"a":1},-1],[-1,-1]]',
        "cell-string.json": '[["3",-1],[-1,-1]]',
        "cell-float.json": "[[3.0,-1],[-1,-1]]",
        "cell-bool.json": "[[true,-1],[-1,-1]]",
        "cell-null.json": "[[null,-1],[-1,-1]]",
        "cell-deep.json": "[[" + _deep_list(500) + ",-1],[-1,-1]]",
        "cell-bigint.json": f"[[-1,{big}],[-1,-1]]",
        "cell-out-of-range.json": "[[-1,99],[-1,-1]]",
        "ragged.json": "[[-1,-1],[-1]]",
        "empty-list.json": "[]",
        "empty-row.json": "[[]]",
        "one-cell.json": "[[-1]]",
        "matrix-1001.json": _matrix(1001, 1001),
        "row-100000.json": _matrix(1, 100_000),
        # -- JSON: board documents
        "doc-bigint-size.json": f'{{"size": {big}}}',
        "doc-duplicate-key.json": '{"size": 10, "size": 10}',
        "doc-name-esc.json": f'{{"size": 10, "name": "{ESC_NAME}"}}',
        "doc-name-c1.json": '{"size": 10, "name": "a\\u009b2J"}',
        "doc-name-number.json": '{"size": 10, "name": 7}',
        "doc-description-esc.json": '{"size": 10, "description": "\\u001b[2J"}',
        "doc-size-string.json": '{"size": "10"}',
        "doc-size-float.json": '{"size": 10.0}',
        "doc-size-negative.json": '{"size": -5}',
        "doc-size-million.json": '{"size": 1000000}',
        "doc-ladders-string.json": '{"size": 10, "ladders": "2-5"}',
        "doc-ladders-100k.json": '{"size": 10, "ladders": [[' + ",".join(["1"] * 100_000) + "]]}",
        "doc-ladders-deep.json": '{"size": 10, "ladders": [' + _deep_list(900) + "]}",
        "doc-ladders-nan.json": '{"size": 10, "ladders": [[NaN, 5]]}',
        "doc-rules-start-string.json": '{"size": 10, "rules": {"start": "0"}}',
        "doc-rules-faces-huge.json": '{"size": 10, "rules": {"faces": 1e308}}',
        "doc-rules-esc-key.json": '{"size": 10, "rules": {"\\u001b[2J": 1}}',
        "doc-rules-list.json": '{"size": 10, "rules": [1, 2]}',
        "doc-chain-cycle.json": (
            '{"size": 10, "ladders": [[2, 5]], "snakes": [[5, 2]], "rules": {"chain": true}}'
        ),
        "top-string.json": '"hello"',
        "top-number.json": "42",
        "top-null.json": "null",
        "truncated.json": '{"size": 10,',
        "nul-bytes.json": '{"size": 10\x00\x00}',
        "bom-bad.json": "\ufeff" + '{"size": 0}',
        "utf16.json": '{"size": 10}'.encode("utf-16"),
        # -- TOML
        "deep-array.toml": "size = 10\nname = " + _deep_list(3000) + "\n",
        "deep-table.toml": "size = 10\nx = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
        "bigint-size.toml": f"size = {big}\n",
        "bigint-ladder.toml": f"size = 10\nladders = [[2, {big}]]\n",
        "size-million.toml": "size = 1000000\n",
        "size-negative.toml": "size = -3\n",
        "size-zero.toml": "size = 0\n",
        "size-float.toml": "size = 3.0\n",
        "size-string.toml": 'size = "10"\n',
        "size-bool.toml": "size = true\n",
        "size-1001.toml": "rows = 1001\ncols = 1001\n",
        "rows-only.toml": "rows = 10\n",
        "size-and-rows.toml": "size = 10\nrows = 10\ncols = 10\n",
        "name-esc.toml": f'size = 10\nname = "{ESC_NAME}"\n',
        "name-bel.toml": 'size = 10\nname = "\\u0007"\n',
        "name-del.toml": 'size = 10\nname = "a\\u007fb"\n',
        "name-newline.toml": 'size = 10\nname = "two\\nlines"\n',
        "name-padded.toml": 'size = 10\nname = " padded "\n',
        "name-bidi.toml": 'size = 10\nname = "\\u202eevil"\n',
        "name-table.toml": "size = 10\nname = {a = 1}\n",
        "description-esc.toml": 'size = 10\ndescription = "clear \\u001b[2J"\n',
        "description-list.toml": "size = 10\ndescription = [1]\n",
        "duplicate-key.toml": "size = 10\nsize = 10\n",
        "ladders-string.toml": 'size = 10\nladders = "x"\n',
        "ladders-triple.toml": "size = 10\nladders = [[1, 2, 3]]\n",
        "ladders-float.toml": "size = 10\nladders = [[1.5, 2]]\n",
        "ladders-table.toml": "size = 10\nladders = [{a = 1}]\n",
        "ladder-off-board.toml": "size = 10\nladders = [[2, 500]]\n",
        "ladder-from-goal.toml": "size = 10\nsnakes = [[100, 1]]\n",
        "rules-start-string.toml": 'size = 10\n[rules]\nstart = "0"\n',
        "rules-faces-zero.toml": "size = 10\n[rules]\nfaces = 0\n",
        "rules-chain-string.toml": 'size = 10\n[rules]\nchain = "true"\n',
        "rules-unknown.toml": "size = 10\n[rules]\nwarp = 9\n",
        "chain-cycle.toml": (
            "size = 10\nladders = [[2, 5]]\nsnakes = [[5, 2]]\n[rules]\nchain = true\n"
        ),
        "unknown-key.toml": "size = 10\nexec = 'rm -rf /'\n",
        "raw-esc.toml": "size = 10\nname = '\x1b]0;x\x07'\n",
        "nul-bytes.toml": "size = 10\x00\n",
        "pyproject.toml": '[project]\nname = "x"\n',
        "junk.toml": bytes(rng.randrange(256) for _ in range(4096)),
        "crlf-bad.toml": "size = 10\r\nladders = [[2, 500]]\r\n",
        # -- jump lists
        "bigint-size.txt": f"{big} 10\n",
        "bigint-jump.txt": f"10 10\n2 {big}\n",
        "arabic-digits.txt": "\u0663 \u0663\n",
        "fullwidth-digits.txt": "10 10\n\uff12 \uff15\n",
        "size-million.txt": "1000000\n",
        "size-negative.txt": "-5 10\n",
        "size-zero.txt": "0 0\n",
        "three-numbers.txt": "10 10 10\n",
        "jump-letters.txt": "10 10\n2 x\n",
        "jump-three.txt": "10 10\n2 5 8\n",
        "comments-only.txt": "# only a comment\n",
        "name-esc.txt": "# name: \x1b]0;pwned\x07\n10 10\n",
        "name-c1.txt": "# name: a\u009b2J\n10 10\n",
        "description-esc.txt": "# description: \x1b[2J\n10 10\n",
        "rules-bad.txt": "# rules: start=0 faces=99\n10 10\n",
        "rules-junk.txt": "# rules: bogus\n10 10\n",
        "rules-float.txt": "# rules: faces=1.5\n10 10\n",
        "chain-cycle.txt": "# rules: chain=true\n10 10\n2 5\n5 2\n",
        "jump-from-goal.txt": "10 10\n100 1\n",
        "duplicate-start.txt": "10 10\n2 5\n2 6\n",
        "crlf-bad.txt": "10 10\r\n2 500\r\n",
        "bom-bad.txt": "\ufeff0 0\n",
        "latin1.txt": "# name: caf\xe9\n10 10\n".encode("latin-1"),
        "empty.txt": "",
        "whitespace.txt": " \n\t\n  \r\n",
        "utf16.txt": "10 10\n2 5\n".encode("utf-16"),
        "nul.txt": "10 10\n\x00\n",
        "long-line.txt": "10 10\n" + "1 " * 500_000 + "\n",
        "binary.txt": bytes(rng.randrange(256) for _ in range(4096)),
    }
    return {
        name: text if isinstance(text, bytes) else text.encode() for name, text in texts.items()
    }


TRICKY_VALID = {
    "bom.toml": "\ufeffsize = 10\n",
    "crlf.toml": 'name = "Windows"\r\ndescription = """\r\ntwo\r\nlines"""\r\nsize = 10\r\n',
    "crlf.txt": "# name: Windows\r\n10 10\r\n2 50\r\n",
    "bom.json": "\ufeff[[-1,-1],[-1,-1]]",
    "tab-description.toml": 'size = 10\ndescription = "a\\tb\\nc"\n',
    "unicode-name.toml": 'size = 10\nname = "Échelles 🐍"\n',
    "plus-sign.txt": "+10 10\n+2 +50\n",
}


def build_corpus(folder: Path) -> dict[str, Path]:
    """Write the corpus into ``folder``; name -> path (special files included)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name, data in hostile_texts().items():
        path = folder / name
        path.write_bytes(data)
        paths[name] = path
    big = folder / "twenty-mb.txt"
    with big.open("wb") as file:  # 20 MB: over the size cap
        file.write(b"10 10\n")
        file.write(b"# padding padding padding padding\n" * (20 * 1024 * 1024 // 35))
    paths["twenty-mb.txt"] = big
    paths["directory.toml"] = folder / "directory.toml"
    paths["directory.toml"].mkdir()
    loop_a, loop_b = folder / "loop-a.toml", folder / "loop-b.toml"
    loop_a.symlink_to(loop_b.name)
    loop_b.symlink_to(loop_a.name)
    paths["loop-a.toml"] = loop_a
    dangling = folder / "dangling.toml"
    dangling.symlink_to("nowhere.toml")
    paths["dangling.toml"] = dangling
    if hasattr(os, "mkfifo"):
        fifo = folder / "fifo.txt"
        os.mkfifo(fifo)
        paths["fifo.txt"] = fifo
    for device in ("/dev/zero", "/dev/urandom"):
        if os.path.exists(device):
            paths[device] = Path(device)
    escaped_name = folder / "esc-\x1b]0;x\x07.toml"
    escaped_name.write_text("size = 0\n")
    paths["esc-name.toml"] = escaped_name
    paths["missing-esc"] = folder / "missing-\x1b[2J.toml"
    paths["long-missing"] = folder / ("x" * 300 + ".toml")
    return paths


def build_tricky_valid(folder: Path) -> dict[str, Path]:
    """Odd but valid board files (BOM, CRLF, tabs in descriptions): all must load."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, text in TRICKY_VALID.items():
        path = folder / name
        path.write_bytes(text.encode())
        paths[name] = path
    return paths
