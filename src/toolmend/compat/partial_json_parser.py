"""partial-json-parser's API: the value of a JSON document cut anywhere.

    from toolmend.compat.partial_json_parser import loads, Allow
    loads('{"cmd": "get", "args": {"file": "r.js')           # {'cmd': 'get', 'args': {'file': 'r.js'}}
    loads('{"cmd": "get", "args": {"file": "r.js', Allow.OBJ) # {'cmd': 'get', 'args': {}}

``loads(text, allow_partial=Allow.ALL, parser=None)`` (also ``decode`` and
``parse_json``) gives the value partial-json-parser gives on every prefix of a
JSON document; ``ensure_json(text, allow_partial)`` the completed text;
``fix(text, allow_partial)`` and ``fix_fast(text, allow_partial)`` the completion as
``(head, tail)``: ``head`` a slice of ``text`` (what is kept), ``tail`` what closes
it. They differ only where the original's do: ``fix_fast`` keeps the blanks before
the comma after the last whole member (``'["a" ,"b'`` without ``STR``:
``('["a" ', ']')``, where ``fix`` gives ``('["a"', ']')``).
``Allow`` says which kinds of value may be returned cut: a cut string, number,
``null``, ``true``/``false``, ``NaN``, ``Infinity``, ``-Infinity``, array or
object that is not allowed is left out of its container, and at the top
level it raises :class:`PartialJSON`. Text that no continuation makes JSON raises
:class:`MalformedJSON` (both are :class:`JSONDecodeError`, a ``ValueError``, as in
the original); a text that is not ``str`` raises ``TypeError``. A key without its value is left out; a
number inside a container counts as cut until the character after it
arrives (``[1`` may become ``[10]``).

One call reads the text once. For a stream, :class:`toolmend.StreamingArgs`
keeps its state between chunks instead of reading the prefix again.
"""

from __future__ import annotations

import json
import re
from enum import IntFlag, auto
from typing import Any, Callable

from .._text import MAX_DEPTH, TOO_DEEP, string_end
from ..errors import MalformedJSONError, PartialJSONError, ToolmendError

__all__ = ["Allow", "loads", "decode", "parse_json", "ensure_json", "fix", "fix_fast", "JSONDecodeError",
           "PartialJSON", "MalformedJSON", "STR", "NUM", "ARR", "OBJ", "NULL", "BOOL", "NAN", "INFINITY",
           "_INFINITY", "INF", "SPECIAL", "ATOM", "COLLECTION", "ALL"]


class Allow(IntFlag):
    """The kinds of value that may come back cut."""

    STR = auto()
    NUM = auto()
    ARR = auto()
    OBJ = auto()
    NULL = auto()
    BOOL = auto()
    NAN = auto()
    INFINITY = auto()
    _INFINITY = auto()

    INF = INFINITY | _INFINITY
    SPECIAL = NULL | BOOL | INF | NAN
    ATOM = STR | NUM | SPECIAL
    COLLECTION = ARR | OBJ
    ALL = ATOM | COLLECTION


STR, NUM, ARR, OBJ = Allow.STR, Allow.NUM, Allow.ARR, Allow.OBJ
NULL, BOOL, NAN, INFINITY, _INFINITY = Allow.NULL, Allow.BOOL, Allow.NAN, Allow.INFINITY, Allow._INFINITY
INF, SPECIAL, ATOM, COLLECTION, ALL = Allow.INF, Allow.SPECIAL, Allow.ATOM, Allow.COLLECTION, Allow.ALL

JSONDecodeError = ToolmendError
PartialJSON = PartialJSONError
MalformedJSON = MalformedJSONError

_LITERALS = {"true": Allow.BOOL, "false": Allow.BOOL, "null": Allow.NULL, "NaN": Allow.NAN,
             "Infinity": Allow.INFINITY, "-Infinity": Allow._INFINITY}
_NUMBER_CHARS = frozenset("0123456789+-.eE")
# what the end of a text may hold of a number: a prefix of a JSON number ("-", "1.", "2e+")
_NUMBER_PREFIX = re.compile(r"-|-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?")
_SPACE = " \t\n\r"


class _Frame:
    __slots__ = ("kind", "start", "mark", "comma", "state")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind        # "{" or "["
        self.start = start      # where the member holding this container starts (cut point in the parent)
        self.mark = start + 1   # the text up to here holds only whole members
        self.comma: int | None = None  # the comma after the last whole member, once read
        self.state = "first"    # first | key | colon | value | after


def _literal_kind(tok: str) -> Allow | None:
    """The kind of literal ``tok`` begins (``-I`` begins -Infinity), or None."""
    for word, kind in _LITERALS.items():
        if word.startswith(tok):
            return kind
    return None


