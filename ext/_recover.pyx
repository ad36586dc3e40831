# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# cython: freethreading_compatible=True
"""Compiled scanners for tool-call argument recovery.

Twin of ``toolmend/_kernels/_recover_py.py``: same results, same error messages. Every
scanner walks the text once and keeps an explicit state (outside / inside a string) so
that text inside string values is never rewritten. Nothing here recurses: the literal
parser, the engine and the exact reader keep their own stacks.

The names both twins export, with the same signatures (tests/test_kernel_line.py checks
them against the pure twin, the reference): ``recover_text``, ``recover_value`` (the text
strategies, steps 0-5), ``parse_object_literal`` (strategy 7), ``repair_json`` (the repair
engine), ``strip_comments``, ``normalize_structural_quotes`` and ``Refused``, the refusal
of the last two readers (``pos``, ``what``), which toolmend.recovery turns into
LiteralError. Every value returned holds its integers exactly (the exact reader below).
Files: this one (the text strategies and the exact reader), ``_recover_literal.pxi``,
``_recover_tokens.pxi`` and ``_recover_repair.pxi``, each beside its twin's file.
"""
from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_4BYTE_KIND, PyUnicode_FromKindAndData

import orjson as _orjson

from _jsongrammar cimport uchar, ScanState, scan_impl, check_number, hexval, is_digit

cdef object orjson_loads = _orjson.loads
cdef object JSONDecodeError = _orjson.JSONDecodeError

from libc.stdlib cimport strtod
from libc.string cimport memcpy, memmove
cimport cython

# The deepest nesting the parsers build, and the refusal past it: toolmend._text's MAX_DEPTH
# and TOO_DEEP (a kernel imports nothing above _kernels; tests/test_kernel_line.py checks
# that both twins refuse at the same depth with the same words).
cdef enum:
    depth_bound = 1024
cdef str TOO_DEEP = "nesting deeper than 1024 levels"


class Refused(ValueError):
    """No reading is safe: ``what`` went wrong at offset ``pos``."""

    def __init__(self, pos, what):
        super().__init__(pos, what)
        self.pos = pos
        self.what = what

cdef extern from "Python.h":
    Py_ssize_t PyDict_GET_SIZE(object d)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch) nogil
    bint Py_UNICODE_ISALPHA(Py_UCS4 ch) nogil
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object o)
    bint PyUnicode_IS_ASCII(object o)

# Below this length a text that fails the pre-filter skips orjson (whose
# exception costs more than the scan); above it valid text dominates.
cdef Py_ssize_t PREFILTER_MAX = 512

# (C:\Users\bob\test: \U is no escape, so the writer did not escape its backslashes; \b and \t
# then may be text too, and so may \\: \\server\share is a UNC path as written)
cdef const char* MIXED_ESCAPES = (b"a string holding a backslash JSON does not read (\\U) and one it "
                                  b"reads as a control character or a backslash (\\b, \\\\): whether its "
                                  b"backslashes are escapes or text (a path, a regex, LaTeX) is a guess")

# ('It''s' in single quotes: the quote written twice, as SQL and YAML escape one; Python joins
# two strings there, 'It' 's' is 'Its'; JSON has neither. Read as written: a doubled quote that
# ends the string or opens it, and any in double quotes, print("") being code far more often)
cdef const char* DOUBLED_QUOTE = (b"a quote written twice inside a string ('It''s'): one quote, as SQL and "
                                  b"YAML escape it, two quotes, or two strings Python joins (Its): "
                                  b"which was meant cannot be told")

# ("C:\Users\me\", "b": 1: the quote before the comma escaped, the string never closed: a text
# ending in a backslash, a Windows path's, then its closing quote, or a quote in the text)
cdef const char* ESCAPED_CLOSER = (b"a string that never closes holds an escaped quote right before a comma "
                                   b"and a key: a backslash ending the text (a path's) and its closing "
                                   b"quote, or a quote in the text and the closing one left out, two readings")

