# The scanner half of the compiled repair engine: its state (the _Repairer class) and the
# tokens it reads at an offset (whitespace and comments, strings, numbers, bare words,
# MongoDB calls), each written out with the repairs it needs logged. Included by
# _recover.pyx; the engine itself is _recover_repair.pxi. Twin: _kernels/_recover_tokens.py.
# ---------------------------------------------------------------------------
# The repair engine (after the seven strategies): one pass over the text with an explicit
# stack of frames; it writes the repaired JSON text straight into a buffer (the value is then
# parsed from it by orjson, or by the exact reader where orjson would not be exact) and logs
# what it changed. Same rules, messages and offsets as the twin (_recover_repair.py).

cdef enum:
    F_OBJ = 0
    F_ARR = 1
    F_TOP = 2
    F_TUP = 4      # a Python tuple: an array closed by ')' (3 is a call's context)
    S_KEY_FIRST = 0
    S_KEY_NEXT = 1
    S_COLON = 2
    S_VAL = 3
    S_AFTER = 4
    CTX_KEY = -1
    CTX_CALL = 3
    LOOK = 256
    MAX_FIXES = 100
    MAX_DIGITS = 4300

cdef tuple MONGO_STR = ("ObjectId", "ISODate", "UUID", "Date", "Timestamp")
cdef tuple MONGO_NUM = ("NumberLong", "NumberInt", "NumberDecimal")
# The words a literal cut at the end of the text may be the start of, and their
# JSON; the words that may stand alone as the whole text.
cdef const char* CUT_WORDS[5]
cdef const char* CUT_JSON[5]
cdef const char* TOP_WORDS[8]
CUT_WORDS[:] = [b"true", b"false", b"null", b"none", b"undefined"]
CUT_JSON[:] = [b"true", b"false", b"null", b"null", b"null"]
TOP_WORDS[:] = [b"nan", b"infinity", b"inf", b"true", b"false", b"null", b"none", b"undefined"]

cdef struct Frame:
    int kind
    int state
    Py_ssize_t count
    Py_ssize_t mark   # buffer length before the member or element being written


