# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled scanners for tool-call argument recovery.

Twin of ``toolmend/_recover_py.py``: same functions, same results, same error
messages. Every scanner walks the text once and keeps an explicit state
(outside / inside a string) so that text inside string values is never
rewritten. Nothing here recurses: the literal parser keeps its own stack.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND

from toolmend.errors import LiteralError

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)

# ---------------------------------------------------------------------------
# A growable UCS4 buffer: cheaper than joining a list of pieces for the short
# texts that tool arguments are.

cdef struct Buf:
    Py_UCS4* data
    Py_ssize_t len
    Py_ssize_t cap


cdef int buf_init(Buf* b, Py_ssize_t cap) except -1:
    if cap < 16:
        cap = 16
    b.data = <Py_UCS4*>PyMem_Malloc(cap * sizeof(Py_UCS4))
    if b.data == NULL:
        raise MemoryError()
    b.len = 0
    b.cap = cap
    return 0


cdef int buf_grow(Buf* b) except -1:
    cdef Py_ssize_t cap = b.cap * 2
    cdef Py_UCS4* data = <Py_UCS4*>PyMem_Realloc(b.data, cap * sizeof(Py_UCS4))
    if data == NULL:
        raise MemoryError()
    b.data = data
    b.cap = cap
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


cdef inline void buf_free(Buf* b):
    PyMem_Free(b.data)
    b.data = NULL


cdef inline bint is_json_ws(Py_UCS4 c):
    return c == u' ' or c == u'\t' or c == u'\n' or c == u'\r'


cdef inline bint is_curly_double(Py_UCS4 c):
    return c == 0x201C or c == 0x201D or c == 0x2033


cdef inline bint is_curly_single(Py_UCS4 c):
    return c == 0x2018 or c == 0x2019 or c == 0x2032


# ---------------------------------------------------------------------------
# Validity pre-filter

cdef Py_ssize_t skip_json_string(str s, Py_ssize_t i, Py_ssize_t n):
    """i is just past the opening quote; return the index past the closing
    quote, or -1 when the string is not valid JSON."""
    cdef Py_UCS4 c
    cdef int k
    while i < n:
        c = s[i]
        if c == u'"':
            return i + 1
        if c == u'\\':
            if i + 1 >= n:
                return -1
            c = s[i + 1]
            if c == u'u':
                if i + 5 >= n:
                    return -1
                for k in range(2, 6):
                    c = s[i + k]
                    if not ((u'0' <= c <= u'9') or (u'a' <= c <= u'f') or (u'A' <= c <= u'F')):
                        return -1
                i += 6
                continue
            if c not in u'"\\/bfnrt':
                return -1
            i += 2
            continue
        if c < 0x20:
            return -1
        i += 1
    return -1


cdef Py_ssize_t skip_json_number(str s, Py_ssize_t i, Py_ssize_t n):
    cdef Py_ssize_t start
    if i < n and s[i] == u'-':
        i += 1
    if i >= n:
        return -1
    if s[i] == u'0':
        i += 1
    elif u'1' <= s[i] <= u'9':
        while i < n and u'0' <= s[i] <= u'9':
            i += 1
    else:
        return -1
    if i < n and s[i] == u'.':
        i += 1
        start = i
        while i < n and u'0' <= s[i] <= u'9':
            i += 1
        if i == start:
            return -1
    if i < n and (s[i] == u'e' or s[i] == u'E'):
        i += 1
        if i < n and (s[i] == u'+' or s[i] == u'-'):
            i += 1
        start = i
        while i < n and u'0' <= s[i] <= u'9':
            i += 1
        if i == start:
            return -1
    return i


cdef enum:
    V_VALUE = 0          # a value must come
    V_VALUE_OR_CLOSE = 1 # just after '['
    V_KEY = 2            # after ',' in an object
    V_KEY_OR_CLOSE = 3   # just after '{'
    V_COLON = 4
    V_AFTER = 5          # after a value



