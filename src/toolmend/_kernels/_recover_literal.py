"""The object-literal parser of the pure-Python recovery twin (strategy 7,
``parse_object_literal``): ``{cmd: read, n: 1.50}`` read by hand, rebuilt as
JSON. The compiled twin is ``ext/_recover_literal.pxi``."""

from __future__ import annotations

import math
import re
from typing import Any

from .._text import JSON_NUMBER, MAX_DEPTH
from ._recover_tokens import MIXED_ESCAPES, Refused

_WS = re.compile(r"\s*")
_INVISIBLE = re.compile("[\u180e\u200b\u200c\u200d\u2060\ufeff]")
_BARE_VALUE = re.compile(r"[^,}\]\n\r]*")
_BARE_KEY = re.compile(r"[^:,{}\[\]\n\r]*")
_NUMBER = re.compile(JSON_NUMBER + r"\Z")
_QUOTED = {
    '"': re.compile(r'"((?:[^"\\]|\\.)*)"', re.S),
    "'": re.compile(r"'((?:[^'\\]|\\.)*)'", re.S),
}
_ESCAPE = re.compile(
    r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    r"|\\u([0-9a-fA-F]{4})|\\(.)",
    re.S,
)
_SIMPLE_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/",
                   "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
_JSON_SPECIAL = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                 "\b": "\\b", "\f": "\\f"}


def _unescape(m: re.Match[str]) -> str:
    hi, lo, single, other = m.groups()
    if hi is not None:
        return chr(0x10000 + ((int(hi, 16) - 0xD800) << 10) + (int(lo, 16) - 0xDC00))
    if single is not None:
        return chr(int(single, 16))
    return _SIMPLE_ESCAPES.get(other, m.group(0))


def _json_escape(m: re.Match[str]) -> str:
    c = m.group(0)
    return _JSON_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _json_string(v: str) -> str:
    return '"' + _JSON_SPECIAL.sub(_json_escape, v) + '"'


# \uXXXX escapes in a bare key (JSON5 allows them there), read as JSON reads
# them in a string: a surrogate pair is one character, a lone one kept.
_U_ESCAPES = re.compile(r"(?:\\u[0-9a-fA-F]{4})+")


def _u_unescape(key: str) -> str:
    def one(m: re.Match[str]) -> str:
        units = m.group(0).encode("ascii").decode("unicode_escape")
        return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _U_ESCAPES.sub(one, key) if "\\" in key else key


_EACH_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)


def _read_quoted(s: str, i: int) -> tuple[str, int]:
    m = _QUOTED[s[i]].match(s, i)
    if m is None:
        raise Refused(i, "unterminated string")
    body = m.group(1)
    if "\\" in body:
        kept = letter = False  # a backslash kept as text, one read as a control character (or \\)
        for e in _EACH_ESCAPE.finditer(body):
            c = e.group(1)
            if c in "bfnrt\\":
                letter = True
            elif len(c) == 1 and c not in "\"'\\/":
                kept = True
        if kept and letter:
            raise Refused(i, MIXED_ESCAPES)
    return _ESCAPE.sub(_unescape, body), m.end()


# A number written in a form JSON lacks (007, 0x1F, +5, .5, 5., 1_000): the
# repair engine converts it, so the literal parser must not take it as text.
_NUMBER_FORM = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F_]+|(?=[0-9_.]*[0-9])[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]*)?)\Z")
_ENGINE_WORDS = frozenset(("nan", "-nan", "infinity", "-infinity", "inf", "-inf", "undefined"))
_ENGINE_CALLS = ("ObjectId(", "ISODate(", "UUID(", "Date(", "Timestamp(", "NumberLong(",
                 "NumberInt(", "NumberDecimal(")


_CALL = re.compile(r"[A-Za-z_$][\w$.]*\(.*\)\Z", re.S)  # the whole token a call: f(1), os.system(x)


def _bare_unsafe(tok: str) -> bool:
    """Whether a bare token holds structure or a form the repair engine reads
    otherwise (a quote, a comment, an ellipsis, a number form, several
    values, NaN, a MongoDB call): then it is not taken as a string."""
    if '"' in tok or tok.startswith(("#", "//", "/*", "...", "\u2026", "+", "(", "`", "-(")):
        return True  # (a value in backticks: a fence, a template, Markdown's code; not plain text)
    if tok[0] == "*" and _CALL.match(tok.lstrip("*")):
        return True  # (*range(3), -(1): Python's code, whose value is not its text)
    if tok.endswith("\u201d") and "\u201c" not in tok:  # (/tmp": a closing curly quote, its opener dropped)
        return True
    if tok[:2] in ("u'", "U'") or _INVISIBLE.search(tok):  # u'...', a zero-width space
        return True
    # a comment (not a URL's ://), a call (os.system(...)) or a quote among its characters (r'...',
    # it's aside): the engine reads (and refuses) those
    if "/*" in tok or (_CALL.match(tok) and not tok.startswith(_ENGINE_CALLS)):
        return True
    k = tok.find("//")
    while k >= 0:
        if k == 0 or tok[k - 1] != ":":
            return True
        k = tok.find("//", k + 2)
    k = tok.find("'")
    while k >= 0:
        if not (0 < k < len(tok) - 1 and tok[k - 1].isalnum() and tok[k + 1].isalnum()):
            return True
        k = tok.find("'", k + 1)
    k = tok.find("#")
    while k > 0:  # (x # note: a comment, as Python and YAML read it, or the text's, two readings)
        if tok[k - 1].isspace():
            return True
        k = tok.find("#", k + 1)
    first = tok.split(None, 1)[0]
    if first[0] in "-.0123456789" and _NUMBER_FORM.match(first):  # (not _1: a name)
        return first != tok or not _NUMBER.match(tok) or _beyond_double(tok)
    if first.lower() in ("true", "false", "null", "none"):
        return first != tok
    return tok.lower() in _ENGINE_WORDS or tok.startswith(_ENGINE_CALLS)


