# Texts, included by _myers.pyx: lines found, hashed and compared in the
# string's own buffer (no str object per line), and the unified diff written
# in C (the pure twin's ``unified_text`` over ``_hunks.py``).

cdef struct Text:
    const char* data      # the characters, ``kind`` bytes each
    int kind
    Py_ssize_t length     # in characters
    Py_ssize_t* starts    # line i is [starts[i - first], starts[i - first + 1]), with its "\n"
    Py_ssize_t first      # the line of starts[0]: only lines a diff can show have starts
    Py_ssize_t n          # number of lines
    bint noeol            # the last line has no "\n"


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64) || \\
        (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #include <emmintrin.h>
    #define TOOLMEND_SSE2 1
    #else
    #define TOOLMEND_SSE2 0
    #endif
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static __inline int toolmend_ctz32(uint32_t v) {
        unsigned long r;
        _BitScanForward(&r, v);
        return (int)r;
    }
    #else
    #define toolmend_ctz32(v) __builtin_ctz(v)
    #endif

    #define TOOLMEND_LO7 0x7F7F7F7F7F7F7F7FULL
    #define TOOLMEND_NL8 0x0A0A0A0A0A0A0A0AULL
    /* High bit of each byte of w that is "\\n" (exact, no carries across bytes). */
    static inline uint64_t toolmend_nl_bits(uint64_t w) {
        uint64_t x = w ^ TOOLMEND_NL8;
        return ~(((x & TOOLMEND_LO7) + TOOLMEND_LO7) | x | TOOLMEND_LO7);
    }
    static inline Py_ssize_t toolmend_bits8(uint64_t t) {
        return (Py_ssize_t)(((t >> 7) * 0x0101010101010101ULL) >> 56);
    }

    /* Offsets just past each newline in d[i..n) of a one-byte-per-character
       buffer, written to out[0..]; returns how many, or -1 when out is too
       small. 32 bytes a step with SSE2, else eight (a zero-byte test). */
    static Py_ssize_t toolmend_newlines1(const unsigned char* d, Py_ssize_t i, Py_ssize_t n,
                                         Py_ssize_t* out, Py_ssize_t cap) {
        Py_ssize_t k = 0;
    #if TOOLMEND_SSE2
        const __m128i nl = _mm_set1_epi8(10);
        for (; i + 32 <= n; i += 32) {
            uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                             _mm_loadu_si128((const __m128i*)(d + i)), nl))
                       | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                             _mm_loadu_si128((const __m128i*)(d + i + 16)), nl)) << 16;
            if (!m) continue;
            if (k + 32 > cap) return -1;
            do {
                out[k++] = i + toolmend_ctz32(m) + 1;
                m &= m - 1;
            } while (m);
        }
    #elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \\
        (defined(__GNUC__) || defined(__clang__))
        for (; i + 8 <= n; i += 8) {
            uint64_t w, t;
            memcpy(&w, d + i, 8);
            t = toolmend_nl_bits(w);
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

    /* Length of the common start of a[0..n) and b[0..n); *lines gets the
       newlines in it. One pass: the compare and the count share the loads. */
    static Py_ssize_t toolmend_prefix1(const unsigned char* a, const unsigned char* b,
                                       Py_ssize_t n, Py_ssize_t* lines) {
        Py_ssize_t i = 0, count = 0;
    #if TOOLMEND_SSE2
        const __m128i nl = _mm_set1_epi8(10), zero = _mm_setzero_si128();
        while (i + 16 <= n) {
            /* byte lanes count to at most 255 before they are summed */
            Py_ssize_t stop = n - i > 16 * 255 ? i + 16 * 255 : n;
            __m128i acc = zero;
            for (; i + 16 <= stop; i += 16) {
                __m128i va = _mm_loadu_si128((const __m128i*)(a + i));
                __m128i vb = _mm_loadu_si128((const __m128i*)(b + i));
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb)) != 0xFFFF) break;
                acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(va, nl));
            }
            acc = _mm_sad_epu8(acc, zero);
            count += _mm_cvtsi128_si32(acc) + _mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
            if (i + 16 <= stop) break;
        }
    #endif
        for (; i + 8 <= n; i += 8) {
            uint64_t wa, wb;
            memcpy(&wa, a + i, 8);
            memcpy(&wb, b + i, 8);
            if (wa != wb) break;
            count += toolmend_bits8(toolmend_nl_bits(wa));
        }
        for (; i < n && a[i] == b[i]; i++)
            count += a[i] == 10;
        *lines = count;
        return i;
    }

    /* Length of the common end of the n bytes before a_end and b_end;
       *lines gets the newlines in it. */
    static Py_ssize_t toolmend_suffix1(const unsigned char* a_end, const unsigned char* b_end,
                                       Py_ssize_t n, Py_ssize_t* lines) {
        Py_ssize_t i = 0, count = 0;
    #if TOOLMEND_SSE2
        const __m128i nl = _mm_set1_epi8(10), zero = _mm_setzero_si128();
        while (i + 16 <= n) {
            Py_ssize_t stop = n - i > 16 * 255 ? i + 16 * 255 : n;
            __m128i acc = zero;
            for (; i + 16 <= stop; i += 16) {
                __m128i va = _mm_loadu_si128((const __m128i*)(a_end - i - 16));
                __m128i vb = _mm_loadu_si128((const __m128i*)(b_end - i - 16));
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb)) != 0xFFFF) break;
                acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(va, nl));
            }
            acc = _mm_sad_epu8(acc, zero);
            count += _mm_cvtsi128_si32(acc) + _mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
            if (i + 16 <= stop) break;
        }
    #endif
        for (; i + 8 <= n; i += 8) {
            uint64_t wa, wb;
            memcpy(&wa, a_end - i - 8, 8);
            memcpy(&wb, b_end - i - 8, 8);
            if (wa != wb) break;
            count += toolmend_bits8(toolmend_nl_bits(wa));
        }
        for (; i < n && a_end[-1 - i] == b_end[-1 - i]; i++)
            count += a_end[-1 - i] == 10;
        *lines = count;
        return i;
    }
    """
    Py_ssize_t toolmend_newlines1(const unsigned char* d, Py_ssize_t i, Py_ssize_t n,
                                  Py_ssize_t* out, Py_ssize_t cap) nogil
    Py_ssize_t toolmend_prefix1(const unsigned char* a, const unsigned char* b, Py_ssize_t n,
                                Py_ssize_t* lines) nogil
    Py_ssize_t toolmend_suffix1(const unsigned char* a_end, const unsigned char* b_end,
                                Py_ssize_t n, Py_ssize_t* lines) nogil


cdef inline Py_UCS4 char_at(const Text* t, Py_ssize_t i) noexcept nogil:
    if t.kind == 1:
        return (<const unsigned char*>t.data)[i]
    if t.kind == 2:
        return (<const unsigned short*>t.data)[i]
    return (<const Py_UCS4*>t.data)[i]


cdef inline Py_ssize_t line_start(const Text* t, Py_ssize_t i) noexcept nogil:
    return t.starts[i - t.first]


cdef Py_ssize_t common_prefix(const Text* ta, const Text* tb, Py_ssize_t lim,
                              Py_ssize_t* newlines) noexcept nogil:
    """Characters both texts start with (at most ``lim``), and the newlines among them."""
    cdef Py_ssize_t i = 0, count = 0
    if ta.kind == 1:
        return toolmend_prefix1(<const unsigned char*>ta.data, <const unsigned char*>tb.data,
                                lim, newlines)
    while i < lim and char_at(ta, i) == char_at(tb, i):
        count += char_at(ta, i) == 10
        i += 1
    newlines[0] = count
    return i


cdef Py_ssize_t common_suffix(const Text* ta, const Text* tb, Py_ssize_t lim,
                              Py_ssize_t* newlines) noexcept nogil:
    """Characters both texts end with (at most ``lim``), and the newlines among them."""
    cdef Py_ssize_t i = 0, count = 0, ea = ta.length - 1, eb = tb.length - 1
    if ta.kind == 1:
        return toolmend_suffix1(<const unsigned char*>ta.data + ta.length,
                                <const unsigned char*>tb.data + tb.length, lim, newlines)
    while i < lim and char_at(ta, ea - i) == char_at(tb, eb - i):
        count += char_at(ta, ea - i) == 10
        i += 1
    newlines[0] = count
    return i


cdef inline bint at_line_start(const Text* t, Py_ssize_t i) noexcept nogil:
    return i == 0 or char_at(t, i - 1) == 10


cdef Py_ssize_t newlines_in(const Text* t, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t* out,
                            Py_ssize_t cap) noexcept nogil:
    """Offsets past the newlines in [lo, hi) written to ``out``; how many, or
    -1 when more than ``cap``."""
    cdef Py_ssize_t k = 0, i
    if t.kind == 1:
        return toolmend_newlines1(<const unsigned char*>t.data, lo, hi, out, cap)
    for i in range(lo, hi):
        if char_at(t, i) == 10:
            if k >= cap:
                return -1
            out[k] = i + 1
            k += 1
    return k


cdef int scan_window(Text* t, Py_ssize_t p, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t s,
                     Py_ssize_t context) noexcept nogil:
    """Fill ``t.starts``, ``t.first`` and ``t.n`` for a text of ``p`` equal
    lines, then the lines in [lo, hi), then ``s`` equal lines: the starts of
    the middle lines and of the ``context`` lines either side, all a diff
    shows (the equal lines are only counted)."""
    cdef Py_ssize_t before = p if p < context else context
    cdef Py_ssize_t after = s if s < context else context
    cdef Py_ssize_t cap = (hi - lo) // 24 + 64, k, q, i
    cdef Py_ssize_t* starts = NULL
    cdef Py_ssize_t* grown
    while True:
        grown = <Py_ssize_t*>realloc(starts, (before + cap + after + 2) * sizeof(Py_ssize_t))
        if grown == NULL:
            free(starts)
            return -1
        starts = grown
        k = newlines_in(t, lo, hi, starts + before + 1, cap)
        if k >= 0:
            break
        cap *= 2
    if hi == t.length and t.noeol and hi > lo:
        k += 1
        starts[before + k] = hi
    starts[before] = lo
    i = lo
    for q in range(before - 1, -1, -1):
        i -= 1
        while i > 0 and char_at(t, i - 1) != 10:
            i -= 1
        starts[q] = i
    i = starts[before + k]
    for q in range(after):
        while i < t.length and char_at(t, i) != 10:
            i += 1
        if i < t.length:
            i += 1
        starts[before + k + 1 + q] = i
    t.starts = starts
    t.first = p - before
    t.n = p + k + s
    return 0


cdef int find_lines(Text* ta, Text* tb, Py_ssize_t context, Py_ssize_t* p_out,
                    Py_ssize_t* s_out) noexcept nogil:
    """Count the equal lines at the start (``p``) and end (``s``) of both
    texts in their characters, then scan the lines between (``scan_window``).
    The same ``p`` and ``s`` as comparing line by line: a line is equal when
    its characters and its end are, and a line ends at each newline."""
    cdef Py_ssize_t lim = ta.length if ta.length < tb.length else tb.length
    cdef Py_ssize_t p, s = 0, c, pos, n_a, q_a, i
    ta.noeol = ta.length > 0 and char_at(ta, ta.length - 1) != 10
    tb.noeol = tb.length > 0 and char_at(tb, tb.length - 1) != 10
    # p: the lines ending (with their newline) inside the common start
    pos = common_prefix(ta, tb, lim, &p)
    while pos > 0 and char_at(ta, pos - 1) != 10:
        pos -= 1
    # s: the lines starting inside the common end (which stops short of the
    # start's lines); its first character starts one only when it does in both
    c = common_suffix(ta, tb, lim - pos, &n_a)
    q_a = ta.length
    if c:
        s = n_a - (not ta.noeol)
        i = ta.length - c
        if at_line_start(ta, i) and at_line_start(tb, tb.length - c):
            s += 1
            q_a = i
        elif s:
            while char_at(ta, i) != 10:
                i += 1
            q_a = i + 1
    if (scan_window(ta, p, pos, q_a, s, context)
            or scan_window(tb, p, pos, tb.length - (ta.length - q_a), s, context)):
        return -1
    p_out[0] = p
    s_out[0] = s
    return 0


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
            start = line_start(txt, i)
            out[i - lo] = interner_id(&t, txt.data + start * txt.kind,
                                      (line_start(txt, i + 1) - start) * txt.kind, txt.kind)
    nids = t.count
    interner_free(&t)
    return nids


cdef struct Out:
    char* data            # characters of ``kind`` bytes each
    int kind
    Py_ssize_t len
    Py_ssize_t cap        # exact: ``unified_size`` counts the characters first


cdef inline int out_reserve(Out* o, Py_ssize_t extra) noexcept nogil:
    """-1 when the counted size was short (a bug): the buffer never grows."""
    return 0 if o.len + extra <= o.cap else -1


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


cdef inline int digit_count(Py_ssize_t v) noexcept nogil:
    cdef int k = 1
    while v >= 10:
        v //= 10
        k += 1
    return k


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


cdef inline Py_ssize_t range_size(Py_ssize_t start, Py_ssize_t count) noexcept nogil:
    if count == 1:
        return digit_count(start + 1)
    return digit_count(start + 1 if count else start) + 1 + digit_count(count)


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


cdef inline Py_ssize_t lines_size(const Text* t, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Characters ``out_lines`` writes."""
    if lo >= hi:
        return 0
    return ((hi - lo) + line_start(t, hi) - line_start(t, lo)
            + (<Py_ssize_t>strlen(NO_NEWLINE) if t.noeol and hi == t.n else 0))


