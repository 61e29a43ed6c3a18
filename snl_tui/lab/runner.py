"""Running a person's solution: in its own process, with a time limit per board and a
memory limit, its output treated as untrusted text.

Two kinds of solution:

* ``PythonRunner``: a file with LeetCode's ``class Solution``. One child process runs the
  harness (``harness.py``) and answers many boards, one JSON line each way, which is what
  makes a thousand boards take seconds rather than a thousand interpreter starts. A child
  that crashes, or runs past a board's time limit (it is killed), is started again for
  the next board.
* ``CommandRunner``: any command (a compiled C program, ``java Solution``...) that reads
  one board as a line of JSON on stdin and prints the answer; one process per board.

Each child runs in a session of its own (a time-out kills its whole process group), with
``RLIMIT_DATA`` as the memory limit, no core files and a cap on the files it may write
(``limit``).
Everything it prints is read in bounded amounts and never shown unescaped.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..core.text import clip, escape_controls

DEFAULT_TIME_LIMIT = 2.0
"""Seconds a solution may take on one board."""
DEFAULT_MEMORY_MB = 512
"""Memory a solution may use (its data segment: the heap and anonymous mappings)."""
START_LIMIT = 20.0
"""Seconds a Python child may take to start and load the solution."""
OUTPUT_LIMIT = 64 * 1024
"""Bytes of one answer (and of the kept end of stderr): more is an error, not memory."""
FILE_LIMIT = 64 * 1024 * 1024
HARNESS = Path(__file__).with_name("harness.py")

OutcomeKind = Literal["answer", "other", "error", "timeout"]


@dataclass(frozen=True)
class Outcome:
    """What a solution did with one board."""

    kind: OutcomeKind
    """``answer``: a whole number; ``other``: something else (``text`` shows it);
    ``error``: it crashed (``text`` says how); ``timeout``: no answer in time."""
    value: int | None = None
    text: str = ""
    fatal: bool = False
    """The solution cannot run at all (it does not load): no board would do better."""

    def shown(self) -> str:
        """The answer as a person reads it: '3', "'3'" (a string), 'None'."""
        return str(self.value) if self.kind == "answer" else self.text


class Runner:
    """Runs a solution on boards, one at a time; ``close`` ends any child left."""

    time_limit: float
    label: str

    def run(self, matrix: list[list[int]]) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        """End the child process, if one is running."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def limit(pid: int, memory_mb: int) -> None:
    """Put the limits on process ``pid``: its data segment (the memory limit), no core
    files, a cap on the files it writes. Set from outside (``prlimit``) as soon as it
    starts: a ``preexec_fn`` would do it before the program runs, but costs every start a
    full fork (about 3 ms instead of 1 with vfork); the harness sets them itself too."""
    try:
        if memory_mb > 0:
            size = memory_mb * 1024 * 1024
            resource.prlimit(pid, resource.RLIMIT_DATA, (size, size))
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    except (ProcessLookupError, PermissionError):
        pass  # it has already ended (its answer says how)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the child and everything it started (its own session), and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL cannot be ignored
        process.wait(timeout=5)


