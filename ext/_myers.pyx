# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled line diff core: Myers' O(ND) search with an edit budget.

Twin of ``toolmend/_myers_py.py`` (read its docstring for the steps): same
function, same algorithm, same tie-breaking, same results. Lines are interned
to C ints while the GIL is held; the search, the boundary shifting and the
block scan then run on C arrays with the GIL released, so threads diffing
different files run in parallel. Nothing here recurses: the halves of the
divide and conquer wait on an explicit stack.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from cpython.ref cimport PyObject
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject_RichCompareBool, Py_EQ

cdef extern from "Python.h":
    PyObject* PyDict_SetDefault(object p, object key, object default) except NULL
    Py_ssize_t PyLong_AsSsize_t(PyObject* o) except? -1

cdef extern from "limits.h":
    int INT_MAX


cdef struct Work:
    const int* A          # reduced, interned items of a
    const int* B
    unsigned char* match_a
    unsigned char* match_b
    Py_ssize_t* V         # forward furthest x per diagonal (-1: none)
    Py_ssize_t* U         # backward smallest x per diagonal (n + 1: none)
    Py_ssize_t off
    Py_ssize_t* stack
    Py_ssize_t stack_cap


cdef enum:
    SOLVED = 0
    EXCEEDED = 1
    NO_MEMORY = -1
    LOST_BOUND = -2


cdef int bisect(Work* w, Py_ssize_t a0, Py_ssize_t a1, Py_ssize_t b0, Py_ssize_t b1,
                Py_ssize_t budget, Py_ssize_t* sx, Py_ssize_t* sy) noexcept nogil:
    """A point on an optimal path (1), or 0 when it changes more than budget."""
    cdef const int* A = w.A + a0
    cdef const int* B = w.B + b0
    cdef Py_ssize_t* V = w.V
    cdef Py_ssize_t* U = w.U
    cdef Py_ssize_t off = w.off
    cdef Py_ssize_t n = a1 - a0
    cdef Py_ssize_t m = b1 - b0
    cdef Py_ssize_t delta = n - m
    cdef bint odd = (delta & 1) != 0
    cdef Py_ssize_t plo = 0, phi = 0, qlo = delta, qhi = delta
    cdef Py_ssize_t d = 0, lo, hi, k, x, y, t
    while True:
        if d and 2 * d - 1 > budget:
            return 0
        lo = -d if d <= m else -m
        hi = d if d <= n else n
        if (lo + d) & 1:
            lo += 1
        if (hi + d) & 1:
            hi -= 1
        k = lo
        while k <= hi:
            if d == 0:
                x = 0
            else:
                x = -1
                if plo <= k + 1 <= phi:
                    t = V[off + k + 1]
                    if t >= 0 and t - k - 1 < m:
                        x = t
                if plo <= k - 1 <= phi:
                    t = V[off + k - 1]
                    if 0 <= t < n and t + 1 > x:
                        x = t + 1
                if x < 0:
                    V[off + k] = -1
                    k += 2
                    continue
            y = x - k
            while x < n and y < m and A[x] == B[y]:
                x += 1
                y += 1
            V[off + k] = x
            if odd and d and qlo <= k <= qhi:
                t = U[off + k - delta]
                if t <= n and x >= t:
                    sx[0] = a0 + x
                    sy[0] = b0 + y
                    return 1
            k += 2
        plo = lo
        phi = hi
        if 2 * d > budget:
            return 0
        lo = delta - d if delta - d >= -m else -m
        hi = delta + d if delta + d <= n else n
        if (lo - delta + d) & 1:
            lo += 1
        if (hi - delta + d) & 1:
            hi -= 1
        k = lo
        while k <= hi:
            if d == 0:
                x = n
            else:
                x = n + 1
                if qlo <= k + 1 <= qhi:
                    t = U[off + k + 1 - delta]
                    if 0 < t <= n:
                        x = t - 1
                if qlo <= k - 1 <= qhi:
                    t = U[off + k - 1 - delta]
                    if t <= n and t - k + 1 > 0 and t < x:
                        x = t
                if x > n:
                    U[off + k - delta] = n + 1
                    k += 2
                    continue
            y = x - k
            while x > 0 and y > 0 and A[x - 1] == B[y - 1]:
                x -= 1
                y -= 1
            U[off + k - delta] = x
            if not odd and plo <= k <= phi:
                t = V[off + k]
                if t >= 0 and t >= x:
                    sx[0] = a0 + t
                    sy[0] = b0 + t - k
                    return 1
            k += 2
        qlo = lo
        qhi = hi
        d += 1


cdef int push(Work* w, Py_ssize_t* top, Py_ssize_t a0, Py_ssize_t a1,
              Py_ssize_t b0, Py_ssize_t b1) noexcept nogil:
    cdef Py_ssize_t cap
    cdef Py_ssize_t* grown
    if top[0] + 4 > w.stack_cap:
        cap = w.stack_cap * 2 if w.stack_cap else 64
        grown = <Py_ssize_t*>realloc(w.stack, cap * sizeof(Py_ssize_t))
        if grown == NULL:
            return -1
        w.stack = grown
        w.stack_cap = cap
    w.stack[top[0]] = a0
    w.stack[top[0] + 1] = a1
    w.stack[top[0] + 2] = b0
    w.stack[top[0] + 3] = b1
    top[0] += 4
    return 0


