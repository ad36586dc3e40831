# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled line diff core: Myers' O(ND) search with an edit budget.

Twin of ``toolmend/_kernels/_myers_py.py`` (read its docstring for the steps): same
function, same algorithm, same tie-breaking, same results. Lines are interned
to C ints while the GIL is held; the search, the boundary shifting and the
block scan then run on C arrays with the GIL released, so threads diffing
different files run in parallel. Nothing here recurses: the halves of the
divide and conquer wait on an explicit stack.

Files: this one (the entry points), ``_myers_search.pxi`` (the search and the
boundary shift, beside the pure twin's ``_myers_search.py``),
``_myers_intern.pxi`` (lines to ids: a dict, or a hash table on the strings'
buffers) and ``_myers_text.pxi`` (texts: lines found in the string's buffer,
the unified diff written in C).
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp, strlen
from cpython.mem cimport PyMem_Free
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_AsUCS4Copy
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject_RichCompareBool, Py_EQ

cdef extern from "Python.h":
    PyObject* PyDict_SetDefault(object p, object key, object default) except NULL
    Py_ssize_t PyLong_AsSsize_t(PyObject* o) except? -1
    int PyUnicode_KIND(object o)
    bint PyUnicode_IS_ASCII(object o)
    void* PyUnicode_DATA(object o)
    bint PyUnicode_CheckExact(PyObject* o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    int PyUnicode_KIND_P "PyUnicode_KIND" (PyObject* o)
    void* PyUnicode_DATA_P "PyUnicode_DATA" (PyObject* o)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(PyObject* o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void PyUnicode_WRITE(int kind, void* data, Py_ssize_t index, Py_UCS4 value)
    int PyList_Append(object lst, object item) except -1

cdef extern from "limits.h":
    int INT_MAX

cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define TOOLMEND_FREE_THREADED 1
    #else
    #define TOOLMEND_FREE_THREADED 0
    #endif
    """
    bint TOOLMEND_FREE_THREADED


cdef Py_ssize_t HUGE = (<Py_ssize_t>1) << 40 if sizeof(Py_ssize_t) >= 8 else (<Py_ssize_t>1) << 28

cdef enum:
    SOLVED = 0
    EXCEEDED = 1
    NO_MEMORY = -1
    LOST_BOUND = -2


include "_myers_search.pxi"
include "_myers_intern.pxi"
include "_myers_text.pxi"


cdef list block_list(const Py_ssize_t* blk, Py_ssize_t count):
    return [(blk[4 * k], blk[4 * k + 1], blk[4 * k + 2], blk[4 * k + 3]) for k in range(count)]


cdef int raise_status(int status) except -1:
    if status == NO_MEMORY:
        raise MemoryError()
    raise RuntimeError("toolmend: diff search lost its bound (internal error)")


def diff_lines(a, b, Py_ssize_t budget):
    """Minimal line diff of ``a`` and ``b`` within ``budget`` changed items.

    Returns ``(blocks, exceeded)``; see ``toolmend._kernels._myers_py.diff_lines``.
    Lists of str are compared and hashed in their buffers; other items go
    through a dict.
    """
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    budget = min(budget, HUGE)
    # The loops hold borrowed references to the items, so they work on lists
    # nothing else can change meanwhile. Lists of str are used as they are:
    # comparing and hashing str runs no Python code, so with the GIL held no
    # other thread can touch them. Anything else is copied first.
    if not TOOLMEND_FREE_THREADED and type(a) is list and type(b) is list:
        result = diff_str_lists(<list>a, <list>b, budget)
        if result is not None:
            return result
    la = list(a)
    lb = list(b)
    return diff_lists(la, lb, budget, all_exact_str(la) and all_exact_str(lb))


cdef object diff_str_lists(list la, list lb, Py_ssize_t budget):
    """The diff of two lists of str, or None when an item is not a str."""
    return diff_lists(la, lb, budget, True)


cdef object diff_lists(list la, list lb, Py_ssize_t budget, bint strs):
    cdef Py_ssize_t n = PyList_GET_SIZE(la), m = PyList_GET_SIZE(lb)
    cdef Py_ssize_t lim = n if n < m else m
    cdef Py_ssize_t p = 0, s = 0, a_end, b_end, na, nb, count = 0
    cdef PyObject* x
    cdef PyObject* y
    if strs:
        while p < lim:
            x = PyList_GET_ITEM(la, p)
            y = PyList_GET_ITEM(lb, p)
            if not (PyUnicode_CheckExact(x) and PyUnicode_CheckExact(y)):
                return None
            if not str_equal(x, y):
                break
            p += 1
        while s < lim - p:
            x = PyList_GET_ITEM(la, n - 1 - s)
            y = PyList_GET_ITEM(lb, m - 1 - s)
            if not (PyUnicode_CheckExact(x) and PyUnicode_CheckExact(y)):
                return None
            if not str_equal(x, y):
                break
            s += 1
    else:
        while p < lim and PyObject_RichCompareBool(
                <object>PyList_GET_ITEM(la, p), <object>PyList_GET_ITEM(lb, p), Py_EQ):
            p += 1
        while s < lim - p and PyObject_RichCompareBool(
                <object>PyList_GET_ITEM(la, n - 1 - s), <object>PyList_GET_ITEM(lb, m - 1 - s), Py_EQ):
            s += 1
    a_end = n - s
    b_end = m - s
    na = a_end - p
    nb = b_end - p
    # (In the str path the items are read before any Python object is made:
    # an allocation can run a collection, and a finalizer could change the
    # caller's list.)
    if na == 0 and nb == 0:
        return [], False
    if na == 0 or nb == 0:
        if strs and not (all_exact_str_range(la, p, a_end) and all_exact_str_range(lb, p, b_end)):
            return None
        return [(p, a_end, p, b_end)], na + nb > budget

    cdef int* ia = NULL
    cdef int* ib = NULL
    cdef unsigned char* changed_a = NULL
    cdef unsigned char* changed_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef dict ids
    cdef Py_ssize_t nids
    cdef int status
    try:
        ia = <int*>malloc(na * sizeof(int))
        ib = <int*>malloc(nb * sizeof(int))
        changed_a = <unsigned char*>malloc(na + 2)
        changed_b = <unsigned char*>malloc(nb + 2)
        blk = <Py_ssize_t*>malloc(4 * ((na if na < nb else nb) + 1) * sizeof(Py_ssize_t))
        if ia == NULL or ib == NULL or changed_a == NULL or changed_b == NULL or blk == NULL:
            raise MemoryError()
        if strs:
            nids = intern_strs(la, p, a_end, lb, p, b_end, ia, ib)
            if nids == -2:
                return None
            if nids < 0:
                raise MemoryError()
        else:
            ids = {}
            intern(la, p, a_end, ids, ia)
            intern(lb, p, b_end, ids, ib)
            nids = len(ids)
        with nogil:
            status = core(ia, na, ib, nb, nids, budget, changed_a, changed_b)
            if status == SOLVED:
                count = scan_blocks(changed_a, changed_b, na, nb, p, blk)
        if status == EXCEEDED:
            return [(p, a_end, p, b_end)], True
        if status != SOLVED:
            raise_status(status)
        if count < 0:
            raise RuntimeError("toolmend: diff alignment is inconsistent (internal error)")
        return block_list(blk, count), False
    finally:
        free(ia)
        free(ib)
        free(changed_a)
        free(changed_b)
        free(blk)


def extend_prefixed(list out, str prefix, list items, Py_ssize_t lo, Py_ssize_t hi):
    """``out.extend(prefix + item for item in items[lo:hi])``, building each
    str directly when the items are str (``prefix`` is one ASCII character).
    ``items`` must be a list no other code holds (the caller's own copy)."""
    cdef Py_ssize_t i, n
    cdef PyObject* item
    cdef int kind
    cdef object line
    cdef void* data
    cdef Py_UCS4 c
    if len(prefix) != 1 or ord(prefix) > 127:
        raise ValueError("prefix must be one ASCII character")
    c = ord(prefix)
    if lo < 0:
        lo = 0
    if hi > PyList_GET_SIZE(items):
        hi = PyList_GET_SIZE(items)
    for i in range(lo, hi):
        item = PyList_GET_ITEM(items, i)
        if not PyUnicode_CheckExact(item):
            PyList_Append(out, prefix + <object>item)
            continue
        n = PyUnicode_GET_LENGTH(item)
        kind = PyUnicode_KIND_P(item)
        line = PyUnicode_New(n + 1, PyUnicode_MAX_CHAR_VALUE(item))
        data = PyUnicode_DATA(line)
        PyUnicode_WRITE(kind, data, 0, c)
        memcpy(<char*>data + kind, PyUnicode_DATA_P(item), n * kind)
        PyList_Append(out, line)


cdef str write_unified(Out* out, const Text* ta, const Text* tb, const Py_ssize_t* blk,
                       Py_ssize_t count, Py_ssize_t context, const Label* la, const Label* lb,
                       bint ascii):
    """The diff as a str of its counted size: written in place when all is
    ASCII (no copy), else in ``out.data``, then copied to the narrowest str."""
    cdef Py_ssize_t size = unified_size(ta, tb, blk, count, context, la, lb)
    cdef str text = None
    cdef int failed
    out.cap = size
    if ascii:
        text = PyUnicode_New(size, 127)
        out.data = <char*>PyUnicode_DATA(text)
    else:
        out.data = <char*>malloc(size * out.kind)
        if out.data == NULL:
            raise MemoryError()
    with nogil:
        failed = format_unified(out, ta, tb, blk, count, context, la, lb)
    if ascii:
        out.data = NULL  # the str's own buffer
    if failed or out.len != size:
        raise RuntimeError("toolmend: diff size miscounted (internal error)")
    return text if ascii else PyUnicode_FromKindAndData(out.kind, out.data, size)


def unified_text(str a, str b, Py_ssize_t context, str a_label, str b_label, Py_ssize_t budget):
    """The unified diff of two texts: ``(text, blocks, exceeded)``.

    Lines end at "\\n" only; see ``toolmend._kernels._myers_py.unified_text``.
    """
    if budget < 0:
        raise ValueError(f"budget must be at least 0, not {budget}")
    if context < 0:
        raise ValueError(f"context must be at least 0, not {context}")
    # Past any line count these change nothing; capped, 2 * x cannot overflow.
    budget = min(budget, HUGE)
    context = min(context, HUGE)
    cdef Text ta
    cdef Text tb
    cdef Label la
    cdef Label lb
    cdef Out out
    cdef Py_UCS4* wide_a = NULL
    cdef Py_UCS4* wide_b = NULL
    cdef Py_ssize_t* blk = NULL
    cdef Py_ssize_t count = 0
    cdef bint exceeded = False
    cdef int status = SOLVED
    memset(&ta, 0, sizeof(Text))
    memset(&tb, 0, sizeof(Text))
    memset(&out, 0, sizeof(Out))
    ta.length = len(a)
    tb.length = len(b)
    label_of(&la, a_label)
    label_of(&lb, b_label)
    try:
        if PyUnicode_KIND(a) == PyUnicode_KIND(b):
            ta.data = <const char*>PyUnicode_DATA(a)
            tb.data = <const char*>PyUnicode_DATA(b)
            ta.kind = tb.kind = PyUnicode_KIND(a)
        else:  # compare lines in one width
            wide_a = PyUnicode_AsUCS4Copy(a)
            wide_b = PyUnicode_AsUCS4Copy(b)
            ta.data = <const char*>wide_a
            tb.data = <const char*>wide_b
            ta.kind = tb.kind = 4
        out.kind = ta.kind
        if la.kind > out.kind:
            out.kind = la.kind
        if lb.kind > out.kind:
            out.kind = lb.kind
        with nogil:
            status = diff_texts(&ta, &tb, budget, context, &blk, &count, &exceeded)
        if status != SOLVED:
            raise_status(status)
        text = ""
        if count:
            text = write_unified(&out, &ta, &tb, blk, count, context, &la, &lb,
                                 out.kind == 1 and PyUnicode_IS_ASCII(a) and PyUnicode_IS_ASCII(b)
                                 and PyUnicode_IS_ASCII(a_label) and PyUnicode_IS_ASCII(b_label))
        return text, block_list(blk, count), exceeded
    finally:
        free(ta.starts)
        free(tb.starts)
        free(blk)
        free(out.data)
        if wide_a != NULL:
            PyMem_Free(wide_a)
        if wide_b != NULL:
            PyMem_Free(wide_b)
