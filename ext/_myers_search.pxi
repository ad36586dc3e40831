# The search, included by _myers.pyx. Twin: src/toolmend/_kernels/_myers_search.py
# (steps 5 and 6): a point on an optimal path from both ends, the halves on an
# explicit stack, GNU diff's boundary shift, then the blocks; all without the GIL.


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


cdef struct CoreMem:
    # three blocks, not eleven allocations
    int* counts           # count_a, count_b
    char* maps            # ra, rb, amap, bmap, match_a, match_b
    Py_ssize_t* diagonals # V, U


cdef int core(const int* ia, Py_ssize_t na, const int* ib, Py_ssize_t nb, Py_ssize_t nids,
              Py_ssize_t budget, unsigned char* changed_a, unsigned char* changed_b) noexcept nogil:
    """Steps 3 to 6 on interned middles (see the pure twin): fills the
    padded ``changed`` flags (na + 2 and nb + 2 bytes) unless EXCEEDED."""
    cdef CoreMem mem
    cdef Work w
    cdef int status
    memset(&mem, 0, sizeof(CoreMem))
    memset(&w, 0, sizeof(Work))
    status = core_run(&mem, &w, ia, na, ib, nb, nids, budget, changed_a, changed_b)
    free(mem.counts)
    free(mem.maps)
    free(mem.diagonals)
    free(w.stack)
    return status


cdef int core_run(CoreMem* mem, Work* w, const int* ia, Py_ssize_t na, const int* ib,
                  Py_ssize_t nb, Py_ssize_t nids, Py_ssize_t budget, unsigned char* changed_a,
                  unsigned char* changed_b) noexcept nogil:
    cdef Py_ssize_t i, j, x, y, rn = 0, rm = 0, common = 0, rbudget, dmax
    cdef int status
    cdef int* count_a
    cdef int* count_b
    cdef int* ra
    cdef int* rb
    cdef Py_ssize_t* amap
    cdef Py_ssize_t* bmap
    mem.counts = count_a = <int*>calloc(2 * (nids + 1), sizeof(int))
    if count_a == NULL:
        return NO_MEMORY
    count_b = count_a + nids + 1
    for i in range(na):
        count_a[ia[i]] += 1
    for j in range(nb):
        count_b[ib[j]] += 1
    for i in range(nids):
        common += count_a[i] if count_a[i] < count_b[i] else count_b[i]
    if na + nb - 2 * common > budget:
        return EXCEEDED
    # the Py_ssize_t arrays first, then the ints, then the bytes: each aligned
    mem.maps = <char*>malloc((na + nb + 2) * (sizeof(Py_ssize_t) + sizeof(int) + 1))
    if mem.maps == NULL:
        return NO_MEMORY
    amap = <Py_ssize_t*>mem.maps
    bmap = amap + na + 1
    ra = <int*>(bmap + nb + 1)
    rb = ra + na + 1
    w.match_a = <unsigned char*>(rb + nb + 1)
    w.match_b = w.match_a + na + 1
    memset(w.match_a, 0, na + nb + 2)
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
    rbudget = budget - (na - rn) - (nb - rm)
    dmax = (rbudget + 1) // 2
    if dmax > (rn + rm) // 2 + 1:
        dmax = (rn + rm) // 2 + 1
    dmax += 1
    w.off = dmax + 1
    mem.diagonals = <Py_ssize_t*>malloc(2 * (2 * dmax + 3) * sizeof(Py_ssize_t))
    if mem.diagonals == NULL:
        return NO_MEMORY
    w.V = mem.diagonals
    w.U = w.V + 2 * dmax + 3
    w.A = ra
    w.B = rb
    status = solve(w, rn, rm, rbudget)
    if status != SOLVED:
        return status
    memset(changed_a + 1, 1, na)
    memset(changed_b + 1, 1, nb)
    changed_a[0] = 0
    changed_a[na + 1] = 0
    changed_b[0] = 0
    changed_b[nb + 1] = 0
    for x in range(rn):
        if w.match_a[x]:
            changed_a[amap[x] + 1] = 0
    for y in range(rm):
        if w.match_b[y]:
            changed_b[bmap[y] + 1] = 0
    shift_boundaries(ia, na, changed_a + 1, changed_b + 1)
    shift_boundaries(ib, nb, changed_b + 1, changed_a + 1)
    return SOLVED


cdef Py_ssize_t scan_blocks(const unsigned char* changed_a, const unsigned char* changed_b,
                            Py_ssize_t na, Py_ssize_t nb, Py_ssize_t p,
                            Py_ssize_t* out) noexcept nogil:
    """Write the blocks (4 numbers each) to ``out``; their count, or -1 when
    the flags do not pair up (a bug)."""
    cdef Py_ssize_t i = 0, j = 0, si, sj, count = 0
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
            return -1
        out[4 * count] = p + si
        out[4 * count + 1] = p + i
        out[4 * count + 2] = p + sj
        out[4 * count + 3] = p + j
        count += 1
    return count
