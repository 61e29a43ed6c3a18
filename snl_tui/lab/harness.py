"""The judge's harness, run as a script inside the solution's own process.

``python -I harness.py MEMORY_MB SOLUTION.py``: puts the memory limit on itself, loads
the file's ``class Solution`` with what LeetCode's Python puts in scope (``List``,
``deque``, ``collections``...), says ``ready``, then answers one JSON board per line on
stdin with one JSON line on stdout: ``{"answer": 4}`` for a whole number,
``{"other": "'4'"}`` for anything else (its repr) and ``{"error": "..."}`` when the
method raised. Anything the solution prints goes to stderr, so it cannot be taken for an
answer, and what it reads from stdin is empty, never the next board. It imports nothing
of snl: it runs in the child process only.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import traceback
from typing import Any, TextIO

PRELUDE = """\
from typing import *
from collections import *
import collections, heapq, math, itertools, functools, bisect, string, re, sys
from heapq import heappush, heappop
"""
"""What LeetCode's Python 3 has in scope before a solution (a subset that matters here)."""
REPR_LIMIT = 200
RECURSION_LIMIT = 10_000
BACKSTOP = 120
"""CPU seconds a board may take before the kernel ends the process (the judge's own
limit is far lower)."""


def send(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def describe(error: BaseException, path: str) -> str:
    """'IndexError: list index out of range (line 12)': the error and the last line of
    the solution's file it passed through."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == path:
            line = frame.lineno
    text = f"{type(error).__name__}: {error}".rstrip(": ")
    return text[:REPR_LIMIT] + (f" (line {line})" if line is not None else "")


def load(path: str) -> Any:
    """The ``Solution`` class of the file at ``path`` (raises what loading it raises)."""
    with open(path, encoding="utf-8") as file:
        source = file.read()
    namespace: dict[str, Any] = {"__name__": "solution", "__file__": path}
    exec(PRELUDE, namespace)
    exec(compile(source, path, "exec"), namespace)
    solution = namespace.get("Solution")
    if not isinstance(solution, type) or not callable(getattr(solution, "snakesAndLadders", None)):
        raise LookupError("the file has no class Solution with a snakesAndLadders method")
    return solution


def limit(memory_mb: int) -> None:
    """The limits the judge also sets at the start, set again before the solution loads:
    the address space bounds shared mappings too (``mmap(-1, n)``), which the data
    segment does not count."""
    if memory_mb > 0:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def cpu_now() -> float:
    """CPU seconds of this process and the children it waited for."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


def cpu_backstop() -> None:
    """A CPU-time limit a few seconds past this board's start (SIGXCPU ends the process):
    the judge stops a slow board itself, this catches what it could not."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(used.ru_utime + used.ru_stime) + BACKSTOP
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def main() -> int:
    limit(int(sys.argv[1]))
    path = os.path.abspath(sys.argv[2])
    # Answers go out on a private copy of stdout; fd 1 becomes stderr, so a print() in
    # the solution (or an os.write(1, ...)) never reaches the judge as an answer.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    # Boards come in on a private copy of stdin too: an input() in the solution reads
    # nothing rather than the next board.
    boards = os.fdopen(os.dup(0), "r", encoding="utf-8")
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        solution = load(path)
    except BaseException as error:  # a syntax error, an import, a SystemExit at load
        send(out, {"error": "cannot load the solution: " + describe(error, path)})
        return 1
    send(out, {"ready": True})
    for line in boards:
        board = json.loads(line)
        cpu_backstop()
        began = cpu_now()
        try:
            result = solution().snakesAndLadders(board)
        except BaseException as error:
            flush()
            send(out, {"error": describe(error, path), "cpu": cpu_now() - began})
            continue
        used = cpu_now() - began
        flush()
        if type(result) is int and -(2**63) <= result < 2**63:
            send(out, {"answer": result, "cpu": used})
        else:
            try:
                text = repr(result)
            except BaseException:
                text = f"<a {type(result).__name__}>"
            send(out, {"other": text[:REPR_LIMIT], "cpu": used})
    return 0


def flush() -> None:
    """What the solution printed goes out before its answer."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


if __name__ == "__main__":
    sys.exit(main())
