"""The search of the pure Myers twin (steps 5 and 6 of ``_myers_py``'s
docstring), beside ``ext/_myers_search.pxi``: a point on an optimal path from
both ends, the halves on an explicit stack, GNU diff's boundary shift, then
the blocks. ``_myers_py.diff_lines`` calls them on the interned middles.
"""

from __future__ import annotations

from ._hunks import Block

__all__ = ["solve", "bisect", "shift_boundaries", "scan_blocks"]


def solve(A: list[int], B: list[int], budget: int,
           match_a: bytearray, match_b: bytearray) -> bool:
    """Mark the items of an optimal common subsequence; False past the budget."""
    n, m = len(A), len(B)
    dmax = min((budget + 1) // 2, (n + m) // 2 + 1) + 1
    off = dmax + 1
    V = [-1] * (2 * dmax + 3)
    U = [n + 1] * (2 * dmax + 3)
    stack = [(0, n, 0, m)]
    first = True
    while stack:
        a0, a1, b0, b1 = stack.pop()
        while a0 < a1 and b0 < b1 and A[a0] == B[b0]:
            match_a[a0] = match_b[b0] = 1
            a0 += 1
            b0 += 1
        while a0 < a1 and b0 < b1 and A[a1 - 1] == B[b1 - 1]:
            a1 -= 1
            b1 -= 1
            match_a[a1] = match_b[b1] = 1
        if a0 == a1 or b0 == b1:
            if first and (a1 - a0) + (b1 - b0) > budget:
                return False
            first = False
            continue
        split = bisect(A, B, a0, a1, b0, b1, budget, V, U, off)
        if split is None:
            if first:
                return False
            raise RuntimeError("toolmend: diff search lost its bound (internal error)")
        first = False
        x, y = split
        stack.append((x, a1, y, b1))
        stack.append((a0, x, b0, y))
    return True


def bisect(A: list[int], B: list[int], a0: int, a1: int, b0: int, b1: int, budget: int,
            V: list[int], U: list[int], off: int) -> tuple[int, int] | None:
    """A point on an optimal path from (a0, b0) to (a1, b1), or None when
    that path changes more than ``budget`` items.

    ``V[off + k]`` is the furthest x reached on diagonal k = x - y from the
    start with d changes (-1: none); ``U[off + k - delta]`` the smallest x
    reached from the end (n + 1: none). The walks alternate; the first time
    they meet on a diagonal, the forward end point there lies on an optimal
    path (a point further along a diagonal is never worse to continue from).
    """
    n = a1 - a0
    m = b1 - b0
    delta = n - m
    odd = delta & 1
    plo = phi = 0  # forward diagonals of the previous step
    qlo = qhi = delta  # backward diagonals of the previous step
    d = 0
    while True:
        if d and 2 * d - 1 > budget:
            return None
        lo = -d if d <= m else -m
        hi = d if d <= n else n
        if (lo + d) & 1:
            lo += 1
        if (hi + d) & 1:
            hi -= 1
        for k in range(lo, hi + 1, 2):
            if d == 0:
                x = 0
            else:
                x = -1
                if plo <= k + 1 <= phi:
                    t = V[off + k + 1]
                    if t >= 0 and t - k - 1 < m:
                        x = t  # down: one insertion
                if plo <= k - 1 <= phi:
                    t = V[off + k - 1]
                    if 0 <= t < n and t + 1 > x:
                        x = t + 1  # right: one deletion
                if x < 0:
                    V[off + k] = -1
                    continue
            y = x - k
            while x < n and y < m and A[a0 + x] == B[b0 + y]:
                x += 1
                y += 1
            V[off + k] = x
            if odd and d and qlo <= k <= qhi:
                t = U[off + k - delta]
                if t <= n and x >= t:
                    return a0 + x, b0 + y
        plo, phi = lo, hi
        if 2 * d > budget:
            return None
        lo = delta - d if delta - d >= -m else -m
        hi = delta + d if delta + d <= n else n
        if (lo - delta + d) & 1:
            lo += 1
        if (hi - delta + d) & 1:
            hi -= 1
        for k in range(lo, hi + 1, 2):
            if d == 0:
                x = n
            else:
                x = n + 1
                if qlo <= k + 1 <= qhi:
                    t = U[off + k + 1 - delta]
                    if 0 < t <= n:
                        x = t - 1  # left: one deletion
                if qlo <= k - 1 <= qhi:
                    t = U[off + k - 1 - delta]
                    if t <= n and t - k + 1 > 0 and t < x:
                        x = t  # up: one insertion
                if x > n:
                    U[off + k - delta] = n + 1
                    continue
            y = x - k
            while x > 0 and y > 0 and A[a0 + x - 1] == B[b0 + y - 1]:
                x -= 1
                y -= 1
            U[off + k - delta] = x
            if not odd and plo <= k <= phi:
                t = V[off + k]
                if t >= 0 and t >= x:
                    return a0 + t, b0 + t - k
        qlo, qhi = lo, hi
        d += 1


def shift_boundaries(equivs: list[int], changed: bytearray, other: bytearray) -> None:
    """GNU diff's ``shift_boundaries`` for one side (step 6 of ``_myers_py``).

    ``changed[i + 1]`` flags item i of this side, ``other[j + 1]`` item j of
    the other side; index 0 and the last index are 0 sentinels.
    """
    i_end = len(equivs)
    i = j = 0
    while True:
        while i < i_end and not changed[i + 1]:
            while other[j + 1]:
                j += 1
            j += 1
            i += 1
        if i == i_end:
            return
        start = i
        i += 1
        while changed[i + 1]:
            i += 1
        while other[j + 1]:
            j += 1
        while True:
            runlength = i - start
            # Move the run back while the line before it equals its last
            # line: this merges it with changes before it.
            while start and equivs[start - 1] == equivs[i - 1]:
                start -= 1
                changed[start + 1] = 1
                i -= 1
                changed[i + 1] = 0
                while changed[start]:
                    start -= 1
                j -= 1
                while other[j + 1]:
                    j -= 1
            corresponding = i if other[j] else i_end
            # Then forward while its first line equals the line after it.
            while i != i_end and equivs[start] == equivs[i]:
                changed[start + 1] = 0
                start += 1
                changed[i + 1] = 1
                i += 1
                while changed[i + 1]:
                    i += 1
                j += 1
                while other[j + 1]:
                    corresponding = i
                    j += 1
            if runlength == i - start:
                break
        # Line the run up with a run of changes on the other side if it can.
        while corresponding < i:
            start -= 1
            changed[start + 1] = 1
            i -= 1
            changed[i + 1] = 0
            j -= 1
            while other[j + 1]:
                j -= 1


def scan_blocks(changed_a: bytearray, changed_b: bytearray, na: int, nb: int, p: int) -> list[Block]:
    blocks: list[Block] = []
    i = j = 0
    while i < na or j < nb:
        if i < na and j < nb and not changed_a[i + 1] and not changed_b[j + 1]:
            i += 1
            j += 1
            continue
        si, sj = i, j
        while i < na and changed_a[i + 1]:
            i += 1
        while j < nb and changed_b[j + 1]:
            j += 1
        if si == i and sj == j:
            raise RuntimeError("toolmend: diff alignment is inconsistent (internal error)")
        blocks.append((p + si, p + i, p + sj, p + j))
    return blocks
