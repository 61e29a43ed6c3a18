"""Running a command as a solution (``runner``'s second kind): any program (a compiled C
program, ``java Solution``...) that reads one board as a line of JSON on stdin and prints
the answer. One process per board, started by the runner's init in a PID namespace of its
own where the machine has them (``sandbox.Init``), by the runner itself elsewhere, with a
reaper beside it. Its CPU time, memory and output are watched as a Python solution's are
(``runner.Watch``), and its end read into an ``Outcome`` by the same helpers.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

from ..core.text import clip, escape_controls
from .harness import REAPER_LEAVE
from .runner import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME_LIMIT,
    HARNESS,
    OUTPUT_LIMIT,
    PRINTED_LIMIT,
    Outcome,
    Runner,
    Watch,
    death_text,
    first_error_line,
    stopped_by_watch,
    too_slow,
)
from .sandbox import (
    Init,
    kill_marked,
    kill_tree,
    limit_values,
    namespace_prefix,
    new_marker,
    spawn,
)

INIT = [sys.executable, "-I", "-S", str(HARNESS), "--init"]
"""The command runner's init, the first process of its namespace (``sandbox.Init``)."""
BOUND = 30.0
"""Seconds at most to wait for the init's word on a start or a kill (it answers in
milliseconds): past that it is taken for broken and ended, never a verdict's cause."""


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
