"""Running a person's solution: in its own process (``sandbox``), with a CPU-time limit
per board and a memory limit, its output treated as untrusted text.

Two kinds of solution:

* ``PythonRunner``: a file with LeetCode's ``class Solution``. One child process runs the
  harness (``harness.py``) and answers many boards, one JSON line each way, which is what
  makes a thousand boards take seconds rather than a thousand interpreter starts. A child
  that crashes, or runs past a board's CPU time (it is killed), is started again for the
  next board.
* ``CommandRunner`` (``command_runner.py``): any command (a compiled C program, ``java
  Solution``...) that reads one board as a line of JSON on stdin and prints the answer;
  one process per board, started by the runner's init in a PID namespace of its own where
  the machine has them (``sandbox.Init``), by the runner itself elsewhere.

This module holds what both share: ``Outcome``, the ``Runner`` base, the limits, the
``Watch`` over a running child and the outcomes it comes to, and ``PythonRunner``.

Time is CPU time, read from /proc while waiting and from the child's own account when it
answers, so a loaded machine does not make a solution slow. A child that uses no CPU for
``STALL`` seconds of waiting is waiting for something that never comes (a sleep, input):
it is stopped too. What the solution prints is kept (bounded, escaped) for the report.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Literal, Protocol

from ..core.text import clip, escape_controls
from .sandbox import cpu_seconds, kill_tree, memory_bytes, spawn

DEFAULT_TIME_LIMIT = 2.0
"""Seconds of CPU time a solution may take on one board."""
DEFAULT_MEMORY_MB = 512
"""Memory a solution may use (address space for Python; resident memory, shared memory
included, for a command)."""
START_LIMIT = 20.0
"""Seconds of CPU time a Python child may take to start and load the solution."""
STALL = 10.0
"""Seconds of waiting without using CPU time after which a child is waiting for
something that never comes."""
POLL = 0.05
"""Seconds between two looks at a running child's CPU time and memory."""
OUTPUT_LIMIT = 64 * 1024
"""Bytes of one answer (and of the kept output): more is an error, not memory."""
PRINTED_LIMIT = 4096
"""Bytes of what the solution printed on one board that are kept for the report."""
HARNESS = Path(__file__).with_name("harness.py")

OutcomeKind = Literal["answer", "other", "error", "timeout"]


@dataclass(frozen=True)
class Outcome:
    """What a solution did with one board."""

    kind: OutcomeKind
    """``answer``: a whole number; ``other``: something else (``text`` shows it);
    ``error``: it crashed (``text`` says how); ``timeout``: no answer within the CPU
    time (``stalled``: it stopped using CPU time and waited)."""
    value: int | None = None
    text: str = ""
    fatal: bool = False
    """The solution cannot run at all (it does not load): no board would do better."""
    cpu: float | None = None
    """CPU seconds it used on the board (None: not measured)."""
    stalled: bool = False
    stdout: bytes = b""
    """What it printed on stdout, beyond its answer (the first ``PRINTED_LIMIT`` bytes)."""
    stderr: bytes = b""
    """What it printed on stderr (``merged``: and on stdout, a Python solution's)."""
    merged: bool = False

    def shown(self) -> str:
        """The answer as a person reads it: '3', "'3'" (a string), 'None'."""
        return str(self.value) if self.kind == "answer" else self.text


class Runner:
    """Runs a solution on boards, one at a time; ``close`` ends any child left."""

    time_limit: float
    label: str

    def run(self, matrix: list[list[int]]) -> Outcome:
        raise NotImplementedError

    def fresh(self) -> Runner:
        """A runner of the same solution that has answered no board yet (this one when
        every board already runs in a process of its own)."""
        raise NotImplementedError

    def longer(self, time_limit: float) -> Runner:
        """A runner of the same solution, in a new process, with another time limit."""
        raise NotImplementedError

    def close(self) -> None:
        """End the child process and all it started, if one is running."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def death_text(code: int | None) -> str:
    """'exited with status 1', 'was killed by SIGSEGV'."""
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        what = f"was killed by {name}"
        if -code == signal.SIGKILL:
            what += " (out of memory?)"
        if -code == signal.SIGXCPU:
            what += " (out of CPU time)"
        return what
    return f"exited with status {code}"


def first_error_line(stderr: bytes) -> str:
    """The line of stderr that says what went wrong: the first naming an error, else the
    first line (escaped, clipped)."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return ""
    words = ("error", "exception", "panicked", "fault", "abort", "what()")
    named = [line for line in lines if any(word in line.lower() for word in words)]
    return clip(escape_controls((named or lines)[0]), 160)


