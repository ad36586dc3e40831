# The repair engine of the compiled recovery kernel (repair_json): the pass
# over the text, frame by frame, on the scanner of _recover_tokens.pxi.
# Included by _recover.pyx. Twin: src/toolmend/_kernels/_recover_repair.py.

cdef bint eng_leading_zeros(_Repairer self, Py_ssize_t i, Py_ssize_t end) except -1 nogil:
    """007, 02134 at i: a number would drop the zeros, so the digits stay as
    written, a string (True when written)."""
    cdef Py_ssize_t j = i, k
    if self.ch(j) == c'+' or self.ch(j) == c'-':
        j += 1
    if not (end - j > 1 and self.ch(j) == c'0' and (is_digit(self.ch(j + 1)) or self.ch(j + 1) == c'_')):
        return False
    if i >= 2 and self.ch(i - 1) == c',' and is_digit(self.ch(i - 2)):
        self.refuse(i, "digits after a number and a comma: a digit group (1,000) or two values, "
                       "two readings")
    if end >= self.n:
        self.fix("cut", i, "cut inside a number")
    self.fix_f("number", i, b"{span} has leading zeros: kept as the string {span!r}", 0, 0, i, end, NULL)
    self.put(c'"')
    for k in range(i, end):
        self.put(self.ch(k))
    self.put(c'"')
    return True


cdef int eng_beyond_double(_Repairer self, Py_ssize_t i, Py_ssize_t end, Py_ssize_t start) except -1 nogil:
    """The number at i (to end), written from ``start``: when it is too large
    for a double (``1e999``), null instead, as NaN and Infinity are (JSON has
    no Infinity)."""
    cdef Py_ssize_t k, m = self.out.len - start
    cdef char* digits = <char*>PyMem_RawMalloc(m + 1)
    cdef double v
    if digits == NULL:
        no_memory()
    for k in range(m):
        digits[k] = <char>(out_at(&self.out, start + k))
    digits[m] = 0
    v = strtod(digits, NULL)
    PyMem_RawFree(digits)
    if isinf(v) == 0:
        return 0
    self.fix_f("nan", i, b"{span} is too large for a double: written as null", 0, 0, i, end, NULL)
    self.out.len = start
    self.put_ascii(b"null")
    return 0


cdef bint eng_digit_group(_Repairer self, Py_ssize_t i) noexcept nogil:
    """``1 000``: a 0 and a digit at i, after a number and spaces."""
    cdef Py_ssize_t p = i - 1
    if not (i + 1 < self.n and is_digit(self.ch(i + 1))):
        return False
    if p < 0 or not (self.ch(p) == c' ' or self.ch(p) == c'\t'):
        return False
    while p >= 0 and (self.ch(p) == c' ' or self.ch(p) == c'\t'):
        p -= 1
    return p >= 0 and is_digit(self.ch(p))


cdef inline bint eng_not_in_words(_Repairer self, Py_ssize_t k, Py_UCS4 c) noexcept nogil:
    """Whether c (at k) may not stand in a bare value of several words:
    structure, a quote, a comment, an escape, a control character, whitespace
    other than a space or a tab (the twin's _NOT_IN_WORDS)."""
    if c == c'"' or c == c'`' or c == c'{' or c == c'[' or c == c'(' or c == c')' or c == c':' \
            or c == c'#' or c == c'\\' or (c < 0x20 and c != c'\t') or is_odd_space(c):
        return True
    if c == c'/' and k + 1 < self.n and (self.ch(k + 1) == c'/' or self.ch(k + 1) == c'*'):
        return True
    if c == c"'":
        return not (k > 0 and is_alnum(self.ch(k - 1)) and k + 1 < self.n and is_alnum(self.ch(k + 1)))
    return c != c' ' and c != c'\t' and Py_UNICODE_ISSPACE(c)


