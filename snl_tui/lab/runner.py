"""Running a person's solution: in its own process (``sandbox``), with a CPU-time limit
per board and a memory limit, its output treated as untrusted text.

Two kinds of solution:

* ``PythonRunner``: a file with LeetCode's ``class Solution``. One child process runs the
  harness (``harness.py``) and answers many boards, one JSON line each way, which is what
  makes a thousand boards take seconds rather than a thousand interpreter starts. A child
  that crashes, or runs past a board's CPU time (it is killed), is started again for the
  next board.
* ``CommandRunner``: any command (a compiled C program, ``java Solution``...) that reads
  one board as a line of JSON on stdin and prints the answer; one process per board,
  started by the runner's init in a PID namespace of its own where the machine has them
  (``sandbox.Init``), by the runner itself elsewhere.

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
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Literal, Protocol

from ..core.text import clip, escape_controls
from .harness import REAPER_LEAVE
from .sandbox import (
    Init,
    cpu_seconds,
    kill_marked,
    kill_tree,
    limit_values,
    memory_bytes,
    namespace_prefix,
    new_marker,
    spawn,
)

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
INIT = [sys.executable, "-I", "-S", str(HARNESS), "--init"]
"""The command runner's init, the first process of its namespace (``sandbox.Init``)."""
BOUND = 30.0
"""Seconds at most to wait for the init's word on a start or a kill (it answers in
milliseconds): past that it is taken for broken and ended, never a verdict's cause."""

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


@dataclass
class Pipes:
    """This process's ends of a command's stdin, stdout and stderr, when the command is
    not its child (an init in a namespace started it)."""

    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]

    def close(self) -> None:
        for stream in (self.stdin, self.stdout, self.stderr):
            with contextlib.suppress(OSError):
                stream.close()


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