class Streams(Protocol):
    """A child's stdout and stderr, as a ``Popen`` has them."""

    @property
    def stdout(self) -> IO[bytes] | None: ...

    @property
    def stderr(self) -> IO[bytes] | None: ...


class Watch:
    """Reads a child's stdout and stderr while watching its CPU time and memory."""

    def __init__(self, process: Streams, cpu_limit: float, memory_mb: int, pid: int) -> None:
        self.process = process
        self.pid = pid
        """The process whose CPU time counts (the solution's, below a supervisor)."""
        self.cpu_limit = cpu_limit
        self.memory = memory_mb * 1024 * 1024
        self.base = cpu_seconds(self.pid) or 0.0
        self.used = 0.0
        self.stdout = b""
        self.stderr = b""
        self.stderr_size = 0
        self.closed: set[int] = set()

    def read(self, fd: int, err: bool) -> None:
        chunk = os.read(fd, 65536)
        if not chunk:
            self.closed.add(fd)
        elif err:
            self.stderr_size += len(chunk)
            room = OUTPUT_LIMIT - len(self.stderr)
            if room > 0:
                self.stderr += chunk[:room]
        else:
            self.stdout += chunk

    def drain(self, *, stdout: bool = False) -> None:
        """Read what stderr (and ``stdout``) holds now, without waiting."""
        process = self.process
        assert process.stderr is not None and process.stdout is not None
        err, out = process.stderr.fileno(), process.stdout.fileno()
        streams = [err, out] if stdout else [err]
        while True:
            open_ones = [fd for fd in streams if fd not in self.closed]
            ready, _, _ = select.select(open_ones, [], [], 0) if open_ones else ([], [], [])
            if not ready:
                break
            for fd in ready:
                self.read(fd, fd == err)
            if len(self.stdout) > OUTPUT_LIMIT:
                break

    def until(self, done: object, *, stop_on_close: bool = True, exit_fd: int | None = None) -> str:
        """Read until ``done()`` holds ('done'), stdout closes ('closed'), the CPU time
        passes the limit ('cpu'), memory passes its limit ('memory'), stdout grows past
        ``OUTPUT_LIMIT`` ('output') or the child waits without computing ('stalled')."""
        assert callable(done)
        process = self.process
        assert process.stdout is not None and process.stderr is not None
        out, err = process.stdout.fileno(), process.stderr.fileno()
        moved_at, last = time.monotonic(), self.base
        polls = 0
        while True:
            if done():
                return "done"
            if out in self.closed and stop_on_close:
                return "closed"
            if len(self.stdout) > OUTPUT_LIMIT:
                return "output"
            watched = [fd for fd in (out, err) if fd not in self.closed]
            if exit_fd is not None:
                watched.append(exit_fd)  # readable when the process has ended
            ready, _, _ = select.select(watched, [], [], POLL)
            for fd in ready:
                if fd != exit_fd:
                    self.read(fd, fd == err)
            if ready and done():
                return "done"
            now = cpu_seconds(self.pid)
            if now is None:
                continue  # it ended: its pipes close
            self.used = now - self.base
            if self.used > self.cpu_limit:
                return "cpu"
            if now > last + 0.01:
                moved_at, last = time.monotonic(), now
            elif time.monotonic() - moved_at > STALL:
                return "stalled"
            polls += 1
            if self.memory and memory_bytes(self.pid, descendants=polls % 10 == 0) > self.memory:
                return "memory"


def too_slow(used: float, limit: float) -> Outcome:
    return Outcome(
        "timeout", text=f"no answer within {limit:g} s of CPU time", cpu=max(used, limit)
    )


def stalled(used: float) -> Outcome:
    return Outcome(
        "timeout",
        text=f"no answer, and no CPU time used for {STALL:g} s: it waits for something "
        "(input? a sleep? a lock?)",
        cpu=used,
        stalled=True,
    )


def over_memory(memory_mb: int) -> Outcome:
    return Outcome("error", text=f"used more than {memory_mb} MB of memory")


