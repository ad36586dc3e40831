# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True, always_allow_keywords=False
"""Compiled check of a compiled JSON Schema on a value: the plan's records walked with C type tests.

Twin of ``toolmend/_kernels/_schemacheck_py.py`` (read its docstring): the same
records, the same verdicts. The records are copied into C structs once; a value
of the exact JSON types is checked here without a Python call (dict lookups,
lengths, comparisons), anything else goes to the node's function. The walk is
bounded: past CHECK_DEPTH levels each node's function checks (no deep C recursion).
"""
from libc.stdlib cimport calloc, free
from cpython.object cimport PyObject, PyTypeObject, Py_TYPE, PyObject_RichCompareBool, PyObject_IsTrue
from cpython.object cimport Py_LT, Py_GT, Py_LE, Py_GE
from cpython.exc cimport PyErr_Occurred
from cpython.set cimport PySet_Contains
from cpython.float cimport PyFloat_AS_DOUBLE
from libc.math cimport isfinite

__all__ = ["make_checker", "CHECK_DEPTH", "ALWAYS", "NEVER", "CALL", "CHECKS",
           "KIND_NULL", "KIND_BOOL", "KIND_OBJECT", "KIND_ARRAY", "KIND_STRING", "KIND_INT",
           "KIND_FLOAT"]

cdef extern from "Python.h":
    PyTypeObject PyUnicode_Type
    PyTypeObject PyDict_Type
    PyTypeObject PyList_Type
    PyTypeObject PyLong_Type
    PyTypeObject PyFloat_Type
    PyTypeObject PyBool_Type
    PyObject* Py_None
    Py_ssize_t PyDict_GET_SIZE(object)
    bint PyDict_Next(object, Py_ssize_t*, PyObject**, PyObject**)
    PyObject* PyDict_GetItemWithError(object, object)
    int PyDict_Contains(object, object) except -1
    Py_ssize_t PyList_GET_SIZE(object)
    PyObject* PyList_GET_ITEM(object, Py_ssize_t)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    unsigned int PyUnicode_READ_CHAR(object, Py_ssize_t)

CHECK_DEPTH = 48
ALWAYS, NEVER, CALL, CHECKS = 0, 1, 2, 3
KIND_NULL, KIND_BOOL, KIND_OBJECT, KIND_ARRAY = 1, 2, 4, 8
KIND_STRING, KIND_INT, KIND_FLOAT = 16, 32, 64

cdef enum:
    C_DEPTH = 48
    K_ALWAYS = 0
    K_NEVER = 1
    K_CALL = 2
    K_NULL = 1
    K_BOOL = 2
    K_OBJECT = 4
    K_ARRAY = 8
    K_STRING = 16
    K_INT = 32
    K_FLOAT = 64

cdef struct Prop:
    PyObject* name
    int child
    bint required

cdef struct Atom:
    bint negated
    unsigned long long low   # the ASCII characters 0-63 of the class, a bit each
    unsigned long long high  # 64-127


cdef struct Node:
    int kind
    int ref
    int kinds
    bint has_obj
    bint has_arr
    bint has_str
    bint has_num
    PyObject* fallback
    Prop* props
    Py_ssize_t nprops
    PyObject* required  # a tuple of names, or NULL
    bint closed
    Py_ssize_t min_props
    Py_ssize_t max_props
    int* prefix
    Py_ssize_t nprefix
    int items
    Py_ssize_t min_items
    Py_ssize_t max_items
    Py_ssize_t min_len
    Py_ssize_t max_len
    PyObject* tame
    Py_ssize_t tame_length
    PyObject* search
    PyObject* timeout
    Atom* atoms  # an anchored-prefix pattern's positions (NULL: the regex engine decides)
    Py_ssize_t natoms
    PyObject* low
    PyObject* high
    PyObject* exlow
    PyObject* exhigh
    PyObject* enum_
    int* all_of
    Py_ssize_t nall
    bint simple  # its type alone: told by its parent, without a call
    int additional  # the node of the properties not declared (-1: none)
    PyObject* declared  # the declared names (a frozenset), when additional >= 0


