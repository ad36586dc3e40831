"""Messages for JSON that does not parse: what was found, what was expected,
and a snippet of the line with a caret under the place.

The scanner kernels report an error code and an offset; this module turns
them into a :class:`~toolmend.errors.JSONSyntaxError` that a person (or an
agent) can act on: ``trailing comma before '}'``, ``single quotes are not
JSON``, ``True is a Python literal, not JSON: write true``.
"""

from __future__ import annotations

import re

from .._kernels import jsonscan as _k
from .._text import line_col
from ..errors import JSONSyntaxError

__all__ = ["syntax_error", "syntax_error_in_bytes", "describe", "snippet"]


def syntax_error(text: str, pos: int, code: int, what: str = "the text") -> JSONSyntaxError:
    """The JSONSyntaxError for scan() error ``code`` at offset ``pos``."""
    line, column = line_col(text, pos)
    return JSONSyntaxError(describe(text, pos, code), pos=pos, line=line, column=column,
                           snippet=snippet(text, pos), code=code, what=what)


def syntax_error_in_bytes(data: bytes, start: int, pos: int, code: int,
                          what: str = "the text") -> JSONSyntaxError:
    """The JSONSyntaxError of :func:`syntax_error` for the text that the
    valid UTF-8 ``data[start:]`` holds, error ``code`` at byte ``pos``:
    the same message, character offset, line, column and snippet, from the
    bytes around the place (the text is never decoded whole)."""
    n = len(data)
    line_start = data.rfind(b"\n", start, pos) + 1 or start
    line_end = data.find(b"\n", pos)
    if line_end < 0:
        line_end = n
    line = data.count(b"\n", start, pos) + 1
    offset = _chars(data, line_start, pos)
    # describe() looks a few characters back (or at the last one that is not
    # blank) and a word ahead
    a = _char_start(data, max(start, pos - 16), start)
    b = _char_start(data, pos + 256, pos) if pos + 256 < n else n
    before, after = data[a:pos].decode("utf-8"), data[pos:b].decode("utf-8")
    lead = ""
    if a > start and not before.strip(" \t\r\n"):
        j = _last_not_blank(data, start, a)
        if j >= 0:
            lead = data[_char_start(data, j, start):j + 1].decode("utf-8") + " "
    message = describe(lead + before + after, len(lead) + len(before), code)
    total = offset + _chars(data, pos, line_end)
    left, right = _window(offset, total)
    # the shown characters are within 4 bytes each of the place
    head = data[_char_start(data, max(line_start, pos - 4 * (offset - left)), line_start):pos]
    stop = pos + 4 * (right - offset)
    tail = data[pos:_char_start(data, stop, pos) if stop < line_end else line_end]
    shown_head = head.decode("utf-8")
    cur = shown_head[len(shown_head) - (offset - left):] + tail.decode("utf-8")[:right - offset]
    prev = None
    if line > 1 and left == 0:
        prev_start = data.rfind(b"\n", start, line_start - 1) + 1 or start
        if line_start - 1 - prev_start <= 4 * _SNIPPET_WIDTH:
            prev = data[prev_start:line_start - 1].decode("utf-8")
    shown = _render(line, cur, offset - left, left > 0, right < total, prev)
    return JSONSyntaxError(message, pos=_chars(data, start, line_start) + offset, line=line,
                           column=offset + 1, snippet=shown, code=code, what=what)


def _char_start(data: bytes, i: int, lo: int) -> int:
    """i, or the start of the UTF-8 character it is inside (not before lo)."""
    while i > lo and (data[i] & 0xC0) == 0x80:
        i -= 1
    return i


def _chars(data: bytes, a: int, b: int) -> int:
    """Characters in the valid UTF-8 data[a:b] (both at character starts),
    counted a piece at a time."""
    count = 0
    while a < b:
        e = min(b, a + (1 << 18))
        if e < b:
            e = _char_start(data, e, a)
        piece = data[a:e]
        count += len(piece) if piece.isascii() else len(piece.decode("utf-8"))
        a = e
    return count


def _last_not_blank(data: bytes, lo: int, hi: int) -> int:
    """The offset of the last byte in data[lo:hi] that is not JSON
    whitespace, or -1 (looked for a piece at a time, backwards)."""
    while hi > lo:
        a = max(lo, hi - 4096)
        kept = data[a:hi].rstrip(b" \t\r\n")
        if kept:
            return a + len(kept) - 1
        hi = a
    return -1



def _found(text: str, pos: int) -> str:
    if pos >= len(text):
        return "the end of the input"
    c = text[pos]
    if c == "\n":
        return "a line break"
    if c.isprintable() and not c.isspace():
        return repr(c)
    return f"U+{ord(c):04X}"


def _prev_char(text: str, pos: int) -> str:
    before = text[:pos].rstrip(" \t\r\n")
    return before[-1:] if before else ""


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$-]*")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


