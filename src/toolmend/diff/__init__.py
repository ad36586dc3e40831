"""``toolmend.diff``: minimal line diffs and strict patches, as a library.

    unified(a, b, context=3, a_label="a", b_label="b")  -> str
    unified_diff(a, b, fromfile='', tofile='', ..., n=3, lineterm='\\n')
        a drop-in for difflib.unified_diff
    compare(a, b, ...)                                  -> DiffResult
    apply(original, patch, *, path=None)                -> str, or PatchError
    parse_patch(patch)                                  -> [FilePatch]
    compare_trees(a_root, b_root, root)                 -> TreeDiff
    tree_patch(entries, read, context=, budget=)        -> TreePatch (git-style headers)
    folders_patch(root_a, root_b, entries, limit=, total_limit=)  -> the same, read from disk
    patch_bytes(data, section)                          -> PatchedFile(data, lines_before, lines_after)
    decode(data), readable(text), count_lines(data)     -> files as bytes, exactly
    quote_name(name), header_label(name)                -> names in headers as git writes them

The diff is Myers' O(ND) algorithm on interned lines (compiled, with the GIL
released; a pure-Python twin gives the same results) with an edit budget:
within ``DEFAULT_BUDGET`` changed lines the diff is minimal, past it the
differing middle is one block replacement and a ``BudgetWarning`` says so.
The ``@diff`` tool (see :func:`toolmend.run_tool`) lives in
:mod:`toolmend.tools`.
"""

from __future__ import annotations

from ..errors import BudgetWarning, PatchError
from ._apply import apply, apply_file_lines, apply_file_patch
from ._bytes import PatchedFile, count_lines, decode, patch_bytes, readable
from ._headers import blob_algorithm, blob_matches, check_result_blob, mode_after
from ._patch import (
    END_LINE,
    FilePatch,
    Hunk,
    c_unquote,
    count_line,
    end_line,
    hunk_pieces,
    incomplete_line,
    lossy_line,
    name_parts,
    parse_patch,
    reverse,
    select,
    split_keepends,
)
from ._tree import ENTRY_BUDGET, SKIP_DIRS, TreeDiff, compare_trees
from ._treepatch import TreeEntry, TreePatch, folders_patch, header_label, quote_name, tree_patch
from ._unified import DEFAULT_BUDGET, DiffResult, compare, split_lines, unified, unified_diff

__all__ = [
    "unified",
    "unified_diff",
    "compare",
    "apply",
    "apply_file_patch",
    "apply_file_lines",
    "patch_bytes",
    "PatchedFile",
    "decode",
    "readable",
    "count_lines",
    "reverse",
    "count_line",
    "end_line",
    "END_LINE",
    "incomplete_line",
    "lossy_line",
    "parse_patch",
    "name_parts",
    "select",
    "split_keepends",
    "hunk_pieces",
    "split_lines",
    "compare_trees",
    "tree_patch",
    "folders_patch",
    "quote_name",
    "header_label",
    "c_unquote",
    "blob_algorithm",
    "blob_matches",
    "check_result_blob",
    "mode_after",
    "TreeEntry",
    "TreePatch",
    "DiffResult",
    "FilePatch",
    "Hunk",
    "TreeDiff",
    "PatchError",
    "BudgetWarning",
    "DEFAULT_BUDGET",
    "ENTRY_BUDGET",
    "SKIP_DIRS",
]
