"""The everyday pythonic call read without :mod:`ast`: ``f(a='x', b=[1, 2], c=True)``.

``ast.parse`` costs ~15-20 us a call, most of a pythonic message's reading. The
calls models write are nearly always keyword arguments holding plain literals,
so those are read here with one token pattern; anything else (a positional
argument, an escape other than ``\\n \\t \\r \\\\ \\' \\"``, a triple-quoted or
prefixed string, a comment, a number Python spells its own way, a key written
twice, a name that is a keyword) gives None and ``_pythonic`` reads the call
with :mod:`ast` as before. So this reading never differs from that one: what it
accepts is valid Python whose literal is the value read here, and raises no
warning (tests/test_pyliteral.py holds the two equal on generated calls).

``python_prefix`` says whether a text is the start of Python whose brackets are
still open (the scan asks it of a value that runs on to a reasoning closer).
"""

from __future__ import annotations

import io
import keyword
import math
import re
import tokenize
from typing import Any, Callable

from ..._text import CURLY_DOUBLE, CURLY_SINGLE, OTHER_QUOTES

__all__ = ["simple_call_args", "python_prefix"]

# one token after blanks: a string with the everyday escapes only (no line break, NUL or lone
# surrogate, which Python refuses), a number as JSON writes it, a word, a punctuation mark
_TOKEN = re.compile(
    r"[ \t\n]*(?:(?P<s>'(?:[^'\\\n\r\x00\ud800-\udfff]|\\[ntr\\'\"])*'"
    r"|\"(?:[^\"\\\n\r\x00\ud800-\udfff]|\\[ntr\\'\"])*\")"
    r"|(?P<n>-?(?:0|[1-9][0-9]{0,99})(?P<f>(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?![\w.]))"
    r"|(?P<w>[A-Za-z_][A-Za-z0-9_]*)|(?P<p>[\[\]{},:=)]))")
_END = re.compile(r"[ \t\n]*\Z")
_ESCAPE = re.compile(r"\\(.)")
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}
_WORDS = {"True": True, "False": False, "None": None, "true": True, "false": False, "null": None}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*[ \t]*\(")
_DEPTH = 32  # (deeper values are read by ast, which knows its own limits)


class _Other(Exception):
    """Not the everyday call: ast reads it."""


def simple_call_args(source: str) -> dict[str, Any] | None:
    """The arguments of the call ``source`` (``NAME(k=v, ...)`` and nothing after its
    closing parenthesis) when every argument is a keyword one holding a plain literal;
    None for anything else."""
    head = _NAME.match(source)
    if head is None or any(keyword.iskeyword(w) for w in head.group().rstrip(" \t(").split(".")):
        return None
    try:
        args, end = _arguments(source, head.end())
    except _Other:
        return None
    return args if _END.match(source, end) is not None else None


def _next(source: str, k: int) -> re.Match[str]:
    m = _TOKEN.match(source, k)
    if m is None:
        raise _Other
    return m


def _run(source: str, k: int, close: str, item: Callable[[int], int]) -> int:
    """Past the items from ``k`` to ``close`` (``item`` reads one and says where it ends),
    commas between them and one after the last allowed, as Python allows."""
    while True:
        m = _next(source, k)
        if m.group("p") == close:
            return m.end()
        m = _next(source, item(k))
        if m.group("p") == close:
            return m.end()
        if m.group("p") != ",":
            raise _Other
        k = m.end()


def _arguments(source: str, k: int) -> tuple[dict[str, Any], int]:
    args: dict[str, Any] = {}

    def argument(k: int) -> int:
        m = _next(source, k)
        name = m.group("w")
        if name is None or keyword.iskeyword(name) or name == "__debug__" or name in args:
            raise _Other
        m = _next(source, m.end())
        if m.group("p") != "=":
            raise _Other
        args[name], end = _value(source, m.end(), 0)
        return end

    return args, _run(source, k, ")", argument)


def _value(source: str, k: int, depth: int) -> tuple[Any, int]:
    m = _next(source, k)
    kind = m.lastgroup
    if kind == "s":
        body = m.group("s")[1:-1]
        return (_ESCAPE.sub(lambda e: _ESCAPED[e.group(1)], body) if "\\" in body else body), m.end()
    if kind in ("n", "f"):
        if not m.group("f"):
            return int(m.group("n")), m.end()
        number = float(m.group("n"))
        if not math.isfinite(number):
            raise _Other
        return number, m.end()
    if kind == "w":
        word = m.group("w")
        if word not in _WORDS:
            raise _Other
        return _WORDS[word], m.end()
    p = m.group("p")
    if depth >= _DEPTH or p not in ("[", "{"):
        raise _Other
    return (_list if p == "[" else _dict)(source, m.end(), depth + 1)


def _list(source: str, k: int, depth: int) -> tuple[list[Any], int]:
    out: list[Any] = []

    def element(k: int) -> int:
        value, end = _value(source, k, depth)
        out.append(value)
        return end

    return out, _run(source, k, "]", element)


def _dict(source: str, k: int, depth: int) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}

    def member(k: int) -> int:
        if _next(source, k).lastgroup != "s":
            raise _Other  # (a key that is no string: ast reads it)
        key, k = _value(source, k, depth)
        m = _next(source, k)
        if key in out or m.group("p") != ":":
            raise _Other
        out[key], end = _value(source, m.end(), depth)
        return end

    return out, _run(source, k, "}", member)


_READER_QUOTES = frozenset(CURLY_SINGLE + CURLY_DOUBLE + "".join(OTHER_QUOTES))


def python_prefix(source: str) -> bool:
    """``source`` is the start of Python whose brackets are still open, outside any string."""
    if not _READER_QUOTES.isdisjoint(source):
        return False  # (a quote the readers take and Python does not: what follows may be a string's)
    if source.isascii() and not any(q in source for q in "'\"#\\`"):  # (no string: brackets counted)
        return sum(map(source.count, "([{")) > sum(map(source.count, ")]}"))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.ERRORTOKEN:
                return False
    except tokenize.TokenError as e:
        return "multi-line statement" in str(e.args[0])
    except SyntaxError:  # (an unclosed string, as Python 3.12 tells it)
        return False
    return False
