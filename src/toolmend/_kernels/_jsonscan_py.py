"""Pure-Python twin of ``ext/_jsonscan.pyx``.

Same functions, same results; used where the compiled extension is not
available or when ``TOOLMEND_PURE_PYTHON=1``. Validation lets the stdlib
``json`` C scanner do the work (number tokens reach hooks as their exact
text) and falls back to a token-level scanner only to locate an error; the
walkers use regexes that skip whole strings and runs of text at a time.
"""

from __future__ import annotations

import json
import re
from array import array
from typing import Any, Iterable

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

INDEX_DIGITS = 18
_WS_CHARS = " \t\n\r"

_WS = re.compile(r"[ \t\n\r]*")
# A valid string, and the longest valid prefix of one (to place an error).
_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"')
_STRING_PREFIX = re.compile(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*')
_NUMBER = re.compile(r"(-?)(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
# In text already validated: a string, a scalar token.
_VALID_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SCALAR = re.compile(r"[^ \t\n\r,\]}:]+")
# Everything up to the next bracket, whole strings included.
_UNTIL_BRACKET = re.compile(r'(?:[^"\[\]{}]+|"[^"\\]*(?:\\.[^"\\]*)*")*')
_REFORMAT_TOKEN = re.compile(
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


def scan(text: str, start: int = 0, end: int = -1) -> tuple[int, int, bool]:
    """Validate ``text[start:end]`` as exactly one JSON value.

    Returns ``(pos, code, lossy)``: ``code`` 0 and ``pos`` -1 when valid,
    else the error code and its offset; ``lossy`` is True when a number token
    (seen before any error) would not survive orjson exactly.
    """
    n = len(text)
    if end < 0 or end > n:
        end = n
    start = max(start, 0)
    lossy = False

    def on_float(token: str) -> None:
        nonlocal lossy
        lossy = True

    def on_int(token: str) -> None:
        nonlocal lossy
        if not lossy and _lossy_int(token):
            lossy = True

    try:
        json.loads(text[start:end] if (start, end) != (0, n) else text,
                   parse_float=on_float, parse_int=on_int, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return _scan_tokens(text, start, end)
    return (-1, 0, lossy)


def _number_end(text: str, i: int, end: int) -> tuple[int, int, bool]:
    """Scan the number at ``i``: ``(end, error_pos, lossy)``; error_pos -1 if fine."""
    m = _NUMBER.match(text, i, end)
    if m is None:  # a '-' without a digit
        return (-1, i + 1, False)
    j = m.end()
    sign, whole, frac, exp = m.groups()
    nxt = text[j] if j < end else ""
    if whole == "0" and nxt.isascii() and nxt.isdigit():
        return (-1, j, False)
    if frac is None and exp is None and nxt == ".":
        return (-1, j + 1, False)
    if exp is None and nxt in ("e", "E"):
        k = j + 1
        if k < end and text[k] in "+-":
            k += 1
        return (-1, k, False)
    if frac is not None or exp is not None:
        return (j, -1, True)
    return (j, -1, _lossy_int(sign + whole))


def _string_end(text: str, i: int, end: int) -> tuple[int, int, int]:
    """Scan the string at ``i``: ``(end, code, error_pos)``; code 0 if fine."""
    m = _STRING.match(text, i, end)
    if m is not None:
        return (m.end(), 0, -1)
    j = _STRING_PREFIX.match(text, i, end).end()  # type: ignore[union-attr]
    if j >= end:
        return (-1, E_STRING, i)
    if text[j] == "\\":
        return (-1, E_STRING, i) if j + 1 >= end else (-1, E_ESCAPE, j)
    return (-1, E_CONTROL, j)


def _scan_tokens(text: str, i: int, end: int) -> tuple[int, int, bool]:
    """The token-level validator: where and why ``text[i:end]`` is not JSON."""
    stack: list[str] = []
    lossy = False
    state = "value"
    while True:
        i = _WS.match(text, i, end).end()  # type: ignore[union-attr]
        c = text[i] if i < end else ""
        if state == "value":
            if c in ("{", "["):
                stack.append(c)
                i = _WS.match(text, i + 1, end).end()  # type: ignore[union-attr]
                if i < end and text[i] == ("}" if c == "{" else "]"):
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
            elif c and text.startswith(("true", "false", "null"), i, end):
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
            i = _WS.match(text, j, end).end()  # type: ignore[union-attr]
            if i >= end or text[i] != ":":
                return (i, E_COLON, lossy)
            i += 1
            state = "value"
        else:
            if not stack:
                return (-1, 0, lossy) if i >= end else (i, E_TRAILING, lossy)
            if stack[-1] == "{":
                if c == ",":
                    i += 1
                    state = "key"
                elif c == "}":
                    stack.pop()
                    i += 1
                else:
                    return (i, E_OBJECT, lossy)
            else:
                if c == ",":
                    i += 1
                    state = "value"
                elif c == "]":
                    stack.pop()
                    i += 1
                else:
                    return (i, E_ARRAY, lossy)


# ---------------------------------------------------------------------------
# Walking text that scan() accepted


def skip_space(text: str, pos: int) -> int:
    """The first offset at or after ``pos`` that is not JSON whitespace."""
    pos = min(max(pos, 0), len(text))
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _value_end(text: str, i: int) -> int:
    c = text[i]
    if c == '"':
        return _VALID_STRING.match(text, i).end()  # type: ignore[union-attr]
    if c in "{[":
        depth = 0
        while True:
            c = text[i]
            if c in "{[":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return i + 1
            i = _UNTIL_BRACKET.match(text, i + 1).end()  # type: ignore[union-attr]
    return _SCALAR.match(text, i).end()  # type: ignore[union-attr]


def value_end(text: str, pos: int) -> int:
    """The offset just past the value that starts at ``pos``."""
    if pos < 0 or pos >= len(text) or text[pos] in " \t\r\n,:]}":
        raise ValueError(f"offset {pos} is not the start of a value")
    return _value_end(text, pos)


def _check_container(text: str, pos: int) -> None:
    if pos < 0 or pos >= len(text) or text[pos] not in "{[":
        raise ValueError(f"offset {pos} is not the start of an object or array")


def _iter_members(text: str, pos: int) -> Iterable[tuple[int, int, int, int]]:
    """(key_start, key_end, value_start, value_end) of each member of the
    container at pos; the key offsets are -1 for an array."""
    obj = text[pos] == "{"
    i = skip_space(text, pos + 1)
    if text[i] in "}]":
        return
    ks = ke = -1
    while True:
        if obj:
            ks = i
            ke = _VALID_STRING.match(text, i).end()  # type: ignore[union-attr]
            i = skip_space(text, skip_space(text, ke) + 1)
        ve = _value_end(text, i)
        yield ks, ke, i, ve
        i = skip_space(text, ve)
        if text[i] != ",":
            return
        i = skip_space(text, i + 1)


def _key(text: str, ks: int, ke: int) -> str:
    raw = text[ks + 1:ke - 1]
    return _scanstring(text, ks + 1)[0] if "\\" in raw else raw


def members(text: str, pos: int) -> tuple[list[str] | None, array[int]]:
    """The members of the object or array starting at ``pos``.

    Returns ``(keys, spans)``: ``keys`` is the list of decoded keys (None for
    an array) and ``spans`` an ``array('q')`` of start, end offset pairs of
    the values, in document order (duplicate keys are all listed).
    """
    _check_container(text, pos)
    keys: list[str] | None = [] if text[pos] == "{" else None
    spans = array("q")
    for ks, ke, vs, ve in _iter_members(text, pos):
        if keys is not None:
            keys.append(_key(text, ks, ke))
        spans.append(vs)
        spans.append(ve)
    return keys, spans


def _as_index(seg: str) -> int | None:
    """A key used on an array is an index when it is a decimal integer."""
    digits = seg[1:] if seg.startswith("-") else seg
    if digits and digits.isascii() and digits.isdigit() and len(digits) <= INDEX_DIGITS:
        return int(seg)
    return None


def _count(text: str, pos: int) -> int:
    return sum(1 for _ in _iter_members(text, pos))


def _nth(text: str, pos: int, index: int) -> tuple[int, int]:
    """(start, end) of element ``index``; end is -1 (not computed) when
    ``index`` >= 0, as only the last step of a path needs it."""
    if index < 0:
        spans = members(text, pos)[1]
        count = len(spans) // 2
        if index + count < 0:
            return (-1, -1)
        k = 2 * (index + count)
        return (spans[k], spans[k + 1])
    i = skip_space(text, pos + 1)
    if text[i] == "]":
        return (-1, -1)
    for _ in range(index):
        i = skip_space(text, _value_end(text, i))
        if text[i] != ",":
            return (-1, -1)
        i = skip_space(text, i + 1)
    return (i, -1)


def _find_key(text: str, pos: int, key: str) -> tuple[int, int]:
    found = (-1, -1)
    for ks, ke, vs, ve in _iter_members(text, pos):
        if _key(text, ks, ke) == key:
            found = (vs, ve)
    return found


def _lookup(text: str, pos: int, end: int, segments: tuple[Any, ...]) -> tuple[int, int, int]:
    for k, seg in enumerate(segments):
        c = text[pos]
        if type(seg) is str:
            if c == "{":
                vs, ve = _find_key(text, pos, seg)
            elif c == "[":
                idx = _as_index(seg)
                if idx is None:
                    return (pos, end, k)
                vs, ve = _nth(text, pos, idx)
            else:
                return (pos, end, k)
        else:
            if c != "[":
                return (pos, end, k)
            vs, ve = _nth(text, pos, seg)
        if vs < 0:
            return (pos, end, k)
        pos, end = vs, ve
    return (pos, end if end >= 0 else _value_end(text, pos), -1)


def _check_segments(segments: Iterable[Any]) -> tuple[Any, ...]:
    segs = tuple(segments)
    bound = 10 ** INDEX_DIGITS
    for seg in segs:
        if type(seg) is not str and type(seg) is not int:
            raise TypeError(f"path segments are str keys or int indexes, not {type(seg).__name__}")
        if type(seg) is int and not -bound < seg < bound:
            raise ValueError(f"index {seg} is out of range")
    return segs


def lookup(text: str, pos: int, segments: Iterable[Any]) -> tuple[int, int, int]:
    """Walk ``segments`` (str keys, int indexes) from the value at ``pos``.

    Returns ``(start, end, failed)``: on success ``failed`` is -1 and the span
    is the value's; else ``failed`` is the index of the segment that could not
    be followed and the span is the value it was applied to. A key used on an
    array is an index when it is a decimal integer (``items.0``); duplicate
    keys: the last one wins.
    """
    segs = _check_segments(segments)
    if pos < 0 or pos >= len(text) or text[pos] in " \t\r\n,:]}":
        raise ValueError(f"offset {pos} is not the start of a value")
    start, end, failed = _lookup(text, pos, -1, segs)
    return (start, end if end >= 0 else _value_end(text, start), failed)


def lookup_many(text: str, spans: array[int], segments: Iterable[Any]) -> array[int]:
    """``lookup`` from each value of ``spans`` (start, end pairs); returns an
    ``array('q')`` of the found spans, with -1, -1 where the path failed."""
    segs = _check_segments(segments)
    if not isinstance(spans, array) or spans.typecode != "q":
        raise TypeError("spans must be an array('q')")
    if len(spans) % 2:
        raise ValueError("spans must hold start, end pairs")
    out = array("q")
    for k in range(0, len(spans), 2):
        pos = spans[k]
        if pos >= len(text) or (pos >= 0 and text[pos] in _WS_CHARS):
            raise ValueError(f"offset {pos} is not the start of a value")
        if pos < 0:
            out.extend((-1, -1))
            continue
        vs, ve, failed = _lookup(text, pos, spans[k + 1], segs)
        out.extend((vs, ve) if failed == -1 else (-1, -1))
    return out


def summary(text: str, pos: int) -> tuple[str, int]:
    """``(kind, size)`` of the value at ``pos``: kind is object, array,
    string, number, bool or null; size the member count of a container, the
    decoded length in characters of a string, else -1."""
    if pos < 0 or pos >= len(text):
        raise ValueError(f"offset {pos} is not the start of a value")
    c = text[pos]
    if c in "{[":
        return ("object" if c == "{" else "array", _count(text, pos))
    if c == '"':
        return ("string", len(_scanstring(text, pos + 1)[0]))
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


def reformat(text: str, start: int, end: int, indent: int = 2,
             max_bytes: int = -1) -> tuple[str, bool]:
    """Re-indent the valid JSON in ``text[start:end]``: ``indent`` spaces a
    level (0: compact, no whitespace at all), key order and every token kept
    verbatim. Stops before the UTF-8 size of the result would pass
    ``max_bytes`` (-1: no limit). Returns ``(text, complete)``."""
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
    for m in _REFORMAT_TOKEN.finditer(text, start, end):
        string, opener, closer_now, closer, comma, _colon, scalar = m.groups()
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
