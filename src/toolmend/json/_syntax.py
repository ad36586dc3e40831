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

__all__ = ["syntax_error", "describe", "snippet"]


def syntax_error(text: str, pos: int, code: int, what: str = "the text") -> JSONSyntaxError:
    """The JSONSyntaxError for scan() error ``code`` at offset ``pos``."""
    line, column = line_col(text, pos)
    return JSONSyntaxError(describe(text, pos, code), pos=pos, line=line, column=column,
                           snippet=snippet(text, pos), code=code, what=what)



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
    cur = text[start:stop]
    offset = pos - start
    prefix = suffix = ""
    if len(cur) > _SNIPPET_WIDTH:
        left = max(0, offset - _SNIPPET_WIDTH // 2)
        right = min(len(cur), left + _SNIPPET_WIDTH)
        left = max(0, right - _SNIPPET_WIDTH)
        prefix = "..." if left > 0 else ""
        suffix = "..." if right < len(cur) else ""
        cur = cur[left:right]
        offset -= left
    shown = prefix + cur.translate(_CONTROL) + suffix
    pad = "".join("\t" if ch == "\t" else " " for ch in (prefix + cur[:offset]))
    width = len(str(line))
    lines = []
    if line > 1 and not prefix:
        pstart = text.rfind("\n", 0, start - 1) + 1
        prev = text[pstart:start - 1]
        if len(prev) <= _SNIPPET_WIDTH:
            lines.append(f"{line - 1:>{width}} | {prev.translate(_CONTROL)}")
    lines.append(f"{line:>{width}} | {shown}")
    lines.append(f"{'':>{width}} | {pad}^")
    return "\n".join(lines)