@cython.final
cdef class _Repairer:
    # The pass reads and writes these fields at every character, without the
    # GIL, while another thread may write the objects next to this one in the
    # allocator's pool (two threads' engines are often neighbours): the pads
    # keep them off any cache line (or adjacent-line pair) shared with another
    # object. Never read or written.
    cdef char _pad_head[PAD]
    cdef str s
    cdef int kind
    cdef void* data
    cdef Py_ssize_t n
    cdef FixRec* recs         # the log, turned into tuples by log()
    cdef Py_ssize_t nrec, reccap
    cdef Py_ssize_t more, more_at, nfix
    cdef Out out
    cdef Frame* stack
    cdef Py_ssize_t depth, cap
    cdef bint complete, key_struct, oom
    # the last searches for '{' and '[' (next_opener): where each began, what each found
    cdef Py_ssize_t seek_from[2]
    cdef Py_ssize_t seek_at[2]
    # where the last string holding unescaped quotes ended at a comma (-1: none), and its frame
    cdef Py_ssize_t split_end, stray_closer  # (stray_closer: where a closer no container takes went)
    cdef int split_ctx
    cdef char _pad_tail[PAD]

    def __cinit__(self, str s):
        self.s = s
        self.kind = PyUnicode_KIND(s)
        self.data = PyUnicode_DATA(s)
        self.n = len(s)
        self.recs = NULL
        self.nrec = 0
        self.reccap = 0
        self.more = 0
        self.more_at = 0
        self.nfix = 0
        self.out.data = NULL
        self.stack = NULL
        self.depth = 0
        self.cap = 0
        self.oom = False
        self.seek_from[0] = self.seek_from[1] = self.n + 1  # no search made yet
        self.seek_at[0] = self.seek_at[1] = -1
        self.split_end = self.stray_closer = -1
        self.split_ctx = F_OBJ

    def __dealloc__(self):
        PyMem_RawFree(self.out.data)
        PyMem_RawFree(self.stack)
        PyMem_RawFree(self.recs)

    cdef inline Py_UCS4 ch(self, Py_ssize_t i) noexcept nogil:
        return PyUnicode_READ(self.kind, self.data, i)

    cdef int start_buffers(self) except -1:
        """The output (one byte a character for Latin-1 text: most texts), the
        stack and the log, allocated without the GIL's allocator so that the
        pass can grow them without it."""
        cdef Py_ssize_t cap = self.n + 16
        self.out.wide = self.kind != PyUnicode_1BYTE_KIND
        self.out.data = PyMem_RawMalloc(cap * (sizeof(Py_UCS4) if self.out.wide else 1))
        self.out.cap = cap
        self.out.len = 0
        self.cap = 64
        self.stack = <Frame*>PyMem_RawMalloc(self.cap * sizeof(Frame))
        self.reccap = MAX_FIXES + 4
        self.recs = <FixRec*>PyMem_RawMalloc(self.reccap * sizeof(FixRec))
        if self.out.data == NULL or self.stack == NULL or self.recs == NULL:
            raise MemoryError()
        return 0

    cdef inline int fix(self, const char* code, Py_ssize_t pos, const char* message) noexcept nogil:
        cdef FixRec* r = self.fix_rec(code, pos)
        if r != NULL:
            r.message = message
            r.form = False
        return 0

    cdef int fix_f(self, const char* code, Py_ssize_t pos, const char* template, Py_UCS4 c,
                   Py_UCS4 d, Py_ssize_t a, Py_ssize_t b, const char* t) noexcept nogil:
        """A fix whose message is ``template`` filled in by log() (see FixRec)."""
        cdef FixRec* r = self.fix_rec(code, pos)
        if r != NULL:
            r.message = template
            r.form = True
            r.c = c
            r.d = d
            r.a = a
            r.b = b
            r.t = t
        return 0

    cdef FixRec* fix_rec(self, const char* code, Py_ssize_t pos) noexcept nogil:
        """The log's next entry, or NULL when it is not listed: past MAX_FIXES
        only counted (where the text was cut is always kept)."""
        cdef FixRec* grown
        if self.nfix >= MAX_FIXES and not (code[0] == c'c' and code[1] == c'u' and code[2] == c't'
                                           and code[3] == 0):
            if not self.more:
                self.more_at = pos
            self.more += 1
            return NULL
        if self.nrec == self.reccap:
            grown = <FixRec*>PyMem_RawRealloc(self.recs, 2 * self.reccap * sizeof(FixRec))
            if grown == NULL:
                self.oom = True
                return NULL
            self.recs = grown
            self.reccap *= 2
        self.nfix += 1
        self.recs[self.nrec].code = code
        self.recs[self.nrec].pos = pos
        self.nrec += 1
        return &self.recs[self.nrec - 1]

    cdef inline bint full(self) noexcept nogil:
        return self.nfix >= MAX_FIXES

    cdef list log(self):
        cdef list fixes = []
        cdef FixRec* r
        cdef object message
        cdef Py_ssize_t k
        for k in range(self.nrec):
            r = &self.recs[k]
            message = None
            if r.message != NULL:
                message = r.message.decode("utf-8")
                if r.form:
                    message = message.format(c=chr(r.c), d=chr(r.d), n=r.a, span=self.s[r.a:r.b],
                                             t=None if r.t == NULL else r.t.decode("utf-8"))
            fixes.append((r.code.decode("utf-8"), r.pos, message))
        if self.more:
            fixes.append(("more", self.more_at, f"{self.more} more fixes not listed"))
        return fixes

    cdef int refuse(self, Py_ssize_t pos, const char* what) except -1 nogil:
        return refused(pos, what)

    cdef int refuse_f(self, Py_ssize_t pos, const char* template, Py_UCS4 c, Py_ssize_t a,
                      Py_ssize_t b) except -1 with gil:
        """A refusal whose message is ``template`` filled in (c, span: see FixRec)."""
        raise Refused(pos, template.decode("utf-8").format(c=chr(c), span=self.s[a:b]))

    # -- whitespace and comments
    cdef Py_ssize_t ws(self, Py_ssize_t i) noexcept nogil:
        cdef Py_UCS4 c
        while i < self.n:
            c = self.ch(i)
            if not (Py_UNICODE_ISSPACE(c) or is_odd_space(c)):
                break
            i += 1
        return i

    cdef Py_ssize_t find_char(self, Py_UCS4 c, Py_ssize_t i) noexcept nogil:
        while i < self.n:
            if self.ch(i) == c:
                return i
            i += 1
        return -1

    cdef Py_ssize_t next_opener(self, Py_UCS4 c, Py_ssize_t i) noexcept nogil:
        """find_char(c, i) for c '{' or '[', answered from the last search for
        c while that answer holds (it was made from i or before, and found c at
        i or after, or found none): a search after each of many values would
        otherwise read to the end each time when c does not come again
        (quadratic); this way each character is read once a pass."""
        cdef int k = c == c'['
        cdef Py_ssize_t at = self.seek_at[k]
        if self.seek_from[k] <= i and (at < 0 or at >= i):
            return at
        at = self.find_char(c, i)
        self.seek_from[k] = i
        self.seek_at[k] = at
        return at

    cdef Py_ssize_t skip(self, Py_ssize_t i, bint hash_ok) except -2 nogil:
        cdef Py_ssize_t j, k, n = self.n
        cdef Py_UCS4 c
        cdef bint odd
        while True:
            j = i
            odd = False
            while j < n:
                c = self.ch(j)
                if c == c' ' or c == c'\n' or c == c'\r' or c == c'\t':
                    j += 1
                elif Py_UNICODE_ISSPACE(c) or is_odd_space(c):
                    odd = True
                    j += 1
                else:
                    break
            if odd:
                self.fix("whitespace", i, "odd whitespace treated as a space")
            i = j
            if i >= n:
                return i
            c = self.ch(i)
            if c == c'/' and i + 1 < n and self.ch(i + 1) == c'/':
                k = self.line_end(i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            elif c == c'/' and i + 1 < n and self.ch(i + 1) == c'*':
                k = i + 2
                while k + 1 < n and not (self.ch(k) == c'*' and self.ch(k + 1) == c'/'):
                    k += 1
                self.fix("comment", i, "comment removed")
                i = n if k + 1 >= n else k + 2
            elif c == c'#' and hash_ok:
                k = self.line_end(i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            else:
                return i

    cdef Py_ssize_t line_end(self, Py_ssize_t i) noexcept nogil:
        """Where the line at i ends (its \\n or \\r), or -1."""
        cdef Py_UCS4 c
        while i < self.n:
            c = self.ch(i)
            if c == c'\n' or c == c'\r':
                return i
            i += 1
        return -1

    cdef Py_ssize_t key_end(self, Py_ssize_t i) noexcept nogil:
        while i < self.n and is_key_char(self.ch(i)):
            i += 1
        return i

    cdef bint key_then_colon(self, Py_ssize_t i) noexcept nogil:
        """A bare key at i, then (after whitespace) a colon."""
        cdef Py_ssize_t e = self.key_end(i)
        if e == i:
            return False
        e = self.ws(e)
        return e < self.n and self.ch(e) == c':'

    # -- strings
    cdef bint closes(self, Py_ssize_t i, int ctx) noexcept nogil:
        cdef Py_ssize_t n = self.n, j, k, end, lim
        cdef Py_UCS4 c, d, q
        if ctx == CTX_KEY:
            return True
        j = self.ws(i)
        if j >= n:
            return True
        c = self.ch(j)
        if ctx == CTX_CALL:
            return c == c')'
        if ctx == F_TOP:
            return eng_closes_top(self, j, self.ch(i - 1))
        if ctx == F_TUP:  # inside a tuple: as in an array, and ')' closes too
            if c == c')':
                return True
            ctx = F_ARR
        if c == c'}' or c == c']' or c == c':':
            return True
        if c == c',':
            k = self.ws(j + 1)
            if k >= n:
                return True
            if ctx == F_ARR:
                return True
            d = self.ch(k)
            if d == c'"' or d == c"'" or d == c'}' or d == c'/' or d == c'#' or d == c'.' \
                    or d == c'[' or d == c'{' or d == c',':
                return True
            return self.key_then_colon(k)
        if c == c'+' or (c == c'`' and eng_at_text(self, j, b"```")):  # a join; the closing fence
            return True
        if c == c'/' and j + 1 < n and (self.ch(j + 1) == c'/' or self.ch(j + 1) == c'*'):
            return True
        if c == c'"' or c == c"'":
            if ctx == F_ARR:
                return j > i
            lim = j + LOOK if j + LOOK < n else n
            end = j + 1
            while end < lim and self.ch(end) != c:
                end += 1
            if end >= lim:
                return False
            for k in range(j + 1, end):
                if self.ch(k) == c'\n':
                    return False
            k = self.ws(end + 1)
            if k >= n:
                return False
            d = self.ch(k)
            return d == c':' or d == c'{' or d == c'['
        if ctx == F_ARR and (c == c'{' or c == c'[') and j > i:
            return True
        if ctx == F_ARR and j > i and (is_digit(c) or c == c'-'):  # ["a" 1]: a comma is missing
            k = self.ws(self.number_end(j))
            return k >= n or self.ch(k) == c',' or self.ch(k) == c']'
        return False

    cdef inline int put(self, Py_UCS4 c) noexcept nogil:
        cdef Py_ssize_t k = self.out.len
        if k < self.out.cap and not self.out.wide and c < 256:  # the common case, inlined
            (<unsigned char*>self.out.data)[k] = <unsigned char>c
            self.out.len = k + 1
            return 0
        return self.put_slow(c)

    cdef int put_slow(self, Py_UCS4 c) noexcept nogil:
        """put() when the buffer is full, wide, or c is beyond Latin-1."""
        if self.out.len == self.out.cap and not self.grow():
            return 0
        if self.out.wide:
            (<Py_UCS4*>self.out.data)[self.out.len] = c
        elif c < 256:
            (<unsigned char*>self.out.data)[self.out.len] = <unsigned char>c
        elif self.widen():
            (<Py_UCS4*>self.out.data)[self.out.len] = c
        else:
            return 0
        self.out.len += 1
        return 0

    cdef bint grow(self) noexcept nogil:
        """Double the output buffer; False (and ``oom`` set) when memory ran out."""
        cdef void* data = PyMem_RawRealloc(self.out.data, 2 * self.out.cap * (
            sizeof(Py_UCS4) if self.out.wide else 1))
        if data == NULL:
            self.oom = True
            return False
        self.out.data = data
        self.out.cap *= 2
        return True

    cdef bint widen(self) noexcept nogil:
        """A character beyond Latin-1 comes: the output becomes Py_UCS4."""
        cdef Py_UCS4* data = <Py_UCS4*>PyMem_RawMalloc(self.out.cap * sizeof(Py_UCS4))
        cdef unsigned char* narrow = <unsigned char*>self.out.data
        cdef Py_ssize_t k
        if data == NULL:
            self.oom = True
            return False
        for k in range(self.out.len):
            data[k] = narrow[k]
        PyMem_RawFree(narrow)
        self.out.data = data
        self.out.wide = True
        return True

    cdef str out_text(self, Py_ssize_t start):
        """The output from ``start`` on, as a str."""
        if self.out.wide:
            return <str>PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, <Py_UCS4*>self.out.data + start,
                                                  self.out.len - start)
        return <str>PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND,
                                              <unsigned char*>self.out.data + start, self.out.len - start)

    cdef int put_ascii(self, const char* text) noexcept nogil:
        cdef Py_ssize_t k = 0
        while text[k] != 0:
            self.put(<Py_UCS4>text[k])
            k += 1
        return 0

    cdef int put_char(self, Py_UCS4 c) noexcept nogil:
        """One character of a string's content, JSON-escaped."""
        cdef const char* hexdigits = b"0123456789abcdef"
        cdef unsigned int code
        if c == c':' or c == c'}' or c == c'{' or c == c',':
            self.key_struct = True
        if c == c'"' or c == c'\\':
            self.put(c'\\')
            self.put(c)
        elif c >= 0x20 and not (0xD800 <= c <= 0xDFFF):
            self.put(c)
        elif c == c'\n':
            self.put_ascii(b"\\n")
        elif c == c'\r':
            self.put_ascii(b"\\r")
        elif c == c'\t':
            self.put_ascii(b"\\t")
        elif c == 8:
            self.put_ascii(b"\\b")
        elif c == 12:
            self.put_ascii(b"\\f")
        else:
            code = <unsigned int>c
            self.put_ascii(b"\\u")
            self.put(hexdigits[(code >> 12) & 15])
            self.put(hexdigits[(code >> 8) & 15])
            self.put(hexdigits[(code >> 4) & 15])
            self.put(hexdigits[code & 15])
        return 0

    cdef int hex4_at(self, Py_ssize_t i) noexcept nogil:
        cdef int v = 0, d, k
        if i + 4 > self.n:
            return -1
        for k in range(4):
            d = hexval(self.ch(i + k))
            if d < 0:
                return -1
            v = v * 16 + d
        return v

    cdef Py_ssize_t string_body(self, Py_ssize_t i, int ctx) except -2 nogil:
        """s[i] opens a string: write its content (escaped, no quotes); return
        the index past it; self.complete says whether it was closed."""
        cdef Py_ssize_t n = self.n, j = i + 1, k
        cdef Py_UCS4 q = self.ch(i), c, e
        cdef int code, low
        cdef bint cut
        cdef bint inner = False
        cdef bint kept = False, letter = False  # a backslash kept as text, one read as a control (or \\)
        if ctx != CTX_KEY and i + 3 < n and self.ch(i + 1) == q and self.ch(i + 2) == q and self.ch(i + 3) != q:
            self.refuse(i, "a Python triple-quoted string, not JSON: where its text ends is a guess")
        while True:
            # a run of plain characters, copied without per-character calls
            while self.out.cap - self.out.len < n - j:
                if not self.grow():
                    no_memory()
            if self.out.wide:
                j = plain_run(self, <Py_UCS4*>self.out.data, j, q, ctx)
            else:
                j = plain_run(self, <latin1*>self.out.data, j, q, ctx)
            if j >= n:
                if inner:
                    self.refuse(i, "a string with unescaped quotes in it runs to the end: "
                                   "where it ends is not known")
                self.fix("cut", i, "cut inside a key" if ctx == CTX_KEY else "cut inside a string")
                self.complete = False
                return n
            c = self.ch(j)
            if c == c'\\':
                if j + 1 >= n:
                    self.fix("cut", j, "cut inside an escape")
                    self.complete = False
                    return n
                e = self.ch(j + 1)
                if e == c'u':
                    code = self.hex4_at(j + 2)
                    if code >= 0:
                        k = j + 6
                        if 0xD800 <= code < 0xDC00 and k + 1 < n and self.ch(k) == c'\\' \
                                and self.ch(k + 1) == c'u':
                            low = self.hex4_at(k + 2)
                            if 0xDC00 <= low < 0xE000:
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                                k += 6
                        self.put_char(<Py_UCS4>code)
                        j = k
                        continue
                    if j + 6 > n:
                        cut = True
                        for k in range(j + 2, n):
                            if hexval(self.ch(k)) < 0:
                                cut = False
                                break
                        if cut:
                            self.fix("cut", j, "cut inside an escape")
                            self.complete = False
                            return n
                    self.put_char(c'\\')
                    self.put_char(c'u')
                    self.fix("escape", j, "invalid escape kept as a backslash")
                    kept = True
                elif e == c'"' or e == c'\\' or e == c'/' or e == c"'":
                    self.put_char(e)
                    if e == c"'" and q == c'"':  # not a JSON escape: the text changes
                        self.fix("escape", j, "\\' read as ' (not a JSON escape)")
                elif e == c'b':
                    self.put_char(8)
                elif e == c'f':
                    self.put_char(12)
                elif e == c'n':
                    self.put_char(c'\n')
                elif e == c'r':
                    self.put_char(c'\r')
                elif e == c't':
                    self.put_char(c'\t')
                else:
                    self.put_char(c'\\')
                    self.put_char(e)
                    self.fix("escape", j, "invalid escape kept as a backslash")
                    kept = True
                letter = letter or e == c'b' or e == c'f' or e == c'n' or e == c'r' or e == c't' \
                    or e == c'\\'
                if kept and letter:
                    self.refuse(i, MIXED_ESCAPES)
                j += 2
            elif c == q:
                if self.closes(j + 1, ctx):
                    if inner and (ctx == F_OBJ or ctx == F_ARR or ctx == F_TUP):
                        k = self.ws(j + 1)
                        if k >= n:  # the text ends there, its container open: cut, maybe before its end
                            self.fix("cut", i, "cut inside a string (its last quote may be one of the "
                                               "unescaped ones it holds)")
                            self.complete = False
                            return n
                        if self.ch(k) == c',' or (ctx != F_OBJ and (self.ch(k) == c'"' or self.ch(k) == c"'")):
                            self.split_end = j + 1  # (in an array, the comma missing)
                            self.split_ctx = ctx
                    self.complete = True
                    return j + 1
                if q == c"'" and j > i + 1 and j + 1 < n and self.ch(j + 1) == q and not self.closes(j + 2, ctx):
                    self.refuse(j, DOUBLED_QUOTE)
                if ((ctx == F_OBJ and not inner) or ctx == F_ARR) and eng_missing_close(self, i, j, ctx):
                    self.complete = True
                    return eng_comma_before(self, i, j)
                self.put_char(q)
                if not inner and self.split_end >= 0 and eng_separator_only(self, self.split_end, i):
                    self.refuse(self.split_end - 1, SPLIT_QUOTES)
                inner = True
                self.fix("inner_quote", j, "quote inside a string escaped")
                j += 1
            elif c < 0x20:
                self.put_char(c)
                self.fix("control", j, "control character inside a string escaped")
                j += 1
            else:
                self.put_char(c)
                j += 1

    # -- scalars
    cdef Py_ssize_t number_end(self, Py_ssize_t i) noexcept nogil:
        """The end of the longest number form at i (the twin's _NUMBER)."""
        cdef Py_ssize_t n = self.n, j = i, k
        cdef Py_UCS4 c
        if j < n and (self.ch(j) == c'+' or self.ch(j) == c'-'):
            j += 1
        if j + 2 < n and self.ch(j) == c'0' and (self.ch(j + 1) == c'x' or self.ch(j + 1) == c'X') \
                and hexval(self.ch(j + 2)) >= 0:
            k = j + 2
            while True:
                while k < n and hexval(self.ch(k)) >= 0:
                    k += 1
                if k + 1 < n and self.ch(k) == c'_' and hexval(self.ch(k + 1)) >= 0:
                    k += 1
                    continue
                return k
        j = self.digits_end(j)
        if j < n and self.ch(j) == c'.':
            j = self.digits_end(j + 1)
        if j < n and (self.ch(j) == c'e' or self.ch(j) == c'E'):
            j += 1
            if j < n and (self.ch(j) == c'+' or self.ch(j) == c'-'):
                j += 1
            while j < n and is_digit(self.ch(j)):
                j += 1
        return j

    cdef Py_ssize_t digits_end(self, Py_ssize_t j) noexcept nogil:
        """[0-9]+(_[0-9]+)* at j, or j."""
        cdef Py_ssize_t n = self.n
        if j >= n or not is_digit(self.ch(j)):
            return j
        while True:
            while j < n and is_digit(self.ch(j)):
                j += 1
            if j + 1 < n and self.ch(j) == c'_' and is_digit(self.ch(j + 1)):
                j += 1
                continue
            return j

    cdef Py_ssize_t number(self, Py_ssize_t i) except -2 nogil:
        """Write the number form at i as JSON; return its end, or -1 when it is
        cut before its first digit (the value is dropped)."""
        cdef Py_ssize_t n = self.n, end = self.number_end(i), j, k, ips, ipe, fps, fpe, es
        cdef Py_ssize_t nd = 0, start = self.out.len
        cdef Py_UCS4 c
        cdef bint neg = False, dot = False, has_exp = False, cut, underscores = False
        cdef bint exp_digits = False
        if end < n:
            c = self.ch(end)
            if is_alnum(c) or c == c'_' or c == c'.' or c == c'$':
                self.refuse(i, "a bare word where a value belongs")
        if eng_leading_zeros(self, i, end):
            return end
        j = i
        c = self.ch(j)
        if c == c'+' or c == c'-':
            neg = c == c'-'
            if c == c'+':
                self.fix("number", i, "'+' sign dropped")
            j += 1
        for k in range(j, end):
            if self.ch(k) == c'_':
                underscores = True
                break
        if underscores:
            self.fix("number", i, "digit separators dropped")
        if j + 1 < end and self.ch(j) == c'0' and (self.ch(j + 1) == c'x' or self.ch(j + 1) == c'X'):
            if end >= n:
                self.fix("cut", i, "cut inside a number")
            return self.hex_number(i, j, end, neg)
        # integer part, fraction, exponent (underscores skipped)
        ips = j
        while j < end and (is_digit(self.ch(j)) or self.ch(j) == c'_'):
            j += 1
        ipe = j
        fps = fpe = j
        if j < end and self.ch(j) == c'.':
            dot = True
            j += 1
            fps = j
            while j < end and (is_digit(self.ch(j)) or self.ch(j) == c'_'):
                j += 1
            fpe = j
        es = j
        if j < end and (self.ch(j) == c'e' or self.ch(j) == c'E'):
            has_exp = True
            for k in range(j + 1, end):
                if is_digit(self.ch(k)):
                    exp_digits = True
        if ipe == ips and fpe == fps:
            if end >= n:
                return -1
            self.refuse(i, "a number with no digits")
        cut = end >= n
        if cut:
            self.fix("cut", i, "cut inside a number")
        if has_exp and not exp_digits:
            if not cut:
                self.refuse(i, "a number with an empty exponent")
            self.fix("truncated", i, "cut exponent dropped")
            has_exp = False
        if neg:
            self.put(c'-')
        if ipe == ips:
            self.put(c'0')
            self.fix("number", i, "leading zero added")
        else:
            k = ips
            nd = self.digit_count(k, ipe)
            if nd > MAX_DIGITS and not dot and not has_exp:
                self.refuse(i, "an integer too long to convert")
            self.put_digits(k, ipe)
        if dot:
            if fpe == fps:
                if cut and not has_exp:
                    self.fix("truncated", i, "cut decimal point dropped")
                    dot = False
                else:
                    self.put_ascii(b".0")
                    self.fix("number", i, "zero added after the decimal point")
            else:
                self.put(c'.')
                self.put_digits(fps, fpe)
        if has_exp:
            self.put(c'e')
            for k in range(es + 1, end):
                self.put(self.ch(k))
        if has_exp or (dot and nd > 308):  # (an integer is exact at any size: no double)
            eng_beyond_double(self, i, end, start)
        return end

    cdef Py_ssize_t hex_number(self, Py_ssize_t i, Py_ssize_t j, Py_ssize_t end,
                               bint neg) except -2 with gil:
        """The hexadecimal number at i (its digits from j + 2 to end) written in
        decimal: Python's int does it (a rare form)."""
        cdef str body = self.s[j + 2:end].replace("_", "")
        cdef Py_UCS4 c
        if len(body) + 2 > MAX_DIGITS // 2:
            self.refuse(i, "an integer too long to convert")
        self.fix("number", i, "hexadecimal number written in decimal")
        body = str(int(body, 16) * (-1 if neg else 1))
        for c in body:
            self.put(c)
        return end

    cdef Py_ssize_t digit_count(self, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        cdef Py_ssize_t k, m = 0
        for k in range(a, b):
            if self.ch(k) != c'_':
                m += 1
        return m

    cdef int put_digits(self, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        cdef Py_ssize_t k
        cdef Py_UCS4 c
        for k in range(a, b):
            c = self.ch(k)
            if c != c'_':
                self.put(c)
        return 0

    cdef Py_ssize_t word(self, Py_ssize_t i, int ctx) except -2 nogil:
        """A bare word at i: a literal, NaN/Infinity, a MongoDB call."""
        cdef Py_ssize_t n = self.n, j = i, end, k
        cdef bint sign = False
        cdef const char* text
        cdef int w
        cdef Py_UCS4 c
        c = self.ch(i)
        if c == c'+' or c == c'-':
            sign = True
            j += 1
        if j >= n or not is_ident_start(self.ch(j)):
            self.refuse(i, "unexpected character where a value belongs")
        end = j + 1
        while end < n and (is_word(self.ch(end)) or self.ch(end) == c'$'):
            end += 1
        # the common words compared in place (no string built for them)
        if not sign:
            text = NULL
            if self.same_word(j, end, b"true", True):
                text = "true"
            elif self.same_word(j, end, b"false", True):
                text = "false"
            elif self.same_word(j, end, b"null", True) or self.same_word(j, end, b"none", True) \
                    or self.same_word(j, end, b"undefined", True):
                text = "null"
            if text != NULL:
                if not self.same_word(j, end, text, False):
                    self.fix_f("literal", i, "{span} written as {t}", 0, 0, j, end, text)
                self.put_ascii(text)
                return end
        if self.same_word(j, end, b"nan", True) or self.same_word(j, end, b"infinity", True) \
                or self.same_word(j, end, b"inf", True):
            self.fix_f("nan", i, "{span} written as null", 0, 0, i, end, NULL)
            if end >= n and ctx != F_TOP:  # (Inf ending an open value: Info, Infra cut as well)
                self.fix("cut", i, "cut inside a word")
            self.put_ascii(b"null")
            return end
        if not sign and end >= n:
            for w in range(5):
                if self.starts_word(j, end, CUT_WORDS[w]):
                    self.fix("cut", i, "cut inside a literal")
                    self.put_ascii(CUT_JSON[w])
                    return end
        k = self.ws(end)
        if not sign and k < n and self.ch(k) == c'(':
            k = self.mongo(i, end, k + 1)
            if k >= 0:
                return k
        if not sign and (ctx == F_OBJ or ctx == F_ARR):
            # one word alone, as an object literal would read it
            k = end
            while k < n and (self.ch(k) == c' ' or self.ch(k) == c'\t'):
                k += 1
            if k >= n or self.ch(k) == c',' or self.ch(k) == c'}' or self.ch(k) == c']' \
                    or self.ch(k) == c'\n' or self.ch(k) == c'\r':
                if k >= n:  # (a space after it, then the end: more words may have followed)
                    self.fix("cut", i, "cut inside a word")
                self.fix_f("word", i, "bare word {span!r} written as a string", 0, 0, j, end, NULL)
                self.put(c'"')
                for k in range(j, end):
                    self.put(self.ch(k))
                self.put(c'"')
                return end
            if self.ws(end) < n and self.ch(self.ws(end)) == c'(':
                self.refuse(i, "a call where a value belongs: code, not data")
            if k > end or self.ch(end) == c"'":  # another word after a space; it's
                return eng_words(self, i, ctx)
        self.refuse(i, "a bare word where a value belongs")
        return -2

    cdef bint top_word(self, Py_ssize_t a, Py_ssize_t b, bint signed) noexcept nogil:
        """Whether s[a:b] is, in any case, a word that may be the whole text
        (after a sign, only NaN and the infinities: the first three)."""
        cdef int w
        for w in range(3 if signed else 8):
            if self.same_word(a, b, TOP_WORDS[w], True):
                return True
        return False

    cdef bint starts_word(self, Py_ssize_t a, Py_ssize_t b, const char* word) noexcept nogil:
        """Whether ``word`` (ASCII, lower case) starts with s[a:b] in lower case."""
        cdef Py_ssize_t k = 0
        cdef Py_UCS4 c
        while a + k < b:
            if word[k] == 0:
                return False
            c = self.ch(a + k)
            if c'A' <= c <= c'Z':
                c = <Py_UCS4>(<unsigned int>c + 32)
            if c != <Py_UCS4>word[k]:
                return False
            k += 1
        return True

    cdef Py_ssize_t mongo(self, Py_ssize_t i, Py_ssize_t end, Py_ssize_t j) except -2 with gil:
        """The word at i (to end) before a '(' (at j - 1): the MongoDB call's
        value, or -1 when the word names none (a rare form: read with the GIL)."""
        cdef str w = self.s[i:end]
        if w in MONGO_STR or w in MONGO_NUM:
            return self.call(i, w, j)
        return -1

    cdef bint same_word(self, Py_ssize_t a, Py_ssize_t b, const char* word, bint fold) noexcept nogil:
        """Whether s[a:b] is ``word`` (ASCII; ``fold``: in any case)."""
        cdef Py_ssize_t k = 0
        cdef Py_UCS4 c
        while a + k < b:
            if word[k] == 0:
                return False
            c = self.ch(a + k)
            if fold and c'A' <= c <= c'Z':
                c = <Py_UCS4>(<unsigned int>c + 32)
            if c != <Py_UCS4>word[k]:
                return False
            k += 1
        return word[k] == 0

    cdef int put_text(self, str text) except -1:
        cdef Py_UCS4 c
        for c in text:
            self.put(c)
        return 0

    cdef Py_ssize_t call(self, Py_ssize_t i, str name, Py_ssize_t j) except -2:
        """ObjectId("..."), NumberLong(5), ...: the value inside."""
        cdef Py_ssize_t n = self.n, mark = self.out.len, start
        cdef Py_UCS4 c
        cdef bint numeric = name in MONGO_NUM
        cdef bint not_number = False, not_string = False
        cdef str arg
        j = self.skip(j, True)
        if j >= n:
            refused_s(i, f"unclosed {name}(")
        c = self.ch(j)
        if c == c'"' or c == c"'":
            if not numeric:
                self.put(c'"')
            start = self.out.len
            j = self.string_body(j, CTX_CALL)
            if not self.complete:
                refused_s(i, f"unclosed {name}(")
            if numeric:
                arg = self.out_text(start)
                self.out.len = mark
                arg = arg.strip()
                if is_json_number(arg):
                    self.put_text(arg)
                else:
                    not_number = True
            else:
                self.put(c'"')
        elif c == c'+' or c == c'-' or is_digit(c):
            j = self.number(j)
            if j < 0:
                refused_s(i, f"unclosed {name}(")
            not_string = not numeric
        else:
            refused_s(j, f"{name}( takes a string or a number")
        j = self.skip(j, True)
        if j >= n or self.ch(j) != c')':
            refused_s(j, f"expected ')' to close {name}(")
        self.fix_f("mongo", i, "{span}(...) written as its value", 0, 0, i, i + len(name), NULL)
        if not_number:
            refused_s(i, f"{name}( of something that is not a number")
        if not_string:
            refused_s(i, f"{name}( of a number")
        return j + 1

    # -- the document