cdef void copy_lines1(unsigned char* d, const Text* t, Py_ssize_t lo, Py_ssize_t hi,
                      unsigned char prefix) noexcept nogil:
    """``out_lines`` between one-byte buffers: each line its own copy."""
    cdef const unsigned char* src = <const unsigned char*>t.data
    cdef Py_ssize_t i, start = line_start(t, lo), end
    for i in range(lo, hi):
        end = line_start(t, i + 1)
        d[0] = prefix
        memcpy(d + 1, src + start, end - start)
        d += 1 + end - start
        start = end


cdef int out_lines(Out* o, const Text* t, Py_ssize_t lo, Py_ssize_t hi, Py_UCS4 prefix) noexcept nogil:
    cdef Py_ssize_t i
    if lo >= hi:
        return 0
    if o.kind == 1 and t.kind == 1:
        if out_reserve(o, lines_size(t, lo, hi)):
            return -1
        copy_lines1(<unsigned char*>o.data + o.len, t, lo, hi, <unsigned char>prefix)
        o.len += (hi - lo) + line_start(t, hi) - line_start(t, lo)
        if t.noeol and hi == t.n:
            out_ascii(o, NO_NEWLINE)
        return 0
    for i in range(lo, hi):
        if out_reserve(o, 1):
            return -1
        out_put(o, prefix)
        if out_chars(o, t.data, t.kind, line_start(t, i), line_start(t, i + 1)):
            return -1
        if t.noeol and i == t.n - 1:
            if out_reserve(o, strlen(NO_NEWLINE)):
                return -1
            out_ascii(o, NO_NEWLINE)
    return 0


