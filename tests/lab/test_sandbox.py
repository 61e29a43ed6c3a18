"""Nothing of a solution outlives the judge, and its memory is bounded: the judge ended by
SIGHUP (its terminal closed), SIGTERM or SIGKILL; a solution that kills its parent; one
that leaves with ``setsid`` and forks again; one that maps 2 GB of shared memory. Each
runs with the solution in a PID namespace of its own and without (as on a machine that
has none), except the attacks only a namespace stops.

Each solution writes the ids of the processes it starts to a file; the tests wait for
that file, end the judge the way they test, then wait (bounded) for every one of those
processes to be gone. The waits are conditions with a generous bound, never a time the
result depends on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from snl_tui.core.files.formats import load_board
from snl_tui.lab import runner as runner_module
from snl_tui.lab.command_runner import CommandRunner
from snl_tui.lab.runner import PythonRunner
from snl_tui.lab.sandbox import NAMESPACE_SWITCH, namespace_prefix
from tests.processes import OUTER_PID, alive

LEETCODE_2 = load_board("leetcode-2").to_matrix()
BOUND = 60.0
"""Seconds at most any wait here takes (on a loaded machine; usually well under one)."""

ESCAPE = """
import os, subprocess, time


class Solution:
    def snakesAndLadders(self, board):
        # A child in a session of its own, and a grandchild that setsid()s and forks
        # again (a daemon): neither is in the solution's process group.
        child = subprocess.Popen(["sleep", "600"], start_new_session=True)
        first = os.fork()
        if first == 0:
            os.setsid()
            if os.fork() == 0:
                with open(PIDS + ".daemon", "w") as file:
                    file.write(str(outer_pid(os.getpid())))
                os.execvp("sleep", ["sleep", "601"])
            os._exit(0)
        os.waitpid(first, 0)
        while not os.path.exists(PIDS + ".daemon"):
            time.sleep(0.01)
        time.sleep(0.05)
        daemon = int(open(PIDS + ".daemon").read())
        pids = [outer_pid(os.getpid()), outer_pid(os.getppid()), outer_pid(child.pid), daemon]
        with open(PIDS + ".tmp", "w") as file:
            file.write(" ".join(map(str, pids)))
        os.replace(PIDS + ".tmp", PIDS)
        ACTION
        while True:
            pass
"""


@pytest.fixture(params=[True, False], ids=["namespace", "no namespace"])
def namespace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The test twice: the solution in a PID namespace of its own (skipped where the
    machine has none), and without one (``SNL_JUDGE_NAMESPACE=0``, as on such a
    machine); a judge the test starts inherits the choice."""
    if request.param:
        monkeypatch.delenv(NAMESPACE_SWITCH, raising=False)
        if not namespace_prefix():
            pytest.skip("no unprivileged PID namespaces here (unshare)")
    else:
        monkeypatch.setenv(NAMESPACE_SWITCH, "0")
    return bool(request.param)


def needs_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NAMESPACE_SWITCH, raising=False)
    if not namespace_prefix():
        pytest.skip("no unprivileged PID namespaces here (unshare): the judge can be killed")


def escaping(tmp_path: Path, action: str = "") -> tuple[Path, Path]:
    """A solution that starts escaping processes, writes their ids, does ``action``,
    then loops; and the file its ids go to."""
    pids = tmp_path / "pids"
    source = OUTER_PID + ESCAPE.replace("PIDS", repr(str(pids)))
    source = source.replace("ACTION", action or "pass")
    path = tmp_path / "escape.py"
    path.write_text(source, encoding="utf-8")
    return path, pids


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still waiting after {BOUND:g} s: {what}")
        time.sleep(0.05)


def started(pids: Path) -> list[int]:
    wait_for(pids.exists, "the solution to start its processes")
    found = [int(pid) for pid in pids.read_text().split()]
    assert len(found) >= 4, found  # itself, its supervisor, the child, the daemon
    return found