cdef int solve(Work* w, Py_ssize_t n, Py_ssize_t m, Py_ssize_t budget) noexcept nogil:
    cdef const int* A = w.A
    cdef const int* B = w.B
    cdef Py_ssize_t top = 0, a0, a1, b0, b1, x = 0, y = 0
    cdef bint first = True
    if push(w, &top, 0, n, 0, m):
        return NO_MEMORY
    while top:
        top -= 4
        a0 = w.stack[top]
        a1 = w.stack[top + 1]
        b0 = w.stack[top + 2]
        b1 = w.stack[top + 3]
        while a0 < a1 and b0 < b1 and A[a0] == B[b0]:
            w.match_a[a0] = 1
            w.match_b[b0] = 1
            a0 += 1
            b0 += 1
        while a0 < a1 and b0 < b1 and A[a1 - 1] == B[b1 - 1]:
            a1 -= 1
            b1 -= 1
            w.match_a[a1] = 1
            w.match_b[b1] = 1
        if a0 == a1 or b0 == b1:
            if first and (a1 - a0) + (b1 - b0) > budget:
                return EXCEEDED
            first = False
            continue
        if not bisect(w, a0, a1, b0, b1, budget, &x, &y):
            return EXCEEDED if first else LOST_BOUND
        first = False
        if push(w, &top, x, a1, y, b1) or push(w, &top, a0, x, b0, y):
            return NO_MEMORY
    return SOLVED


cdef void shift_boundaries(const int* equivs, Py_ssize_t i_end, unsigned char* changed,
                           unsigned char* other) noexcept nogil:
    """GNU diff's shift_boundaries; ``changed`` and ``other`` point one past
    a 0 sentinel and end with one."""
    cdef Py_ssize_t i = 0, j = 0, start, runlength, corresponding
    while True:
        while i < i_end and not changed[i]:
            while other[j]:
                j += 1
            j += 1
            i += 1
        if i == i_end:
            return
        start = i
        i += 1
        while changed[i]:
            i += 1
        while other[j]:
            j += 1
        while True:
            runlength = i - start
            while start and equivs[start - 1] == equivs[i - 1]:
                start -= 1
                changed[start] = 1
                i -= 1
                changed[i] = 0
                while changed[start - 1]:
                    start -= 1
                j -= 1
                while other[j]:
                    j -= 1
            corresponding = i if other[j - 1] else i_end
            while i != i_end and equivs[start] == equivs[i]:
                changed[start] = 0
                start += 1
                changed[i] = 1
                i += 1
                while changed[i]:
                    i += 1
                j += 1
                while other[j]:
                    corresponding = i
                    j += 1
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            changed[start] = 1
            i -= 1
            changed[i] = 0
            j -= 1
            while other[j]:
                j -= 1


cdef int intern(list items, Py_ssize_t lo, Py_ssize_t hi, dict ids, int* out) except -1:
    cdef Py_ssize_t i
    cdef PyObject* got
    cdef object fresh = len(ids)
    cdef Py_ssize_t count = len(ids)
    for i in range(lo, hi):
        got = PyDict_SetDefault(ids, <object>PyList_GET_ITEM(items, i), fresh)
        if got == <PyObject*>fresh:
            out[i - lo] = <int>count
            count += 1
            if count >= INT_MAX:
                raise OverflowError("too many distinct lines to diff")
            fresh = count
        else:
            out[i - lo] = <int>PyLong_AsSsize_t(got)
    return 0


