# Re-indenting (included by _jsonscan.pyx): tokens are copied verbatim, the
# output is cut, on a character boundary, before it passes a byte budget.

cdef struct Out:
    void* data
    Py_ssize_t len
    Py_ssize_t cap
    Py_ssize_t nbytes
    Py_ssize_t max_bytes
    int width
    bint utf8
    bint full


cdef inline int utf8_len(Py_UCS4 c) noexcept nogil:
    if c < 0x80:
        return 1
    if c < 0x800:
        return 2
    if c < 0x10000:
        return 3
    return 4


cdef int out_grow(Out* o, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap = o.cap * 2 if o.cap else 4096
    cdef void* grown
    while cap < o.len + need:
        cap *= 2
    grown = realloc(o.data, cap * o.width)
    if grown == NULL:
        return -1
    o.data = grown
    o.cap = cap
    return 0


cdef inline int put(Out* o, Py_UCS4 c, uchar* tag) noexcept nogil:
    """Append the ASCII character c; 1 when the byte budget is reached (c
    not written)."""
    if o.nbytes + 1 > o.max_bytes:
        o.full = True
        return 1
    if o.len == o.cap and out_grow(o, 1) < 0:
        return -1
    (<uchar*>o.data)[o.len] = <uchar>c
    o.len += 1
    o.nbytes += 1
    return 0


cdef int put_run(Out* o, uchar* s, Py_ssize_t a, Py_ssize_t z) noexcept nogil:
    """Append s[a:z]."""
    cdef Py_ssize_t j, room
    cdef int r
    if o.len + (z - a) > o.cap and out_grow(o, z - a) < 0:
        return -1
    if uchar is cython.uchar:
        if o.utf8:  # UTF-8 bytes: a byte a unit; cut before a whole character
            room = o.max_bytes - o.nbytes
            if z - a > room:
                z = a + room
                while z > a and (s[z] & 0xC0) == 0x80:
                    z -= 1
                o.full = True
            memcpy(<unsigned char*>o.data + o.len, s + a, z - a)
            o.len += z - a
            o.nbytes += z - a
            return 1 if o.full else 0
    for j in range(a, z):
        r = utf8_len(s[j])
        if o.nbytes + r > o.max_bytes:
            o.full = True
            return 1
        (<uchar*>o.data)[o.len] = s[j]
        o.len += 1
        o.nbytes += r
    return 0


cdef int put_indent(Out* o, Py_ssize_t n, uchar* tag) noexcept nogil:
    cdef Py_ssize_t k
    cdef int r = put(o, 10, tag)
    if r:
        return r
    for k in range(n):
        r = put(o, 32, tag)
        if r:
            return r
    return 0


cdef int reformat_impl(uchar* s, Py_ssize_t i, Py_ssize_t end, int indent,
                       Out* o) noexcept nogil:
    cdef Py_ssize_t depth = 0, j
    cdef Py_UCS4 c
    cdef int r = 0
    cdef uchar* tag = NULL
    while r == 0:
        i = sk_ws(s, i, end)
        if i >= end:
            break
        c = s[i]
        if c == c'{' or c == c'[':
            j = sk_ws(s, i + 1, end)
            if s[j] == c'}' or s[j] == c']':
                r = put(o, c, tag)
                if r == 0:
                    r = put(o, s[j], tag)
                i = j + 1
                continue
            r = put(o, c, tag)
            depth += 1
            if r == 0 and indent:
                r = put_indent(o, depth * indent, tag)
            i += 1
        elif c == c'}' or c == c']':
            depth -= 1
            if indent:
                r = put_indent(o, depth * indent, tag)
            if r == 0:
                r = put(o, c, tag)
            i += 1
        elif c == c',':
            r = put(o, c, tag)
            if r == 0 and indent:
                r = put_indent(o, depth * indent, tag)
            i += 1
        elif c == c':':
            r = put(o, c, tag)
            if r == 0 and indent:
                r = put(o, 32, tag)
            i += 1
        elif c == c'"':
            j = string_end(s, i, end)
            r = put_run(o, s, i, j)
            i = j
        else:
            j = i + 1
            while j < end and not is_ws(s[j]) and s[j] != c',' and s[j] != c']' and s[j] != c'}':
                j += 1
            r = put_run(o, s, i, j)
            i = j
    return -1 if r < 0 else 0


def reformat(object text, Py_ssize_t start, Py_ssize_t end, int indent=2,
             Py_ssize_t max_bytes=-1):
    """Re-indent the valid JSON in ``text[start:end]``: ``indent`` spaces a
    level (0: compact, no whitespace at all), key order and every token kept
    verbatim. Stops before the UTF-8 size of the result would pass
    ``max_bytes`` (-1: no limit). Returns ``(text, complete)``, the text a
    ``str`` whatever the input."""
    cdef Buf b
    cdef Out o
    cdef int rc
    get_buf(text, &b)
    end = clamp_end(&b, end)
    if indent < 0:
        raise ValueError("indent must be >= 0")
    o.data = NULL
    o.len = o.cap = o.nbytes = 0
    o.max_bytes = max_bytes if max_bytes >= 0 else (<Py_ssize_t>1 << 62)
    o.width = b.kind
    o.utf8 = b.utf8
    o.full = False
    try:
        with nogil:
            if b.kind == 1:
                rc = reformat_impl(<unsigned char*>b.data, start, end, indent, &o)
            elif b.kind == 2:
                rc = reformat_impl(<unsigned short*>b.data, start, end, indent, &o)
            else:
                rc = reformat_impl(<Py_UCS4*>b.data, start, end, indent, &o)
        if rc < 0:
            raise MemoryError()
        if o.len == 0:
            return ("", not o.full)
        if o.utf8:
            return (PyUnicode_DecodeUTF8(<char*>o.data, o.len, NULL), not o.full)
        return (PyUnicode_FromKindAndData(b.kind, o.data, o.len), not o.full)
    finally:
        free(o.data)
