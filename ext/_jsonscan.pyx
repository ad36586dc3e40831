# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled JSON text scanner for the @json verbs.

Twin of ``toolmend/_kernels/_jsonscan_py.py``: same functions, same results. The verbs
never build the whole document: they validate the text once (``scan``), then
walk it by offsets (``members``, ``lookup``, ``summary``...) and copy number
and string tokens verbatim (``reformat``), so numbers come out exactly as they
came and memory stays close to the size of the text.

The text is UTF-8 ``bytes`` (a file as read: offsets in bytes, ``scan`` also
checks the UTF-8) or a ``str`` (offsets in characters; loops run over its
native storage, 1, 2 or 4 bytes a character, through fused types). Over bytes,
strings and containers are skipped eight bytes at a time (_jsonbytes.pxd).
Every function but ``scan`` assumes text that ``scan`` accepted. Nothing here
recurses: the validator keeps an explicit stack on the heap, the others count
brackets.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memchr
from cpython cimport array
cimport cython

from _jsongrammar cimport *   # the JSON grammar, shared with _recover
from _jsonbytes cimport *     # UTF-8 bytes: validation, word-at-a-time skips

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
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    object PyUnicode_FromKindAndData(int kind, const void* buf, Py_ssize_t size)
    object PyUnicode_Substring(object s, Py_ssize_t start, Py_ssize_t end)
    object PyUnicode_DecodeUTF8(const char* s, Py_ssize_t size, const char* errors)
    Py_UCS4* PyUnicode_AsUCS4Copy(object u) except NULL
    char* PyBytes_AS_STRING(object o)
    Py_ssize_t PyBytes_GET_SIZE(object o)
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
E_UTF8 = C_UTF8

cdef array.array _QARRAY = _array_mod.array('q')

# Most digits of an array index in a path: any such number fits a signed
# 64-bit integer. The library reads the bound from here (INDEX_DIGITS).
INDEX_DIGITS = 18
cdef Py_ssize_t C_INDEX_DIGITS = INDEX_DIGITS
# The container index of scan_index(): containers of at least INDEX_SPAN
# units, nested at most INDEX_DEPTH deep, at most about one a INDEX_SPAN
# units of text.
INDEX_SPAN = INDEX_SPAN_C
INDEX_DEPTH = INDEX_DEPTH_C


cdef struct Buf:
    void* data
    Py_ssize_t n
    int kind      # bytes a unit: 1, 2 or 4 (bytes: 1)
    bint utf8     # UTF-8 bytes, not a str


cdef int get_buf(object text, Buf* b) except -1:
    if isinstance(text, str):
        TM_READY(text)
        b.kind = PyUnicode_KIND(text)
        b.data = PyUnicode_DATA(text)
        b.n = len(<str>text)
        b.utf8 = False
    elif isinstance(text, bytes):
        b.kind = 1
        b.data = PyBytes_AS_STRING(text)
        b.n = PyBytes_GET_SIZE(text)
        b.utf8 = True
    else:
        raise TypeError(f"text must be str or UTF-8 bytes, not {type(text).__name__}")
    return 0


cdef inline Py_UCS4 char_at(Buf* b, Py_ssize_t i) noexcept nogil:
    if b.kind == 1:
        return (<unsigned char*>b.data)[i]
    if b.kind == 2:
        return (<unsigned short*>b.data)[i]
    return (<Py_UCS4*>b.data)[i]


cdef inline bint value_start(Buf* b, Py_ssize_t pos) noexcept nogil:
    """Whether pos may start a value (not whitespace or punctuation)."""
    cdef Py_UCS4 c
    if pos < 0 or pos >= b.n:
        return False
    c = char_at(b, pos)
    return not (is_ws(c) or c == c',' or c == c':' or c == c']' or c == c'}')


cdef inline Py_ssize_t clamp_end(Buf* b, Py_ssize_t end) noexcept nogil:
    if end < 0 or end > b.n:
        return b.n
    return end