cdef Py_ssize_t eng_words(_Repairer self, Py_ssize_t i, int ctx) except -2 nogil:
    """A bare value of several words at i (``read the file``), in an object or
    an array: a string, when where it ends is known: at a line break, at the
    container's closer, or at a comma that a key (in an object) or a value
    that is no bare word (in an array) follows, or before a quoted key and its
    colon (see the twin)."""
    cdef Py_ssize_t n = self.n, k = i, j, e
    cdef Py_UCS4 c, d
    cdef bint ends
    while k < n:
        c = self.ch(k)
        if c == c',' or c == c'}' or c == c']' or c == c'\n' or c == c'\r':
            break
        if ctx == F_OBJ and (c == c'"' or c == c"'") and (self.ch(k - 1) == c' ' or self.ch(k - 1) == c'\t') \
                and eng_quoted_key_at(self, k):
            break  # value "key": a comma is missing before the key
        if eng_not_in_words(self, k, c):
            self.refuse_f(k, "{c!r} inside a bare value of several words: where the value ends "
                             "is not known", c, 0, 0)
        k += 1
    if k < n and self.ch(k) == c',':
        j = self.ws(k + 1)
        if j < n:
            d = self.ch(j)
            if ctx == F_OBJ:
                ends = eng_key_follows(self, k) or d == c'}'
            else:
                ends = d == c']' or d == c'"' or d == c"'" or d == c'{' or d == c'[' or d == c'-' \
                    or is_digit(d)
            if not ends:
                self.refuse(k, "a comma after a bare value of several words: inside the value or "
                               "after it, two readings")
    e = k
    while self.ch(e - 1) == c' ' or self.ch(e - 1) == c'\t':
        e -= 1
    if k >= n:
        self.fix("cut", i, "cut inside a word")
    self.fix_f("word", i, "bare words {span!r} written as a string", 0, 0, i, e, NULL)
    self.put(c'"')
    for k in range(i, e):
        self.put_char(self.ch(k))
    self.put(c'"')
    return e


cdef bint eng_tuple_start(_Repairer self, Py_ssize_t i) noexcept nogil:
    """Whether the '(' at i opens a Python tuple: ')' or a value that is no
    bare word follows it (``(see below)`` is prose)."""
    cdef Py_ssize_t n = self.n, j = self.ws(i + 1), e
    cdef Py_UCS4 c
    if j >= n:
        return False
    c = self.ch(j)
    if c == c')' or c == c'(' or c == c'[' or c == c'{' or c == c'"' or c == c"'" or c == c'-' \
            or is_digit(c):
        return True
    if not is_ident_start(c):
        return False
    e = j + 1
    while e < n and (is_word(self.ch(e)) or self.ch(e) == c'$'):
        e += 1
    return (self.same_word(j, e, b"true", True) or self.same_word(j, e, b"false", True)
            or self.same_word(j, e, b"null", True) or self.same_word(j, e, b"none", True))


cdef bint eng_ends_with_paren(_Repairer self, Py_ssize_t i) noexcept nogil:
    """Whether the text ends (but for whitespace) with ')': a '(' at i that
    does not may start a numbered note, prose before the JSON."""
    cdef Py_ssize_t k = self.n - 1
    while k > i and (Py_UNICODE_ISSPACE(self.ch(k)) or is_odd_space(self.ch(k))):
        k -= 1
    return self.ch(k) == c')'


cdef int eng_ungroup(_Repairer self, Frame* f, Py_ssize_t i) except -1 nogil:
    """The tuple frame f, on top, holds one value and no comma (``(1)``): as in
    Python, the value itself (its '[' taken out of the output)."""
    cdef Py_ssize_t k
    self.fix("tuple", i, "one value in parentheses, no comma: the value itself")
    if self.out.wide:
        for k in range(f.mark, self.out.len):
            (<Py_UCS4*>self.out.data)[k - 1] = (<Py_UCS4*>self.out.data)[k]
    else:
        memmove(<unsigned char*>self.out.data + f.mark - 1, <unsigned char*>self.out.data + f.mark,
                self.out.len - f.mark)
    self.out.len -= 1
    self.depth -= 1
    return 0


cdef bint eng_plausible(_Repairer self, Py_ssize_t p) noexcept nogil:
    cdef Py_ssize_t n = self.n, j = self.ws(p + 1), e
    cdef Py_UCS4 c
    if j >= n:
        return False
    c = self.ch(j)
    if self.ch(p) == c'{':
        if c == c'"' or c == c"'" or c == c'}':
            return True
        return self.key_then_colon(j)
    if c == c'{' or c == c'[' or c == c'"' or c == c']' or c == c'-' or is_digit(c):
        return True
    if not is_ident_start(c):
        return False
    e = j + 1
    while e < n and (is_word(self.ch(e)) or self.ch(e) == c'$'):
        e += 1
    return (self.same_word(j, e, b"true", False) or self.same_word(j, e, b"false", False)
            or self.same_word(j, e, b"null", False))

