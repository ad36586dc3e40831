"""``toolmend.diff``: minimal line diffs and strict patches.

    unified(a, b, context=3, a_label="a", b_label="b")  -> str
    unified_diff(a, b, fromfile='', tofile='', ..., n=3, lineterm='\\n')
        a drop-in for difflib.unified_diff
    compare(a, b, ...)                                  -> DiffResult
    apply(original, patch, *, path=None)                -> str, or PatchError

The diff is Myers' O(ND) algorithm on interned lines (compiled, with the GIL
released; a pure-Python twin gives the same results) with an edit budget:
within ``DEFAULT_BUDGET`` changed lines the diff is minimal, past it the
differing middle is one block replacement and a ``BudgetWarning`` says so.
``VERBS`` are the verbs of the ``@diff`` tool (see ``toolmend.run_tool``).
"""

from __future__ import annotations

from .diffverbs import VERBS
from .errors import PatchError
from .patch import FilePatch, Hunk, apply, parse_patch
from .unified import DEFAULT_BUDGET, BudgetWarning, DiffResult, compare, unified, unified_diff

__all__ = [
    "unified",
    "unified_diff",
    "compare",
    "apply",
    "parse_patch",
    "DiffResult",
    "FilePatch",
    "Hunk",
    "PatchError",
    "BudgetWarning",
    "DEFAULT_BUDGET",
    "VERBS",
]
