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
from dataclasses import dataclass

from .._kernels import markers
from .._text import string_end

__all__ = ["Member", "Scan", "extent", "members", "elements", "skip_space", "decode_key"]

_OPEN = {"{": "}", "[": "]"}


skip_space = markers.skip_space  # past whitespace and // and /* */ comments (the marker kernel)
_extent = markers.extent


def extent(text: str, i: int, limit: int, stop: str | None = None) -> int | None:
    """End of the bracketed value at ``i`` (``{`` or ``[``); None when cut off
    (at ``limit``, or where ``stop`` stands outside a string: the next tag).
    The scan is the marker kernel's (``_kernels/_markers_py.py`` says how it reads)."""
    end = _extent(text, i, limit, stop)
    return None if end < 0 else end


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
        if "\\" not in inner and (raw[0] == "'" or '"' not in inner):
            return inner  # no escape: the text between the quotes
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
