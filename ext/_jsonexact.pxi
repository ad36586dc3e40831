# The exact-number reader of the compiled kernels: the value of valid JSON
# text with every number token handed, as written, to a hook (``on_int`` for
# a token without a fraction or an exponent, ``on_float`` for the others), as
# the stdlib's parse_int / parse_float are. Included by _jsonscan.pyx, which
# exports it as ``load_exact``, and by _recover.pyx (recovered values with
# their integers exact): the kernels' one exact reader. Twin: src/toolmend/_kernels/_jsonexact.py.
#
# No recursion: a stack of the open containers, and of the keys their next
# values go under; past ``max_depth`` levels, RecursionError. The text must
# be valid JSON (the scanner said so): nothing here checks the grammar.
# (The including module declares PyUnicode_KIND, PyUnicode_DATA and
# PyUnicode_READ.)
from json.decoder import scanstring as _exact_scanstring


cdef inline Py_ssize_t exact_ws(int kind, void* d, Py_ssize_t i, Py_ssize_t n) noexcept:
    cdef Py_UCS4 c
    while i < n:
        c = PyUnicode_READ(kind, d, i)
        if not (c == c' ' or c == c'\t' or c == c'\n' or c == c'\r'):
            break
        i += 1
    return i


cdef inline object exact_string(str s, int kind, void* d, Py_ssize_t i, Py_ssize_t* end):
    """The string whose opening quote is at i; ``end[0]`` past its closing
    quote. Without a backslash it is a slice of ``s``; with one, the stdlib
    decodes it (the stdlib's own decoder does the same)."""
    cdef Py_ssize_t j = i + 1, n = len(s)
    cdef Py_UCS4 c
    while j < n:
        c = PyUnicode_READ(kind, d, j)
        if c == c'"':
            end[0] = j + 1
            return s[i + 1:j]
        if c == c'\\':
            break
        j += 1
    value, j = _exact_scanstring(s, i + 1)
    end[0] = j
    return value


cdef inline Py_ssize_t exact_key(str s, int kind, void* d, Py_ssize_t i, list keys,
                                 dict memo) except -1:
    """The key whose opening quote is at i goes on ``keys`` (one str object
    for each distinct key, as the stdlib's decoder keeps them); the index of
    the member's value."""
    key = exact_string(s, kind, d, i, &i)
    keys.append(memo.setdefault(key, key))
    i = exact_ws(kind, d, i, len(s)) + 1  # past the colon
    return exact_ws(kind, d, i, len(s))


cdef object exact_read(str s, object on_int, object on_float, Py_ssize_t max_depth):
    """The value of the valid JSON ``s``, its number tokens read by the hooks."""
    cdef Py_ssize_t n = len(s), i, j
    cdef int kind = PyUnicode_KIND(s)
    cdef void* d = PyUnicode_DATA(s)
    cdef Py_UCS4 c
    cdef list stack = []
    cdef list keys = []
    cdef dict memo = {}
    cdef object value, container
    cdef bint real
    i = exact_ws(kind, d, 0, n)
    while True:
        c = PyUnicode_READ(kind, d, i)
        if c == c'{' or c == c'[':
            if len(stack) >= max_depth:
                raise RecursionError(f"nesting deeper than {max_depth} levels")
            value = {} if c == c'{' else []
            i = exact_ws(kind, d, i + 1, n)
            if PyUnicode_READ(kind, d, i) == (<Py_UCS4>c'}' if c == c'{' else <Py_UCS4>c']'):
                i += 1
            else:
                stack.append(value)
                if c == c'{':
                    i = exact_key(s, kind, d, i, keys, memo)
                continue
        elif c == c'"':
            value = exact_string(s, kind, d, i, &i)
        elif c == c't':
            value, i = True, i + 4
        elif c == c'f':
            value, i = False, i + 5
        elif c == c'n':
            value, i = None, i + 4
        else:  # a number: '-' or a digit
            j = i + 1
            real = False
            while j < n:
                c = PyUnicode_READ(kind, d, j)
                if c == c'.' or c == c'e' or c == c'E' or c == c'+':
                    real = True
                elif not (c'0' <= c <= c'9' or c == c'-'):
                    break
                j += 1
            value = on_float(s[i:j]) if real else on_int(s[i:j])
            i = j
        while True:  # the value is whole: into its container, then past what closes
            if not stack:
                return value
            container = stack[len(stack) - 1]
            if type(container) is dict:
                (<dict>container)[keys.pop()] = value
            else:
                (<list>container).append(value)
            i = exact_ws(kind, d, i, n)
            c = PyUnicode_READ(kind, d, i)
            i = exact_ws(kind, d, i + 1, n)
            if c == c',':
                if type(container) is dict:
                    i = exact_key(s, kind, d, i, keys, memo)
                break
            value = stack.pop()  # c closes the container