cdef Py_ssize_t eng_start(_Repairer self) except -2 nogil:
    """Where the JSON begins: after prose, fences, chat-template tokens."""
    cdef Py_ssize_t n = self.n, i, e, a, b, p
    cdef Py_UCS4 c
    i = self.skip(0, True)
    if i >= n:
        self.refuse(0, "no JSON value in the text (only whitespace or comments)")
    i = eng_past_reasoning(self, i)
    c = self.ch(i)
    if c == c'{' or c == c'[' or c == c'"' or c == c"'" or (
            c == c'(' and eng_tuple_start(self, i) and (eng_ends_with_paren(self, i)
                                                         or eng_next_value(self, i) < 0)):
        return i
    if c == c'+' or c == c'-' or c == c'.' or is_digit(c):
        e = self.number_end(i)
        if e > i and (e >= n or not (is_alnum(self.ch(e)) or self.ch(e) == c'.'
                                     or self.ch(e) == c'_')):
            if self.ws(e) >= n:
                return i
    a = i + 1 if (c == c'+' or c == c'-') and i + 1 < n else i  # -Infinity as Infinity
    if is_ident_start(self.ch(a)):
        e = a + 1
        while e < n and (is_word(self.ch(e)) or self.ch(e) == c'$'):
            e += 1
        if self.top_word(a, e, a > i) and self.ws(e) >= n:
            return i
    p = eng_next_value(self, i)
    if p < 0:
        self.refuse(i, "no JSON value in the text (prose, not arguments)")
    for e in range(i, p):  # (no </think> follows: a value after a <think> is reasoning)
        if eng_at_text(self, e, b"<think>"):
            self.refuse(e, "only reasoning: <think> is not closed, no answer follows")
    self.fix("prose", i, "text before the JSON dropped")
    return p

cdef Py_ssize_t eng_next_value(_Repairer self, Py_ssize_t i) noexcept nogil:
    """The first '{' or '[' from i that starts a plausible value, or -1.
    Called after each value that prose follows: the searches go through
    next_opener, which keeps them linear in all."""
    cdef Py_ssize_t a = self.next_opener(c'{', i), b = self.next_opener(c'[', i), p
    while True:
        if a < 0 and b < 0:
            return -1
        if b < 0 or 0 <= a < b:
            p = a
            a = self.next_opener(c'{', a + 1)
        else:
            p = b
            b = self.next_opener(c'[', b + 1)
        if eng_plausible(self, p):
            return p

cdef bint eng_at_text(_Repairer self, Py_ssize_t i, const char* text) noexcept nogil:
    """Whether the ASCII ``text`` stands at i."""
    cdef Py_ssize_t k = 0
    while text[k] != 0:
        if i + k >= self.n or self.ch(i + k) != <Py_UCS4>text[k]:
            return False
        k += 1
    return True

cdef int eng_no_reasoning_between(_Repairer self, Py_ssize_t i, Py_ssize_t p) except -1 nogil:
    """Refused when reasoning opens or closes between two values (from i to p): which value is
    the answer, and which was reasoning (the one before a </think> is), is a guess."""
    cdef Py_ssize_t t
    for t in range(i, p):
        if eng_at_text(self, t, b"<think>") or eng_at_text(self, t, b"</think>"):
            self.refuse(t, "reasoning (<think> or </think>) between two values: which is the answer, and "
                           "which was reasoning, is a guess")
    return 0

cdef Py_ssize_t eng_past_reasoning(_Repairer self, Py_ssize_t i) except -2 nogil:
    """Past the model's reasoning: text up to a ``</think>`` (with or without
    its ``<think>``) is never the value. Refused when nothing but reasoning
    is there."""
    cdef Py_ssize_t n = self.n, t
    cdef Py_UCS4 c = self.ch(i)
    while not (c == c'{' or c == c'[' or c == c'"' or c == c"'"):
        t = i
        while t < n and not eng_at_text(self, t, b"</think>"):
            t += 1
        if t >= n:
            if eng_at_text(self, i, b"<think>"):
                self.refuse(i, "only reasoning: <think> is not closed, no answer follows")
            return i
        self.fix("prose", i, "reasoning dropped (up to </think>)")
        i = self.skip(t + 8, True)
        if i >= n:
            self.refuse(t, "only reasoning: no answer after </think>")
        c = self.ch(i)
    return i

cdef Py_ssize_t eng_u_prefix(_Repairer self, Py_ssize_t i) except -2 nogil:
    """Past Python's u prefix at i (``u'...'``, logged), or i."""
    if i + 1 < self.n and (self.ch(i + 1) == c'"' or self.ch(i + 1) == c"'"):
        self.fix("quote", i, "Python's u prefix dropped")
        return i + 1
    return i

