"""Pure-Python twin of ``ext/_markers.pyx``: the scanning the tool-call readers do around markers.

Once a marker is found (the formats' one regular expression, recovery/_formats/_scan.py),
its reader asks where the JSON-like value after it ends and where the blanks before
it end; those scans are the cost of a parse, so they are a kernel. Same functions,
same results in both twins (tests/test_kernel_line.py, tests/test_markers_kernel.py):

``skip_space(text, i, limit)``: past whitespace (`` \\t\\r\\n`` and a BOM) and
``//`` / ``/* */`` comments; returns the first other position (``limit`` at most).

``tag_body(text, b, limit)``: the everyday Hermes body whose ``{`` is at ``b``:
``{"name": "...", "arguments": ...}`` (an ``"id"`` string may come before the
arguments too), ended by the first ``</tool_call>`` written in lower case
(``-1`` when another ``<tool_call`` comes first). The members before the
arguments are each a key and a string value (keys compared as written, each
at most once); whitespace between the parts is what ``str.isspace`` says.
Returns ``(name_start, name_end, id_start, id_end, args_start, args_end,
close_end)``: the quoted name and id (-1, -1 when absent), the arguments'
text (to the body's closing brace, trailing blanks left out) and the end of
the ``</tool_call>``; or None when the body is not in this shape (the
general reader takes it).

``call_body(text, b, end)``: the same members in any JSON call object whose ``{``
is at ``b`` and whose ``}`` is at ``end - 1`` (its end found already), the
arguments given by ``"arguments"`` or ``"parameters"``: ``(name_start, name_end,
id_start, id_end, by_parameters, args_start, args_end)``, or None. ``tag_body``
is this shape after the closer is found, with ``"arguments"`` only.

``JsonPrefix(stops)``: the strict reader of a JSON value streamed in pieces
(``_markers_prefix``: what the live stream passes on of a call's arguments).

``start_table(firsts, line_firsts, words)`` and ``next_start(text, pos, limit, table)``:
where the scan's token pattern can next begin (its hundred alternatives are
tried only there). ``next_start`` returns the first position ``k`` in
``text[pos:limit]`` holding a character of ``firsts``; or a line break whose
run of blanks (spaces, tabs, line breaks) ends before ``limit`` at a character
of ``line_firsts``; or the start of one of ``words`` (matched as written,
whole before ``limit``). ``limit`` when there is none. The table is built once
per token pattern; what it is differs between the twins.

``extent(text, i, limit, stop)``: the end (exclusive) of the bracketed value whose
``{`` or ``[`` is at ``i``, or -1 when it is cut off: at ``limit``, or where ``stop``
(a marker such as ``<tool_call``; None for none) stands outside a string. A string
in double quotes, or in single quotes where a value may start (after ``{[,:``),
is skipped whole (an odd run of backslashes before a quote escapes it); a closer
of an outer bracket closes the inner ones left open; a stray closer ends the value
before it; a comment after a blank or ``{[,`` is skipped.

``items(text, i, limit, is_object)``: the members of the object (or the
elements of the array) at ``i``, read as far as they go, tolerantly: keys
quoted either way or bare (letters, digits, ``_$-@.``), commas and comments
between, a value's end found as ``extent`` finds it (a string's at its closing
quote, a bare token's before ``,}]`` or a line break). Returns ``(found,
closed, end, broken, escaped)``: ``found`` a list of ``(key, start, end)`` (an
element's key is its index as a string; a value's ``end`` None when it is cut
off at ``limit``); ``closed`` when the closer was read, ``end`` past it (None
when the text ran out; where it stopped when ``broken``: a member that is no
member). A key is its text between the quotes when it holds no backslash, a
bare key as written; any other is left as written, quotes and all, and
``escaped`` says that one was (the caller decodes it).
"""

from __future__ import annotations

import re
from typing import Any

from .._text import skip_blanks, string_end
from ._markers_prefix import JsonPrefix

__all__ = ["JsonPrefix", "call_body", "extent", "items", "next_start", "skip_space", "start_table",
           "tag_body"]

_OPEN = {"{": "}", "[": "]"}
_VALUE_START = "{[,:"
# the characters extent() acts on; the runs between them are skipped at once
_MARKS = re.compile(r"[\"'{}\[\]</]")


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