def judge_process(solution: Path, *options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "judge", str(solution), "--time-limit", "60", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


@pytest.mark.usefixtures("namespace")
@pytest.mark.parametrize("how", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_nothing_outlives_the_judge(tmp_path: Path, how: signal.Signals) -> None:
    solution, pids = escaping(tmp_path)
    judge = judge_process(solution)
    try:
        processes = started(pids)
        os.kill(judge.pid, how)
        _, err = judge.communicate(timeout=BOUND)
        assert judge.returncode in (128 + how, -how)
        if how != signal.SIGKILL:  # one line says what happened
            said = "Ctrl+C" if how == signal.SIGINT else how.name
            assert err.decode().splitlines()[-1].startswith(f"snl judge: stopped by {said} ")
            assert err.decode().endswith("; the solution was ended.\n")
        wait_for(lambda: not any(map(alive, processes)), "every process to end")
    finally:
        if judge.poll() is None:
            judge.kill()
            judge.wait()


KILL_BOTH = """
def kill_the_judge_and_the_parent():
    import os, signal

    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                if b"snl_tui\\0judge" in file.read():
                    os.kill(int(name), signal.SIGKILL)
        except (OSError, ValueError):
            continue
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
"""


def test_a_solution_that_kills_the_judge_and_its_parent_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a PID namespace of its own, the solution names neither the judge nor anything
    else outside, and its namespace's first process (its parent, the supervisor) takes
    no SIGKILL from inside: the judge lives on and ends everything. (Where the machine
    has no unprivileged namespaces, this is the hole docs/lab.md describes.)"""
    needs_namespace(monkeypatch)
    solution, pids = escaping(tmp_path, "kill_the_judge_and_the_parent(); return 4")
    solution.write_text(KILL_BOTH + solution.read_text(encoding="utf-8"), encoding="utf-8")
    judge = judge_process(solution, "--boards", "1")
    try:
        processes = started(pids)
        out, _ = judge.communicate(timeout=BOUND)
        wait_for(lambda: not any(map(alive, processes)), "every process to end")
    finally:
        if judge.poll() is None:
            judge.kill()
            judge.wait()
    assert judge.returncode == 0, out
    assert out.startswith(b"accepted")


@pytest.mark.usefixtures("namespace")
def test_a_runner_closed_ends_a_setsid_daemon(tmp_path: Path) -> None:
    """In the judge's own process (no subreaper): the daemon ends with the namespace, or
    without one (a machine that has none) is found by its marker."""
    solution, pids = escaping(tmp_path, "return 1")
    with PythonRunner(solution) as runner:
        outcome = runner.run(LEETCODE_2)
        processes = started(pids)
        assert outcome.kind == "answer" and outcome.value == 1
        assert all(map(alive, processes[2:]))
    wait_for(lambda: not any(map(alive, processes)), "every process to end")


@pytest.mark.usefixtures("namespace")
def test_shared_memory_cannot_pass_the_python_limit(tmp_path: Path) -> None:
    path = tmp_path / "shared.py"
    path.write_text(
        "import mmap\n"
        "class Solution:\n"
        "    def snakesAndLadders(self, board):\n"
        "        hog = mmap.mmap(-1, 2 << 30)\n"
        "        hog[:: 1 << 12] = b'x' * ((2 << 30) >> 12)\n"
        "        return len(hog)\n",
        encoding="utf-8",
    )
    with PythonRunner(path, memory_mb=256) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "error" and "OSError" in outcome.text


@pytest.mark.usefixtures("namespace")
def test_shared_memory_stops_a_command_at_its_limit() -> None:
    """A command may reserve what it likes (a JVM does), not fill it: 2 GB of shared
    memory, touched page by page, is stopped once it holds more than its limit."""
    program = (
        "import mmap, sys\n"
        "sys.stdin.readline()\n"
        "hog = mmap.mmap(-1, 2 << 30)\n"
        "for at in range(0, 2 << 30, 1 << 12):\n"
        "    hog[at] = 1\n"
        "print(1)\n"
    )
    with CommandRunner([sys.executable, "-c", program], memory_mb=128, time_limit=60) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "error" and "used more than 128 MB" in outcome.text


@pytest.mark.usefixtures("namespace")
def test_a_command_that_leaves_a_process_holding_its_pipes(tmp_path: Path) -> None:
    """Its answer counts when it exits; the process it left is ended with it."""
    pid_file = tmp_path / "pid"
    script = (
        f"read x; (read pid rest < /proc/self/stat; echo $pid > {pid_file}.tmp; "
        f"mv {pid_file}.tmp {pid_file}; exec sleep 100) & "
        f"while [ ! -e {pid_file} ]; do :; done; echo 1"
    )
    with CommandRunner(["sh", "-c", script]) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == "answer" and outcome.value == 1
    left = int(pid_file.read_text())  # as /proc names it: the judge's view
    wait_for(lambda: not alive(left), "the background process to end")


@pytest.mark.usefixtures("namespace")
def test_a_command_s_daemon_ends_with_a_killed_judge(tmp_path: Path) -> None:
    """A command's PR_SET_PDEATHSIG is its own, not its children's: the runner's reaper
    ends a child that left with setsid when the judge is killed outright."""
    pid_file = tmp_path / "pid"
    write = (
        f"read pid rest < /proc/self/stat; echo $pid > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}"
    )
    script = f"read x; setsid sh -c '{write}; exec sleep 600' & while :; do :; done"
    judge = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "judge", "--time-limit", "60", "--", "sh", "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_for(pid_file.exists, "the command to start its daemon")
        daemon = int(pid_file.read_text())
        assert alive(daemon)
        os.kill(judge.pid, signal.SIGKILL)
        judge.communicate(timeout=BOUND)
        wait_for(lambda: not alive(daemon), "the daemon to end")
    finally:
        if judge.poll() is None:
            judge.kill()
            judge.wait()


KILL_BOTH_COMMAND = """
import os, signal, sys, time

sys.stdin.readline()
if os.fork() == 0:  # a daemon, its environment emptied: no marker finds it
    os.setsid()
    if os.fork() == 0:
        with open(PIDS + ".daemon.tmp", "w") as file:
            file.write(os.readlink("/proc/self"))
        os.replace(PIDS + ".daemon.tmp", PIDS + ".daemon")
        os.execve("/bin/sleep", ["sleep", "600"], {})
    os._exit(0)
while not os.path.exists(PIDS + ".daemon"):
    time.sleep(0.01)
me = int(os.readlink("/proc/self"))
with open(PIDS + ".tmp", "w") as file:
    file.write(f"{me} {open(PIDS + '.daemon').read()}")
os.replace(PIDS + ".tmp", PIDS)
# The judge, found by its command line (this test's only: the file's name is in it),
# then the parents: this process's as it knows it, and the two above it as /proc names
# them.
for name in os.listdir("/proc"):
    try:
        with open(f"/proc/{name}/cmdline", "rb") as file:
            line = file.read()
        if b"snl_tui\\0judge" in line and PIDS.encode() in line:  # this test's only
            os.kill(int(name), signal.SIGKILL)
    except (OSError, ValueError):
        pass
above = [os.getppid()]
pid = me
for _ in range(2):
    try:
        with open(f"/proc/{pid}/stat") as file:
            pid = int(file.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError):
        break
    above.append(pid)
for pid in above:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
print(4)
"""


def test_a_command_that_kills_the_judge_and_its_parents_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command, like a Python solution, runs in a PID namespace of its own, as the
    child of the runner's init: it names neither the judge nor the processes above it,
    its init takes no SIGKILL from inside, and the daemon it leaves, without the
    run's marker, ends with its board. (Without namespaces this is the hole docs/lab.md
    describes.)"""
    needs_namespace(monkeypatch)
    pids = tmp_path / "pids"
    program = KILL_BOTH_COMMAND.replace("PIDS", repr(str(pids)))
    command = ["--boards", "1", "--", sys.executable, "-c", program]
    judge = subprocess.Popen(
        [sys.executable, "-m", "snl_tui", "judge", "--time-limit", "60", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        processes = [int(pid) for pid in (wait_for_text(pids)).split()]
        out, _ = judge.communicate(timeout=BOUND)
        wait_for(lambda: not any(map(alive, processes)), "every process to end")
    finally:
        if judge.poll() is None:
            judge.kill()
            judge.wait()
    assert judge.returncode == 0, out
    assert out.startswith(b"accepted")


def wait_for_text(path: Path) -> str:
    wait_for(path.exists, f"{path.name} to be written")
    return path.read_text()


@pytest.mark.usefixtures("namespace")
@pytest.mark.parametrize(
    ("script", "kind", "text"),
    [
        ("read x; kill -TERM $$; echo 1", "error", "was killed by SIGTERM"),
        ("read x; kill -XCPU $$; echo 1", "timeout", "no answer within 2 s of CPU time"),
        ("read x; ulimit -t", "answer", "4"),  # int(2 s + 1) + 1: the backstop
        ("read x; ulimit -d", "answer", str(512 * 1024)),  # in KB
        ("read x; echo 1; exit 3", "error", "exited with status 3"),
    ],
)
def test_a_command_keeps_its_signals_and_limits(script: str, kind: str, text: str) -> None:
    """Not the first process of its namespace (which the kernel spares every signal it
    has no handler for), a command dies of its own signals, SIGXCPU included (what its
    CPU limit sends), and runs under the same limits, with or without a namespace."""
    with CommandRunner(["sh", "-c", script]) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.kind == kind
    assert text in (str(outcome.value) if kind == "answer" else outcome.text)


@pytest.mark.usefixtures("namespace")
def test_a_command_that_waits_is_stopped_and_the_next_board_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The watch for a command that uses no CPU while it waits, made shorter for its
    board only (a command that answers uses no CPU to speak of either): the command is
    ended (by its init, in a namespace), and the next board runs."""
    stall = runner_module.STALL
    monkeypatch.setattr(runner_module, "STALL", 0.3)
    script = "read x; if [ ${#x} -gt 20 ]; then echo 4; exit; fi; sleep 600"
    with CommandRunner(["sh", "-c", script]) as runner:
        outcome = runner.run(LEETCODE_2)
        assert outcome.kind == "timeout" and outcome.stalled
        monkeypatch.setattr(runner_module, "STALL", stall)
        assert runner.run(load_board("leetcode-1").to_matrix()).value == 4


@pytest.mark.usefixtures("namespace")
def test_a_command_ignores_no_signal_python_ignores() -> None:
    """Python ignores SIGPIPE and SIGXFSZ, and a signal ignored stays ignored through
    exec: a command started from Python (the runner, or the init) has them back at their
    default, so ``yes | head`` ends and a file past its size limit ends the writer."""
    command = ["sh", "-c", "read x; exec awk '/^SigIgn/ { print $2 }' /proc/self/status"]
    with CommandRunner(command) as runner:
        outcome = runner.run(LEETCODE_2)
    ignored = int(outcome.shown().strip("'"), 16)
    assert ignored & (1 << (signal.SIGPIPE - 1)) == 0
    assert ignored & (1 << (signal.SIGXFSZ - 1)) == 0


def test_the_init_takes_no_signal_from_its_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """The namespace's init has no handler (not even Python's for SIGINT), so a command
    that signals its parent, the namespace's process 1, changes nothing: the same init
    starts the next board. (The command signals only when its parent is process 1 of a
    namespace: never the machine's init.)"""
    needs_namespace(monkeypatch)
    signals = "for s in INT TERM HUP QUIT USR1 KILL; do kill -$s 1; done"
    script = f"read x; [ $PPID = 1 ] && [ $$ != 1 ] && {signals}; echo 1"
    with CommandRunner(["sh", "-c", script]) as runner:
        assert runner.run(LEETCODE_2).value == 1
        assert runner.init is not None
        init = runner.init.process.pid
        assert runner.run(LEETCODE_2).value == 1
        assert runner.init is not None and runner.init.process.pid == init


@pytest.mark.usefixtures("namespace")
def test_a_command_has_its_three_streams_and_no_other_file() -> None:
    """What ``ls`` started by the command has open: the board's stdin, stdout and
    stderr, and the folder it lists (fd 3); no copy of a pipe passed to the init."""
    command = ["sh", "-c", "read x; exec ls /proc/self/fd"]
    with CommandRunner(command) as runner:
        outcome = runner.run(LEETCODE_2)
    assert outcome.stdout.split() == [b"0", b"1", b"2", b"3"]
