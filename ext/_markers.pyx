# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible=True
"""Compiled scans around the tool-call formats' markers: where a value ends, where blanks end.

Twin of ``toolmend/_kernels/_markers_py.py`` (read its docstring): the same functions
with the same results, reading the string's buffer directly. Nothing here recurses:
the open brackets wait on an explicit stack.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memchr, memcmp, memset
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_READ, PyUnicode_KIND, PyUnicode_DATA
from cpython.bytes cimport PyBytes_GET_SIZE

__all__ = ["JsonPrefix", "call_body", "extent", "items", "next_start", "skip_space", "start_table",
           "tag_body"]


cdef inline bint _starts(str needle, int kind, const void* data, Py_ssize_t j, Py_ssize_t n):
    """``text[j:]`` starts with ``needle`` (within the text's ``n`` characters)."""
    cdef Py_ssize_t m = PyUnicode_GET_LENGTH(needle), k
    if j + m > n:
        return False
    for k in range(m):
        if PyUnicode_READ(kind, data, j + k) != needle[k]:
            return False
    return True


cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    int PyUnicode_1BYTE_KIND


cdef Py_ssize_t _skip(int kind, const void* data, Py_ssize_t i, Py_ssize_t limit, Py_ssize_t n) noexcept:
    cdef Py_UCS4 c, d
    cdef Py_ssize_t k
    while i < limit:
        c = PyUnicode_READ(kind, data, i)
        if c == 32 or c == 9 or c == 13 or c == 10 or c == 0xFEFF:
            i += 1
            continue
        d = PyUnicode_READ(kind, data, i + 1) if c == 47 and i + 1 < n else 0
        if d == 47:  # // to the end of the line
            k = i + 2
            while k < limit and PyUnicode_READ(kind, data, k) != 10:
                k += 1
            i = limit if k >= limit else k + 1
        elif d == 42:  # /* to */
            k = i + 2
            while k + 1 < limit and not (PyUnicode_READ(kind, data, k) == 42
                                         and PyUnicode_READ(kind, data, k + 1) == 47):
                k += 1
            i = limit if k + 1 >= limit else k + 2
        else:
            break
    return i


def skip_space(str text, Py_ssize_t i, Py_ssize_t limit):
    """Past whitespace and ``//`` / ``/* */`` comments."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if limit > n:
        limit = n
    if i < 0:
        i = 0
    return _skip(PyUnicode_KIND(text), PyUnicode_DATA(text), i, limit, n)


# ---------------------------------------------------------------------------
# Where the scan's token pattern can next begin

cdef enum:
    FIRST = 1  # a character of ``firsts``
    BREAK = 2  # a line break: a line's anchored alternative may follow
    LINE = 4  # a character of ``line_firsts``
    WORD = 8  # the first character of a word


cdef class _StartTable:
    """What ``next_start`` looks for: flags for the first 256 code points, the
    rest of ``firsts``, ``line_firsts`` and the words' first characters as
    strings, and the words."""
    cdef unsigned char flags[256]
    # for a word's first character below 256, the second characters (below 256) a word may
    # have after it, a bit each: a letter of prose that begins no word there is passed over
    # without trying the words (all bits: a word of one character, or a wide second one)
    cdef unsigned char second[256][32]
    cdef str firsts_wide, lines_wide, words_wide
    cdef tuple words
    cdef tuple words_latin  # (each word in Latin-1, or None: it cannot be in a 1-byte text)


cdef inline int _flags(_StartTable t, Py_UCS4 c):
    if c < 256:
        return t.flags[c]
    cdef int f = 0
    if c in t.firsts_wide:
        f |= FIRST
    if c in t.lines_wide:
        f |= LINE
    if c in t.words_wide:
        f |= WORD
    return f


def start_table(str firsts, str line_firsts, tuple words):
    """The table ``next_start`` reads (see the twin)."""
    cdef _StartTable t = _StartTable()
    cdef Py_UCS4 c
    cdef int bit
    cdef str group
    t.firsts_wide = t.lines_wide = t.words_wide = ""
    for w in words:
        if not isinstance(w, str):
            raise TypeError("start_table: the words must be str")
        if not w:
            raise ValueError("start_table: a word is empty")
    for group, bit in ((firsts, FIRST), (line_firsts, LINE), ("".join([w[0] for w in words]), WORD)):
        for c in group:
            if c < 256:
                t.flags[c] |= bit
            elif bit == FIRST:
                t.firsts_wide += chr(c)
            elif bit == LINE:
                t.lines_wide += chr(c)
            else:
                t.words_wide += chr(c)
    for w in words:
        c = w[0]
        if c < 256:
            if len(w) < 2 or <Py_UCS4>w[1] >= 256:
                memset(t.second[c], 0xFF, 32)
            else:
                bit = <Py_UCS4>w[1]
                t.second[c][bit >> 3] |= 1 << (bit & 7)
    t.flags[10] |= BREAK
    t.words = words
    t.words_latin = tuple([w.encode("latin-1") if max(map(ord, w)) < 256 else None for w in words])
    return t


cdef inline bint _word_at(_StartTable t, int kind, const void* data, Py_ssize_t k, Py_ssize_t limit):
    cdef bytes b
    cdef Py_ssize_t m
    if kind == PyUnicode_1BYTE_KIND:  # (the words' Latin-1 bytes, compared as memory)
        for w in t.words_latin:
            if w is not None:
                b = <bytes>w
                m = PyBytes_GET_SIZE(b)
                if k + m <= limit and memcmp(<const char*>data + k, <const char*>b, <size_t>m) == 0:
                    return True
        return False
    for w in t.words:
        if _starts(<str>w, kind, data, k, limit):
            return True
    return False


def next_start(str text, Py_ssize_t pos, Py_ssize_t limit, table):
    """Where the token pattern can next begin in ``text[pos:limit]`` (see the twin)."""
    if not isinstance(table, _StartTable):
        raise TypeError("next_start: the table must come from start_table()")
    cdef _StartTable t = <_StartTable>table
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), k, e
    if limit > n:
        limit = n
    if pos < 0:
        pos = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef const unsigned char* p = <const unsigned char*>data
    cdef Py_UCS4 c
    cdef int f
    k = pos
    while k < limit:
        if kind == PyUnicode_1BYTE_KIND:
            while k < limit:
                f = t.flags[p[k]]
                if f & (FIRST | BREAK):
                    break
                if f & WORD and (k + 1 >= limit or (t.second[p[k]][p[k + 1] >> 3] >> (p[k + 1] & 7)) & 1):
                    break
                k += 1
            if k >= limit:
                break
            c = p[k]
        else:
            c = PyUnicode_READ(kind, data, k)
        f = _flags(t, c)
        if f & FIRST:
            return k
        if f & BREAK:  # the run of blanks after it, and what ends the run
            e = k + 1
            while e < limit:
                c = PyUnicode_READ(kind, data, e)
                if c != 32 and c != 9 and c != 10:
                    break
                e += 1
            if e < limit and _flags(t, c) & LINE:
                return k
            k = e  # no line in the run can begin an anchored alternative
            continue
        if f & WORD and _second_may(t, c, kind, data, k, limit) and _word_at(t, kind, data, k, limit):
            return k
        k += 1
    return limit


cdef inline bint _second_may(_StartTable t, Py_UCS4 c, int kind, const void* data, Py_ssize_t k,
                             Py_ssize_t limit):
    """A word may begin at ``k`` by its first two characters (``c`` is the first): only
    those below 256 are told apart, the others may."""
    cdef unsigned int d
    if c >= 256 or k + 1 >= limit:
        return True
    d = <unsigned int>PyUnicode_READ(kind, data, k + 1)
    return d >= 256 or (t.second[<unsigned int>c][d >> 3] >> (d & 7)) & 1


cdef inline Py_ssize_t _string_end(int kind, const void* data, Py_ssize_t i, Py_ssize_t limit) noexcept:
    """Past the closing quote of the string opened at ``i``; -1 when it does not close."""
    cdef Py_UCS4 quote = PyUnicode_READ(kind, data, i), c
    cdef Py_ssize_t j = i + 1, run = 0, b
    cdef const unsigned char* p
    cdef const unsigned char* hit
    if kind == PyUnicode_1BYTE_KIND:  # the common text: the quote found by memchr
        p = <const unsigned char*>data
        while j < limit:
            hit = <const unsigned char*>memchr(p + j, <int>quote, <size_t>(limit - j))
            if hit == NULL:
                return -1
            j = hit - p
            b = j - 1
            while b > i and p[b] == 92:
                b -= 1
            if (j - 1 - b) % 2 == 0:
                return j + 1
            j += 1
        return -1
    while j < limit:
        c = PyUnicode_READ(kind, data, j)
        if c == quote and run % 2 == 0:
            return j + 1
        run = run + 1 if c == 92 else 0
        j += 1
    return -1


cdef inline bint _is_space(Py_UCS4 c) noexcept:
    return Py_UNICODE_ISSPACE(c)


def extent(str text, Py_ssize_t i, Py_ssize_t limit, stop):
    """End of the bracketed value at ``i``; -1 when it is cut off."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if limit > n:
        limit = n
    if i < 0 or i >= limit:
        raise IndexError("extent: no bracket at the position given")
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c = PyUnicode_READ(kind, data, i)
    if c != 123 and c != 91:
        raise KeyError(chr(c))
    return _extent(kind, data, i, limit, n, stop if stop is not None else None)


cdef Py_ssize_t _extent(int kind, const void* data, Py_ssize_t i, Py_ssize_t limit, Py_ssize_t n,
                        str stop_s) except -2:
    """``extent`` of the bracket at ``i`` (checked by the caller) in the text's buffer."""
    cdef Py_UCS4 c = PyUnicode_READ(kind, data, i), prev, before
    cdef Py_ssize_t cap = 64, depth = 0, braces = 0, brackets = 0, j, end
    cdef Py_UCS4* stack = <Py_UCS4*>malloc(cap * sizeof(Py_UCS4))
    cdef Py_UCS4* grown
    if stack == NULL:
        raise MemoryError()
    try:
        stack[0] = 125 if c == 123 else 93
        depth = 1
        if c == 123:
            braces = 1
        else:
            brackets = 1
        prev = c
        j = i + 1
        while j < limit:
            c = PyUnicode_READ(kind, data, j)
            if c == 34 or (c == 39 and (prev == 123 or prev == 91 or prev == 44 or prev == 58)):
                end = _string_end(kind, data, j, limit)
                if end < 0:
                    return -1
                j = end
                prev = c
                continue
            if c == 123 or c == 91:
                if depth == cap:
                    cap *= 2
                    grown = <Py_UCS4*>realloc(stack, cap * sizeof(Py_UCS4))
                    if grown == NULL:
                        raise MemoryError()
                    stack = grown
                stack[depth] = 125 if c == 123 else 93
                depth += 1
                if c == 123:
                    braces += 1
                else:
                    brackets += 1
            elif c == 60:  # <
                if stop_s is not None and _starts(stop_s, kind, data, j, n):
                    return -1
            elif c == 125 or c == 93:
                if (c == 125 and braces == 0) or (c == 93 and brackets == 0):
                    return j  # a stray closer: not this value's
                while True:  # a closer for an outer bracket: the inner ones were left open
                    depth -= 1
                    if stack[depth] == 125:
                        braces -= 1
                    else:
                        brackets -= 1
                    if stack[depth] == c:
                        break
                if depth == 0:
                    return j + 1
            elif c == 47 and j + 1 < n:  # /
                before = PyUnicode_READ(kind, data, j - 1)
                end = PyUnicode_READ(kind, data, j + 1)
                if (end == 47 or end == 42) and (_is_space(before) or before == 123
                                                  or before == 91 or before == 44):
                    j = _skip(kind, data, j, limit, n)
                    continue
            elif _is_space(c):
                j += 1
                continue
            prev = c
            j += 1
        return -1
    finally:
        free(stack)


cdef Py_ssize_t _first_closer(int kind, const void* data, Py_ssize_t k, Py_ssize_t limit,
                              Py_ssize_t n) noexcept:
    """Where the first ``</tool_call`` from ``k`` starts; -1 when there is none
    or another ``<tool_call`` comes first. Each ``<`` found by memchr in 1-byte text."""
    cdef const unsigned char* p = <const unsigned char*>data
    cdef const unsigned char* hit
    while k < limit:
        if kind == PyUnicode_1BYTE_KIND:
            hit = <const unsigned char*>memchr(p + k, 60, <size_t>(limit - k))
            if hit == NULL:
                return -1
            k = hit - p
        elif PyUnicode_READ(kind, data, k) != 60:
            k += 1
            continue
        if _starts("</tool_call", kind, data, k, n):
            return k
        if _starts("<tool_call", kind, data, k, n):
            return -1
        k += 1
    return -1


cdef inline Py_ssize_t _blanks(int kind, const void* data, Py_ssize_t j, Py_ssize_t limit) noexcept:
    while j < limit and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)):
        j += 1
    return j