class _StartTable:
    """The search for a character of ``firsts`` (a regular expression, None
    when there are none), ``line_firsts`` and the words."""

    __slots__ = ("firsts", "line_firsts", "words", "last", "last_words")

    def __init__(self, firsts: Any, line_firsts: str, words: tuple[str, ...]) -> None:
        self.firsts = firsts
        self.line_firsts = line_firsts
        self.words = words
        # the last search for a first character: (text, from, found). The scan asks again
        # from each line break before what it found: from there the answer is the same, so a
        # text of many lines and no such character is searched once, not once a line. Each
        # search runs to the text's end, whatever the limit asked: a scan inside a call (to
        # its closer) between the scan's own searches (to the text's end) then leaves the
        # answer for both, where one remembered per limit was searched again after each call.
        # (One tuple, replaced whole: a thread reading it sees one search's or another's.)
        self.last: tuple[str, int, int] | None = None
        # the same for each word (found -1: none from there on), so that a word far ahead,
        # or none, is not looked for again from each line break before it
        self.last_words: dict[str, tuple[str, int, int]] = {}


_BLANKS = re.compile(r"[ \t\n]*")


def start_table(firsts: str, line_firsts: str, words: tuple[str, ...]) -> Any:
    """The table ``next_start`` reads (see the module)."""
    if any(not w for w in words):
        raise ValueError("start_table: a word is empty")
    search = re.compile("[" + "".join(re.escape(c) for c in sorted(set(firsts))) + "]").search \
        if firsts else None
    return _StartTable(search, line_firsts, tuple(words))


def next_start(text: str, pos: int, limit: int, table: Any) -> int:
    """Where the token pattern can next begin in ``text[pos:limit]`` (see the module)."""
    if not isinstance(table, _StartTable):
        raise TypeError("next_start: the table must come from start_table()")
    limit = min(limit, len(text))
    pos = max(pos, 0)
    last = table.last
    if last is not None and last[0] is text and last[1] <= pos <= last[2]:
        p = last[2]
    else:
        m = table.firsts(text, pos) if table.firsts is not None else None
        p = m.start() if m is not None else len(text)
        table.last = (text, pos, p)
    p = min(p, limit)
    find = text.find
    seen = table.last_words
    for w in table.words:  # the first word from pos that fits before the limit
        hit = seen.get(w)
        if hit is not None and hit[0] is text and hit[1] <= pos and (hit[2] < 0 or pos <= hit[2]):
            k = hit[2]
        else:
            k = find(w, pos)
            seen[w] = (text, pos, k)
        if 0 <= k < p and k + len(w) <= limit:  # (one that runs past the limit: none later fits)
            p = k
    # A line break before p whose run of blanks ends at a line's first
    # character. A run that does not is passed whole (a regular expression's
    # lookahead would read it again from each of its breaks: quadratic).
    k = find("\n", pos, p)
    while k >= 0:
        e = _BLANKS.match(text, k + 1, limit).end()  # type: ignore[union-attr]
        if e < limit and text[e] in table.line_firsts:
            return k
        k = find("\n", e, p) if e < p else -1
    return p


def extent(text: str, i: int, limit: int, stop: str | None) -> int:
    """End of the bracketed value at ``i``; -1 when it is cut off."""
    stack = [_OPEN[text[i]]]
    prev = text[i]  # the last character that is not whitespace
    j = i + 1
    marks = _MARKS.search
    while True:
        m = marks(text, j, limit)
        if m is None:
            return -1
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
                return -1
            j = end
            prev = c
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c == "<":
            if stop is not None and text.startswith(stop, j):
                return -1
        elif c in "}]":
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


def _scalar_end(text: str, i: int, limit: int) -> int | None:
    """End of a bare token at ``i`` (to ``,}]`` or a line break, trailing blanks
    left out); None when that is ``limit``."""
    j = i
    while j < limit and text[j] not in ",}]\n":
        j += 1
    while j > i and text[j - 1] in " \t\r":
        j -= 1
    return None if j >= limit else j


def _value_end(text: str, i: int, limit: int) -> int | None:
    """End of any value at ``i``; None when cut off at ``limit``."""
    c = text[i]
    if c in _OPEN:
        end = extent(text, i, limit, None)
        return None if end < 0 else end
    if c in "\"'":
        return string_end(text, i, limit)
    return _scalar_end(text, i, limit)


def _key(raw: str) -> tuple[str, bool]:
    """A key as ``items`` gives it, and whether it is left as written (escaped)."""
    if raw[0] in "\"'":
        return (raw, True) if "\\" in raw else (raw[1:-1], False)
    return raw, False


_Found = list[tuple[str, int, int | None]]