cdef inline int _kind(PyObject* x) noexcept:
    """The KIND_* bit of an exact JSON type, 0 for any other."""
    cdef PyTypeObject* t = Py_TYPE(<object>x)
    if t == &PyUnicode_Type:
        return K_STRING
    if t == &PyDict_Type:
        return K_OBJECT
    if t == &PyLong_Type:
        return K_INT
    if t == &PyList_Type:
        return K_ARRAY
    if t == &PyBool_Type:
        return K_BOOL
    if t == &PyFloat_Type:  # (NaN and Infinity are no JSON numbers: the node's function judges them)
        return K_FLOAT if isfinite(PyFloat_AS_DOUBLE(<object>x)) else 0
    if x == Py_None:
        return K_NULL
    return 0


cdef inline PyObject* _opt(object v, list keep):
    """A borrowed pointer to ``v`` (kept alive by ``keep``), NULL for None."""
    if v is None:
        return NULL
    keep.append(v)
    return <PyObject*>v


cdef inline bint _outside(Py_ssize_t size, Py_ssize_t low, Py_ssize_t high) noexcept:
    """Whether a size breaks the bounds low and high (-1: no bound)."""
    return (low >= 0 and size < low) or (high >= 0 and size > high)


cdef class _Checker:
    cdef Node* nodes
    cdef Py_ssize_t n
    cdef list keep
    cdef object key
    cdef object slow

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.nodes != NULL:
            for i in range(self.n):
                free(self.nodes[i].props)
                free(self.nodes[i].prefix)
                free(self.nodes[i].all_of)
                free(self.nodes[i].atoms)
            free(self.nodes)

    cdef int _index(self, object v, bint optional=False) except -2:
        cdef int i = v
        if i < (-1 if optional else 0) or i >= self.n:
            raise ValueError(f"a schema plan names node {i} of {self.n}")
        return i

    cdef int* _indices(self, object nodes, Py_ssize_t* count) except NULL:
        """The node indices of ``nodes`` as a C array (one spare slot, so it is
        never empty), their count in ``count``."""
        nodes = tuple(nodes)
        count[0] = len(nodes)
        cdef int* out = <int*>calloc(count[0] + 1, sizeof(int))
        if out == NULL:
            raise MemoryError()
        try:
            for j in range(count[0]):
                out[j] = self._index(nodes[j])
        except BaseException:
            free(out)
            raise
        return out

    cdef int _read(self, list records) except -1:
        cdef Py_ssize_t i, j
        cdef Node* nd
        self.n = len(records)
        if self.n == 0:
            raise ValueError("a schema plan has at least its root node")
        self.nodes = <Node*>calloc(self.n, sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        for i in range(self.n):
            (kind, fallback, ref, kinds, props, required, closed, min_props, max_props, prefix, items,
             min_items, max_items, min_len, max_len, pattern, bounds, enum, all_of,
             additional) = records[i]
            nd = &self.nodes[i]
            nd.kind = kind
            self.keep.append(fallback)
            nd.fallback = <PyObject*>fallback
            nd.ref = self._index(ref, True)
            nd.kinds = kinds
            props = tuple(props)
            nd.nprops = len(props)
            nd.props = <Prop*>calloc(nd.nprops + 1, sizeof(Prop))
            if nd.props == NULL:
                raise MemoryError()
            for j in range(nd.nprops):
                name, child, needed = props[j]
                if type(name) is not str:
                    raise TypeError("a property name is a str")
                self.keep.append(name)
                nd.props[j].name = <PyObject*>name
                nd.props[j].child = self._index(child)
                nd.props[j].required = bool(needed)
            required = tuple(required)
            nd.required = _opt(required if required else None, self.keep)
            nd.closed = bool(closed)
            nd.min_props, nd.max_props = min_props, max_props
            nd.has_obj = nd.nprops > 0 or nd.required != NULL or nd.closed or min_props >= 0 \
                or max_props >= 0
            nd.prefix = self._indices(prefix, &nd.nprefix)
            nd.items = self._index(items, True)
            nd.min_items, nd.max_items = min_items, max_items
            nd.has_arr = nd.nprefix > 0 or nd.items >= 0 or min_items >= 0 or max_items >= 0
            nd.min_len, nd.max_len = min_len, max_len
            if pattern is not None:
                tame, tame_length, search, timeout, prefix = pattern
                if prefix is not None:
                    prefix = tuple(prefix)
                    nd.natoms = len(prefix)
                    nd.atoms = <Atom*>calloc(nd.natoms + 1, sizeof(Atom))
                    if nd.atoms == NULL:
                        raise MemoryError()
                    for j in range(nd.natoms):
                        negated, chars = prefix[j]
                        nd.atoms[j].negated = bool(negated)
                        for ch in chars:
                            if ord(ch) >= 128:
                                raise ValueError("a prefix pattern's characters are ASCII")
                            if ord(ch) < 64:
                                nd.atoms[j].low |= 1ULL << ord(ch)
                            else:
                                nd.atoms[j].high |= 1ULL << (ord(ch) - 64)
                nd.tame = _opt(tame, self.keep)
                nd.tame_length = tame_length
                nd.search = _opt(search, self.keep)
                nd.timeout = _opt(timeout, self.keep)
                if nd.search == NULL:
                    raise TypeError("a pattern has its search")
            nd.has_str = min_len >= 0 or max_len >= 0 or pattern is not None
            if bounds is not None:
                low, high, exlow, exhigh = bounds
                nd.low = _opt(low, self.keep)
                nd.high = _opt(high, self.keep)
                nd.exlow = _opt(exlow, self.keep)
                nd.exhigh = _opt(exhigh, self.keep)
                nd.has_num = True
            if enum is not None:
                if not isinstance(enum, frozenset):
                    raise TypeError("an enum is a frozenset of keys")
                nd.enum_ = _opt(enum, self.keep)
            nd.all_of = self._indices(all_of, &nd.nall)
            nd.additional = self._index(additional, True)
            if nd.additional >= 0:
                nd.declared = _opt(frozenset([prop[0] for prop in props]), self.keep)
                nd.has_obj = True
            nd.simple = (nd.kind == 3 and nd.ref < 0 and not (nd.has_obj or nd.has_arr or nd.has_str
                         or nd.has_num) and nd.enum_ == NULL and nd.nall == 0)
        return 0

    cdef inline int _call(self, Node* nd, object x) except -1:
        return PyObject_IsTrue((<object>nd.fallback)(x))

    cdef inline int _child(self, int i, PyObject* v, int depth) except -1:
        """The check of a member or an element v against node i, told by the
        parent without a call when the node takes anything or is only a type."""
        cdef Node* ch = &self.nodes[i]
        if ch.kind == K_ALWAYS or (ch.simple and _kind(v) & ch.kinds):
            return 1
        return self._check(i, <object>v, depth + 1)

    cdef inline int _check_string(self, Node* nd, object x) except -1:
        """The string keywords of ``nd`` (lengths, a pattern) on the str ``x``."""
        cdef Py_ssize_t size, j
        cdef unsigned int c
        cdef int inset
        cdef object y
        size = PyUnicode_GET_LENGTH(x)
        if _outside(size, nd.min_len, nd.max_len):
            return 0
        if nd.atoms != NULL:
            if size < nd.natoms:
                return 0
            for j in range(nd.natoms):
                c = PyUnicode_READ_CHAR(x, j)
                if c < 64:
                    inset = (nd.atoms[j].low >> c) & 1
                elif c < 128:
                    inset = (nd.atoms[j].high >> (c - 64)) & 1
                else:
                    inset = 0
                if inset == nd.atoms[j].negated:
                    return 0
        elif nd.search != NULL:
            if nd.tame != NULL and size <= nd.tame_length:
                y = (<object>nd.tame)(x)
            else:
                y = (<object>nd.search)(x, timeout=<object>nd.timeout)
            if y is None:
                return 0
        return 1

    cdef int _check(self, int i, object x, int depth) except -1:
        cdef Node* nd = &self.nodes[i]
        cdef Py_ssize_t pos
        cdef PyObject* name_p
        cdef int k, r
        cdef Py_ssize_t size, j, matched
        cdef Prop* p
        cdef PyObject* v
        if nd.kind == K_ALWAYS:
            return 1
        if nd.kind == K_NEVER:
            return 0
        if nd.kind == K_CALL or depth >= C_DEPTH:
            return self._call(nd, x)
        if nd.ref >= 0:
            r = self._check(nd.ref, x, depth + 1)
            if r != 1:
                return r
        k = _kind(<PyObject*>x)
        if not (k & nd.kinds):
            return self._call(nd, x)
        if k == K_OBJECT:
            if nd.has_obj:
                size = PyDict_GET_SIZE(x)
                if _outside(size, nd.min_props, nd.max_props):
                    return 0
                matched = 0
                for j in range(nd.nprops):
                    p = &nd.props[j]
                    v = PyDict_GetItemWithError(x, <object>p.name)
                    if v == NULL:
                        if PyErr_Occurred() != NULL:
                            return -1
                        if p.required:
                            return 0
                        continue
                    matched += 1
                    r = self._child(p.child, v, depth)
                    if r != 1:
                        return r
                if nd.required != NULL:
                    for name in <tuple>nd.required:
                        if not PyDict_Contains(x, name):
                            return 0
                if nd.closed and matched != PyDict_GET_SIZE(x):
                    return 0
                if nd.additional >= 0:
                    pos = 0
                    while PyDict_Next(x, &pos, &name_p, &v):
                        r = PySet_Contains(<object>nd.declared, <object>name_p)
                        if r == 1:
                            continue
                        if r < 0:
                            return -1
                        r = self._child(nd.additional, v, depth)
                        if r != 1:
                            return r
        elif k == K_ARRAY:
            if nd.has_arr:
                size = PyList_GET_SIZE(x)
                if _outside(size, nd.min_items, nd.max_items):
                    return 0
                for j in range(nd.nprefix):
                    if j >= PyList_GET_SIZE(x):
                        break
                    r = self._child(nd.prefix[j], PyList_GET_ITEM(x, j), depth)
                    if r != 1:
                        return r
                if nd.items >= 0 and self.nodes[nd.items].kind != K_ALWAYS:
                    j = nd.nprefix
                    while j < PyList_GET_SIZE(x):
                        r = self._child(nd.items, PyList_GET_ITEM(x, j), depth)
                        if r != 1:
                            return r
                        j += 1
        elif k == K_STRING:
            if nd.has_str:
                r = self._check_string(nd, x)
                if r != 1:
                    return r
        elif k == K_INT or k == K_FLOAT:
            if nd.has_num:
                if nd.low != NULL and PyObject_RichCompareBool(x, <object>nd.low, Py_LT):
                    return 0
                if nd.high != NULL and PyObject_RichCompareBool(x, <object>nd.high, Py_GT):
                    return 0
                if nd.exlow != NULL and PyObject_RichCompareBool(x, <object>nd.exlow, Py_LE):
                    return 0
                if nd.exhigh != NULL and PyObject_RichCompareBool(x, <object>nd.exhigh, Py_GE):
                    return 0
        if nd.enum_ != NULL:
            if k == K_STRING:
                r = PySet_Contains(<object>nd.enum_, x)
            else:
                r = PySet_Contains(<object>nd.enum_, self.key(x))
            if r != 1:
                return r
        for j in range(nd.nall):
            r = self._check(nd.all_of[j], x, depth + 1)
            if r != 1:
                return r
        return 1

    def is_valid(self, x):
        try:
            return self._check(0, x, 0) == 1
        except (RecursionError, TimeoutError):
            return False

    def validate(self, x, *, coerce=True, fill_defaults=False):
        cdef bint fits
        if fill_defaults:
            return self.slow(x, coerce, fill_defaults)
        try:
            fits = self._check(0, x, 0) == 1
        except (RecursionError, TimeoutError):
            fits = False
        return x if fits else self.slow(x, coerce, False)


def make_checker(nodes, key, slow):
    """The checker walking the records ``nodes`` (node 0 the root)."""
    cdef _Checker c = _Checker.__new__(_Checker)
    c.keep = []
    c.key = key
    c.slow = slow
    c._read(list(nodes))
    return c
