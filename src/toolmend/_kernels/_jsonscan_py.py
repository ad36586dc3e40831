"""Pure-Python twin of ``ext/_jsonscan.pyx``.

Same functions, same results; used where the compiled extension is not
available or when ``TOOLMEND_PURE_PYTHON=1``. The text is UTF-8 ``bytes``
(offsets in bytes) or a ``str`` (offsets in characters). Validation lets the
stdlib ``json`` C scanner do the work (number tokens reach hooks as their
exact text) and falls back to a token-level scanner only to locate an error;
the walkers use regexes (compiled for ``str`` and for ``bytes``) that skip
whole strings and runs of text at a time. The container index of
``scan_index`` is computed the same way as the compiled kernel's, and the
walkers use it as it does: a big container's end is looked up instead of
read again (a schema of 100,000 nested arrays read each level's rest twice:
~0.2 ms a level).
"""

from __future__ import annotations

import json
import re
from array import array
from typing import Any, Generic, Iterable, TypeVar, Union

from ._jsonexact import load_exact

# The names both twins export, with the same signatures (tests/test_kernel_line.py
# checks them; this twin is the reference).
__all__ = ["OK", "E_VALUE", "E_KEY", "E_COLON", "E_OBJECT", "E_ARRAY", "E_STRING", "E_CONTROL",
           "E_ESCAPE", "E_NUMBER", "E_TRAILING", "E_UTF8", "INDEX_DIGITS", "INDEX_SPAN",
           "INDEX_DEPTH", "scan", "scan_index", "skip_space", "value_end", "members", "lookup",
           "lookup_many", "summary", "reformat", "load_exact"]

_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]

# Error codes of scan(); toolmend.exactjson turns them into messages.
OK = 0
E_VALUE = 1
E_KEY = 2
E_COLON = 3
E_OBJECT = 4
E_ARRAY = 5
E_STRING = 6
E_CONTROL = 7
E_ESCAPE = 8
E_NUMBER = 9
E_TRAILING = 10
E_UTF8 = 11  # bytes only: the UTF-8 sequence that starts here is invalid

INDEX_DIGITS = 18
#: The container index of scan_index(): containers of at least INDEX_SPAN
#: units, nested at most INDEX_DEPTH deep, at most about one a INDEX_SPAN
#: units of text.
INDEX_SPAN = 128
INDEX_DEPTH = 64

Text = Union[str, bytes]
T = TypeVar("T", str, bytes)


class _Pattern(Generic[T]):
    """One regex, compiled for str and for bytes text."""

    def __init__(self, pattern: str) -> None:
        self.text = re.compile(pattern)
        self.data = re.compile(pattern.encode("ascii"))

    def __call__(self, text: Text) -> re.Pattern[Any]:
        return self.data if isinstance(text, bytes) else self.text


def _at(text: Text, i: int) -> str:
    """The character at i ('' past the end); over bytes, the byte as a
    latin-1 character (every JSON delimiter is ASCII)."""
    if i >= len(text):
        return ""
    return chr(text[i]) if isinstance(text, bytes) else text[i]


def _check_text(text: Any, index: Any = None) -> None:
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"text must be str or UTF-8 bytes, not {type(text).__name__}")
    if index is not None and not (isinstance(index, array) and index.typecode == "q"):
        raise TypeError("index must be an array('q') from scan_index, or None")


_WS_CHARS = " \t\n\r"

