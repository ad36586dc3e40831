# How much of a streamed JSON value is valid so far: the strict reader the
# live stream passes a call's arguments through, a delta at a time. Included
# by _markers.pyx, which exports it as ``JsonPrefix``.
# Twin: src/toolmend/_kernels/_markers_prefix.py (its docstring says what it
# reads; same results, same states): here each piece is read from the
# string's buffer, a character at a time, with no regular expression.

from cpython.unicode cimport PyUnicode_READ_CHAR

# what comes next
cdef enum:
    P_VALUE = 0
    P_FIRST_VALUE = 1
    P_FIRST_KEY = 2
    P_KEY = 3
    P_COLON = 4
    P_NEXT = 5

cdef tuple _PREFIX_TAGS = ("</tool_call", "<tool_call")
cdef dict _PREFIX_WORDS = {"t": "true", "f": "false", "n": "null"}


cdef inline bint _is_hex(Py_UCS4 c) noexcept:
    return (48 <= c <= 57) or (97 <= c <= 102) or (65 <= c <= 70)


cdef inline bint _is_digit(Py_UCS4 c) noexcept:
    return 48 <= c <= 57


cdef Py_ssize_t _number_so_far(int kind, const void* data, Py_ssize_t i, Py_ssize_t n) noexcept:
    """The end of ``-?[0-9]*(\\.[0-9]*)?([eE][+-]?[0-9]*)?`` at ``i``: what may
    still become a number."""
    if i < n and PyUnicode_READ(kind, data, i) == 45:
        i += 1
    while i < n and _is_digit(PyUnicode_READ(kind, data, i)):
        i += 1
    if i < n and PyUnicode_READ(kind, data, i) == 46:
        i += 1
        while i < n and _is_digit(PyUnicode_READ(kind, data, i)):
            i += 1
    cdef Py_UCS4 c
    if i < n:
        c = PyUnicode_READ(kind, data, i)
        if c == 101 or c == 69:
            i += 1
            if i < n:
                c = PyUnicode_READ(kind, data, i)
                if c == 43 or c == 45:
                    i += 1
            while i < n and _is_digit(PyUnicode_READ(kind, data, i)):
                i += 1
    return i


cdef Py_ssize_t _number(int kind, const void* data, Py_ssize_t i, Py_ssize_t n) noexcept:
    """The end of the JSON number at ``i`` (``-?(0|[1-9][0-9]*)(\\.[0-9]+)?
    ([eE][+-]?[0-9]+)?``, each optional part taken only when whole), or -1."""
    cdef Py_ssize_t j
    cdef Py_UCS4 c
    if i < n and PyUnicode_READ(kind, data, i) == 45:
        i += 1
    if i >= n or not _is_digit(PyUnicode_READ(kind, data, i)):
        return -1
    if PyUnicode_READ(kind, data, i) == 48:
        i += 1
    else:
        while i < n and _is_digit(PyUnicode_READ(kind, data, i)):
            i += 1
    if i + 1 < n and PyUnicode_READ(kind, data, i) == 46 and _is_digit(PyUnicode_READ(kind, data, i + 1)):
        i += 2
        while i < n and _is_digit(PyUnicode_READ(kind, data, i)):
            i += 1
    if i < n:
        c = PyUnicode_READ(kind, data, i)
        if c == 101 or c == 69:
            j = i + 1
            if j < n:
                c = PyUnicode_READ(kind, data, j)
                if c == 43 or c == 45:
                    j += 1
            if j < n and _is_digit(PyUnicode_READ(kind, data, j)):
                while j < n and _is_digit(PyUnicode_READ(kind, data, j)):
                    j += 1
                i = j
    return i