cdef inline bint _is_key(int kind, const void* data, Py_ssize_t k, Py_ssize_t end, const char* word,
                         Py_ssize_t m) noexcept:
    """``text[k:end]`` is ``word`` (ASCII, ``m`` characters)."""
    cdef Py_ssize_t x
    if end - k != m:
        return False
    for x in range(m):
        if PyUnicode_READ(kind, data, k + x) != <Py_UCS4>word[x]:
            return False
    return True


cdef Py_ssize_t _members(int kind, const void* data, Py_ssize_t b, Py_ssize_t e,
                         Py_ssize_t* found) noexcept:
    """The members of the call object whose ``{`` is at ``b`` and whose
    closing brace is at ``e - 1``, before its arguments: ``found`` gets
    the name's and the id's quoted spans (-1 when absent) and which key gives
    the arguments (3: ``arguments``, 4: ``parameters``); returns where the
    arguments' value starts, or -1 when the members are not in that shape."""
    cdef Py_ssize_t k = b + 1, key_end, value_end
    cdef int which
    found[0] = found[1] = found[2] = found[3] = -1
    while True:  # keys and short strings, up to the arguments' key
        k = _blanks(kind, data, k, e)
        if k >= e or PyUnicode_READ(kind, data, k) != 34:
            return -1
        key_end = _string_end(kind, data, k, e)
        if key_end < 0:
            return -1
        which = (1 if _is_key(kind, data, k + 1, key_end - 1, "name", 4) else
                 2 if _is_key(kind, data, k + 1, key_end - 1, "id", 2) else
                 3 if _is_key(kind, data, k + 1, key_end - 1, "arguments", 9) else
                 4 if _is_key(kind, data, k + 1, key_end - 1, "parameters", 10) else 0)
        k = _blanks(kind, data, key_end, e)
        if k >= e or PyUnicode_READ(kind, data, k) != 58:
            return -1
        k = _blanks(kind, data, k + 1, e)
        if which >= 3:
            found[4] = which
            return k
        if which == 0 or k >= e or PyUnicode_READ(kind, data, k) != 34:
            return -1
        value_end = _string_end(kind, data, k, e)
        if value_end < 0 or found[2 * which - 2] >= 0:
            return -1
        found[2 * which - 2], found[2 * which - 1] = k, value_end
        k = _blanks(kind, data, value_end, e)
        if k >= e or PyUnicode_READ(kind, data, k) != 44:
            return -1
        k += 1


