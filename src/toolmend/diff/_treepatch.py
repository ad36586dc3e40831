"""The patch that turns one tree into another, and the names in its headers.

Headers are written the way git writes them, which GNU ``patch`` reads too:
every section starts with ``diff --git a/x b/x`` (quoted when a name holds
a space, which GNU patch needs there and git reads), then git's ``index``
line naming the two blobs (so that ``apply`` checks that no hunk is
missing); an added or removed file
says so (``new file mode 100644``, ``deleted file mode 100755``), with its
hunks against ``/dev/null`` (an empty one has none: the header alone creates
or deletes it), and a change of the executable bit is ``old mode``/``new
mode``. A name is quoted only when it must be (a ``"``, a backslash, a
control character, bytes that are not UTF-8: C escapes, as git's
``core.quotePath=false``), and a ``---``/``+++`` name with a space is
followed by a TAB, as git and GNU diff end it, so that ``patch -p1`` does not
take the name for a name and a timestamp.

``tree_patch`` takes a reader, so the trees may live anywhere;
``folders_patch`` reads them from two folders on disk, each file once,
within a cap for each file and one for them all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from .._files import read_capped
from .._text import human_size
from ..errors import WorkspaceError
from ._bytes import decode
from ._headers import blob_name
from ._unified import DEFAULT_BUDGET, compare

__all__ = ["quote_name", "header_label", "TreeEntry", "TreePatch", "tree_patch", "folders_patch"]

_C_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
              34: '\\"', 92: "\\\\"}


def _needs_quotes(name: str) -> bool:
    return any(c in '"\\' or ord(c) < 0x20 or ord(c) == 0x7f or 0xdc80 <= ord(c) <= 0xdcff
               for c in name)


def quote_name(name: str) -> str:
    """``name`` as git writes it in a header: as it is, or C-quoted when it
    holds a ``"``, a backslash, a control character or bytes that are not
    UTF-8 (kept in ``name`` as surrogate escapes), with C escapes; other
    characters stay as they are (git's ``core.quotePath=false``)."""
    if not _needs_quotes(name):
        return name
    out = ['"']
    for c in name:
        code = ord(c)
        if code in _C_ESCAPES:
            out.append(_C_ESCAPES[code])
        elif 0xdc80 <= code <= 0xdcff:  # a byte that is not UTF-8
            out.append(f"\\{code - 0xdc00:03o}")
        elif code < 0x20 or code == 0x7f:
            out.append(f"\\{code:03o}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def header_label(name: str) -> str:
    """The text after ``--- `` / ``+++ `` for ``name``: quoted when needed,
    and ended by a TAB when it holds a space (GNU patch reads a space as the
    end of the name otherwise)."""
    quoted = quote_name(name)
    return quoted + "\t" if " " in name and not quoted.startswith('"') else quoted


_ABBREV = 12
_ZERO = "0" * _ABBREV


def _git_line_name(name: str) -> str:
    """A name on the ``diff --git`` line: quoted when it holds a space too.
    git writes ``diff --git a/x y b/x y`` and reads it by matching the two
    halves, but GNU patch splits that line at spaces and then skips a section
    without hunks (an empty file, a mode change); both read the quoted form."""
    quoted = quote_name(name)
    if " " in name and not quoted.startswith('"'):
        return f'"{quoted}"'
    return quoted


@dataclass(frozen=True)
class TreeEntry:
    """One file that differs: ``tag`` "M", "A" or "D"; ``old_mode`` and
    ``new_mode`` are git's (0o100644 or 0o100755; None for a side that does
    not exist)."""

    path: str
    tag: str
    old_mode: int | None = 0o100644
    new_mode: int | None = 0o100644


@dataclass
class TreePatch:
    text: str
    hunks: int
    files: int
    valid_utf8: bool
    binary: list[str]


def tree_patch(entries: list[TreeEntry], read: Callable[[str, str], bytes], *, context: int,
               budget: int) -> TreePatch:
    """The patch of ``entries`` (in order). ``read(side, path)`` gives the
    bytes of ``path`` on side ``"a"`` or ``"b"`` (it raises to refuse).
    Binary files are not diffed: they are listed in ``binary``, and the
    caller decides (a text patch cannot carry them)."""
    parts: list[str] = []
    hunks = files = 0
    valid = True
    binary: list[str] = []
    for entry in entries:
        rel, tag = entry.path, entry.tag
        data_a = b"" if tag == "A" else read("a", rel)
        data_b = b"" if tag == "D" else read("b", rel)
        if b"\0" in data_a or b"\0" in data_b:
            binary.append(rel)
            continue
        text_a, ok_a = decode(data_a)
        text_b, ok_b = decode(data_b)
        valid = valid and ok_a and ok_b
        old_mode = None if tag == "A" else entry.old_mode or 0o100644
        new_mode = None if tag == "D" else entry.new_mode or 0o100644
        if tag == "M" and text_a == text_b and old_mode == new_mode:
            continue
        head = [f"diff --git {_git_line_name('a/' + rel)} {_git_line_name('b/' + rel)}\n"]
        if tag == "A":
            head.append(f"new file mode {new_mode:o}\n")
        elif tag == "D":
            head.append(f"deleted file mode {old_mode:o}\n")
        elif old_mode != new_mode:
            head.append(f"old mode {old_mode:o}\nnew mode {new_mode:o}\n")
        if data_a != data_b or tag != "M":
            # the blobs, as git names them: apply checks the result against them
            old_blob = _ZERO if tag == "A" else blob_name(data_a)[:_ABBREV]
            new_blob = _ZERO if tag == "D" else blob_name(data_b)[:_ABBREV]
            same_mode = f" {new_mode:o}" if tag == "M" and old_mode == new_mode else ""
            head.append(f"index {old_blob}..{new_blob}{same_mode}\n")
        result = compare(text_a, text_b, context=context,
                         a_label="/dev/null" if tag == "A" else header_label(f"a/{rel}"),
                         b_label="/dev/null" if tag == "D" else header_label(f"b/{rel}"),
                         budget=budget)
        parts.append("".join(head) + result.text)
        hunks += result.hunks
        files += 1
    return TreePatch("".join(parts), hunks, files, valid, binary)


def folders_patch(root_a: str, root_b: str, entries: list[TreeEntry], *, context: int = 3,
                  budget: int = DEFAULT_BUDGET, limit: int | None = None,
                  total_limit: int | None = None) -> TreePatch:
    """:func:`tree_patch` of the folders ``root_a`` and ``root_b``: each file
    is read once, refused past ``limit`` bytes, and all of them past
    ``total_limit`` bytes in all (None: no cap), with WorkspaceError naming
    the file (its path relative to the roots)."""
    roots = {"a": root_a, "b": root_b}
    total = 0

    def read(side: str, rel: str) -> bytes:
        nonlocal total
        data = read_capped(os.path.join(roots[side], rel), limit, rel)
        total += len(data)
        if total_limit is not None and total > total_limit:
            raise WorkspaceError(f"the changed files hold more than {human_size(total_limit)} "
                                 f"(the limit of one patch), {rel!r} included", path=rel)
        return data

    return tree_patch(entries, read, context=context, budget=budget)
