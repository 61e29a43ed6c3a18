"""The judge's harness, run as a script inside the solution's own process.

``python -I harness.py MEMORY_MB SOLUTION.py`` starts as a supervisor (``supervise``): it
forks the process that runs the solution, says that process's id, and stays its parent,
adopting and ending whatever the solution leaves behind. The solution's process puts the
memory limit on itself, loads
the file's ``class Solution`` with what LeetCode's Python puts in scope (``List``,
``deque``, ``collections``...), says ``ready``, then answers one JSON board per line on
stdin with one JSON line on stdout: ``{"answer": 4}`` for a whole number,
``{"other": "'4'"}`` for anything else (its repr) and ``{"error": "..."}`` when the
method raised. Anything the solution prints goes to stderr, so it cannot be taken for an
answer, and what it reads from stdin is empty, never the next board. It imports nothing
of snl: it runs in the child process only.

A command runner uses it too: ``harness.py --init`` as the first process of the runner's
PID namespace, which starts each board's command (``init``), and ``harness.py --reaper
MARKER`` where the machine has no namespaces (``reaper``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import socket
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
MARKER = "SNL_JUDGE_RUN"
"""The judge's mark in the environment of every process of one run (``sandbox``)."""
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
REAPER_LEAVE = b"leave\n"
"""What the judge writes to its reaper before closing the pipe: leave, end nothing."""
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
    if isinstance(sys.stdout, io.TextIOWrapper):  # in order with what goes to stderr
        sys.stdout.reconfigure(line_buffering=True)
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


def descendants(marker: str) -> set[int]:
    """Every process below this one, and every process carrying the judge's marker (one
    that left with ``setsid``)."""
    me = os.getpid()
    parents: dict[int, int] = {}
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                fields = file.read().rpartition(b")")[2].split()
            if fields[0] == b"Z":
                continue
            parents[int(name)] = int(fields[1])
            if marker:
                with open(f"/proc/{name}/environ", "rb") as file:
                    if marker.encode() in file.read():
                        found.add(int(name))
        except (OSError, IndexError, ValueError):
            continue
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if (parent == me or parent in found) and pid not in found:
                found.add(pid)
                grew = True
    return found


def end_all(marker: str) -> None:
    """Kill everything below this process, and reap it. As the first process of a PID
    namespace (``unshare``), every other process of the namespace is one of those, and
    ``kill(-1)`` reaches exactly them (the process ids in /proc are the outer ones)."""
    if os.getpid() == 1:
        end_namespace()
        return
    for _ in range(50):
        living = descendants(marker)
        if not living:
            break
        for pid in living:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        reap()


def reap() -> int | None:
    """Reap every ended child; the status of the solution's process when it was one."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == CHILD[0]:
            status = code


CHILD = [0]


def supervise() -> int:
    """The solution's parent, which the judge starts: a subreaper that adopts every
    orphan the solution leaves, ends them all when the solution's process ends or the
    judge dies (PR_SET_PDEATHSIG), and exits as the solution's process did. Its first
    line on stdout is the solution's process id (the judge reads that one's CPU time)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    value = os.environ.get(MARKER)
    marker = f"{MARKER}={value}" if value else ""
    judge = os.getppid()
    go_read, go_write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(go_write)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.read(go_read, 1)  # the supervisor has let go of the pipes
        os.close(go_read)
        # Its id as the judge knows it: /proc's, the outer one in a PID namespace.
        os.write(1, (json.dumps({"pid": int(os.readlink("/proc/self"))}) + "\n").encode())
        sys.exit(main())
    CHILD[0] = child
    os.close(go_read)
    # The supervisor keeps one copy of stdout, to say how the solution's process ended
    # (a namespace's first process cannot pass on a signal's death by dying of it).
    note = os.dup(1)
    nothing = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(nothing, fd)
    os.close(nothing)
    os.write(go_write, b"go")
    os.close(go_write)

    def leave(number: int, frame: object) -> None:
        end_all(marker)
        os._exit(128 + number)

    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, leave)
    if os.getppid() != judge:
        leave(signal.SIGTERM, None)
    status = None
    while status is None:
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == child:
            status = code
    end_all(marker)
    if status is None:
        return 1
    code = os.waitstatus_to_exitcode(status)
    with contextlib.suppress(OSError):
        os.write(note, ("\n" + json.dumps({"ended": code}) + "\n").encode())
    return code if code >= 0 else 128 - code