def diff_lines(a, b, Py_ssize_t budget):
    """Minimal line diff of ``a`` and ``b`` within ``budget`` changed items.

    Returns ``(blocks, exceeded)``; see ``toolmend._myers_py.diff_lines``.
    """
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    # A private list: the loops below hold borrowed references to its items.
    cdef list la = list(a)
    cdef list lb = list(b)
    cdef Py_ssize_t n = PyList_GET_SIZE(la), m = PyList_GET_SIZE(lb)
    cdef Py_ssize_t lim = n if n < m else m
    cdef Py_ssize_t p = 0, s = 0, a_end, b_end, na, nb
    while p < lim and PyObject_RichCompareBool(
            <object>PyList_GET_ITEM(la, p), <object>PyList_GET_ITEM(lb, p), Py_EQ):
        p += 1
    while s < lim - p and PyObject_RichCompareBool(
            <object>PyList_GET_ITEM(la, n - 1 - s), <object>PyList_GET_ITEM(lb, m - 1 - s), Py_EQ):
        s += 1
    a_end = n - s
    b_end = m - s
    na = a_end - p
    nb = b_end - p
    if na == 0 and nb == 0:
        return [], False
    whole = [(p, a_end, p, b_end)]
    if na == 0 or nb == 0:
        return whole, na + nb > budget

    cdef int* ia = NULL
    cdef int* ib = NULL
    cdef int* count_a = NULL
    cdef int* count_b = NULL
    cdef int* ra = NULL
    cdef int* rb = NULL
    cdef Py_ssize_t* amap = NULL
    cdef Py_ssize_t* bmap = NULL
    cdef unsigned char* changed_a = NULL
    cdef unsigned char* changed_b = NULL
    cdef Work w
    memset(&w, 0, sizeof(Work))
    cdef dict ids = {}
    cdef Py_ssize_t nids, i, j, x, y, rn = 0, rm = 0, common = 0, forced, rbudget, dmax
    cdef Py_ssize_t si, sj
    cdef int status = SOLVED
    cdef list blocks
    try:
        ia = <int*>malloc(na * sizeof(int))
        ib = <int*>malloc(nb * sizeof(int))
        if ia == NULL or ib == NULL:
            raise MemoryError()
        intern(la, p, a_end, ids, ia)
        intern(lb, p, b_end, ids, ib)
        nids = len(ids)
        count_a = <int*>malloc(nids * sizeof(int))
        count_b = <int*>malloc(nids * sizeof(int))
        if count_a == NULL or count_b == NULL:
            raise MemoryError()
        with nogil:
            memset(count_a, 0, nids * sizeof(int))
            memset(count_b, 0, nids * sizeof(int))
            for i in range(na):
                count_a[ia[i]] += 1
            for j in range(nb):
                count_b[ib[j]] += 1
            for i in range(nids):
                common += count_a[i] if count_a[i] < count_b[i] else count_b[i]
        if na + nb - 2 * common > budget:
            return whole, True

        ra = <int*>malloc(na * sizeof(int))
        rb = <int*>malloc(nb * sizeof(int))
        amap = <Py_ssize_t*>malloc(na * sizeof(Py_ssize_t))
        bmap = <Py_ssize_t*>malloc(nb * sizeof(Py_ssize_t))
        w.match_a = <unsigned char*>malloc(na + 1)
        w.match_b = <unsigned char*>malloc(nb + 1)
        changed_a = <unsigned char*>malloc(na + 2)
        changed_b = <unsigned char*>malloc(nb + 2)
        if (ra == NULL or rb == NULL or amap == NULL or bmap == NULL or w.match_a == NULL
                or w.match_b == NULL or changed_a == NULL or changed_b == NULL):
            raise MemoryError()
        with nogil:
            for i in range(na):
                if count_b[ia[i]]:
                    ra[rn] = ia[i]
                    amap[rn] = i
                    rn += 1
            for j in range(nb):
                if count_a[ib[j]]:
                    rb[rm] = ib[j]
                    bmap[rm] = j
                    rm += 1
        forced = (na - rn) + (nb - rm)
        rbudget = budget - forced
        dmax = (rbudget + 1) // 2
        if dmax > (rn + rm) // 2 + 1:
            dmax = (rn + rm) // 2 + 1
        dmax += 1
        w.off = dmax + 1
        w.V = <Py_ssize_t*>malloc((2 * dmax + 3) * sizeof(Py_ssize_t))
        w.U = <Py_ssize_t*>malloc((2 * dmax + 3) * sizeof(Py_ssize_t))
        if w.V == NULL or w.U == NULL:
            raise MemoryError()
        w.A = ra
        w.B = rb
        with nogil:
            memset(w.match_a, 0, na + 1)
            memset(w.match_b, 0, nb + 1)
            status = solve(&w, rn, rm, rbudget)
            if status == SOLVED:
                memset(changed_a + 1, 1, na)
                memset(changed_b + 1, 1, nb)
                changed_a[0] = changed_a[na + 1] = 0
                changed_b[0] = changed_b[nb + 1] = 0
                for x in range(rn):
                    if w.match_a[x]:
                        changed_a[amap[x] + 1] = 0
                for y in range(rm):
                    if w.match_b[y]:
                        changed_b[bmap[y] + 1] = 0
                shift_boundaries(ia, na, changed_a + 1, changed_b + 1)
                shift_boundaries(ib, nb, changed_b + 1, changed_a + 1)
        if status == NO_MEMORY:
            raise MemoryError()
        if status == LOST_BOUND:
            raise RuntimeError("toolmend: diff search lost its bound (internal error)")
        if status == EXCEEDED:
            return whole, True

        blocks = []
        i = j = 0
        while i < na or j < nb:
            if i < na and j < nb and not changed_a[i + 1] and not changed_b[j + 1]:
                i += 1
                j += 1
                continue
            si = i
            sj = j
            while i < na and changed_a[i + 1]:
                i += 1
            while j < nb and changed_b[j + 1]:
                j += 1
            if si == i and sj == j:
                raise RuntimeError("toolmend: diff alignment is inconsistent (internal error)")
            blocks.append((p + si, p + i, p + sj, p + j))
        return blocks, False
    finally:
        free(ia)
        free(ib)
        free(count_a)
        free(count_b)
        free(ra)
        free(rb)
        free(amap)
        free(bmap)
        free(w.match_a)
        free(w.match_b)
        free(w.V)
        free(w.U)
        free(w.stack)
        free(changed_a)
        free(changed_b)
