# The JSON grammar (RFC 8259), written once for the compiled kernels: the
# validator of @json (_jsonscan) and the pre-filter of argument recovery
# (_recover). Header-only: every function is inline, so cimporting it adds no
# runtime import. Loops run over a str's native storage through a fused type.
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy

ctypedef fused uchar:
    unsigned char
    unsigned short
    Py_UCS4

# Error codes of scan(); toolmend.exactjson turns them into messages.
cdef enum:
    C_VALUE = 1       # a value was expected here (or the input ended)
    C_KEY = 2         # a double-quoted key was expected here
    C_COLON = 3       # ':' was expected after a key
    C_OBJECT = 4      # ',' or '}' was expected after an object member
    C_ARRAY = 5       # ',' or ']' was expected after an array element
    C_STRING = 6      # the string that starts here is not terminated
    C_CONTROL = 7     # a raw control character inside a string
    C_ESCAPE = 8      # an invalid escape sequence starts here
    C_NUMBER = 9      # the number is malformed here
    C_TRAILING = 10   # data after the end of the document

cdef enum:
    LOCAL_DEPTH = 64   # nesting levels checked without a heap allocation


cdef inline bint is_ws(Py_UCS4 c) noexcept nogil:
    return c == c' ' or c == c'\n' or c == c'\r' or c == c'\t'


cdef inline bint is_digit(Py_UCS4 c) noexcept nogil:
    return c'0' <= c <= c'9'


cdef inline bint is_hex(Py_UCS4 c) noexcept nogil:
    return (c'0' <= c <= c'9') or (c'a' <= c <= c'f') or (c'A' <= c <= c'F')


cdef inline int hexval(Py_UCS4 c) noexcept nogil:
    """The value of one hex digit, or -1."""
    if c'0' <= c <= c'9':
        return <int>c - c'0'
    if c'a' <= c <= c'f':
        return <int>c - c'a' + 10
    if c'A' <= c <= c'F':
        return <int>c - c'A' + 10
    return -1