class CommandRunner(Runner):
    """Any command: the board as one line of JSON on stdin, the answer on stdout.

    Where the machine has unprivileged PID namespaces, every board's command is started
    by an init of the runner's own (``sandbox.Init``), in a namespace that dies with the
    judge; elsewhere (``SNL_JUDGE_NAMESPACE=0`` too) the runner starts it itself, with a
    reaper beside it. Either way the command runs the same: a process a board, in a
    session of its own, with its limits, its answer, exit status and CPU time read the
    same way."""

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
        self.marker = new_marker()
        """In the environment of every process of every board (``sandbox``)."""
        self.reaper: subprocess.Popen[bytes] | None = None
        """Ends every process with the marker if the judge dies (a command's own
        children outlive its PR_SET_PDEATHSIG)."""
        self.init: Init | None = None
        self.inside: bool | None = None
        """The commands run in a namespace (None: not known before the first board)."""

    def fresh(self) -> CommandRunner:
        return self  # every board is a new process

    def longer(self, time_limit: float) -> CommandRunner:
        return CommandRunner(self.command, time_limit=time_limit, memory_mb=self.memory_mb)

    def run(self, matrix: list[list[int]]) -> Outcome:
        board = json.dumps(matrix).encode() + b"\n"
        if self.inside is None:
            self.inside = bool(namespace_prefix())
        if self.inside:
            outcome = self._run_inside(board)
            if outcome is not None:
                return outcome
            self.inside = False  # no init answered: as on a machine without namespaces
        if self.reaper is None:
            self.reaper = start_reaper(self.marker)
        try:
            process = spawn(
                self.command,
                cpu_seconds=self.time_limit + 1,
                memory_mb=self.memory_mb,
                address_space=False,  # a JVM or V8 reserves far more than it uses
                fast=True,
                marker=self.marker,
            )
        except OSError as error:
            return self._cannot_run(error.strerror or str(error))
        try:
            return self._talk(process, board)
        finally:
            kill_tree(process, quick=True)

    def _cannot_run(self, why: str) -> Outcome:
        name = clip(escape_controls(self.command[0]))
        return Outcome("error", text=f"cannot run {name}: {why}", fatal=True)

    def _run_inside(self, board: bytes) -> Outcome | None:
        """The board through the runner's init (started at the first board, and again
        after one that ended); None when no init answers."""
        if self.init is not None and self.init.gone:
            self.init.close()
            self.init = None
        if self.init is None:
            self.init = Init.start(INIT, self.marker)
            if self.init is None:
                return None
        init = self.init
        found = shutil.which(self.command[0], path=os.environ.get("PATH"))
        if found is None:
            return self._cannot_run("No such file or directory")
        (stdin, feed), (out, out_w), (err, err_w) = os.pipe(), os.pipe(), os.pipe()
        pipes = Pipes(os.fdopen(feed, "wb"), os.fdopen(out, "rb", 0), os.fdopen(err, "rb", 0))
        limits = limit_values(self.time_limit + 1, self.memory_mb, address_space=False)
        try:
            try:
                started = init.launch(
                    [found, *self.command[1:]], limits, (stdin, out_w, err_w), BOUND
                )
            finally:
                for fd in (stdin, out_w, err_w):
                    os.close(fd)
            if not isinstance(started, int):
                return None if started is None else self._cannot_run(started)
            with contextlib.suppress(OSError):  # it may have ended without reading
                pipes.stdin.write(board)
                pipes.stdin.close()
            watch = Watch(pipes, self.time_limit, self.memory_mb, started)
            status: list[tuple[int | None, float | None]] = []

            def ended() -> bool:
                """The command and all it left have ended (so nothing holds its pipes)."""
                said = init.ended()
                if said is not None:
                    status.append(said)
                return said is not None

            how = watch.until(ended, stop_on_close=False, exit_fd=init.fileno())
            if not status:
                status.append(init.kill(BOUND))
            watch.drain(stdout=True)
            code, cpu = status[0]
            return self._outcome(watch, how, code, cpu)
        finally:
            pipes.close()

    def close(self) -> None:
        """What any board's command left and a quick look could miss (a process id
        that wrapped around) is found by the runner's marker; the reaper leaves; the
        init ends, and every process of its namespace with it."""
        init, self.init = self.init, None
        if init is not None:
            init.close()
        kill_marked(self.marker)
        reaper, self.reaper = self.reaper, None
        if reaper is not None:
            with contextlib.suppress(OSError):
                assert reaper.stdin is not None
                reaper.stdin.write(REAPER_LEAVE)  # a close alone is also what a death looks like
                reaper.stdin.close()
            try:
                reaper.wait(timeout=5)
            except subprocess.TimeoutExpired:
                reaper.kill()
                reaper.wait()

    def _talk(self, process: subprocess.Popen[bytes], board: bytes) -> Outcome:
        assert process.stdin is not None
        try:
            process.stdin.write(board)
            process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        watch = Watch(process, self.time_limit, self.memory_mb, process.pid)
        usage: list[float] = []

        def ended() -> bool:
            """The command has exited (reaped here, with its CPU time): a process it
            left holding its pipes open does not keep the judge waiting."""
            try:
                pid, status, rusage = os.wait4(process.pid, os.WNOHANG)
            except ChildProcessError:
                return True
            if pid == 0:
                return False
            process.returncode = os.waitstatus_to_exitcode(status)
            usage.append(rusage.ru_utime + rusage.ru_stime)
            return True

        try:
            exit_fd: int | None = os.pidfd_open(process.pid)
        except (AttributeError, OSError):  # before Linux 5.3: a look every POLL seconds
            exit_fd = None
        try:
            how = watch.until(ended, stop_on_close=False, exit_fd=exit_fd)
        finally:
            if exit_fd is not None:
                os.close(exit_fd)
        watch.drain(stdout=True)
        return self._outcome(watch, how, process.returncode, usage[0] if usage else None)

    def _outcome(self, watch: Watch, how: str, code: int | None, cpu: float | None) -> Outcome:
        """What a board's run comes to: ``how`` the watch ended, the command's exit
        status (``code``) and its CPU time (``cpu``, as the kernel counted it at its
        end; None: the watch's)."""
        limit = self.time_limit
        kept: dict[str, Any] = {
            "stdout": watch.stdout[:PRINTED_LIMIT],
            "stderr": watch.stderr[:PRINTED_LIMIT],
        }
        stopped = stopped_by_watch(how, watch.used, limit, self.memory_mb)
        if stopped is not None:
            return replace(stopped, **kept)
        if how == "output" or len(watch.stdout) > OUTPUT_LIMIT:
            return Outcome("error", text=f"printed more than {OUTPUT_LIMIT} bytes", **kept)
        used = cpu if cpu is not None else watch.used
        if used > limit:
            return replace(too_slow(used, limit), **kept)
        if code is not None and code < 0 and -code == signal.SIGXCPU:
            return replace(too_slow(used, limit), **kept)
        if code != 0:
            text = "the command " + death_text(code)
            line = first_error_line(watch.stderr)
            if line:
                text += ": " + line
            return Outcome("error", text=text, cpu=used, **kept)
        answer = parse_answer(watch.stdout)
        if answer.kind == "answer":
            kept["stdout"] = b""  # the answer itself is shown as the answer
        return replace(answer, cpu=used, **kept)


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


def start_reaper(marker: str) -> subprocess.Popen[bytes] | None:
    """The harness as a command runner's reaper (None when it cannot start: the runner
    still ends what it can see while the judge lives)."""
    try:
        return subprocess.Popen(
            [sys.executable, "-I", str(HARNESS), "--reaper", marker],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None


def parse_answer(stdout: bytes) -> Outcome:
    """A command's output as an answer: one whole number (spaces around it allowed)."""
    text = stdout.decode("utf-8", "replace").strip()
    if not text:
        return Outcome("other", text="nothing (it printed no answer)")
    body = text[1:] if text[:1] in "+-" else text
    if body.isascii() and body.isdigit() and len(body) <= 18:
        return Outcome("answer", int(text))
    return Outcome("other", text=clip(escape_controls(repr(text)), 160))
