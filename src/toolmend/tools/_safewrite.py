"""Writes that never lose a file: a backup first, then an atomic replace.

``write_backup`` stores the original bytes next to the file (``<file>.bak``,
or ``<file>.bak.1``, ``.bak.2``... when an older, different backup is there:
an existing backup is never overwritten). ``write_atomic`` writes a
temporary file in the same folder, flushes it to disk, gives it the
original's permission bits and renames it over the file, so a reader (or a
crash) sees the old content or the new one, never a half-written file.
"""

from __future__ import annotations

import os
import stat
import tempfile

from .._files import read_capped
from ..errors import WorkspaceError

__all__ = ["write_backup", "write_atomic", "default_mode"]

_MAX_BACKUPS = 1000


def default_mode() -> int:
    """The permission bits a new file gets (0o666 minus the umask)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o644


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # not supported (Windows): the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def same_bytes(path: str, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a symlink) holding ``data``."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
        return False
    try:
        return read_capped(path, len(data), path) == data
    except WorkspaceError:
        return False


def write_backup(path: str, data: bytes, mode: int) -> tuple[str, bool]:
    """Store ``data`` as ``path.bak`` (or the first free ``path.bak.N``):
    the name used, and whether this call wrote it. A backup that already
    holds ``data`` is reused (not written: not this call's to remove)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for n in range(_MAX_BACKUPS):
        candidate = path + ".bak" + (f".{n}" if n else "")
        if same_bytes(candidate, data):
            return candidate, False
        try:
            fd = os.open(candidate, flags, stat.S_IMODE(mode) & 0o777)
        except FileExistsError:
            continue
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(candidate)
            raise
        os.close(fd)
        _fsync_dir(os.path.dirname(candidate) or ".")
        return candidate, True
    raise OSError(f"{path}: {_MAX_BACKUPS} backups exist already; remove old ones")


def write_atomic(path: str, data: bytes, mode: int | None = None,
                 owner: tuple[int, int] | None = None) -> None:
    """Replace ``path`` with ``data`` atomically (temporary file in the same
    folder, fsync, rename), with permission bits ``mode`` (default: those of
    a new file) and, when possible, the given ``(uid, gid)``."""
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), stat.S_IMODE(mode if mode is not None else default_mode()))
            if owner is not None and hasattr(os, "fchown"):
                try:
                    os.fchown(fh.fileno(), *owner)
                except OSError:
                    pass  # not ours to give away; the content and mode still are
            os.fsync(fh.fileno())
        if not hasattr(os, "fchmod"):  # pragma: no cover - Windows
            os.chmod(tmp, stat.S_IMODE(mode if mode is not None else default_mode()))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)
