# UTF-8 bytes for the @json scanner (_jsonscan): validation of UTF-8 JSON
# text and the word-at-a-time skips that make its walks fast. Header-only,
# like _jsongrammar (whose grammar it follows: numbers and literals come from
# there; strings and whitespace are re-done here for bytes).
#
# Word at a time: eight bytes are loaded into one 64-bit integer and tested
# together ("SWAR"): a mask has the high bit of each byte that needs a look
# (a quote, a backslash, a control character, a bracket, a non-ASCII byte),
# and runs without one are skipped eight bytes at a time. The first flagged
# byte of a mask is exact; later flags may be false alarms, which the byte
# loop that follows sorts out.
from libc.stdint cimport uint64_t
from _jsongrammar cimport *

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    #endif
    #define TM_ONES 0x0101010101010101ULL
    #define TM_HIGH 0x8080808080808080ULL
    static inline uint64_t tm_load64(const unsigned char* p) {
        uint64_t w; memcpy(&w, p, 8); return w;
    }
    /* high bit of each byte that is zero (exact for the first one) */
    static inline uint64_t tm_zero(uint64_t v) { return (v - TM_ONES) & ~v & TM_HIGH; }
    /* bytes that end or interrupt a run of plain string content */
    static inline uint64_t tm_string_stops(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * '"')) | tm_zero(w ^ (TM_ONES * '\\\\'))
             | ((w - TM_ONES * 0x20) & ~w & TM_HIGH) | (w & TM_HIGH);
    }
    /* the quote and the backslash (valid text: no other byte ends a string) */
    static inline uint64_t tm_quote_stops(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * '"')) | tm_zero(w ^ (TM_ONES * '\\\\'));
    }
    /* a quote or a bracket ([ ] { }; Y y _ DEL raise false alarms) */
    static inline uint64_t tm_struct_stops(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * '"'))
             | tm_zero(((w | (TM_ONES * 0x20)) ^ (TM_ONES * 0x7B)) & (TM_ONES * 0xF9));
    }
    /* offset of the first flagged byte of a nonzero mask (0 when the byte
       order does not allow knowing it: the byte loop then starts there) */
    static inline int tm_first(uint64_t m) {
    #if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
        unsigned long i; _BitScanForward64(&i, m); return (int)(i >> 3);
    #elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return __builtin_ctzll(m) >> 3;
    #else
        (void)m; return 0;
    #endif
    }
    """
    uint64_t tm_load64(const unsigned char* p) noexcept nogil
    uint64_t tm_string_stops(uint64_t w) noexcept nogil
    uint64_t tm_quote_stops(uint64_t w) noexcept nogil
    uint64_t tm_struct_stops(uint64_t w) noexcept nogil
    int tm_first(uint64_t m) noexcept nogil

cdef enum:
    C_UTF8 = 11       # bytes only: the UTF-8 sequence that starts here is invalid


cdef inline Py_ssize_t utf8_seq(unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    """Length of the valid UTF-8 sequence whose lead byte (>= 0x80) is at i,
    or -1: overlong forms, surrogates and code points past U+10FFFF are
    invalid, as for Python's decoder."""
    cdef unsigned char c = s[i]
    cdef unsigned char c1, lo = 0x80, hi = 0xBF
    if c < 0xC2:
        return -1
    if c < 0xE0:
        if i + 1 < end and (s[i + 1] & 0xC0) == 0x80:
            return 2
        return -1
    if c < 0xF0:
        if i + 2 >= end:
            return -1
        if c == 0xE0:
            lo = 0xA0
        elif c == 0xED:
            hi = 0x9F
        c1 = s[i + 1]
        if c1 < lo or c1 > hi or (s[i + 2] & 0xC0) != 0x80:
            return -1
        return 3
    if c < 0xF5:
        if i + 3 >= end:
            return -1
        if c == 0xF0:
            lo = 0x90
        elif c == 0xF4:
            hi = 0x8F
        c1 = s[i + 1]
        if c1 < lo or c1 > hi or (s[i + 2] & 0xC0) != 0x80 or (s[i + 3] & 0xC0) != 0x80:
            return -1
        return 4
    return -1


