"""Files on disk: reading a file a person points at, and writing a file atomically.

The one place for both, so every reader has the same guard and every writer the same
modes:

* ``read_user_file`` reads a board file, ``settings.toml`` or anything else snl did not
  make itself: a regular file only (a FIFO, ``/dev/zero``, a socket or a directory is
  refused before a byte is read, and never blocks), at most ``limit`` bytes even if the
  file grows while it is read. Every problem is one ``UnreadableFile`` with a message for
  a person.
* ``write_atomically`` writes through a temporary file in the same folder and a rename,
  so a crash never leaves half a file. A new file gets the user's umask (the mode every
  other program gives it: 0644 under the usual umask 022), a replaced file keeps its mode.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import SnlError


class UnreadableFile(SnlError):
    """A file that is not read: why, in words for a person (without the file's name)."""


def read_user_file(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Opened without blocking (a FIFO with no writer would wait forever) and checked with
    ``fstat`` on the open file (no race between the check and the read). ``what`` names
    the kind of file in messages ("is a directory, not a board file").
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFile(_open_failure(path, error, what)) from None
    except ValueError:  # a NUL byte: no file has such a name
        raise UnreadableFile("no such file (a path cannot hold a NUL byte)") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile(f"is a directory, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(
                f"not a regular file (a device, FIFO or socket is never read as a {what})"
            )
        if info.st_size > limit:
            raise UnreadableFile(too_large(info.st_size, limit, what))
        chunks: list[bytes] = []
        size = 0
        # Read to the end but never past the cap, even if the file grows meanwhile.
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnreadableFile(too_large(size, limit, what))
    except OSError as error:
        raise UnreadableFile(f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def too_large(size: int, limit: int, what: str) -> str:
    """'the file is too large for a board file (20.1 MB; at most 16 MiB)'."""
    mib = 1024 * 1024
    most = f"{limit // mib} MiB" if limit >= mib else f"{limit // 1024} KiB"
    return f"the file is too large for a {what} ({size / 1e6:.1f} MB; at most {most})"


def _open_failure(path: Path, error: OSError, what: str) -> str:
    if error.errno == errno.ENOENT:
        return (
            "broken symbolic link (its target does not exist)"
            if path.is_symlink()
            else "no such file"
        )
    if error.errno == errno.ELOOP:
        return "too many levels of symbolic links (a symlink loop)"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.EISDIR:
        return f"is a directory, not a {what}"
    if error.errno == errno.ENOTDIR:
        return "no such file (a part of the path is not a directory)"
    return f"cannot open the file: {error.strerror or error}"


NEW_FILE_MODE = 0o666
"""The mode a new file asks for; the kernel takes the user's umask off it, as for every
program's files (``tempfile.mkstemp``'s 0600 is for secrets, which snl writes none of)."""


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, as it is: no newline translation) to ``path``
    through a temporary file in the same folder, flushed to disk, then a rename.

    A new file gets the user's umask; a file replaced keeps its permissions. Raises
    ``OSError`` (the temporary file is removed).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        kept_mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except (OSError, ValueError):
        kept_mode = None  # a new file (or none we can see): the umask decides
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        import secrets  # hmac, hashlib: only when a file is written

        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temp, flags, NEW_FILE_MODE)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 random names all taken
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))
    try:
        with os.fdopen(fd, "wb") as file:
            if kept_mode is not None:
                os.fchmod(file.fileno(), kept_mode)
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


__all__ = ["NEW_FILE_MODE", "UnreadableFile", "read_user_file", "too_large", "write_atomically"]
