# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# cython: freethreading_compatible=True
"""Compiled scanners for tool-call argument recovery.

Twin of ``toolmend/_kernels/_recover_py.py``: same functions, same results, same error
messages. Every scanner walks the text once and keeps an explicit state
(outside / inside a string) so that text inside string values is never
rewritten. Nothing here recurses: the literal parser keeps its own stack.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND

import orjson

from toolmend.errors import LiteralError
from toolmend._text import MAX_DEPTH as _MAX_DEPTH, TOO_DEEP as _TOO_DEEP

from _jsongrammar cimport uchar, ScanState, scan_impl, check_number, hexval, is_digit

cdef object orjson_loads = orjson.loads
cdef object JSONDecodeError = orjson.JSONDecodeError

from libc.string cimport memcpy
cimport cython

# The deepest nesting the parsers build (toolmend._text.MAX_DEPTH).
cdef Py_ssize_t depth_bound = _MAX_DEPTH

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    bint Py_UNICODE_ISALPHA(Py_UCS4 ch)
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object o)

# Below this length a text that fails the pre-filter skips orjson (whose
# exception costs more than the scan); above it valid text dominates.
cdef Py_ssize_t PREFILTER_MAX = 512

# Step numbers returned by repair(); recovery.py names them.
STEP_NAMES = ("parse", "curly_quotes", "single_quotes", "unquoted_keys",
              "quotes_and_keys", "trailing_commas")


# The scanners are written once over the fused character type of the shared
# grammar and compiled for each storage kind of str (1, 2 or 4 bytes per
# character): the common ASCII / Latin-1 text runs as a plain byte loop.


cdef struct Buf:
    Py_UCS4* data
    Py_ssize_t len
    Py_ssize_t cap
    bint heap


cdef enum:
    LOCAL_CAP = 256


cdef inline void buf_init(Buf* b, Py_UCS4* local, Py_ssize_t cap) noexcept:
    """Start on caller-provided (stack) storage; move to the heap if it grows."""
    b.data = local
    b.len = 0
    b.cap = cap
    b.heap = False


cdef int buf_grow(Buf* b) except -1:
    cdef Py_ssize_t cap = b.cap * 2
    cdef Py_UCS4* data
    if b.heap:
        data = <Py_UCS4*>PyMem_Realloc(b.data, cap * sizeof(Py_UCS4))
    else:
        data = <Py_UCS4*>PyMem_Malloc(cap * sizeof(Py_UCS4))
        if data != NULL:
            memcpy(data, b.data, b.len * sizeof(Py_UCS4))
    if data == NULL:
        raise MemoryError()
    b.data = data
    b.cap = cap
    b.heap = True
    return 0


cdef inline int buf_put(Buf* b, Py_UCS4 c) except -1:
    if b.len == b.cap:
        buf_grow(b)
    b.data[b.len] = c
    b.len += 1
    return 0


cdef int buf_ascii(Buf* b, const char* text) except -1:
    cdef Py_ssize_t i = 0
    while text[i] != 0:
        buf_put(b, <Py_UCS4>text[i])
        i += 1
    return 0


cdef str buf_str(Buf* b):
    return <str>PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b.data, b.len)


cdef inline void buf_free(Buf* b) noexcept:
    if b.heap:
        PyMem_Free(b.data)
    b.data = NULL
    b.heap = False


# The curly-quote table of toolmend._text (CURLY_DOUBLE, CURLY_SINGLE), in C.
cdef inline bint is_curly_double(Py_UCS4 c) noexcept nogil:
    return c == 0x201C or c == 0x201D or c == 0x2033


cdef inline bint is_curly_single(Py_UCS4 c) noexcept nogil:
    return c == 0x2018 or c == 0x2019 or c == 0x2032


# ---------------------------------------------------------------------------
# Validity pre-filter

def maybe_json(str s):
    """False only when ``s`` is certainly not RFC 8259 JSON.

    A cheap pre-filter in front of orjson: it never rejects what orjson
    accepts (orjson is stricter: lone surrogates, infinite numbers, depth),
    and it saves building orjson's exception for text that fails early.
    """
    return scan_json(s)


cdef bint long_digits_k(const uchar* data, Py_ssize_t n) noexcept:
    """A run of 19 digits covers one of the probes at 18, 37, 56, ...: look
    around a probe only when it is a digit."""
    cdef Py_ssize_t p = 18, lo, hi
    while p < n:
        if is_digit(data[p]):
            lo = p
            while lo > 0 and is_digit(data[lo - 1]):
                lo -= 1
            hi = p + 1
            while hi < n and is_digit(data[hi]):
                hi += 1
            if hi - lo >= 19:
                return True
            p = hi + 18
        else:
            p += 19
    return False


def needs_exact(str s):
    """Whether ``s`` holds a run of 19 or more digits: an integer orjson
    could turn into a float (beyond 64 bits) may be there."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    if kind == 1:
        return long_digits_k(<const unsigned char*>d, len(s))
    if kind == 2:
        return long_digits_k(<const unsigned short*>d, len(s))
    return long_digits_k(<const Py_UCS4*>d, len(s))


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

cdef bint closes_here(const uchar* data, Py_ssize_t n, Py_ssize_t i) noexcept:
    """True when only whitespace stands between i and a structural character
    (or the end): a curly quote at i - 1 then closes a string."""
    cdef Py_UCS4 c
    while i < n:
        c = data[i]
        if c == u':' or c == u',' or c == u'}' or c == u']':
            return True
        if not Py_UNICODE_ISSPACE(c):
            return False
        i += 1
    return True


cdef str structural_quotes_k(str s, const uchar* data, Py_ssize_t n):
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t open_in = 0, open_out = 0  # where the current curly string opened
    cdef Py_UCS4 c
    cdef Py_UCS4 last = u'{'   # last significant character outside strings
    cdef int state = 0         # 0 out, 1 in "..", 2 in '..', 3 in curly "..", 4 in curly '..'
    cdef Py_ssize_t converted = 0
    cdef bint may_open = True  # cleared once an opener found no closer
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    for c in s:
        if is_curly_double(c) or is_curly_single(c):
            break
    else:
        return s
    buf_init(&b, local, LOCAL_CAP)
    try:
        while True:
            if i >= n:
                if state < 3:
                    break
                # The curly quote at open_in closed nothing: it was text after
                # all. Undo from there, and open no further curly strings.
                b.len = open_out
                c = data[open_in]
                buf_put(&b, c)
                last = c
                i = open_in + 1
                state = 0
                converted -= 1
                may_open = False
                continue
            c = data[i]
            i += 1
            if state == 0:
                if c == u'"':
                    state = 1
                elif c == u"'":
                    state = 2
                elif may_open and (is_curly_double(c) or is_curly_single(c)) and (
                        last == u'{' or last == u'[' or last == u',' or last == u':'):
                    open_in = i - 1
                    open_out = b.len
                    if is_curly_double(c):
                        c = u'"'
                        state = 3
                    else:
                        c = u"'"
                        state = 4
                    converted += 1
                elif not Py_UNICODE_ISSPACE(c):
                    last = c
                buf_put(&b, c)
            elif state == 1 or state == 2:
                buf_put(&b, c)
                if c == u'\\' and i < n:
                    buf_put(&b, data[i])
                    i += 1
                elif (state == 1 and c == u'"') or (state == 2 and c == u"'"):
                    state = 0
                    last = u'"'
            else:
                if c == u'\\' and i < n:
                    buf_put(&b, c)
                    buf_put(&b, data[i])
                    i += 1
                elif ((state == 3 and is_curly_double(c)) or (state == 4 and is_curly_single(c))) \
                        and closes_here(data, n, i):
                    buf_put(&b, u'"' if state == 3 else u"'")
                    state = 0
                    last = u'"'
                elif (state == 3 and c == u'"') or (state == 4 and c == u"'"):
                    buf_put(&b, u'\\')
                    buf_put(&b, c)
                else:
                    buf_put(&b, c)
        return buf_str(&b) if converted else s
    finally:
        buf_free(&b)


def normalize_structural_quotes(str s):
    """Turn curly quotes that delimit strings into ASCII quotes.

    A curly quote opens a string where a key or value may start (after
    ``{ [ , :`` or at the start) and closes it when a structural character
    follows. Curly quotes inside strings, and apostrophes in bare words, stay;
    an opener that finds no closer stays too (and, to keep the scan linear,
    no later curly quote opens a string). Returns ``s`` itself when nothing
    changed.
    """
    return rewrite(OP_CURLY, s)


# ---------------------------------------------------------------------------
# Strategy 2: single-quoted strings -> double-quoted

cdef str single_quotes_k(str s, const uchar* data, Py_ssize_t n):
    cdef Py_ssize_t i = 0
    cdef Py_UCS4 c
    cdef int state = 0  # 0 outside, 1 in "...", 2 in '...'
    cdef bint changed = False
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    if u"'" not in s:
        return s
    buf_init(&b, local, LOCAL_CAP)
    try:
        while i < n:
            c = data[i]
            i += 1
            if state == 0:
                if c == u'"':
                    state = 1
                elif c == u"'":
                    c = u'"'
                    state = 2
                    changed = True
                buf_put(&b, c)
            elif state == 1:
                buf_put(&b, c)
                if c == u'\\' and i < n:
                    buf_put(&b, data[i])
                    i += 1
                elif c == u'"':
                    state = 0
            else:
                if c == u'\\' and i < n:
                    if data[i] == u"'":
                        buf_put(&b, u"'")
                    else:
                        buf_put(&b, c)
                        buf_put(&b, data[i])
                    i += 1
                elif c == u'"':
                    buf_put(&b, u'\\')
                    buf_put(&b, c)
                elif c == u"'":
                    buf_put(&b, u'"')
                    state = 0
                else:
                    buf_put(&b, c)
        return buf_str(&b) if changed else s
    finally:
        buf_free(&b)


def convert_single_quotes(str s):
    """Stateful converter: outside, inside "...", inside '...'.

    Single quotes inside double-quoted strings are kept; double quotes inside
    single-quoted strings are escaped; ``\\'`` becomes a plain ``'``.
    Returns ``s`` itself when there is nothing to convert.
    """
    return rewrite(OP_QUOTES, s)


# ---------------------------------------------------------------------------
# Strategy 3: bare keys -> quoted keys

cdef inline bint is_bare_key_char(Py_UCS4 c) noexcept:
    return not (Py_UNICODE_ISSPACE(c) or c == u':' or c == u',' or c == u'{' or c == u'}'
                or c == u'[' or c == u']' or c == u'"' or c == u"'")


