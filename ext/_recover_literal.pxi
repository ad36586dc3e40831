# The object-literal parser of the compiled recovery kernel (strategy 7),
# included by _recover.pyx. Twin: src/toolmend/_kernels/_recover_literal.py.

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


cdef str read_quoted(str s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* end):
    """s[i] is the opening quote. Returns its text; ``end[0]``: the index past
    the closing quote.

    JSON escapes are decoded (a surrogate pair becomes one character),
    ``\\'`` is a quote, and any other backslash stays as written
    (``C:\\Users``)."""
    cdef int kind = PyUnicode_KIND(s)
    cdef void* data = PyUnicode_DATA(s)
    cdef Py_UCS4 q = PyUnicode_READ(kind, data, i)
    cdef Py_UCS4 c, e
    cdef Py_ssize_t start = i, j = i + 1
    cdef int u, lo
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    cdef bint kept = False, letter = False  # a backslash kept as text, one read as a control (or \\)
    # most strings hold no backslash: their text is a slice of the input
    while j < n:
        c = PyUnicode_READ(kind, data, j)
        if c == q:
            end[0] = j + 1
            return s[i + 1:j]
        if c == u'\\':
            break
        j += 1
    i += 1
    buf_init(&b, local, LOCAL_CAP)
    try:
        while i < n:
            c = s[i]
            if c == q:
                if kept and letter:
                    raise Refused(start, MIXED_ESCAPES.decode("utf-8"))
                end[0] = i + 1
                return buf_str(&b)
            if c == u'\\' and i + 1 < n:
                e = s[i + 1]
                if e == u'"' or e == u"'" or e == u'\\' or e == u'/':
                    buf_put(&b, e)
                    letter = letter or e == u'\\'
                elif e == u'n':
                    buf_put(&b, u'\n')
                    letter = True
                elif e == u't':
                    buf_put(&b, u'\t')
                    letter = True
                elif e == u'r':
                    buf_put(&b, u'\r')
                    letter = True
                elif e == u'b':
                    buf_put(&b, u'\b')
                    letter = True
                elif e == u'f':
                    buf_put(&b, u'\f')
                    letter = True
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
                    kept = True
                i += 2
                continue
            buf_put(&b, c)
            i += 1
        raise Refused(start, "unterminated string")
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