cdef Py_ssize_t eng_fence(_Repairer self, Py_ssize_t i) except -2 nogil:
    """A Markdown fence marker inside a container (three backticks and a
    language tag) is not data: the index past it, or -1."""
    cdef Py_ssize_t n = self.n, j = i + 3
    cdef Py_UCS4 c
    if not eng_at_text(self, i, b"```"):
        return -1
    while j < n:
        c = self.ch(j)
        if not (c == c'`' or is_alnum(c) or c == c'_' or c == c'+' or c == c'.' or c == c'-'):
            break
        j += 1
    self.fix("prose", i, "code fence inside the value dropped")
    return j

cdef int eng_push(_Repairer self, int kind) except -1 nogil:
    cdef Frame* grown
    if self.depth == self.cap:
        grown = <Frame*>PyMem_RawRealloc(self.stack, 2 * self.cap * sizeof(Frame))
        if grown == NULL:
            no_memory()
        self.stack = grown
        self.cap *= 2
    self.stack[self.depth].kind = kind
    self.stack[self.depth].state = S_KEY_FIRST
    self.stack[self.depth].count = 0
    self.stack[self.depth].mark = self.out.len
    self.depth += 1
    return 0

cdef int eng_close(_Repairer self) except -1 nogil:
    self.depth -= 1
    self.put(c'}' if self.stack[self.depth].kind == F_OBJ else c']')
    return 0

cdef int eng_close_all(_Repairer self, Py_ssize_t i) except -1 nogil:
    cdef Py_ssize_t k
    for k in range(1, self.depth):
        if self.stack[k].kind == F_TUP and self.stack[k].state == S_AFTER and self.stack[k].count == 1:
            # ("x" cut: ("x") is "x", ("x",) a tuple
            self.fix("cut", self.n, "cut inside a tuple")
            break
    if self.depth > 1 and self.stray_closer >= 0:
        self.refuse(self.stray_closer, STRAY_OR_MISTYPED)
    if self.depth > 1:
        self.fix_f("truncated", i, "{n} unclosed bracket(s) closed", 0, 0, self.depth - 1, 0, NULL)
    while self.depth > 1:
        eng_close(self)
    return 0

cdef bint eng_key_follows(_Repairer self, Py_ssize_t i) noexcept nogil:
    """Whether a comma at i is followed by a key and its colon."""
    cdef Py_ssize_t n = self.n, k, end, lim
    cdef Py_UCS4 q
    if self.ch(i) != c',':
        return False
    k = self.ws(i + 1)
    if k >= n:
        return False
    q = self.ch(k)
    if q == c'"' or q == c"'":
        lim = k + LOOK if k + LOOK < n else n
        end = k + 1
        while end < lim and self.ch(end) != q:
            end += 1
        if end >= lim:
            return False
        end = self.ws(end + 1)
        return end < n and self.ch(end) == c':'
    return self.key_then_colon(k)

cdef Py_ssize_t eng_mismatched(_Repairer self, Py_ssize_t i) except -2 nogil:
    """A closer that does not close the innermost container."""
    cdef Py_UCS4 c = self.ch(i), d
    cdef int want = F_OBJ if c == c'}' else F_ARR
    cdef Py_ssize_t k, found = -1, j
    cdef Py_UCS4 closer
    for k in range(self.depth - 1, 0, -1):
        if self.stack[k].kind == want:
            found = k
            break
    if found < 0:
        self.fix_f("bracket", i, "stray '{c}' dropped", c, 0, 0, 0, NULL)
        j = self.skip(i + 1, True)
        if self.stray_closer < 0 and j < self.n and self.ch(j) != c'}' and self.ch(j) != c']':
            self.stray_closer = i  # (more follows: which container it goes in is at stake)
        return i + 1
    j = self.skip(i + 1, True)
    if j < self.n:
        d = self.ch(j)
        if d != c'}' and d != c']':
            if found == 1:
                # closing the outermost container would leave what follows
                # outside the document: the closer can only be a typo
                closer = c'}' if self.stack[self.depth - 1].kind == F_OBJ else c']'
                self.fix_f("bracket", i, "'{c}' read as '{d}'", c, closer, 0, 0, NULL)
                eng_close(self)
                return i + 1
            self.refuse_f(i, "'{c}' does not close the innermost bracket, and what follows "
                             "belongs to a different container in each reading", c, 0, 0)
    self.fix_f("bracket", i, "'{c}' also closes the brackets inside it", c, 0, 0, 0, NULL)
    while self.depth > found:
        eng_close(self)
    return i + 1