def _cut_number(tok: str) -> str:
    """The longest JSON number ``tok`` begins with (``1.5e`` -> ``1.5``)."""
    while tok and tok[-1] in "+-.eE":
        tok = tok[:-1]
    return tok


def ensure_json(json_string: str, allow_partial: Allow | int = ALL, use_fast_fix: bool = True) -> str:
    """``json_string`` completed into a whole JSON text, as :func:`loads` reads it."""
    del use_fast_fix  # accepted for compatibility: both give the same JSON text here
    text, keep, tail = _split("ensure_json", json_string, allow_partial, fast=False)
    return text[:keep] + tail


def fix(json_string: str, allow_partial: Allow | int = ALL) -> tuple[str, str]:
    """``(head, tail)``: the slice of ``json_string`` kept, and the text that completes it."""
    return _head_tail("fix", json_string, allow_partial, fast=False)


def fix_fast(json_string: str, allow_partial: Allow | int = ALL) -> tuple[str, str]:
    """:func:`fix`, keeping the blanks before the comma that follows the last whole member."""
    return _head_tail("fix_fast", json_string, allow_partial, fast=True)


def _head_tail(name: str, json_string: str, allow_partial: Allow | int, fast: bool) -> tuple[str, str]:
    _, keep, tail = _split(name, json_string, allow_partial, fast)
    lead = len(json_string) - len(json_string.lstrip())
    return json_string[:lead + keep], tail


def _split(name: str, json_string: str, allow_partial: Allow | int, fast: bool) -> tuple[str, int, str]:
    """(the text without the blanks around it, how much of it is kept, the completion)."""
    if not isinstance(json_string, str):
        raise TypeError(f"{name}: json_string must be str, not {type(json_string).__name__}")
    allow = Allow(int(allow_partial))
    # whitespace around the text is not part of it (a cut string loses its trailing spaces)
    text = json_string.strip()
    n = len(text)
    stack: list[_Frame] = []
    i = 0
    while i < n and text[i] in _SPACE:
        i += 1
    if i >= n:
        raise MalformedJSON("no JSON value: the text is empty", pos=n)
    tail_kind: Allow | None = None  # the kind of the value cut at the end, if one is
    tail_start = tail_end_text = None
    while i < n:
        c = text[i]
        if c in _SPACE:
            i += 1
            continue
        top = stack[-1] if stack else None
        if top is not None and top.state == "after":
            if c == ",":
                top.state = "key" if top.kind == "{" else "value"
                top.comma = i
                i += 1
                continue
            if (c == "}" and top.kind == "{") or (c == "]" and top.kind == "["):
                i += 1
                if _close(stack, i):
                    return text, n, ""  # a whole value: the parser judges what follows it
                continue
            raise MalformedJSON(f"expected ',' or a closing bracket at {i}, found {c!r}", pos=i)
        if top is not None and top.kind == "{" and top.state in ("first", "key"):
            if c == "}" and top.state == "first":
                i += 1
                if _close(stack, i):
                    return text, n, ""
                continue
            if c != '"':
                raise MalformedJSON(f"expected a key in double quotes at {i}, found {c!r}", pos=i)
            end = string_end(text, i, len(text))
            if end is None:
                break  # cut inside a key: the member is left out
            i = end
            top.state = "colon"
            continue
        if top is not None and top.state == "colon":
            if c != ":":
                raise MalformedJSON(f"expected ':' at {i}, found {c!r}", pos=i)
            top.state = "value"
            i += 1
            continue
        # a value
        if c == "]" and top is not None and top.kind == "[" and top.state == "first":
            i += 1
            if _close(stack, i):
                return text, n, ""
            continue
        member_start = top.mark if top is not None else 0
        if c in "{[":
            if len(stack) >= MAX_DEPTH:
                raise MalformedJSON(f"{TOO_DEEP} at {i}", pos=i)
            frame = _Frame(c, i)
            frame.start = member_start
            stack.append(frame)
            i += 1
            continue
        if c == '"':
            end = string_end(text, i, len(text))
            if end is None:
                tail_kind, tail_start = Allow.STR, i
                tail_end_text = _cut_string(text, i) + '"'
                break
            i = end
        else:
            j = i
            while j < n and (text[j] in _NUMBER_CHARS or text[j].isalpha()):
                j += 1
            tok = text[i:j]
            at_end = j >= n
            if not tok:  # no value starts with this character (``]``, ``@``, ``'``)
                raise MalformedJSON(f"unexpected {c!r} at {i}", pos=i)
            if tok in _LITERALS:
                pass  # a whole literal, even at the very end
            elif tok == "-" and at_end:
                tail_kind, tail_start, tail_end_text = Allow.NUM, i, None
                break
            elif tok[:1] in "-0123456789" and not tok.startswith("-I"):
                if at_end:  # a number at the end may go on
                    if not _NUMBER_PREFIX.fullmatch(tok):
                        raise MalformedJSON(f"{tok!r} at {i} is not the beginning of a number", pos=i)
                    cut = _cut_number(tok)
                    if not stack and cut == tok:
                        return text, n, ""
                    tail_kind, tail_start = Allow.NUM, i
                    tail_end_text = cut if cut not in ("", "-") else None
                    break
            else:
                kind = _literal_kind(tok)
                if kind is None or not at_end:
                    raise MalformedJSON(f"unexpected {tok or c!r} at {i}", pos=i)
                tail_kind, tail_start = kind, i
                tail_end_text = next(w for w, k in _LITERALS.items() if w.startswith(tok) and k == kind)
                break
            i = j
        if top is None:
            return text, n, ""
        top.mark = i
        top.comma = None
        top.state = "after"
    keep, tail = _complete(text, stack, allow, tail_kind, tail_start, tail_end_text, fast)
    return text, keep, tail