# ({"a": {"x": 1], "b": 4}: a ']' no array takes, dropped, then the text ends with its objects open:
# a mistyped '}' puts "b" in the outer object, a stray ']' in the inner one)
cdef const char* STRAY_OR_MISTYPED = (b"a closer that no open container takes, and the text then ends with "
                                      b"its containers open: a stray closer or one mistyped for the closer "
                                      b"it lacks, which put what follows in different containers, two readings")

cdef const char* SPLIT_QUOTES = (b"a string holding unescaped quotes, then another after a comma: the "
                                 b"quotes between them may be the text's (one string) or end the first, "
                                 b"two readings")

# Step numbers returned by recover_text(); toolmend.recovery names them.


# The scanners are written once over the fused character type of the shared
# grammar and compiled for each storage kind of str (1, 2 or 4 bytes per
# character): the common ASCII / Latin-1 text runs as a plain byte loop.


include "_recover_buf.pxi"
include "_recover_chars.pxi"


# ---------------------------------------------------------------------------
# Validity pre-filter

cdef inline bint beyond_64_bits(const uchar* data, Py_ssize_t lo, Py_ssize_t hi, bint neg) noexcept:
    """Whether the digits data[lo:hi] are an integer orjson reads as a float:
    above 2**64 - 1, or (``neg``) below -2**63."""
    cdef const char* bound = b"9223372036854775808" if neg else b"18446744073709551615"
    cdef Py_ssize_t width = 19 if neg else 20, k
    if hi - lo != width:
        return hi - lo > width
    for k in range(width):
        if data[lo + k] != <Py_UCS4>bound[k]:
            return data[lo + k] > <Py_UCS4>bound[k]
    return False


cdef bint lossy_ints_k(const uchar* data, Py_ssize_t n) noexcept:
    """Whether the valid JSON data[:n] may hold an integer token orjson reads
    as a float (beyond 64 bits). Such a token is a run of 19 or more digits,
    which covers one of the probes at 18, 37, 56, ...: a run found counts
    unless it cannot be one (within 64 bits for its sign, a fraction or an
    exponent after it, before it a character no number token follows: a
    quote, a letter, so inside a string). What counts is only read again."""
    cdef Py_ssize_t p = 18, lo, hi, b
    cdef bint neg
    cdef Py_UCS4 c
    while p < n:
        if is_digit(data[p]):
            lo = p
            while lo > 0 and is_digit(data[lo - 1]):
                lo -= 1
            hi = p + 1
            while hi < n and is_digit(data[hi]):
                hi += 1
            if hi - lo >= 19:
                b = lo
                neg = b > 0 and data[b - 1] == c'-'
                if neg:
                    b -= 1
                if beyond_64_bits(data, lo, hi, neg) and (
                        hi >= n or not (data[hi] == c'.' or data[hi] == c'e' or data[hi] == c'E')):
                    if b == 0:
                        return True
                    c = data[b - 1]
                    if (c == c' ' or c == c'\t' or c == c'\n' or c == c'\r' or c == c'['
                            or c == c',' or c == c':'):
                        return True
            p = hi + 18
        else:
            p += 19
    return False


cdef bint lossy_ints(str s):
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    if kind == 1:
        return lossy_ints_k(<const unsigned char*>d, len(s))
    if kind == 2:
        return lossy_ints_k(<const unsigned short*>d, len(s))
    return lossy_ints_k(<const Py_UCS4*>d, len(s))


include "_jsonexact.pxi"  # the kernels' one exact reader (also the JSON kernel's load_exact)

cdef object _INT = int
cdef object _FLOAT = float


cdef inline object read_exact(str s):
    """The value of the valid JSON ``s`` with its integers exact (a Python int
    at any size, where orjson makes those beyond 64 bits floats) and every
    other number the float of its text (of the text strategies' values and of
    the engine's; both are at most 1024 levels deep)."""
    return exact_read(s, _INT, _FLOAT, 1 << 30)


