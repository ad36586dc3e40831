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
from typing import Literal

from .._files import quote_path as _q, read_capped
from .._text import decode_utf8
from ..errors import WorkspaceError

__all__ = ["Workspace", "TOOL_CAPS"]

#: ``max_size`` default: each tool's documented cap.
TOOL_CAPS: Literal["tool"] = "tool"


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
        return read_capped(real, self.cap(limit), shown, what=what, pipes=self.pipes)

    def read_text(self, path: str, limit: int, *, what: str = "file") -> str:
        """A UTF-8 text file (a BOM is dropped), refused past ``limit`` bytes."""
        return decode_utf8(self.read_bytes(path, limit, what=what), f"{what} {_q(path)}")
