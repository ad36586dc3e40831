# Lines to ids (step 2 of the pure twin), included by _myers.pyx: any hashable
# items through a dict, lists of str by a hash table on their buffers (the
# pure twin uses a dict for both).

cdef int intern(list items, Py_ssize_t lo, Py_ssize_t hi, dict ids, int* out) except -1:
    cdef Py_ssize_t i
    cdef PyObject* got
    cdef object fresh = len(ids)
    cdef Py_ssize_t count = len(ids)
    for i in range(lo, hi):
        got = PyDict_SetDefault(ids, <object>PyList_GET_ITEM(items, i), fresh)
        if got == <PyObject*>fresh:
            out[i - lo] = <int>count
            count += 1
            if count >= INT_MAX:
                raise OverflowError("too many distinct lines to diff")
            fresh = count
        else:
            out[i - lo] = <int>PyLong_AsSsize_t(got)
    return 0


cdef bint all_exact_str(list items):
    return all_exact_str_range(items, 0, PyList_GET_SIZE(items))


cdef bint all_exact_str_range(list items, Py_ssize_t lo, Py_ssize_t hi):
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if not PyUnicode_CheckExact(PyList_GET_ITEM(items, i)):
            return False
    return True


cdef inline bint str_equal(PyObject* x, PyObject* y) noexcept:
    """Equality of two exact str (canonical: equal means same kind and data)."""
    cdef Py_ssize_t n
    cdef int kind
    if x == y:
        return True
    n = PyUnicode_GET_LENGTH(x)
    kind = PyUnicode_KIND_P(x)
    if n != PyUnicode_GET_LENGTH(y) or kind != PyUnicode_KIND_P(y):
        return False
    return memcmp(PyUnicode_DATA_P(x), PyUnicode_DATA_P(y), n * kind) == 0


cdef inline uint64_t hash_bytes(const char* p, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = (<uint64_t>n) * 0x9E3779B97F4A7C15ULL
    cdef uint64_t word
    while n >= 8:
        memcpy(&word, p, 8)
        h = (((h << 5) | (h >> 59)) ^ word) * 0x517CC1B727220A95ULL
        p += 8
        n -= 8
    if n:
        word = 0
        memcpy(&word, p, n)
        h = (((h << 5) | (h >> 59)) ^ word) * 0x517CC1B727220A95ULL
    return h ^ (h >> 31)


cdef struct Interner:
    # Open addressing on a 64-bit hash of each line's buffer; equal content
    # (same kind, same bytes) is confirmed byte for byte. Ids are given in
    # order of first appearance, from 0.
    Py_ssize_t mask
    Py_ssize_t count
    int* table            # slot -> id + 1 (0: empty)
    uint64_t* hashes      # id -> hash
    const char** ptrs     # id -> first line's buffer
    Py_ssize_t* sizes     # id -> its size in bytes
    int* kinds            # id -> its storage kind


cdef int interner_init(Interner* t, Py_ssize_t total) noexcept nogil:
    """Room for ``total`` lines; -1 when out of memory (free it anyway)."""
    cdef Py_ssize_t cap = 16
    while cap < 2 * total:
        cap *= 2
    t.mask = cap - 1
    t.count = 0
    t.table = <int*>calloc(cap, sizeof(int))
    t.hashes = <uint64_t*>malloc((total + 1) * sizeof(uint64_t))
    t.ptrs = <const char**>malloc((total + 1) * sizeof(const char*))
    t.sizes = <Py_ssize_t*>malloc((total + 1) * sizeof(Py_ssize_t))
    t.kinds = <int*>malloc((total + 1) * sizeof(int))
    if (t.table == NULL or t.hashes == NULL or t.ptrs == NULL or t.sizes == NULL
            or t.kinds == NULL):
        return -1
    return 0


cdef void interner_free(Interner* t) noexcept nogil:
    free(t.table)
    free(t.hashes)
    free(t.ptrs)
    free(t.sizes)
    free(t.kinds)


cdef int interner_id(Interner* t, const char* ptr, Py_ssize_t nbytes, int kind) noexcept nogil:
    """The id of the line in ``ptr[:nbytes]`` (``kind`` bytes a character)."""
    cdef uint64_t h = hash_bytes(ptr, nbytes) + <uint64_t>kind
    cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>t.mask)
    cdef int found
    while True:
        found = t.table[slot]
        if found == 0:
            t.hashes[t.count] = h
            t.ptrs[t.count] = ptr
            t.sizes[t.count] = nbytes
            t.kinds[t.count] = kind
            t.count += 1
            t.table[slot] = <int>t.count
            return <int>(t.count - 1)
        found -= 1
        if (t.hashes[found] == h and t.sizes[found] == nbytes and t.kinds[found] == kind
                and memcmp(t.ptrs[found], ptr, nbytes) == 0):
            return found
        slot = (slot + 1) & t.mask


cdef Py_ssize_t intern_strs(list la, Py_ssize_t a0, Py_ssize_t a1, list lb, Py_ssize_t b0,
                            Py_ssize_t b1, int* ia, int* ib) noexcept:
    """``intern_lines`` for lists of exact str, on their buffers (the GIL is
    held: the lists are the caller's); -2 when an item is no str."""
    cdef Interner t
    cdef Py_ssize_t i, lo, hi, side, nids
    cdef list items
    cdef int* out
    cdef PyObject* item
    cdef int kind
    if interner_init(&t, (a1 - a0) + (b1 - b0)) < 0:
        interner_free(&t)
        return -1
    nids = 0
    for side in range(2):
        items = la if side == 0 else lb
        out = ia if side == 0 else ib
        lo = a0 if side == 0 else b0
        hi = a1 if side == 0 else b1
        for i in range(lo, hi):
            item = PyList_GET_ITEM(items, i)
            if not PyUnicode_CheckExact(item):
                nids = -2
                break
            kind = PyUnicode_KIND_P(item)
            out[i - lo] = interner_id(&t, <const char*>PyUnicode_DATA_P(item),
                                      PyUnicode_GET_LENGTH(item) * kind, kind)
        if nids == -2:
            break
    if nids == 0:
        nids = t.count
    interner_free(&t)
    return nids