cdef inline Py_ssize_t skip_quoted(const uchar* data, Py_ssize_t n, Py_ssize_t i, Buf* b) except -2:
    """data[i] opens a string in either quote style: copy it (to ``b`` when
    given) and return the index past its end (or the text's end)."""
    cdef Py_UCS4 q = data[i]
    cdef Py_UCS4 c
    if b != NULL:
        buf_put(b, q)
    i += 1
    while i < n:
        c = data[i]
        i += 1
        if b != NULL:
            buf_put(b, c)
        if c == u'\\' and i < n:
            if b != NULL:
                buf_put(b, data[i])
            i += 1
        elif c == q:
            break
    return i


cdef int copy_prefix(Buf* b, const uchar* data, Py_ssize_t end) except -1:
    """Start writing: copy the unchanged text before ``end`` into ``b``."""
    cdef Py_ssize_t k
    for k in range(end):
        buf_put(b, data[k])
    return 0


cdef str bare_keys_k(str s, const uchar* data, Py_ssize_t n):
    cdef Py_ssize_t i = 0, j, k
    cdef Py_UCS4 c
    cdef bint key_may_start = False
    cdef Buf* out = NULL       # NULL until the first change: most texts have none
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    if u':' not in s:
        return s
    buf_init(&b, local, LOCAL_CAP)
    try:
        while i < n:
            c = data[i]
            if c == u'"' or c == u"'":
                i = skip_quoted(data, n, i, out)
                key_may_start = False
                continue
            if c == u'{' or c == u',':
                key_may_start = True
            elif key_may_start and is_bare_key_char(c):
                key_may_start = False
                j = i
                while j < n and is_bare_key_char(data[j]):
                    j += 1
                k = j
                while k < n and Py_UNICODE_ISSPACE(data[k]):
                    k += 1
                if k < n and data[k] == u':':
                    if out == NULL:
                        out = &b
                        copy_prefix(out, data, i)
                    buf_put(out, u'"')
                    while i < j:
                        c = data[i]
                        if c == u'\\':
                            buf_put(out, u'\\')
                        buf_put(out, c)
                        i += 1
                    buf_put(out, u'"')
                    continue
            elif not Py_UNICODE_ISSPACE(c):
                key_may_start = False
            if out != NULL:
                buf_put(out, c)
            i += 1
        return buf_str(out) if out != NULL else s
    finally:
        buf_free(&b)


def quote_bare_keys(str s):
    """Quote a bare key that follows ``{`` or ``,`` and precedes ``:``.

    Quoted strings (either quote style) are skipped whole, so nothing inside
    a string value is touched. Returns ``s`` itself when nothing changed.
    """
    return rewrite(OP_KEYS, s)


# ---------------------------------------------------------------------------
# Strategy 5: trailing commas

cdef enum:
    LOCAL_CUTS = 64


cdef str trailing_commas_k(str s, const uchar* data, Py_ssize_t n):
    cdef Py_ssize_t i = 0, k, m = 0, pos = 0, seg
    cdef Py_UCS4 c
    cdef Py_ssize_t local_cuts[LOCAL_CUTS]
    cdef Py_ssize_t* cuts = local_cuts   # offsets of the commas to drop
    cdef Py_ssize_t cap = LOCAL_CUTS
    cdef Py_ssize_t* grown
    cdef str out
    cdef char* dst
    if u',' not in s:
        return s
    try:
        while i < n:
            c = data[i]
            if c == u'"' or c == u"'":
                i = skip_quoted(data, n, i, NULL)
                continue
            if c == u',':
                k = i + 1
                while k < n and Py_UNICODE_ISSPACE(data[k]):
                    k += 1
                if k < n and (data[k] == u'}' or data[k] == u']'):
                    if m == cap:
                        grown = <Py_ssize_t*>PyMem_Malloc(2 * cap * sizeof(Py_ssize_t))
                        if grown == NULL:
                            raise MemoryError()
                        memcpy(grown, cuts, m * sizeof(Py_ssize_t))
                        if cuts != local_cuts:
                            PyMem_Free(cuts)
                        cuts = grown
                        cap *= 2
                    cuts[m] = i
                    m += 1
            i += 1
        if m == 0:
            return s
        # Dropping ASCII commas keeps the largest character, so the result
        # has the source's storage kind: copy the segments between the cuts.
        out = <str>PyUnicode_New(n - m, PyUnicode_MAX_CHAR_VALUE(s))
        dst = <char*>PyUnicode_DATA(out)
        for k in range(m):
            seg = cuts[k] - pos
            memcpy(dst, <const char*>(data + pos), seg * sizeof(uchar))
            dst += seg * sizeof(uchar)
            pos = cuts[k] + 1
        memcpy(dst, <const char*>(data + pos), (n - pos) * sizeof(uchar))
        return out
    finally:
        if cuts != local_cuts:
            PyMem_Free(cuts)


def remove_trailing_commas(str s):
    """Drop a comma that only whitespace separates from ``}`` or ``]``.

    String-aware like the other scanners. Returns ``s`` itself when nothing
    changed.
    """
    return rewrite(OP_COMMAS, s)


# ---------------------------------------------------------------------------
# Comments: // to the end of the line, /* ... */

cdef str comments_k(str s, const uchar* data, Py_ssize_t n):
    cdef Py_ssize_t i = 0, k
    cdef Py_UCS4 c
    cdef Buf* out = NULL       # NULL until the first comment
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    if u'/' not in s:
        return s
    buf_init(&b, local, LOCAL_CAP)
    try:
        while i < n:
            c = data[i]
            if c == u'"' or c == u"'":
                i = skip_quoted(data, n, i, out)
                continue
            if c == u'/' and i + 1 < n and (data[i + 1] == u'/' or data[i + 1] == u'*'):
                if out == NULL:
                    out = &b
                    copy_prefix(out, data, i)
                if data[i + 1] == u'/':
                    k = i + 2
                    while k < n and data[k] != u'\n' and data[k] != u'\r':
                        k += 1
                    i = k            # the line break stays
                else:
                    k = i + 2
                    while k + 1 < n and not (data[k] == u'*' and data[k + 1] == u'/'):
                        k += 1
                    if k + 1 >= n:   # unclosed: not a comment after all
                        return s
                    buf_put(out, u' ')   # a comment separates like a space
                    i = k + 2
                continue
            if out != NULL:
                buf_put(out, c)
            i += 1
        return buf_str(out) if out != NULL else s
    finally:
        buf_free(&b)


def strip_comments(str s):
    """Remove ``//`` line comments and ``/* */`` block comments outside
    strings (either quote style). An unclosed ``/*`` leaves the text as it
    is. Returns ``s`` itself when there is no comment."""
    return rewrite(OP_COMMENTS, s)


# ---------------------------------------------------------------------------
# Dispatch on the storage kind of the str

cdef bint scan_json(str s) noexcept:
    """Whether ``s`` is RFC 8259 JSON (the shared validator of @json)."""
    cdef ScanState st
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    cdef int rc
    st.pos = 0
    st.code = 0
    st.lossy = False
    if kind == 1:
        rc = scan_impl(<unsigned char*>d, 0, len(s), &st)
    elif kind == 2:
        rc = scan_impl(<unsigned short*>d, 0, len(s), &st)
    else:
        rc = scan_impl(<Py_UCS4*>d, 0, len(s), &st)
    return rc != -1   # -2: out of memory for the stack: let orjson decide


cdef enum:
    OP_CURLY = 0     # structural_quotes_k
    OP_QUOTES = 1    # single_quotes_k
    OP_KEYS = 2      # bare_keys_k
    OP_COMMAS = 3    # trailing_commas_k
    OP_COMMENTS = 4  # comments_k


cdef str rewrite_k(int op, str s, const uchar* data, Py_ssize_t n):
    if op == OP_CURLY:
        return structural_quotes_k(s, data, n)
    if op == OP_QUOTES:
        return single_quotes_k(s, data, n)
    if op == OP_KEYS:
        return bare_keys_k(s, data, n)
    if op == OP_COMMENTS:
        return comments_k(s, data, n)
    return trailing_commas_k(s, data, n)


cdef str rewrite(int op, str s):
    """Run scanner ``op`` on ``s``, specialized for its storage kind."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    if kind == 1:
        return rewrite_k(op, s, <const unsigned char*>d, len(s))
    if kind == 2:
        return rewrite_k(op, s, <const unsigned short*>d, len(s))
    return rewrite_k(op, s, <const Py_UCS4*>d, len(s))


# ---------------------------------------------------------------------------
# Steps 0-5 in one call

cdef bint unclosed(str text):
    """Text that starts with { or [ but does not end with } or ]: no step
    before the repair engine can make it JSON (they add no closing bracket),
    so they are skipped (an optimization only: the outcome is the same)."""
    cdef Py_ssize_t n = len(text), a = 0, b
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c
    while a < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)):
        a += 1
    if a >= n:
        return False
    c = PyUnicode_READ(kind, data, a)
    if not (c == c'{' or c == c'['):
        return False
    b = n - 1
    while Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, b)):
        b -= 1
    c = PyUnicode_READ(kind, data, b)
    return not (c == c'}' or c == c']')


cdef tuple repair_from(str text, int start, bint curly):
    cdef str original, base, quoted, keyed, both, trimmed
    cdef Py_ssize_t n = len(text)
    cdef bint cut = unclosed(text)
    if start <= 0 and not cut and (n > PREFILTER_MAX or scan_json(text)):
        return 0, text, text
    if n and not Py_UNICODE_ISSPACE(text[0]) and not Py_UNICODE_ISSPACE(text[n - 1]):
        original = text   # nothing to trim: skip building a copy
    else:
        original = text.strip()
    if not original:
        return -1, original, original
    base = rewrite(OP_CURLY, original) if curly else original
    if cut:
        return -1, base, base
    if start <= 1 and base is not original and scan_json(base):
        return 1, base, base
    quoted = rewrite(OP_QUOTES, base)
    if start <= 2 and quoted is not base and scan_json(quoted):
        return 2, quoted, base
    if quoted is base:
        keyed = rewrite(OP_KEYS, base)
        if start <= 3 and keyed is not base and scan_json(keyed):
            return 3, keyed, base
        both = keyed
    else:
        # Step 3 cannot succeed here: its text keeps a single-quoted string
        # outside any JSON string. Straight to 4.
        both = rewrite(OP_KEYS, quoted)
        if start <= 4 and both is not quoted and scan_json(both):
            return 4, both, base
    trimmed = rewrite(OP_COMMAS, both)
    if start <= 5 and trimmed is not both and scan_json(trimmed):
        return 5, trimmed, base
    return -1, base, base


def repair(str text, int start=0, bint curly=True):
    """Run the text-rewriting steps in contract order; return
    ``(step, candidate, base)``.

    ``step`` is the first step at or after ``start`` whose candidate passes
    the pre-filter (see STEP_NAMES), or -1 when none does; ``candidate`` is
    that step's text; ``base`` is the trimmed text after curly-quote
    normalization, the input of the later strategies. Steps 2-5 compose:
    each works on the output of the earlier ones that changed something.
    When orjson refuses a candidate, call again with ``start = step + 1``.
    """
    return repair_from(text, start, curly)


def recover_text(str text, bint curly=True):
    """Steps 0-5 with orjson as the judge: ``(step, candidate, value, base)``.

    ``step`` is the first step whose candidate orjson parses (``value``), or
    -1 with ``base`` left for the later strategies (wrap, object literal).
    """
    cdef int start = 0
    cdef int step
    cdef tuple found
    if len(text) > PREFILTER_MAX and not unclosed(text):  # long text: most likely valid
        try:
            return 0, text, orjson_loads(text), text
        except JSONDecodeError:
            start = 1
    while True:
        found = repair_from(text, start, curly)
        step = found[0]
        if step < 0:
            return -1, found[1], None, found[2]
        try:
            return step, found[1], orjson_loads(found[1]), found[2]
        except JSONDecodeError:
            start = step + 1


cdef object exact_value(str text, object value):
    """orjson's value of valid ``text``, or the exact one when a long run of
    digits may be an integer orjson turned into a float."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* d = PyUnicode_DATA(text)
    cdef bint long_run
    if kind == 1:
        long_run = long_digits_k(<const unsigned char*>d, len(text))
    elif kind == 2:
        long_run = long_digits_k(<const unsigned short*>d, len(text))
    else:
        long_run = long_digits_k(<const Py_UCS4*>d, len(text))
    if long_run:
        return repair_json(text)[0]
    return value


