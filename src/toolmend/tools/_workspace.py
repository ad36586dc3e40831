"""Paths confined to a workspace, and file reads with a size cap.

Every path an agent names is relative to the workspace; ``..``, absolute
paths and symlinks that lead outside are refused with a clear message. Sizes
are checked before reading, so a 2 GB file costs a stat, not a read.
"""

from __future__ import annotations

import os
import stat

from .._text import decode_utf8, human_size
from ..errors import WorkspaceError

__all__ = ["Workspace"]


class Workspace:
    """A folder that confines every path a tool call names."""

    def __init__(self, root: str | os.PathLike[str] = ".") -> None:
        self.root = os.path.realpath(os.fspath(root))
        if not os.path.isdir(self.root):
            raise WorkspaceError(f"workspace {os.fspath(root)!r} is not a directory")

    def __repr__(self) -> str:
        return f"Workspace({self.root!r})"

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
            raise WorkspaceError(f"{what} {path!r}: a path cannot contain a NUL character")
        if os.path.isabs(path) or path.startswith(("/", "\\")) or os.path.splitdrive(path)[0]:
            raise WorkspaceError(f"{what} {path!r}: absolute paths are not allowed; "
                            "give a path relative to the workspace")
        joined = os.path.normpath(os.path.join(self.root, path))
        if not self._inside(joined):
            raise WorkspaceError(f"{what} {path!r}: '..' leads outside the workspace")
        real = os.path.realpath(joined)
        if not self._inside(real):
            raise WorkspaceError(f"{what} {path!r}: a symlink leads outside the workspace")
        return real

    def relative(self, real: str) -> str:
        """``real`` as a path relative to the workspace (for messages)."""
        rel = os.path.relpath(real, self.root)
        return rel.replace(os.sep, "/")

    def read_bytes(self, path: str, limit: int, *, what: str = "file") -> bytes:
        """The bytes of a regular file, refused past ``limit`` bytes."""
        real = self.resolve(path, what=what)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            raise WorkspaceError(f"{what} {path!r} does not exist") from None
        except OSError as exc:
            raise WorkspaceError(f"{what} {path!r}: {exc.strerror}") from None
        if stat.S_ISDIR(st.st_mode):
            raise WorkspaceError(f"{what} {path!r} is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise WorkspaceError(f"{what} {path!r} is not a regular file")
        if st.st_size > limit:
            raise WorkspaceError(f"{what} {path!r} is {human_size(st.st_size)}; the limit is "
                                 f"{human_size(limit)}")
        try:
            with open(real, "rb") as fh:
                data = fh.read(limit + 1)
        except OSError as exc:
            raise WorkspaceError(f"{what} {path!r}: {exc.strerror}") from None
        if len(data) > limit:  # grew between stat and read
            raise WorkspaceError(f"{what} {path!r} is larger than the limit of {human_size(limit)}")
        return data

    def read_text(self, path: str, limit: int, *, what: str = "file") -> str:
        """A UTF-8 text file (a BOM is dropped), refused past ``limit`` bytes."""
        return decode_utf8(self.read_bytes(path, limit, what=what), f"{what} {path!r}")
