"""JSON with numbers kept exactly as they came.

orjson is exact for most documents: it only loses numbers with a fraction or
an exponent (``1.10`` becomes 1.1, ``1E5`` 100000.0, ``1e400`` is refused),
``-0`` (becomes 0) and integers outside [-2**63, 2**64 - 1] (become floats).
The scanner kernel says whether a text holds such a token; when it does not,
orjson loads it, and when it does, the stdlib decoder loads it with hooks
that see every number token's exact text.

The number representation: an integer token is a Python ``int`` (exact at
any size). A float token is a plain ``float`` when ``repr`` of that float, and
orjson, print it as the token itself (``2.5``, ``0.1``, ``1e+16``); any other number token
(``1.10``, ``1E5``, ``1e400``, ``-0``, ``2.50``, an integer longer than
Python's int-conversion limit of 4,300 digits) is a :class:`JSONNumber`: a
``float`` subclass with the nearest float value whose ``str``/``repr`` is the
original text (in ``.text``). So ``str(number)`` is always the token as it
was written, arithmetic works as on floats, and ``Decimal(str(number))`` is
exact. :func:`dumps` writes them back out unchanged.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from ._kernels import jsonscan as _k
from .errors import ToolError, line_col

__all__ = [
    "JSONNumber", "JSONSyntaxError", "NestingError", "loads", "dumps", "load_span",
    "describe", "snippet",
]

_NUMBER_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_INT_DIGITS_MAX = 4300  # CPython's default limit on str <-> int conversion


class JSONNumber(float):
    """A JSON number whose text must be kept: the float value, printed as the
    original token (``.text``).

    >>> n = JSONNumber("1.10")
    >>> n == 1.1, str(n), n.text
    (True, '1.10', '1.10')
    """

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> JSONNumber:
        if not isinstance(text, str) or _NUMBER_TEXT.fullmatch(text) is None:
            raise ValueError(f"not a JSON number: {text!r}")
        self = super().__new__(cls, float(text))
        self.text = text
        return self

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        return (JSONNumber, (self.text,))

    def __copy__(self) -> JSONNumber:
        return self

    def __deepcopy__(self, memo: Any) -> JSONNumber:
        return self


def _float_token(token: str) -> float:
    value = float(token)
    if repr(value) == token and ("e" not in token or orjson.dumps(value) == token.encode()):
        return value  # Python and orjson both print it as it came
    return JSONNumber(token)


def _int_token(token: str) -> Any:
    if token == "-0" or len(token) > _INT_DIGITS_MAX:
        return JSONNumber(token)
    return int(token)


def _refuse_constant(name: str) -> Any:  # pragma: no cover - scan() refused it already
    raise ValueError(f"{name} is not JSON")


class JSONSyntaxError(ToolError):
    """The text is not valid JSON. ``pos`` is the offset (in characters),
    ``line``/``column`` are 1-based (column in characters), ``message`` says
    what is wrong and ``snippet`` shows the place with a caret."""

    def __init__(self, text: str, pos: int, code: int, what: str = "the text") -> None:
        self.pos = pos
        self.code = code
        self.line, self.column = line_col(text, pos)
        self.message = describe(text, pos, code)
        self.snippet = snippet(text, pos)
        super().__init__(f"{what} is not valid JSON: {self.message} at line {self.line}, "
                         f"column {self.column}\n{self.snippet}")


class NestingError(ToolError):
    """A value is nested too deeply to be turned into Python objects."""


def _syntax_check(text: str, start: int, end: int, what: str) -> bool:
    pos, code, lossy = _k.scan(text, start, end)
    if code:
        raise JSONSyntaxError(text, pos, code, what)
    return bool(lossy)


def load_span(text: str, start: int = 0, end: int = -1, lossy: bool | None = None) -> Any:
    """The value of the valid JSON in ``text[start:end]``, numbers exact.

    ``lossy`` is the kernel's verdict for that text when already known (None:
    scan it again). Raises NestingError when the value is too deep for the
    decoders (orjson stops at 1,024 levels, the stdlib at the recursion limit).
    """
    n = len(text)
    if end < 0 or end > n:
        end = n
    part = text if (start, end) == (0, n) else text[start:end]
    if lossy is None:
        lossy = _syntax_check(part, 0, len(part), "the text")
    if not lossy:
        try:
            return orjson.loads(part)
        except orjson.JSONDecodeError:
            pass  # past orjson's depth limit, or an escaped lone surrogate
    decoder = json.JSONDecoder(parse_float=_float_token, parse_int=_int_token,
                               parse_constant=_refuse_constant)
    try:
        return decoder.decode(part)
    except RecursionError:
        raise NestingError("the value is nested too deeply to return as data "
                           f"(past the {_depth_hint()} levels Python can decode); "
                           "ask for a deeper path") from None


def _depth_hint() -> str:
    import sys

    return f"~{min(sys.getrecursionlimit(), 1024):,}"


def loads(text: str | bytes, what: str = "the text") -> Any:
    """Parse JSON text, numbers exact (see :class:`JSONNumber`).

    Raises JSONSyntaxError (a ValueError) with line, column and a snippet.
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        from .workspace import decode_utf8

        text = decode_utf8(bytes(text), what)
    elif text.startswith("\ufeff"):
        text = text[1:]
    lossy = _syntax_check(text, 0, len(text), what)
    return load_span(text, 0, len(text), lossy)