def make_loads(fallback, with_schema=None):
    """Build ``loads(raw, tool=None, *, schema=None, fill_defaults=False)``:
    text without a tool goes through ``recover_value`` right here (no Python
    frame on the hot path); anything else, and text no step recovered, is
    ``fallback(raw, tool, found)`` (``found``: the 1-tuple ``(base,)``, or
    None when not tried); a call with a schema is ``with_schema(raw, tool,
    schema, fill_defaults)``."""
    def loads(raw, tool=None, *, schema=None, fill_defaults=False):
        cdef object value
        if schema is not None and with_schema is not None:
            return with_schema(raw, tool, schema, fill_defaults)
        if tool is None and type(raw) is str:
            value = recover_value_c(<str>raw, True)
            if type(value) is not tuple:
                return value
            return fallback(raw, tool, value)
        return fallback(raw, tool, None)
    return loads


def recover_value(str text, bint curly=True):
    return recover_value_c(text, curly)


cdef object recover_value_c(str text, bint curly):
    """``recover_text`` for callers that want only the value (integers
    exact), then the object literal for text that starts with ``{`` or ``[``
    and holds no ``/`` (comments come first): the value, or, when neither
    worked, a 1-tuple ``(base,)`` (JSON never parses to a tuple). Saves
    building and unpacking a 4-tuple on the hot path of ``loads``."""
    cdef int start = 0
    cdef int step
    cdef tuple found
    cdef str base
    if len(text) <= PREFILTER_MAX and not unclosed(text):
        if scan_json(text):  # step 1, parse, as repair_from would take it
            try:
                return exact_value(text, orjson_loads(text))
            except JSONDecodeError:
                start = 1
        else:
            start = 1  # not JSON: step 1 cannot take it
        if start == 1 and text.isascii() and u'\\' not in text and u'/' not in text:
            # Not JSON, and no escape, no comment, no curly quote (ASCII): steps
            # 2-5 can only convert plain single-quoted strings, quote bare keys
            # and drop trailing commas, and wherever they would give JSON the
            # literal parser gives the same value. Ask it first (only loads
            # takes this path, and only the value is returned).
            base = text.strip()
            if base and base[0] == c'{' and base[len(base) - 1] == c'}':
                try:
                    return ol_parse(base, depth_bound, False)[0]
                except LiteralError:
                    pass
    if len(text) > PREFILTER_MAX and not unclosed(text):
        try:
            return exact_value(text, orjson_loads(text))
        except JSONDecodeError:
            start = 1
    while True:
        found = repair_from(text, start, curly)
        step = found[0]
        if step < 0:
            base = found[2]
            if base and (base[0] == c'{' or base[0] == c'[') and u'/' not in base \
                    and not unclosed(base):
                try:
                    return ol_parse(base, depth_bound, False)[0]
                except LiteralError:
                    pass
            return (base,)
        try:
            return exact_value(found[1], orjson_loads(found[1]))
        except JSONDecodeError:
            start = step + 1


# ---------------------------------------------------------------------------
# Strategy 7: the object-literal parser

cdef int put_json_string(Buf* b, str v) except -1:
    cdef Py_UCS4 c
    cdef unsigned int code
    cdef const char* hexdigits = b"0123456789abcdef"
    buf_put(b, u'"')
    for c in v:
        if c == u'"' or c == u'\\':
            buf_put(b, u'\\')
            buf_put(b, c)
        elif c >= 0x20 and not (0xD800 <= c <= 0xDFFF):
            buf_put(b, c)
        elif c == u'\n':
            buf_ascii(b, b"\\n")
        elif c == u'\r':
            buf_ascii(b, b"\\r")
        elif c == u'\t':
            buf_ascii(b, b"\\t")
        elif c == u'\b':
            buf_ascii(b, b"\\b")
        elif c == u'\f':
            buf_ascii(b, b"\\f")
        else:
            code = <unsigned int>c
            buf_ascii(b, b"\\u")
            buf_put(b, hexdigits[(code >> 12) & 15])
            buf_put(b, hexdigits[(code >> 8) & 15])
            buf_put(b, hexdigits[(code >> 4) & 15])
            buf_put(b, hexdigits[code & 15])
    buf_put(b, u'"')
    return 0


cdef int hex4(str s, Py_ssize_t i, Py_ssize_t n) noexcept:
    """The value of 4 hex digits at s[i:i+4], or -1."""
    cdef int v = 0, d, k
    if i + 4 > n:
        return -1
    for k in range(4):
        d = hexval(s[i + k])
        if d < 0:
            return -1
        v = v * 16 + d
    return v


cdef tuple read_quoted(str s, Py_ssize_t i, Py_ssize_t n):
    """s[i] is the opening quote. Returns (text, index past the closing quote).

    JSON escapes are decoded (a surrogate pair becomes one character),
    ``\\'`` is a quote, and any other backslash stays as written
    (``C:\\Users``)."""
    cdef Py_UCS4 q = s[i]
    cdef Py_UCS4 c, e
    cdef Py_ssize_t start = i
    cdef int u, lo
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    i += 1
    buf_init(&b, local, LOCAL_CAP)
    try:
        while i < n:
            c = s[i]
            if c == q:
                return buf_str(&b), i + 1
            if c == u'\\' and i + 1 < n:
                e = s[i + 1]
                if e == u'"' or e == u"'" or e == u'\\' or e == u'/':
                    buf_put(&b, e)
                elif e == u'n':
                    buf_put(&b, u'\n')
                elif e == u't':
                    buf_put(&b, u'\t')
                elif e == u'r':
                    buf_put(&b, u'\r')
                elif e == u'b':
                    buf_put(&b, u'\b')
                elif e == u'f':
                    buf_put(&b, u'\f')
                elif e == u'u' and hex4(s, i + 2, n) >= 0:
                    u = hex4(s, i + 2, n)
                    if 0xD800 <= u <= 0xDBFF and i + 7 < n and s[i + 6] == u'\\' \
                            and s[i + 7] == u'u':
                        lo = hex4(s, i + 8, n)
                        if 0xDC00 <= lo <= 0xDFFF:
                            buf_put(&b, <Py_UCS4>(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)))
                            i += 12
                            continue
                    buf_put(&b, <Py_UCS4>u)
                    i += 6
                    continue
                else:
                    buf_put(&b, c)
                    buf_put(&b, e)
                i += 2
                continue
            buf_put(&b, c)
            i += 1
        raise LiteralError(s, start, "unterminated string")
    finally:
        buf_free(&b)


cdef bint is_json_number(str t):
    cdef ScanState st
    cdef Py_ssize_t n = len(t)
    cdef int kind = PyUnicode_KIND(t)
    cdef void* d = PyUnicode_DATA(t)
    st.lossy = False
    if n == 0:
        return False
    if kind == 1:
        return check_number(<unsigned char*>d, 0, n, &st) == n
    if kind == 2:
        return check_number(<unsigned short*>d, 0, n, &st) == n
    return check_number(<Py_UCS4*>d, 0, n, &st) == n


cdef bint number_form(str w, Py_ssize_t n) noexcept:
    """Whether w[:n] is a number in a form the repair engine converts (007,
    0x1F, +5, .5, 5., 1_000, 2.e3) or a JSON number."""
    cdef Py_ssize_t i = 0, j
    cdef bint digits = False
    cdef Py_UCS4 c
    if n and (w[0] == c'+' or w[0] == c'-'):
        i = 1
    if n - i >= 3 and w[i] == c'0' and (w[i + 1] == c'x' or w[i + 1] == c'X'):
        for j in range(i + 2, n):
            c = w[j]
            if hexval(c) < 0 and c != c'_':
                return False
        return True
    j = i
    while j < n and (is_digit(w[j]) or w[j] == c'_'):
        digits = digits or is_digit(w[j])
        j += 1
    if j < n and w[j] == c'.':
        j += 1
        while j < n and (is_digit(w[j]) or w[j] == c'_'):
            digits = digits or is_digit(w[j])
            j += 1
    if not digits:
        return False
    if j < n and (w[j] == c'e' or w[j] == c'E'):
        j += 1
        if j < n and (w[j] == c'+' or w[j] == c'-'):
            j += 1
        while j < n and is_digit(w[j]):
            j += 1
    return j == n


cdef frozenset ENGINE_WORDS = frozenset(("nan", "-nan", "infinity", "-infinity", "inf", "-inf",
                                         "undefined"))
cdef tuple ENGINE_CALLS = ("ObjectId(", "ISODate(", "UUID(", "Date(", "Timestamp(", "NumberLong(",
                           "NumberInt(", "NumberDecimal(")


