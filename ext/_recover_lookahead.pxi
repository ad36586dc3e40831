# The engine's look-ahead at a quote (of the compiled recovery kernel): whether it ends its
# string, whether a comma or a member stood before it, whether a separator alone stands between
# two strings; and the member looked for in text after the value. Free functions on the scanner
# of _recover_tokens.pxi, included by _recover.pyx after it. Twin: the same methods of _Scanner
# (src/toolmend/_kernels/_recover_tokens.py) and QUOTED_KEY (src/toolmend/_text.py).

cdef bint eng_closes_top(_Repairer self, Py_ssize_t j, Py_UCS4 q) noexcept nogil:
    """Whether a quote ends a string that is the whole value, text (from j)
    following it: the end, a join, a comma, a comment or another value does;
    text with another quote further on, or a word, does not (the quote is
    content: nothing after it is dropped)."""
    cdef Py_UCS4 c = self.ch(j)
    if c == c'+' or c == c',' or c == c'{' or c == c'[':
        return True
    if c == c'/' and j + 1 < self.n and (self.ch(j + 1) == c'/' or self.ch(j + 1) == c'*'):
        return True
    return not (is_word(c) or self.find_char(q, j) >= 0)


cdef Py_ssize_t eng_comma_before(_Repairer self, Py_ssize_t i, Py_ssize_t k) noexcept nogil:
    """Where the comma before the quote at k is (only whitespace between,
    inside the string opened at i), or -1."""
    cdef Py_ssize_t p = k - 1
    while p > i and is_json_ws(self.ch(p)):
        p -= 1
    if p > i + 1 and self.ch(p) == c',' and self.ch(p - 1) != c'\\':
        return p
    return -1


cdef bint eng_member_before(_Repairer self, Py_ssize_t i, Py_ssize_t k) noexcept nogil:
    """Whether the string opened at i reads ``, name:`` (a bare key and its
    colon after a comma, whitespace around) right before the quote at k."""
    cdef Py_ssize_t p = k - 1, end
    while p > i and is_json_ws(self.ch(p)):
        p -= 1
    if p <= i or self.ch(p) != c':':
        return False
    p -= 1
    while p > i and is_json_ws(self.ch(p)):
        p -= 1
    end = p
    while p > i and (is_alnum(self.ch(p)) or self.ch(p) == c'_' or self.ch(p) == c'$'
                     or self.ch(p) == c'@' or self.ch(p) == c'.' or self.ch(p) == c'-'):
        p -= 1
    return p < end and eng_comma_before(self, i, p + 1) >= 0


cdef bint eng_quoted_key_at(_Repairer self, Py_ssize_t k) noexcept nogil:
    """Whether the quote at k opens a key: closed on its line, then a colon."""
    cdef Py_ssize_t n = self.n, end = k + 1, lim = k + LOOK if k + LOOK < n else n
    cdef Py_UCS4 q = self.ch(k)
    while end < lim and self.ch(end) != q:
        if self.ch(end) == c'\n':
            return False
        end += 1
    if end >= lim:
        return False
    end = self.ws(end + 1)
    return end < n and self.ch(end) == c':'


cdef bint eng_escaped_quote_before(_Repairer self, Py_ssize_t i, Py_ssize_t p) noexcept nogil:
    """The string opened at i ends, right before p, in its quote, escaped by a backslash."""
    cdef Py_ssize_t k
    if p - 2 <= i or self.ch(p - 1) != self.ch(i) or self.ch(p - 2) != c'\\':
        return False
    k = p - 2
    while k > i and self.ch(k - 1) == c'\\':
        k -= 1
    return (p - 1 - k) % 2 == 1


# ("x”, "b": 1: a curly quote right before the comma, the string never closed: its closing quote
# typed curly, or a quote of the text ("He said “hi”) and the closing one left out)
cdef const char* CURLY_CLOSER = (b"a string that never closes holds a curly quote right before a comma "
                                 b"and a key: its closing quote typed curly, or a quote in the text and the "
                                 b"closing one left out, two readings")


cdef bint eng_missing_close(_Repairer self, Py_ssize_t i, Py_ssize_t k, int ctx) except -1 nogil:
    """A quote at k that does not close the string opened at i, after a comma:
    in an object, before a quoted key and its colon, the string ended at the
    comma (what was written after it is taken back: True); in an array, two
    readings (refused)."""
    cdef Py_ssize_t p = eng_comma_before(self, i, k), m
    cdef Py_UCS4 c
    if p < 0:
        if ctx == F_OBJ and eng_member_before(self, i, k):
            self.refuse(k, "a quote after ', name:' inside a string: a missing closing "
                           "quote before a member or a quote in the text, two readings")
        return False
    if ctx == F_ARR:
        self.refuse(k, "a quote after a comma inside a string: a missing closing "
                       "quote or a quote in the text, two readings")
    if not eng_quoted_key_at(self, k):
        return False
    if eng_escaped_quote_before(self, i, p):
        self.refuse(p - 1, ESCAPED_CLOSER)
    c = self.ch(p - 1)
    if is_curly_double(c) or is_curly_single(c) or is_other_quote(c):
        self.refuse(p - 1, CURLY_CLOSER)
    self.fix("quote", p, "missing closing quote added before the comma")
    for m in range(p, k):
        c = self.ch(m)
        self.out.len -= 1 if (c == c',' or c == c' ') else 2
    return True


cdef Py_ssize_t eng_quoted_member(_Repairer e, Py_ssize_t i) noexcept nogil:
    """Where the first quoted key followed by a colon stands from i (the twin's
    _text.QUOTED_KEY: a quote, up to 100 characters without a quote or a line break,
    the same quote, blanks, a colon), or -1."""
    cdef Py_ssize_t n = e.n, k, end
    cdef Py_UCS4 q, c
    while i < n:
        q = e.ch(i)
        if q == c'"' or q == c"'":
            end = i + 1
            while end < n and end - i - 1 <= 100:
                c = e.ch(end)
                if c == c'"' or c == c"'" or c == c'\n':
                    break
                end += 1
            if end < n and e.ch(end) == q and end - i - 1 <= 100:
                k = end + 1
                while k < n and (e.ch(k) == c' ' or e.ch(k) == c'\t'):
                    k += 1
                if k < n and e.ch(k) == c':':
                    return i
        i += 1
    return -1


cdef bint eng_separator_only(_Repairer self, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Whether only the separator before the next value stands in s[a:b] (the twin's)."""
    cdef Py_ssize_t k = self.ws(a), end
    cdef Py_UCS4 q, c
    if self.split_ctx != F_OBJ and k == b:
        return True  # (two elements with no comma between them)
    if k >= b or self.ch(k) != c',':
        return False
    k = self.ws(k + 1)
    if self.split_ctx != F_OBJ:
        return k == b
    if k >= b:
        return False
    q = self.ch(k)
    if q == c'"' or q == c"'":
        end = k + 1
        while end < b:
            c = self.ch(end)
            if c == q or c == c'\\' or c == c'\n':
                break
            end += 1
        if end >= b or self.ch(end) != q:
            return False
        k = end + 1
    else:
        end = self.key_end(k)
        if end == k or end > b:
            return False
        k = end
    k = self.ws(k)
    if k >= b or self.ch(k) != c':':
        return False
    return self.ws(k + 1) == b
