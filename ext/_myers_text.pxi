# Texts, included by _myers.pyx: lines found, hashed and compared in the
# string's own buffer (no str object per line), and the unified diff written
# in C (the pure twin's ``unified_text`` over ``_hunks.py``).

cdef struct Text:
    const char* data      # the characters, ``kind`` bytes each
    int kind
    Py_ssize_t length     # in characters
    Py_ssize_t* starts    # line i is [starts[i], starts[i + 1]), with its "\n"
    Py_ssize_t n          # number of lines
    bint noeol            # the last line has no "\n"


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


cdef inline bint lines_equal(const Text* ta, Py_ssize_t i, const Text* tb, Py_ssize_t j) noexcept nogil:
    cdef Py_ssize_t sa = ta.starts[i], la = ta.starts[i + 1] - sa
    cdef Py_ssize_t sb = tb.starts[j]
    if la != tb.starts[j + 1] - sb:
        return False
    return memcmp(ta.data + sa * ta.kind, tb.data + sb * tb.kind, la * ta.kind) == 0


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