cdef bint bare_unsafe(str tok, bint quoted=True):
    """Whether a bare token holds structure or a form the repair engine reads
    otherwise (see the twin's ``_bare_unsafe``; the tests below only run for
    the first characters that can start what they look for)."""
    cdef Py_ssize_t n = len(tok), w = 0
    cdef Py_UCS4 c = tok[0]
    cdef str first
    if c == c'#' or c == c'+' or c == c'(' or c == 0x2026 or (quoted and u'"' in tok):
        return True
    if c == c'/' and n > 1 and (tok[1] == c'/' or tok[1] == c'*'):
        return True
    if c == c'.' and tok.startswith(u"..."):
        return True
    if c == c'-' or c == c'.' or is_digit(c) or c == c't' or c == c'T' or c == c'f' \
            or c == c'F' or c == c'n' or c == c'N':
        while w < n and not Py_UNICODE_ISSPACE(tok[w]):
            w += 1
        if c == c'-' or c == c'.' or is_digit(c):
            if number_form(tok, w):
                return w != n or not is_json_number(tok)
        elif w != n:
            first = tok[:w].lower()
            if first == u"true" or first == u"false" or first == u"null" or first == u"none":
                return True
    if (c == c'n' or c == c'N' or c == c'-' or c == c'i' or c == c'I' or c == c'u' or c == c'U') \
            and n <= 9 and tok.lower() in ENGINE_WORDS:
        return True
    if (c == c'O' or c == c'I' or c == c'U' or c == c'D' or c == c'T' or c == c'N') and u'(' in tok:
        return tok.startswith(ENGINE_CALLS)
    return False


cdef object put_bare(Buf* b, str tok):
    """Interpret a bare token: write its JSON text, return its value."""
    cdef Py_UCS4 c = tok[0]
    cdef object value
    cdef str low
    if c in u'tTfFnN':
        if len(tok) == 4 or len(tok) == 5:
            low = tok.lower()
            if low == u'true' or low == u'false':
                buf_ascii(b, b"true" if low == u'true' else b"false")
                return low == u'true'
            if low == u'null' or low == u'none':
                buf_ascii(b, b"null")
                return None
    elif (c == u'-' or u'0' <= c <= u'9') and is_json_number(tok):
        try:
            if u'.' in tok or u'e' in tok or u'E' in tok:
                value = float(tok)
            else:
                value = int(tok)
        except ValueError:   # more digits than int() accepts: keep the text
            pass
        else:
            for c in tok:
                buf_put(b, c)
            return value
    put_json_string(b, tok)
    return tok


cdef enum:
    L_VALUE = 0
    L_VALUE_OR_CLOSE = 1
    L_KEY = 2
    L_KEY_OR_CLOSE = 3
    L_AFTER = 4


def parse_object_literal(str s, Py_ssize_t max_depth=_MAX_DEPTH):
    """Parse a JavaScript/Python-style object literal; return (value, json_text).

    Keys may be bare or quoted; values may be objects, arrays, quoted strings
    (either quote) or bare tokens (true/false/null/none in any case, JSON
    numbers kept digit for digit, anything else a string). Pieces are
    separated by commas or newlines; a trailing comma is fine. Anything
    ambiguous (a piece without a colon, text after the end, an unclosed
    bracket, a bare token that holds structure) raises LiteralError rather
    than guessing.
    """
    return ol_parse(s, max_depth)