class PythonRunner(Runner):
    """A ``class Solution`` file, judged through the harness in one long-lived child."""

    def __init__(
        self,
        path: Path,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        memory_mb: int = DEFAULT_MEMORY_MB,
        python: str = sys.executable,
    ) -> None:
        self.path = path.resolve()
        self.time_limit = time_limit
        self.memory_mb = memory_mb
        self.python = python
        self.label = path.name
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.pid: int | None = None
        """The solution's process (the supervisor's child)."""
        self.starts = 0
        """How many children were started (a crash or a time-out costs one more)."""
        self.ended = False
        """The solution's process has ended (its supervisor said so)."""

    def fresh(self) -> PythonRunner:
        return self.longer(self.time_limit)

    def longer(self, time_limit: float) -> PythonRunner:
        return PythonRunner(
            self.path, time_limit=time_limit, memory_mb=self.memory_mb, python=self.python
        )

    def _start(self) -> Outcome | None:
        """Start a child and wait for its ``ready``; an Outcome when loading failed."""
        self.starts += 1
        command = [self.python, "-I", str(HARNESS), str(self.memory_mb), str(self.path)]
        self.process = spawn(
            command,
            cpu_seconds=0,
            memory_mb=self.memory_mb,
            address_space=True,
            cwd=self.path.parent,
            namespace=True,
        )
        self.buffer, self.pid, self.ended = b"", None, False
        outcome = self._answer(START_LIMIT)
        if outcome is None and self.pid is not None:
            outcome = self._answer(START_LIMIT)  # the pid came: now the ready
        if outcome is None:
            return None
        self.close()
        return replace(outcome, fatal=True)

    def run(self, matrix: list[list[int]]) -> Outcome:
        if self.process is None:
            failed = self._start()
            if failed is not None:
                return failed
        process = self.process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(matrix).encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it died: the reply says how
        outcome = self._answer(self.time_limit)
        assert outcome is not None
        process = self.process
        if process is not None and (
            outcome.kind == "timeout"
            or (outcome.kind == "error" and (self.ended or process.poll() is not None))
        ):
            self.close()  # killed or dead: the next board starts a new child
        return outcome

    def _answer(self, limit: float) -> Outcome | None:
        """The child's next reply as an Outcome (None: it said ``ready``)."""
        process = self.process
        assert process is not None
        watch = Watch(process, limit, self.memory_mb, self.pid or process.pid)
        watch.stdout = self.buffer
        how = watch.until(lambda: b"\n" in watch.stdout.lstrip(b"\n"))
        watch.drain()
        printed = watch.stderr
        kept: dict[str, Any] = {"stderr": printed[:PRINTED_LIMIT], "merged": True}
        if how == "done":
            line, _, self.buffer = watch.stdout.lstrip(b"\n").partition(b"\n")
            try:
                reply = json.loads(line)
            except ValueError:
                reply = {"error": "the harness's answer was not JSON"}
            if not isinstance(reply, dict):
                reply = {"error": "the harness's answer was odd"}
            if reply.get("ready") is True:
                return None
            if type(reply.get("pid")) is int and self.pid is None:
                self.pid = int(reply["pid"])
                return None
            if type(reply.get("ended")) is int:  # the supervisor: the solution's process ended
                return self._ended(watch, int(reply["ended"]))
            cpu = reply.get("cpu")
            used = float(cpu) if isinstance(cpu, (int, float)) else watch.used
            if used > limit:
                return replace(too_slow(used, limit), **kept)
            return replace(reply_outcome(reply), cpu=used, **kept)
        stopped = stopped_by_watch(how, watch.used, limit, self.memory_mb)
        if stopped is not None:
            return replace(stopped, **kept)
        if how == "output":
            return Outcome("error", text="the harness's answer was too long")
        # closed: it died, its supervisor too
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        return self._ended(watch, process.poll())

    def _ended(self, watch: Watch, code: int | None) -> Outcome:
        """The outcome of a board on which the solution's process ended (``code``: its
        exit status, or minus the signal that killed it)."""
        self.ended = True
        watch.drain()
        text = "the solution's process " + death_text(code)
        said = first_error_line(watch.stderr)
        if said:
            text += ": " + said
        printed = watch.stderr[:PRINTED_LIMIT]
        return Outcome("error", text=text, cpu=watch.used, stderr=printed, merged=True)

    def close(self) -> None:
        if self.process is not None:
            kill_tree(self.process)
            self.process = None


def reply_outcome(reply: dict[str, object]) -> Outcome:
    """The harness's reply to a board as an Outcome."""
    if "answer" in reply and type(reply["answer"]) is int:
        return Outcome("answer", reply["answer"])
    if "other" in reply:
        return Outcome("other", text=clip(escape_controls(str(reply["other"])), 160))
    if "error" in reply:
        return Outcome("error", text=clip(escape_controls(str(reply["error"])), 200))
    return Outcome("error", text="the harness said something unexpected")


def stopped_by_watch(how: str, used: float, limit: float, memory_mb: int) -> Outcome | None:
    """What a ``Watch`` that stopped a solution (``how``: its CPU time past ``limit``, no
    CPU used for a long while, or memory past ``memory_mb``) makes of it; None otherwise."""
    if how == "cpu":
        return too_slow(used, limit)
    if how == "stalled":
        return stalled(used)
    if how == "memory":
        return over_memory(memory_mb)
    return None