def _beyond_double(tok: str) -> bool:
    """Whether a JSON number is too large for a double (``1e999``): JSON has
    no Infinity, so the repair engine refuses it."""
    return ("e" in tok or "E" in tok or len(tok) > 308) and math.isinf(float(tok))


def _bare(tok: str) -> tuple[Any, str]:
    first = tok[0]
    if first in "tTfFnN":
        low = tok.lower()
        if low in ("true", "false"):
            return low == "true", low
        if low in ("null", "none"):
            return None, "null"
    elif _NUMBER.match(tok):
        try:
            value: Any = float(tok) if ("." in tok or "e" in tok or "E" in tok) else int(tok)
        except ValueError:  # more digits than int() accepts: keep the text
            pass
        else:
            return value, tok
    return tok, _json_string(tok)


_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _AFTER = range(5)


def parse_object_literal(s: str) -> tuple[Any, str]:
    """Parse a JavaScript/Python-style object literal; return (value, json_text).

    See the compiled twin for the grammar. Raises Refused on anything
    ambiguous instead of guessing.
    """
    n = len(s)
    i = 0
    state = _VALUE
    stack: list[list[Any]] = []  # frames: [container, key, opening index]
    out: list[str] = []
    top: Any = None
    while True:
        ws = _WS.match(s, i).group(0)  # type: ignore[union-attr]
        newline = "\n" in ws or "\r" in ws
        i += len(ws)
        have_value = False
        value: Any = None
        if state == _AFTER:
            if not stack:
                if i < n:
                    raise Refused(i, "unexpected text after the end of the value")
                return top, "".join(out)
            frame = stack[-1]
            is_obj = type(frame[0]) is dict
            closer = "}" if is_obj else "]"
            if i >= n:
                raise Refused(frame[2], "unclosed '%s'" % ("{" if is_obj else "["))
            c = s[i]
            if c == closer:
                i += 1
                stack.pop()
                out.append(closer)
                value, have_value = frame[0], True
            elif c in "}]":
                raise Refused(i, "'%s' does not close '%s'" % (c, "{" if is_obj else "["))
            elif c == "," or newline:
                if c == ",":
                    i = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
                    if i < n and s[i] == ",":
                        raise Refused(i, "empty piece between commas")
                if i < n and s[i] == closer:  # trailing separator
                    continue
                out.append(",")
                state = _KEY if is_obj else _VALUE
                continue
            else:
                raise Refused(i, "expected ',' or '%s'" % closer)
        elif state in (_KEY, _KEY_OR_CLOSE):
            if i >= n:
                raise Refused(stack[-1][2], "unclosed '{'")
            c = s[i]
            if c == "}" and state == _KEY_OR_CLOSE:
                i += 1
                value, have_value = stack.pop()[0], True
                out.append("}")
            else:
                start = i
                if c in "\"'":
                    key, i = _read_quoted(s, i)
                    i = _WS.match(s, i).end()  # type: ignore[union-attr]
                    if i >= n or s[i] != ":":
                        raise Refused(start, "expected ':' after key %r" % key)
                else:
                    j = _BARE_KEY.match(s, i).end()  # type: ignore[union-attr]
                    if j >= n or s[j] != ":":
                        raise Refused(start, "piece %r has no colon" % s[start:j].strip())
                    key = s[start:j].strip()
                    if not key:
                        raise Refused(start, "empty key")
                    if '"' in key:
                        raise Refused(start, "bare key %r holds a quote" % key)
                    key = _u_unescape(key)
                    i = j
                i += 1  # the colon
                stack[-1][1] = key
                out.append(_json_string(key) + ":")
                state = _VALUE
                continue
        else:  # _VALUE or _VALUE_OR_CLOSE
            if i >= n:
                raise Refused(i, "missing value" if stack else "empty text")
            c = s[i]
            if c == "]" and state == _VALUE_OR_CLOSE:
                i += 1
                value, have_value = stack.pop()[0], True
                out.append("]")
            elif c in "{[":
                if len(stack) >= MAX_DEPTH:
                    raise Refused(i, "nesting deeper than %d levels" % MAX_DEPTH)
                stack.append([{} if c == "{" else [], None, i])
                out.append(c)
                i += 1
                state = _KEY_OR_CLOSE if c == "{" else _VALUE_OR_CLOSE
                continue
            elif c in "\"'":
                value, i = _read_quoted(s, i)
                out.append(_json_string(value))
                have_value = True
            else:
                start = i
                i = _BARE_VALUE.match(s, i).end()  # type: ignore[union-attr]
                tok = s[start:i].strip()
                if not tok:
                    raise Refused(start, "missing value")
                if _bare_unsafe(tok):
                    raise Refused(start, "bare value %r is not plain text" % tok)
                value, text = _bare(tok)
                out.append(text)
                have_value = True
        if have_value:
            if stack:
                frame = stack[-1]
                if type(frame[0]) is dict:
                    frame[0][frame[1]] = value
                else:
                    frame[0].append(value)
            else:
                top = value
            state = _AFTER