cdef tuple ol_parse(str s, Py_ssize_t max_depth, bint want_text=True):
    """Parse a JavaScript/Python-style object literal; return (value, json_text).

    Keys may be bare or quoted; values may be objects, arrays, quoted strings
    (either quote) or bare tokens (true/false/null/none in any case, JSON
    numbers kept digit for digit, anything else a string). Pieces are
    separated by commas or newlines; a trailing comma is fine. Anything
    ambiguous (a piece without a colon, text after the end, an unclosed
    bracket) raises LiteralError rather than guessing.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0, j, start
    cdef int state = L_VALUE
    cdef Py_UCS4 c, closer
    cdef bint newline
    cdef list stack = []       # frames: [container, key, opening index]
    cdef list frame
    cdef object value = None, top = None
    cdef object key = None
    cdef str tok
    cdef bint have_value
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    cdef int kind = PyUnicode_KIND(s)
    cdef void* data = PyUnicode_DATA(s)
    cdef Py_ssize_t lo, hi
    cdef bint quoted
    buf_init(&b, local, LOCAL_CAP)
    try:
        while True:
            # skip whitespace, remembering whether a line ended
            newline = False
            while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                if PyUnicode_READ(kind, data, i) == u'\n' or PyUnicode_READ(kind, data, i) == u'\r':
                    newline = True
                i += 1
            have_value = False
            if state == L_AFTER:
                if not stack:
                    if i < n:
                        raise LiteralError(s, i, "unexpected text after the end of the value")
                    return top, (buf_str(&b) if want_text else None)
                frame = <list>stack[len(stack) - 1]
                closer = u'}' if type(frame[0]) is dict else u']'
                if i >= n:
                    raise LiteralError(s, frame[2], "unclosed '%s'" % (u'{' if closer == u'}' else u'['))
                c = PyUnicode_READ(kind, data, i)
                if c == closer:
                    i += 1
                    stack.pop()
                    buf_put(&b, closer)
                    value = frame[0]
                    have_value = True
                elif c == u'}' or c == u']':
                    raise LiteralError(s, i, "'%s' does not close '%s'" % (c, u'{' if closer == u'}' else u'['))
                elif c == u',' or newline:
                    if c == u',':
                        i += 1
                        while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                            i += 1
                        if i < n and PyUnicode_READ(kind, data, i) == u',':
                            raise LiteralError(s, i, "empty piece between commas")
                    if i < n and PyUnicode_READ(kind, data, i) == closer:      # trailing separator
                        continue
                    buf_put(&b, u',')
                    state = L_KEY if closer == u'}' else L_VALUE
                    continue
                else:
                    raise LiteralError(s, i, "expected ',' or '%s'" % closer)
            elif state == L_KEY or state == L_KEY_OR_CLOSE:
                if i >= n:
                    raise LiteralError(s, (<list>stack[len(stack) - 1])[2], "unclosed '{'")
                c = PyUnicode_READ(kind, data, i)
                if c == u'}' and state == L_KEY_OR_CLOSE:
                    i += 1
                    frame = <list>stack.pop()
                    buf_put(&b, u'}')
                    value = frame[0]
                    have_value = True
                else:
                    start = i
                    if c == u'"' or c == u"'":
                        key, i = read_quoted(s, i, n)
                        while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                            i += 1
                        if i >= n or PyUnicode_READ(kind, data, i) != u':':
                            raise LiteralError(s, start, "expected ':' after key %r" % key)
                    else:
                        j = i
                        quoted = False
                        while j < n:
                            c = PyUnicode_READ(kind, data, j)
                            if c == u':' or c == u',' or c == u'{' or c == u'}' or c == u'[' \
                                    or c == u']' or c == u'\n' or c == u'\r':
                                break
                            if c == u'"':
                                quoted = True
                            j += 1
                        if j >= n or PyUnicode_READ(kind, data, j) != u':':
                            raise LiteralError(s, start, "piece %r has no colon" % s[start:j].strip())
                        lo, hi = start, j
                        while lo < hi and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, lo)):
                            lo += 1
                        while hi > lo and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, hi - 1)):
                            hi -= 1
                        key = s[lo:hi]
                        if not key:
                            raise LiteralError(s, start, "empty key")
                        if quoted:
                            raise LiteralError(s, start, "bare key %r holds a quote" % key)
                        i = j
                    i += 1   # the colon
                    (<list>stack[len(stack) - 1])[1] = key
                    put_json_string(&b, key)
                    buf_put(&b, u':')
                    state = L_VALUE
                    continue
            else:  # L_VALUE or L_VALUE_OR_CLOSE
                if i >= n:
                    if stack:
                        raise LiteralError(s, i, "missing value")
                    raise LiteralError(s, i, "empty text")
                c = PyUnicode_READ(kind, data, i)
                if c == u']' and state == L_VALUE_OR_CLOSE:
                    i += 1
                    frame = <list>stack.pop()
                    buf_put(&b, u']')
                    value = frame[0]
                    have_value = True
                elif c == u'{' or c == u'[':
                    if len(stack) >= max_depth:
                        raise LiteralError(s, i, "nesting deeper than %d levels" % max_depth)
                    stack.append([{} if c == u'{' else [], None, i])
                    buf_put(&b, c)
                    i += 1
                    state = L_KEY_OR_CLOSE if c == u'{' else L_VALUE_OR_CLOSE
                    continue
                elif c == u'"' or c == u"'":
                    value, i = read_quoted(s, i, n)
                    put_json_string(&b, value)
                    have_value = True
                else:
                    start = i
                    quoted = False
                    while i < n:
                        c = PyUnicode_READ(kind, data, i)
                        if c == u',' or c == u'}' or c == u']' or c == u'\n' or c == u'\r':
                            break
                        if c == u'"':
                            quoted = True
                        i += 1
                    lo, hi = start, i
                    while lo < hi and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, lo)):
                        lo += 1
                    while hi > lo and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, hi - 1)):
                        hi -= 1
                    tok = s[lo:hi]
                    if not tok:
                        raise LiteralError(s, start, "missing value")
                    if bare_unsafe(tok, quoted):
                        raise LiteralError(s, start, "bare value %r is not plain text" % tok)
                    value = put_bare(&b, tok)
                    have_value = True
            if have_value:
                if stack:
                    frame = <list>stack[len(stack) - 1]
                    if type(frame[0]) is dict:
                        (<dict>frame[0])[frame[1]] = value
                    else:
                        (<list>frame[0]).append(value)
                else:
                    top = value
                state = L_AFTER
    finally:
        buf_free(&b)



# ---------------------------------------------------------------------------
# The repair engine (after the seven strategies)
#
# One pass over the text with an explicit stack of frames; it writes the
# repaired JSON text straight into a buffer (the value is then parsed from it
# by orjson, or by the twin where orjson would not be exact) and logs what it
# changed. Same rules, messages and offsets as the twin (_recover_repair.py).

cdef enum:
    F_OBJ = 0
    F_ARR = 1
    F_TOP = 2
    S_KEY_FIRST = 0
    S_KEY_NEXT = 1
    S_COLON = 2
    S_VAL = 3
    S_AFTER = 4
    CTX_KEY = -1
    CTX_CALL = 3
    LOOK = 256
    MAX_FIXES = 100
    MAX_DIGITS = 4300

cdef tuple MONGO_STR = ("ObjectId", "ISODate", "UUID", "Date", "Timestamp")
cdef tuple MONGO_NUM = ("NumberLong", "NumberInt", "NumberDecimal")
cdef dict LITERAL_TEXT = {"true": "true", "false": "false", "null": "null", "none": "null",
                          "undefined": "null"}
cdef tuple NAN_WORDS = ("nan", "infinity", "inf")
cdef frozenset TOP_WORDS = frozenset(("nan", "infinity", "inf", "true", "false", "null", "none",
                                      "undefined"))


class _Refuse(Exception):
    pass


cdef struct Frame:
    int kind
    int state
    Py_ssize_t count
    Py_ssize_t mark   # buffer length before the member or element being written


cdef inline bint is_ident_start(Py_UCS4 c) noexcept:
    return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or c == c'_' or c == c'$'


cdef inline bint is_alnum(Py_UCS4 c) noexcept:
    """str.isalnum, with the ASCII answer inline."""
    if c < 128:
        return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or (c'0' <= c <= c'9')
    return Py_UNICODE_ISALNUM(c)


cdef inline bint is_alpha(Py_UCS4 c) noexcept:
    """str.isalpha, with the ASCII answer inline."""
    if c < 128:
        return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z')
    return Py_UNICODE_ISALPHA(c)


cdef inline bint is_word(Py_UCS4 c) noexcept:
    return is_alnum(c) or c == c'_'


cdef inline bint is_key_char(Py_UCS4 c) noexcept:
    return is_alnum(c) or c == c'_' or c == c'$' or c == c'@' or c == c'.' or c == c'-'


cdef inline bint is_odd_space(Py_UCS4 c) noexcept:
    return c == 0x200B or c == 0x200C or c == 0x200D or c == 0x2060 or c == 0xFEFF


cdef inline bint trailing_ok(Py_UCS4 c) noexcept:
    return ((c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or c >= 0x80 or c == c'<' or c == c'`'
            or c == c'~' or c == c';' or c == c')' or c == c'!' or c == c'?' or c == c'.'
            or c == c'*' or c == c'|' or c == c'>' or c == c'_')


@cython.final
cdef class _Repairer:
    cdef str s
    cdef int kind
    cdef void* data
    cdef Py_ssize_t n
    cdef list fixes
    cdef Py_ssize_t more, more_at, nfix
    cdef Buf out
    cdef Frame* stack
    cdef Py_ssize_t depth, cap
    cdef bint complete, key_struct, oom

    def __cinit__(self, str s):
        self.s = s
        self.kind = PyUnicode_KIND(s)
        self.data = PyUnicode_DATA(s)
        self.n = len(s)
        self.fixes = []
        self.more = 0
        self.more_at = 0
        self.nfix = 0
        self.out.data = NULL
        self.out.heap = False
        self.stack = NULL
        self.depth = 0
        self.cap = 0
        self.oom = False

    def __dealloc__(self):
        if self.out.heap:
            PyMem_Free(self.out.data)
        if self.stack != NULL:
            PyMem_Free(self.stack)

    cdef inline Py_UCS4 ch(self, Py_ssize_t i) noexcept:
        return PyUnicode_READ(self.kind, self.data, i)

    cdef int start_buffers(self) except -1:
        cdef Py_ssize_t cap = self.n + 16
        self.out.data = <Py_UCS4*>PyMem_Malloc(cap * sizeof(Py_UCS4))
        if self.out.data == NULL:
            raise MemoryError()
        self.out.heap = True
        self.out.cap = cap
        self.out.len = 0
        self.cap = 64
        self.stack = <Frame*>PyMem_Malloc(self.cap * sizeof(Frame))
        if self.stack == NULL:
            raise MemoryError()
        return 0

    cdef inline int fix(self, str code, Py_ssize_t pos, str message) except -1:
        if self.nfix >= MAX_FIXES and code != "cut":  # where the text was cut is always kept
            if not self.more:
                self.more_at = pos
            self.more += 1
            return 0
        self.fixes.append((code, pos, message))
        self.nfix += 1
        return 0

    cdef inline bint full(self) noexcept:
        return self.nfix >= MAX_FIXES

    cdef list log(self):
        if self.more:
            return self.fixes + [("more", self.more_at, f"{self.more} more fixes not listed")]
        return self.fixes

    cdef int refuse(self, Py_ssize_t pos, str what) except -1:
        raise _Refuse(pos, what)

    # -- whitespace and comments
    cdef Py_ssize_t ws(self, Py_ssize_t i) noexcept:
        cdef Py_UCS4 c
        while i < self.n:
            c = self.ch(i)
            if not (Py_UNICODE_ISSPACE(c) or is_odd_space(c)):
                break
            i += 1
        return i

    cdef Py_ssize_t find_char(self, Py_UCS4 c, Py_ssize_t i) noexcept:
        while i < self.n:
            if self.ch(i) == c:
                return i
            i += 1
        return -1

    cdef Py_ssize_t skip(self, Py_ssize_t i, bint hash_ok) except -2:
        cdef Py_ssize_t j, k, n = self.n
        cdef Py_UCS4 c
        cdef bint odd
        while True:
            j = i
            odd = False
            while j < n:
                c = self.ch(j)
                if c == c' ' or c == c'\n' or c == c'\r' or c == c'\t':
                    j += 1
                elif Py_UNICODE_ISSPACE(c) or is_odd_space(c):
                    odd = True
                    j += 1
                else:
                    break
            if odd:
                self.fix("whitespace", i, "odd whitespace treated as a space")
            i = j
            if i >= n:
                return i
            c = self.ch(i)
            if c == c'/' and i + 1 < n and self.ch(i + 1) == c'/':
                k = self.find_char(c'\n', i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            elif c == c'/' and i + 1 < n and self.ch(i + 1) == c'*':
                k = i + 2
                while k + 1 < n and not (self.ch(k) == c'*' and self.ch(k + 1) == c'/'):
                    k += 1
                self.fix("comment", i, "comment removed")
                i = n if k + 1 >= n else k + 2
            elif c == c'#' and hash_ok:
                k = self.find_char(c'\n', i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            else:
                return i

    cdef Py_ssize_t key_end(self, Py_ssize_t i) noexcept:
        while i < self.n and is_key_char(self.ch(i)):
            i += 1
        return i

    cdef bint key_then_colon(self, Py_ssize_t i) noexcept:
        """A bare key at i, then (after whitespace) a colon."""
        cdef Py_ssize_t e = self.key_end(i)
        if e == i:
            return False
        e = self.ws(e)
        return e < self.n and self.ch(e) == c':'

    # -- strings
    cdef bint closes(self, Py_ssize_t i, int ctx) noexcept:
        cdef Py_ssize_t n = self.n, j, k, end, lim
        cdef Py_UCS4 c, d, q
        if ctx == CTX_KEY:
            return True
        j = self.ws(i)
        if j >= n:
            return True
        c = self.ch(j)
        if ctx == CTX_CALL:
            return c == c')'
        if ctx == F_TOP:
            return True
        if c == c'}' or c == c']' or c == c':':
            return True
        if c == c',':
            k = self.ws(j + 1)
            if k >= n:
                return True
            if ctx == F_ARR:
                return True
            d = self.ch(k)
            if d == c'"' or d == c"'" or d == c'}' or d == c'/' or d == c'#' or d == c'.' \
                    or d == c'[' or d == c'{':
                return True
            return self.key_then_colon(k)
        if c == c'+':
            return True
        if c == c'/' and j + 1 < n and (self.ch(j + 1) == c'/' or self.ch(j + 1) == c'*'):
            return True
        if c == c'"' or c == c"'":
            if ctx == F_ARR:
                return j > i
            lim = j + LOOK if j + LOOK < n else n
            end = j + 1
            while end < lim and self.ch(end) != c:
                end += 1
            if end >= lim:
                return False
            for k in range(j + 1, end):
                if self.ch(k) == c'\n':
                    return False
            k = self.ws(end + 1)
            if k >= n:
                return False
            d = self.ch(k)
            return d == c':' or d == c'{' or d == c'['
        if ctx == F_ARR and (c == c'{' or c == c'[') and j > i:
            return True
        return False

    cdef inline int put(self, Py_UCS4 c) noexcept:
        if self.out.len == self.out.cap and not self.grow():
            return 0
        self.out.data[self.out.len] = c
        self.out.len += 1
        return 0

    cdef bint grow(self) noexcept:
        """Double the output buffer; False (and ``oom`` set) when memory ran out."""
        cdef Py_UCS4* data = <Py_UCS4*>PyMem_Realloc(self.out.data,
                                                     2 * self.out.cap * sizeof(Py_UCS4))
        if data == NULL:
            self.oom = True
            return False
        self.out.data = data
        self.out.cap *= 2
        return True

    cdef int put_ascii(self, const char* text) except -1:
        cdef Py_ssize_t k = 0
        while text[k] != 0:
            self.put(<Py_UCS4>text[k])
            k += 1
        return 0

    cdef int put_char(self, Py_UCS4 c) except -1:
        """One character of a string's content, JSON-escaped."""
        cdef const char* hexdigits = b"0123456789abcdef"
        cdef unsigned int code
        if c == c':' or c == c'}' or c == c'{' or c == c',':
            self.key_struct = True
        if c == c'"' or c == c'\\':
            self.put(c'\\')
            self.put(c)
        elif c >= 0x20 and not (0xD800 <= c <= 0xDFFF):
            self.put(c)
        elif c == c'\n':
            self.put_ascii(b"\\n")
        elif c == c'\r':
            self.put_ascii(b"\\r")
        elif c == c'\t':
            self.put_ascii(b"\\t")
        elif c == 8:
            self.put_ascii(b"\\b")
        elif c == 12:
            self.put_ascii(b"\\f")
        else:
            code = <unsigned int>c
            self.put_ascii(b"\\u")
            self.put(hexdigits[(code >> 12) & 15])
            self.put(hexdigits[(code >> 8) & 15])
            self.put(hexdigits[(code >> 4) & 15])
            self.put(hexdigits[code & 15])
        return 0

    cdef int hex4_at(self, Py_ssize_t i) noexcept:
        cdef int v = 0, d, k
        if i + 4 > self.n:
            return -1
        for k in range(4):
            d = hexval(self.ch(i + k))
            if d < 0:
                return -1
            v = v * 16 + d
        return v

    cdef Py_ssize_t string_body(self, Py_ssize_t i, int ctx) except -2:
        """s[i] opens a string: write its content (escaped, no quotes); return
        the index past it; self.complete says whether it was closed."""
        cdef Py_ssize_t n = self.n, j = i + 1, k
        cdef Py_UCS4 q = self.ch(i), c, e
        cdef int code, low
        cdef bint cut
        cdef bint inner = False
        cdef Py_UCS4* dst
        cdef Py_ssize_t w
        while True:
            # a run of plain characters, copied without per-character calls
            while self.out.cap - self.out.len < n - j:
                if not self.grow():
                    raise MemoryError()
            dst = self.out.data
            w = self.out.len
            while j < n:
                c = self.ch(j)
                if c < 0x20 or c == q or c == c'\\' or c == c'"' or 0xD800 <= c <= 0xDFFF:
                    break
                if ctx == CTX_KEY and (c == c':' or c == c'}' or c == c'{' or c == c','):
                    break
                dst[w] = c
                w += 1
                j += 1
            self.out.len = w
            if j >= n:
                if inner:
                    self.refuse(i, "a string with unescaped quotes in it runs to the end: "
                                   "where it ends is not known")
                self.fix("cut", i, "cut inside a key" if ctx == CTX_KEY else "cut inside a string")
                self.complete = False
                return n
            c = self.ch(j)
            if c == c'\\':
                if j + 1 >= n:
                    self.fix("cut", j, "cut inside an escape")
                    self.complete = False
                    return n
                e = self.ch(j + 1)
                if e == c'u':
                    code = self.hex4_at(j + 2)
                    if code >= 0:
                        k = j + 6
                        if 0xD800 <= code < 0xDC00 and k + 1 < n and self.ch(k) == c'\\' \
                                and self.ch(k + 1) == c'u':
                            low = self.hex4_at(k + 2)
                            if 0xDC00 <= low < 0xE000:
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                                k += 6
                        self.put_char(<Py_UCS4>code)
                        j = k
                        continue
                    if j + 6 > n:
                        cut = True
                        for k in range(j + 2, n):
                            if hexval(self.ch(k)) < 0:
                                cut = False
                                break
                        if cut:
                            self.fix("cut", j, "cut inside an escape")
                            self.complete = False
                            return n
                    self.put_char(c'\\')
                    self.put_char(c'u')
                    self.fix("escape", j, "invalid escape kept as a backslash")
                elif e == c'"' or e == c'\\' or e == c'/' or e == c"'":
                    self.put_char(e)
                    if e == c"'" and q == c'"':  # not a JSON escape: the text changes
                        self.fix("escape", j, "\\' read as ' (not a JSON escape)")
                elif e == c'b':
                    self.put_char(8)
                elif e == c'f':
                    self.put_char(12)
                elif e == c'n':
                    self.put_char(c'\n')
                elif e == c'r':
                    self.put_char(c'\r')
                elif e == c't':
                    self.put_char(c'\t')
                else:
                    self.put_char(c'\\')
                    self.put_char(e)
                    self.fix("escape", j, "invalid escape kept as a backslash")
                j += 2
            elif c == q:
                if self.closes(j + 1, ctx):
                    self.complete = True
                    return j + 1
                self.put_char(q)
                inner = True
                self.fix("inner_quote", j, "quote inside a string escaped")
                j += 1
            elif c < 0x20:
                self.put_char(c)
                self.fix("control", j, "control character inside a string escaped")
                j += 1
            else:
                self.put_char(c)
                j += 1

    # -- scalars
    cdef Py_ssize_t number_end(self, Py_ssize_t i) noexcept:
        """The end of the longest number form at i (the twin's _NUMBER)."""
        cdef Py_ssize_t n = self.n, j = i, k
        cdef Py_UCS4 c
        if j < n and (self.ch(j) == c'+' or self.ch(j) == c'-'):
            j += 1
        if j + 2 < n and self.ch(j) == c'0' and (self.ch(j + 1) == c'x' or self.ch(j + 1) == c'X') \
                and hexval(self.ch(j + 2)) >= 0:
            k = j + 2
            while True:
                while k < n and hexval(self.ch(k)) >= 0:
                    k += 1
                if k + 1 < n and self.ch(k) == c'_' and hexval(self.ch(k + 1)) >= 0:
                    k += 1
                    continue
                return k
        j = self.digits_end(j)
        if j < n and self.ch(j) == c'.':
            j = self.digits_end(j + 1)
        if j < n and (self.ch(j) == c'e' or self.ch(j) == c'E'):
            j += 1
            if j < n and (self.ch(j) == c'+' or self.ch(j) == c'-'):
                j += 1
            while j < n and is_digit(self.ch(j)):
                j += 1
        return j

    cdef Py_ssize_t digits_end(self, Py_ssize_t j) noexcept:
        """[0-9]+(_[0-9]+)* at j, or j."""
        cdef Py_ssize_t n = self.n
        if j >= n or not is_digit(self.ch(j)):
            return j
        while True:
            while j < n and is_digit(self.ch(j)):
                j += 1
            if j + 1 < n and self.ch(j) == c'_' and is_digit(self.ch(j + 1)):
                j += 1
                continue
            return j

    cdef Py_ssize_t number(self, Py_ssize_t i) except -2:
        """Write the number form at i as JSON; return its end, or -1 when it is
        cut before its first digit (the value is dropped)."""
        cdef Py_ssize_t n = self.n, end = self.number_end(i), j, k, ips, ipe, fps, fpe, es
        cdef Py_ssize_t nd = 0
        cdef Py_UCS4 c
        cdef bint neg = False, dot = False, has_exp = False, cut, underscores = False
        cdef bint exp_digits = False
        cdef str body
        if end < n:
            c = self.ch(end)
            if is_alnum(c) or c == c'_' or c == c'.' or c == c'$':
                self.refuse(i, "a bare word where a value belongs")
        j = i
        c = self.ch(j)
        if c == c'+' or c == c'-':
            neg = c == c'-'
            if c == c'+':
                self.fix("number", i, "'+' sign dropped")
            j += 1
        for k in range(j, end):
            if self.ch(k) == c'_':
                underscores = True
                break
        if underscores:
            self.fix("number", i, "digit separators dropped")
        if j + 1 < end and self.ch(j) == c'0' and (self.ch(j + 1) == c'x' or self.ch(j + 1) == c'X'):
            if end >= n:
                self.fix("cut", i, "cut inside a number")
            body = self.s[j + 2:end].replace("_", "")
            if len(body) + 2 > MAX_DIGITS // 2:
                self.refuse(i, "an integer too long to convert")
            self.fix("number", i, "hexadecimal number written in decimal")
            body = str(int(body, 16) * (-1 if neg else 1))
            for c in body:
                self.put(c)
            return end
        # integer part, fraction, exponent (underscores skipped)
        ips = j
        while j < end and (is_digit(self.ch(j)) or self.ch(j) == c'_'):
            j += 1
        ipe = j
        fps = fpe = j
        if j < end and self.ch(j) == c'.':
            dot = True
            j += 1
            fps = j
            while j < end and (is_digit(self.ch(j)) or self.ch(j) == c'_'):
                j += 1
            fpe = j
        es = j
        if j < end and (self.ch(j) == c'e' or self.ch(j) == c'E'):
            has_exp = True
            for k in range(j + 1, end):
                if is_digit(self.ch(k)):
                    exp_digits = True
        if ipe == ips and fpe == fps:
            if end >= n:
                return -1
            self.refuse(i, "a number with no digits")
        cut = end >= n
        if cut:
            self.fix("cut", i, "cut inside a number")
        if has_exp and not exp_digits:
            if not cut:
                self.refuse(i, "a number with an empty exponent")
            self.fix("truncated", i, "cut exponent dropped")
            has_exp = False
        if neg:
            self.put(c'-')
        if ipe == ips:
            self.put(c'0')
            self.fix("number", i, "leading zero added")
        else:
            k = ips
            while k < ipe - 1 and (self.ch(k) == c'0' or self.ch(k) == c'_'):
                k += 1
            if k > ips and self.digit_count(ips, ipe) > 1:
                self.fix("number", i, "leading zeros dropped")
            else:
                k = ips
            nd = self.digit_count(k, ipe)
            if nd > MAX_DIGITS and not dot and not has_exp:
                self.refuse(i, "an integer too long to convert")
            self.put_digits(k, ipe)
        if dot:
            if fpe == fps:
                if cut and not has_exp:
                    self.fix("truncated", i, "cut decimal point dropped")
                    dot = False
                else:
                    self.put_ascii(b".0")
                    self.fix("number", i, "zero added after the decimal point")
            else:
                self.put(c'.')
                self.put_digits(fps, fpe)
        if has_exp:
            self.put(c'e')
            for k in range(es + 1, end):
                self.put(self.ch(k))
        return end

    cdef Py_ssize_t digit_count(self, Py_ssize_t a, Py_ssize_t b) noexcept:
        cdef Py_ssize_t k, m = 0
        for k in range(a, b):
            if self.ch(k) != c'_':
                m += 1
        return m

    cdef int put_digits(self, Py_ssize_t a, Py_ssize_t b) except -1:
        cdef Py_ssize_t k
        cdef Py_UCS4 c
        for k in range(a, b):
            c = self.ch(k)
            if c != c'_':
                self.put(c)
        return 0

    cdef Py_ssize_t word(self, Py_ssize_t i, int ctx) except -2:
        """A bare word at i: a literal, NaN/Infinity, a MongoDB call."""
        cdef Py_ssize_t n = self.n, j = i, end, k
        cdef bint sign = False
        cdef str w, low, text, full
        cdef Py_UCS4 c
        c = self.ch(i)
        if c == c'+' or c == c'-':
            sign = True
            j += 1
        if j >= n or not is_ident_start(self.ch(j)):
            self.refuse(i, "unexpected character where a value belongs")
        end = j + 1
        while end < n and (is_word(self.ch(end)) or self.ch(end) == c'$'):
            end += 1
        # the common words compared in place (no string built for them)
        if not sign:
            text = None
            if self.same_word(j, end, b"true", True):
                text = "true"
            elif self.same_word(j, end, b"false", True):
                text = "false"
            elif self.same_word(j, end, b"null", True) or self.same_word(j, end, b"none", True) \
                    or self.same_word(j, end, b"undefined", True):
                text = "null"
            if text is not None:
                if not self.same_word(j, end, text.encode(), False):
                    self.fix("literal", i, (None if self.full() else f"{self.s[j:end]} written as {text}"))
                self.put_text(text)
                return end
        if self.same_word(j, end, b"nan", True) or self.same_word(j, end, b"infinity", True) \
                or self.same_word(j, end, b"inf", True):
            self.fix("nan", i, (None if self.full() else f"{self.s[i:end]} written as null"))
            self.put_ascii(b"null")
            return end
        w = self.s[j:end]
        low = w.lower()
        if not sign and end >= n:
            for full in ("true", "false", "null", "none", "undefined"):
                if full.startswith(low):
                    self.fix("cut", i, "cut inside a literal")
                    self.put_text(<str>LITERAL_TEXT[full])
                    return end
        k = self.ws(end)
        if not sign and k < n and self.ch(k) == c'(' and (w in MONGO_STR or w in MONGO_NUM):
            return self.call(i, w, k + 1)
        if not sign and (ctx == F_OBJ or ctx == F_ARR):
            # one word alone, as an object literal would read it
            k = end
            while k < n and (self.ch(k) == c' ' or self.ch(k) == c'\t'):
                k += 1
            if k >= n or self.ch(k) == c',' or self.ch(k) == c'}' or self.ch(k) == c']' \
                    or self.ch(k) == c'\n' or self.ch(k) == c'\r':
                if end >= n:
                    self.fix("cut", i, "cut inside a word")
                self.fix("word", i, (None if self.full() else f"bare word {w!r} written as a string"))
                self.put(c'"')
                self.put_text(w)
                self.put(c'"')
                return end
        self.refuse(i, "a bare word where a value belongs")
        return -2

    cdef bint same_word(self, Py_ssize_t a, Py_ssize_t b, const char* word, bint fold) noexcept:
        """Whether s[a:b] is ``word`` (ASCII; ``fold``: in any case)."""
        cdef Py_ssize_t k = 0
        cdef Py_UCS4 c
        while a + k < b:
            if word[k] == 0:
                return False
            c = self.ch(a + k)
            if fold and c'A' <= c <= c'Z':
                c = <Py_UCS4>(<unsigned int>c + 32)
            if c != <Py_UCS4>word[k]:
                return False
            k += 1
        return word[k] == 0

    cdef int put_text(self, str text) except -1:
        cdef Py_UCS4 c
        for c in text:
            self.put(c)
        return 0

    cdef Py_ssize_t call(self, Py_ssize_t i, str name, Py_ssize_t j) except -2:
        """ObjectId("..."), NumberLong(5), ...: the value inside."""
        cdef Py_ssize_t n = self.n, mark = self.out.len, start
        cdef Py_UCS4 c
        cdef bint numeric = name in MONGO_NUM
        cdef bint not_number = False, not_string = False
        cdef str arg
        j = self.skip(j, True)
        if j >= n:
            self.refuse(i, f"unclosed {name}(")
        c = self.ch(j)
        if c == c'"' or c == c"'":
            if not numeric:
                self.put(c'"')
            start = self.out.len
            j = self.string_body(j, CTX_CALL)
            if not self.complete:
                self.refuse(i, f"unclosed {name}(")
            if numeric:
                arg = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.out.data + start,
                                                self.out.len - start)
                self.out.len = mark
                arg = arg.strip()
                if is_json_number(arg):
                    self.put_text(arg)
                else:
                    not_number = True
            else:
                self.put(c'"')
        elif c == c'+' or c == c'-' or is_digit(c):
            j = self.number(j)
            if j < 0:
                self.refuse(i, f"unclosed {name}(")
            not_string = not numeric
        else:
            self.refuse(j, f"{name}( takes a string or a number")
        j = self.skip(j, True)
        if j >= n or self.ch(j) != c')':
            self.refuse(j, f"expected ')' to close {name}(")
        self.fix("mongo", i, (None if self.full() else f"{name}(...) written as its value"))
        if not_number:
            self.refuse(i, f"{name}( of something that is not a number")
        if not_string:
            self.refuse(i, f"{name}( of a number")
        return j + 1

    # -- the document
    cdef bint plausible(self, Py_ssize_t p) noexcept:
        cdef Py_ssize_t n = self.n, j = self.ws(p + 1), e
        cdef Py_UCS4 c
        cdef str w
        if j >= n:
            return False
        c = self.ch(j)
        if self.ch(p) == c'{':
            if c == c'"' or c == c"'" or c == c'}':
                return True
            return self.key_then_colon(j)
        if c == c'{' or c == c'[' or c == c'"' or c == c']' or c == c'-' or is_digit(c):
            return True
        if not is_ident_start(c):
            return False
        e = j + 1
        while e < n and (is_word(self.ch(e)) or self.ch(e) == c'$'):
            e += 1
        w = self.s[j:e]
        return w == "true" or w == "false" or w == "null"

    cdef Py_ssize_t start(self) except -2:
        """Where the JSON begins: after prose, fences, chat-template tokens."""
        cdef Py_ssize_t n = self.n, i, e, a, b, p
        cdef Py_UCS4 c
        i = self.skip(0, True)
        if i >= n:
            self.refuse(0, "no JSON value in the text (only whitespace or comments)")
        c = self.ch(i)
        if c == c'{' or c == c'[' or c == c'"' or c == c"'":
            return i
        if c == c'+' or c == c'-' or c == c'.' or is_digit(c):
            e = self.number_end(i)
            if e > i and (e >= n or not (is_alnum(self.ch(e)) or self.ch(e) == c'.'
                                         or self.ch(e) == c'_')):
                if self.ws(e) >= n:
                    return i
        if is_ident_start(c):
            e = i + 1
            while e < n and (is_word(self.ch(e)) or self.ch(e) == c'$'):
                e += 1
            if self.s[i:e].lower() in TOP_WORDS and self.ws(e) >= n:
                return i
        a = self.find_char(c'{', i)
        b = self.find_char(c'[', i)
        while True:
            if a < 0 and b < 0:
                self.refuse(i, "no JSON value in the text (prose, not arguments)")
            if b < 0 or 0 <= a < b:
                p = a
                a = self.find_char(c'{', a + 1)
            else:
                p = b
                b = self.find_char(c'[', b + 1)
            if self.plausible(p):
                self.fix("prose", i, "text before the JSON dropped")
                return p

    cdef int push(self, int kind) except -1:
        cdef Frame* grown
        if self.depth == self.cap:
            grown = <Frame*>PyMem_Realloc(self.stack, 2 * self.cap * sizeof(Frame))
            if grown == NULL:
                raise MemoryError()
            self.stack = grown
            self.cap *= 2
        self.stack[self.depth].kind = kind
        self.stack[self.depth].state = S_KEY_FIRST
        self.stack[self.depth].count = 0
        self.stack[self.depth].mark = self.out.len
        self.depth += 1
        return 0

    cdef int close(self) except -1:
        self.depth -= 1
        self.put(c'}' if self.stack[self.depth].kind == F_OBJ else c']')
        return 0

    cdef int close_all(self, Py_ssize_t i) except -1:
        if self.depth > 1:
            self.fix("truncated", i, (None if self.full() else f"{self.depth - 1} unclosed bracket(s) closed"))
        while self.depth > 1:
            self.close()
        return 0

    cdef bint key_follows(self, Py_ssize_t i) noexcept:
        """Whether a comma at i is followed by a key and its colon."""
        cdef Py_ssize_t n = self.n, k, end, lim
        cdef Py_UCS4 q
        if self.ch(i) != c',':
            return False
        k = self.ws(i + 1)
        if k >= n:
            return False
        q = self.ch(k)
        if q == c'"' or q == c"'":
            lim = k + LOOK if k + LOOK < n else n
            end = k + 1
            while end < lim and self.ch(end) != q:
                end += 1
            if end >= lim:
                return False
            end = self.ws(end + 1)
            return end < n and self.ch(end) == c':'
        return self.key_then_colon(k)

    cdef Py_ssize_t mismatched(self, Py_ssize_t i) except -2:
        """A closer that does not close the innermost container."""
        cdef Py_UCS4 c = self.ch(i), d
        cdef int want = F_OBJ if c == c'}' else F_ARR
        cdef Py_ssize_t k, found = -1, j
        cdef str closer
        for k in range(self.depth - 1, 0, -1):
            if self.stack[k].kind == want:
                found = k
                break
        if found < 0:
            self.fix("bracket", i, (None if self.full() else f"stray '{c}' dropped"))
            return i + 1
        j = self.skip(i + 1, True)
        if j < self.n:
            d = self.ch(j)
            if d != c'}' and d != c']':
                if found == 1:
                    # closing the outermost container would leave what follows
                    # outside the document: the closer can only be a typo
                    closer = "}" if self.stack[self.depth - 1].kind == F_OBJ else "]"
                    self.fix("bracket", i, (None if self.full() else f"'{c}' read as '{closer}'"))
                    self.close()
                    return i + 1
                self.refuse(i, f"'{c}' does not close the innermost bracket, and what follows "
                               "belongs to a different container in each reading")
        self.fix("bracket", i, (None if self.full() else f"'{c}' also closes the brackets inside it"))
        while self.depth > found:
            self.close()
        return i + 1

    cdef Py_ssize_t ellipsis(self, Py_ssize_t i) except -2:
        """An ellipsis at i (and a comma after it) dropped; the index past."""
        self.fix("ellipsis", i, "ellipsis dropped")
        i += 1 if self.ch(i) == 0x2026 else 3
        cdef Py_ssize_t j = self.skip(i, True)
        if j < self.n and self.ch(j) == c',':
            return j + 1
        return i

    cdef bint at_ellipsis(self, Py_ssize_t i) noexcept:
        cdef Py_UCS4 c = self.ch(i)
        return c == 0x2026 or (c == c'.' and i + 2 < self.n and self.ch(i + 1) == c'.'
                               and self.ch(i + 2) == c'.')

    cdef Py_ssize_t value(self, Py_ssize_t i, int ctx) except -2:
        """Write the value at i. Opens a frame for { and [; returns the index
        past the value, or -1 when a cut value is dropped."""
        cdef Py_ssize_t n = self.n, j, k, e
        cdef Py_UCS4 c = self.ch(i), d
        if c == c'{' or c == c'[':
            if self.depth > depth_bound:  # the top frame and depth_bound containers
                self.refuse(i, _TOO_DEEP)
            self.put(c)
            self.push(F_OBJ if c == c'{' else F_ARR)
            return i + 1
        if c == c'"' or c == c"'":
            self.put(c'"')
            j = self.string_body(i, ctx)
            if c == c"'":
                self.fix("quote", i, "single-quoted string")
            while True:
                k = self.ws(j)
                if k < n and self.ch(k) == c'+':
                    e = self.skip(k + 1, True)
                    if e < n and (self.ch(e) == c'"' or self.ch(e) == c"'"):
                        j = self.string_body(e, ctx)
                        self.fix("concat", k, "strings joined")
                        continue
                    self.refuse(k, "a concatenation with something that is not a string")
                break
            self.put(c'"')
            return j
        if is_digit(c) or c == c'.':
            return self.number(i)
        if c == c'+' or c == c'-':
            if i + 1 < n:
                d = self.ch(i + 1)
                if is_digit(d) or d == c'.':
                    return self.number(i)
            if i + 1 >= n:
                return -1
            return self.word(i, ctx)
        if is_alpha(c) or c == c'_' or c == c'$':
            return self.word(i, ctx)
        self.refuse(i, "unexpected character where a value belongs")
        return -2

    cdef int member_start(self, Frame* f) except -1:
        """Before an array element: remember where it starts, write a comma."""
        f.mark = self.out.len
        if f.count:
            self.put(c',')
        return 0

    cdef str run(self):
        cdef Py_ssize_t n = self.n, i, j, e, top_mark = 0
        cdef Py_UCS4 c = 0
        cdef Frame* f
        cdef int kind, state
        cdef bint at_end, done
        i = self.start()
        self.push(F_TOP)
        self.stack[0].state = S_VAL
        while True:
            f = &self.stack[self.depth - 1]
            kind = f.kind
            state = f.state
            if i < n:
                c = self.ch(i)
                if c == c' ' and i + 1 < n and c' ' < self.ch(i + 1) < 0x80 \
                        and self.ch(i + 1) != c'/' and self.ch(i + 1) != c'#':
                    i += 1   # one plain space before a token: the common case
                elif c <= c' ' or c == c'/' or c == c'#' or c >= 0x80:
                    i = self.skip(i, not (kind == F_OBJ and state == S_VAL))
            at_end = i >= n
            if not at_end:
                c = self.ch(i)
            if kind == F_TOP:
                if state == S_AFTER:
                    if at_end:
                        break
                    if c == c'}' or c == c']':
                        self.fix("bracket", i, (None if self.full() else f"extra '{c}' dropped"))
                        i += 1
                        continue
                    if c == c',':
                        j = self.skip(i + 1, True)
                        if j >= n:
                            self.fix("comma", i, "comma after the document dropped")
                            break
                        i = j
                        c = self.ch(j)
                    if c == c'{' or c == c'[':
                        self.fix("concatenated", i, "another value follows: the values as a list")
                        f.state = S_VAL
                        continue
                    if c == c'"' or c == c"'" or c == c':' or c == c'-' or is_digit(c):
                        self.refuse(i, "unexpected text after the end of the value")
                    if is_alpha(c) or c == c'_' or c == c'$':
                        if self.key_then_colon(i):
                            self.refuse(i, "a member after the end of the object")
                    if trailing_ok(c):
                        self.fix("prose", i, "text after the JSON dropped")
                        break
                    self.refuse(i, "unexpected text after the end of the value")
                if at_end:
                    self.refuse(i, "no JSON value in the text")
                if f.count:
                    self.put(c',')
                j = self.value(i, F_TOP)
                if j < 0:
                    self.refuse(i, "no JSON value in the text")
                f = &self.stack[0]
                f.state = S_AFTER
                f.count += 1
                i = j
                continue
            if kind == F_OBJ:
                if state == S_KEY_FIRST or state == S_KEY_NEXT:
                    if at_end:
                        self.fix("cut", n, "cut after a comma" if state == S_KEY_NEXT
                                 else "cut after an opening bracket")
                        self.close_all(n)
                        continue
                    if c == c'}':
                        if state == S_KEY_NEXT:
                            self.fix("comma", i, "trailing comma dropped")
                        self.close()
                        i += 1
                        continue
                    if c == c',':
                        self.fix("comma", i, "stray comma dropped")
                        i += 1
                        continue
                    if c == c']':
                        i = self.mismatched(i)
                        continue
                    if self.at_ellipsis(i):
                        i = self.ellipsis(i)
                        continue
                    f.mark = self.out.len
                    if f.count:
                        self.put(c',')
                    if c == c'"' or c == c"'":
                        self.put(c'"')
                        self.key_struct = False
                        j = self.string_body(i, CTX_KEY)
                        if not self.complete:
                            if self.key_struct:
                                self.refuse(i, "an unterminated key")
                            self.fix("truncated", i, "cut key dropped")
                            self.out.len = f.mark
                            self.close_all(n)
                            i = n
                            continue
                        self.put(c'"')
                    elif c == c':':
                        self.refuse(i, "a member with no key: a key would have to be invented")
                    elif c == c'{' or c == c'[':
                        self.refuse(i, "an object or array where a key belongs")
                    else:
                        j = self.key_end(i)
                        if j == i:
                            self.refuse(i, "unexpected character where a key belongs")
                        e = self.skip(j, True)
                        if (e < n and self.ch(e) != c':') or (e >= n and j < n):
                            self.refuse(i, f"piece {self.s[i:j]!r} has no colon")
                        self.fix("key", i, "key quoted")
                        self.put(c'"')
                        for e in range(i, j):
                            self.put(self.ch(e))
                        self.put(c'"')
                    self.put(c':')
                    f.state = S_COLON
                    i = j
                    continue
                if state == S_COLON:
                    if at_end:
                        self.fix("cut", i, "cut after a key")
                        self.out.len = f.mark
                        self.close_all(n)
                        continue
                    if c == c':':
                        j = self.skip(i + 1, False)
                        if j < n and self.ch(j) == c':':
                            self.refuse(j, "two colons after a key")
                        f.state = S_VAL
                        i += 1
                        continue
                    if c == c',' or c == c'}':
                        if not f.count and not self.key_follows(i):
                            self.refuse(i, "keys with neither colon nor value: a set, "
                                           "not an object")
                        self.fix("value", i, "missing value written as null")
                        self.put_ascii(b"null")
                        f.count += 1
                        f.state = S_AFTER
                        continue
                    self.fix("colon", i, "missing colon added")
                    f.state = S_VAL
                    continue
                if state == S_VAL:
                    if at_end:
                        self.fix("cut", i, "cut after a colon")
                        self.out.len = f.mark
                        self.close_all(n)
                        continue
                    if c == c',' or c == c'}':
                        self.fix("value", i, "missing value written as null")
                        self.put_ascii(b"null")
                        f.count += 1
                        f.state = S_AFTER
                        continue
                    if c == c']':
                        self.refuse(i, "']' where a value belongs")
                    if c == c':':
                        self.refuse(i, "two colons after a key")
                    f.state = S_AFTER
                    f.count += 1
                    j = self.value(i, F_OBJ)
                    if j < 0:
                        f = &self.stack[self.depth - 1]
                        self.fix("cut", i, "cut inside a number")
                        self.out.len = f.mark
                        self.close_all(n)
                        i = n
                        continue
                    i = j
                    continue
                # S_AFTER
                if at_end:
                    self.close_all(n)
                    continue
                if c == c',':
                    f.state = S_KEY_NEXT
                    i += 1
                    continue
                if c == c'}':
                    self.close()
                    i += 1
                    continue
                if c == c']':
                    i = self.mismatched(i)
                    continue
                if c == c':':
                    self.refuse(i, "a colon after a value")
                if c == c'"' or c == c"'" or is_key_char(c):
                    self.fix("comma", i, "missing comma added")
                    f.state = S_KEY_NEXT
                    continue
                if self.at_ellipsis(i):
                    f.state = S_KEY_NEXT
                    continue
                self.refuse(i, "expected ',' or '}' after a member")
            # array
            if state == S_VAL or state == S_KEY_FIRST:
                if at_end:
                    self.fix("cut", n, "cut after a comma" if state == S_VAL
                             else "cut after an opening bracket")
                    self.close_all(n)
                    continue
                if c == c']':
                    if state == S_VAL:
                        self.fix("comma", i, "trailing comma dropped")
                    self.close()
                    i += 1
                    continue
                if c == c',':
                    if state == S_KEY_FIRST:
                        self.fix("comma", i, "stray comma dropped")
                        i += 1
                        continue
                    self.refuse(i, "an empty element between commas")
                if c == c'}':
                    i = self.mismatched(i)
                    continue
                if c == c':':
                    self.refuse(i, "a colon where a value belongs")
                if self.at_ellipsis(i):
                    i = self.ellipsis(i)
                    continue
                f.state = S_AFTER
                self.member_start(f)
                f.count += 1
                j = self.value(i, F_ARR)
                if j < 0:
                    f = &self.stack[self.depth - 1]
                    self.fix("cut", i, "cut inside a number")
                    self.out.len = f.mark
                    self.close_all(n)
                    i = n
                    continue
                i = j
                continue
            # array S_AFTER
            if at_end:
                self.close_all(n)
                continue
            if c == c',':
                f.state = S_VAL
                i += 1
                continue
            if c == c']':
                self.close()
                i += 1
                continue
            if c == c'}':
                i = self.mismatched(i)
                continue
            if c == c':':
                self.refuse(i, "a key inside an array")
            if self.at_ellipsis(i):
                f.state = S_VAL
                continue
            if (c == c'"' or c == c"'" or c == c'{' or c == c'[' or c == c'+' or c == c'-'
                    or c == c'.' or is_digit(c) or is_alpha(c)):
                self.fix("comma", i, "missing comma added")
                f.state = S_VAL
                continue
            self.refuse(i, "expected ',' or ']' after an element")
        if self.oom:
            raise MemoryError()
        text = buf_str(&self.out)
        if self.stack[0].count > 1:
            text = "[" + text + "]"
        return text