def scan(object text, Py_ssize_t start=0, Py_ssize_t end=-1):
    """Validate ``text[start:end]`` as exactly one JSON value.

    Returns ``(pos, code, lossy)``: ``code`` 0 and ``pos`` -1 when valid,
    else the error code and its offset; ``lossy`` is True when a number token
    (seen before any error) would not survive orjson exactly. Over bytes, an
    invalid UTF-8 sequence in a string is ``E_UTF8`` at its first byte.
    """
    cdef Buf b
    cdef ScanState st
    cdef int rc
    get_buf(text, &b)
    end = clamp_end(&b, end)
    if start < 0:
        start = 0
    with nogil:
        rc = scan_buf(&b, start, end, &st, NULL)
    if rc == -2:
        raise MemoryError()
    if rc == 0:
        return (-1, 0, st.lossy)
    return (st.pos, st.code, st.lossy)


cdef int scan_buf(Buf* b, Py_ssize_t start, Py_ssize_t end, ScanState* st,
                  IndexBuf* ix) noexcept nogil:
    """Validate b[start:end] into ``st``; with ``ix``, the container index of
    valid text too (built as it goes over bytes, by a second walk over a str)."""
    cdef int rc
    st.pos = -1
    st.code = 0
    st.lossy = False
    if b.utf8:
        # valid UTF-8 checked a vector at a time, then the JSON; when the bytes
        # are not UTF-8 (or no vector unit), the JSON scan checks them itself
        # and says exactly where
        return bscan_impl(<unsigned char*>b.data, start, end, st, ix,
                          start < end and tm_utf8_check(<unsigned char*>b.data + start, end - start) == 1)
    if b.kind == 1:
        rc = scan_impl(<unsigned char*>b.data, start, end, st)
        if rc == 0 and ix != NULL:
            index_impl(<unsigned char*>b.data, start, end, ix)
    elif b.kind == 2:
        rc = scan_impl(<unsigned short*>b.data, start, end, st)
        if rc == 0 and ix != NULL:
            index_impl(<unsigned short*>b.data, start, end, ix)
    else:
        rc = scan_impl(<Py_UCS4*>b.data, start, end, st)
        if rc == 0 and ix != NULL:
            index_impl(<Py_UCS4*>b.data, start, end, ix)
    return rc


cdef int index_impl(uchar* s, Py_ssize_t i, Py_ssize_t end, IndexBuf* ix) noexcept nogil:
    """The container index of the valid text s[i:end] (a str: over bytes
    the scan builds it as it goes)."""
    cdef Py_ssize_t depth = 0
    cdef Py_UCS4 c
    while i < end:
        c = s[i]
        if c == c'"':
            i = string_end(s, i, end)
            continue
        if c == c'{' or c == c'[':
            ix_open(ix, depth, i)
            depth += 1
        elif c == c'}' or c == c']':
            depth -= 1
            ix_close(ix, depth, i + 1)
        i += 1
    return 0


def scan_index(object text, Py_ssize_t start=0, Py_ssize_t end=-1):
    """``scan`` and the container index of the valid text: an ``array('q')``
    of (start, end) pairs, in document order, of the objects and arrays at
    least INDEX_SPAN units long nested at most INDEX_DEPTH deep (empty when
    the text is not valid). Once ``len(text) // INDEX_SPAN`` of them are
    kept, containers opened after are not (those open then may still be).
    The walkers take it to jump over big containers."""
    cdef Buf b
    cdef ScanState st
    cdef IndexBuf ix
    cdef int rc
    cdef array.array index
    get_buf(text, &b)
    end = clamp_end(&b, end)
    if start < 0:
        start = 0
    ix.data = NULL
    ix.len = ix.cap = ix.kept = 0
    ix.most = (end - start) // INDEX_SPAN_C if end > start else 0
    ix.off = False
    try:
        with nogil:
            rc = scan_buf(&b, start, end, &st, &ix)
        if rc == -2:
            raise MemoryError()
        if rc != 0 or ix.off:
            ix.len = 0
        index = array.clone(_QARRAY, ix.len, False)
        if ix.len:
            memcpy(index.data.as_voidptr, ix.data, ix.len * sizeof(long long))
    finally:
        free(ix.data)
    if rc == 0:
        return (-1, 0, st.lossy, index)
    return (st.pos, st.code, st.lossy, index)


