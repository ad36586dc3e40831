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

The scans are the marker kernel's (``extent``, ``items``); keys are decoded here.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Callable, NamedTuple

import orjson

from .._kernels import markers

__all__ = ["Member", "Scan", "extent", "members", "elements", "skip_space", "decode_key"]

skip_space = markers.skip_space  # past whitespace and // and /* */ comments (the marker kernel)
_extent = markers.extent
_read_items = markers.items


def extent(text: str, i: int, limit: int, stop: str | None = None) -> int | None:
    """End of the bracketed value at ``i`` (``{`` or ``[``); None when cut off
    (at ``limit``, or where ``stop`` stands outside a string: the next tag).
    The scan is the marker kernel's (``_kernels/_markers_py.py`` says how it reads)."""
    end = _extent(text, i, limit, stop)
    return None if end < 0 else end


class Member(NamedTuple):
    """``key`` (decoded) with its value at ``text[start:end]``; ``end`` None when cut off."""

    key: str
    start: int
    end: int | None


# a Member from the kernel's (key, start, end), made without a Python frame
_member: Callable[[tuple[str, int, int | None]], Member] = partial(tuple.__new__, Member)


class Scan(NamedTuple):
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
            try:  # (orjson: a call's arguments written as a string are decoded here, often)
                value = orjson.loads(raw)
            except ValueError:  # (a lone surrogate's escape, which orjson refuses: json reads it)
                try:
                    value = json.loads(raw)
                except ValueError:
                    return inner
            return value if isinstance(value, str) else inner
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
    found, closed, end, broken, escaped = _read_items(text, i, limit, closer == "}")
    if escaped:  # keys with escapes, which the kernel leaves as written
        found = [(decode_key(k) if k[:1] in "\"'" and "\\" in k else k, s, e) for k, s, e in found]
    return Scan(list(map(_member, found)), closed, end, broken)
