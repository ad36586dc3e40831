# The character classes of the compiled recovery kernel's scanners, inline C
# with the ASCII answer first. Included by _recover.pyx. No twin file: the
# pure twin asks str methods (isalnum, isalpha, isspace) and the tables of
# toolmend._text, which the curly-quote classes here spell out.


# The curly-quote table of toolmend._text (CURLY_DOUBLE, CURLY_SINGLE), in C.
cdef inline bint is_curly_double(Py_UCS4 c) noexcept nogil:
    return c == 0x201C or c == 0x201D or c == 0x2033


cdef inline bint is_curly_single(Py_UCS4 c) noexcept nogil:
    return c == 0x2018 or c == 0x2019 or c == 0x2032


# toolmend._text.OTHER_QUOTES: German low-high („, closed by “ or ”) and the
# guillemets in both directions, each standing for ".
cdef inline bint is_other_quote(Py_UCS4 c) noexcept nogil:
    return c == 0x201E or c == 0x00AB or c == 0x00BB or c == 0x2039 or c == 0x203A


cdef bint holds_opening_quote(str s):
    """Whether ``s`` holds a quote that opens a quotation (the twin's _OPENING_QUOTES): a string
    holding one the curly-quote step left open is refused by recovery."""
    cdef Py_UCS4 c
    if PyUnicode_IS_ASCII(s):
        return False
    for c in s:
        if c == 0x201C or c == 0x201E or c == 0x2018 or c == 0x00AB or c == 0x00BB or c == 0x2039 \
                or c == 0x203A:
            return True
    return False


cdef inline bint closes_quote(Py_UCS4 opener, Py_UCS4 c) noexcept nogil:
    """Whether ``c`` is a quote that closes the string ``opener`` opened."""
    if opener == 0x00AB:
        return c == 0x00BB
    if opener == 0x00BB:
        return c == 0x00AB
    if opener == 0x2039:
        return c == 0x203A
    if opener == 0x203A:
        return c == 0x2039
    if opener == 0x201E:
        return c == 0x201C or c == 0x201D
    if is_curly_single(opener):
        return is_curly_single(c)
    return is_curly_double(c)


cdef inline bint is_ident_start(Py_UCS4 c) noexcept nogil:
    return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or c == c'_' or c == c'$'


cdef inline bint is_alnum(Py_UCS4 c) noexcept nogil:
    """str.isalnum, with the ASCII answer inline."""
    if c < 128:
        return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or (c'0' <= c <= c'9')
    return Py_UNICODE_ISALNUM(c)


cdef inline bint is_json_ws(Py_UCS4 c) noexcept nogil:
    return c == c' ' or c == c'\t' or c == c'\r' or c == c'\n'


cdef inline bint is_alpha(Py_UCS4 c) noexcept nogil:
    """str.isalpha, with the ASCII answer inline."""
    if c < 128:
        return (c'a' <= c <= c'z') or (c'A' <= c <= c'Z')
    return Py_UNICODE_ISALPHA(c)


cdef inline bint is_word(Py_UCS4 c) noexcept nogil:
    return is_alnum(c) or c == c'_'


cdef inline bint is_key_char(Py_UCS4 c) noexcept nogil:
    return is_alnum(c) or c == c'_' or c == c'$' or c == c'@' or c == c'.' or c == c'-'


cdef inline bint is_odd_space(Py_UCS4 c) noexcept nogil:
    return c == 0x200B or c == 0x200C or c == 0x200D or c == 0x2060 or c == 0xFEFF or c == 0x180E


cdef inline bint trailing_ok(Py_UCS4 c) noexcept nogil:
    return ((c'a' <= c <= c'z') or (c'A' <= c <= c'Z') or c >= 0x80 or c == c'<' or c == c'`'
            or c == c'~' or c == c';' or c == c')' or c == c'!' or c == c'?' or c == c'.'
            or c == c'*' or c == c'|' or c == c'>' or c == c'_')
