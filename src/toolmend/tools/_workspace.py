"""Paths confined to a workspace, and file reads with a size cap.

Every path an agent names is relative to the workspace; ``..``, absolute
paths and symlinks that lead outside are refused with a clear message. Sizes
are checked before reading, so a 2 GB file costs a stat, not a read. The
command line, run by a person on their own files, uses an unconfined
workspace (``confined=False``): any path, relative to the current folder.
"""

from __future__ import annotations

import os
import stat

from .._text import decode_utf8, human_size
from ..errors import WorkspaceError

__all__ = ["Workspace"]


def _q(path: str) -> str:
    """A path quoted for a message; a very long one shortened in the middle,
    so the reason after it is never cut off."""
    if len(path) > 160:
        return f"{path[:100]!r}...{path[-40:]!r} ({len(path):,} characters)"
    return repr(path)


class Workspace:
    """A folder that confines every path a tool call names."""

    def __init__(self, root: str | os.PathLike[str] = ".", *, confined: bool = True) -> None:
        self.root = os.path.realpath(os.fspath(root))
        self.confined = confined
        if not os.path.isdir(self.root):
            raise WorkspaceError(f"workspace {os.fspath(root)!r} is not a directory")

    def __repr__(self) -> str:
        return f"Workspace({self.root!r}{'' if self.confined else ', confined=False'})"

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
            return os.path.realpath(os.path.join(self.root, os.path.expanduser(path)))
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
        """``read_bytes`` for a path already resolved (``shown`` in messages)."""
        try:
            st = os.stat(real)
        except FileNotFoundError:
            raise WorkspaceError(f"{what} {_q(shown)} does not exist", path=shown) from None
        except OSError as exc:
            raise WorkspaceError(f"{what} {_q(shown)}: {exc.strerror}", path=shown) from None
        if stat.S_ISDIR(st.st_mode):
            raise WorkspaceError(f"{what} {_q(shown)} is a directory, not a file", path=shown)
        if not stat.S_ISREG(st.st_mode):
            raise WorkspaceError(f"{what} {_q(shown)} is not a regular file", path=shown)
        if st.st_size > limit:
            raise WorkspaceError(f"{what} {_q(shown)} is {human_size(st.st_size)}; the limit is "
                                 f"{human_size(limit)}", path=shown)
        try:
            # O_NONBLOCK: a FIFO swapped in after the check must not block the read
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    raise WorkspaceError(f"{what} {_q(shown)} is not a regular file", path=shown)
                # read what the file holds (one more byte: did it grow?), not `limit`:
                # FileIO.read(n) sets aside n bytes first
                data = fh.read(min(st.st_size, limit) + 1)
        except OSError as exc:
            raise WorkspaceError(f"{what} {_q(shown)}: {exc.strerror}", path=shown) from None
        if len(data) > limit:  # grew between stat and read
            raise WorkspaceError(f"{what} {_q(shown)} is larger than the limit of {human_size(limit)}",
                                 path=shown)
        return data

    def read_text(self, path: str, limit: int, *, what: str = "file") -> str:
        """A UTF-8 text file (a BOM is dropped), refused past ``limit`` bytes."""
        return decode_utf8(self.read_bytes(path, limit, what=what), f"{what} {_q(path)}")