cdef bint holds_no_float(object value, Py_ssize_t budget) except -1:
    """Whether orjson's ``value`` holds no float, told by looking at no more
    than ``budget`` members and elements (False when one is there, or when
    the budget runs out first). orjson reads an integer beyond 64 bits as a
    float, so a value with none lost no integer: a text of long strings (a
    file's content) needs no probe of its characters. No recursion."""
    cdef list stack
    cdef object c, item
    cdef PyObject* key
    cdef PyObject* member
    cdef Py_ssize_t pos, k
    if type(value) is float:
        return False
    if not (type(value) is dict or type(value) is list):
        return True
    stack = [value]
    while stack:
        c = stack.pop()
        if type(c) is dict:
            budget -= PyDict_GET_SIZE(c)
            if budget < 0:
                return False
            pos = 0
            while PyDict_Next(c, &pos, &key, &member):
                item = <object>member
                if type(item) is float:
                    return False
                if type(item) is dict or type(item) is list:
                    stack.append(item)
        else:
            budget -= PyList_GET_SIZE(c)
            if budget < 0:
                return False
            for k in range(PyList_GET_SIZE(c)):
                item = (<list>c)[k]
                if type(item) is float:
                    return False
                if type(item) is dict or type(item) is list:
                    stack.append(item)
    return True


cdef Py_ssize_t LOOK_FIRST_MIN = 4096


cdef object exact_value(str text, object value):
    """orjson's ``value`` of the valid ``text``, or the exact reader's when an
    integer beyond 64 bits may be there. The value of a long text is looked
    at first when it has few members (a budget of one per 128 characters
    costs less than the probe of the text, made when that did not settle it;
    below LOOK_FIRST_MIN characters the probe alone is cheaper)."""
    if (len(text) >= LOOK_FIRST_MIN and holds_no_float(value, len(text) >> 7)) or not lossy_ints(text):
        return value
    return read_exact(text)


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

