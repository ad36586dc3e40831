"""JSON with numbers kept exactly as they came.

orjson is exact for most documents: it only loses numbers with a fraction or
an exponent (``1.10`` becomes 1.1, ``1E5`` 100000.0, ``1e400`` is refused),
``-0`` (becomes 0) and integers outside [-2**63, 2**64 - 1] (become floats).
The scanner kernel says whether a text holds such a token; when it does not,
orjson loads it, and when it does, the kernel's exact reader (``load_exact``)
loads it, with hooks that see every number token's exact text.

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
from typing import Any, Iterator

import orjson

from .._kernels import jsonscan as _k
from .._text import JSON_NUMBER, MAX_DEPTH, decode_utf8
from ..errors import NestingError
from ._syntax import syntax_error

__all__ = ["JSONNumber", "loads", "dumps", "default", "load_span", "decode_string"]

_NUMBER_TEXT = re.compile(JSON_NUMBER)
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


def _syntax_check(text: str | bytes, start: int, end: int, what: str) -> bool:
    pos, code, lossy = _k.scan(text, start, end)
    if code:
        if isinstance(text, bytes):  # the message speaks of characters
            text = decode_utf8(text, what)
            pos, code, lossy = _k.scan(text)
        raise syntax_error(text, pos, code, what)
    return bool(lossy)


def load_span(text: str | bytes, start: int = 0, end: int = -1, lossy: bool | None = None) -> Any:
    """The value of the valid JSON in ``text[start:end]`` (a str, or UTF-8
    bytes), numbers exact.

    ``lossy`` is the kernel's verdict for that text when already known (None:
    scan it again). Raises NestingError when the value is nested deeper than
    MAX_DEPTH (1,024) levels, where orjson stops too.
    """
    n = len(text)
    if end < 0 or end > n:
        end = n
    part: str | bytes | memoryview
    if (start, end) == (0, n):
        part = text
    elif isinstance(text, bytes):
        part = memoryview(text)[start:end]  # orjson reads it in place
    else:
        part = text[start:end]
    if lossy is None:
        whole = text if (start, end) == (0, n) else text[start:end]
        lossy = _syntax_check(whole, 0, len(whole), "the text")
    if not lossy:
        try:
            return orjson.loads(part)
        except orjson.JSONDecodeError:
            pass  # past orjson's depth limit, or an escaped lone surrogate
    if not isinstance(part, str):
        part = bytes(part).decode("utf-8")
    try:
        return _k.load_exact(part, _int_token, _float_token, MAX_DEPTH)
    except RecursionError:
        raise NestingError("the value is nested too deeply to return as data "
                           f"(past {MAX_DEPTH:,} levels); ask for a deeper path") from None


def loads(text: str | bytes, what: str = "the text") -> Any:
    """Parse JSON text, numbers exact (see :class:`JSONNumber`).

    Raises JSONSyntaxError (a ValueError) with line, column and a snippet.
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = decode_utf8(bytes(text), what)
    elif text.startswith("\ufeff"):
        text = text[1:]
    lossy = _syntax_check(text, 0, len(text), what)
    return load_span(text, 0, len(text), lossy)


def default(value: Any) -> Any:
    """orjson's ``default=`` hook: a JSONNumber is written as its exact text
    (``orjson.dumps(value, default=toolmend.json.default)``)."""
    if isinstance(value, JSONNumber):
        return orjson.Fragment(value.text)
    if isinstance(value, int) and not isinstance(value, bool):
        return orjson.Fragment(str(value))
    if isinstance(value, (set, frozenset)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_END = object()
_INT64 = (-(1 << 63), 1 << 64)  # the integers orjson writes (up to unsigned 64 bits)


def _leaf(value: Any) -> str:
    if type(value) is int and not _INT64[0] <= value < _INT64[1]:
        return str(value)
    try:
        return orjson.dumps(value, default=default).decode()
    except orjson.JSONEncodeError as exc:
        if type(value) is str:  # a lone surrogate, which UTF-8 cannot hold: written as its escape
            return json.dumps(value)
        raise TypeError(str(exc)) from None


def _write(value: Any, indent: bool) -> str:
    """JSON text for ``value`` without recursion (orjson stops at 254 levels
    and refuses integers past 64 bits): any depth, the same layout as
    orjson's; a circular reference is a TypeError, never a loop."""
    out: list[str] = []
    frames: list[list[Any]] = []  # [iterator, is_object, id, members written]
    on_path: set[int] = set()
    sep = ": " if indent else ":"
    v = value
    while True:
        if isinstance(v, (set, frozenset)):
            v = list(v)
        if isinstance(v, (dict, list, tuple)):
            if not v:
                out.append("{}" if isinstance(v, dict) else "[]")
            elif id(v) in on_path:
                raise TypeError("circular reference: a container holds itself")
            else:
                on_path.add(id(v))
                is_object = isinstance(v, dict)
                out.append("{" if is_object else "[")
                items: Iterator[Any] = iter(v.items()) if isinstance(v, dict) else iter(v)
                frames.append([items, is_object, id(v), 0])
        else:
            out.append(_leaf(v))
        while frames:  # the next value to write, closing what is done
            f = frames[-1]
            item: Any = next(f[0], _END)
            if item is _END:
                frames.pop()
                on_path.discard(f[2])
                if indent:
                    out.append("\n" + "  " * len(frames))
                out.append("}" if f[1] else "]")
                continue
            if f[3]:
                out.append(",")
            f[3] += 1
            if indent:
                out.append("\n" + "  " * len(frames))
            if f[1]:
                key: Any = item[0]
                item = item[1]
                if not isinstance(key, str):
                    raise TypeError(f"an object key must be a str, not {type(key).__name__}")
                out.append(_leaf(str(key)) + sep)
            v = item
            break
        else:
            return "".join(out)


def dumps(value: Any, *, indent: bool = False) -> str:
    """JSON text for ``value``, with JSONNumber and big integers written as
    their exact text (``indent``: 2 spaces a level), at any depth. Raises
    TypeError for values JSON cannot hold (and for a circular reference)."""
    option = orjson.OPT_INDENT_2 if indent else 0
    try:
        return orjson.dumps(value, default=default, option=option).decode()
    except orjson.JSONEncodeError:
        # an integer past 64 bits, nesting past 254 levels, a cycle or a type
        # JSON cannot hold (orjson's wording varies: not parsed)
        return _write(value, indent)


def decode_string(raw: str | bytes) -> str:
    """The value of one valid JSON string token (quotes included)."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")
    if "\\" not in raw:
        return raw[1:-1]
    return load_span(raw)  # type: ignore[no-any-return]