def maybe_json(str s):
    """False only when ``s`` is certainly not RFC 8259 JSON.

    A cheap pre-filter in front of orjson: it never rejects what orjson
    accepts (orjson is stricter: lone surrogates, infinite numbers, depth),
    and it saves building orjson's exception for text that fails early.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t depth = 0
    cdef char stack[2048]
    cdef int state = V_VALUE
    cdef Py_UCS4 c
    while True:
        while i < n and is_json_ws(s[i]):
            i += 1
        if i >= n:
            return state == V_AFTER and depth == 0
        c = s[i]
        if state == V_VALUE or state == V_VALUE_OR_CLOSE:
            if c == u']' and state == V_VALUE_OR_CLOSE:
                depth -= 1
                i += 1
                state = V_AFTER
                continue
            if c == u'{' or c == u'[':
                if depth >= 2048:
                    return True  # too deep to check here: let the parser decide
                stack[depth] = 1 if c == u'{' else 2
                depth += 1
                i += 1
                state = V_KEY_OR_CLOSE if c == u'{' else V_VALUE_OR_CLOSE
                continue
            if c == u'"':
                i = skip_json_string(s, i + 1, n)
            elif c == u'-' or (u'0' <= c <= u'9'):
                i = skip_json_number(s, i, n)
            elif c == u't' and s[i:i + 4] == u'true':
                i += 4
            elif c == u'f' and s[i:i + 5] == u'false':
                i += 5
            elif c == u'n' and s[i:i + 4] == u'null':
                i += 4
            else:
                return False
            if i < 0:
                return False
            state = V_AFTER
        elif state == V_KEY or state == V_KEY_OR_CLOSE:
            if c == u'}' and state == V_KEY_OR_CLOSE:
                depth -= 1
                i += 1
                state = V_AFTER
                continue
            if c != u'"':
                return False
            i = skip_json_string(s, i + 1, n)
            if i < 0:
                return False
            state = V_COLON
        elif state == V_COLON:
            if c != u':':
                return False
            i += 1
            state = V_VALUE
        else:  # V_AFTER
            if depth == 0:
                return False  # data after the end
            if c == u',':
                i += 1
                state = V_KEY if stack[depth - 1] == 1 else V_VALUE
            elif (c == u'}' and stack[depth - 1] == 1) or (c == u']' and stack[depth - 1] == 2):
                depth -= 1
                i += 1
            else:
                return False


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

cdef bint closes_here(str s, Py_ssize_t i, Py_ssize_t n):
    """True when only whitespace stands between i and a structural character
    (or the end): a curly quote at i - 1 then closes a string."""
    cdef Py_UCS4 c
    while i < n:
        c = s[i]
        if c == u':' or c == u',' or c == u'}' or c == u']':
            return True
        if not Py_UNICODE_ISSPACE(c):
            return False
        i += 1
    return True


def normalize_structural_quotes(str s):
    """Turn curly quotes that delimit strings into ASCII quotes.

    A curly quote opens a string where a key or value may start (after
    ``{ [ , :`` or at the start) and closes it when a structural character
    follows. Curly quotes inside strings, and apostrophes in bare words, stay.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0
    cdef Py_UCS4 c
    cdef Py_UCS4 last = u'{'   # last significant character outside strings
    cdef int state = 0         # 0 out, 1 in "..", 2 in '..', 3 in curly "..", 4 in curly '..'
    cdef bint changed = False
    cdef Buf b
    for c in s:
        if is_curly_double(c) or is_curly_single(c):
            break
    else:
        return s
    buf_init(&b, n + 8)
    try:
        while i < n:
            c = s[i]
            i += 1
            if state == 0:
                if c == u'"':
                    state = 1
                elif c == u"'":
                    state = 2
                elif (is_curly_double(c) or is_curly_single(c)) and (
                        last == u'{' or last == u'[' or last == u',' or last == u':'):
                    if is_curly_double(c):
                        c = u'"'
                        state = 3
                    else:
                        c = u"'"
                        state = 4
                    changed = True
                elif not Py_UNICODE_ISSPACE(c):
                    last = c
                buf_put(&b, c)
            elif state == 1 or state == 2:
                buf_put(&b, c)
                if c == u'\\' and i < n:
                    buf_put(&b, s[i])
                    i += 1
                elif (state == 1 and c == u'"') or (state == 2 and c == u"'"):
                    state = 0
                    last = u'"'
            else:
                if c == u'\\' and i < n:
                    buf_put(&b, c)
                    buf_put(&b, s[i])
                    i += 1
                elif ((state == 3 and is_curly_double(c)) or (state == 4 and is_curly_single(c))) \
                        and closes_here(s, i, n):
                    buf_put(&b, u'"' if state == 3 else u"'")
                    state = 0
                    last = u'"'
                elif (state == 3 and c == u'"') or (state == 4 and c == u"'"):
                    buf_put(&b, u'\\')
                    buf_put(&b, c)
                else:
                    buf_put(&b, c)
        return buf_str(&b) if changed else s
    finally:
        buf_free(&b)


# ---------------------------------------------------------------------------
# Strategy 2: single-quoted strings -> double-quoted

def convert_single_quotes(str s):
    """Stateful converter: outside, inside "...", inside '...'.

    Single quotes inside double-quoted strings are kept; double quotes inside
    single-quoted strings are escaped; ``\\'`` becomes a plain ``'``.
    Returns ``s`` itself when there is nothing to convert.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0
    cdef Py_UCS4 c
    cdef int state = 0  # 0 outside, 1 in "...", 2 in '...'
    cdef bint changed = False
    cdef Buf b
    if u"'" not in s:
        return s
    buf_init(&b, n + n // 4 + 8)
    try:
        while i < n:
            c = s[i]
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
                    buf_put(&b, s[i])
                    i += 1
                elif c == u'"':
                    state = 0
            else:
                if c == u'\\' and i < n:
                    if s[i] == u"'":
                        buf_put(&b, u"'")
                    else:
                        buf_put(&b, c)
                        buf_put(&b, s[i])
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

cdef inline bint is_bare_key_char(Py_UCS4 c):
    return not (Py_UNICODE_ISSPACE(c) or c == u':' or c == u',' or c == u'{' or c == u'}'
                or c == u'[' or c == u']' or c == u'"' or c == u"'")


def quote_bare_keys(str s):
    """Quote a bare key that follows ``{`` or ``,`` and precedes ``:``.

    Quoted strings (either quote style) are skipped whole, so nothing inside
    a string value is touched. Returns ``s`` itself when nothing changed.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0, j, k, start
    cdef Py_UCS4 c, q
    cdef bint changed = False
    cdef bint key_may_start = False
    cdef Buf b
    buf_init(&b, n + 16)
    try:
        while i < n:
            c = s[i]
            if c == u'"' or c == u"'":
                q = c
                buf_put(&b, c)
                i += 1
                while i < n:
                    c = s[i]
                    buf_put(&b, c)
                    i += 1
                    if c == u'\\' and i < n:
                        buf_put(&b, s[i])
                        i += 1
                    elif c == q:
                        break
                key_may_start = False
                continue
            if c == u'{' or c == u',':
                key_may_start = True
                buf_put(&b, c)
                i += 1
                continue
            if Py_UNICODE_ISSPACE(c):
                buf_put(&b, c)
                i += 1
                continue
            if key_may_start and is_bare_key_char(c):
                start = i
                j = i
                while j < n and is_bare_key_char(s[j]):
                    j += 1
                k = j
                while k < n and Py_UNICODE_ISSPACE(s[k]):
                    k += 1
                if k < n and s[k] == u':':
                    buf_put(&b, u'"')
                    while i < j:
                        c = s[i]
                        if c == u'\\':
                            buf_put(&b, u'\\')
                        buf_put(&b, c)
                        i += 1
                    buf_put(&b, u'"')
                    changed = True
                key_may_start = False
                continue
            key_may_start = False
            buf_put(&b, c)
            i += 1
        return buf_str(&b) if changed else s
    finally:
        buf_free(&b)


# ---------------------------------------------------------------------------
# Strategy 5: trailing commas

def remove_trailing_commas(str s):
    """Drop a comma that only whitespace separates from ``}`` or ``]``.

    String-aware like the other scanners. Returns ``s`` itself when nothing
    changed.
    """
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0, k
    cdef Py_UCS4 c, q
    cdef bint changed = False
    cdef Buf b
    if u',' not in s:
        return s
    buf_init(&b, n + 8)
    try:
        while i < n:
            c = s[i]
            i += 1
            if c == u'"' or c == u"'":
                q = c
                buf_put(&b, c)
                while i < n:
                    c = s[i]
                    buf_put(&b, c)
                    i += 1
                    if c == u'\\' and i < n:
                        buf_put(&b, s[i])
                        i += 1
                    elif c == q:
                        break
                continue
            if c == u',':
                k = i
                while k < n and Py_UNICODE_ISSPACE(s[k]):
                    k += 1
                if k < n and (s[k] == u'}' or s[k] == u']'):
                    changed = True
                    continue
            buf_put(&b, c)
        return buf_str(&b) if changed else s
    finally:
        buf_free(&b)


# ---------------------------------------------------------------------------
# Strategy 7: the object-literal parser

cdef int put_json_string(Buf* b, str v) except -1:
    cdef Py_UCS4 c
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
            buf_ascii(b, b"\\u")
            buf_put(b, hexdigits[(c >> 12) & 15])
            buf_put(b, hexdigits[(c >> 8) & 15])
            buf_put(b, hexdigits[(c >> 4) & 15])
            buf_put(b, hexdigits[c & 15])
    buf_put(b, u'"')
    return 0


cdef int hexval(Py_UCS4 c):
    if u'0' <= c <= u'9':
        return c - 48
    if u'a' <= c <= u'f':
        return c - 87
    if u'A' <= c <= u'F':
        return c - 55
    return -1


cdef int hex4(str s, Py_ssize_t i, Py_ssize_t n):
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
    cdef Buf b
    i += 1
    buf_init(&b, 32)
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
    cdef Py_ssize_t n = len(t)
    return n > 0 and skip_json_number(t, 0, n) == n


cdef int put_bare(Buf* b, str tok, list out) except -1:
    """Interpret a bare token; append its value to ``out`` and its JSON text."""
    cdef Py_UCS4 c
    cdef object value
    cdef str low = tok.lower()
    if low == u'true' or low == u'false':
        buf_ascii(b, b"true" if low == u'true' else b"false")
        out.append(low == u'true')
        return 0
    if low == u'null' or low == u'none':
        buf_ascii(b, b"null")
        out.append(None)
        return 0
    if is_json_number(tok):
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
            out.append(value)
            return 0
    put_json_string(b, tok)
    out.append(tok)
    return 0


cdef enum:
    L_VALUE = 0
    L_VALUE_OR_CLOSE = 1
    L_KEY = 2
    L_KEY_OR_CLOSE = 3
    L_AFTER = 4


def parse_object_literal(str s, Py_ssize_t max_depth=1000):
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
    cdef list holder = []      # one-slot output for put_bare
    cdef object value = None, top = None
    cdef object key = None
    cdef str tok
    cdef bint have_value
    cdef Buf b
    buf_init(&b, n + 16)
    try:
        while True:
            # skip whitespace, remembering whether a line ended
            newline = False
            while i < n and Py_UNICODE_ISSPACE(s[i]):
                if s[i] == u'\n' or s[i] == u'\r':
                    newline = True
                i += 1
            have_value = False
            if state == L_AFTER:
                if not stack:
                    if i < n:
                        raise LiteralError(s, i, "unexpected text after the end of the value")
                    return top, buf_str(&b)
                frame = <list>stack[len(stack) - 1]
                closer = u'}' if type(frame[0]) is dict else u']'
                if i >= n:
                    raise LiteralError(s, frame[2], "unclosed '%s'" % (u'{' if closer == u'}' else u'['))
                c = s[i]
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
                        while i < n and Py_UNICODE_ISSPACE(s[i]):
                            i += 1
                        if i < n and s[i] == u',':
                            raise LiteralError(s, i, "empty piece between commas")
                    if i < n and s[i] == closer:      # trailing separator
                        continue
                    buf_put(&b, u',')
                    state = L_KEY if closer == u'}' else L_VALUE
                    continue
                else:
                    raise LiteralError(s, i, "expected ',' or '%s'" % closer)
            elif state == L_KEY or state == L_KEY_OR_CLOSE:
                if i >= n:
                    raise LiteralError(s, (<list>stack[len(stack) - 1])[2], "unclosed '{'")
                c = s[i]
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
                        while i < n and Py_UNICODE_ISSPACE(s[i]):
                            i += 1
                        if i >= n or s[i] != u':':
                            raise LiteralError(s, start, "expected ':' after key %r" % key)
                    else:
                        j = i
                        while j < n:
                            c = s[j]
                            if c == u':' or c == u',' or c == u'{' or c == u'}' or c == u'[' \
                                    or c == u']' or c == u'\n' or c == u'\r':
                                break
                            j += 1
                        if j >= n or s[j] != u':':
                            raise LiteralError(s, start, "piece %r has no colon" % s[start:j].strip())
                        key = s[start:j].strip()
                        if not key:
                            raise LiteralError(s, start, "empty key")
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
                c = s[i]
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
                    while i < n:
                        c = s[i]
                        if c == u',' or c == u'}' or c == u']' or c == u'\n' or c == u'\r':
                            break
                        i += 1
                    tok = s[start:i].strip()
                    if not tok:
                        raise LiteralError(s, start, "missing value")
                    put_bare(&b, tok, holder)
                    value = holder.pop()
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
