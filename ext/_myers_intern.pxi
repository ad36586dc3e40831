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


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* A 64-bit hash of p[0..n): two lanes of a multiply per eight bytes
       (two short chains, not one long one); the last bytes are read at once,
       overlapping ones already hashed, never by a variable-length copy. */
    #define TOOLMEND_MIX(h, w, k) ((((h) << 5) | ((h) >> 59)) ^ (w)) * (k)
    static inline uint64_t toolmend_hash_bytes(const char* p, Py_ssize_t n) {
        const uint64_t k1 = 0x517CC1B727220A95ULL, k2 = 0x9E3779B97F4A7C15ULL;
        uint64_t h1 = (uint64_t)n * k2, h2 = (uint64_t)n ^ k1, w1, w2;
        if (n > 16) {
            const char* end = p + n - 16;
            for (; p < end; p += 16) {
                memcpy(&w1, p, 8);
                memcpy(&w2, p + 8, 8);
                h1 = TOOLMEND_MIX(h1, w1, k1);
                h2 = TOOLMEND_MIX(h2, w2, k2);
            }
            memcpy(&w1, end, 8);
            memcpy(&w2, end + 8, 8);
        } else if (n > 8) {
            memcpy(&w1, p, 8);
            memcpy(&w2, p + n - 8, 8);
        } else if (n >= 4) {
            uint32_t lo, hi;
            memcpy(&lo, p, 4);
            memcpy(&hi, p + n - 4, 4);
            w1 = (uint64_t)lo | (uint64_t)hi << 32;
            w2 = 0;
        } else {
            w1 = n ? (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[n >> 1] << 8
                     | (uint64_t)(unsigned char)p[n - 1] << 16 : 0;
            w2 = 0;
        }
        h1 = TOOLMEND_MIX(h1, w1, k1);
        h2 = TOOLMEND_MIX(h2, w2, k2);
        h1 ^= (h2 << 32) | (h2 >> 32);
        return h1 ^ (h1 >> 29);
    }
    """
    uint64_t hash_bytes "toolmend_hash_bytes" (const char* p, Py_ssize_t n) noexcept nogil


cdef struct Entry:
    const char* ptr       # the first line's buffer
    Py_ssize_t nbytes     # its size in bytes
    int kind              # its storage kind


cdef struct Interner:
    # Open addressing on a 64-bit hash of each line's buffer; equal content
    # (same kind, same bytes) is confirmed byte for byte. Ids are given in
    # order of first appearance, from 0.
    Py_ssize_t mask
    Py_ssize_t count
    uint64_t* table       # slot -> the hash's high half | id + 1 (0: empty), one load a probe
    Entry* entries        # id -> its first line


cdef int interner_init(Interner* t, Py_ssize_t total) noexcept nogil:
    """Room for ``total`` lines; -1 when out of memory (free it anyway)."""
    cdef Py_ssize_t cap = 16
    while cap < 2 * total:
        cap *= 2
    t.mask = cap - 1
    t.count = 0
    # one block: the table, then the entries
    t.table = <uint64_t*>malloc(cap * sizeof(uint64_t) + (total + 1) * sizeof(Entry))
    if t.table == NULL:
        return -1
    memset(t.table, 0, cap * sizeof(uint64_t))
    t.entries = <Entry*>(t.table + cap)
    return 0


cdef void interner_free(Interner* t) noexcept nogil:
    free(t.table)


cdef int interner_id(Interner* t, const char* ptr, Py_ssize_t nbytes, int kind) noexcept nogil:
    """The id of the line in ``ptr[:nbytes]`` (``kind`` bytes a character)."""
    cdef uint64_t h = hash_bytes(ptr, nbytes) + <uint64_t>kind
    cdef uint64_t tag = h & 0xFFFFFFFF00000000ULL
    cdef uint64_t v
    cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>t.mask)
    cdef Entry* e
    while True:
        v = t.table[slot]
        if v == 0:
            e = &t.entries[t.count]
            e.ptr = ptr
            e.nbytes = nbytes
            e.kind = kind
            t.count += 1
            t.table[slot] = tag | <uint64_t>t.count
            return <int>(t.count - 1)
        if (v & 0xFFFFFFFF00000000ULL) == tag:
            e = &t.entries[<Py_ssize_t>(v & 0xFFFFFFFFULL) - 1]
            if e.nbytes == nbytes and e.kind == kind and memcmp(e.ptr, ptr, nbytes) == 0:
                return <int>((v & 0xFFFFFFFFULL) - 1)
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
