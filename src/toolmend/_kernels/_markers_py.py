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

``extent(text, i, limit, stop)``: the end (exclusive) of the bracketed value whose
``{`` or ``[`` is at ``i``, or -1 when it is cut off: at ``limit``, or where ``stop``
(a marker such as ``<tool_call``; None for none) stands outside a string. A string
in double quotes, or in single quotes where a value may start (after ``{[,:``),
is skipped whole (an odd run of backslashes before a quote escapes it); a closer
of an outer bracket closes the inner ones left open; a stray closer ends the value
before it; a comment after a blank or ``{[,`` is skipped.
"""

from __future__ import annotations

import re

from .._text import skip_blanks, string_end

__all__ = ["extent", "skip_space", "tag_body"]

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
    spans = {"name": (-1, -1), "id": (-1, -1)}
    seen: set[str] = set()
    k = b + 1
    while True:  # the members before the arguments: keys and short strings
        k = skip_blanks(text, k, e)
        key_end = string_end(text, k, e) if k < e and text[k] == '"' else None
        if key_end is None:
            return None
        key = text[k + 1:key_end - 1]
        k = skip_blanks(text, key_end, e)
        if k >= e or text[k] != ":":
            return None
        k = skip_blanks(text, k + 1, e)
        if key == "arguments":
            break
        value_end = string_end(text, k, e) if k < e and text[k] == '"' and key in spans else None
        if value_end is None or key in seen:
            return None
        seen.add(key)
        spans[key] = (k, value_end)
        k = skip_blanks(text, value_end, e)
        if k >= e or text[k] != ",":
            return None
        k += 1
    end = e - 1
    while end > k and text[end - 1].isspace():
        end -= 1
    return (*spans["name"], *spans["id"], k, end, close.end())
