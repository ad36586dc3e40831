"""Paths into a JSON document: ``a.b[0].c``, ``[-1]``, ``*``, quoted keys.

Grammar (whitespace is allowed inside brackets only)::

    path     := [ "$" ] [ first ] ( "." step | "[" bracket "]" )*
    first    := bare | quoted | "*"
    step     := bare | quoted | "*"
    bracket  := integer | "*" | quoted
    bare     := one or more characters other than . [ ] " ' and whitespace
    quoted   := "..." (JSON escapes) | '...' (\\' and \\\\ escapes)

A segment is a ``str`` (a key; a bare decimal key such as ``items.0`` also
indexes an array), an ``int`` (a bracketed index, negative counts from the
end) or :data:`WILD` (``*`` / ``[*]``: every member of an array or object).
A quoted ``"*"`` is the key ``*``. ``""``, ``"$"`` and ``"."`` are the root.
"""

from __future__ import annotations

import json
import re
from array import array
from dataclasses import dataclass
from typing import Any, Sequence, Union

from .._kernels import jsonscan as _k
from ..errors import PathError

__all__ = ["WILD", "Key", "Slice", "Segment", "parse_path", "format_path", "format_segment", "as_index",
           "is_fan_out", "walk", "walk_many"]


class _Wild:
    __slots__ = ()

    def __repr__(self) -> str:
        return "WILD"

    def __reduce__(self) -> str:
        return "WILD"


#: The ``*`` segment.
WILD: Any = _Wild()



@dataclass(frozen=True)
class Slice:
    """The ``[start:stop]`` segment: a fan-out over a range of array elements,
    with Python's rules (negative bounds count from the end)."""

    start: int | None = None
    stop: int | None = None

    def indexes(self, count: int) -> range:
        return range(count)[self.start:self.stop]

    def __str__(self) -> str:
        return f"[{'' if self.start is None else self.start}:{'' if self.stop is None else self.stop}]"


class Key(str):
    """A key of digits written quoted (``a["1"]``, ``a."1"``): an object's member only.
    A bare one (``a.1``) also indexes an array; a quoted one says it is a key, and on
    an array it finds nothing (as jq and JSONPath read it), never element 1."""

    __slots__ = ()


Segment = Union[str, int, _Wild, Slice]


def is_fan_out(seg: Segment) -> bool:
    """``*`` and slices select any number of values."""
    return isinstance(seg, (_Wild, Slice))

_BARE = re.compile(r"[^.\[\]\"'\s]+")
_INT = re.compile(r"\s*(-?[0-9]+)\s*\]")
_STAR = re.compile(r"\s*\*\s*\]")
_SLICE = re.compile(r"\s*(-?[0-9]+)?\s*:\s*(-?[0-9]+)?\s*\]")
_QUOTED_CLOSE = re.compile(r"\s*\]")
_DQ = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SQ = re.compile(r"'(?:[^'\\]|\\.)*'", re.S)
_SIMPLE_KEY = re.compile(r"[^.\[\]\"'\s*$]+|\$[^.\[\]\"'\s]+")


def _err(path: str, pos: int, what: str) -> PathError:
    return PathError(f"path {path!r}: {what} at character {pos + 1}", path=path, pos=pos)


def as_index(seg: str) -> int | None:
    """A key used on an array is an index when it is a decimal integer of at
    most the kernels' ``INDEX_DIGITS`` digits."""
    digits = seg[1:] if seg.startswith("-") else seg
    if digits and digits.isascii() and digits.isdigit() and len(digits) <= _k.INDEX_DIGITS \
            and type(seg) is not Key:
        return int(seg)
    return None


def _quoted(path: str, i: int) -> tuple[str, int]:
    """The key of the quoted string at ``path[i]`` and the offset past it (a ``Key``
    when it is digits: an object's member only)."""
    key, end = _quoted_text(path, i)
    return (Key(key) if as_index(key) is not None else key), end


def _quoted_text(path: str, i: int) -> tuple[str, int]:
    if path[i] == '"':
        m = _DQ.match(path, i)
        if not m:
            raise _err(path, i, "unterminated quoted key")
        try:
            key = json.loads(m.group())
        except json.JSONDecodeError:
            raise _err(path, i, "invalid escape in quoted key") from None
        return key, m.end()
    m = _SQ.match(path, i)
    if not m:
        raise _err(path, i, "unterminated quoted key")
    body = m.group()[1:-1]
    return re.sub(r"\\(.)", r"\1", body, flags=re.S), m.end()


def _step(path: str, i: int) -> tuple[Segment, int]:
    """A segment after '.' or at the start."""
    if i >= len(path):
        raise _err(path, i, "a key is missing after '.'")
    c = path[i]
    if c in "\"'":
        return _quoted(path, i)
    if c == "*" and (i + 1 == len(path) or path[i + 1] in ".["):
        return WILD, i + 1
    m = _BARE.match(path, i)
    if not m:
        if c.isspace():
            raise _err(path, i, "unexpected whitespace (quote keys that hold spaces: "
                                "a[\"x y\"])")
        if c == ".":  # ($..price: JSONPath's search of every descendant, which a path here never does)
            raise _err(path, i, "empty key between two dots ('..', JSONPath's search of every "
                                "descendant, is not done here: write each level, with * where "
                                "any key or index will do, as in items[*].price)")
        raise _err(path, i, f"unexpected {c!r}")
    return m.group(), m.end()


