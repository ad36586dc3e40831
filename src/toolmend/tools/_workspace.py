"""Paths confined to a workspace, and file reads with a size cap.

Every path an agent names is relative to the workspace; ``..``, absolute
paths and symlinks that lead outside are refused with a clear message. Sizes
are checked before reading, so a 2 GB file costs a stat, not a read: each
tool's documented cap (20 MB a ``@json`` document, 4 MB a ``@diff`` file)
unless ``max_size`` says otherwise (a number of bytes for every file, or None
for no cap). Only regular files are read, so an agent's call never waits on
a pipe.

The command line, run by a person on their own files, uses an unconfined
workspace (``confined=False``: any path, relative to the current folder) with
no cap unless ``--max-size`` sets one, and ``pipes=True``: a FIFO (process
substitution ``<(...)``, ``/dev/stdin``) is read once, as a stream, and
``/dev/null`` as an empty file, as GNU diff reads them.
"""

from __future__ import annotations

import os
import stat
from typing import Literal

from .._text import decode_utf8, human_size
from ..errors import WorkspaceError

__all__ = ["Workspace", "TOOL_CAPS"]

#: ``max_size`` default: each tool's documented cap.
TOOL_CAPS: Literal["tool"] = "tool"
_CHUNK = 1 << 20


def _q(path: str) -> str:
    """A path quoted for a message; a very long one shortened in the middle,
    so the reason after it is never cut off."""
    if len(path) > 160:
        return f"{path[:100]!r}...{path[-40:]!r} ({len(path):,} characters)"
    return repr(path)