cdef struct Label:
    const char* data
    int kind
    Py_ssize_t length


cdef struct Hunk:
    Py_ssize_t last       # its last block (the first is the one asked for)
    Py_ssize_t a_lo
    Py_ssize_t a_hi
    Py_ssize_t b_lo
    Py_ssize_t b_hi


cdef void hunk_of(Hunk* h, const Text* ta, const Py_ssize_t* blk, Py_ssize_t count,
                  Py_ssize_t k, Py_ssize_t context) noexcept nogil:
    """The hunk from block ``k``: the next blocks at most ``2 * context``
    lines apart, and ``context`` lines either side."""
    cdef Py_ssize_t j = k, lead, tail
    while j + 1 < count and blk[4 * (j + 1)] - blk[4 * j + 1] <= 2 * context:
        j += 1
    lead = blk[4 * k] if blk[4 * k] < context else context
    tail = ta.n - blk[4 * j + 1]
    if tail > context:
        tail = context
    h.last = j
    h.a_lo = blk[4 * k] - lead
    h.a_hi = blk[4 * j + 1] + tail
    h.b_lo = blk[4 * k + 2] - lead
    h.b_hi = blk[4 * j + 3] + tail


cdef Py_ssize_t unified_size(const Text* ta, const Text* tb, const Py_ssize_t* blk,
                             Py_ssize_t count, Py_ssize_t context, const Label* la,
                             const Label* lb) noexcept nogil:
    """Characters ``format_unified`` writes."""
    cdef Py_ssize_t k = 0, g, i, size = 10 + la.length + lb.length
    cdef Hunk h
    while k < count:
        hunk_of(&h, ta, blk, count, k, context)
        size += 10 + range_size(h.a_lo, h.a_hi - h.a_lo) + range_size(h.b_lo, h.b_hi - h.b_lo)
        i = h.a_lo
        for g in range(k, h.last + 1):
            size += (lines_size(ta, i, blk[4 * g + 1])
                     + lines_size(tb, blk[4 * g + 2], blk[4 * g + 3]))
            i = blk[4 * g + 1]
        size += lines_size(ta, i, h.a_hi)
        k = h.last + 1
    return size