cdef inline Py_ssize_t _trimmed(int kind, const void* data, Py_ssize_t k, Py_ssize_t end) noexcept:
    while end > k and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1)):
        end -= 1
    return end


def call_body(str text, Py_ssize_t b, Py_ssize_t end):
    """The call object ``text[b:end]`` (its ``}`` at ``end - 1``): (name_start,
    name_end, id_start, id_end, by_parameters, args_start, args_end), or None."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if not (0 <= b < end <= n):
        return None
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    if PyUnicode_READ(kind, data, b) != 123 or PyUnicode_READ(kind, data, end - 1) != 125:
        return None
    cdef Py_ssize_t found[5]
    cdef Py_ssize_t k = _members(kind, data, b, end, found)
    if k < 0:
        return None
    return (found[0], found[1], found[2], found[3], found[4] == 4, k, _trimmed(kind, data, k, end - 1))


def tag_body(str text, Py_ssize_t b, Py_ssize_t limit):
    """The everyday Hermes body at ``b``: (name_start, name_end, id_start, id_end,
    args_start, args_end, close_end), or None."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if not (0 <= b < limit <= n):
        return None
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    if PyUnicode_READ(kind, data, b) != 123:
        return None
    cdef Py_ssize_t at = _first_closer(kind, data, b, limit, n)
    if at < 0:
        return None
    cdef Py_ssize_t close_end = _blanks(kind, data, at + 11, limit)  # past "</tool_call" and blanks
    if close_end >= limit or PyUnicode_READ(kind, data, close_end) != 62:
        return None
    close_end += 1
    cdef Py_ssize_t e = at
    while Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1)):
        e -= 1
    if PyUnicode_READ(kind, data, e - 1) != 125:
        return None
    cdef Py_ssize_t found[5]
    cdef Py_ssize_t k = _members(kind, data, b, e, found)
    if k < 0 or found[4] != 3:
        return None
    return (found[0], found[1], found[2], found[3], k, _trimmed(kind, data, k, e - 1), close_end)