cdef inline Py_ssize_t bskip_ws(unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    """skip_ws, with runs of spaces (indentation) eight at a time."""
    while i < end and is_ws(s[i]):
        i += 1
        while i + 8 <= end and tm_load64(s + i) == 0x2020202020202020ULL:
            i += 8
    return i


cdef inline Py_ssize_t bstring_end(unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """i at the opening quote of a valid string: the index past its end
    (never past n, whatever the bytes)."""
    cdef uint64_t m
    i += 1
    while True:
        while i + 8 <= n:
            m = tm_quote_stops(tm_load64(s + i))
            if m:
                i += tm_first(m)
                break
            i += 8
        if i >= n:
            return n
        if s[i] == c'"':
            return i + 1
        if s[i] == c'\\':
            i += 2
        else:
            i += 1


cdef inline Py_ssize_t bcheck_string(unsigned char* s, Py_ssize_t i, Py_ssize_t end,
                                     ScanState* st) noexcept nogil:
    """check_string for UTF-8 bytes: i is at the opening quote; the index
    past the closing one, or -1 (C_UTF8 at the lead byte of an invalid
    sequence)."""
    cdef Py_ssize_t j = i + 1, r
    cdef uint64_t m
    cdef unsigned char c
    cdef int k
    while True:
        while j + 8 <= end:
            m = tm_string_stops(tm_load64(s + j))
            if m:
                j += tm_first(m)
                break
            j += 8
        if j >= end:
            return fail(st, C_STRING, i)
        c = s[j]
        if c == c'"':
            return j + 1
        if c == c'\\':
            if j + 1 >= end:
                return fail(st, C_STRING, i)
            c = s[j + 1]
            if c == c'u':
                for k in range(2, 6):
                    if j + k >= end or not is_hex(s[j + k]):
                        return fail(st, C_ESCAPE, j)
                j += 6
            elif (c == c'"' or c == c'\\' or c == c'/' or c == c'b' or c == c'f' or c == c'n'
                  or c == c'r' or c == c't'):
                j += 2
            else:
                return fail(st, C_ESCAPE, j)
        elif c < 0x20:
            return fail(st, C_CONTROL, j)
        elif c >= 0x80:
            while j < end and s[j] >= 0x80:
                r = utf8_seq(s, j, end)
                if r < 0:
                    return fail(st, C_UTF8, j)
                j += r
        else:
            j += 1


cdef enum:
    INDEX_SPAN_C = 128     # containers indexed: at least this many bytes long,
    INDEX_DEPTH_C = 64     # nested at most this deep (LOCAL_DEPTH: no heap)


cdef struct IndexBuf:
    # (start, end) pairs of the big containers, in document order; a slot is
    # taken when a container opens and given back when it closes small
    long long* data
    Py_ssize_t len         # long longs in use
    Py_ssize_t cap
    Py_ssize_t kept        # containers closed and kept
    Py_ssize_t most        # more kept than this: no index at all
    bint off               # gave up (too many containers, or no memory)
    Py_ssize_t slot[INDEX_DEPTH_C]


cdef inline void ix_open(IndexBuf* ix, Py_ssize_t depth, Py_ssize_t pos) noexcept nogil:
    """The container at pos opens at nesting depth+1."""
    cdef long long* grown
    cdef Py_ssize_t cap
    if ix == NULL or depth >= INDEX_DEPTH_C:
        return
    ix.slot[depth] = -1
    if ix.off:
        return
    if ix.len + 2 > ix.cap:
        cap = ix.cap + (ix.cap >> 1) + 64
        grown = <long long*>realloc(ix.data, cap * sizeof(long long))
        if grown == NULL:
            ix.off = True
            return
        ix.data = grown
        ix.cap = cap
    ix.slot[depth] = ix.len
    ix.data[ix.len] = pos
    ix.data[ix.len + 1] = -1
    ix.len += 2


cdef inline void ix_close(IndexBuf* ix, Py_ssize_t depth, Py_ssize_t end) noexcept nogil:
    """The container opened at nesting depth+1 ends at end (past its bracket)."""
    cdef Py_ssize_t k
    if ix == NULL or depth >= INDEX_DEPTH_C or ix.off:
        return
    k = ix.slot[depth]
    if k < 0:
        return
    if end - ix.data[k] >= INDEX_SPAN_C:
        ix.data[k + 1] = end
        ix.kept += 1
        if ix.kept > ix.most:
            ix.off = True
    else:  # small: so is everything inside it, none of it kept
        ix.len = k


cdef inline int bscan_impl(unsigned char* s, Py_ssize_t i, Py_ssize_t end,
                           ScanState* st, IndexBuf* ix) noexcept nogil:
    """scan_impl for UTF-8 bytes: the same grammar, error codes and
    positions (in bytes), strings checked with bcheck_string; the container
    index goes in ix (NULL: none)."""
    cdef unsigned char local[LOCAL_DEPTH]
    cdef unsigned char* stack = local
    cdef unsigned char* grown
    cdef Py_ssize_t depth = 0, cap = LOCAL_DEPTH
    cdef int state = S_VALUE
    cdef unsigned char c
    cdef Py_ssize_t j, i_open = 0
    cdef int rc = 0
    while True:
        i = bskip_ws(s, i, end)
        if state == S_VALUE:
            if i >= end:
                rc = fail(st, C_VALUE, i)
                break
            c = s[i]
            if c == c'{' or c == c'[':
                i_open = i
                if depth == cap:
                    cap *= 2
                    if stack == local:
                        grown = <unsigned char*>malloc(cap)
                        if grown != NULL:
                            memcpy(grown, local, depth)
                    else:
                        grown = <unsigned char*>realloc(stack, cap)
                    if grown == NULL:
                        rc = -2
                        break
                    stack = grown
                stack[depth] = c
                depth += 1
                i = bskip_ws(s, i + 1, end)
                if i < end and s[i] == (c'}' if c == c'{' else c']'):
                    depth -= 1
                    i += 1
                    state = S_AFTER
                    continue
                ix_open(ix, depth - 1, i_open)
                if c == c'{':
                    state = S_KEY
                continue
            if c == c'"':
                j = bcheck_string(s, i, end, st)
            elif c == c'-' or is_digit(c):
                j = check_number(s, i, end, st)
            elif c == c't' and has_word(s, i, end, b"true"):
                j = i + 4
            elif c == c'f' and has_word(s, i, end, b"false"):
                j = i + 5
            elif c == c'n' and has_word(s, i, end, b"null"):
                j = i + 4
            else:
                j = fail(st, C_VALUE, i)
            if j < 0:
                rc = -1
                break
            i = j
            state = S_AFTER
        elif state == S_KEY:
            if i >= end or s[i] != c'"':
                rc = fail(st, C_KEY, i)
                break
            j = bcheck_string(s, i, end, st)
            if j < 0:
                rc = -1
                break
            i = bskip_ws(s, j, end)
            if i >= end or s[i] != c':':
                rc = fail(st, C_COLON, i)
                break
            i += 1
            state = S_VALUE
        else:  # S_AFTER
            if depth == 0:
                if i < end:
                    rc = fail(st, C_TRAILING, i)
                break
            if stack[depth - 1] == c'{':
                if i < end and s[i] == c',':
                    i = bskip_ws(s, i + 1, end)
                    state = S_KEY
                elif i < end and s[i] == c'}':
                    depth -= 1
                    i += 1
                    ix_close(ix, depth, i)
                else:
                    rc = fail(st, C_OBJECT, i)
                    break
            else:
                if i < end and s[i] == c',':
                    i += 1
                    state = S_VALUE
                elif i < end and s[i] == c']':
                    depth -= 1
                    i += 1
                    ix_close(ix, depth, i)
                else:
                    rc = fail(st, C_ARRAY, i)
                    break
    if stack != local:
        free(stack)
    return rc
