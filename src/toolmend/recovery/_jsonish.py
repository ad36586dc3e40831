"""A tolerant scanner for JSON-like text inside model output.

It does not decide what a value *is* (argument recovery does that); it finds
where a value written by a model starts and ends, and the members of an
object, in text that may use single quotes, bare keys, comments or trailing
commas, and that may be cut off before it closes. Strings are skipped with
their escapes, so brackets, quotes and tags inside them never count.

    extent(text, i, limit)   -> end of the value starting at i, or None when it runs
                                past ``limit`` (cut off)
    members(text, i, limit)  -> the top-level members of the object at i
    elements(text, i, limit) -> the top-level elements of the array at i
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .._text import string_end

__all__ = ["Member", "Scan", "extent", "members", "elements", "skip_space", "decode_key"]

_OPEN = {"{": "}", "[": "]"}
_CLOSERS = "}]"
# a quote starts a string only where a key or a value may start: an
# apostrophe in a bare word ({cmd: it's}) is text
_VALUE_START = "{[,:"


def skip_space(text: str, i: int, limit: int) -> int:
    """Past whitespace and ``//`` / ``/* */`` comments."""
    while i < limit:
        c = text[i]
        if c in " \t\r\n\ufeff":
            i += 1
        elif text.startswith("//", i):
            nl = text.find("\n", i, limit)
            i = limit if nl < 0 else nl + 1
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2, limit)
            i = limit if close < 0 else close + 2
        else:
            break
    return i


# the characters extent() acts on; the runs between them are skipped at once
_EXTENT_MARKS = re.compile(r"[\"'{}\[\]</]")


def extent(text: str, i: int, limit: int, stop: str | None = None) -> int | None:
    """End of the bracketed value at ``i`` (``{`` or ``[``); None when cut off
    (at ``limit``, or where ``stop`` stands outside a string: the next tag)."""
    stack = [_OPEN[text[i]]]
    prev = text[i]  # the last character that is not whitespace
    j = i + 1
    marks = _EXTENT_MARKS.search
    while (m := marks(text, j, limit)) is not None:
        k = m.start()
        if k > j:  # a run of other characters: prev is its last non-space one
            b = k - 1
            while b >= j and text[b].isspace():
                b -= 1
            if b >= j:
                prev = text[b]
        j = k
        c = text[j]
        if c == '"' or (c == "'" and prev in _VALUE_START):
            end = string_end(text, j, limit)
            if end is None:
                return None
            j = end
            prev = c
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c == "<":
            if stop is not None and text.startswith(stop, j):
                return None
        elif c in _CLOSERS:
            if c == stack[-1]:
                stack.pop()
            elif c in stack:  # a closer for an outer bracket: the inner ones were left open
                while stack[-1] != c:
                    stack.pop()
                stack.pop()
            else:  # a stray closer: not this value's
                return j
            if not stack:
                return j + 1
        elif c == "/" and text.startswith(("//", "/*"), j) and (
                text[j - 1].isspace() or text[j - 1] in "{[,"):
            j = skip_space(text, j, limit)
            continue
        prev = c
        j += 1
    return None


def _scalar_end(text: str, i: int, limit: int) -> int:
    """End of a bare token (a number, a literal, an unquoted word)."""
    j = i
    while j < limit and text[j] not in ",}]\n":
        j += 1
    while j > i and text[j - 1] in " \t\r":
        j -= 1
    return j


def value_end(text: str, i: int, limit: int) -> int | None:
    """End of any value at ``i``; None when cut off at ``limit``."""
    c = text[i]
    if c in _OPEN:
        return extent(text, i, limit)
    if c in "\"'":
        return string_end(text, i, limit)
    end = _scalar_end(text, i, limit)
    return None if end >= limit else end


@dataclass(frozen=True)
class Member:
    """``key`` (decoded) with its value at ``text[start:end]``; ``end`` None when cut off."""

    key: str
    start: int
    end: int | None


@dataclass(frozen=True)
class Scan:
    """The members (or elements) read, whether the container closed, and where it ends."""

    items: list[Member]
    closed: bool
    end: int | None
    broken: bool = False


def decode_key(raw: str) -> str:
    """A key as written: ``"a"``, ``'a'`` or ``a``."""
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        inner = raw[1:-1]
        if raw[0] == '"':
            try:
                value = json.loads(raw)
                return value if isinstance(value, str) else inner
            except ValueError:
                return inner
        return inner.replace("\\'", "'")
    return raw


def members(text: str, i: int, limit: int) -> Scan:
    """The top-level members of the object at ``i``, as far as they go."""
    return _items(text, i, limit, "}")


def elements(text: str, i: int, limit: int) -> Scan:
    """The top-level elements of the array at ``i`` (``key`` is their index)."""
    return _items(text, i, limit, "]")


def _items(text: str, i: int, limit: int, closer: str) -> Scan:
    """The members (``closer`` "}") or elements ("]") of the container at ``i``."""
    items: list[Member] = []
    j = i + 1
    while True:
        j = skip_space(text, j, limit)
        if j >= limit:
            return Scan(items, False, None)
        c = text[j]
        if c == closer:
            return Scan(items, True, j + 1)
        if c == ",":
            j += 1
            continue
        if closer == "]":
            key = str(len(items))
        else:  # the key, its colon, and where its value starts
            if c in "\"'":
                kend = string_end(text, j, limit)
                if kend is None:
                    return Scan(items, False, None)
            else:
                kend = j
                while kend < limit and (text[kend].isalnum() or text[kend] in "_$-@."):
                    kend += 1
                if kend == j:
                    return Scan(items, False, j, broken=True)
            key = decode_key(text[j:kend])
            j = skip_space(text, kend, limit)
            if j >= limit:
                return Scan(items, False, None)
            if text[j] != ":":
                return Scan(items, False, j, broken=True)
            j = skip_space(text, j + 1, limit)
            if j >= limit:
                items.append(Member(key, limit, None))
                return Scan(items, False, None)
        end = value_end(text, j, limit)
        if end == j:  # {"a": ] (no value) or a stray '}': not a container we can read
            return Scan(items, False, j, broken=True)
        items.append(Member(key, j, end))
        if end is None:
            return Scan(items, False, None)
        j = end
