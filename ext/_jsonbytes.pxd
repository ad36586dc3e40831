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
        return tm_zero(w ^ (TM_ONES * 0x22)) | tm_zero(w ^ (TM_ONES * 0x5C))
             | ((w - TM_ONES * 0x20) & ~w & TM_HIGH) | (w & TM_HIGH);
    }
    /* high bits of each byte that is not an ASCII digit (lane by lane: exact) */
    static inline uint64_t tm_non_digits(uint64_t w) {
        return ((w & (TM_ONES * 0xF0)) ^ (TM_ONES * 0x30))
             | (((w & (TM_ONES * 0x0F)) + (TM_ONES * 0x06)) & (TM_ONES * 0x10));
    }
    /* the same, in text already known to be valid UTF-8 */
    static inline uint64_t tm_string_stops_ok(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * 0x22)) | tm_zero(w ^ (TM_ONES * 0x5C))
             | ((w - TM_ONES * 0x20) & ~w & TM_HIGH);
    }
    /* the quote and the backslash (valid text: no other byte ends a string) */
    static inline uint64_t tm_quote_stops(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * 0x22)) | tm_zero(w ^ (TM_ONES * 0x5C));
    }
    /* a quote or a bracket ([ ] { }; Y y _ DEL raise false alarms) */
    static inline uint64_t tm_struct_stops(uint64_t w) {
        return tm_zero(w ^ (TM_ONES * 0x22))
             | tm_zero(((w | (TM_ONES * 0x20)) ^ (TM_ONES * 0x7B)) & (TM_ONES * 0xF9));
    }
    /* Sixteen bytes at a time where the vector unit is always there (SSE2 on
       x86-64), for the skips that run through string content: the offset of
       the first of the 16 bytes at p that ends or interrupts it (a quote, a
       backslash; with `controls` a control character; with `high` a byte of
       0x80 or more), or 16. Elsewhere the word-at-a-time skip does it all. */
    #if defined(__x86_64__) || defined(_M_X64)
    #include <emmintrin.h>
    #define TM_SKIP16 1
    static inline int tm_stops16(const unsigned char* p, int controls, int high) {
        __m128i v = _mm_loadu_si128((const __m128i*)p);
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)),   /* a quote */
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C)));  /* a backslash */
        if (controls)  /* max(v, 0x1F) == 0x1F: v <= 0x1F, unsigned */
            m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F)));
        unsigned int bits = (unsigned int)_mm_movemask_epi8(m);
        if (high)
            bits |= (unsigned int)_mm_movemask_epi8(v);
        if (!bits)
            return 16;
    #if defined(_MSC_VER) && !defined(__clang__)
        unsigned long k; _BitScanForward(&k, bits); return (int)k;
    #else
        return __builtin_ctz(bits);
    #endif
    }
    #else
    #define TM_SKIP16 0
    static inline int tm_stops16(const unsigned char* p, int controls, int high) {
        (void)p; (void)controls; (void)high; return 16;
    }
    #endif
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

    /* ---- UTF-8 validation, 16 bytes at a time (the "lookup" algorithm of
       Keiser and Lemire, as in simdjson): each byte is checked against the
       one, two and three before it with three nibble-table look-ups. SSSE3 on
       x86-64 (checked at run time), NEON on ARM64. tm_utf8_check() says 1
       (valid), 0 (invalid somewhere) or -1 (no vector unit: not checked). */
    #define TM_TOO_SHORT 0x01
    #define TM_TOO_LONG 0x02
    #define TM_OVERLONG_3 0x04
    #define TM_TOO_LARGE 0x08
    #define TM_SURROGATE 0x10
    #define TM_OVERLONG_2 0x20
    #define TM_TOO_LARGE_1000 0x40
    #define TM_OVERLONG_4 0x40
    #define TM_TWO_CONTS 0x80
    #define TM_CARRY (TM_TOO_SHORT | TM_TOO_LONG | TM_TWO_CONTS)
    static const unsigned char tm_b1_high[16] = {
        TM_TOO_LONG, TM_TOO_LONG, TM_TOO_LONG, TM_TOO_LONG,
        TM_TOO_LONG, TM_TOO_LONG, TM_TOO_LONG, TM_TOO_LONG,
        TM_TWO_CONTS, TM_TWO_CONTS, TM_TWO_CONTS, TM_TWO_CONTS,
        TM_TOO_SHORT | TM_OVERLONG_2,
        TM_TOO_SHORT,
        TM_TOO_SHORT | TM_OVERLONG_3 | TM_SURROGATE,
        TM_TOO_SHORT | TM_TOO_LARGE | TM_TOO_LARGE_1000 | TM_OVERLONG_4};
    static const unsigned char tm_b1_low[16] = {
        TM_CARRY | TM_OVERLONG_3 | TM_OVERLONG_2 | TM_OVERLONG_4,
        TM_CARRY | TM_OVERLONG_2,
        TM_CARRY, TM_CARRY,
        TM_CARRY | TM_TOO_LARGE,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000 | TM_SURROGATE,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000,
        TM_CARRY | TM_TOO_LARGE | TM_TOO_LARGE_1000};
    static const unsigned char tm_b2_high[16] = {
        TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT,
        TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT,
        TM_TOO_LONG | TM_OVERLONG_2 | TM_TWO_CONTS | TM_OVERLONG_3 | TM_TOO_LARGE_1000 | TM_OVERLONG_4,
        TM_TOO_LONG | TM_OVERLONG_2 | TM_TWO_CONTS | TM_OVERLONG_3 | TM_TOO_LARGE,
        TM_TOO_LONG | TM_OVERLONG_2 | TM_TWO_CONTS | TM_SURROGATE | TM_TOO_LARGE,
        TM_TOO_LONG | TM_OVERLONG_2 | TM_TWO_CONTS | TM_SURROGATE | TM_TOO_LARGE,
        TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT, TM_TOO_SHORT};
    /* the largest byte that is complete in each of the last three places */
    static const unsigned char tm_incomplete[16] = {
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        0xF0 - 1, 0xE0 - 1, 0xC0 - 1};

    #if defined(__x86_64__) || defined(_M_X64)
    #define TM_UTF8_SIMD 1
    #include <immintrin.h>
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    #define TM_SSSE3
    static int tm_has_ssse3(void) { int r[4]; __cpuid(r, 1); return (r[2] >> 9) & 1; }
    #else
    #define TM_SSSE3 __attribute__((target("ssse3")))
    static int tm_has_ssse3(void) { __builtin_cpu_init(); return __builtin_cpu_supports("ssse3"); }
    #endif
    TM_SSSE3 static inline __m128i tm_block(__m128i in, __m128i prev, __m128i t1h, __m128i t1l,
                                            __m128i t2h, __m128i low) {
        __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
        __m128i prev2 = _mm_alignr_epi8(in, prev, 14);
        __m128i prev3 = _mm_alignr_epi8(in, prev, 13);
        __m128i sc = _mm_and_si128(_mm_and_si128(
            _mm_shuffle_epi8(t1h, _mm_and_si128(_mm_srli_epi16(prev1, 4), low)),
            _mm_shuffle_epi8(t1l, _mm_and_si128(prev1, low))),
            _mm_shuffle_epi8(t2h, _mm_and_si128(_mm_srli_epi16(in, 4), low)));
        __m128i must23 = _mm_or_si128(_mm_subs_epu8(prev2, _mm_set1_epi8((char)(0xE0 - 0x80))),
                                      _mm_subs_epu8(prev3, _mm_set1_epi8((char)(0xF0 - 0x80))));
        return _mm_xor_si128(_mm_and_si128(must23, _mm_set1_epi8((char)0x80)), sc);
    }
    TM_SSSE3 static int tm_utf8_ssse3(const unsigned char* s, Py_ssize_t n) {
        const __m128i t1h = _mm_loadu_si128((const __m128i*)tm_b1_high);
        const __m128i t1l = _mm_loadu_si128((const __m128i*)tm_b1_low);
        const __m128i t2h = _mm_loadu_si128((const __m128i*)tm_b2_high);
        const __m128i inc = _mm_loadu_si128((const __m128i*)tm_incomplete);
        const __m128i low = _mm_set1_epi8(0x0F);
        __m128i prev = _mm_setzero_si128(), err = _mm_setzero_si128(), pinc = _mm_setzero_si128();
        unsigned char tail[16];
        Py_ssize_t i = 0;
        for (;;) {
            __m128i in;
            if (i + 64 <= n) {  /* 64 ASCII bytes: nothing to check but the carry */
                __m128i a = _mm_loadu_si128((const __m128i*)(s + i));
                __m128i b = _mm_loadu_si128((const __m128i*)(s + i + 16));
                __m128i c = _mm_loadu_si128((const __m128i*)(s + i + 32));
                __m128i d = _mm_loadu_si128((const __m128i*)(s + i + 48));
                if (!_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)))) {
                    err = _mm_or_si128(err, pinc);
                    prev = d;
                    pinc = _mm_setzero_si128();
                    i += 64;
                    continue;
                }
            }
            if (i + 16 <= n) {
                in = _mm_loadu_si128((const __m128i*)(s + i));
            } else if (i < n) {
                memset(tail, 0, 16);
                memcpy(tail, s + i, (size_t)(n - i));
                in = _mm_loadu_si128((const __m128i*)tail);
            } else {
                break;
            }
            err = _mm_or_si128(err, tm_block(in, prev, t1h, t1l, t2h, low));
            pinc = _mm_subs_epu8(in, inc);
            prev = in;
            i += 16;
        }
        err = _mm_or_si128(err, pinc);
        return _mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) == 0xFFFF;
    }
    static int tm_simd_state = -1;  /* -1: not known yet; a race writes the same value */
    static int tm_utf8_check(const unsigned char* s, Py_ssize_t n) {
        if (tm_simd_state < 0)
            tm_simd_state = tm_has_ssse3();
        if (!tm_simd_state)
            return -1;
        return tm_utf8_ssse3(s, n);
    }
    #elif defined(__aarch64__) || defined(_M_ARM64)
    #define TM_UTF8_SIMD 1
    #include <arm_neon.h>
    static inline uint8x16_t tm_block(uint8x16_t in, uint8x16_t prev, uint8x16_t t1h, uint8x16_t t1l,
                                      uint8x16_t t2h) {
        uint8x16_t prev1 = vextq_u8(prev, in, 15);
        uint8x16_t prev2 = vextq_u8(prev, in, 14);
        uint8x16_t prev3 = vextq_u8(prev, in, 13);
        uint8x16_t sc = vandq_u8(vandq_u8(vqtbl1q_u8(t1h, vshrq_n_u8(prev1, 4)),
                                          vqtbl1q_u8(t1l, vandq_u8(prev1, vdupq_n_u8(0x0F)))),
                                 vqtbl1q_u8(t2h, vshrq_n_u8(in, 4)));
        uint8x16_t must23 = vorrq_u8(vqsubq_u8(prev2, vdupq_n_u8(0xE0 - 0x80)),
                                     vqsubq_u8(prev3, vdupq_n_u8(0xF0 - 0x80)));
        return veorq_u8(vandq_u8(must23, vdupq_n_u8(0x80)), sc);
    }
    static int tm_utf8_check(const unsigned char* s, Py_ssize_t n) {
        const uint8x16_t t1h = vld1q_u8(tm_b1_high), t1l = vld1q_u8(tm_b1_low);
        const uint8x16_t t2h = vld1q_u8(tm_b2_high), inc = vld1q_u8(tm_incomplete);
        uint8x16_t prev = vdupq_n_u8(0), err = vdupq_n_u8(0), pinc = vdupq_n_u8(0);
        unsigned char tail[16];
        Py_ssize_t i = 0;
        for (;;) {
            uint8x16_t in;
            if (i + 64 <= n) {
                uint8x16_t a = vld1q_u8(s + i), b = vld1q_u8(s + i + 16);
                uint8x16_t c = vld1q_u8(s + i + 32), d = vld1q_u8(s + i + 48);
                if (vmaxvq_u8(vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d))) < 0x80) {
                    err = vorrq_u8(err, pinc);
                    prev = d;
                    pinc = vdupq_n_u8(0);
                    i += 64;
                    continue;
                }
            }
            if (i + 16 <= n) {
                in = vld1q_u8(s + i);
            } else if (i < n) {
                memset(tail, 0, 16);
                memcpy(tail, s + i, (size_t)(n - i));
                in = vld1q_u8(tail);
            } else {
                break;
            }
            err = vorrq_u8(err, tm_block(in, prev, t1h, t1l, t2h));
            pinc = vqsubq_u8(in, inc);
            prev = in;
            i += 16;
        }
        err = vorrq_u8(err, pinc);
        return vmaxvq_u8(err) == 0;
    }
    #else
    static int tm_utf8_check(const unsigned char* s, Py_ssize_t n) { (void)s; (void)n; return -1; }
    #endif
    """
    uint64_t tm_load64(const unsigned char* p) noexcept nogil
    uint64_t tm_string_stops(uint64_t w) noexcept nogil
    uint64_t tm_string_stops_ok(uint64_t w) noexcept nogil
    uint64_t tm_non_digits(uint64_t w) noexcept nogil
    uint64_t tm_quote_stops(uint64_t w) noexcept nogil
    uint64_t tm_struct_stops(uint64_t w) noexcept nogil
    int tm_first(uint64_t m) noexcept nogil
    bint TM_SKIP16
    int tm_stops16(const unsigned char* p, int controls, int high) noexcept nogil
    int tm_utf8_check(const unsigned char* s, Py_ssize_t n) noexcept nogil

cdef enum:
    C_UTF8 = 11       # bytes only: the UTF-8 sequence that starts here is invalid

cdef enum:  # what stops a word-at-a-time skip (skip_words)
    STOP_QUOTE = 0      # '"' or a backslash: the end of a valid string's content
    STOP_STRUCT = 1     # a quote or a bracket: what a container walk looks at
    STOP_DIGIT = 2      # not a digit
    STOP_STRING = 3     # what ends or interrupts string content (non-ASCII included)
    STOP_STRING_OK = 4  # the same in text known to be valid UTF-8 (non-ASCII passes)


cdef inline Py_ssize_t skip_words(const unsigned char* s, Py_ssize_t i, Py_ssize_t n,
                                  int stops) noexcept nogil:
    """From i, eight bytes at a time, to the first byte that ``stops`` flags,
    or to where fewer than eight are left (the byte loop after sees those).
    Inlined with a constant ``stops``: the choice is made at compile time.
    Through string content sixteen at a time first, where a vector unit is
    always there (a string's stops: a quote or an escape every ~30 bytes in
    text; the words' loop then takes the last 8-15 bytes)."""
    cdef uint64_t w, m
    cdef int k
    if TM_SKIP16 and (stops == STOP_QUOTE or stops == STOP_STRING or stops == STOP_STRING_OK):
        while i + 16 <= n:
            k = tm_stops16(s + i, stops != STOP_QUOTE, stops == STOP_STRING)
            if k < 16:
                return i + k
            i += 16
    while i + 8 <= n:
        w = tm_load64(s + i)
        if stops == STOP_QUOTE:
            m = tm_quote_stops(w)
        elif stops == STOP_STRUCT:
            m = tm_struct_stops(w)
        elif stops == STOP_DIGIT:
            m = tm_non_digits(w)
        elif stops == STOP_STRING:
            m = tm_string_stops(w)
        else:
            m = tm_string_stops_ok(w)
        if m:
            return i + tm_first(m)
        i += 8
    return i


cdef inline Py_ssize_t utf8_seq(unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    """Length of the valid UTF-8 sequence whose lead byte (>= 0x80) is at i,
    or -1: overlong forms, surrogates and code points past U+10FFFF are
    invalid, as for Python's decoder."""
    cdef unsigned char c = s[i]
    cdef unsigned char c1, lo = 0x80, hi = 0xBF
    cdef Py_ssize_t n
    if c < 0xC2:
        return -1
    if c < 0xE0:
        if i + 1 < end and (s[i + 1] & 0xC0) == 0x80:
            return 2
        return -1
    if c < 0xF0:  # 3 bytes: no overlong form (E0 A0..), no surrogate (ED ..9F)
        n = 3
        if c == 0xE0:
            lo = 0xA0
        elif c == 0xED:
            hi = 0x9F
    elif c < 0xF5:  # 4 bytes: no overlong form (F0 90..), nothing past U+10FFFF (F4 ..8F)
        n = 4
        if c == 0xF0:
            lo = 0x90
        elif c == 0xF4:
            hi = 0x8F
    else:
        return -1
    if i + n - 1 >= end:
        return -1
    c1 = s[i + 1]
    if c1 < lo or c1 > hi or (s[i + 2] & 0xC0) != 0x80 or (n == 4 and (s[i + 3] & 0xC0) != 0x80):
        return -1
    return n


cdef inline Py_ssize_t bdigits_end(unsigned char* s, Py_ssize_t j, Py_ssize_t end) noexcept nogil:
    """The end of the run of digits at j, eight at a time."""
    j = skip_words(s, j, end, STOP_DIGIT)
    while j < end and is_digit(s[j]):
        j += 1
    return j


cdef inline Py_ssize_t bcheck_number(unsigned char* s, Py_ssize_t i, Py_ssize_t end,
                                     ScanState* st) noexcept nogil:
    """check_number for bytes (the same errors, positions and lossy verdict),
    runs of digits eight at a time."""
    cdef Py_ssize_t j = i
    cdef Py_ssize_t ds, nd
    cdef bint neg = False
    cdef bint real = False
    if s[j] == c'-':
        neg = True
        j += 1
    if j >= end or not is_digit(s[j]):
        return fail(st, C_NUMBER, j)
    ds = j
    if s[j] == c'0':
        j += 1
        if j < end and is_digit(s[j]):
            return fail(st, C_NUMBER, j)
    else:
        j = bdigits_end(s, j + 1, end)
    nd = j - ds
    if j < end and s[j] == c'.':
        j += 1
        if j >= end or not is_digit(s[j]):
            return fail(st, C_NUMBER, j)
        j = bdigits_end(s, j + 1, end)
        real = True
    if j < end and (s[j] == c'e' or s[j] == c'E'):
        j += 1
        if j < end and (s[j] == c'+' or s[j] == c'-'):
            j += 1
        if j >= end or not is_digit(s[j]):
            return fail(st, C_NUMBER, j)
        j = bdigits_end(s, j + 1, end)
        real = True
    if real:
        st.lossy = True
    elif not st.lossy:
        if neg:
            if (nd == 1 and s[ds] == c'0') or nd > 19 or (
                    nd == 19 and digits_above(s, ds, b"9223372036854775808")):
                st.lossy = True
        elif nd > 20 or (nd == 20 and digits_above(s, ds, b"18446744073709551615")):
            st.lossy = True
    return j


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
    i += 1
    while True:
        i = skip_words(s, i, n, STOP_QUOTE)
        if i >= n:
            return n
        if s[i] == c'"':
            return i + 1
        if s[i] == c'\\':
            i += 2
        else:
            i += 1


cdef inline Py_ssize_t bcheck_string(unsigned char* s, Py_ssize_t i, Py_ssize_t end,
                                     ScanState* st, bint utf8_ok) noexcept nogil:
    """check_string for UTF-8 bytes: i is at the opening quote; the index
    past the closing one, or -1 (C_UTF8 at the lead byte of an invalid
    sequence). ``utf8_ok``: the bytes are known to be valid UTF-8 (only the
    JSON escapes and control characters are left to check)."""
    cdef Py_ssize_t j = i + 1, r
    cdef unsigned char c
    cdef int k
    while True:
        j = skip_words(s, j, end, STOP_STRING_OK) if utf8_ok else skip_words(s, j, end, STOP_STRING)
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
        elif c >= 0x80 and not utf8_ok:
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
    Py_ssize_t most        # once this many are kept, no more slots are taken
    bint off               # gave up (no memory)
    Py_ssize_t slot[INDEX_DEPTH_C]


cdef inline void ix_open(IndexBuf* ix, Py_ssize_t depth, Py_ssize_t pos) noexcept nogil:
    """The container at pos opens at nesting depth+1."""
    cdef long long* grown
    cdef Py_ssize_t cap
    if ix == NULL or depth >= INDEX_DEPTH_C:
        return
    ix.slot[depth] = -1
    if ix.off or ix.kept >= ix.most:
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
    else:  # small: so is everything inside it, none of it kept
        ix.len = k


cdef inline int bscan_impl(unsigned char* s, Py_ssize_t i, Py_ssize_t end,
                           ScanState* st, IndexBuf* ix, bint utf8_ok) noexcept nogil:
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
                j = bcheck_string(s, i, end, st, utf8_ok)
            elif c == c'-' or is_digit(c):
                j = bcheck_number(s, i, end, st)
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
            j = bcheck_string(s, i, end, st, utf8_ok)
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
            c = stack[depth - 1]
            if i < end and s[i] == c',':
                i += 1
                state = S_KEY if c == c'{' else S_VALUE
            elif i < end and s[i] == (c'}' if c == c'{' else c']'):
                depth -= 1
                i += 1
                ix_close(ix, depth, i)
            else:
                rc = fail(st, C_OBJECT if c == c'{' else C_ARRAY, i)
                break
    if stack != local:
        free(stack)
    return rc