cdef struct Idx:
    # a container index being read: pairs, and where the last look-up ended
    long long* d
    Py_ssize_t n
    Py_ssize_t cur


cdef int get_idx(object index, Idx* ix) except -1:
    ix.d = NULL
    ix.n = ix.cur = 0
    if index is None:
        return 0
    if not isinstance(index, array.array) or (<array.array>index).typecode != 'q':
        raise TypeError("index must be an array('q') from scan_index, or None")
    ix.d = (<array.array>index).data.as_longlongs
    ix.n = len(index) // 2
    return 0


cdef inline Py_ssize_t idx_end(Idx* ix, Py_ssize_t p) noexcept nogil:
    """The end of the indexed container that starts at p, or -1. Walks go
    forward: look a few entries past the last hit, then search."""
    cdef long long* d = ix.d
    cdef Py_ssize_t lo = 0, hi = ix.n, mid, k = ix.cur, step
    if k < ix.n and d[2 * k] <= p:
        for step in range(4):
            if d[2 * k] == p:
                ix.cur = k + 1
                return d[2 * k + 1]
            k += 1
            if k >= ix.n or d[2 * k] > p:
                ix.cur = k
                return -1
        lo = k
    elif k < ix.n:
        hi = k
    while lo < hi:
        mid = (lo + hi) >> 1
        if d[2 * mid] < p:
            lo = mid + 1
        else:
            hi = mid
    ix.cur = lo
    if lo < ix.n and d[2 * lo] == p:
        ix.cur = lo + 1
        return d[2 * lo + 1]
    return -1


# ---------------------------------------------------------------------------
# Walking text that scan() accepted