cdef Py_ssize_t eng_ellipsis(_Repairer self, Py_ssize_t i) except -2 nogil:
    """An ellipsis at i (and a comma after it) dropped; the index past."""
    self.fix("ellipsis", i, "ellipsis dropped")
    i += 1 if self.ch(i) == 0x2026 else 3
    cdef Py_ssize_t j = self.skip(i, True)
    if j < self.n and self.ch(j) == c',':
        return j + 1
    return i

cdef bint eng_at_ellipsis(_Repairer self, Py_ssize_t i) noexcept nogil:
    cdef Py_UCS4 c = self.ch(i)
    return c == 0x2026 or (c == c'.' and i + 2 < self.n and self.ch(i + 1) == c'.'
                           and self.ch(i + 2) == c'.')

cdef Py_ssize_t eng_value(_Repairer self, Py_ssize_t i, int ctx) except -2 nogil:
    """Write the value at i. Opens a frame for { and [; returns the index
    past the value, or -1 when a cut value is dropped."""
    cdef Py_ssize_t n = self.n, j, k, e
    cdef Py_UCS4 c = self.ch(i), d
    if c == c'u' or c == c'U':  # u'...': Python's unicode prefix
        i = eng_u_prefix(self, i)
        c = self.ch(i)
    if c == c'{' or c == c'[':
        if self.depth > depth_bound:  # the top frame and depth_bound containers
            too_deep(i)
        self.put(c)
        eng_push(self, F_OBJ if c == c'{' else F_ARR)
        return i + 1
    if c == c'(':
        if self.depth > depth_bound:
            too_deep(i)
        self.fix("tuple", i, "parentheses: a Python tuple, written as an array")
        self.put(c'[')
        eng_push(self, F_TUP)
        return i + 1
    if c == c'"' or c == c"'":
        self.put(c'"')
        j = self.string_body(i, ctx)
        if c == c"'":
            self.fix("quote", i, "single-quoted string")
        while True:
            k = self.ws(j)
            if k < n and self.ch(k) == c'+':
                e = self.skip(k + 1, True)
                if e < n and (self.ch(e) == c'"' or self.ch(e) == c"'"):
                    j = self.string_body(e, ctx)
                    self.fix("concat", k, "strings joined")
                    continue
                self.refuse(k, "a concatenation with something that is not a string")
            break
        self.put(c'"')
        return j
    if is_digit(c) or c == c'.':
        return self.number(i)
    if c == c'+' or c == c'-':
        if i + 1 < n:
            d = self.ch(i + 1)
            if is_digit(d) or d == c'.':
                return self.number(i)
        if i + 1 >= n:
            return -1
        return self.word(i, ctx)
    if is_alpha(c) or c == c'_' or c == c'$':
        return self.word(i, ctx)
    self.refuse(i, "unexpected character where a value belongs")
    return -2

cdef inline Py_ssize_t eng_take_value(_Repairer self, Frame* f, Py_ssize_t i) except -2 nogil:
    """The value step, the same for an object member and an array element:
    the value at i goes into frame f (a container opens its frame); a value
    cut before it starts is dropped and every bracket closed."""
    cdef Py_ssize_t j
    f.state = S_AFTER
    f.count += 1
    j = eng_value(self, i, f.kind)
    if j < 0:
        f = &self.stack[self.depth - 1]
        f.count -= 1  # nothing was written: ("-" is no one-value tuple
        self.fix("cut", i, "cut inside a number")
        self.out.len = f.mark
        eng_close_all(self, self.n)
        return self.n
    return j

cdef Py_ssize_t eng_null_value(_Repairer self, Frame* f, Py_ssize_t i) except -2 nogil:
    """A member whose value is missing: null."""
    self.fix("value", i, "missing value written as null")
    self.put_ascii(b"null")
    f.count += 1
    f.state = S_AFTER
    return i

cdef int eng_member_start(_Repairer self, Frame* f) except -1 nogil:
    """Before an array element: remember where it starts, write a comma."""
    f.mark = self.out.len
    if f.count:
        self.put(c',')
    return 0

cdef inline Py_ssize_t eng_at_member(_Repairer self, Py_ssize_t i, Py_UCS4 c, bint at_end,
                                     bint after_comma, Py_UCS4 closer) except -2 nogil:
    """Where a member or an element may start, the same in an object and an
    array: the end of the text (cut), the container's ``closer`` (after a
    comma: a trailing comma) or the other closer; the index where the next
    step starts, or -1 for anything else."""
    if at_end:
        self.fix("cut", self.n, "cut after a comma" if after_comma else "cut after an opening bracket")
        eng_close_all(self, self.n)
        return i
    if c == closer:
        if after_comma:
            self.fix("comma", i, "trailing comma dropped")
        eng_close(self)
        return i + 1
    if c == c'}' or c == c']':
        return eng_mismatched(self, i)
    return -1