# ---------------------------------------------------------------------------
# The members of a JSON-like object, the elements of an array

cdef inline bint _is_bare_key(Py_UCS4 c) noexcept:
    return Py_UNICODE_ISALNUM(c) or c == 95 or c == 36 or c == 45 or c == 64 or c == 46  # _$-@.


cdef Py_ssize_t _scalar_end(int kind, const void* data, Py_ssize_t i, Py_ssize_t limit) noexcept:
    """End of a bare token at ``i`` (to ``,}]`` or a line break, trailing blanks left out);
    -1 when that is ``limit``."""
    cdef Py_ssize_t j = i
    cdef Py_UCS4 c
    while j < limit:
        c = PyUnicode_READ(kind, data, j)
        if c == 44 or c == 125 or c == 93 or c == 10:
            break
        j += 1
    while j > i:
        c = PyUnicode_READ(kind, data, j - 1)
        if c != 32 and c != 9 and c != 13:
            break
        j -= 1
    return -1 if j >= limit else j


cdef str _key(str text, int kind, const void* data, Py_ssize_t k, Py_ssize_t kend, bint* escaped):
    """The key ``text[k:kend]``: a bare one as written, a quoted one without a
    backslash as the text between its quotes, any other as written (``escaped``)."""
    cdef Py_UCS4 q = PyUnicode_READ(kind, data, k)
    cdef Py_ssize_t x
    if q != 34 and q != 39:
        return text[k:kend]
    for x in range(k + 1, kend - 1):
        if PyUnicode_READ(kind, data, x) == 92:
            escaped[0] = True
            return text[k:kend]
    return text[k + 1:kend - 1]


