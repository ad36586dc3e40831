# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled JSON text scanner for the @json verbs.

Twin of ``toolmend/_kernels/_jsonscan_py.py``: same functions, same results. The verbs
never build the whole document: they validate the text once (``scan``), then
walk it by offsets (``members``, ``lookup``, ``summary``...) and copy number
and string tokens verbatim (``reformat``), so numbers come out exactly as they
came and memory stays close to the size of the text.

Offsets are in characters of the ``str``. Every function but ``scan`` assumes
text that ``scan`` accepted. Nothing here recurses: the validator keeps an
explicit stack on the heap, the others count brackets. Loops run over the
string's native storage (1, 2 or 4 bytes a character) through fused types.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy
from cpython cimport array

from _jsongrammar cimport *   # the JSON grammar, shared with _recover

import array as _array_mod
from json.decoder import scanstring as _scanstring

cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define TM_READY(o) PyUnicode_READY(o)
    #else
    #define TM_READY(o) 0
    #endif
    """
    int TM_READY(object o) except -1

cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buf, Py_ssize_t size)
    object PyUnicode_Substring(object s, Py_ssize_t start, Py_ssize_t end)
    Py_UCS4* PyUnicode_AsUCS4Copy(object u) except NULL
    void PyMem_Free(void* p)

OK = 0
E_VALUE = C_VALUE
E_KEY = C_KEY
E_COLON = C_COLON
E_OBJECT = C_OBJECT
E_ARRAY = C_ARRAY
E_STRING = C_STRING
E_CONTROL = C_CONTROL
E_ESCAPE = C_ESCAPE
E_NUMBER = C_NUMBER
E_TRAILING = C_TRAILING

cdef array.array _QARRAY = _array_mod.array('q')

# Most digits of an array index in a path: any such number fits a signed
# 64-bit integer. The library reads the bound from here (INDEX_DIGITS).
INDEX_DIGITS = 18
cdef Py_ssize_t C_INDEX_DIGITS = INDEX_DIGITS


cdef inline int prepare(str text) except -1:
    TM_READY(text)
    return PyUnicode_KIND(text)


cdef inline Py_ssize_t clamp_end(str text, Py_ssize_t end):
    cdef Py_ssize_t n = len(text)
    if end < 0 or end > n:
        return n
    return end


def scan(str text, Py_ssize_t start=0, Py_ssize_t end=-1):
    """Validate ``text[start:end]`` as exactly one JSON value.

    Returns ``(pos, code, lossy)``: ``code`` 0 and ``pos`` -1 when valid,
    else the error code and its offset; ``lossy`` is True when a number token
    (seen before any error) would not survive orjson exactly.
    """
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef ScanState st
    cdef int rc
    end = clamp_end(text, end)
    if start < 0:
        start = 0
    st.pos = -1
    st.code = 0
    st.lossy = False
    with nogil:
        if kind == 1:
            rc = scan_impl(<unsigned char*>data, start, end, &st)
        elif kind == 2:
            rc = scan_impl(<unsigned short*>data, start, end, &st)
        else:
            rc = scan_impl(<Py_UCS4*>data, start, end, &st)
    if rc == -2:
        raise MemoryError()
    if rc == 0:
        return (-1, 0, st.lossy)
    return (st.pos, st.code, st.lossy)


# ---------------------------------------------------------------------------
# Walking text that scan() accepted

cdef inline Py_ssize_t string_end(uchar* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """i at the opening quote of a valid string: the index past its end
    (never past n, whatever the text)."""
    cdef Py_UCS4 c
    i += 1
    while i < n:
        c = s[i]
        if c == c'"':
            return i + 1
        if c == c'\\':
            i += 2
        else:
            i += 1
    return n


cdef Py_ssize_t value_end_impl(uchar* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """i at the first character of a valid value: the index past its end."""
    cdef Py_UCS4 c = s[i]
    cdef Py_ssize_t depth
    if c == c'"':
        return string_end(s, i, n)
    if c == c'{' or c == c'[':
        depth = 1
        i += 1
        while i < n:
            c = s[i]
            if c == c'"':
                i = string_end(s, i, n)
                continue
            if c == c'{' or c == c'[':
                depth += 1
            elif c == c'}' or c == c']':
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return n
    i += 1
    while i < n:
        c = s[i]
        if is_ws(c) or c == c',' or c == c']' or c == c'}' or c == c':':
            break
        i += 1
    return i


cdef str decode_key(str text, uchar* s, Py_ssize_t ks, Py_ssize_t ke):
    """The key whose quotes are at ks and ke - 1."""
    cdef Py_ssize_t j
    for j in range(ks + 1, ke - 1):
        if s[j] == c'\\':
            return _scanstring(text, ks + 1)[0]
    return PyUnicode_Substring(text, ks + 1, ke - 1)


cdef struct QBuf:
    long long* data
    Py_ssize_t len
    Py_ssize_t cap


cdef int qbuf_put(QBuf* b, long long a, long long z) except -1:
    cdef long long* grown
    if b.len + 2 > b.cap:
        b.cap = 64 if b.cap == 0 else b.cap * 2
        grown = <long long*>realloc(b.data, b.cap * sizeof(long long))
        if grown == NULL:
            raise MemoryError()
        b.data = grown
    b.data[b.len] = a
    b.data[b.len + 1] = z
    b.len += 2
    return 0


cdef array.array qbuf_array(QBuf* b):
    cdef array.array out = array.clone(_QARRAY, b.len, False)
    if b.len:
        memcpy(out.data.as_voidptr, b.data, b.len * sizeof(long long))
    return out


cdef object members_impl(str text, uchar* s, Py_ssize_t pos, Py_ssize_t n):
    cdef Py_ssize_t i, ks, ke, vs, ve
    cdef list keys = None
    cdef QBuf buf
    cdef bint obj = s[pos] == c'{'
    buf.data = NULL
    buf.len = buf.cap = 0
    if obj:
        keys = []
    try:
        i = skip_ws(s, pos + 1, n)
        if s[i] == c'}' or s[i] == c']':
            return (keys, qbuf_array(&buf))
        while i < n:
            if obj:
                ks = i
                ke = string_end(s, i, n)
                keys.append(decode_key(text, s, ks, ke))
                i = skip_ws(s, ke, n) + 1  # past ':'
                i = skip_ws(s, i, n)
            vs = i
            ve = value_end_impl(s, vs, n)
            qbuf_put(&buf, vs, ve)
            i = skip_ws(s, ve, n)
            if s[i] == c',':
                i = skip_ws(s, i + 1, n)
            else:
                break
        return (keys, qbuf_array(&buf))
    finally:
        free(buf.data)


cdef inline void check_container(str text, Py_ssize_t pos) except *:
    if pos < 0 or pos >= len(text) or text[pos] not in "{[":
        raise ValueError(f"offset {pos} is not the start of an object or array")


def members(str text, Py_ssize_t pos):
    """The members of the object or array starting at ``pos``.

    Returns ``(keys, spans)``: ``keys`` is the list of decoded keys (None for
    an array) and ``spans`` an ``array('q')`` of start, end offset pairs of
    the values, in document order (duplicate keys are all listed).
    """
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    check_container(text, pos)
    if kind == 1:
        return members_impl(text, <unsigned char*>data, pos, len(text))
    if kind == 2:
        return members_impl(text, <unsigned short*>data, pos, len(text))
    return members_impl(text, <Py_UCS4*>data, pos, len(text))


def value_end(str text, Py_ssize_t pos):
    """The offset just past the value that starts at ``pos``."""
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text)
    if pos < 0 or pos >= n or text[pos] in " \t\r\n,:]}":
        raise ValueError(f"offset {pos} is not the start of a value")
    with nogil:
        if kind == 1:
            pos = value_end_impl(<unsigned char*>data, pos, n)
        elif kind == 2:
            pos = value_end_impl(<unsigned short*>data, pos, n)
        else:
            pos = value_end_impl(<Py_UCS4*>data, pos, n)
    return pos


def skip_space(str text, Py_ssize_t pos):
    """The first offset at or after ``pos`` that is not JSON whitespace."""
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text)
    if pos < 0:
        pos = 0
    if pos > n:
        pos = n
    if kind == 1:
        return skip_ws(<unsigned char*>data, pos, n)
    if kind == 2:
        return skip_ws(<unsigned short*>data, pos, n)
    return skip_ws(<Py_UCS4*>data, pos, n)


# -- lookups -----------------------------------------------------------------

cdef bint key_equals(str text, uchar* s, Py_ssize_t ks, Py_ssize_t ke,
                     str key, Py_UCS4* kbuf, Py_ssize_t klen) except -1:
    cdef Py_ssize_t j, k
    cdef bint plain = True
    for j in range(ks + 1, ke - 1):
        if s[j] == c'\\':
            plain = False
            break
    if not plain:
        return _scanstring(text, ks + 1)[0] == key
    if ke - ks - 2 != klen:
        return False
    k = 0
    for j in range(ks + 1, ke - 1):
        if s[j] != kbuf[k]:
            return False
        k += 1
    return True


cdef Py_ssize_t find_key_impl(str text, uchar* s, Py_ssize_t pos, Py_ssize_t n,
                              str key, Py_UCS4* kbuf, Py_ssize_t klen,
                              Py_ssize_t* vend) except -2:
    """Start of the value of the last member ``key`` of the object at pos
    (its end in vend), or -1."""
    cdef Py_ssize_t i, ks, ke, vs, ve
    cdef Py_ssize_t found = -1
    i = skip_ws(s, pos + 1, n)
    if s[i] == c'}':
        return -1
    while i < n:
        ks = i
        ke = string_end(s, i, n)
        i = skip_ws(s, skip_ws(s, ke, n) + 1, n)
        vs = i
        ve = value_end_impl(s, vs, n)
        if key_equals(text, s, ks, ke, key, kbuf, klen):
            found = vs
            vend[0] = ve
        i = skip_ws(s, ve, n)
        if s[i] == c',':
            i = skip_ws(s, i + 1, n)
        else:
            return found
    return found


cdef Py_ssize_t count_impl(uchar* s, Py_ssize_t pos, Py_ssize_t n) noexcept nogil:
    """Number of members of the container at pos."""
    cdef Py_ssize_t i, count = 0
    cdef bint obj = s[pos] == c'{'
    i = skip_ws(s, pos + 1, n)
    if s[i] == c'}' or s[i] == c']':
        return 0
    while i < n:
        if obj:
            i = string_end(s, i, n)
            i = skip_ws(s, skip_ws(s, i, n) + 1, n)
        i = skip_ws(s, value_end_impl(s, i, n), n)
        count += 1
        if s[i] == c',':
            i = skip_ws(s, i + 1, n)
        else:
            return count
    return count


cdef enum:
    RING_MAX = 4096   # elements a negative index remembers in one pass


cdef Py_ssize_t nth_impl(uchar* s, Py_ssize_t pos, Py_ssize_t n, Py_ssize_t index,
                         Py_ssize_t* vend) noexcept nogil:
    """Start of element ``index`` of the array at pos (its end in vend), or
    -1 (-2 when out of memory). A negative index counts from the end: one
    pass, remembering the last -index elements in a ring; past RING_MAX
    elements, a first pass counts them instead, so memory never grows with
    the index (an agent may ask for [-999999999999])."""
    cdef Py_ssize_t i, ve, k = 0, m, count
    cdef Py_ssize_t* ring = NULL
    i = skip_ws(s, pos + 1, n)
    if s[i] == c']':
        return -1
    if index < -RING_MAX:
        count = count_impl(s, pos, n)
        if -index > count:
            return -1
        index += count
    if index < 0:
        m = -index
        ring = <Py_ssize_t*>malloc(2 * m * sizeof(Py_ssize_t))
        if ring == NULL:
            return -2
    while i < n:
        if ring == NULL and k == index:
            vend[0] = -1  # not needed to get there: computed only if it is the last step
            return i
        ve = value_end_impl(s, i, n)
        if ring != NULL:
            ring[2 * (k % m)] = i
            ring[2 * (k % m) + 1] = ve
        k += 1
        i = skip_ws(s, ve, n)
        if s[i] == c',':
            i = skip_ws(s, i + 1, n)
        else:
            break
    if ring == NULL:
        return -1
    if k < m:
        free(ring)
        return -1
    i = ring[2 * (k % m)]
    vend[0] = ring[2 * (k % m) + 1]
    free(ring)
    return i


cdef object as_index(object seg):
    """A key used on an array is an index when it is a decimal integer."""
    cdef str t = seg
    if 0 < len(t) <= C_INDEX_DIGITS + 1 and t.isascii():
        if t.isdigit() or (t[0] == "-" and len(t) > 1 and t[1:].isdigit()):
            if len(t.lstrip("-")) <= C_INDEX_DIGITS:
                return int(t)
    return None


cdef Py_ssize_t lookup_impl(str text, uchar* s, Py_ssize_t n, Py_ssize_t pos,
                            Py_ssize_t end, tuple segments, Py_ssize_t* out) except -2:
    """Walk ``segments`` from the value at [pos, end) (end -1: not known);
    the final span goes in out[0], out[1]. Returns -1 on success, else the
    index of the segment that failed (out then holds the span it failed on,
    its end -1 when not known)."""
    cdef Py_ssize_t k, vs, ve = 0
    cdef Py_ssize_t nseg = len(segments)
    cdef object seg, idx
    cdef Py_UCS4* kbuf
    cdef Py_UCS4 c
    out[0] = pos
    out[1] = end  # -1: not known yet (the caller computes it when needed)
    for k in range(nseg):
        seg = segments[k]
        c = s[pos]
        if type(seg) is str:
            if c == c'{':
                kbuf = PyUnicode_AsUCS4Copy(seg)
                try:
                    vs = find_key_impl(text, s, pos, n, seg, kbuf, len(<str>seg), &ve)
                finally:
                    PyMem_Free(kbuf)
            elif c == c'[':
                idx = as_index(seg)
                if idx is None:
                    return k
                vs = nth_impl(s, pos, n, <Py_ssize_t>idx, &ve)
            else:
                return k
        else:
            if c != c'[':
                return k
            vs = nth_impl(s, pos, n, <Py_ssize_t>seg, &ve)
        if vs == -2:
            raise MemoryError()
        if vs < 0:
            return k
        pos = vs
        out[0] = vs
        out[1] = ve
    if out[1] < 0:
        out[1] = value_end_impl(s, out[0], n)
    return -1


cdef tuple check_segments(object segments):
    cdef tuple segs = tuple(segments)
    for seg in segs:
        if type(seg) is not str and type(seg) is not int:
            raise TypeError(f"path segments are str keys or int indexes, not {type(seg).__name__}")
        if type(seg) is int and not (-(10 ** C_INDEX_DIGITS) < seg < 10 ** C_INDEX_DIGITS):
            raise ValueError(f"index {seg} is out of range")
    return segs


def lookup(str text, Py_ssize_t pos, object segments):
    """Walk ``segments`` (str keys, int indexes) from the value at ``pos``.

    Returns ``(start, end, failed)``: on success ``failed`` is -1 and the span
    is the value's; else ``failed`` is the index of the segment that could not
    be followed and the span is the value it was applied to. A key used on an
    array is an index when it is a decimal integer (``items.0``); duplicate
    keys: the last one wins.
    """
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef tuple segs = check_segments(segments)
    cdef Py_ssize_t out[2]
    cdef Py_ssize_t failed
    cdef Py_ssize_t n = len(text)
    if pos < 0 or pos >= n or text[pos] in " \t\r\n,:]}":
        raise ValueError(f"offset {pos} is not the start of a value")
    if kind == 1:
        failed = lookup_impl(text, <unsigned char*>data, n, pos, -1, segs, out)
    elif kind == 2:
        failed = lookup_impl(text, <unsigned short*>data, n, pos, -1, segs, out)
    else:
        failed = lookup_impl(text, <Py_UCS4*>data, n, pos, -1, segs, out)
    if out[1] < 0:
        out[1] = value_end(text, out[0])
    return (out[0], out[1], failed)


def lookup_many(str text, array.array spans, object segments):
    """``lookup`` from each value of ``spans`` (start, end pairs); returns an
    ``array('q')`` of the found spans, with -1, -1 where the path failed."""
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef tuple segs = check_segments(segments)
    cdef Py_ssize_t out[2]
    cdef Py_ssize_t failed, k, m, pos
    cdef Py_ssize_t n = len(text)
    cdef array.array result
    if spans.typecode != 'q':
        raise TypeError("spans must be an array('q')")
    m = len(spans)
    if m % 2:
        raise ValueError("spans must hold start, end pairs")
    result = array.clone(_QARRAY, m, False)
    for k in range(0, m, 2):
        pos = spans.data.as_longlongs[k]
        if pos >= n or (pos >= 0 and is_ws(text[pos])):
            raise ValueError(f"offset {pos} is not the start of a value")
        if pos < 0:
            failed = 0
        else:
            out[1] = spans.data.as_longlongs[k + 1]
            if kind == 1:
                failed = lookup_impl(text, <unsigned char*>data, n, pos, out[1], segs, out)
            elif kind == 2:
                failed = lookup_impl(text, <unsigned short*>data, n, pos, out[1], segs, out)
            else:
                failed = lookup_impl(text, <Py_UCS4*>data, n, pos, out[1], segs, out)
        if failed == -1:
            result.data.as_longlongs[k] = out[0]
            result.data.as_longlongs[k + 1] = out[1]
        else:
            result.data.as_longlongs[k] = -1
            result.data.as_longlongs[k + 1] = -1
    return result


# -- summaries ---------------------------------------------------------------

cdef Py_ssize_t string_length(uchar* s, Py_ssize_t i) noexcept nogil:
    """Length in characters, once decoded, of the valid string at i."""
    cdef Py_ssize_t count = 0
    cdef Py_UCS4 c
    cdef int hi, lo
    i += 1
    while True:
        c = s[i]
        if c == c'"':
            return count
        count += 1
        if c != c'\\':
            i += 1
            continue
        if s[i + 1] != c'u':
            i += 2
            continue
        hi = (hexval(s[i + 2]) << 12) | (hexval(s[i + 3]) << 8) | (hexval(s[i + 4]) << 4) | hexval(s[i + 5])
        i += 6
        if 0xD800 <= hi <= 0xDBFF and s[i] == c'\\' and s[i + 1] == c'u':
            lo = (hexval(s[i + 2]) << 12) | (hexval(s[i + 3]) << 8) | (hexval(s[i + 4]) << 4) | hexval(s[i + 5])
            if 0xDC00 <= lo <= 0xDFFF:
                i += 6


def summary(str text, Py_ssize_t pos):
    """``(kind, size)`` of the value at ``pos``: kind is object, array,
    string, number, bool or null; size the member count of a container, the
    decoded length in characters of a string, else -1."""
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text)
    cdef Py_ssize_t size
    if pos < 0 or pos >= n:
        raise ValueError(f"offset {pos} is not the start of a value")
    c = text[pos]
    if c == "{" or c == "[":
        with nogil:
            if kind == 1:
                size = count_impl(<unsigned char*>data, pos, n)
            elif kind == 2:
                size = count_impl(<unsigned short*>data, pos, n)
            else:
                size = count_impl(<Py_UCS4*>data, pos, n)
        return ("object" if c == "{" else "array", size)
    if c == '"':
        with nogil:
            if kind == 1:
                size = string_length(<unsigned char*>data, pos)
            elif kind == 2:
                size = string_length(<unsigned short*>data, pos)
            else:
                size = string_length(<Py_UCS4*>data, pos)
        return ("string", size)
    if c == "t" or c == "f":
        return ("bool", -1)
    if c == "n":
        return ("null", -1)
    if c == "-" or "0" <= c <= "9":
        return ("number", -1)
    raise ValueError(f"offset {pos} is not the start of a value")


# -- reformatting ------------------------------------------------------------

cdef struct Out:
    void* data
    Py_ssize_t len
    Py_ssize_t cap
    Py_ssize_t nbytes
    Py_ssize_t max_bytes
    int width
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
    """Append c; 1 when the byte budget is reached (c not written)."""
    cdef int b = utf8_len(c)
    if o.nbytes + b > o.max_bytes:
        o.full = True
        return 1
    if o.len == o.cap and out_grow(o, 1) < 0:
        return -1
    (<uchar*>o.data)[o.len] = <uchar>c
    o.len += 1
    o.nbytes += b
    return 0


cdef int put_run(Out* o, uchar* s, Py_ssize_t a, Py_ssize_t z) noexcept nogil:
    """Append s[a:z]."""
    cdef Py_ssize_t j
    cdef int r
    if o.len + (z - a) > o.cap and out_grow(o, z - a) < 0:
        return -1
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
        i = skip_ws(s, i, end)
        if i >= end:
            break
        c = s[i]
        if c == c'{' or c == c'[':
            j = skip_ws(s, i + 1, end)
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


def reformat(str text, Py_ssize_t start, Py_ssize_t end, int indent=2,
             Py_ssize_t max_bytes=-1):
    """Re-indent the valid JSON in ``text[start:end]``: ``indent`` spaces a
    level (0: compact, no whitespace at all), key order and every token kept
    verbatim. Stops before the UTF-8 size of the result would pass
    ``max_bytes`` (-1: no limit). Returns ``(text, complete)``."""
    cdef int kind = prepare(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Out o
    cdef int rc
    end = clamp_end(text, end)
    if indent < 0:
        raise ValueError("indent must be >= 0")
    o.data = NULL
    o.len = o.cap = o.nbytes = 0
    o.max_bytes = max_bytes if max_bytes >= 0 else (<Py_ssize_t>1 << 62)
    o.width = kind
    o.full = False
    try:
        with nogil:
            if kind == 1:
                rc = reformat_impl(<unsigned char*>data, start, end, indent, &o)
            elif kind == 2:
                rc = reformat_impl(<unsigned short*>data, start, end, indent, &o)
            else:
                rc = reformat_impl(<Py_UCS4*>data, start, end, indent, &o)
        if rc < 0:
            raise MemoryError()
        if o.len == 0:
            return ("", not o.full)
        return (PyUnicode_FromKindAndData(kind, o.data, o.len), not o.full)
    finally:
        free(o.data)