cdef int format_unified(Out* o, const Text* ta, const Text* tb, const Py_ssize_t* blk,
                        Py_ssize_t count, Py_ssize_t context, const Label* la,
                        const Label* lb) noexcept nogil:
    """The unified diff of the blocks (the loop of ``_myers_py.unified_text``)."""
    cdef Py_ssize_t k = 0, i, g
    cdef Hunk h
    if out_reserve(o, 4):
        return -1
    out_ascii(o, "--- ")
    if out_chars(o, la.data, la.kind, 0, la.length) or out_reserve(o, 5):
        return -1
    out_ascii(o, "\n+++ ")
    if out_chars(o, lb.data, lb.kind, 0, lb.length) or out_reserve(o, 1):
        return -1
    out_ascii(o, "\n")
    while k < count:
        hunk_of(&h, ta, blk, count, k, context)
        if out_reserve(o, 10 + range_size(h.a_lo, h.a_hi - h.a_lo)
                       + range_size(h.b_lo, h.b_hi - h.b_lo)):
            return -1
        out_ascii(o, "@@ -")
        out_range(o, h.a_lo, h.a_hi - h.a_lo)
        out_ascii(o, " +")
        out_range(o, h.b_lo, h.b_hi - h.b_lo)
        out_ascii(o, " @@\n")
        i = h.a_lo
        for g in range(k, h.last + 1):
            if (out_lines(o, ta, i, blk[4 * g], 32)
                    or out_lines(o, ta, blk[4 * g], blk[4 * g + 1], 45)
                    or out_lines(o, tb, blk[4 * g + 2], blk[4 * g + 3], 43)):
                return -1
            i = blk[4 * g + 1]
        if out_lines(o, ta, i, h.a_hi, 32):
            return -1
        k = h.last + 1
    return 0


cdef int diff_texts(Text* ta, Text* tb, Py_ssize_t budget, Py_ssize_t context,
                    Py_ssize_t** blk_out, Py_ssize_t* count_out, bint* exceeded) noexcept nogil:
    """Lines of both texts, then the blocks (4 numbers each, malloc'd); only
    the lines within ``context`` of a block get their starts."""
    cdef Py_ssize_t p = 0, s = 0, na, nb, nids, count = 0
    cdef int* ia = NULL
    cdef int* ib = NULL
    cdef unsigned char* changed_a = NULL
    cdef unsigned char* changed_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef int status = NO_MEMORY
    exceeded[0] = False
    if find_lines(ta, tb, context, &p, &s):
        return NO_MEMORY
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
    ia = <int*>malloc((na + nb) * sizeof(int) + na + nb + 4)  # with the flags
    if ia != NULL:
        ib = ia + na
        changed_a = <unsigned char*>(ib + nb)
        changed_b = changed_a + na + 2
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
    return status


cdef void label_of(Label* label, str text):
    label.data = <const char*>PyUnicode_DATA(text)
    label.kind = PyUnicode_KIND(text)
    label.length = len(text)