cdef class JsonPrefix:
    """JsonPrefix(stops=('</tool_call', '<tool_call'))
--

A strict reader of one JSON value arriving in pieces (see the twin)."""

    cdef public str buf  # fed, not yet read (a token cut at the end of a piece)
    cdef public bint done, failed
    cdef int expect
    cdef readonly bint in_string  # (what was read ends inside a string)
    cdef bint key  # (the open string is a key)
    cdef tuple stops
    cdef Py_ssize_t stop_len
    cdef str firsts  # the characters that may begin a stop: a string's run ends there
    cdef Py_UCS4 first0  # (its first, or 0)
    cdef Py_ssize_t nfirsts
    cdef bytearray stack  # the open brackets

    def __init__(self, stops=_PREFIX_TAGS):
        self.buf = ""
        self.expect = P_VALUE
        self.stops = tuple(stops)
        self.stop_len = max([len(t) for t in self.stops], default=0)
        self.firsts = "".join(sorted({t[0] for t in self.stops}))
        self.nfirsts = len(self.firsts)
        self.first0 = self.firsts[0] if self.nfirsts else 0
        self.stack = bytearray()

    def feed(self, str piece):
        """Take the next piece; return the text newly read and valid."""
        if self.done or self.failed:
            return ""
        cdef str buf
        if self.in_string and not self.buf:
            if self._run_end(piece, 0, PyUnicode_GET_LENGTH(piece)) == PyUnicode_GET_LENGTH(piece):
                return piece  # the common case: more of a long string
            buf = piece
        else:
            buf = self.buf + piece if self.buf else piece
        cdef Py_ssize_t i = self._read(buf)
        if i == PyUnicode_GET_LENGTH(buf):
            self.buf = ""
            return buf
        self.buf = buf[i:]
        return buf[:i]

    cdef Py_ssize_t _run_end(self, str s, Py_ssize_t i, Py_ssize_t n) except -1:
        """Past a string's plain characters from ``i``: none that ends the run
        (a quote, a backslash, a control character, the first of a stop)."""
        cdef int kind = PyUnicode_KIND(s)
        cdef const void* data = PyUnicode_DATA(s)
        cdef Py_UCS4 c
        cdef Py_UCS4 first0 = self.first0
        cdef Py_ssize_t nf = self.nfirsts, k
        while i < n:
            c = PyUnicode_READ(kind, data, i)
            if c == 34 or c == 92 or c < 32 or (c == first0 and nf):
                return i
            if nf > 1:
                for k in range(1, nf):
                    if c == PyUnicode_READ_CHAR(self.firsts, k):
                        return i
            i += 1
        return i

    cdef Py_ssize_t _read(self, str buf) except -2:
        """Read from the start of ``buf``; where reading stopped."""
        cdef Py_ssize_t i = 0, j, n = PyUnicode_GET_LENGTH(buf)
        cdef int kind = PyUnicode_KIND(buf)
        cdef const void* data = PyUnicode_DATA(buf)
        cdef Py_UCS4 c
        while i < n:
            if self.in_string:
                j = self._string(buf, kind, data, i, n)
                if j < 0:
                    return i
            else:
                c = PyUnicode_READ(kind, data, i)
                while c == 32 or c == 9 or c == 10 or c == 13:
                    i += 1
                    if i >= n:
                        return i
                    c = PyUnicode_READ(kind, data, i)
                j = self._token(buf, kind, data, i, n)
                if j < 0 or self.failed:
                    return i
            i = j
            if not len(self.stack) and self.expect == P_NEXT and not self.in_string:
                self.done = True  # the value is whole (a string at the top too)
                return i
        return i

    cdef Py_ssize_t _string(self, str buf, int kind, const void* data, Py_ssize_t i,
                            Py_ssize_t n) except -2:
        """Read inside a string from ``i``: where reading goes on, or -1 to wait."""
        i = self._run_end(buf, i, n)
        if i >= n:
            return i
        cdef Py_UCS4 c = PyUnicode_READ(kind, data, i), e
        if c == 34:
            self.in_string = False
            self.expect = P_COLON if self.key else P_NEXT
            return i + 1
        if c == 92:
            if i + 1 >= n:
                return -1
            e = PyUnicode_READ(kind, data, i + 1)
            if e == 34 or e == 92 or e == 47 or e == 98 or e == 102 or e == 110 or e == 114 or e == 116:
                return i + 2
            if e == 117:
                if i + 6 > n:
                    return -1
                if (_is_hex(PyUnicode_READ(kind, data, i + 2)) and _is_hex(PyUnicode_READ(kind, data, i + 3))
                        and _is_hex(PyUnicode_READ(kind, data, i + 4))
                        and _is_hex(PyUnicode_READ(kind, data, i + 5))):
                    return i + 6
            return self._fail()
        if c >= 32:  # the first character of a stop
            rest = buf[i:i + self.stop_len].lower()
            for t in self.stops:
                if rest.startswith(t):
                    return self._fail()
            if len(rest) < self.stop_len:
                for t in self.stops:
                    if t.startswith(rest):
                        return -1  # it may still become one
            return i + 1
        return self._fail()  # a control character

    cdef Py_ssize_t _token(self, str buf, int kind, const void* data, Py_ssize_t i,
                           Py_ssize_t n) except -2:
        """Read the token at ``i`` (not whitespace, not in a string): where
        reading goes on, or -1 to wait for more."""
        cdef Py_UCS4 c = PyUnicode_READ(kind, data, i)
        cdef int expect = self.expect
        cdef Py_ssize_t m
        if expect == P_FIRST_KEY or expect == P_KEY:
            if c == 34:
                self.in_string, self.key = True, True
                return i + 1
            if c == 125 and expect == P_FIRST_KEY:
                return self._close(123, i)
            return self._fail()
        if expect == P_COLON:
            if c != 58:
                return self._fail()
            self.expect = P_VALUE
            return i + 1
        if expect == P_NEXT:
            if c == 44:
                self.expect = P_KEY if self.stack[len(self.stack) - 1] == 123 else P_VALUE
                return i + 1
            if c == 125 or c == 93:
                return self._close(123 if c == 125 else 91, i)
            return self._fail()
        # a value (or, first in an array, its end)
        if c == 93 and expect == P_FIRST_VALUE:
            return self._close(91, i)
        if c == 123 or c == 91:
            self.stack.append(<int>c)
            self.expect = P_FIRST_KEY if c == 123 else P_FIRST_VALUE
            return i + 1
        if c == 34:
            self.in_string, self.key = True, False
            return i + 1
        if c == 45 or _is_digit(c):
            if _number_so_far(kind, data, i, n) >= n:
                return -1  # it may go on ("1." and "1e" too: the digits may come next)
            m = _number(kind, data, i, n)
            if m < 0:
                return self._fail()
            self.expect = P_NEXT
            return m
        word = _PREFIX_WORDS.get(c)
        if word is None:
            return self._fail()
        if buf.startswith(word, i):
            self.expect = P_NEXT
            return i + len(word)
        if n - i < len(word) and word.startswith(buf[i:]):
            return -1
        return self._fail()

    cdef Py_ssize_t _close(self, int opener, Py_ssize_t i) except -2:
        if not len(self.stack) or self.stack[len(self.stack) - 1] != opener:
            return self._fail()
        del self.stack[len(self.stack) - 1]
        self.expect = P_NEXT
        return i + 1

    cdef Py_ssize_t _fail(self) noexcept:
        self.failed = True
        return -1