cdef inline Py_ssize_t eng_after_member(_Repairer self, Frame* f, Py_ssize_t i, Py_UCS4 c, bint at_end,
                                        Py_UCS4 closer, int next_state) except -2 nogil:
    """After a member or an element, the same in an object and an array: the
    end of the text (every bracket closed), a comma (then ``next_state``), the
    container's ``closer`` or the other closer; the index where the next step
    starts, or -1 for anything else."""
    if at_end:
        eng_close_all(self, self.n)
        return i
    if c == c',':
        f.state = next_state
        return i + 1
    if c == closer:
        if c == c')' and f.count == 1:  # (1): parentheses around one value, no comma
            eng_ungroup(self, f, i)
        else:
            eng_close(self)
        return i + 1
    if c == c'}' or c == c']':
        return eng_mismatched(self, i)
    return -1

cdef Py_ssize_t eng_in_object(_Repairer self, Frame* f, int state, Py_ssize_t i, Py_UCS4 c, bint at_end) except -2 nogil:
    """One step inside an object (``state``: before a key, after it, before
    the value, after the member); the index where the next step starts."""
    cdef Py_ssize_t n = self.n, j, e
    if state == S_KEY_FIRST or state == S_KEY_NEXT:
        j = eng_at_member(self, i, c, at_end, state == S_KEY_NEXT, c'}')
        if j >= 0:
            return j
        if c == c',':
            self.fix("comma", i, "stray comma dropped")
            return i + 1
        if eng_at_ellipsis(self, i):
            return eng_ellipsis(self, i)
        if c == c'`' and eng_at_text(self, i, b"```"):
            return eng_fence(self, i)
        f.mark = self.out.len
        if f.count:
            self.put(c',')
        if c == c'u' or c == c'U':
            i = eng_u_prefix(self, i)
            c = self.ch(i)
        if c == c'"' or c == c"'":
            self.put(c'"')
            self.key_struct = False
            j = self.string_body(i, CTX_KEY)
            if not self.complete:
                if self.key_struct:
                    self.refuse(i, "an unterminated key")
                self.fix("truncated", i, "cut key dropped")
                self.out.len = f.mark
                eng_close_all(self, n)
                return n
            self.put(c'"')
        elif c == c':':
            self.refuse(i, "a member with no key: a key would have to be invented")
        elif c == c'{' or c == c'[':
            self.refuse(i, "an object or array where a key belongs")
        else:
            j = self.key_end(i)
            if j == i:
                self.refuse(i, "unexpected character where a key belongs")
            e = self.skip(j, True)
            if (e < n and self.ch(e) != c':') or (e >= n and j < n):
                self.refuse_f(i, "piece {span!r} has no colon", 0, i, j)
            self.fix("key", i, "key quoted")
            self.put(c'"')
            for e in range(i, j):
                self.put(self.ch(e))
            self.put(c'"')
        self.put(c':')
        f.state = S_COLON
        return j
    if state == S_COLON:
        if at_end:
            self.fix("cut", i, "cut after a key")
            self.out.len = f.mark
            eng_close_all(self, n)
            return i
        if c == c':':
            j = self.skip(i + 1, False)
            if j < n and self.ch(j) == c':':
                self.refuse(j, "two colons after a key")
            f.state = S_VAL
            return i + 1
        if c == c',' or c == c'}':
            if not f.count and not eng_key_follows(self, i):
                self.refuse(i, "keys with neither colon nor value: a set, "
                               "not an object")
            # ({"a": 1, "force"}: a flag's true, a null, a string in a list: what it holds is a guess)
            self.refuse(i, "a key with neither colon nor value: what it was meant to hold is a guess")
        if self.out.len - f.mark == (4 if f.count else 3):  # [,]"": the key written is empty
            self.refuse(i, "an empty key with no colon after it: stray quotes, not a member")
        self.fix("colon", i, "missing colon added")
        f.state = S_VAL
        return i
    if state == S_VAL:
        if at_end:
            self.fix("cut", i, "cut after a colon")
            self.out.len = f.mark
            eng_close_all(self, n)
            return i
        if c == c',' or c == c'}':
            return eng_null_value(self, f, i)
        if c == c']':
            self.refuse(i, "']' where a value belongs")
        if c == c':':
            self.refuse(i, "two colons after a key")
        return eng_take_value(self, f, i)
    # S_AFTER
    j = eng_after_member(self, f, i, c, at_end, c'}', S_KEY_NEXT)
    if j >= 0:
        return j
    if c == c':':
        self.refuse(i, "a colon after a value")
    if c == c'`' and eng_at_text(self, i, b"```"):
        return eng_fence(self, i)
    if c == c'"' or c == c"'" or is_key_char(c):
        self.fix("comma", i, "missing comma added")
        f.state = S_KEY_NEXT
        return i
    if eng_at_ellipsis(self, i):
        f.state = S_KEY_NEXT
        return i
    self.refuse(i, "expected ',' or '}' after a member")

