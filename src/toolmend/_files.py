"""The one reader of files with a size cap, for every layer.

The size is checked before reading, so a 2 GB file costs a stat, not a read,
and checked again after (a file that grew in between is refused too). Only
regular files are read unless ``pipes`` says otherwise: then a FIFO (process
substitution ``<(...)``, ``/dev/stdin``) is read once, as a stream, and
``/dev/null`` as an empty file, as GNU diff reads them; other devices are
refused. Refusals are :class:`~toolmend.errors.WorkspaceError` naming the
file (``path``).

The workspace confines the paths a tool call names and reads through this;
``toolmend.json.load_file`` and the tree patch of ``toolmend.diff`` read
through it too.
"""

from __future__ import annotations

import os
import stat

from ._text import human_size
from .errors import WorkspaceError

__all__ = ["read_capped", "quote_path"]

_CHUNK = 1 << 20


def quote_path(path: str) -> str:
    """A path quoted for a message; a very long one shortened in the middle,
    so the reason after it is never cut off."""
    if len(path) > 160:
        return f"{path[:100]!r}...{path[-40:]!r} ({len(path):,} characters)"
    return repr(path)


def read_capped(real: str, cap: int | None, shown: str, *, what: str = "file",
                pipes: bool = False) -> bytes:
    """The bytes of the file at ``real`` (``shown`` names it in messages),
    refused past ``cap`` bytes (None: no cap)."""
    q = quote_path(shown)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        raise WorkspaceError(f"{what} {q} does not exist", path=shown) from None
    except OSError as exc:
        raise WorkspaceError(f"{what} {q}: {exc.strerror or exc}", path=shown) from None
    if stat.S_ISDIR(st.st_mode):
        raise WorkspaceError(f"{what} {q} is a directory, not a file", path=shown)
    if pipes and not stat.S_ISREG(st.st_mode):
        return _read_stream(real, st, cap, shown, what)
    if not stat.S_ISREG(st.st_mode):
        raise WorkspaceError(f"{what} {q} is not a regular file", path=shown)
    if cap is not None and st.st_size > cap:
        raise WorkspaceError(f"{what} {q} is {human_size(st.st_size)}; the limit is "
                             f"{human_size(cap)}", path=shown)
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not block the read
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise WorkspaceError(f"{what} {q} is not a regular file", path=shown)
            if cap is None:
                data = fh.read()
            else:
                # read what the file holds (one more byte: did it grow?), not `cap`:
                # FileIO.read(n) sets aside n bytes first
                data = fh.read(min(st.st_size, cap) + 1)
    except OSError as exc:
        raise WorkspaceError(f"{what} {q}: {exc.strerror or exc}", path=shown) from None
    if cap is not None and len(data) > cap:  # grew between stat and read
        raise WorkspaceError(f"{what} {q} is larger than the limit of {human_size(cap)}",
                             path=shown)
    return data


def _read_stream(real: str, st: os.stat_result, cap: int | None, shown: str, what: str) -> bytes:
    """A FIFO (or socket) read once to its end, as GNU diff reads it;
    /dev/null is empty. Other devices are refused: a terminal or /dev/zero
    has no end to read to."""
    q = quote_path(shown)
    if stat.S_ISCHR(st.st_mode):
        try:
            null = os.stat(os.devnull)
        except OSError:  # pragma: no cover - every system has one
            null = None
        if null is not None and st.st_rdev == null.st_rdev:
            return b""
    if not (stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode)):
        raise WorkspaceError(f"{what} {q} is a device, not a file or a pipe "
                             "('-' reads standard input)", path=shown)
    parts: list[bytes] = []
    size = 0
    try:
        with open(real, "rb", buffering=0) as fh:
            while True:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if cap is not None and size > cap:
                    raise WorkspaceError(f"{what} {q} (a pipe) is larger than the limit of "
                                         f"{human_size(cap)}", path=shown)
                parts.append(chunk)
    except OSError as exc:
        raise WorkspaceError(f"{what} {q}: {exc.strerror or exc}", path=shown) from None
    return b"".join(parts)