cdef inline Py_ssize_t skip_ws(uchar* s, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    while i < end and is_ws(s[i]):
        i += 1
    return i


# ---------------------------------------------------------------------------
# Validation

cdef struct ScanState:
    Py_ssize_t pos
    int code
    bint lossy


cdef inline int fail(ScanState* st, int code, Py_ssize_t pos) noexcept nogil:
    st.code = code
    st.pos = pos
    return -1


cdef inline Py_ssize_t check_string(uchar* s, Py_ssize_t i, Py_ssize_t end,
                             ScanState* st) noexcept nogil:
    """i is at the opening quote; the index past the closing one, or -1."""
    cdef Py_ssize_t j = i + 1
    cdef Py_UCS4 c
    cdef int k
    while True:
        if j >= end:
            return fail(st, C_STRING, i)
        c = s[j]
        if c == c'"':
            return j + 1
        if c == c'\\':
            if j + 1 >= end:
                return fail(st, C_STRING, i)
            c = s[j + 1]
            if c == c'u':  # \uXXXX
                for k in range(2, 6):
                    if j + k >= end or not is_hex(s[j + k]):
                        return fail(st, C_ESCAPE, j)
                j += 6
            elif (c == c'"' or c == c'\\' or c == c'/' or c == c'b' or c == c'f' or c == c'n'
                  or c == c'r' or c == c't'):
                j += 2
            else:
                return fail(st, C_ESCAPE, j)
        elif c < c' ':
            return fail(st, C_CONTROL, j)
        else:
            j += 1


cdef inline bint digits_above(uchar* s, Py_ssize_t i, const char* bound) noexcept nogil:
    """Whether the digits at s[i:] (as many as bound has) exceed bound."""
    cdef Py_ssize_t k = 0
    while bound[k] != 0:
        if s[i + k] != <Py_UCS4>bound[k]:
            return s[i + k] > <Py_UCS4>bound[k]
        k += 1
    return False


cdef inline Py_ssize_t digit_run(uchar* s, Py_ssize_t j, Py_ssize_t end,
                                 ScanState* st) noexcept nogil:
    """The digits of a fraction or an exponent, at least one, from j: the
    index past them, or -1 (C_NUMBER at j)."""
    if j >= end or not is_digit(s[j]):
        return fail(st, C_NUMBER, j)
    j += 1
    while j < end and is_digit(s[j]):
        j += 1
    return j


cdef inline Py_ssize_t check_number(uchar* s, Py_ssize_t i, Py_ssize_t end,
                             ScanState* st) noexcept nogil:
    """i is at '-' or a digit; the index past the number, or -1.

    Sets st.lossy (once the number is complete) for tokens orjson would not keep exactly: any fraction or
    exponent, ``-0``, and integers outside [-2**63, 2**64 - 1]."""
    cdef Py_ssize_t j = i
    cdef Py_ssize_t ds, nd
    cdef bint neg = False
    cdef bint real = False  # a fraction or an exponent
    if s[j] == c'-':
        neg = True
        j += 1
    if j >= end or not is_digit(s[j]):
        return fail(st, C_NUMBER, j)
    ds = j
    if s[j] == c'0':
        j += 1
        if j < end and is_digit(s[j]):
            return fail(st, C_NUMBER, j)
    else:
        while j < end and is_digit(s[j]):
            j += 1
    nd = j - ds
    if j < end and s[j] == c'.':
        j = digit_run(s, j + 1, end, st)
        if j < 0:
            return -1
        real = True
    if j < end and (s[j] == c'e' or s[j] == c'E'):
        j += 1
        if j < end and (s[j] == c'+' or s[j] == c'-'):
            j += 1
        j = digit_run(s, j, end, st)
        if j < 0:
            return -1
        real = True
    if real:
        st.lossy = True  # only a complete number counts
    elif not st.lossy:
        if neg:
            if (nd == 1 and s[ds] == c'0') or nd > 19 or (
                    nd == 19 and digits_above(s, ds, b"9223372036854775808")):
                st.lossy = True
        elif nd > 20 or (nd == 20 and digits_above(s, ds, b"18446744073709551615")):
            st.lossy = True
    return j


cdef inline bint has_word(uchar* s, Py_ssize_t i, Py_ssize_t end,
                          const char* word) noexcept nogil:
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if i + k >= end or s[i + k] != <Py_UCS4>word[k]:
            return False
        k += 1
    return True


cdef enum:
    S_VALUE = 0
    S_KEY = 1
    S_AFTER = 2


cdef inline int scan_impl(uchar* s, Py_ssize_t i, Py_ssize_t end, ScanState* st) noexcept nogil:
    """Validate s[i:end] as one JSON value (whitespace around it allowed)."""
    cdef unsigned char local[LOCAL_DEPTH]   # shallow text needs no heap
    cdef unsigned char* stack = local
    cdef unsigned char* grown
    cdef Py_ssize_t depth = 0, cap = LOCAL_DEPTH
    cdef int state = S_VALUE
    cdef Py_UCS4 c
    cdef Py_ssize_t j
    cdef int rc = 0
    while True:
        i = skip_ws(s, i, end)
        if state == S_VALUE:
            if i >= end:
                rc = fail(st, C_VALUE, i)
                break
            c = s[i]
            if c == c'{' or c == c'[':  # { [
                if depth == cap:
                    cap *= 2
                    if stack == local:
                        grown = <unsigned char*>malloc(cap)
                        if grown != NULL:
                            memcpy(grown, local, depth)
                    else:
                        grown = <unsigned char*>realloc(stack, cap)
                    if grown == NULL:
                        rc = -2
                        break
                    stack = grown
                stack[depth] = c
                depth += 1
                i = skip_ws(s, i + 1, end)
                if i < end and s[i] == (<Py_UCS4>c'}' if c == c'{' else <Py_UCS4>c']'):  # } or ] right away
                    depth -= 1
                    i += 1
                    state = S_AFTER
                elif c == c'{':
                    state = S_KEY
                continue
            if c == c'"':
                j = check_string(s, i, end, st)
            elif c == c'-' or is_digit(c):
                j = check_number(s, i, end, st)
            elif c == c't' and has_word(s, i, end, b"true"):
                j = i + 4
            elif c == c'f' and has_word(s, i, end, b"false"):
                j = i + 5
            elif c == c'n' and has_word(s, i, end, b"null"):
                j = i + 4
            else:
                j = fail(st, C_VALUE, i)
            if j < 0:
                rc = -1
                break
            i = j
            state = S_AFTER
        elif state == S_KEY:
            if i >= end or s[i] != c'"':
                rc = fail(st, C_KEY, i)
                break
            j = check_string(s, i, end, st)
            if j < 0:
                rc = -1
                break
            i = skip_ws(s, j, end)
            if i >= end or s[i] != c':':
                rc = fail(st, C_COLON, i)
                break
            i += 1
            state = S_VALUE
        else:  # S_AFTER
            if depth == 0:
                if i < end:
                    rc = fail(st, C_TRAILING, i)
                break
            c = stack[depth - 1]
            if i < end and s[i] == c',':
                i += 1
                state = S_KEY if c == c'{' else S_VALUE
            elif i < end and s[i] == (<Py_UCS4>c'}' if c == c'{' else <Py_UCS4>c']'):
                depth -= 1
                i += 1
            else:
                rc = fail(st, C_OBJECT if c == c'{' else C_ARRAY, i)
                break
    if stack != local:
        free(stack)
    return rc