cdef Py_ssize_t eng_in_array(_Repairer self, Frame* f, int state, Py_ssize_t i, Py_UCS4 c, bint at_end) except -2 nogil:
    """One step inside an array or a tuple (before an element, after it)."""
    cdef Py_ssize_t j
    cdef Py_UCS4 closer = c')' if f.kind == F_TUP else c']'
    if state == S_VAL or state == S_KEY_FIRST:
        j = eng_at_member(self, i, c, at_end, state == S_VAL, closer)
        if j >= 0:
            return j
        if c == c',':
            self.fix("comma", i, "stray comma dropped")  # [1,,2] as {"a":1,,"b":2}
            return i + 1
        if c == c':':
            self.refuse(i, "a colon where a value belongs")
        if eng_at_ellipsis(self, i):
            return eng_ellipsis(self, i)
        if c == c'`' and eng_at_text(self, i, b"```"):
            return eng_fence(self, i)
        eng_member_start(self, f)
        return eng_take_value(self, f, i)
    # array S_AFTER
    j = eng_after_member(self, f, i, c, at_end, closer, S_VAL)
    if j >= 0:
        return j
    if c == c':':
        self.refuse(i, "a key inside an array")
    if c == c'`' and eng_at_text(self, i, b"```"):
        return eng_fence(self, i)
    if eng_at_ellipsis(self, i):
        f.state = S_VAL
        return i
    if c == c'0' and eng_digit_group(self, i):
        self.refuse(i, "digits after a number and a space: a digit group (1 000) or two "
                       "values, two readings")
    if (c == c'"' or c == c"'") and f.kind == F_TUP:  # ("a" "b": Python's one string "ab")
        self.refuse(i, "a string after another in parentheses, no comma between: Python joins "
                       "them into one string, or a comma is missing and they are a tuple's two; "
                       "two readings")
    if (c == c'"' or c == c"'" or c == c'{' or c == c'[' or c == c'+' or c == c'-'
            or c == c'.' or is_digit(c) or is_alpha(c)):
        self.fix("comma", i, "missing comma added")
        f.state = S_VAL
        return i
    self.refuse(i, "expected ',' or ']' after an element")

cdef str eng_run(_Repairer self):
    """The pass over the text (without the GIL past NOGIL_MIN characters: it
    touches no Python object), then the text it wrote."""
    if self.n >= NOGIL_MIN:
        with nogil:
            eng_pass(self)
    else:
        eng_pass(self)
    if self.oom:
        raise MemoryError()
    text = self.out_text(0)
    if self.stack[0].count > 1:
        text = "[" + text + "]"
    return text