_WS: _Pattern[Any] = _Pattern(r"[ \t\n\r]*")
# A valid string, and the longest valid prefix of one (to place an error).
_STRING: _Pattern[Any] = _Pattern(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"')
_STRING_PREFIX: _Pattern[Any] = _Pattern(
    r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*')
_NUMBER: _Pattern[Any] = _Pattern(r"(-?)(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
# In text already validated: a string, a scalar token.
_VALID_STRING: _Pattern[Any] = _Pattern(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SCALAR: _Pattern[Any] = _Pattern(r"[^ \t\n\r,\]}:]+")
# Everything up to the next bracket, whole strings included.
_UNTIL_BRACKET: _Pattern[Any] = _Pattern(r'(?:[^"\[\]{}]+|"[^"\\]*(?:\\.[^"\\]*)*")*')
_REFORMAT_TOKEN: _Pattern[Any] = _Pattern(
    r'[ \t\n\r]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([\[{])(?:[ \t\n\r]*([\]}]))?|([\]}])|(,)|(:)'
    r'|([^ \t\n\r,\[\]{}"]+))')

_UINT64_MAX = "18446744073709551615"
_INT64_MIN_ABS = "9223372036854775808"


def _lossy_int(token: str) -> bool:
    """Whether orjson would change the integer ``token`` (a float past 64
    bits, and ``-0`` becomes 0)."""
    if token[0] == "-":
        digits = token[1:]
        return digits == "0" or len(digits) > 19 or (len(digits) == 19 and digits > _INT64_MIN_ABS)
    return len(token) > 20 or (len(token) == 20 and token > _UINT64_MAX)


class _Refused(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _Refused(name)


def _bounds(text: Text, start: int, end: int) -> tuple[int, int]:
    n = len(text)
    if end < 0 or end > n:
        end = n
    return max(start, 0), end


def scan(text: Text, start: int = 0, end: int = -1) -> tuple[int, int, bool]:
    """Validate ``text[start:end]`` as exactly one JSON value.

    Returns ``(pos, code, lossy)``: ``code`` 0 and ``pos`` -1 when valid,
    else the error code and its offset; ``lossy`` is True when a number token
    (seen before any error) would not survive orjson exactly. Over bytes, an
    invalid UTF-8 sequence in a string is ``E_UTF8`` at its first byte.
    """
    _check_text(text)
    start, end = _bounds(text, start, end)
    lossy = False

    def on_float(token: str) -> None:
        nonlocal lossy
        lossy = True

    def on_int(token: str) -> None:
        nonlocal lossy
        if not lossy and _lossy_int(token):
            lossy = True

    part = text if (start, end) == (0, len(text)) else text[start:end]
    try:
        if isinstance(part, bytes):
            part = part.decode("utf-8")
        json.loads(part, parse_float=on_float, parse_int=on_int, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return _scan_tokens(text, start, end)
    return (-1, 0, lossy)


def _number_end(text: Text, i: int, end: int) -> tuple[int, int, bool]:
    """Scan the number at ``i``: ``(end, error_pos, lossy)``; error_pos -1 if fine."""
    m = _NUMBER(text).match(text, i, end)
    if m is None:  # a '-' without a digit
        return (-1, i + 1, False)
    j = m.end()
    sign, whole, frac, exp = (g.decode() if isinstance(g, bytes) else g for g in m.groups())
    nxt = _at(text, j) if j < end else ""
    if whole == "0" and nxt.isascii() and nxt.isdigit():
        return (-1, j, False)
    if frac is None and exp is None and nxt == ".":
        return (-1, j + 1, False)
    if exp is None and nxt in ("e", "E"):
        k = j + 1
        if k < end and _at(text, k) in "+-":
            k += 1
        return (-1, k, False)
    if frac is not None or exp is not None:
        return (j, -1, True)
    return (j, -1, _lossy_int(sign + whole))


def _utf8_error(text: Text, a: int, b: int) -> int:
    """Over bytes, the offset of the first invalid UTF-8 sequence in
    text[a:b], else -1."""
    if not isinstance(text, bytes):
        return -1
    try:
        text[a:b].decode("utf-8")
    except UnicodeDecodeError as exc:
        return a + exc.start
    return -1


def _string_end(text: Text, i: int, end: int) -> tuple[int, int, int]:
    """Scan the string at ``i``: ``(end, code, error_pos)``; code 0 if fine."""
    m = _STRING(text).match(text, i, end)
    j = m.end() if m is not None else _STRING_PREFIX(text).match(text, i, end).end()  # type: ignore[union-attr]
    bad = _utf8_error(text, i + 1, j - 1 if m is not None else j)
    if bad >= 0:
        return (-1, E_UTF8, bad)
    if m is not None:
        return (j, 0, -1)
    if j >= end:
        return (-1, E_STRING, i)
    if _at(text, j) == "\\":
        return (-1, E_STRING, i) if j + 1 >= end else (-1, E_ESCAPE, j)
    return (-1, E_CONTROL, j)


def _starts_word(text: Text, i: int, end: int) -> bool:
    words: tuple[Any, ...] = ((b"true", b"false", b"null") if isinstance(text, bytes)
                              else ("true", "false", "null"))
    return text.startswith(words, i, end)


def _scan_tokens(text: Text, i: int, end: int) -> tuple[int, int, bool]:
    """The token-level validator: where and why ``text[i:end]`` is not JSON."""
    stack: list[str] = []
    lossy = False
    state = "value"
    ws = _WS(text)
    while True:
        i = ws.match(text, i, end).end()  # type: ignore[union-attr]
        c = _at(text, i) if i < end else ""
        if state == "value":
            if c in ("{", "["):
                stack.append(c)
                i = ws.match(text, i + 1, end).end()  # type: ignore[union-attr]
                if i < end and _at(text, i) == ("}" if c == "{" else "]"):
                    stack.pop()
                    i += 1
                    state = "after"
                elif c == "{":
                    state = "key"
                continue
            if c == '"':
                j, code, pos = _string_end(text, i, end)
                if code:
                    return (pos, code, lossy)
            elif c == "-" or (c.isascii() and c.isdigit()):
                j, pos, lossy_number = _number_end(text, i, end)
                if pos >= 0:
                    return (pos, E_NUMBER, lossy)
                lossy = lossy or lossy_number
            elif c and _starts_word(text, i, end):
                j = i + (5 if c == "f" else 4)
            else:
                return (i, E_VALUE, lossy)
            i = j
            state = "after"
        elif state == "key":
            if c != '"':
                return (i, E_KEY, lossy)
            j, code, pos = _string_end(text, i, end)
            if code:
                return (pos, code, lossy)
            i = ws.match(text, j, end).end()  # type: ignore[union-attr]
            if i >= end or _at(text, i) != ":":
                return (i, E_COLON, lossy)
            i += 1
            state = "value"
        else:
            if not stack:
                return (-1, 0, lossy) if i >= end else (i, E_TRAILING, lossy)
            is_object = stack[-1] == "{"
            if c == ",":
                i += 1
                state = "key" if is_object else "value"
            elif c == ("}" if is_object else "]"):
                stack.pop()
                i += 1
            else:
                return (i, E_OBJECT if is_object else E_ARRAY, lossy)


def scan_index(text: Text, start: int = 0, end: int = -1) -> tuple[int, int, bool, array[int]]:
    """``scan`` and the container index of the valid text: an ``array('q')``
    of (start, end) pairs, in document order, of the objects and arrays at
    least INDEX_SPAN units long nested at most INDEX_DEPTH deep (empty when
    the text is not valid). Once ``len(text) // INDEX_SPAN`` of them are
    kept, containers opened after are not (those open then may still be).
    The walkers take it to jump over big containers."""
    pos, code, lossy = scan(text, start, end)
    index = array("q")
    if code:
        return (pos, code, lossy, index)
    start, end = _bounds(text, start, end)
    until = _UNTIL_BRACKET(text)
    most = (end - start) // INDEX_SPAN
    kept = 0
    opened: list[int] = []  # the slot in index of each open container, -1 if none
    i = until.match(text, start, end).end()  # type: ignore[union-attr]
    while i < end:
        if _at(text, i) in "{[":
            if len(opened) < INDEX_DEPTH and kept < most:
                opened.append(len(index))
                index.extend((i, -1))
            else:
                opened.append(-1)
        else:
            slot = opened.pop()
            if slot >= 0:
                if i + 1 - index[slot] >= INDEX_SPAN:
                    index[slot + 1] = i + 1
                    kept += 1
                else:  # a small container: nothing after it was kept
                    del index[slot:]
        i = until.match(text, i + 1, end).end()  # type: ignore[union-attr]
    return (pos, code, lossy, index)


# ---------------------------------------------------------------------------
# Walking text that scan() accepted


def skip_space(text: Text, pos: int) -> int:
    """The first offset at or after ``pos`` that is not JSON whitespace."""
    _check_text(text)
    pos = min(max(pos, 0), len(text))
    return _WS(text).match(text, pos).end()  # type: ignore[union-attr]


class _Ends:
    """The ends of the containers of a ``scan_index`` index, by their starts
    (its entries are in document order). Walks go forward, so the entries
    just past the last one found are looked at before a binary search."""

    __slots__ = ("index", "n", "cur")

    def __init__(self, index: array[int]) -> None:
        self.index = index
        self.n = len(index) // 2
        self.cur = 0  # the first entry that may start at or after the next lookup

    def end(self, p: int) -> int:
        """The end of the indexed container that starts at ``p``, or -1."""
        index, n, cur = self.index, self.n, self.cur
        lo, hi = 0, n
        if cur < n and index[2 * cur] <= p:
            for k in range(cur, min(cur + 4, n)):
                start = index[2 * k]
                if start == p:
                    self.cur = k + 1
                    return index[2 * k + 1]
                if start > p:
                    self.cur = k
                    return -1
            lo = min(cur + 4, n)
        elif cur < n:
            hi = cur
        while lo < hi:
            mid = (lo + hi) // 2
            if index[2 * mid] < p:
                lo = mid + 1
            else:
                hi = mid
        self.cur = lo
        if lo < n and index[2 * lo] == p:
            self.cur = lo + 1
            return index[2 * lo + 1]
        return -1


def _ends(index: array[int] | None) -> _Ends | None:
    return _Ends(index) if index else None


def _value_end(text: Text, i: int, ends: _Ends | None = None) -> int:
    c = _at(text, i)
    if c == '"':
        return _VALID_STRING(text).match(text, i).end()  # type: ignore[union-attr]
    if c in "{[":
        if ends is not None:
            end = ends.end(i)
            if end >= 0:
                return end
        depth = 0
        until = _UNTIL_BRACKET(text)
        while True:
            c = _at(text, i)
            if c in "{[":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return i + 1
            i = until.match(text, i + 1).end()  # type: ignore[union-attr]
    return _SCALAR(text).match(text, i).end()  # type: ignore[union-attr]


def _check_value(text: Text, pos: int, index: Any = None) -> None:
    _check_text(text, index)
    if pos < 0 or pos >= len(text) or _at(text, pos) in " \t\r\n,:]}":
        raise ValueError(f"offset {pos} is not the start of a value")


def value_end(text: Text, pos: int, index: array[int] | None = None) -> int:
    """The offset just past the value that starts at ``pos``."""
    _check_value(text, pos, index)
    return _value_end(text, pos, _ends(index))


def _check_container(text: Text, pos: int, index: Any = None) -> None:
    _check_text(text, index)
    if pos < 0 or pos >= len(text) or _at(text, pos) not in "{[":
        raise ValueError(f"offset {pos} is not the start of an object or array")


def _iter_members(text: Text, pos: int, ends: _Ends | None = None) -> Iterable[tuple[int, int, int, int]]:
    """(key_start, key_end, value_start, value_end) of each member of the
    container at pos; the key offsets are -1 for an array."""
    obj = _at(text, pos) == "{"
    i = skip_space(text, pos + 1)
    if _at(text, i) in "}]":
        return
    ks = ke = -1
    valid_string = _VALID_STRING(text)
    while True:
        if obj:
            ks = i
            ke = valid_string.match(text, i).end()  # type: ignore[union-attr]
            i = skip_space(text, skip_space(text, ke) + 1)
        ve = _value_end(text, i, ends)
        yield ks, ke, i, ve
        i = skip_space(text, ve)
        if _at(text, i) != ",":
            return
        i = skip_space(text, i + 1)


def _string_value(text: Text, ks: int, ke: int) -> str:
    """The value of the string token at [ks, ke)."""
    token = text[ks:ke]
    if isinstance(token, bytes):
        if b"\\" not in token:
            return token[1:-1].decode("utf-8")
        return _scanstring(token.decode("utf-8"), 1)[0]  # type: ignore[no-any-return]
    if "\\" not in token:
        return token[1:-1]
    return _scanstring(text, ks + 1)[0]  # type: ignore[no-any-return]


def members(text: Text, pos: int, index: array[int] | None = None) -> tuple[list[str] | None, array[int]]:
    """The members of the object or array starting at ``pos``.

    Returns ``(keys, spans)``: ``keys`` is the list of decoded keys (None for
    an array) and ``spans`` an ``array('q')`` of start, end offset pairs of
    the values, in document order (duplicate keys are all listed).
    ``index``: the container index of ``scan_index`` for this text.
    """
    _check_container(text, pos, index)
    keys: list[str] | None = [] if _at(text, pos) == "{" else None
    spans = array("q")
    for ks, ke, vs, ve in _iter_members(text, pos, _ends(index)):
        if keys is not None:
            keys.append(_string_value(text, ks, ke))
        spans.append(vs)
        spans.append(ve)
    return keys, spans


def _as_index(seg: str) -> int | None:
    """A key used on an array is an index when it is a decimal integer."""
    digits = seg[1:] if seg.startswith("-") else seg
    if digits and digits.isascii() and digits.isdigit() and len(digits) <= INDEX_DIGITS:
        return int(seg)
    return None


def _count(text: Text, pos: int, ends: _Ends | None) -> int:
    return sum(1 for _ in _iter_members(text, pos, ends))


def _nth(text: Text, pos: int, nth: int, ends: _Ends | None) -> tuple[int, int]:
    """(start, end) of element ``nth``; end is -1 (not computed) when
    ``nth`` >= 0, as only the last step of a path needs it."""
    if nth < 0:
        spans = members(text, pos, None if ends is None else ends.index)[1]
        count = len(spans) // 2
        if nth + count < 0:
            return (-1, -1)
        k = 2 * (nth + count)
        return (spans[k], spans[k + 1])
    i = skip_space(text, pos + 1)
    if _at(text, i) == "]":
        return (-1, -1)
    for _ in range(nth):
        i = skip_space(text, _value_end(text, i, ends))
        if _at(text, i) != ",":
            return (-1, -1)
        i = skip_space(text, i + 1)
    return (i, -1)


def _find_key(text: Text, pos: int, key: str, ends: _Ends | None) -> tuple[int, int, int]:
    """The span of the last member ``key`` of the object at ``pos`` ((-1, -1)
    when none), and how many members it has of that key."""
    found, times = (-1, -1), 0
    for ks, ke, vs, ve in _iter_members(text, pos, ends):
        if _string_value(text, ks, ke) == key:
            found, times = (vs, ve), times + 1
    return (*found, times)


def _lookup(text: Text, pos: int, end: int, segments: tuple[Any, ...],
            ends: _Ends | None) -> tuple[int, int, int, int]:
    """(start, end, failed, repeated) as ``lookup`` says; ``end`` -1: not known."""
    repeated = -1
    for k, seg in enumerate(segments):
        c = _at(text, pos)
        if type(seg) is str:
            if c == "{":
                vs, ve, times = _find_key(text, pos, seg, ends)
                if times > 1 and repeated < 0:
                    repeated = k
            elif c == "[":
                idx = _as_index(seg)
                if idx is None:
                    return (pos, end, k, repeated)
                vs, ve = _nth(text, pos, idx, ends)
            else:
                return (pos, end, k, repeated)
        else:
            if c != "[":
                return (pos, end, k, repeated)
            vs, ve = _nth(text, pos, seg, ends)
        if vs < 0:
            return (pos, end, k, repeated)
        pos, end = vs, ve
    return (pos, end if end >= 0 else _value_end(text, pos, ends), -1, repeated)


def _check_segments(segments: Iterable[Any]) -> tuple[Any, ...]:
    segs = tuple(segments)
    bound = 10 ** INDEX_DIGITS
    for seg in segs:
        if type(seg) is not str and type(seg) is not int:
            raise TypeError(f"path segments are str keys or int indexes, not {type(seg).__name__}")
        if type(seg) is int and not -bound < seg < bound:
            raise ValueError(f"index {seg} is out of range")
    return segs


def lookup(text: Text, pos: int, segments: Iterable[Any],
           index: array[int] | None = None) -> tuple[int, int, int, int]:
    """Walk ``segments`` (str keys, int indexes) from the value at ``pos``.

    Returns ``(start, end, failed, repeated)``: on success ``failed`` is -1
    and the span is the value's; else ``failed`` is the index of the segment
    that could not be followed and the span is the value it was applied to. A
    key used on an array is an index when it is a decimal integer
    (``items.0``); duplicate keys: the last one wins, and ``repeated`` is the
    index of the first segment followed whose key its object gives more than
    once (-1: none), for the caller to say so.
    """
    segs = _check_segments(segments)
    _check_value(text, pos, index)
    ends = _ends(index)
    start, end, failed, repeated = _lookup(text, pos, -1, segs, ends)
    return (start, end if end >= 0 else _value_end(text, start, ends), failed, repeated)


def lookup_many(text: Text, spans: array[int], segments: Iterable[Any],
                index: array[int] | None = None) -> array[int]:
    """``lookup`` from each value of ``spans`` (start, end pairs); returns an
    ``array('q')`` of the found spans, with -1, -1 where the path failed."""
    segs = _check_segments(segments)
    _check_text(text, index)
    if not isinstance(spans, array) or spans.typecode != "q":
        raise TypeError("spans must be an array('q')")
    if len(spans) % 2:
        raise ValueError("spans must hold start, end pairs")
    ends = _ends(index)
    out = array("q")
    for k in range(0, len(spans), 2):
        pos = spans[k]
        if pos >= len(text) or (pos >= 0 and _at(text, pos) in _WS_CHARS):
            raise ValueError(f"offset {pos} is not the start of a value")
        if pos < 0:
            out.extend((-1, -1))
            continue
        vs, ve, failed, _ = _lookup(text, pos, spans[k + 1], segs, ends)
        out.extend((vs, ve) if failed == -1 else (-1, -1))
    return out


def summary(text: Text, pos: int, index: array[int] | None = None) -> tuple[str, int]:
    """``(kind, size)`` of the value at ``pos``: kind is object, array,
    string, number, bool or null; size the member count of a container, the
    decoded length in characters of a string, else -1."""
    _check_text(text, index)
    if pos < 0 or pos >= len(text):
        raise ValueError(f"offset {pos} is not the start of a value")
    c = _at(text, pos)
    if c in "{[":
        return ("object" if c == "{" else "array", _count(text, pos, _ends(index)))
    if c == '"':
        return ("string", len(_string_value(text, pos, _value_end(text, pos))))
    if c in "tf":
        return ("bool", -1)
    if c == "n":
        return ("null", -1)
    if c == "-" or c.isascii() and c.isdigit():
        return ("number", -1)
    raise ValueError(f"offset {pos} is not the start of a value")


def _utf8_size(piece: str) -> int:
    return len(piece) if piece.isascii() else len(piece.encode("utf-8", "surrogatepass"))


def _cut(piece: str, room: int) -> str:
    """The longest prefix of ``piece`` that takes at most ``room`` UTF-8 bytes."""
    if piece.isascii():
        return piece[:room]
    raw = piece.encode("utf-8", "surrogatepass")
    while room > 0 and (raw[room] & 0xC0) == 0x80:
        room -= 1
    return raw[:room].decode("utf-8", "surrogatepass")


def reformat(text: Text, start: int, end: int, indent: int = 2,
             max_bytes: int = -1) -> tuple[str, bool]:
    """Re-indent the valid JSON in ``text[start:end]``: ``indent`` spaces a
    level (0: compact, no whitespace at all), key order and every token kept
    verbatim. Stops before the UTF-8 size of the result would pass
    ``max_bytes`` (-1: no limit). Returns ``(text, complete)``, the text a
    ``str`` whatever the input."""
    _check_text(text)
    n = len(text)
    if end < 0 or end > n:
        end = n
    if indent < 0:
        raise ValueError("indent must be >= 0")
    budget = max_bytes if max_bytes >= 0 else 1 << 62
    pieces: list[str] = []
    chunks: list[str] = []
    size = 0
    depth = 0
    colon = ": " if indent else ":"
    data = isinstance(text, bytes)
    for m in _REFORMAT_TOKEN(text).finditer(text, start, end):
        groups = [g.decode("utf-8") if data and g is not None else g for g in m.groups()]
        string, opener, closer_now, closer, comma, _colon, scalar = groups
        if string is not None:
            piece = string
        elif scalar is not None:
            piece = scalar
        elif opener is not None:
            if closer_now is not None:
                piece = opener + closer_now
            else:
                depth += 1
                piece = opener + ("\n" + " " * (depth * indent) if indent else "")
        elif closer is not None:
            depth -= 1
            piece = ("\n" + " " * (depth * indent) if indent else "") + closer
        elif comma is not None:
            piece = "," + ("\n" + " " * (depth * indent) if indent else "")
        else:
            piece = colon
        psize = _utf8_size(piece)
        if size + psize > budget:
            pieces.append(_cut(piece, budget - size))
            chunks.append("".join(pieces))
            return ("".join(chunks), False)
        pieces.append(piece)
        size += psize
        if len(pieces) >= 4096:  # bound the number of small strings alive at once
            chunks.append("".join(pieces))
            pieces = []
    chunks.append("".join(pieces))
    return ("".join(chunks), True)
