"""Pure-Python twin of ``ext/_markers.pyx``: the scanning the tool-call readers do around markers.

Once a marker is found (the formats' one regular expression, recovery/_formats/_scan.py),
its reader asks where the JSON-like value after it ends and where the blanks before
it end; those scans are the cost of a parse, so they are a kernel. Same functions,
same results in both twins (tests/test_kernel_line.py, tests/test_markers_kernel.py):

``skip_space(text, i, limit)``: past whitespace (`` \\t\\r\\n`` and a BOM) and
``//`` / ``/* */`` comments; returns the first other position (``limit`` at most).

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

from .._text import string_end

__all__ = ["extent", "skip_space"]

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