cdef bint closes_here(const uchar* data, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
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
    cdef Py_UCS4 c
    if PyUnicode_IS_ASCII(s):
        return s  # no curly quote can be there: no scan (a flag of the string)
    for c in s:
        if is_curly_double(c) or is_curly_single(c) or is_other_quote(c):
            break
    else:
        return s
    return run_pass(OP_CURLY, s, data, n)


cdef str run_pass(int op, str s, const uchar* data, Py_ssize_t n):
    """Run the pass of ``op`` (OP_CURLY, OP_COMMENTS) into a buffer, without the
    GIL past NOGIL_MIN characters: the text it wrote, or ``s`` when it changed
    nothing."""
    cdef Py_ssize_t done
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    buf_init(&b, local, LOCAL_CAP)
    try:
        if n >= NOGIL_MIN:
            with nogil:
                done = structural_pass(data, n, &b) if op == OP_CURLY else comments_pass(data, n, &b)
        else:
            done = structural_pass(data, n, &b) if op == OP_CURLY else comments_pass(data, n, &b)
        return buf_str(&b) if done > 0 else s
    finally:
        buf_free(&b)


cdef Py_ssize_t structural_pass(const uchar* data, Py_ssize_t n, Buf* out) except -1 nogil:
    """The pass of structural_quotes_k, into ``out``: how many curly strings it converted."""
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t open_in = 0, open_out = 0  # where the current curly string opened
    cdef Py_UCS4 c
    cdef Py_UCS4 last = u'{'   # last significant character outside strings
    cdef Py_UCS4 opener = 0    # the quote that opened the current curly string
    cdef Py_UCS4 plain = u'"'  # the ASCII quote it stands for
    cdef int state = 0         # 0 out, 1 in "..", 2 in '..', 3 in a curly string
    cdef Py_ssize_t converted = 0
    cdef bint may_open = True  # cleared once an opener found no closer
    cdef bint closer_seen = False  # a quote that could have closed it was seen in it
    while True:
        if i >= n:
            if state < 3 or not closer_seen:
                break  # (a curly string that runs to the end with no closer in it: cut there)
            # The curly quote at open_in closed nothing: it was text after
            # all. Undo from there, and open no further curly strings.
            out.len = open_out
            c = data[open_in]
            buf_put(out, c)
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
            elif may_open and (is_curly_double(c) or is_curly_single(c) or is_other_quote(c)) and (
                    last == u'{' or last == u'[' or last == u',' or last == u':'):
                open_in = i - 1
                open_out = out.len
                opener = c
                plain = u"'" if is_curly_single(c) else u'"'
                c = plain
                state = 3
                closer_seen = False
                converted += 1
            elif not Py_UNICODE_ISSPACE(c):
                last = c
            buf_put(out, c)
        elif state == 1 or state == 2:
            buf_put(out, c)
            if c == u'\\' and i < n:
                buf_put(out, data[i])
                i += 1
            elif (state == 1 and c == u'"') or (state == 2 and c == u"'"):
                state = 0
                last = u'"'
        elif c == u'\\' and i < n:
            buf_put(out, c)
            buf_put(out, data[i])
            i += 1
        elif closes_quote(opener, c) and closes_here(data, n, i):
            buf_put(out, plain)
            state = 0
            last = u'"'
        elif c == plain:
            buf_put(out, u'\\')
            buf_put(out, c)
        else:
            if closes_quote(opener, c):
                closer_seen = True
            buf_put(out, c)
    return converted


def normalize_structural_quotes(str s):
    """Turn curly quotes that delimit strings into ASCII quotes.

    A curly quote (or a German „ or a guillemet, « » › ‹, in either
    direction) opens a string where a key or value may start (after
    ``{ [ , :`` or at the start) and a quote of its pair closes it when a
    structural character follows. Curly quotes inside strings, and
    apostrophes in bare words, stay; an opener that finds no closer stays too
    (and, to keep the scan linear, no later curly quote opens a string),
    unless no quote of its pair follows at all: then the string runs to the
    end, cut there. Returns ``s`` itself when nothing changed.
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


# ---------------------------------------------------------------------------
# Strategy 3: bare keys -> quoted keys

cdef inline bint is_bare_key_char(Py_UCS4 c) noexcept:
    return not (Py_UNICODE_ISSPACE(c) or c == u':' or c == u',' or c == u'{' or c == u'}'
                or c == u'[' or c == u']' or c == u'"' or c == u"'")


cdef inline bint is_hex(Py_UCS4 c) noexcept nogil:
    return is_digit(c) or c'a' <= c <= c'f' or c'A' <= c <= c'F'


cdef inline bint u_escape_at(const uchar* data, Py_ssize_t i, Py_ssize_t end) noexcept:
    """A \\uXXXX escape at i, whole before end (JSON5 allows one in a bare key)."""
    return (i + 5 < end and data[i + 1] == u'u' and is_hex(data[i + 2]) and is_hex(data[i + 3])
            and is_hex(data[i + 4]) and is_hex(data[i + 5]))


cdef inline Py_ssize_t skip_quoted(const uchar* data, Py_ssize_t n, Py_ssize_t i, Buf* b) except -2 nogil:
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


cdef int copy_prefix(Buf* b, const uchar* data, Py_ssize_t end) except -1 nogil:
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
                        if c == u'\\' and not u_escape_at(data, i, j):
                            buf_put(out, u'\\')  # a \\uXXXX escape stays one
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


# ---------------------------------------------------------------------------
# Comments: // to the end of the line, /* ... */

cdef str comments_k(str s, const uchar* data, Py_ssize_t n):
    if u'/' not in s:
        return s
    return run_pass(OP_COMMENTS, s, data, n)


cdef int comments_pass(const uchar* data, Py_ssize_t n, Buf* b) except -2 nogil:
    """The pass of comments_k, into ``b``: 1 when it dropped a comment, 0 when
    there was none, -1 when a ``/*`` is unclosed (the text stays)."""
    cdef Py_ssize_t i = 0, k
    cdef Py_UCS4 c
    cdef Buf* out = NULL       # NULL until the first comment
    while i < n:
        c = data[i]
        if c == u'"' or c == u"'":
            i = skip_quoted(data, n, i, out)
            continue
        if c == u'/' and i + 1 < n and (data[i + 1] == u'/' or data[i + 1] == u'*'):
            if out == NULL:
                out = b
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
                    return -1
                buf_put(out, u' ')   # a comment separates like a space
                i = k + 2
            continue
        if out != NULL:
            buf_put(out, c)
        i += 1
    return 1 if out != NULL else 0


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
    """Run the text-rewriting steps in contract order; return
    ``(step, candidate, base)``: ``step`` is the first step at or after
    ``start`` whose candidate passes the pre-filter, or -1 when none does;
    ``candidate`` is that step's text; ``base`` is the trimmed text after
    curly-quote normalization, the input of the later strategies. Steps 2-5
    compose: each works on the output of the earlier ones that changed
    something. When orjson refuses a candidate, call again with
    ``start = step + 1``."""
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


def recover_text(str text, bint curly=True):
    """Steps 0-5 with orjson as the judge: ``(step, candidate, value, base)``.

    ``step`` is the first step whose candidate orjson parses (0 parse, 1 curly
    quotes, 2 single quotes, 3 unquoted keys, 4 quotes and keys, 5 trailing
    commas) and ``value`` its value, integers exact; or -1 with ``base`` (the
    trimmed text after the curly-quote step) left for the later strategies.
    """
    cdef int start = 0
    cdef int step
    cdef tuple found
    cdef object value
    if len(text) > PREFILTER_MAX and not unclosed(text):  # long text: most likely valid
        try:
            value = orjson_loads(text)
        except JSONDecodeError:
            start = 1
        else:
            return 0, text, exact_value(text, value), text
    while True:
        found = repair_from(text, start, curly)
        step = found[0]
        if step < 0:
            return -1, found[1], None, found[2]
        try:
            value = orjson_loads(found[1])
        except JSONDecodeError:
            start = step + 1
        else:
            return step, found[1], exact_value(found[1], value), found[2]


def make_loads(fallback, with_schema=None):
    """Build ``loads(raw, tool=None, *, schema=None, fill_defaults=False)``
    for recovery (which owns it and hands in the rest): text without a tool
    goes through ``recover_value`` right here (no Python frame on the hot
    path: a bare orjson.loads plus the exactness scan); anything else, and
    text no step recovered, is ``fallback(raw, tool, found)`` (``found``: the
    1-tuple ``(base,)``, or None when not tried); a call with a schema is
    ``with_schema(raw, tool, schema, fill_defaults)``."""
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


def exact_json(object not_json, str text):
    """``recover_text``'s step 0 alone: the value of ``text`` when it is valid
    JSON as written (integers exact), else ``not_json``; no tuple built (the
    everyday tool call's arguments, once per call)."""
    if unclosed(text) or (len(text) <= PREFILTER_MAX and not scan_json(text)):
        return not_json
    try:
        return exact_value(text, orjson_loads(text))
    except JSONDecodeError:
        return not_json


def recover_value(str text, bint curly=True):
    return recover_value_c(text, curly)


cdef object recover_value_c(str text, bint curly):
    """``recover_text`` for callers that want only the value (integers
    exact), then the object literal for text that starts with ``{`` or ``[``
    and holds no ``/`` (comments come first): the value, or, when neither
    worked, a 1-tuple ``(base,)`` (JSON never parses to a tuple; ``()``: a
    value holding an opening curly quote, which recovery checks). Saves
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
        if start == 1 and PyUnicode_IS_ASCII(text) and u'\\' not in text and u'/' not in text:
            # Not JSON, and no escape, no comment, no curly quote (ASCII): steps
            # 2-5 can only convert plain single-quoted strings, quote bare keys
            # and drop trailing commas, and wherever they would give JSON the
            # literal parser gives the same value. Ask it first (only loads
            # takes this path, and only the value is returned).
            base = text.strip()
            if base and base[0] == c'{' and base[len(base) - 1] == c'}':
                try:
                    return ol_parse(base, depth_bound, False)[0]
                except Refused:
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
                    and not unclosed(base) and not (curly and holds_opening_quote(base)):
                try:
                    return ol_parse(base, depth_bound, False)[0]
                except Refused:
                    pass
            return (base,)
        try:
            value = orjson_loads(found[1])
        except JSONDecodeError:
            start = step + 1
        else:
            if step > 0 and curly and holds_opening_quote(<str>found[1]):
                return ()  # (recovery checks that no curly quote was left open: its whole path)
            return exact_value(found[1], value)


# The object literal, the engine's scanner and the engine live beside their twins' files of
# the same name (src/toolmend/_kernels/).
include "_recover_literal.pxi"
include "_recover_tokens.pxi"
include "_recover_lookahead.pxi"
include "_recover_repair.pxi"