def reaper(value: str) -> int:
    """``harness.py --reaper MARKER``: the watch a command runner keeps beside its
    commands (which it cannot be the parent of): when the judge dies (PR_SET_PDEATHSIG)
    or signals it, every process carrying the marker is ended; when the judge writes
    ``leave`` and closes its stdin, it leaves quietly. The end of stdin alone is what a
    judge killed outright looks like too, and usually comes first: the kernel closes a
    dying process's files before it sends the death signal, so the reaper ends the
    marked processes then as well."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    marker = f"{MARKER}={value}"
    judge = os.getppid()

    def leave(number: int, frame: object) -> None:
        end_all(marker)
        os._exit(128 + number)

    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, leave)
    if os.getppid() != judge or judge == 1:
        leave(signal.SIGTERM, None)
    heard = b""
    while chunk := os.read(0, 4096):
        heard = (heard + chunk)[-64:]
    if not heard.endswith(REAPER_LEAVE):
        end_all(marker)
    return 0


def end_namespace() -> None:
    """Kill every process of this PID namespace but this one (its first), and reap them
    all: those the killed ones leave come to this process, so the waits end when none
    is left."""
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:  # pragma: no cover - no handler is installed
            continue


def start_command(channel: socket.socket, request: dict[str, Any], fds: list[int]) -> int:
    """Fork the process that runs one board's command: the board's pipes on its fds 0,
    1 and 2, a session of its own, its limits; it says its id as the judge knows it
    (the outer one: /proc is the parent namespace's) before it becomes the command, or
    why it could not."""
    child = os.fork()
    if child:
        return child
    try:
        for number, fd in enumerate(fds):
            os.dup2(fd, number)
        os.setsid()
        for ignored in (signal.SIGPIPE, signal.SIGXFSZ):  # Python's, not the command's
            signal.signal(ignored, signal.SIG_DFL)
        for which, soft, hard in request["limits"]:
            resource.setrlimit(which, (soft, hard))
        channel.send(json.dumps({"pid": int(os.readlink("/proc/self"))}).encode())
        argv = [str(part) for part in request["argv"]]
        os.execv(argv[0], argv)  # the channel is close-on-exec: the command has none
    except OSError as error:
        with contextlib.suppress(OSError):
            channel.send(json.dumps({"error": error.strerror or str(error)}).encode())
    except BaseException:
        pass
    os._exit(127)


def wait_command(channel: socket.socket, child: int) -> tuple[int, Any, bool]:
    """Wait for the command's process ``child`` to end (killed first if the judge says
    ``kill`` or goes): its wait status, its resource usage, and whether the judge went."""
    import select

    try:
        ended: int | None = os.pidfd_open(child)
    except (AttributeError, OSError):  # before Linux 5.3: a look every 10 ms
        ended = None
    judge_gone = False
    while not judge_gone:
        if ended is None:
            pid, status, usage = os.wait4(child, os.WNOHANG)
            if pid:
                return status, usage, False
        watched = [channel.fileno()] if ended is None else [channel.fileno(), ended]
        ready, _, _ = select.select(watched, [], [], 0.01 if ended is None else None)
        if ended is not None and ended in ready:
            break
        if channel.fileno() not in ready:
            continue
        try:
            said = channel.recv(4096)
        except OSError:
            said = b""
        judge_gone = not said
        if judge_gone or said == b"kill":
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
    if ended is not None:
        os.close(ended)
    _, status, usage = os.wait4(child, 0)
    return status, usage, judge_gone


def init() -> int:
    """``harness.py --init``: the first process of a command runner's PID namespace
    (``sandbox.Init``), so that the commands are not. The kernel spares a namespace's
    first process every signal it has no handler for, so a command run as that process
    would survive its own ``kill -TERM $$`` and its CPU limit's SIGXCPU; here each
    board's command is this process's child, with every signal's default, while this
    process, which has no handler at all, takes no signal from inside.

    Its stdin is a socket to the judge. For each board the judge sends one request, the
    command and its limits, with the board's three pipes attached; this process starts
    the command (``start_command``), waits for it, ends every process it left (the whole
    namespace but this one), and replies ``{"ended": STATUS, "cpu": SECONDS}``: the
    command's exit status and the CPU time it and the children it waited for used. A
    ``kill`` from the judge ends the command early (its CPU time or memory passed the
    limit). When the judge closes the socket or dies (``unshare --kill-child`` and
    PR_SET_PDEATHSIG), this process ends, and the kernel ends every process of the
    namespace with it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # no handler: nothing inside reaches it
    channel = socket.socket(fileno=os.dup(0))
    nothing = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(nothing, fd)
    os.close(nothing)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(channel, 1 << 20, 3)
        except OSError:
            data, fds = b"", []
        for fd in fds:  # recv_fds takes no MSG_CMSG_CLOEXEC before Python 3.12
            os.set_inheritable(fd, False)
        if data == b"kill" and not fds:
            continue  # for a command that had already ended
        if not data or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            end_namespace()
            return 0
        try:
            child = start_command(channel, json.loads(data), fds)
        finally:
            for fd in fds:
                os.close(fd)
        status, usage, judge_gone = wait_command(channel, child)
        end_namespace()
        if judge_gone:
            return 0
        report = {
            "ended": os.waitstatus_to_exitcode(status),
            "cpu": usage.ru_utime + usage.ru_stime,
        }
        try:
            channel.send(json.dumps(report).encode())
        except OSError:
            return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--reaper"]:
        sys.exit(reaper(sys.argv[2]))
    if sys.argv[1:2] == ["--init"]:
        sys.exit(init())
    sys.exit(supervise())
