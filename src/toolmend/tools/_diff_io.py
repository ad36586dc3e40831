"""What the ``@diff`` verbs share: their limits, and a file argument's bytes."""

from __future__ import annotations

from .._text import human_size
from ..errors import ToolError
from ._runner import ToolArgs
from ._verbspec import BUDGET_MAX, CONTEXT_MAX
from ._workspace import Workspace

__all__ = ["FILE_LIMIT", "PATCH_LIMIT", "TREE_LIMIT", "OUTPUT_LIMIT", "CONTEXT_MAX", "BUDGET_MAX",
           "read_input"]

#: Largest file a verb reads (standard input included), checked before reading.
FILE_LIMIT = 4 * 1024 * 1024
PATCH_LIMIT = 4 * 1024 * 1024
#: Most bytes the patch of two trees reads in all.
TREE_LIMIT = 64 * 1024 * 1024
OUTPUT_LIMIT = 30_000


def read_input(args: ToolArgs, ws: Workspace, name: str, limit: int,
               what: str = "file") -> tuple[bytes, str]:
    """(bytes, label) of a file argument. Bytes given directly (the command
    line's ``-``: standard input) are taken as they are, within the same limit."""
    value = args.raw.get(name)
    cap = ws.cap(limit)
    if isinstance(value, (bytes, bytearray)):
        if cap is not None and len(value) > cap:
            raise ToolError(f"@{args.tool} {args.verb}: {name!r} (standard input) is "
                            f"{human_size(len(value))}; the limit is {human_size(cap)}")
        return bytes(value), "-"
    path = args.text(name)
    return ws.read_bytes(path, limit, what=what), path