cdef bint is_call(str tok, Py_ssize_t n):
    """The whole token a call (the twin's _CALL): a name (letters, digits, _ $ .) then '(' and
    the token ends with ')'."""
    cdef Py_ssize_t k = 0
    cdef Py_UCS4 c
    if n < 3 or tok[n - 1] != c')':
        return False
    c = tok[0]
    if not ((c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or c == c'_' or c == c'$'):
        return False
    while k < n:
        c = tok[k]
        if c == c'(':
            return k > 0
        if not (Py_UNICODE_ISALNUM(c) or c == c'_' or c == c'$' or c == c'.'):
            return False
        k += 1
    return False


cdef bint bare_unsafe(str tok, bint quoted=True):
    """Whether a bare token holds structure or a form the repair engine reads
    otherwise (see the twin's ``_bare_unsafe``; the tests below only run for
    the first characters that can start what they look for)."""
    cdef Py_ssize_t n = len(tok), w = 0
    cdef Py_UCS4 c = tok[0]
    cdef str first
    cdef int kind
    cdef void* data
    cdef Py_UCS4 d
    if (c'a' <= c <= c'z') or (c'A' <= c <= c'Z'):
        # The everyday bare value, a word (read, main.go, my-file_2): ASCII letters, digits and
        # . _ - only, a letter first, cannot hold what the tests below look for, except the
        # words the engine reads (nan, inf, undefined)
        kind = PyUnicode_KIND(tok)
        data = PyUnicode_DATA(tok)
        while w < n:
            d = PyUnicode_READ(kind, data, w)
            if not ((c'a' <= d <= c'z') or (c'A' <= d <= c'Z') or (c'0' <= d <= c'9')
                    or d == c'.' or d == c'_' or d == c'-'):
                break
            w += 1
        if w == n:
            return (n <= 9 and (c == c'n' or c == c'N' or c == c'i' or c == c'I' or c == c'u'
                                or c == c'U') and tok.lower() in ENGINE_WORDS)
        w = 0
    if c == c'#' or c == c'+' or c == c'(' or c == 0x2026 or (quoted and u'"' in tok):
        return True
    if c == c'-' and n > 1 and tok[1] == c'(':
        return True  # (-(1), *range(3): Python's code, whose value is not its text)
    if c == c'*' and is_call(tok.lstrip(u"*"), len(tok.lstrip(u"*"))):
        return True
    if tok.endswith(u"\u201d") and u"\u201c" not in tok:  # (/tmp": a closing curly quote, its opener dropped)
        return True
    if c == c'/' and n > 1 and (tok[1] == c'/' or tok[1] == c'*'):
        return True
    if c == c'.' and tok.startswith(u"..."):
        return True
    if c == c'`':  # a fence, or a value in backticks (a template, Markdown's code): not plain text
        return True
    if (c == c'u' or c == c'U') and n > 1 and tok[1] == c"'":  # u'...': Python's prefix
        return True
    for w in range(n):  # a zero-width space, a word joiner: invisible, not data
        if is_odd_space(tok[w]):
            return True
    # a comment (not a URL's ://), a call (os.system(...)) or a quote among its characters (r'...',
    # it's aside): the engine reads (and refuses) those
    if u"/*" in tok or (is_call(tok, n) and not tok.startswith(ENGINE_CALLS)):
        return True
    w = 0
    while w < n:
        if tok[w] == c"'" and not (0 < w < n - 1 and is_alnum(tok[w - 1]) and is_alnum(tok[w + 1])):
            return True
        if tok[w] == c'#' and w > 0 and Py_UNICODE_ISSPACE(tok[w - 1]):
            return True  # (x # note: a comment, as Python and YAML read it, or the text's, two readings)
        if tok[w] == c'/' and w + 1 < n and tok[w + 1] == c'/':
            if w == 0 or tok[w - 1] != c':':
                return True
            w += 2  # (a URL's "://", its slashes read as one: file:///etc is a URL, as the twin reads it)
            continue
        w += 1
    w = 0
    if c == c'-' or c == c'.' or is_digit(c) or c == c't' or c == c'T' or c == c'f' \
            or c == c'F' or c == c'n' or c == c'N':
        while w < n and not Py_UNICODE_ISSPACE(tok[w]):
            w += 1
        if c == c'-' or c == c'.' or is_digit(c):
            if number_form(tok, w):
                return w != n or not is_json_number(tok) or beyond_double(tok)
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


from libc.math cimport isinf


cdef bint beyond_double(str tok):
    """Whether a JSON number is too large for a double (``1e999``): JSON has no
    Infinity, so the repair engine refuses it (the twin's ``_beyond_double``)."""
    cdef double v
    if u'e' in tok or u'E' in tok or len(tok) > 308:
        v = float(tok)
        return isinf(v) != 0
    return False


cdef object put_bare(Buf* b, str tok):
    """Interpret a bare token: write its JSON text (unless ``b`` is NULL),
    return its value."""
    cdef Py_UCS4 c = tok[0]
    cdef object value
    cdef str low
    if c in u'tTfFnN':
        if len(tok) == 4 or len(tok) == 5:
            low = tok.lower()
            if low == u'true' or low == u'false':
                if b != NULL:
                    buf_ascii(b, b"true" if low == u'true' else b"false")
                return low == u'true'
            if low == u'null' or low == u'none':
                if b != NULL:
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
            if b != NULL:
                for c in tok:
                    buf_put(b, c)
            return value
    if b != NULL:
        put_json_string(b, tok)
    return tok


cdef enum:
    L_VALUE = 0
    L_VALUE_OR_CLOSE = 1
    L_KEY = 2
    L_KEY_OR_CLOSE = 3
    L_AFTER = 4


def parse_object_literal(str s):
    """Parse a JavaScript/Python-style object literal; return (value, json_text).

    Keys may be bare or quoted; values may be objects, arrays, quoted strings
    (either quote) or bare tokens (true/false/null/none in any case, JSON
    numbers kept digit for digit, anything else a string). Pieces are
    separated by commas or newlines; a trailing comma is fine. Anything
    ambiguous (a piece without a colon, text after the end, an unclosed
    bracket, a bare token that holds structure) raises Refused rather
    than guessing.
    """
    return ol_parse(s, depth_bound)


cdef inline int put_to(Buf* b, Py_UCS4 c) except -1:
    """buf_put, unless ``b`` is NULL (no JSON text wanted)."""
    if b != NULL:
        buf_put(b, c)
    return 0


cdef inline Py_ssize_t ol_space(int kind, void* data, Py_ssize_t i, Py_ssize_t n,
                                 bint* newline) noexcept:
    """Past the whitespace at i; ``newline[0]``: whether a line ended in it."""
    cdef Py_UCS4 c
    newline[0] = False
    while i < n:
        c = PyUnicode_READ(kind, data, i)
        if not Py_UNICODE_ISSPACE(c):
            break
        if c == u'\n' or c == u'\r':
            newline[0] = True
        i += 1
    return i


cdef inline Py_ssize_t bare_end(int kind, void* data, Py_ssize_t i, Py_ssize_t n, bint key,
                                bint* quoted, bint* escaped) noexcept:
    """The end of the bare value (or, with ``key``, bare key) at i: its first
    separator; ``quoted[0]``: whether it holds a double quote; with ``key``,
    ``escaped[0]``: whether it holds a backslash (a \\uXXXX escape to read)."""
    cdef Py_UCS4 c
    quoted[0] = False
    if key:
        escaped[0] = False
    while i < n:
        c = PyUnicode_READ(kind, data, i)
        if c == u',' or c == u'}' or c == u']' or c == u'\n' or c == u'\r':
            break
        if key and (c == u':' or c == u'{' or c == u'['):
            break
        if c == u'"':
            quoted[0] = True
        elif key and c == u'\\':
            escaped[0] = True
        i += 1
    return i


cdef inline str stripped(str s, int kind, void* data, Py_ssize_t lo, Py_ssize_t hi):
    """s[lo:hi] without the whitespace around it."""
    while lo < hi and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, lo)):
        lo += 1
    while hi > lo and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, hi - 1)):
        hi -= 1
    return s[lo:hi]