def _default(value: Any) -> Any:
    if isinstance(value, JSONNumber):
        return orjson.Fragment(value.text)
    if isinstance(value, int) and not isinstance(value, bool):
        return orjson.Fragment(str(value))
    if isinstance(value, (set, frozenset)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _big_ints(value: Any) -> Any:
    """A copy of ``value`` with integers past 64 bits as raw fragments
    (orjson refuses them); iterative, so any depth of list/dict works."""
    if isinstance(value, int) and not isinstance(value, bool):
        return orjson.Fragment(str(value)) if not -(1 << 63) <= value < (1 << 64) else value
    if not isinstance(value, (dict, list, tuple)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        src, parent, slot = stack.pop()
        if isinstance(src, dict):
            out_d: dict[Any, Any] = {}
            parent[slot] = out_d
            for k, v in src.items():
                if isinstance(v, (dict, list, tuple)):
                    out_d[k] = None
                    stack.append((v, out_d, k))
                elif isinstance(v, int) and not isinstance(v, bool) and not -(1 << 63) <= v < (1 << 64):
                    out_d[k] = orjson.Fragment(str(v))
                else:
                    out_d[k] = v
        else:
            out_l: list[Any] = [None] * len(src)
            parent[slot] = out_l
            for i, v in enumerate(src):
                if isinstance(v, (dict, list, tuple)):
                    stack.append((v, out_l, i))
                elif isinstance(v, int) and not isinstance(v, bool) and not -(1 << 63) <= v < (1 << 64):
                    out_l[i] = orjson.Fragment(str(v))
                else:
                    out_l[i] = v
    return root[0]


def dumps(value: Any, *, indent: bool = False) -> str:
    """JSON text for ``value``, with JSONNumber and big integers written as
    their exact text (``indent``: 2 spaces a level). Raises TypeError for
    values JSON cannot hold."""
    option = orjson.OPT_INDENT_2 if indent else 0
    try:
        return orjson.dumps(value, default=_default, option=option).decode()
    except orjson.JSONEncodeError:
        pass  # most likely an integer past 64 bits (orjson's wording varies: not parsed)
    try:
        return orjson.dumps(_big_ints(value), default=_default, option=option).decode()
    except orjson.JSONEncodeError as exc:
        raise TypeError(str(exc)) from None


# ---------------------------------------------------------------------------
# Error messages


def _found(text: str, pos: int) -> str:
    if pos >= len(text):
        return "the end of the input"
    c = text[pos]
    if c == "\n":
        return "a line break"
    if c.isprintable() and not c.isspace():
        return repr(c)
    return f"U+{ord(c):04X}"


def _prev_char(text: str, pos: int) -> str:
    before = text[:pos].rstrip(" \t\r\n")
    return before[-1:] if before else ""


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$-]*")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


def _value_hint(text: str, pos: int, expected: str) -> str:
    c = text[pos]
    if c == "'":
        return "single quotes are not JSON: strings and keys need double quotes"
    if text.startswith(("//", "/*"), pos):
        return "comments are not allowed in JSON"
    if c in "]}" and _prev_char(text, pos) == ",":
        return f"trailing comma before {c!r}"
    m = _WORD.match(text, pos)
    if m:
        word = m.group()
        if word in ("NaN", "Infinity"):
            return f"{word} is not a JSON number"
        if word in _PY_LITERALS:
            return f"{word} is a Python literal, not JSON: write {_PY_LITERALS[word]}"
        shown = word if len(word) <= 30 else word[:30] + "..."
        return (f"unquoted text {shown!r}: {expected} must be in double quotes"
                if expected == "keys" else f"unquoted text {shown!r}: strings need double quotes")
    if c in "+.":
        return f"a JSON number cannot start with {c!r}"
    return ""


def describe(text: str, pos: int, code: int) -> str:
    """A message for scan() error ``code`` at ``pos``."""
    at_end = pos >= len(text)
    found = _found(text, pos)
    if code == _k.E_VALUE:
        if at_end:
            if not text.strip(" \t\r\n"):
                return "empty input: expected a JSON value"
            return "unexpected end of the input: expected a value"
        hint = _value_hint(text, pos, "strings")
        return hint or f"expected a value, found {found}"
    if code == _k.E_KEY:
        if at_end:
            return "unexpected end of the input: expected a key"
        hint = _value_hint(text, pos, "keys")
        return hint or f"expected a double-quoted key, found {found}"
    if code == _k.E_COLON:
        return f"expected ':' after the key, found {found}"
    if code in (_k.E_OBJECT, _k.E_ARRAY):
        close = "}" if code == _k.E_OBJECT else "]"
        what = "an object member" if code == _k.E_OBJECT else "an array element"
        if at_end:
            return f"unexpected end of the input: expected ',' or '{close}' (not closed)"
        if text.startswith(("//", "/*"), pos):
            return "comments are not allowed in JSON"
        if text[pos] in "]}":
            return f"expected ',' or '{close}' after {what}, found {found} (brackets do not match)"
        if text[pos] in "\"{[-0123456789tfn":
            return f"expected ',' or '{close}' after {what}, found {found} (a comma is missing?)"
        return f"expected ',' or '{close}' after {what}, found {found}"
    if code == _k.E_STRING:
        return "unterminated string (it starts here)"
    if code == _k.E_CONTROL:
        c = text[pos]
        escape = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}.get(
            c, f"\\u{ord(c):04x}")
        name = {"\n": " (a line break)", "\t": " (a tab)", "\r": " (a carriage return)"}.get(c, "")
        return f"raw control character U+{ord(c):04X}{name} inside a string: write it as {escape}"
    if code == _k.E_ESCAPE:
        return f"invalid escape {text[pos:pos + 6]!r} in a string"
    if code == _k.E_NUMBER:
        prev = text[pos - 1] if pos > 0 else ""
        if prev == ".":
            return "invalid number: a digit must follow the decimal point"
        if prev in "eE" or (prev in "+-" and pos > 1 and text[pos - 2] in "eE"):
            return "invalid number: the exponent needs digits"
        if prev == "-":
            return "invalid number: '-' must be followed by a digit"
        return "invalid number: leading zeros are not allowed"
    if code == _k.E_TRAILING:
        return f"data after the end of the JSON value: found {found}"
    return f"invalid JSON (code {code})"


