"""Where a solution runs: a session of its own, limits on CPU time and memory, and
nothing of it left when the judge ends.

* ``spawn`` starts a child in its own session with ``PR_SET_PDEATHSIG`` (it is killed
  when the judge dies, even by SIGKILL), ``RLIMIT_CPU`` (a backstop: the judge watches
  the CPU time itself, ``cpu_seconds``), ``RLIMIT_AS`` where the program allows it (a
  Python solution: the address space bounds shared mappings too, which ``RLIMIT_DATA``
  does not count), ``RLIMIT_DATA``, no core files and a cap on the files it writes. Every
  child carries a marker in its environment, ``SNL_JUDGE_RUN``, that its descendants
  inherit.
* ``kill_tree`` ends the child and everything it started: its process group, every
  process in its session, every descendant, and every process carrying its marker (one
  that called ``setsid`` and forked again escapes the group, not the marker), repeated
  until none is left, and reaps those reparented to the judge.
* ``become_subreaper`` makes the judge the parent of the orphans its solutions leave
  (``PR_SET_CHILD_SUBREAPER``), so none of them is adopted by init while the judge runs.
* ``Init`` is a command runner's PID namespace, whose first process (the harness's
  ``--init``) starts each board's command as its child and ends all it left.
* ``memory_bytes`` reads what the tree holds in memory (shared memory included): the
  judge kills a command that passes its limit with memory ``RLIMIT_DATA`` does not see.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import secrets
import select
import shutil
import signal
import socket
import subprocess
from collections.abc import Sequence
from pathlib import Path

MARKER = "SNL_JUDGE_RUN"
FILE_LIMIT = 64 * 1024 * 1024
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
KILL_ROUNDS = 50

_libc: ctypes.CDLL | None = None


def _prctl(option: int, value: int) -> bool:
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(None, use_errno=True)
        except OSError:  # pragma: no cover - every Linux has a libc
            return False
    return int(_libc.prctl(option, value, 0, 0, 0)) == 0


def become_subreaper(on: bool = True) -> bool:
    """Adopt the orphans of this process's descendants (Linux 3.4+); ``on=False``: no
    longer (a judge run in a longer-lived process, a test's, gives the role back)."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1 if on else 0)


def _limits(cpu_seconds: float, memory_mb: int, address_space: bool) -> None:
    if cpu_seconds > 0:
        soft = int(cpu_seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    if memory_mb > 0:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (size, size))
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


def spawn(
    command: Sequence[str],
    *,
    cpu_seconds: float,
    memory_mb: int,
    address_space: bool,
    cwd: Path | None = None,
    fast: bool = False,
    marker: str = "",
    namespace: bool = False,
) -> subprocess.Popen[bytes]:
    """Start ``command`` with pipes on its three streams, in a session of its own, with
    its limits and the judge's death as its own (``cpu_seconds`` 0: no CPU limit);
    ``namespace``: as the first process of a PID namespace of its own where the machine
    allows it (``namespace_prefix``; the child is then ``unshare``).

    ``fast`` (a command started for every board): through ``setpriv --pdeathsig KILL``
    when util-linux has it, its limits put on from outside (``prlimit``) as it starts,
    which lets Python start it without a full fork of the judge (about 3 ms a board
    rather than 7); otherwise the limits and PR_SET_PDEATHSIG are set in the child
    before it runs the command."""
    parent = os.getpid()
    _prctl(0, 0) if _libc is None else None  # load libc before the fork
    env = dict(os.environ)
    env[MARKER] = marker or new_marker()
    wrapper = SETPRIV if fast else None
    if wrapper is not None:
        found = shutil.which(command[0], path=env.get("PATH")) if command else None
        if found is None:
            raise FileNotFoundError(2, "No such file or directory", command[0] if command else "")
        process = subprocess.Popen(
            [wrapper, "--pdeathsig", "KILL", "--", found, *command[1:]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )
        _limit_from_outside(process.pid, cpu_seconds, memory_mb, address_space)
    else:

        def prepare() -> None:  # runs in the child, between fork and exec
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the judge died before the line above
                os._exit(1)
            _limits(cpu_seconds, memory_mb, address_space)

        process = subprocess.Popen(
            [*(namespace_prefix() if namespace else []), *command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=cwd,
            env=env,
            preexec_fn=prepare,
        )
    process.marker = env[MARKER]  # type: ignore[attr-defined]
    process.started = start_time(process.pid)  # type: ignore[attr-defined]
    return process


UNSHARE = shutil.which("unshare")
NAMESPACE_SWITCH = "SNL_JUDGE_NAMESPACE"
"""Set to 0 in the environment, the judge runs no solution in a PID namespace."""
_namespace: list[str] | None = None


def namespace_prefix() -> list[str]:
    """util-linux's ``unshare`` with the options that start a command as the first
    process of a new user and PID namespace (``--kill-child``: it dies with
    ``unshare``); empty when this machine does not allow it (no ``unshare``, or user
    namespaces turned off). Tried once per process.

    In its own PID namespace a solution cannot name, so cannot signal, any process
    outside it (the judge, ``unshare``); its namespace's first process (the harness's
    supervisor) ignores every signal from inside that it has no handler for, SIGKILL
    included; when that process ends, the kernel kills every process of the namespace,
    daemons included, and it ends when the judge does (PR_SET_PDEATHSIG on ``unshare``
    and ``--kill-child``). ``SNL_JUDGE_NAMESPACE=0`` in the environment: empty."""
    global _namespace
    if os.environ.get(NAMESPACE_SWITCH, "").lower() in ("0", "no", "off"):
        return []
    if _namespace is None:
        _namespace = []
        if UNSHARE is not None:
            base = [UNSHARE, "--user", "--pid", "--fork", "--kill-child"]
            for options in ([*base, "--map-current-user"], base):
                try:
                    done = subprocess.run(
                        [*options, "--", "true"],
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        timeout=30,
                        check=False,
                    )
                except (OSError, subprocess.SubprocessError):
                    continue
                if done.returncode == 0:
                    _namespace = [*options, "--"]
                    break
    return list(_namespace)


class Init:
    """A PID namespace of a command runner's own, whose first process is the harness's
    init (``harness.py --init``), which starts each board's command as its child: the
    command keeps every signal's default (a namespace's first process would not), and
    cannot name the judge or any process outside. The init ends every process a command
    left when the command ends, and the namespace dies with the judge (the init's
    PR_SET_PDEATHSIG through ``unshare --kill-child``, and ``unshare``'s own).

    ``start`` gives None where the machine has no unprivileged PID namespaces."""

    def __init__(self, process: subprocess.Popen[bytes], channel: socket.socket) -> None:
        self.process = process
        self.channel = channel
        self.gone = False
        """The init has ended (killed from outside, or it failed): start another."""

    @classmethod
    def start(cls, init: Sequence[str], marker: str) -> Init | None:
        """Start ``init`` (the harness's init command) in a namespace of its own, its
        stdin a socket to this process, the run's ``marker`` in its environment."""
        prefix = namespace_prefix()
        if not prefix:
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        parent = os.getpid()
        _prctl(0, 0) if _libc is None else None  # load libc before the fork
        env = dict(os.environ)
        env[MARKER] = marker

        def prepare() -> None:  # runs in the child, between fork and exec
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the judge died before the line above
                os._exit(1)
            _limits(0, 0, False)

        try:
            process = subprocess.Popen(
                [*prefix, *init],
                stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
                preexec_fn=prepare,
            )
        except OSError:
            ours.close()
            return None
        finally:
            theirs.close()
        process.marker = marker  # type: ignore[attr-defined]
        process.started = start_time(process.pid)  # type: ignore[attr-defined]
        return cls(process, ours)

    def fileno(self) -> int:
        """Readable when the init has said something (or ended)."""
        return self.channel.fileno()

    def launch(
        self,
        argv: Sequence[str],
        limits: list[tuple[int, int, int]],
        fds: Sequence[int],
        bound: float,
    ) -> int | str | None:
        """Start ``argv`` (its program's path first) with ``fds`` as its stdin, stdout and
        stderr and ``limits`` (``limit_values``): the command's process id as this process
        sees it, or why it cannot run (its own error, such as 'Permission denied'), or
        None when the init did not answer within ``bound`` seconds (it is then closed)."""
        request = json.dumps({"argv": list(argv), "limits": limits}).encode()
        try:
            socket.send_fds(self.channel, [request], list(fds))
        except OSError:
            self.close()
            return None
        said = self.receive(bound) or {}
        pid, error = said.get("pid"), said.get("error")
        if isinstance(pid, int):
            return pid
        # why it cannot run, then its end: the init is ready for the next
        if isinstance(error, str) and self.receive(bound) is not None:
            return error
        self.close()
        return None

    def receive(self, bound: float | None = 0) -> dict[str, object] | None:
        """The init's next message (waiting ``bound`` seconds at most for it; None: no
        message in that time, or the init is gone, ``gone``)."""
        if self.gone:
            return None
        if bound:
            ready, _, _ = select.select([self.channel], [], [], bound)
            if not ready:
                return None
        try:
            data = self.channel.recv(65536, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self.gone = True
            return None
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        return message if isinstance(message, dict) else {}

    def ended(self) -> tuple[int | None, float | None] | None:
        """The command's exit status and CPU seconds once it and all it left have ended
        ((None, None): the init ended with it); None while it runs."""
        said = self.receive()
        if said is None:
            return (None, None) if self.gone else None
        return _status(said)

    def kill(self, bound: float) -> tuple[int | None, float | None]:
        """End the running command and all it left; its status and CPU seconds as
        ``ended`` says them. An init that does not answer within ``bound`` seconds is
        closed, its namespace with it."""
        with contextlib.suppress(OSError):
            self.channel.send(b"kill")
        said = self.receive(bound)
        if said is None:
            self.close()
            return (None, None)
        return _status(said)

    def close(self) -> None:
        """End the init, and so every process of its namespace."""
        self.gone = True
        if self.process.returncode is None:
            kill_tree(self.process)
        self.channel.close()


def _status(said: dict[str, object]) -> tuple[int | None, float | None]:
    code, cpu = said.get("ended"), said.get("cpu")
    return (
        code if isinstance(code, int) else None,
        float(cpu) if isinstance(cpu, (int, float)) else None,
    )


SETPRIV = shutil.which("setpriv")
"""util-linux's setpriv, which can set PR_SET_PDEATHSIG and exec (None: not here)."""


def limit_values(
    cpu_seconds: float, memory_mb: int, address_space: bool
) -> list[tuple[int, int, int]]:
    """``_limits`` as (resource, soft, hard) triples."""
    triples = [(resource.RLIMIT_CORE, 0, 0), (resource.RLIMIT_FSIZE, FILE_LIMIT, FILE_LIMIT)]
    if cpu_seconds > 0:
        soft = int(cpu_seconds) + 1
        triples.append((resource.RLIMIT_CPU, soft, soft + 1))
    if memory_mb > 0:
        size = memory_mb * 1024 * 1024
        triples.append((resource.RLIMIT_DATA, size, size))
        if address_space:
            triples.append((resource.RLIMIT_AS, size, size))
    return triples


def _limit_from_outside(pid: int, cpu_seconds: float, memory_mb: int, address_space: bool) -> None:
    """``_limits`` put on process ``pid`` from outside, as soon as it starts."""
    for which, soft, hard in limit_values(cpu_seconds, memory_mb, address_space):
        with contextlib.suppress(ProcessLookupError, PermissionError, ValueError, OSError):
            resource.prlimit(pid, which, (soft, hard))


def new_marker() -> str:
    """A value of ``MARKER`` no other run has."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


def kill_marked(marker: str) -> None:
    """Kill every process carrying ``marker``, looking at every process there is."""
    me = os.getpid()
    mark = f"{MARKER}={marker}".encode()
    for _ in range(KILL_ROUNDS):
        living = []
        for name in os.listdir("/proc"):
            if (
                name.isdigit()
                and int(name) != me
                and mark in (_read(f"/proc/{name}/environ") or b"")
            ):
                living.append(int(name))
        living = [pid for pid in living if _living(pid)]
        if not living:
            return
        for pid in living:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _adopted.update(living)
        reap_adopted(block=True)


def _read(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 1 << 16)
    except OSError:
        return None
    finally:
        os.close(fd)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (None: it is gone); field 0
    is the state, 1 the parent, 2 the group, 3 the session, 19 the start time."""
    data = _read(f"/proc/{pid}/stat")
    if data is None:
        return None
    return data.rpartition(b")")[2].decode("ascii", "replace").split()


def cpu_seconds(pid: int) -> float | None:
    """CPU time of process ``pid`` (user and system, its threads and the children it
    has waited for); None when it is gone."""
    fields = _stat(pid)
    if fields is None or len(fields) < 15:
        return None
    return sum(int(value) for value in fields[11:15]) / TICKS


def memory_bytes(pid: int, *, descendants: bool = True) -> int:
    """Resident memory of ``pid`` (and its descendants), shared memory included."""
    total = 0
    for member in tree(pid, "") if descendants else (pid,):
        data = _read(f"/proc/{member}/statm")
        with contextlib.suppress(ValueError, IndexError):
            total += int((data or b"0 0").split()[1]) * PAGE
    return total


def start_time(pid: int) -> int:
    """When process ``pid`` started, in clock ticks since boot (0: it is gone)."""
    fields = _stat(pid)
    return int(fields[19]) if fields is not None and len(fields) > 19 else 0


def tree(root: int, marker: str, since: int | None = None, *, quick: bool = False) -> set[int]:
    """``root`` and every process of its session or group, every descendant, and every
    process whose environment holds ``marker``: among the processes started since
    ``root`` (``since``: its start time, when it may be gone already; no other process
    can be one of these). ``quick``: only the process ids from ``root``'s up (new ids
    grow until they wrap around at pid_max: ``kill_marked`` looks at every process)."""
    parents: dict[int, int] = {}
    found = {root}
    if since is None:
        since = start_time(root)
    mark = f"{MARKER}={marker}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        if quick and pid < root:
            continue
        fields = _stat(pid)
        if fields is None or len(fields) < 20 or fields[0] == "Z" or int(fields[19]) < since:
            continue
        parents[pid] = int(fields[1])
        if root in (int(fields[2]), int(fields[3])) or (
            marker and mark in (_read(f"/proc/{name}/environ") or b"")
        ):
            found.add(pid)
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                grew = True
    return found


def _living(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


_adopted: set[int] = set()
"""Descendants seen by ``kill_tree``: those this process adopted are its to reap."""


def kill_tree(process: subprocess.Popen[bytes], *, quick: bool = False) -> None:
    """Kill ``process`` and everything it started, wherever it went; reap the child and
    the orphans this process adopted; close the pipes. ``quick``: see ``tree``."""
    marker = getattr(process, "marker", "")
    since = getattr(process, "started", None)
    me = os.getpid()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    for _ in range(KILL_ROUNDS):
        members = tree(process.pid, marker, since, quick=quick)
        living = [pid for pid in members - {me} if _living(pid)]
        if not living:
            break
        for pid in living:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _adopted.update(living)
        _adopted.discard(process.pid)
        reap_adopted(block=True)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL cannot be ignored
        process.wait(timeout=5)
    reap_adopted()


def reap_adopted(*, block: bool = False) -> None:
    """Reap the descendants seen that this process adopted and that have ended (``block``:
    wait for those killed)."""
    for pid in list(_adopted):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:  # not this process's child (init reaps it), or reaped
            _adopted.discard(pid)
            continue
        if done:
            _adopted.discard(pid)