def items(text: str, i: int, limit: int, is_object: bool) -> tuple[_Found, bool, int | None, bool, bool]:
    """The members of the object (``is_object``) or the elements of the array at ``i``."""
    limit = min(limit, len(text))
    if not 0 <= i < limit:
        raise IndexError("items: no container at the position given")
    closer = "}" if is_object else "]"
    found: _Found = []
    escaped = False
    j = i + 1
    while True:
        j = skip_space(text, j, limit)
        if j >= limit:
            return found, False, None, False, escaped
        c = text[j]
        if c == closer:
            return found, True, j + 1, False, escaped
        if c == ",":
            j += 1
            continue
        if not is_object:
            key = str(len(found))
        else:  # the key, its colon, and where its value starts
            if c in "\"'":
                kend = string_end(text, j, limit)
                if kend is None:
                    return found, False, None, False, escaped
            else:
                kend = j
                while kend < limit and (text[kend].isalnum() or text[kend] in "_$-@."):
                    kend += 1
                if kend == j:
                    return found, False, j, True, escaped
            key, kept = _key(text[j:kend])
            escaped = escaped or kept
            j = skip_space(text, kend, limit)
            if j >= limit:
                return found, False, None, False, escaped
            if text[j] != ":":
                return found, False, j, True, escaped
            j = skip_space(text, j + 1, limit)
            if j >= limit:
                found.append((key, limit, None))
                return found, False, None, False, escaped
        end = _value_end(text, j, limit)
        if end == j:  # {"a": ] (no value) or a stray closer: not a container we can read
            return found, False, j, True, escaped
        found.append((key, j, end))
        if end is None:
            return found, False, None, False, escaped
        j = end


_CLOSE = re.compile(r"</tool_call\s*>", re.I)


def _first_closer(text: str, k: int, limit: int) -> int:
    """Where the first ``</tool_call`` from ``k`` starts; -1 when there is none
    or another ``<tool_call`` comes first."""
    while True:
        k = text.find("<", k, limit)
        if k < 0 or text.startswith("</tool_call", k):
            return k
        if text.startswith("<tool_call", k):
            return -1
        k += 1


_ARGS_KEYS = {"arguments": False, "parameters": True}


def _members(text: str, b: int, e: int) -> tuple[int, int, int, int, bool, int] | None:
    """The members of the call object whose ``{`` is at ``b`` and whose closing
    brace is at ``e - 1``, before its arguments: (name_start, name_end, id_start,
    id_end, whether the key is ``parameters``, where the arguments' value starts),
    or None when they are not in that shape."""
    spans = {"name": (-1, -1), "id": (-1, -1)}
    k = b + 1
    while True:  # keys and short strings, up to the arguments' key
        k = skip_blanks(text, k, e)
        key_end = string_end(text, k, e) if k < e and text[k] == '"' else None
        if key_end is None:
            return None
        key = text[k + 1:key_end - 1]
        k = skip_blanks(text, key_end, e)
        if k >= e or text[k] != ":":
            return None
        k = skip_blanks(text, k + 1, e)
        if key in _ARGS_KEYS:
            return (*spans["name"], *spans["id"], _ARGS_KEYS[key], k)
        value_end = string_end(text, k, e) if k < e and text[k] == '"' and key in spans else None
        if value_end is None or spans[key][0] >= 0:
            return None
        spans[key] = (k, value_end)
        k = skip_blanks(text, value_end, e)
        if k >= e or text[k] != ",":
            return None
        k += 1


def _trimmed(text: str, k: int, end: int) -> int:
    while end > k and text[end - 1].isspace():
        end -= 1
    return end


def call_body(text: str, b: int, end: int) -> tuple[int, int, int, int, bool, int, int] | None:
    """The call object ``text[b:end]`` (its ``}`` at ``end - 1``): (name_start,
    name_end, id_start, id_end, by_parameters, args_start, args_end), or None."""
    if not 0 <= b < end <= len(text) or text[b] != "{" or text[end - 1] != "}":
        return None
    found = _members(text, b, end)
    if found is None:
        return None
    return (*found, _trimmed(text, found[5], end - 1))


def tag_body(text: str, b: int, limit: int) -> tuple[int, int, int, int, int, int, int] | None:
    """The everyday Hermes body at ``b``: (name_start, name_end, id_start, id_end,
    args_start, args_end, close_end), or None."""
    if not 0 <= b < limit <= len(text) or text[b] != "{":
        return None
    at = _first_closer(text, b, limit)
    close = _CLOSE.match(text, at, limit) if at >= 0 else None
    if close is None:
        return None
    e = at
    while text[e - 1].isspace():
        e -= 1
    if text[e - 1] != "}":
        return None
    found = _members(text, b, e)
    if found is None or found[4]:
        return None
    name_s, name_e, id_s, id_e, _, k = found
    return name_s, name_e, id_s, id_e, k, _trimmed(text, k, e - 1), close.end()