cdef inline str ol_key(str s, int kind, void* data, Py_ssize_t i, Py_ssize_t n, Buf* b,
                       Py_ssize_t* end):
    """The key at i (quoted or bare) and its colon: the key, written as JSON
    into ``b`` (unless NULL); ``end[0]``: the index past the colon."""
    cdef Py_ssize_t start = i, j
    cdef bint quoted, escaped
    cdef str key
    if PyUnicode_READ(kind, data, i) == u'"' or PyUnicode_READ(kind, data, i) == u"'":
        key = read_quoted(s, i, n, &i)
        while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            i += 1
        if i >= n or PyUnicode_READ(kind, data, i) != u':':
            raise Refused(start, "expected ':' after key %r" % key)
    else:
        j = bare_end(kind, data, i, n, True, &quoted, &escaped)
        if j >= n or PyUnicode_READ(kind, data, j) != u':':
            raise Refused(start, "piece %r has no colon" % s[start:j].strip())
        key = stripped(s, kind, data, start, j)
        if not key:
            raise Refused(start, "empty key")
        if quoted:
            raise Refused(start, "bare key %r holds a quote" % key)
        if escaped:
            key = u_unescape(key)
        i = j
    if b != NULL:
        put_json_string(b, key)
        buf_put(b, u':')
    end[0] = i + 1
    return key


cdef enum:
    OPENED_LOCAL = 64


cdef Py_ssize_t* grown_opened(Py_ssize_t* opened, Py_ssize_t* local, Py_ssize_t* cap) except NULL:
    """ol_parse's record of where its open containers began, twice as long
    (on the heap; the one it had freed unless it was ``local``)."""
    cdef Py_ssize_t* grown = <Py_ssize_t*>PyMem_Malloc(2 * cap[0] * sizeof(Py_ssize_t))
    if grown == NULL:
        raise MemoryError()
    memcpy(grown, opened, cap[0] * sizeof(Py_ssize_t))
    if opened != local:
        PyMem_Free(opened)
    cap[0] *= 2
    return grown