def _value_hint(text: str, pos: int, expected: str) -> str:
    c = text[pos]
    if c == "'":
        return "single quotes are not JSON: strings and keys need double quotes"
    if text.startswith(("//", "/*"), pos):
        return "comments are not allowed in JSON"
    if c in "]}" and _prev_char(text, pos) == ",":
        return f"trailing comma before {c!r}"
    m = _WORD.match(text, pos)
    if m:
        word = m.group()
        if word in ("NaN", "Infinity"):
            return f"{word} is not a JSON number"
        if word in _PY_LITERALS:
            return f"{word} is a Python literal, not JSON: write {_PY_LITERALS[word]}"
        shown = word if len(word) <= 30 else word[:30] + "..."
        return (f"unquoted text {shown!r}: {expected} must be in double quotes"
                if expected == "keys" else f"unquoted text {shown!r}: strings need double quotes")
    if c in "+.":
        return f"a JSON number cannot start with {c!r}"
    return ""


def describe(text: str, pos: int, code: int) -> str:
    """A message for scan() error ``code`` at ``pos``."""
    at_end = pos >= len(text)
    found = _found(text, pos)
    if code == _k.E_VALUE:
        if at_end:
            if not text.strip(" \t\r\n"):
                return "empty input: expected a JSON value"
            return "unexpected end of the input: expected a value"
        hint = _value_hint(text, pos, "strings")
        return hint or f"expected a value, found {found}"
    if code == _k.E_KEY:
        if at_end:
            return "unexpected end of the input: expected a key"
        hint = _value_hint(text, pos, "keys")
        return hint or f"expected a double-quoted key, found {found}"
    if code == _k.E_COLON:
        return f"expected ':' after the key, found {found}"
    if code in (_k.E_OBJECT, _k.E_ARRAY):
        close = "}" if code == _k.E_OBJECT else "]"
        what = "an object member" if code == _k.E_OBJECT else "an array element"
        if at_end:
            return f"unexpected end of the input: expected ',' or '{close}' (not closed)"
        if text.startswith(("//", "/*"), pos):
            return "comments are not allowed in JSON"
        if text[pos] in "]}":
            return f"expected ',' or '{close}' after {what}, found {found} (brackets do not match)"
        if text[pos] in "\"{[-0123456789tfn":
            return f"expected ',' or '{close}' after {what}, found {found} (a comma is missing?)"
        return f"expected ',' or '{close}' after {what}, found {found}"
    if code == _k.E_STRING:
        return "unterminated string (it starts here)"
    if code == _k.E_CONTROL:
        c = text[pos]
        escape = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}.get(
            c, f"\\u{ord(c):04x}")
        name = {"\n": " (a line break)", "\t": " (a tab)", "\r": " (a carriage return)"}.get(c, "")
        return f"raw control character U+{ord(c):04X}{name} inside a string: write it as {escape}"
    if code == _k.E_ESCAPE:
        return f"invalid escape {text[pos:pos + 6]!r} in a string"
    if code == _k.E_NUMBER:
        prev = text[pos - 1] if pos > 0 else ""
        if prev == ".":
            return "invalid number: a digit must follow the decimal point"
        if prev in "eE" or (prev in "+-" and pos > 1 and text[pos - 2] in "eE"):
            return "invalid number: the exponent needs digits"
        if prev == "-":
            return "invalid number: '-' must be followed by a digit"
        return "invalid number: leading zeros are not allowed"
    if code == _k.E_TRAILING:
        return f"data after the end of the JSON value: found {found}"
    return f"invalid JSON (code {code})"


_CONTROL = {i: "\ufffd" for i in range(32) if i != 9}
_SNIPPET_WIDTH = 100


def snippet(text: str, pos: int) -> str:
    """The line holding ``pos`` (and the one before), with a caret under it.

    Long lines show a window around the column; control characters are shown
    as U+FFFD so the caret stays aligned; tabs are kept as tabs.
    """
    pos = min(max(pos, 0), len(text))
    line, col = line_col(text, pos)
    start = text.rfind("\n", 0, pos) + 1
    stop = text.find("\n", pos)
    if stop < 0:
        stop = len(text)
    offset = pos - start
    left, right = _window(offset, stop - start)
    prev = None
    if line > 1 and left == 0:
        pstart = text.rfind("\n", 0, start - 1) + 1
        prev = text[pstart:start - 1]
    return _render(line, text[start + left:start + right], offset - left, left > 0,
                   right < stop - start, prev)


def _window(offset: int, length: int) -> tuple[int, int]:
    """The characters [left, right) of a line of ``length`` shown around
    column ``offset``."""
    if length <= _SNIPPET_WIDTH:
        return 0, length
    left = max(0, offset - _SNIPPET_WIDTH // 2)
    right = min(length, left + _SNIPPET_WIDTH)
    return max(0, right - _SNIPPET_WIDTH), right


def _render(line: int, cur: str, offset: int, cut_left: bool, cut_right: bool,
            prev: str | None) -> str:
    """The snippet: the line before (when short), the shown part ``cur`` of
    the line with the place at ``offset``, and the caret."""
    prefix = "..." if cut_left else ""
    suffix = "..." if cut_right else ""
    shown = prefix + cur.translate(_CONTROL) + suffix
    pad = "".join("\t" if ch == "\t" else " " for ch in (prefix + cur[:offset]))
    width = len(str(line))
    lines = []
    if prev is not None and len(prev) <= _SNIPPET_WIDTH:
        lines.append(f"{line - 1:>{width}} | {prev.translate(_CONTROL)}")
    lines.append(f"{line:>{width}} | {shown}")
    lines.append(f"{'':>{width}} | {pad}^")
    return "\n".join(lines)