def start(
    command: Sequence[str], memory_mb: int, cwd: Path | None = None
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own, with pipes on all three streams."""
    process = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=cwd,
    )
    limit(process.pid, memory_mb)
    return process


def death_text(process: subprocess.Popen[bytes], stderr: bytes) -> str:
    """'exited with status 1: <the last line it wrote on stderr>' (escaped)."""
    code = process.poll()
    if code is None:
        what = "stopped answering"
    elif code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        what = f"was killed by {name}"
        if -code == signal.SIGKILL:
            what += " (out of memory?)"
    else:
        what = f"exited with status {code}"
    last = [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    if last:
        what += ": " + clip(escape_controls(last[-1].strip()), 160)
    return what


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
        self.stderr = b""
        self.starts = 0
        """How many children were started (a crash or a time-out costs one more)."""

    def _start(self) -> Outcome | None:
        """Start a child and wait for its ``ready``; an Outcome when loading failed."""
        self.starts += 1
        command = [self.python, "-I", str(HARNESS), str(self.memory_mb), str(self.path)]
        self.process = start(command, self.memory_mb, self.path.parent)
        self.buffer, self.stderr = b"", b""
        reply = self._reply(START_LIMIT)
        if reply is not None and reply.get("ready") is True:
            return None
        outcome = self._outcome(reply, START_LIMIT)
        self.close()
        return Outcome(outcome.kind, outcome.value, outcome.text, fatal=True)

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
        outcome = self._outcome(self._reply(self.time_limit), self.time_limit)
        process = self.process
        if process is not None and (
            outcome.kind == "timeout" or (outcome.kind == "error" and process.poll() is not None)
        ):
            self.close()  # killed or dead: the next board starts a new child
        return outcome

    def _outcome(self, reply: dict[str, object] | None, limit: float) -> Outcome:
        if reply is None:
            process = self.process
            if process is not None and process.poll() is None:
                return Outcome("timeout", text=f"no answer within {limit:g} s")
            assert process is not None
            return Outcome(
                "error", text="the solution's process " + death_text(process, self.stderr)
            )
        if "answer" in reply and type(reply["answer"]) is int:
            return Outcome("answer", reply["answer"])
        if "other" in reply:
            return Outcome("other", text=clip(escape_controls(str(reply["other"])), 160))
        if "error" in reply:
            return Outcome("error", text=clip(escape_controls(str(reply["error"])), 200))
        return Outcome("error", text="the harness said something unexpected")

    def _reply(self, limit: float) -> dict[str, object] | None:
        """The child's next JSON line, or None when it died or ``limit`` seconds passed."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        out, err = process.stdout.fileno(), process.stderr.fileno()
        deadline = time.monotonic() + limit
        watched = [out, err]
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if out not in watched:
                self._wait_for_exit()
                return None
            if left <= 0:
                return None
            ready, _, _ = select.select(watched, [], [], left)
            for fd in ready:
                chunk = os.read(fd, 65536)
                if fd == out:
                    if not chunk:
                        watched.remove(out)
                    self.buffer += chunk
                    if len(self.buffer) > OUTPUT_LIMIT and b"\n" not in self.buffer:
                        return {"error": "the harness's answer was too long"}
                else:
                    if not chunk:
                        watched.remove(err)
                    self.stderr = (self.stderr + chunk)[-OUTPUT_LIMIT:]
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            return {"error": "the harness's answer was not JSON"}
        return reply if isinstance(reply, dict) else {"error": "the harness's answer was odd"}

    def _wait_for_exit(self) -> None:
        """The child closed its answers: collect the end of its stderr and its exit."""
        process = self.process
        assert process is not None and process.stderr is not None
        err = process.stderr.fileno()
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            ready, _, _ = select.select([err], [], [], deadline - time.monotonic())
            if not ready:
                break
            chunk = os.read(err, 65536)
            if not chunk:
                break
            self.stderr = (self.stderr + chunk)[-OUTPUT_LIMIT:]
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        if self.process is not None:
            kill_group(self.process)
            self.process = None


class CommandRunner(Runner):
    """Any command: the board as one line of JSON on stdin, the answer on stdout."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        memory_mb: int = DEFAULT_MEMORY_MB,
    ) -> None:
        self.command = list(command)
        self.time_limit = time_limit
        self.memory_mb = memory_mb
        self.label = " ".join(command)

    def run(self, matrix: list[list[int]]) -> Outcome:
        try:
            process = start(self.command, self.memory_mb)
        except OSError as error:
            name = clip(escape_controls(self.command[0]))
            return Outcome(
                "error", text=f"cannot run {name}: {error.strerror or error}", fatal=True
            )
        try:
            return self._talk(process, json.dumps(matrix).encode() + b"\n")
        finally:
            kill_group(process)

    def _talk(self, process: subprocess.Popen[bytes], board: bytes) -> Outcome:
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        try:
            process.stdin.write(board)
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        out, err = process.stdout.fileno(), process.stderr.fileno()
        stdout, stderr = b"", b""
        deadline = time.monotonic() + self.time_limit
        watched = [out, err]
        while watched:
            left = deadline - time.monotonic()
            if left <= 0:
                return Outcome("timeout", text=f"no answer within {self.time_limit:g} s")
            ready, _, _ = select.select(watched, [], [], left)
            for fd in ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    watched.remove(fd)
                elif fd == out:
                    stdout += chunk
                    if len(stdout) > OUTPUT_LIMIT:
                        return Outcome("error", text=f"printed more than {OUTPUT_LIMIT} bytes")
                else:
                    stderr = (stderr + chunk)[-OUTPUT_LIMIT:]
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return Outcome("timeout", text=f"no answer within {self.time_limit:g} s")
        if process.returncode != 0:
            return Outcome("error", text="the command " + death_text(process, stderr))
        return parse_answer(stdout)


def parse_answer(stdout: bytes) -> Outcome:
    """A command's output as an answer: one whole number (spaces around it allowed)."""
    text = stdout.decode("utf-8", "replace").strip()
    if not text:
        return Outcome("error", text="the command printed nothing")
    body = text[1:] if text[:1] in "+-" else text
    if body.isascii() and body.isdigit() and len(body) <= 18:
        return Outcome("answer", int(text))
    return Outcome("other", text=clip(escape_controls(repr(text)), 160))
