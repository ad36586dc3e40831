# The buffers the compiled recovery kernel's scanners write into, and the
# record of the repair engine's log: plain C, so that a pass can run without
# the GIL (the heap is the raw allocator's; what needs Python, an error, takes
# the GIL). Included by _recover.pyx; the pure twin builds strings and tuples.

# Past this many characters a pass runs without the GIL (the repair engine's,
# the comment stripper's, the curly-quote scanner's): below it, releasing the
# GIL and taking it back costs more than it frees.
cdef Py_ssize_t NOGIL_MIN = 4096


# A cache line and the line the hardware prefetches with it, in bytes: the
# padding around an object's fields that a pass writes without the GIL.
cdef enum:
    PAD = 128


cdef int no_memory() except -1 with gil:
    raise MemoryError()


cdef struct Buf:
    Py_UCS4* data
    Py_ssize_t len
    Py_ssize_t cap
    bint heap


cdef enum:
    LOCAL_CAP = 256


cdef inline void buf_init(Buf* b, Py_UCS4* local, Py_ssize_t cap) noexcept nogil:
    """Start on caller-provided (stack) storage; move to the heap if it grows."""
    b.data = local
    b.len = 0
    b.cap = cap
    b.heap = False


cdef int buf_grow(Buf* b) except -1 nogil:
    cdef Py_ssize_t cap = b.cap * 2
    cdef Py_UCS4* data
    if b.heap:
        data = <Py_UCS4*>PyMem_RawRealloc(b.data, cap * sizeof(Py_UCS4))
    else:
        data = <Py_UCS4*>PyMem_RawMalloc(cap * sizeof(Py_UCS4))
        if data != NULL:
            memcpy(data, b.data, b.len * sizeof(Py_UCS4))
    if data == NULL:
        no_memory()
    b.data = data
    b.cap = cap
    b.heap = True
    return 0


cdef inline int buf_put(Buf* b, Py_UCS4 c) except -1 nogil:
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


cdef inline void buf_free(Buf* b) noexcept nogil:
    if b.heap:
        PyMem_RawFree(b.data)
    b.data = NULL
    b.heap = False


cdef struct Out:
    void* data        # one byte a character (Latin-1) until a wider one comes
    Py_ssize_t len
    Py_ssize_t cap
    bint wide         # Py_UCS4 characters


cdef inline Py_UCS4 out_at(Out* o, Py_ssize_t k) noexcept nogil:
    """The output's character at k, whatever its width."""
    if o.wide:
        return (<Py_UCS4*>o.data)[k]
    return (<unsigned char*>o.data)[k]


cdef struct FixRec:
    # One entry of the log, kept in C while the pass runs without the GIL and
    # made a tuple (code, pos, message) at the end. ``message`` NULL is None;
    # with ``form`` it is a str.format template of c, d (characters), n (a),
    # span (the text's characters a to b) and t.
    const char* code
    const char* message
    Py_ssize_t pos
    bint form
    Py_UCS4 c, d
    Py_ssize_t a, b
    const char* t


cdef int refused(Py_ssize_t pos, const char* what) except -1 with gil:
    raise Refused(pos, what.decode("utf-8"))


cdef int refused_s(Py_ssize_t pos, str what) except -1:
    raise Refused(pos, what)


cdef int too_deep(Py_ssize_t pos) except -1 with gil:
    raise Refused(pos, TOO_DEEP)


ctypedef unsigned char latin1

ctypedef fused outchar:
    latin1
    Py_UCS4


cdef inline Py_ssize_t plain_run(_Repairer self, outchar* dst, Py_ssize_t j, Py_UCS4 q,
                                 int ctx) noexcept nogil:
    """Copy the plain characters of the string at j on (no quote, backslash,
    control character or surrogate; in a key no structural character) to the
    output, which has room; the index of the first other one. A 1-byte output
    means Latin-1 text, read as bytes."""
    cdef Py_ssize_t n = self.n, w = self.out.len
    cdef Py_UCS4 c
    while j < n:
        if outchar is latin1:
            c = (<const unsigned char*>self.data)[j]
        else:
            c = self.ch(j)
        if c < 0x20 or c == q or c == c'\\' or c == c'"' or 0xD800 <= c <= 0xDFFF:
            break
        if ctx == CTX_KEY and (c == c':' or c == c'}' or c == c'{' or c == c','):
            break
        dst[w] = <outchar>c
        w += 1
        j += 1
    self.out.len = w
    return j
