"""Pure-Python twin of ``ext/_myers.pyx``: the line diff core.

Same function, same algorithm, same tie-breaking, same results; used where
the compiled extension is not available or when ``TOOLMEND_PURE_PYTHON=1``.

``unified_text(a, b, context, a_label, b_label, budget)`` diffs two texts
(lines end at ``\n`` only) and returns ``(text, blocks, exceeded)``: the
unified diff in GNU's format and the same blocks and flag as ``diff_lines``
on the texts' lines. The compiled kernel finds, hashes and compares the
lines inside the strings' buffers and writes the diff in C.

``diff_lines(a, b, budget)`` compares two sequences of hashable items (lines)
and returns ``(blocks, exceeded)``: ``blocks`` lists the differing regions as
``(a_start, a_end, b_start, b_end)`` tuples (0-based, end exclusive, in
order; the items between two blocks are equal), and ``exceeded`` is True when
the minimal number of deleted plus inserted items is larger than ``budget``.
In that case the whole differing middle (what is left once the common prefix
and suffix are trimmed) comes back as one block.

The steps, identical in both kernels:

1. Trim the common prefix and suffix.
2. Intern the middle items to integers (a dict here; the compiled kernel
   hashes the strings' buffers into its own table).
3. Lower bound: at least ``n + m - 2 * sum(min(count_a, count_b))`` items
   must change; past the budget, stop here (a complete rewrite costs a
   counting pass, not a search).
4. Set aside the items that occur on one side only: they can never match,
   so they are deletions or insertions whatever the alignment. The search
   runs on what is left, which keeps its result minimal (the longest common
   subsequence is the same) and makes it fast on real files, where edited
   lines are mostly unique.
5. Myers' O(ND) search in linear space (Myers 1986, section 4b): find a
   point on an optimal path from both ends (the "middle snake"), split
   there, and solve both halves. The halves wait on an explicit stack: no
   recursion. Only the first search can meet the budget (the halves of an
   optimal path cost no more than the whole); memory is the two interned
   arrays plus two diagonal arrays of ``min(budget, n + m) + O(1)`` entries.
6. Slide each run of changes along equal lines the way GNU diff does
   (``shift_boundaries``): runs merge with neighbouring changes where they
   can and otherwise sit as late as possible. The count of changed items
   does not move; the hunks read like GNU's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ._hunks import NO_NEWLINE, Block, format_range, hunks, split_lines
from ._myers_search import scan_blocks, shift_boundaries, solve

# The names both twins export, with the same signatures (tests/test_kernel_line.py
# checks them; this twin is the reference).
__all__ = ["diff_lines", "unified_text", "extend_prefixed"]


def diff_lines(a: Sequence[Any], b: Sequence[Any], budget: int) -> tuple[list[Block], bool]:
    """Minimal line diff of ``a`` and ``b`` within ``budget`` changed items."""
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    a = a if isinstance(a, list) else list(a)
    b = b if isinstance(b, list) else list(b)
    n, m = len(a), len(b)
    lim = min(n, m)
    p = 0
    while p < lim and a[p] == b[p]:
        p += 1
    s = 0
    while s < lim - p and a[n - 1 - s] == b[m - 1 - s]:
        s += 1
    a_end, b_end = n - s, m - s
    na, nb = a_end - p, b_end - p
    if na == 0 and nb == 0:
        return [], False
    whole = [(p, a_end, p, b_end)]
    if na == 0 or nb == 0:
        return whole, na + nb > budget

    ids: dict[Any, int] = {}
    ia = [ids.setdefault(x, len(ids)) for x in a[p:a_end]]
    ib = [ids.setdefault(x, len(ids)) for x in b[p:b_end]]
    count_a = Counter(ia)
    count_b = Counter(ib)
    common = sum(min(c, count_b[k]) for k, c in count_a.items() if k in count_b)
    if na + nb - 2 * common > budget:
        return whole, True

    # Items found on both sides take part in the search; the others change.
    amap = [i for i, k in enumerate(ia) if k in count_b]
    bmap = [j for j, k in enumerate(ib) if k in count_a]
    ra = [ia[i] for i in amap]
    rb = [ib[j] for j in bmap]
    forced = (na - len(ra)) + (nb - len(rb))
    match_a = bytearray(len(ra))
    match_b = bytearray(len(rb))
    if not solve(ra, rb, budget - forced, match_a, match_b):
        return whole, True

    # changed flags for the middle, padded with a 0 at both ends (sentinels)
    changed_a = bytearray(b"\x00") + bytearray(b"\x01") * na + bytearray(b"\x00")
    changed_b = bytearray(b"\x00") + bytearray(b"\x01") * nb + bytearray(b"\x00")
    for x, i in enumerate(amap):
        if match_a[x]:
            changed_a[i + 1] = 0
    for y, j in enumerate(bmap):
        if match_b[y]:
            changed_b[j + 1] = 0
    shift_boundaries(ia, changed_a, changed_b)
    shift_boundaries(ib, changed_b, changed_a)
    return scan_blocks(changed_a, changed_b, na, nb, p), False


def extend_prefixed(out: list[str], prefix: str, items: list[str], lo: int, hi: int) -> None:
    """``out.extend(prefix + item for item in items[lo:hi])``."""
    if len(prefix) != 1 or ord(prefix) > 127:
        raise ValueError("prefix must be one ASCII character")
    out.extend(map(prefix.__add__, items[max(lo, 0):hi]))


# ---------------------------------------------------------------------------
# Texts and the unified format


def _emit(parts: list[str], prefix: str, lines: list[str], lo: int, hi: int, noeol_at: int) -> None:
    if lo >= hi:
        return
    body = prefix + ("\n" + prefix).join(lines[lo:hi])
    if hi - 1 == noeol_at:  # that line already ends with its "\n" sentinel
        parts.append(body + NO_NEWLINE + "\n")
    else:
        parts.append(body + "\n")


def unified_text(a: str, b: str, context: int, a_label: str, b_label: str,
                 budget: int) -> tuple[str, list[Block], bool]:
    """The unified diff of two texts: ``(text, blocks, exceeded)``."""
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    if context < 0:
        raise ValueError(f"context must be at least 0, not {context}")
    la, a_noeol = split_lines(a)
    lb, b_noeol = split_lines(b)
    blocks, exceeded = diff_lines(la, lb, budget)
    if not blocks:
        return "", blocks, exceeded
    a_last = len(la) - 1 if a_noeol else -1
    b_last = len(lb) - 1 if b_noeol else -1
    parts = [f"--- {a_label}\n+++ {b_label}\n"]
    for a_lo, a_hi, b_lo, b_hi, group in hunks(blocks, len(la), context):
        parts.append(f"@@ -{format_range(a_lo, a_hi - a_lo)} +{format_range(b_lo, b_hi - b_lo)} @@\n")
        i = a_lo
        for a0, a1, b0, b1 in group:
            _emit(parts, " ", la, i, a0, a_last)
            _emit(parts, "-", la, a0, a1, a_last)
            _emit(parts, "+", lb, b0, b1, b_last)
            i = a1
        _emit(parts, " ", la, i, a_hi, a_last)
    return "".join(parts), blocks, exceeded