cdef inline Py_ssize_t string_end(uchar* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """i at the opening quote of a valid string: the index past its end
    (never past n, whatever the text)."""
    cdef Py_UCS4 c
    if uchar is cython.uchar:
        return bstring_end(s, i, n)
    else:
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


cdef inline Py_ssize_t sk_ws(uchar* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    if uchar is cython.uchar:
        return bskip_ws(s, i, n)
    else:
        return skip_ws(s, i, n)


cdef Py_ssize_t value_end_impl(uchar* s, Py_ssize_t i, Py_ssize_t n, Idx* ix) noexcept nogil:
    """i at the first character of a valid value: the index past its end
    (a big container's from the index, when there is one)."""
    cdef Py_UCS4 c = s[i]
    cdef Py_ssize_t depth
    if c == c'"':
        return string_end(s, i, n)
    if c == c'{' or c == c'[':
        if ix.n:
            depth = idx_end(ix, i)
            if depth >= 0:
                return depth
        depth = 1
        i += 1
        while i < n:
            if uchar is cython.uchar:
                i = skip_words(s, i, n, STOP_STRUCT)
                if i >= n:
                    break
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


cdef str decode_string_token(object text, uchar* s, Py_ssize_t ks, Py_ssize_t ke, bint utf8):
    """The value of the string token whose quotes are at ks and ke - 1."""
    cdef Py_ssize_t j
    cdef bint plain = True
    cdef object raw
    if utf8:
        plain = memchr(<char*>s + ks + 1, c'\\', ke - ks - 2) == NULL
        if plain:
            return PyUnicode_DecodeUTF8(<char*>s + ks + 1, ke - ks - 2, NULL)
        raw = PyUnicode_DecodeUTF8(<char*>s + ks, ke - ks, NULL)
        return _scanstring(raw, 1)[0]
    for j in range(ks + 1, ke - 1):
        if s[j] == c'\\':
            return _scanstring(text, ks + 1)[0]
    return PyUnicode_Substring(text, ks + 1, ke - 1)


cdef int spans_put(array.array out, Py_ssize_t* used, long long a, long long z) except -1:
    """Append a pair to ``out`` (its first ``used`` items in use), growing it
    by a quarter at a time: the slack stays small next to the text."""
    cdef Py_ssize_t cap = len(out)
    if used[0] + 2 > cap:
        array.resize(out, cap + (cap >> 2) + 64)
    out.data.as_longlongs[used[0]] = a
    out.data.as_longlongs[used[0] + 1] = z
    used[0] += 2
    return 0


cdef object members_impl(object text, uchar* s, Py_ssize_t pos, Py_ssize_t n, bint utf8, Idx* ix):
    cdef Py_ssize_t i, ks, ke, vs, ve
    cdef Py_ssize_t used = 0
    cdef list keys = None
    cdef array.array out = array.clone(_QARRAY, 0, False)
    cdef bint obj = s[pos] == c'{'
    if obj:
        keys = []
    i = sk_ws(s, pos + 1, n)
    if s[i] != c'}' and s[i] != c']':
        while i < n:
            if obj:
                ks = i
                ke = string_end(s, i, n)
                keys.append(decode_string_token(text, s, ks, ke, utf8))
                i = sk_ws(s, ke, n) + 1  # past ':'
                i = sk_ws(s, i, n)
            vs = i
            ve = value_end_impl(s, vs, n, ix)
            spans_put(out, &used, vs, ve)
            i = sk_ws(s, ve, n)
            if s[i] == c',':
                i = sk_ws(s, i + 1, n)
            else:
                break
    array.resize(out, used)
    return (keys, out)


def members(object text, Py_ssize_t pos, object index=None):
    """The members of the object or array starting at ``pos``.

    Returns ``(keys, spans)``: ``keys`` is the list of decoded keys (None for
    an array) and ``spans`` an ``array('q')`` of start, end offset pairs of
    the values, in document order (duplicate keys are all listed).
    ``index``: the container index of ``scan_index`` for this text.
    """
    cdef Buf b
    cdef Idx ix
    cdef Py_UCS4 c
    get_buf(text, &b)
    get_idx(index, &ix)
    c = char_at(&b, pos) if 0 <= pos < b.n else 0
    if c != c'{' and c != c'[':
        raise ValueError(f"offset {pos} is not the start of an object or array")
    if b.kind == 1:
        return members_impl(text, <unsigned char*>b.data, pos, b.n, b.utf8, &ix)
    if b.kind == 2:
        return members_impl(text, <unsigned short*>b.data, pos, b.n, False, &ix)
    return members_impl(text, <Py_UCS4*>b.data, pos, b.n, False, &ix)


def value_end(object text, Py_ssize_t pos, object index=None):
    """The offset just past the value that starts at ``pos``."""
    cdef Buf b
    cdef Idx ix
    get_buf(text, &b)
    get_idx(index, &ix)
    if not value_start(&b, pos):
        raise ValueError(f"offset {pos} is not the start of a value")
    with nogil:
        if b.kind == 1:
            pos = value_end_impl(<unsigned char*>b.data, pos, b.n, &ix)
        elif b.kind == 2:
            pos = value_end_impl(<unsigned short*>b.data, pos, b.n, &ix)
        else:
            pos = value_end_impl(<Py_UCS4*>b.data, pos, b.n, &ix)
    return pos


def skip_space(object text, Py_ssize_t pos):
    """The first offset at or after ``pos`` that is not JSON whitespace."""
    cdef Buf b
    get_buf(text, &b)
    if pos < 0:
        pos = 0
    if pos > b.n:
        pos = b.n
    if b.kind == 1:
        return sk_ws(<unsigned char*>b.data, pos, b.n)
    if b.kind == 2:
        return skip_ws(<unsigned short*>b.data, pos, b.n)
    return skip_ws(<Py_UCS4*>b.data, pos, b.n)


# -- lookups -----------------------------------------------------------------

cdef bint key_equals(object text, uchar* s, Py_ssize_t ks, Py_ssize_t ke, bint utf8,
                     str key, Py_UCS4* kbuf, Py_ssize_t klen) except -1:
    """Whether the key token at [ks, ke) is ``key``; kbuf holds the units of
    ``key`` in the text's encoding (its UTF-8 bytes over bytes)."""
    cdef Py_ssize_t j, k
    cdef bint plain = True
    if uchar is cython.uchar:
        plain = memchr(<char*>s + ks + 1, c'\\', ke - ks - 2) == NULL
    else:
        for j in range(ks + 1, ke - 1):
            if s[j] == c'\\':
                plain = False
                break
    if not plain:
        return decode_string_token(text, s, ks, ke, utf8) == key
    if ke - ks - 2 != klen:
        return False
    k = 0
    for j in range(ks + 1, ke - 1):
        if s[j] != kbuf[k]:
            return False
        k += 1
    return True


cdef Py_ssize_t find_key_impl(object text, uchar* s, Py_ssize_t pos, Py_ssize_t n, bint utf8,
                              str key, Py_UCS4* kbuf, Py_ssize_t klen,
                              Py_ssize_t* vend, Py_ssize_t* times, Idx* ix) except -2:
    """Start of the value of the last member ``key`` of the object at pos
    (its end in vend), or -1; ``times``: how many members have that key."""
    cdef Py_ssize_t i, ks, ke, vs, ve
    cdef Py_ssize_t found = -1
    times[0] = 0
    i = sk_ws(s, pos + 1, n)
    if s[i] == c'}':
        return -1
    while i < n:
        ks = i
        ke = string_end(s, i, n)
        i = sk_ws(s, sk_ws(s, ke, n) + 1, n)
        vs = i
        ve = value_end_impl(s, vs, n, ix)
        if key_equals(text, s, ks, ke, utf8, key, kbuf, klen):
            found = vs
            vend[0] = ve
            times[0] += 1
        i = sk_ws(s, ve, n)
        if s[i] == c',':
            i = sk_ws(s, i + 1, n)
        else:
            return found
    return found


cdef Py_ssize_t count_impl(uchar* s, Py_ssize_t pos, Py_ssize_t n, Idx* ix) noexcept nogil:
    """Number of members of the container at pos."""
    cdef Py_ssize_t i, count = 0
    cdef bint obj = s[pos] == c'{'
    i = sk_ws(s, pos + 1, n)
    if s[i] == c'}' or s[i] == c']':
        return 0
    while i < n:
        if obj:
            i = string_end(s, i, n)
            i = sk_ws(s, sk_ws(s, i, n) + 1, n)
        i = sk_ws(s, value_end_impl(s, i, n, ix), n)
        count += 1
        if s[i] == c',':
            i = sk_ws(s, i + 1, n)
        else:
            return count
    return count


cdef enum:
    RING_MAX = 4096   # elements a negative index remembers in one pass


cdef Py_ssize_t nth_impl(uchar* s, Py_ssize_t pos, Py_ssize_t n, Py_ssize_t index,
                         Py_ssize_t* vend, Idx* ix) noexcept nogil:
    """Start of element ``index`` of the array at pos (its end in vend), or
    -1 (-2 when out of memory). A negative index counts from the end: one
    pass, remembering the last -index elements in a ring; past RING_MAX
    elements, a first pass counts them instead, so memory never grows with
    the index (an agent may ask for [-999999999999])."""
    cdef Py_ssize_t i, ve, k = 0, m, count
    cdef Py_ssize_t* ring = NULL
    i = sk_ws(s, pos + 1, n)
    if s[i] == c']':
        return -1
    if index < -RING_MAX:
        count = count_impl(s, pos, n, ix)
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
        ve = value_end_impl(s, i, n, ix)
        if ring != NULL:
            ring[2 * (k % m)] = i
            ring[2 * (k % m) + 1] = ve
        k += 1
        i = sk_ws(s, ve, n)
        if s[i] == c',':
            i = sk_ws(s, i + 1, n)
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


cdef Py_ssize_t lookup_impl(object text, uchar* s, Py_ssize_t n, bint utf8, Py_ssize_t pos,
                            Py_ssize_t end, tuple segments, Py_ssize_t* out, Idx* ix) except -2:
    """Walk ``segments`` from the value at [pos, end) (end -1: not known);
    the final span goes in out[0], out[1], and in out[2] the first segment
    followed whose key its object gives more than once (-1: none). Returns -1
    on success, else the index of the segment that failed (out then holds
    the span it failed on, its end -1 when not known)."""
    cdef Py_ssize_t k, vs, ve = 0, times
    cdef Py_ssize_t nseg = len(segments)
    cdef object seg, idx, units
    cdef Py_UCS4* kbuf
    cdef Py_UCS4 c
    out[0] = pos
    out[1] = end  # -1: not known yet (the caller computes it when needed)
    out[2] = -1
    for k in range(nseg):
        seg = segments[k]
        c = s[pos]
        if type(seg) is str:
            if c == c'{':
                # the key's units in the text's encoding: over bytes, its UTF-8
                # bytes (one code point each in a latin-1 str)
                units = (<str>seg).encode("utf-8", "surrogatepass").decode("latin-1") if utf8 else seg
                kbuf = PyUnicode_AsUCS4Copy(units)
                try:
                    vs = find_key_impl(text, s, pos, n, utf8, seg, kbuf, len(<str>units), &ve, &times, ix)
                finally:
                    PyMem_Free(kbuf)
                if times > 1 and out[2] < 0:
                    out[2] = k
            elif c == c'[':
                idx = as_index(seg)
                if idx is None:
                    return k
                vs = nth_impl(s, pos, n, <Py_ssize_t>idx, &ve, ix)
            else:
                return k
        else:
            if c != c'[':
                return k
            vs = nth_impl(s, pos, n, <Py_ssize_t>seg, &ve, ix)
        if vs == -2:
            raise MemoryError()
        if vs < 0:
            return k
        pos = vs
        out[0] = vs
        out[1] = ve
    if out[1] < 0:
        out[1] = value_end_impl(s, out[0], n, ix)
    return -1


cdef tuple check_segments(object segments):
    cdef tuple segs = tuple(segments)
    for seg in segs:
        if type(seg) is not str and type(seg) is not int:
            raise TypeError(f"path segments are str keys or int indexes, not {type(seg).__name__}")
        if type(seg) is int and not (-(10 ** C_INDEX_DIGITS) < seg < 10 ** C_INDEX_DIGITS):
            raise ValueError(f"index {seg} is out of range")
    return segs


cdef Py_ssize_t lookup_buf(object text, Buf* b, Py_ssize_t pos, Py_ssize_t end, tuple segs,
                           Py_ssize_t* out, Idx* ix) except -2:
    if b.kind == 1:
        return lookup_impl(text, <unsigned char*>b.data, b.n, b.utf8, pos, end, segs, out, ix)
    if b.kind == 2:
        return lookup_impl(text, <unsigned short*>b.data, b.n, False, pos, end, segs, out, ix)
    return lookup_impl(text, <Py_UCS4*>b.data, b.n, False, pos, end, segs, out, ix)


def lookup(object text, Py_ssize_t pos, object segments, object index=None):
    """Walk ``segments`` (str keys, int indexes) from the value at ``pos``:
    ``(start, end, failed, repeated)``, as the twin's ``lookup`` says."""
    cdef Buf b
    cdef Idx ix
    cdef tuple segs = check_segments(segments)
    cdef Py_ssize_t out[3]
    cdef Py_ssize_t failed
    get_buf(text, &b)
    get_idx(index, &ix)
    if not value_start(&b, pos):
        raise ValueError(f"offset {pos} is not the start of a value")
    failed = lookup_buf(text, &b, pos, -1, segs, out, &ix)
    if out[1] < 0:
        out[1] = value_end(text, out[0], index)
    return (out[0], out[1], failed, out[2])


def lookup_many(object text, array.array spans, object segments, object index=None):
    """``lookup`` from each value of ``spans`` (start, end pairs); returns an
    ``array('q')`` of the found spans, with -1, -1 where the path failed."""
    cdef Buf b
    cdef tuple segs = check_segments(segments)
    cdef Py_ssize_t out[3]
    cdef Py_ssize_t failed, k, m, pos
    cdef array.array result
    cdef Idx ix
    get_buf(text, &b)
    get_idx(index, &ix)
    if spans.typecode != 'q':
        raise TypeError("spans must be an array('q')")
    m = len(spans)
    if m % 2:
        raise ValueError("spans must hold start, end pairs")
    result = array.clone(_QARRAY, m, False)
    for k in range(0, m, 2):
        pos = spans.data.as_longlongs[k]
        if pos >= b.n or (pos >= 0 and is_ws(char_at(&b, pos))):
            raise ValueError(f"offset {pos} is not the start of a value")
        if pos < 0:
            failed = 0
        else:
            out[1] = spans.data.as_longlongs[k + 1]
            failed = lookup_buf(text, &b, pos, out[1], segs, out, &ix)
        if failed == -1:
            result.data.as_longlongs[k] = out[0]
            result.data.as_longlongs[k + 1] = out[1]
        else:
            result.data.as_longlongs[k] = -1
            result.data.as_longlongs[k + 1] = -1
    return result


# -- summaries ---------------------------------------------------------------

cdef Py_ssize_t string_length(uchar* s, Py_ssize_t i, bint utf8) noexcept nogil:
    """Length in characters, once decoded, of the valid string at i."""
    cdef Py_ssize_t count = 0
    cdef Py_UCS4 c
    cdef int hi, lo
    i += 1
    while True:
        c = s[i]
        if c == c'"':
            return count
        if c != c'\\':
            if not utf8 or (<unsigned int>c & 0xC0) != 0x80:
                count += 1
            i += 1
            continue
        count += 1
        if s[i + 1] != c'u':
            i += 2
            continue
        hi = (hexval(s[i + 2]) << 12) | (hexval(s[i + 3]) << 8) | (hexval(s[i + 4]) << 4) | hexval(s[i + 5])
        i += 6
        if 0xD800 <= hi <= 0xDBFF and s[i] == c'\\' and s[i + 1] == c'u':
            lo = (hexval(s[i + 2]) << 12) | (hexval(s[i + 3]) << 8) | (hexval(s[i + 4]) << 4) | hexval(s[i + 5])
            if 0xDC00 <= lo <= 0xDFFF:
                i += 6


def summary(object text, Py_ssize_t pos, object index=None):
    """``(kind, size)`` of the value at ``pos``: kind is object, array,
    string, number, bool or null; size the member count of a container, the
    decoded length in characters of a string, else -1."""
    cdef Buf b
    cdef Idx ix
    cdef Py_ssize_t size
    cdef Py_UCS4 c
    get_buf(text, &b)
    get_idx(index, &ix)
    if pos < 0 or pos >= b.n:
        raise ValueError(f"offset {pos} is not the start of a value")
    c = char_at(&b, pos)
    if c == c"{" or c == c"[":
        with nogil:
            if b.kind == 1:
                size = count_impl(<unsigned char*>b.data, pos, b.n, &ix)
            elif b.kind == 2:
                size = count_impl(<unsigned short*>b.data, pos, b.n, &ix)
            else:
                size = count_impl(<Py_UCS4*>b.data, pos, b.n, &ix)
        return ("object" if c == c"{" else "array", size)
    if c == c'"':
        with nogil:
            if b.kind == 1:
                size = string_length(<unsigned char*>b.data, pos, b.utf8)
            elif b.kind == 2:
                size = string_length(<unsigned short*>b.data, pos, False)
            else:
                size = string_length(<Py_UCS4*>b.data, pos, False)
        return ("string", size)
    if c == c"t" or c == c"f":
        return ("bool", -1)
    if c == c"n":
        return ("null", -1)
    if c == c"-" or is_digit(c):
        return ("number", -1)
    raise ValueError(f"offset {pos} is not the start of a value")


include "_jsonformat.pxi"
include "_jsonexact.pxi"


def load_exact(str text, on_int, on_float, Py_ssize_t max_depth):
    """The value of the valid JSON ``text``, each number token read by a hook
    (``on_int`` without a fraction or an exponent, else ``on_float``) as it
    was written; RecursionError past ``max_depth`` levels. See
    ``toolmend._kernels._jsonexact.load_exact``."""
    return exact_read(text, on_int, on_float, max_depth)