def _bracket(path: str, i: int) -> tuple[Segment, int]:
    """A segment inside [ ] (``i`` is just past '[')."""
    m = _INT.match(path, i)
    if m:
        digits = m.group(1).lstrip("-")
        if len(digits) > _k.INDEX_DIGITS:
            raise _err(path, i, "index too large")
        return int(m.group(1)), m.end()
    m = _STAR.match(path, i)
    if m:
        return WILD, m.end()
    m = _SLICE.match(path, i)
    if m:
        bounds = [None if g is None else int(g) for g in m.groups()]
        if any(b is not None and len(str(abs(b))) > _k.INDEX_DIGITS for b in bounds):
            raise _err(path, i, "slice bound too large")
        return Slice(bounds[0], bounds[1]), m.end()
    j = i
    while j < len(path) and path[j].isspace():
        j += 1
    if j < len(path) and path[j] in "\"'":
        key, k = _quoted(path, j)
        m = _QUOTED_CLOSE.match(path, k)
        if not m:
            raise _err(path, k, "expected ']' after the quoted key")
        return key, m.end()
    close = path.find("]", i)
    inner = path[i:close] if close >= 0 else path[i:]
    if close < 0:
        raise _err(path, i - 1, "'[' is not closed")
    raise _err(path, i, f"[{inner}] is neither an index, a slice, * nor a quoted key "
                        f"(write [\"{inner.strip()}\"] for a key)")


def parse_path(path: str | Sequence[Any] | None) -> tuple[Segment, ...]:
    """The segments of ``path``; a list/tuple of segments is checked and kept."""
    if path is None:
        return ()
    if not isinstance(path, str):
        given = tuple(path)
        for seg in given:
            if (seg is not WILD and not isinstance(seg, (str, int, Slice))
                    or isinstance(seg, bool)):
                raise PathError(f"path segments are keys (str), indexes (int), WILD or Slice, "
                                f"not {seg!r}")
        return given
    text = path.strip()
    segs: list[Segment] = []
    i = 0
    n = len(text)
    if text.startswith("$"):
        i = 1
        if i < n and text[i] not in ".[":
            i = 0  # a key that starts with "$"
    if i < n and text[i] == "." :
        if i + 1 == n:
            return ()
        i += 1
    if i < n and text[i] != "[":
        seg, i = _step(text, i)
        segs.append(seg)
    while i < n:
        c = text[i]
        if c == ".":
            seg, i = _step(text, i + 1)
        elif c == "[":
            seg, i = _bracket(text, i + 1)
        elif c.isspace():
            raise _err(text, i, "unexpected whitespace (quote keys that hold spaces: "
                                "a[\"x y\"])")
        else:
            raise _err(text, i, f"expected '.' or '[', found {c!r}")
        segs.append(seg)
    return tuple(segs)


def format_segment(seg: Segment, first: bool = False) -> str:
    """One segment as path text (``.key``, ``[3]``, ``["a.b"]``, ``[*]``)."""
    if isinstance(seg, _Wild):
        return "*" if first else "[*]"
    if isinstance(seg, Slice):
        return str(seg)
    if isinstance(seg, int):
        return f"[{seg}]"
    if _SIMPLE_KEY.fullmatch(seg) and not seg.startswith("$") and type(seg) is not Key:
        return seg if first else "." + seg
    return "[" + json.dumps(seg, ensure_ascii=False) + "]"


def format_path(segments: Sequence[Segment]) -> str:
    """Path text that :func:`parse_path` reads back to ``segments``; ``$`` for
    the root."""
    if not segments:
        return "$"
    return "".join(format_segment(seg, k == 0) for k, seg in enumerate(segments))


def walk(text: str | bytes, pos: int, segments: Sequence[Segment],
         index: array[int] | None) -> tuple[int, int, int, int]:
    """The kernel's ``lookup`` of ``segments`` from the value at ``pos``, except that a
    quoted key of digits (a ``Key``) names an object's member only: the kernel, which
    reads one on an array as an index, is asked for the path, then for where each such
    key stood."""
    keys = [k for k, seg in enumerate(segments) if type(seg) is Key]
    if not keys:
        return _k.lookup(text, pos, segments, index)
    plain = tuple(str(seg) if type(seg) is Key else seg for seg in segments)
    found: tuple[int, int, int, int] = _k.lookup(text, pos, plain, index)
    for k in keys:
        if 0 <= found[2] < k:
            break
        holder = _k.lookup(text, pos, plain[:k], index) if k else (pos, -1, -1, -1)
        if text[holder[0]:holder[0] + 1] in ("[", b"["):
            return holder[0], holder[1], k, holder[3]
    return found


def walk_many(text: str | bytes, spans: array[int], segments: Sequence[Segment],
              index: array[int] | None) -> array[int]:
    """The kernel's ``lookup_many``, with ``walk``'s reading of a quoted key of digits."""
    if not any(type(seg) is Key for seg in segments):
        return _k.lookup_many(text, spans, segments, index)
    out = array("q")
    for j in range(0, len(spans), 2):
        if spans[j] < 0:
            out.extend((-1, -1))
            continue
        start, end, failed, _ = walk(text, spans[j], segments, index)
        out.extend((start, end) if failed < 0 else (-1, -1))
    return out
