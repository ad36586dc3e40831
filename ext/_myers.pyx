# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled line diff core: Myers' O(ND) search with an edit budget.

Twin of ``toolmend/_kernels/_myers_py.py`` (read its docstring for the steps): same
function, same algorithm, same tie-breaking, same results. Lines are interned
to C ints while the GIL is held; the search, the boundary shifting and the
block scan then run on C arrays with the GIL released, so threads diffing
different files run in parallel. Nothing here recurses: the halves of the
divide and conquer wait on an explicit stack.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp
from cpython.mem cimport PyMem_Free
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_AsUCS4Copy
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject_RichCompareBool, Py_EQ

cdef extern from "Python.h":
    PyObject* PyDict_SetDefault(object p, object key, object default) except NULL
    Py_ssize_t PyLong_AsSsize_t(PyObject* o) except? -1
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    bint PyUnicode_CheckExact(PyObject* o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    int PyUnicode_KIND_P "PyUnicode_KIND" (PyObject* o)
    void* PyUnicode_DATA_P "PyUnicode_DATA" (PyObject* o)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(PyObject* o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void PyUnicode_WRITE(int kind, void* data, Py_ssize_t index, Py_UCS4 value)
    int PyList_Append(object lst, object item) except -1

cdef extern from "limits.h":
    int INT_MAX

cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define TOOLMEND_FREE_THREADED 1
    #else
    #define TOOLMEND_FREE_THREADED 0
    #endif
    """
    bint TOOLMEND_FREE_THREADED

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Offsets just past each newline of a one-byte-per-character buffer,
       written to out[0..]; returns how many, or -1 when out is too small.
       Eight bytes at a time: the exact zero-byte test on (word ^ 0x0A..). */
    static Py_ssize_t toolmend_newlines1(const unsigned char* d, Py_ssize_t n,
                                         Py_ssize_t* out, Py_ssize_t cap) {
        Py_ssize_t i = 0, k = 0;
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
        (defined(__GNUC__) || defined(__clang__))
        const uint64_t lo7 = 0x7F7F7F7F7F7F7F7FULL, nl = 0x0A0A0A0A0A0A0A0AULL;
        for (; i + 8 <= n; i += 8) {
            uint64_t w, x, t;
            memcpy(&w, d + i, 8);
            x = w ^ nl;
            t = ~(((x & lo7) + lo7) | x | lo7);
            if (!t) continue;
            if (k + 8 > cap) return -1;
            do {
                out[k++] = i + (__builtin_ctzll(t) >> 3) + 1;
                t &= t - 1;
            } while (t);
        }
    #endif
        for (; i < n; i++) {
            if (d[i] == 10) {
                if (k >= cap) return -1;
                out[k++] = i + 1;
            }
        }
        return k;
    }
    """
    Py_ssize_t toolmend_newlines1(const unsigned char* d, Py_ssize_t n, Py_ssize_t* out,
                                  Py_ssize_t cap) nogil


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


cdef Py_ssize_t HUGE = (<Py_ssize_t>1) << 40 if sizeof(Py_ssize_t) >= 8 else (<Py_ssize_t>1) << 28

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


cdef struct CoreMem:
    int* count_a
    int* count_b
    int* ra
    int* rb
    Py_ssize_t* amap
    Py_ssize_t* bmap


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
    free(mem.count_a)
    free(mem.count_b)
    free(mem.ra)
    free(mem.rb)
    free(mem.amap)
    free(mem.bmap)
    free(w.match_a)
    free(w.match_b)
    free(w.V)
    free(w.U)
    free(w.stack)
    return status


cdef int core_run(CoreMem* mem, Work* w, const int* ia, Py_ssize_t na, const int* ib,
                  Py_ssize_t nb, Py_ssize_t nids, Py_ssize_t budget, unsigned char* changed_a,
                  unsigned char* changed_b) noexcept nogil:
    cdef Py_ssize_t i, j, x, y, rn = 0, rm = 0, common = 0, rbudget, dmax
    cdef int status
    cdef int* count_a
    cdef int* count_b
    mem.count_a = count_a = <int*>calloc(nids + 1, sizeof(int))
    mem.count_b = count_b = <int*>calloc(nids + 1, sizeof(int))
    if count_a == NULL or count_b == NULL:
        return NO_MEMORY
    for i in range(na):
        count_a[ia[i]] += 1
    for j in range(nb):
        count_b[ib[j]] += 1
    for i in range(nids):
        common += count_a[i] if count_a[i] < count_b[i] else count_b[i]
    if na + nb - 2 * common > budget:
        return EXCEEDED
    mem.ra = <int*>malloc((na + 1) * sizeof(int))
    mem.rb = <int*>malloc((nb + 1) * sizeof(int))
    mem.amap = <Py_ssize_t*>malloc((na + 1) * sizeof(Py_ssize_t))
    mem.bmap = <Py_ssize_t*>malloc((nb + 1) * sizeof(Py_ssize_t))
    w.match_a = <unsigned char*>calloc(na + 1, 1)
    w.match_b = <unsigned char*>calloc(nb + 1, 1)
    if (mem.ra == NULL or mem.rb == NULL or mem.amap == NULL or mem.bmap == NULL
            or w.match_a == NULL or w.match_b == NULL):
        return NO_MEMORY
    for i in range(na):
        if count_b[ia[i]]:
            mem.ra[rn] = ia[i]
            mem.amap[rn] = i
            rn += 1
    for j in range(nb):
        if count_a[ib[j]]:
            mem.rb[rm] = ib[j]
            mem.bmap[rm] = j
            rm += 1
    rbudget = budget - (na - rn) - (nb - rm)
    dmax = (rbudget + 1) // 2
    if dmax > (rn + rm) // 2 + 1:
        dmax = (rn + rm) // 2 + 1
    dmax += 1
    w.off = dmax + 1
    w.V = <Py_ssize_t*>malloc((2 * dmax + 3) * sizeof(Py_ssize_t))
    w.U = <Py_ssize_t*>malloc((2 * dmax + 3) * sizeof(Py_ssize_t))
    if w.V == NULL or w.U == NULL:
        return NO_MEMORY
    w.A = mem.ra
    w.B = mem.rb
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
            changed_a[mem.amap[x] + 1] = 0
    for y in range(rm):
        if w.match_b[y]:
            changed_b[mem.bmap[y] + 1] = 0
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


cdef list block_list(const Py_ssize_t* blk, Py_ssize_t count):
    return [(blk[4 * k], blk[4 * k + 1], blk[4 * k + 2], blk[4 * k + 3]) for k in range(count)]


cdef int raise_status(int status) except -1:
    if status == NO_MEMORY:
        raise MemoryError()
    raise RuntimeError("toolmend: diff search lost its bound (internal error)")


# ---------------------------------------------------------------------------
# Sequences of lines (any hashable items): interned through a dict

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


cdef bint all_exact_str(list items):
    return all_exact_str_range(items, 0, PyList_GET_SIZE(items))


cdef bint all_exact_str_range(list items, Py_ssize_t lo, Py_ssize_t hi):
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if not PyUnicode_CheckExact(PyList_GET_ITEM(items, i)):
            return False
    return True


cdef inline bint str_equal(PyObject* x, PyObject* y) noexcept:
    """Equality of two exact str (canonical: equal means same kind and data)."""
    cdef Py_ssize_t n
    cdef int kind
    if x == y:
        return True
    n = PyUnicode_GET_LENGTH(x)
    kind = PyUnicode_KIND_P(x)
    if n != PyUnicode_GET_LENGTH(y) or kind != PyUnicode_KIND_P(y):
        return False
    return memcmp(PyUnicode_DATA_P(x), PyUnicode_DATA_P(y), n * kind) == 0


cdef inline uint64_t hash_bytes(const char* p, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = (<uint64_t>n) * 0x9E3779B97F4A7C15ULL
    cdef uint64_t word
    while n >= 8:
        memcpy(&word, p, 8)
        h = (((h << 5) | (h >> 59)) ^ word) * 0x517CC1B727220A95ULL
        p += 8
        n -= 8
    if n:
        word = 0
        memcpy(&word, p, n)
        h = (((h << 5) | (h >> 59)) ^ word) * 0x517CC1B727220A95ULL
    return h ^ (h >> 31)


cdef struct Interner:
    # Open addressing on a 64-bit hash of each line's buffer; equal content
    # (same kind, same bytes) is confirmed byte for byte. Ids are given in
    # order of first appearance, from 0.
    Py_ssize_t mask
    Py_ssize_t count
    int* table            # slot -> id + 1 (0: empty)
    uint64_t* hashes      # id -> hash
    const char** ptrs     # id -> first line's buffer
    Py_ssize_t* sizes     # id -> its size in bytes
    int* kinds            # id -> its storage kind


cdef int interner_init(Interner* t, Py_ssize_t total) noexcept nogil:
    """Room for ``total`` lines; -1 when out of memory (free it anyway)."""
    cdef Py_ssize_t cap = 16
    while cap < 2 * total:
        cap *= 2
    t.mask = cap - 1
    t.count = 0
    t.table = <int*>calloc(cap, sizeof(int))
    t.hashes = <uint64_t*>malloc((total + 1) * sizeof(uint64_t))
    t.ptrs = <const char**>malloc((total + 1) * sizeof(const char*))
    t.sizes = <Py_ssize_t*>malloc((total + 1) * sizeof(Py_ssize_t))
    t.kinds = <int*>malloc((total + 1) * sizeof(int))
    if (t.table == NULL or t.hashes == NULL or t.ptrs == NULL or t.sizes == NULL
            or t.kinds == NULL):
        return -1
    return 0


cdef void interner_free(Interner* t) noexcept nogil:
    free(t.table)
    free(t.hashes)
    free(t.ptrs)
    free(t.sizes)
    free(t.kinds)


cdef int interner_id(Interner* t, const char* ptr, Py_ssize_t nbytes, int kind) noexcept nogil:
    """The id of the line in ``ptr[:nbytes]`` (``kind`` bytes a character)."""
    cdef uint64_t h = hash_bytes(ptr, nbytes) + <uint64_t>kind
    cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>t.mask)
    cdef int found
    while True:
        found = t.table[slot]
        if found == 0:
            t.hashes[t.count] = h
            t.ptrs[t.count] = ptr
            t.sizes[t.count] = nbytes
            t.kinds[t.count] = kind
            t.count += 1
            t.table[slot] = <int>t.count
            return <int>(t.count - 1)
        found -= 1
        if (t.hashes[found] == h and t.sizes[found] == nbytes and t.kinds[found] == kind
                and memcmp(t.ptrs[found], ptr, nbytes) == 0):
            return found
        slot = (slot + 1) & t.mask


cdef Py_ssize_t intern_strs(list la, Py_ssize_t a0, Py_ssize_t a1, list lb, Py_ssize_t b0,
                            Py_ssize_t b1, int* ia, int* ib) noexcept:
    """``intern_lines`` for lists of exact str, on their buffers (the GIL is
    held: the lists are the caller's); -2 when an item is no str."""
    cdef Interner t
    cdef Py_ssize_t i, lo, hi, side, nids
    cdef list items
    cdef int* out
    cdef PyObject* item
    cdef int kind
    if interner_init(&t, (a1 - a0) + (b1 - b0)) < 0:
        interner_free(&t)
        return -1
    nids = 0
    for side in range(2):
        items = la if side == 0 else lb
        out = ia if side == 0 else ib
        lo = a0 if side == 0 else b0
        hi = a1 if side == 0 else b1
        for i in range(lo, hi):
            item = PyList_GET_ITEM(items, i)
            if not PyUnicode_CheckExact(item):
                nids = -2
                break
            kind = PyUnicode_KIND_P(item)
            out[i - lo] = interner_id(&t, <const char*>PyUnicode_DATA_P(item),
                                      PyUnicode_GET_LENGTH(item) * kind, kind)
        if nids == -2:
            break
    if nids == 0:
        nids = t.count
    interner_free(&t)
    return nids


cdef Py_ssize_t intern_lines(const Text* ta, Py_ssize_t a0, Py_ssize_t a1,
                             const Text* tb, Py_ssize_t b0, Py_ssize_t b1,
                             int* ia, int* ib) noexcept nogil:
    """Give equal lines equal ids; the number of ids, or -1."""
    cdef Interner t
    cdef Py_ssize_t i, start, lo, side, nids
    cdef const Text* txt
    cdef int* out
    if interner_init(&t, (a1 - a0) + (b1 - b0)) < 0:
        interner_free(&t)
        return -1
    for side in range(2):
        txt = ta if side == 0 else tb
        out = ia if side == 0 else ib
        lo = a0 if side == 0 else b0
        for i in range(lo, a1 if side == 0 else b1):
            start = txt.starts[i]
            out[i - lo] = interner_id(&t, txt.data + start * txt.kind,
                                      (txt.starts[i + 1] - start) * txt.kind, txt.kind)
    nids = t.count
    interner_free(&t)
    return nids


def diff_lines(a, b, Py_ssize_t budget):
    """Minimal line diff of ``a`` and ``b`` within ``budget`` changed items.

    Returns ``(blocks, exceeded)``; see ``toolmend._kernels._myers_py.diff_lines``.
    Lists of str are compared and hashed in their buffers; other items go
    through a dict.
    """
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    budget = min(budget, HUGE)
    # The loops hold borrowed references to the items, so they work on lists
    # nothing else can change meanwhile. Lists of str are used as they are:
    # comparing and hashing str runs no Python code, so with the GIL held no
    # other thread can touch them. Anything else is copied first.
    if not TOOLMEND_FREE_THREADED and type(a) is list and type(b) is list:
        result = diff_str_lists(<list>a, <list>b, budget)
        if result is not None:
            return result
    la = list(a)
    lb = list(b)
    return diff_lists(la, lb, budget, all_exact_str(la) and all_exact_str(lb))


cdef object diff_str_lists(list la, list lb, Py_ssize_t budget):
    """The diff of two lists of str, or None when an item is not a str."""
    return diff_lists(la, lb, budget, True)


cdef object diff_lists(list la, list lb, Py_ssize_t budget, bint strs):
    cdef Py_ssize_t n = PyList_GET_SIZE(la), m = PyList_GET_SIZE(lb)
    cdef Py_ssize_t lim = n if n < m else m
    cdef Py_ssize_t p = 0, s = 0, a_end, b_end, na, nb, count = 0
    cdef PyObject* x
    cdef PyObject* y
    if strs:
        while p < lim:
            x = PyList_GET_ITEM(la, p)
            y = PyList_GET_ITEM(lb, p)
            if not (PyUnicode_CheckExact(x) and PyUnicode_CheckExact(y)):
                return None
            if not str_equal(x, y):
                break
            p += 1
        while s < lim - p:
            x = PyList_GET_ITEM(la, n - 1 - s)
            y = PyList_GET_ITEM(lb, m - 1 - s)
            if not (PyUnicode_CheckExact(x) and PyUnicode_CheckExact(y)):
                return None
            if not str_equal(x, y):
                break
            s += 1
    else:
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
    # (In the str path the items are read before any Python object is made:
    # an allocation can run a collection, and a finalizer could change the
    # caller's list.)
    if na == 0 and nb == 0:
        return [], False
    if na == 0 or nb == 0:
        if strs and not (all_exact_str_range(la, p, a_end) and all_exact_str_range(lb, p, b_end)):
            return None
        return [(p, a_end, p, b_end)], na + nb > budget

    cdef int* ia = NULL
    cdef int* ib = NULL
    cdef unsigned char* changed_a = NULL
    cdef unsigned char* changed_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef dict ids
    cdef Py_ssize_t nids
    cdef int status
    try:
        ia = <int*>malloc(na * sizeof(int))
        ib = <int*>malloc(nb * sizeof(int))
        changed_a = <unsigned char*>malloc(na + 2)
        changed_b = <unsigned char*>malloc(nb + 2)
        blk = <Py_ssize_t*>malloc(4 * ((na if na < nb else nb) + 1) * sizeof(Py_ssize_t))
        if ia == NULL or ib == NULL or changed_a == NULL or changed_b == NULL or blk == NULL:
            raise MemoryError()
        if strs:
            nids = intern_strs(la, p, a_end, lb, p, b_end, ia, ib)
            if nids == -2:
                return None
            if nids < 0:
                raise MemoryError()
        else:
            ids = {}
            intern(la, p, a_end, ids, ia)
            intern(lb, p, b_end, ids, ib)
            nids = len(ids)
        with nogil:
            status = core(ia, na, ib, nb, nids, budget, changed_a, changed_b)
            if status == SOLVED:
                count = scan_blocks(changed_a, changed_b, na, nb, p, blk)
        if status == EXCEEDED:
            return [(p, a_end, p, b_end)], True
        if status != SOLVED:
            raise_status(status)
        if count < 0:
            raise RuntimeError("toolmend: diff alignment is inconsistent (internal error)")
        return block_list(blk, count), False
    finally:
        free(ia)
        free(ib)
        free(changed_a)
        free(changed_b)
        free(blk)


def extend_prefixed(list out, str prefix, list items, Py_ssize_t lo, Py_ssize_t hi):
    """``out.extend(prefix + item for item in items[lo:hi])``, building each
    str directly when the items are str (``prefix`` is one ASCII character).
    ``items`` must be a list no other code holds (the caller's own copy)."""
    cdef Py_ssize_t i, n
    cdef PyObject* item
    cdef int kind
    cdef object line
    cdef void* data
    cdef Py_UCS4 c
    if len(prefix) != 1 or ord(prefix) > 127:
        raise ValueError("prefix must be one ASCII character")
    c = ord(prefix)
    if lo < 0:
        lo = 0
    if hi > PyList_GET_SIZE(items):
        hi = PyList_GET_SIZE(items)
    for i in range(lo, hi):
        item = PyList_GET_ITEM(items, i)
        if not PyUnicode_CheckExact(item):
            PyList_Append(out, prefix + <object>item)
            continue
        n = PyUnicode_GET_LENGTH(item)
        kind = PyUnicode_KIND_P(item)
        line = PyUnicode_New(n + 1, PyUnicode_MAX_CHAR_VALUE(item))
        data = PyUnicode_DATA(line)
        PyUnicode_WRITE(kind, data, 0, c)
        memcpy(<char*>data + kind, PyUnicode_DATA_P(item), n * kind)
        PyList_Append(out, line)


# ---------------------------------------------------------------------------
# Texts: lines found, hashed and compared in the string's own buffer (no
# str object per line), and the unified diff written in C.

cdef struct Text:
    const char* data      # the characters, ``kind`` bytes each
    int kind
    Py_ssize_t length     # in characters
    Py_ssize_t* starts    # line i is [starts[i], starts[i + 1]), with its "\n"
    Py_ssize_t n          # number of lines
    bint noeol            # the last line has no "\n"


cdef int scan_lines(Text* t) noexcept nogil:
    """Fill ``t.starts`` (line i spans starts[i]..starts[i + 1]) and ``t.n``."""
    cdef Py_ssize_t length = t.length, cap = length // 24 + 64, k = 0, i
    cdef Py_ssize_t* starts = NULL
    cdef Py_ssize_t* grown
    cdef const unsigned short* d2
    cdef const Py_UCS4* d4
    while True:
        grown = <Py_ssize_t*>realloc(starts, (cap + 2) * sizeof(Py_ssize_t))
        if grown == NULL:
            free(starts)
            return -1
        starts = grown
        if t.kind == 1:
            k = toolmend_newlines1(<const unsigned char*>t.data, length, starts + 1, cap)
        else:
            k = 0
            d2 = <const unsigned short*>t.data
            d4 = <const Py_UCS4*>t.data
            for i in range(length):
                if (d2[i] if t.kind == 2 else d4[i]) == 10:
                    if k >= cap:
                        k = -1
                        break
                    k += 1
                    starts[k] = i + 1
        if k >= 0:
            break
        cap *= 2
    starts[0] = 0
    t.noeol = length > 0 and (k == 0 or starts[k] != length)
    if t.noeol:
        k += 1
        starts[k] = length
    t.starts = starts
    t.n = k
    return 0


cdef inline Py_UCS4 line_char(const Text* t, Py_ssize_t i) noexcept nogil:
    if t.kind == 1:
        return (<const unsigned char*>t.data)[i]
    if t.kind == 2:
        return (<const unsigned short*>t.data)[i]
    return (<const Py_UCS4*>t.data)[i]


cdef inline bint lines_equal(const Text* ta, Py_ssize_t i, const Text* tb, Py_ssize_t j) noexcept nogil:
    cdef Py_ssize_t sa = ta.starts[i], la = ta.starts[i + 1] - sa
    cdef Py_ssize_t sb = tb.starts[j]
    if la != tb.starts[j + 1] - sb:
        return False
    return memcmp(ta.data + sa * ta.kind, tb.data + sb * tb.kind, la * ta.kind) == 0


cdef struct Out:
    char* data            # characters of ``kind`` bytes each
    int kind
    Py_ssize_t len
    Py_ssize_t cap


cdef int out_reserve(Out* o, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t cap
    cdef char* grown
    if o.len + extra <= o.cap:
        return 0
    cap = o.cap * 2 if o.cap else 4096
    while cap < o.len + extra:
        cap *= 2
    grown = <char*>realloc(o.data, cap * o.kind)
    if grown == NULL:
        return -1
    o.data = grown
    o.cap = cap
    return 0


cdef inline void out_put(Out* o, Py_UCS4 c) noexcept nogil:
    """Room must be reserved."""
    if o.kind == 1:
        (<unsigned char*>o.data)[o.len] = <unsigned char>c
    elif o.kind == 2:
        (<unsigned short*>o.data)[o.len] = <unsigned short>c
    else:
        (<Py_UCS4*>o.data)[o.len] = c
    o.len += 1


cdef inline void out_ascii(Out* o, const char* s) noexcept nogil:
    """Room must be reserved."""
    while s[0]:
        out_put(o, <Py_UCS4>(<unsigned char>s[0]))
        s += 1


cdef inline void out_number(Out* o, Py_ssize_t v) noexcept nogil:
    cdef char digits[24]
    cdef int k = 0
    if v == 0:
        digits[0] = 48
        k = 1
    while v > 0:
        digits[k] = <char>(48 + v % 10)
        v //= 10
        k += 1
    while k:
        k -= 1
        out_put(o, <Py_UCS4>digits[k])


cdef inline void out_range(Out* o, Py_ssize_t start, Py_ssize_t count) noexcept nogil:
    if count == 1:
        out_number(o, start + 1)
        return
    out_number(o, start + 1 if count else start)
    out_put(o, 44)  # ","
    out_number(o, count)


cdef int out_chars(Out* o, const char* data, int kind, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """Copy characters start..end of a buffer of ``kind`` (never wider than
    the output's)."""
    cdef Py_ssize_t i
    if out_reserve(o, end - start):
        return -1
    if kind == o.kind:
        memcpy(o.data + o.len * kind, data + start * kind, (end - start) * kind)
        o.len += end - start
    elif kind == 1:
        for i in range(start, end):
            out_put(o, (<const unsigned char*>data)[i])
    else:
        for i in range(start, end):
            out_put(o, (<const unsigned short*>data)[i])
    return 0


cdef const char* NO_NEWLINE = "\n\\ No newline at end of file\n"


cdef int out_lines(Out* o, const Text* t, Py_ssize_t lo, Py_ssize_t hi, Py_UCS4 prefix) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if out_reserve(o, 1):
            return -1
        out_put(o, prefix)
        if out_chars(o, t.data, t.kind, t.starts[i], t.starts[i + 1]):
            return -1
        if t.noeol and i == t.n - 1:
            if out_reserve(o, 40):
                return -1
            out_ascii(o, NO_NEWLINE)
    return 0


cdef struct Label:
    const char* data
    int kind
    Py_ssize_t length


cdef int format_unified(Out* o, const Text* ta, const Text* tb, const Py_ssize_t* blk,
                        Py_ssize_t count, Py_ssize_t context, const Label* la,
                        const Label* lb) noexcept nogil:
    """The unified diff of the blocks (the loop of ``_myers_py.unified_text``)."""
    cdef Py_ssize_t k = 0, j, lead, tail, a_lo, a_hi, b_lo, b_hi, i, g
    if out_reserve(o, 16):
        return -1
    out_ascii(o, "--- ")
    if out_chars(o, la.data, la.kind, 0, la.length) or out_reserve(o, 16):
        return -1
    out_ascii(o, "\n+++ ")
    if out_chars(o, lb.data, lb.kind, 0, lb.length) or out_reserve(o, 1):
        return -1
    out_ascii(o, "\n")
    while k < count:
        j = k
        while j + 1 < count and blk[4 * (j + 1)] - blk[4 * j + 1] <= 2 * context:
            j += 1
        lead = blk[4 * k] if blk[4 * k] < context else context
        tail = ta.n - blk[4 * j + 1]
        if tail > context:
            tail = context
        a_lo = blk[4 * k] - lead
        a_hi = blk[4 * j + 1] + tail
        b_lo = blk[4 * k + 2] - lead
        b_hi = blk[4 * j + 3] + tail
        if out_reserve(o, 120):
            return -1
        out_ascii(o, "@@ -")
        out_range(o, a_lo, a_hi - a_lo)
        out_ascii(o, " +")
        out_range(o, b_lo, b_hi - b_lo)
        out_ascii(o, " @@\n")
        i = a_lo
        for g in range(k, j + 1):
            if (out_lines(o, ta, i, blk[4 * g], 32)
                    or out_lines(o, ta, blk[4 * g], blk[4 * g + 1], 45)
                    or out_lines(o, tb, blk[4 * g + 2], blk[4 * g + 3], 43)):
                return -1
            i = blk[4 * g + 1]
        if out_lines(o, ta, i, a_hi, 32):
            return -1
        k = j + 1
    return 0


cdef int diff_texts(Text* ta, Text* tb, Py_ssize_t budget, Py_ssize_t** blk_out,
                    Py_ssize_t* count_out, bint* exceeded) noexcept nogil:
    """Lines of both texts, then the blocks (4 numbers each, malloc'd)."""
    cdef Py_ssize_t p = 0, s = 0, lim, na, nb, nids, count = 0
    cdef int* ia = NULL
    cdef int* ib = NULL
    cdef unsigned char* changed_a = NULL
    cdef unsigned char* changed_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef int status = NO_MEMORY
    exceeded[0] = False
    if scan_lines(ta) or scan_lines(tb):
        return NO_MEMORY
    lim = ta.n if ta.n < tb.n else tb.n
    while p < lim and lines_equal(ta, p, tb, p):
        p += 1
    while s < lim - p and lines_equal(ta, ta.n - 1 - s, tb, tb.n - 1 - s):
        s += 1
    na = ta.n - s - p
    nb = tb.n - s - p
    blk = <Py_ssize_t*>malloc(4 * ((na if na < nb else nb) + 1) * sizeof(Py_ssize_t))
    if blk == NULL:
        return NO_MEMORY
    blk_out[0] = blk
    if na == 0 and nb == 0:
        count_out[0] = 0
        return SOLVED
    blk[0] = p
    blk[1] = p + na
    blk[2] = p
    blk[3] = p + nb
    count_out[0] = 1
    if na == 0 or nb == 0:
        exceeded[0] = na + nb > budget
        return SOLVED
    ia = <int*>malloc(na * sizeof(int))
    ib = <int*>malloc(nb * sizeof(int))
    changed_a = <unsigned char*>malloc(na + 2)
    changed_b = <unsigned char*>malloc(nb + 2)
    if ia != NULL and ib != NULL and changed_a != NULL and changed_b != NULL:
        nids = intern_lines(ta, p, p + na, tb, p, p + nb, ia, ib)
        if nids >= 0:
            status = core(ia, na, ib, nb, nids, budget, changed_a, changed_b)
    if status == EXCEEDED:
        exceeded[0] = True
        status = SOLVED
    elif status == SOLVED:
        count = scan_blocks(changed_a, changed_b, na, nb, p, blk)
        if count < 0:
            status = LOST_BOUND
        else:
            count_out[0] = count
    free(ia)
    free(ib)
    free(changed_a)
    free(changed_b)
    return status


cdef void label_of(Label* label, str text):
    label.data = <const char*>PyUnicode_DATA(text)
    label.kind = PyUnicode_KIND(text)
    label.length = len(text)


def unified_text(str a, str b, Py_ssize_t context, str a_label, str b_label, Py_ssize_t budget):
    """The unified diff of two texts: ``(text, blocks, exceeded)``.

    Lines end at "\\n" only; see ``toolmend._kernels._myers_py.unified_text``.
    """
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    if context < 0:
        raise ValueError(f"context must be at least 0, not {context}")
    # Past any line count these change nothing; capped, 2 * x cannot overflow.
    budget = min(budget, HUGE)
    context = min(context, HUGE)
    cdef Text ta
    cdef Text tb
    cdef Label la
    cdef Label lb
    cdef Out out
    cdef Py_UCS4* wide_a = NULL
    cdef Py_UCS4* wide_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef Py_ssize_t count = 0
    cdef bint exceeded = False
    cdef int status = SOLVED
    memset(&ta, 0, sizeof(Text))
    memset(&tb, 0, sizeof(Text))
    memset(&out, 0, sizeof(Out))
    ta.length = len(a)
    tb.length = len(b)
    label_of(&la, a_label)
    label_of(&lb, b_label)
    try:
        if PyUnicode_KIND(a) == PyUnicode_KIND(b):
            ta.data = <const char*>PyUnicode_DATA(a)
            tb.data = <const char*>PyUnicode_DATA(b)
            ta.kind = tb.kind = PyUnicode_KIND(a)
        else:  # compare lines in one width
            wide_a = PyUnicode_AsUCS4Copy(a)
            wide_b = PyUnicode_AsUCS4Copy(b)
            ta.data = <const char*>wide_a
            tb.data = <const char*>wide_b
            ta.kind = tb.kind = 4
        out.kind = ta.kind
        if la.kind > out.kind:
            out.kind = la.kind
        if lb.kind > out.kind:
            out.kind = lb.kind
        with nogil:
            status = diff_texts(&ta, &tb, budget, &blk, &count, &exceeded)
            if status == SOLVED and count:
                if format_unified(&out, &ta, &tb, blk, count, context, &la, &lb):
                    status = NO_MEMORY
        if status != SOLVED:
            raise_status(status)
        text = PyUnicode_FromKindAndData(out.kind, out.data, out.len) if count else ""
        return text, block_list(blk, count), exceeded
    finally:
        free(ta.starts)
        free(tb.starts)
        free(blk)
        free(out.data)
        if wide_a != NULL:
            PyMem_Free(wide_a)
        if wide_b != NULL:
            PyMem_Free(wide_b)