def _close(stack: list[_Frame], i: int) -> bool:
    """Close the innermost container, which ends before ``i``: True when it was
    the outermost (a whole value), else its parent goes on after it."""
    stack.pop()
    if not stack:
        return True
    stack[-1].mark = i
    stack[-1].comma = None
    stack[-1].state = "after"
    return False


def _complete(text: str, stack: list[_Frame], allow: Allow, tail_kind: Allow | None,
              tail_start: int | None, tail_text: str | None, fast: bool) -> tuple[int, str]:
    """Close what is open, leaving out what may not be partial: (how much of ``text`` is
    kept, the text that completes it)."""

    def kept(frame: _Frame) -> int:
        return frame.comma if fast and frame.comma is not None else frame.mark

    opened = ""  # what the kept text needs before the closers (a cut string's quote, a literal)
    if tail_kind is not None:
        assert tail_start is not None
        if tail_text is not None and tail_kind & allow:
            # a cut string or number keeps what was written of it; a cut literal (``tr``) is
            # written whole after the kept text, as the original does
            common = 0
            if tail_kind in (Allow.STR, Allow.NUM):
                written = text[tail_start:]
                while common < min(len(written), len(tail_text)) and written[common] == tail_text[common]:
                    common += 1
            keep, opened = tail_start + common, tail_text[common:]
        elif stack:
            keep = kept(stack[-1])
        else:
            raise PartialJSON(f"the text is cut inside a value, and {tail_kind.name} is not allowed",
                              pos=tail_start)
    elif stack:
        keep = kept(stack[-1])
    else:  # pragma: no cover - a whole value returns earlier
        return len(text), ""
    closers: list[str] = []
    for depth in range(len(stack) - 1, -1, -1):
        frame = stack[depth]
        if (Allow.OBJ if frame.kind == "{" else Allow.ARR) & allow:
            closers.append("}" if frame.kind == "{" else "]")
            continue
        if depth == 0:
            kind, flag = ("an object", "OBJ") if frame.kind == "{" else ("an array", "ARR")
            raise PartialJSON(f"the text is cut inside {kind}, and {flag} is not allowed", pos=frame.start)
        keep, opened = kept(stack[depth - 1]), ""
        closers = []
    return keep, opened + "".join(closers)


def _cut_string(text: str, i: int) -> str:
    """The cut string from ``i`` without an escape cut in the middle."""
    s = text[i:]
    k = s.rfind("\\")
    if k >= 0:
        b = k
        while b > 0 and s[b - 1] == "\\":
            b -= 1
        run = k - b + 1
        if run % 2 == 1:  # the last backslash starts an escape
            rest = s[k + 1:]
            if not rest or (rest[0] == "u" and len(rest) < 5):
                s = s[:k]
    return s


def parse_json(json_string: str, allow_partial: Allow | int = ALL,
               parser: Callable[[str], Any] | None = None, use_fast_fix: bool = True) -> Any:
    """The value of ``json_string``, cut anywhere (see the module docstring)."""
    completed = ensure_json(json_string, allow_partial, use_fast_fix)
    try:
        return (parser or json.loads)(completed)
    except RecursionError:  # json.loads recurses: it may stop short of MAX_DEPTH
        raise MalformedJSON("nesting deeper than the parser reads", pos=0) from None


loads = decode = parse_json