def items(str text, Py_ssize_t i, Py_ssize_t limit, bint is_object):
    """The members of the object (``is_object``) or the elements of the array at ``i``."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if limit > n:
        limit = n
    if i < 0 or i >= limit:
        raise IndexError("items: no container at the position given")
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 closer = 125 if is_object else 93, c
    cdef Py_ssize_t j = i + 1, kend, end
    cdef bint escaped = False
    cdef list found = []
    cdef object key
    while True:
        j = _skip(kind, data, j, limit, n)
        if j >= limit:
            return found, False, None, False, escaped
        c = PyUnicode_READ(kind, data, j)
        if c == closer:
            return found, True, j + 1, False, escaped
        if c == 44:
            j += 1
            continue
        if not is_object:
            key = str(len(found))
        else:  # the key, its colon, and where its value starts
            if c == 34 or c == 39:
                kend = _string_end(kind, data, j, limit)
                if kend < 0:
                    return found, False, None, False, escaped
            else:
                kend = j
                while kend < limit and _is_bare_key(PyUnicode_READ(kind, data, kend)):
                    kend += 1
                if kend == j:
                    return found, False, j, True, escaped
            key = _key(text, kind, data, j, kend, &escaped)
            j = _skip(kind, data, kend, limit, n)
            if j >= limit:
                return found, False, None, False, escaped
            if PyUnicode_READ(kind, data, j) != 58:
                return found, False, j, True, escaped
            j = _skip(kind, data, j + 1, limit, n)
            if j >= limit:
                found.append((key, limit, None))
                return found, False, None, False, escaped
        c = PyUnicode_READ(kind, data, j)
        if c == 123 or c == 91:
            end = _extent(kind, data, j, limit, n, None)
        elif c == 34 or c == 39:
            end = _string_end(kind, data, j, limit)
        else:
            end = _scalar_end(kind, data, j, limit)
        if end == j:  # {"a": ] (no value) or a stray closer: not a container we can read
            return found, False, j, True, escaped
        if end < 0:
            found.append((key, j, None))
            return found, False, None, False, escaped
        found.append((key, j, end))
        j = end


include "_markers_prefix.pxi"