_CONTROL = {i: "\ufffd" for i in range(32) if i != 9}
_SNIPPET_WIDTH = 100


def snippet(text: str, pos: int) -> str:
    """The line holding ``pos`` (and the one before), with a caret under it.

    Long lines show a window around the column; control characters are shown
    as U+FFFD so the caret stays aligned; tabs are kept as tabs.
    """
    pos = min(max(pos, 0), len(text))
    line, col = line_col(text, pos)
    start = text.rfind("\n", 0, pos) + 1
    stop = text.find("\n", pos)
    if stop < 0:
        stop = len(text)
    cur = text[start:stop]
    offset = pos - start
    prefix = suffix = ""
    if len(cur) > _SNIPPET_WIDTH:
        left = max(0, offset - _SNIPPET_WIDTH // 2)
        right = min(len(cur), left + _SNIPPET_WIDTH)
        left = max(0, right - _SNIPPET_WIDTH)
        prefix = "..." if left > 0 else ""
        suffix = "..." if right < len(cur) else ""
        cur = cur[left:right]
        offset -= left
    shown = prefix + cur.translate(_CONTROL) + suffix
    pad = "".join("\t" if ch == "\t" else " " for ch in (prefix + cur[:offset]))
    width = len(str(line))
    lines = []
    if line > 1 and not prefix:
        pstart = text.rfind("\n", 0, start - 1) + 1
        prev = text[pstart:start - 1]
        if len(prev) <= _SNIPPET_WIDTH:
            lines.append(f"{line - 1:>{width}} | {prev.translate(_CONTROL)}")
    lines.append(f"{line:>{width}} | {shown}")
    lines.append(f"{'':>{width}} | {pad}^")
    return "\n".join(lines)