cdef tuple ol_parse(str s, Py_ssize_t max_depth, bint want_text=True):
    """parse_object_literal (see there), the JSON text only ``want_text``. A container
    goes into its parent when it opens (no key waits on a stack)."""
    cdef Py_ssize_t n = len(s)
    cdef Py_ssize_t i = 0, start, depth = 0, opened_cap = OPENED_LOCAL  # depth: len(stack)
    cdef int state = L_VALUE
    cdef Py_UCS4 c, closer
    cdef bint newline, quoted
    cdef list stack = []          # the open containers, the innermost last
    cdef object inner = None      # stack's last
    cdef bint in_dict = False     # whether it is a dict
    cdef Py_ssize_t opened_local[OPENED_LOCAL]
    cdef Py_ssize_t* opened = opened_local  # where each open container began
    cdef object value = None, top = None, key = None
    cdef str tok
    cdef Py_UCS4 local[LOCAL_CAP]
    cdef Buf b
    cdef int kind = PyUnicode_KIND(s)
    cdef void* data = PyUnicode_DATA(s)
    cdef Buf* out = &b if want_text else NULL  # loads wants the value only
    buf_init(&b, local, LOCAL_CAP)
    try:
        while True:
            i = ol_space(kind, data, i, n, &newline)  # remembering whether a line ended
            if state == L_AFTER:
                if depth == 0:
                    if i < n:
                        raise Refused(i, "unexpected text after the end of the value")
                    return top, (buf_str(&b) if want_text else None)
                closer = u'}' if in_dict else u']'
                if i >= n:
                    raise Refused(opened[depth - 1], "unclosed '%s'" % (u'{' if in_dict else u'['))
                c = PyUnicode_READ(kind, data, i)
                if c == closer:
                    i += 1
                elif c == u'}' or c == u']':
                    raise Refused(i, "'%s' does not close '%s'" % (c, u'{' if in_dict else u'['))
                elif c == u',' or newline:
                    if c == u',':
                        i += 1
                        while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                            i += 1
                        if i < n and PyUnicode_READ(kind, data, i) == u',':
                            raise Refused(i, "empty piece between commas")
                    if i < n and PyUnicode_READ(kind, data, i) == closer:      # trailing separator
                        continue
                    put_to(out, u',')
                    state = L_KEY if in_dict else L_VALUE
                    continue
                else:
                    raise Refused(i, "expected ',' or '%s'" % closer)
            elif state == L_KEY or state == L_KEY_OR_CLOSE:
                if i >= n:
                    raise Refused(opened[depth - 1], "unclosed '{'")
                if PyUnicode_READ(kind, data, i) == u'}' and state == L_KEY_OR_CLOSE:
                    i += 1
                    closer = u'}'
                else:
                    key = ol_key(s, kind, data, i, n, out, &i)
                    state = L_VALUE
                    continue
            else:  # L_VALUE or L_VALUE_OR_CLOSE
                if i >= n:
                    if depth:
                        raise Refused(i, "missing value")
                    raise Refused(i, "empty text")
                c = PyUnicode_READ(kind, data, i)
                if c == u']' and state == L_VALUE_OR_CLOSE:
                    i += 1
                    closer = u']'
                else:
                    if c == u'{' or c == u'[':
                        if depth >= max_depth:
                            raise Refused(i, "nesting deeper than %d levels" % max_depth)
                        value = {} if c == u'{' else []
                    elif c == u'"' or c == u"'":
                        value = read_quoted(s, i, n, &i)
                        if out != NULL:
                            put_json_string(out, value)
                    else:
                        start = i
                        i = bare_end(kind, data, i, n, False, &quoted, NULL)
                        tok = stripped(s, kind, data, start, i)
                        if not tok:
                            raise Refused(start, "missing value")
                        if bare_unsafe(tok, quoted):
                            raise Refused(start, "bare value %r is not plain text" % tok)
                        value = put_bare(out, tok)
                    if depth == 0:
                        top = value
                    elif in_dict:
                        (<dict>inner)[key] = value
                    else:
                        (<list>inner).append(value)
                    if c == u'{' or c == u'[':  # it opens: it is the innermost now
                        if depth == opened_cap:
                            opened = grown_opened(opened, opened_local, &opened_cap)
                        opened[depth] = i
                        depth += 1
                        stack.append(value)
                        inner = value
                        in_dict = c == u'{'
                        put_to(out, c)
                        i += 1
                        state = L_KEY_OR_CLOSE if in_dict else L_VALUE_OR_CLOSE
                        continue
                    state = L_AFTER
                    continue
            # the innermost container closed (``closer``): its parent is the innermost now
            stack.pop()
            depth -= 1
            put_to(out, closer)
            if depth:
                inner = stack[depth - 1]
                in_dict = type(inner) is dict
            state = L_AFTER
    finally:
        buf_free(&b)
        if opened != opened_local:
            PyMem_Free(opened)


# \uXXXX escapes in a bare key (JSON5 allows them there), read as JSON reads
# them in a string: a surrogate pair is one character, a lone one kept.
import re as _re

_u_escapes_sub = _re.compile(r"(?:\\u[0-9a-fA-F]{4})+").sub


def _u_escape_run(m):
    units = m.group(0).encode("ascii").decode("unicode_escape")
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


cdef str u_unescape(str key):
    return _u_escapes_sub(_u_escape_run, key)