_DOUBLE_ENCODED_PY = None


cdef object _twin_value(str text):
    from toolmend._kernels._recover_repair import repair_json as twin
    return twin(text)[0]


cdef object value_of(str text):
    """The value of the repaired text: orjson's (the engine never nests deeper
    than orjson reads), unless it would not be exact (long integers, numbers
    beyond a double)."""
    if not needs_exact(text):
        try:
            return orjson_loads(text)
        except JSONDecodeError:
            pass
    return _twin_value(text)


def repair_json(str s):
    """Repair ``s`` into JSON: ``(value, json_text, fixes)``, each fix a tuple
    ``(code, offset, message)``. Raises LiteralError (what and where) when no
    reading is safe. See the twin for the rules."""
    cdef _Repairer eng = _Repairer(s), inner
    cdef Py_ssize_t start
    cdef str text
    cdef list fixes
    try:
        eng.start_buffers()
        start = eng.start()
        if double_encoded_at(eng, start):
            inner = _Repairer(_unescape_sub(_unescape_one, s[start:]))
            inner.start_buffers()
            inner.fix("double_encoded", start, "backslash-escaped JSON unescaped")
            text = inner.run()
            fixes = eng.log() + inner.log()
        else:
            eng.fixes.clear()
            eng.more = 0
            eng.nfix = 0
            text = eng.run()
            fixes = eng.log()
    except _Refuse as exc:
        raise LiteralError(s, exc.args[0], exc.args[1]) from None
    return value_of(text), text, fixes


cdef bint double_encoded_at(_Repairer eng, Py_ssize_t i) noexcept:
    """[{ then any of whitespace [ {, then a backslash and a quote (the
    twin's _DOUBLE_ENCODED)."""
    cdef Py_ssize_t n = eng.n
    cdef Py_UCS4 c
    if i >= n or not (eng.ch(i) == c'{' or eng.ch(i) == c'['):
        return False
    i += 1
    while i < n:
        c = eng.ch(i)
        if not (Py_UNICODE_ISSPACE(c) or c == c'[' or c == c'{'):
            break
        i += 1
    return i + 1 < n and eng.ch(i) == c'\\' and eng.ch(i + 1) == c'"'


import re as _re

_unescape_sub = _re.compile(r"\\(.)", _re.S).sub


def _unescape_one(m):
    e = m.group(1)
    return e if e in "\"\\/" else m.group(0)
