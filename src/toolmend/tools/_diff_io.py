"""What the ``@diff`` verbs share: limits, bytes in and out, reading the files of a tree patch."""

from __future__ import annotations

import os

from .._text import human_size
from ..diff import TreeEntry, TreePatch
from ..diff import tree_patch as make_tree_patch
from ..errors import ToolError
from ._runner import ToolArgs
from ._verbspec import BUDGET_MAX, CONTEXT_MAX
from ._workspace import Workspace

__all__ = ["FILE_LIMIT", "PATCH_LIMIT", "TREE_LIMIT", "OUTPUT_LIMIT", "CONTEXT_MAX", "BUDGET_MAX",
           "decode", "readable", "read_input", "tree_patch"]

#: Largest file a verb reads (standard input included), checked before reading.
FILE_LIMIT = 4 * 1024 * 1024
PATCH_LIMIT = 4 * 1024 * 1024
#: Most bytes the patch of two trees reads in all.
TREE_LIMIT = 64 * 1024 * 1024
OUTPUT_LIMIT = 30_000


def decode(data: bytes) -> tuple[str, bool]:
    """Text of ``data`` (a BOM stays: diffs are exact) and whether it is
    valid UTF-8; other bytes are kept as surrogate escapes, so that encoding
    the text back with ``surrogateescape`` gives the bytes again."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), False


def readable(text: str) -> str:
    """``text`` with surrogate escapes shown as U+FFFD (safe to serialize)."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


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


def _read(path: str, rel: str, limit: int | None) -> bytes:
    try:
        size = os.stat(path).st_size
        if limit is not None and size > limit:
            raise ToolError(f"@diff dirs: {rel} is {human_size(size)}; the limit is "
                            f"{human_size(limit)} a file")
        with open(path, "rb") as fh:
            return fh.read() if limit is None else fh.read(limit + 1)
    except OSError as exc:
        raise ToolError(f"@diff dirs: {rel} could not be read ({exc.strerror or exc})") from None


def tree_patch(root_a: str, root_b: str, entries: list[TreeEntry], context: int,
               budget: int, limit: int | None) -> TreePatch:
    """The patch that turns tree ``root_a`` into ``root_b`` (the library's
    :func:`toolmend.diff.tree_patch`), reading each file within ``limit``
    and all of them within ``TREE_LIMIT`` (``limit`` None: no cap,
    nor on the whole tree)."""
    total = 0
    roots = {"a": root_a, "b": root_b}

    def read(side: str, rel: str) -> bytes:
        nonlocal total
        data = _read(os.path.join(roots[side], rel), rel, limit)
        total += len(data)
        if limit is not None and total > TREE_LIMIT:
            raise ToolError(f"@diff dirs: the changed files hold more than "
                            f"{human_size(TREE_LIMIT)}; narrow with a glob or a subfolder")
        return data

    return make_tree_patch(entries, read, context=context, budget=budget)