cdef int eng_pass(_Repairer self) except -1 nogil:
    cdef Py_ssize_t n = self.n, i, j, e, top_mark = 0
    cdef Py_UCS4 c = 0
    cdef Frame* f
    cdef int kind, state
    cdef bint at_end, done
    cdef bint top_paren = False  # the value is in parentheses: nothing may follow it
    i = eng_start(self)
    eng_push(self, F_TOP)
    self.stack[0].state = S_VAL
    while True:
        f = &self.stack[self.depth - 1]
        kind = f.kind
        state = f.state
        if i < n:
            c = self.ch(i)
            if c == c' ' and i + 1 < n and c' ' < self.ch(i + 1) < 0x80 \
                    and self.ch(i + 1) != c'/' and self.ch(i + 1) != c'#':
                i += 1   # one plain space before a token: the common case
            elif c <= c' ' or c == c'/' or c == c'#' or c >= 0x80:
                i = self.skip(i, not (kind == F_OBJ and state == S_VAL))
        at_end = i >= n
        if not at_end:
            c = self.ch(i)
        if kind == F_TOP:
            if state == S_AFTER:
                if at_end:
                    break
                if top_paren:
                    self.refuse(i, "text after a value in parentheses: a tuple, or prose that "
                                   "starts with parentheses, two readings")
                if c == c'}' or c == c']':
                    self.fix_f("bracket", i, "extra '{c}' dropped", c, 0, 0, 0, NULL)
                    i += 1
                    continue
                if c == c',':
                    j = self.skip(i + 1, True)
                    if j >= n:
                        self.fix("comma", i, "comma after the document dropped")
                        break
                    i = j
                    c = self.ch(j)
                if c == c'{' or c == c'[':
                    self.fix("concatenated", i, "another value follows: the values as a list")
                    f.state = S_VAL
                    continue
                if c == c'"' or c == c"'" or c == c':' or c == c'-' or is_digit(c):
                    self.refuse(i, "unexpected text after the end of the value")
                if is_alpha(c) or c == c'_' or c == c'$':
                    if self.key_then_colon(i):
                        self.refuse(i, "a member after the end of the object")
                if trailing_ok(c):
                    j = eng_next_value(self, i)
                    if j < 0:
                        j = eng_quoted_member(self, i)
                        if j >= 0:  # ("He typed "} and left", "rm": true})
                            self.refuse(j, "text after the end of the value holds a member (a quoted "
                                           "key and a colon): the value may end later, a guess")
                        self.fix("prose", i, "text after the JSON dropped")
                        break
                    eng_no_reasoning_between(self, i, j)
                    # skipping is not deleting: the value after the prose is kept too
                    self.fix("prose", i, "text between the values dropped")
                    self.fix("concatenated", j, "another value follows: the values as a list")
                    f.state = S_VAL
                    i = j
                    continue
                self.refuse(i, "unexpected text after the end of the value")
            if at_end:
                self.refuse(i, "no JSON value in the text")
            if f.count:
                self.put(c',')
            top_paren = c == c'('
            j = eng_value(self, i, F_TOP)
            if j < 0:
                self.refuse(i, "no JSON value in the text")
            f = &self.stack[0]
            f.state = S_AFTER
            f.count += 1
            i = j
            continue
        if kind == F_OBJ:
            i = eng_in_object(self, f, state, i, c, at_end)
        else:
            i = eng_in_array(self, f, state, i, c, at_end)
    return 0




cdef object value_of(str text):
    """The value of the repaired text: orjson's (the engine never nests deeper
    than orjson reads), unless it would not be exact (integers beyond 64 bits)
    or orjson refuses it (a lone surrogate, a number beyond a double): then
    the exact reader's."""
    if not lossy_ints(text):
        try:
            return orjson_loads(text)
        except JSONDecodeError:
            pass
    return read_exact(text)


def repair_json(str s):
    """Repair ``s`` into JSON: ``(value, json_text, fixes)``, each fix a tuple
    ``(code, offset, message)``. Raises Refused (what and where) when no
    reading is safe. See the twin for the rules."""
    cdef _Repairer eng = _Repairer(s), inner
    cdef Py_ssize_t start
    cdef str text
    cdef list fixes
    eng.start_buffers()
    start = eng_start(eng)
    if double_encoded_at(eng, start):
        inner = _Repairer(_unescape_sub(_unescape_one, s[start:]))
        inner.start_buffers()
        inner.fix("double_encoded", start, "backslash-escaped JSON unescaped")
        text = eng_run(inner)
        fixes = eng.log() + inner.log()
    else:
        eng.nrec = 0
        eng.more = 0
        eng.nfix = 0
        text = eng_run(eng)
        fixes = eng.log()
    return value_of(text), text, fixes


cdef bint double_encoded_at(_Repairer eng, Py_ssize_t i) noexcept nogil:
    """[{ then any of whitespace [ {, then a backslash and a quote (the
    twin's _DOUBLE_ENCODED)."""
    cdef Py_ssize_t n = eng.n
    cdef Py_UCS4 c
    if i >= n or not (eng.ch(i) == c'{' or eng.ch(i) == c'['):
        return False
    i += 1
    while i < n:
        c = eng.ch(i)
        if not (Py_UNICODE_ISSPACE(c) or c == c'[' or c == c'{'):
            break
        i += 1
    return i + 1 < n and eng.ch(i) == c'\\' and eng.ch(i + 1) == c'"'


import re as _re

_unescape_sub = _re.compile(r"\\(.)", _re.S).sub


def _unescape_one(m):
    e = m.group(1)
    return e if e in "\"\\/" else m.group(0)