class Workspace:
    """A folder that confines every path a tool call names."""

    def __init__(self, root: str | os.PathLike[str] | None = ".", *, confined: bool = True,
                 max_size: int | None | Literal["tool"] = TOOL_CAPS, pipes: bool = False) -> None:
        """``root`` None is the current folder. ``max_size``: the largest file
        read, in bytes ("tool": each tool's documented cap; None: no cap).
        ``pipes``: read FIFOs as streams and /dev/null as empty (the command
        line's reading); without it only regular files are read."""
        self.root = os.path.realpath(os.fspath("." if root is None else root))
        self.confined = confined
        if max_size is not None and max_size != TOOL_CAPS and (
                isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0):
            raise WorkspaceError(f"max_size must be a number of bytes, None or 'tool', "
                                 f"not {max_size!r}")
        self.max_size = max_size
        self.pipes = pipes
        if not os.path.isdir(self.root):
            raise WorkspaceError(f"workspace {os.fspath('.' if root is None else root)!r} "
                                 "is not a directory")

    def __repr__(self) -> str:
        extra = "" if self.confined else ", confined=False"
        if self.max_size != TOOL_CAPS:
            extra += f", max_size={self.max_size!r}"
        if self.pipes:
            extra += ", pipes=True"
        return f"Workspace({self.root!r}{extra})"

    def cap(self, limit: int) -> int | None:
        """The largest file a read takes, given the tool's own cap ``limit``
        (None: no cap)."""
        if self.max_size == TOOL_CAPS:
            return limit
        return self.max_size

    @property
    def confine_root(self) -> str:
        """The folder symlinks must stay in (the filesystem root when unconfined)."""
        return self.root if self.confined else os.path.abspath(os.sep)

    def _inside(self, real: str) -> bool:
        return real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)

    def resolve(self, path: str, *, what: str = "path") -> str:
        """The real absolute path of ``path`` (relative to the workspace).

        Raises WorkspaceError when the path is empty, absolute, climbs out with
        ``..`` or reaches outside through a symlink. The target need not exist.
        """
        if not isinstance(path, str) or not path.strip():
            raise WorkspaceError(f"{what}: a path relative to the workspace is required")
        if "\x00" in path:
            raise WorkspaceError(f"{what} {_q(path)}: a path cannot contain a NUL character")
        if not self.confined:
            joined = os.path.join(self.root, os.path.expanduser(path))
            real = os.path.realpath(joined)
            if not os.path.lexists(real) and os.path.exists(joined):
                # /dev/fd/63 of <(...) links to "pipe:[...]", which names no path
                return os.path.abspath(joined)
            return real
        if os.path.isabs(path) or path.startswith(("/", "\\")) or os.path.splitdrive(path)[0]:
            raise WorkspaceError(f"{what} {_q(path)}: absolute paths are not allowed; "
                            "give a path relative to the workspace")
        joined = os.path.normpath(os.path.join(self.root, path))
        if not self._inside(joined):
            raise WorkspaceError(f"{what} {_q(path)}: '..' leads outside the workspace")
        real = os.path.realpath(joined)
        if not self._inside(real):
            raise WorkspaceError(f"{what} {_q(path)}: a symlink leads outside the workspace")
        return real

    def relative(self, real: str) -> str:
        """``real`` as a path relative to the workspace (for messages)."""
        rel = os.path.relpath(real, self.root)
        return rel.replace(os.sep, "/")

    def read_bytes(self, path: str, limit: int, *, what: str = "file") -> bytes:
        """The bytes of a regular file, refused past ``limit`` bytes."""
        return self.read_real_bytes(self.resolve(path, what=what), limit, path, what=what)

    def read_real_bytes(self, real: str, limit: int, shown: str, *, what: str = "file") -> bytes:
        """``read_bytes`` for a path already resolved (``shown`` in messages);
        ``limit`` is the tool's cap, which ``max_size`` may replace."""
        cap = self.cap(limit)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            raise WorkspaceError(f"{what} {_q(shown)} does not exist", path=shown) from None
        except OSError as exc:
            raise WorkspaceError(f"{what} {_q(shown)}: {exc.strerror}", path=shown) from None
        if stat.S_ISDIR(st.st_mode):
            raise WorkspaceError(f"{what} {_q(shown)} is a directory, not a file", path=shown)
        if self.pipes and not stat.S_ISREG(st.st_mode):
            return self._read_stream(real, st, cap, shown, what)
        if not stat.S_ISREG(st.st_mode):
            raise WorkspaceError(f"{what} {_q(shown)} is not a regular file", path=shown)
        if cap is not None and st.st_size > cap:
            raise WorkspaceError(f"{what} {_q(shown)} is {human_size(st.st_size)}; the limit is "
                                 f"{human_size(cap)}", path=shown)
        try:
            # O_NONBLOCK: a FIFO swapped in after the check must not block the read
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    raise WorkspaceError(f"{what} {_q(shown)} is not a regular file", path=shown)
                if cap is None:
                    data = fh.read()
                else:
                    # read what the file holds (one more byte: did it grow?), not `cap`:
                    # FileIO.read(n) sets aside n bytes first
                    data = fh.read(min(st.st_size, cap) + 1)
        except OSError as exc:
            raise WorkspaceError(f"{what} {_q(shown)}: {exc.strerror}", path=shown) from None
        if cap is not None and len(data) > cap:  # grew between stat and read
            raise WorkspaceError(f"{what} {_q(shown)} is larger than the limit of {human_size(cap)}",
                                 path=shown)
        return data

    def _read_stream(self, real: str, st: os.stat_result, cap: int | None, shown: str,
                     what: str) -> bytes:
        """A FIFO (or socket) read once to its end, as GNU diff reads it;
        /dev/null is empty. Other devices are refused: a terminal or /dev/zero
        has no end to read to."""
        if stat.S_ISCHR(st.st_mode):
            try:
                null = os.stat(os.devnull)
            except OSError:  # pragma: no cover - every system has one
                null = None
            if null is not None and st.st_rdev == null.st_rdev:
                return b""
        if not (stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode)):
            raise WorkspaceError(f"{what} {_q(shown)} is a device, not a file or a pipe "
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
                        raise WorkspaceError(f"{what} {_q(shown)} (a pipe) is larger than the "
                                             f"limit of {human_size(cap)}", path=shown)
                    parts.append(chunk)
        except OSError as exc:
            raise WorkspaceError(f"{what} {_q(shown)}: {exc.strerror or exc}", path=shown) from None
        return b"".join(parts)

    def read_text(self, path: str, limit: int, *, what: str = "file") -> str:
        """A UTF-8 text file (a BOM is dropped), refused past ``limit`` bytes."""
        return decode_utf8(self.read_bytes(path, limit, what=what), f"{what} {_q(path)}")
